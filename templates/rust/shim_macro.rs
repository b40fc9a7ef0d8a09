/// One shim per invocation.
///
/// `SLOT` starts at `resolve`, which binds the function (see
/// `cushim_loader::bind`), leaving the driver's address or `absent` in the slot,
/// and forwards the call. From then on a call is one atomic load and one
/// indirect call.
macro_rules! cushim_shim {
    (
        fn $symbol:ident $params:tt -> $ret:ty;
        attrs $attrs:tt;
        state $state:ident, export $export:literal, name $name:literal, proc $proc:literal, version $version:literal,
        since $since:literal, per_thread [$($twin:literal, $twin_version:literal)?];
        aliases [$($alias:ident),* $(,)?];
    ) => {
        cushim_shim!(@shim $attrs $symbol $params $ret; $state, $export, $name, $proc, $version, $since, [$($twin, $twin_version)?]);
        $(cushim_shim!(@alias $attrs $alias $symbol $params);)*
    };
    (@twin) => { None };
    (@twin $twin:literal, $twin_version:literal) => { Some(($twin, $twin_version)) };
    (
        @shim [$(#[$attr:meta])*] $symbol:ident ($($arg:ident: $ty:ty),* $(,)?) $ret:ty;
        $state:ident, $export:literal, $name:literal, $proc:literal, $version:literal, $since:literal, [$($twin:tt)*]
    ) => {
        #[doc(hidden)]
        #[allow(non_snake_case, dead_code, unused_variables, unused_imports, deprecated)]
        pub mod $state {
            use super::*;
            use std::sync::atomic::{AtomicPtr, Ordering};
            use std::sync::OnceLock;

            pub type Pointer = unsafe extern "C" fn($($ty),*) -> $ret;

            pub static FUNCTION: super::cushim_loader::Function = super::cushim_loader::Function {
                name: $name,
                symbol: $export,
                proc_name: $proc,
                version: $version,
                since: $since,
                per_thread: cushim_shim!(@twin $($twin)*),
                slot: &SLOT,
                // SAFETY: only compared and stored, never called through this type.
                resolver: unsafe { ::std::mem::transmute::<Pointer, unsafe extern "C" fn()>(resolve) },
                absent: unsafe { ::std::mem::transmute::<Pointer, unsafe extern "C" fn()>(absent) },
                failure: OnceLock::new(),
                reason: OnceLock::new(),
            };

            pub static SLOT: AtomicPtr<()> = AtomicPtr::new(resolve as Pointer as *mut ());

            unsafe extern "C" fn resolve($($arg: $ty),*) -> $ret {
                let p = super::cushim_loader::bind(&FUNCTION);
                // SAFETY: `p` is the driver's function, whose C prototype `Pointer`
                // mirrors, or `absent`.
                let f = unsafe { ::std::mem::transmute::<*mut (), Pointer>(p) };
                unsafe { f($($arg),*) }
            }

            unsafe extern "C" fn absent($($arg: $ty),*) -> $ret {
                let code = FUNCTION.reason.get().map_or(super::cushim_loader::CODE_LIBRARY_NOT_FOUND, |e| e.code());
                <$ret as super::cushim_loader::Status>::from_code(code)
            }

            /// Tells a loading failure from a driver failure; only on the error path.
            #[cold]
            pub fn classify(code: $ret) -> super::Error {
                match super::cushim_loader::failed(&FUNCTION) {
                    Some(e) => super::Error::Load(e),
                    None => super::Error::Driver(code),
                }
            }
        }

        $(#[$attr])*
        #[allow(non_snake_case, dead_code, clippy::missing_safety_doc, clippy::too_many_arguments)]
        #[inline]
        pub unsafe extern "C" fn $symbol($($arg: $ty),*) -> $ret {
            let p = $state::SLOT.load(::std::sync::atomic::Ordering::Acquire);
            // SAFETY: the slot only ever holds `resolve`, `absent` or the driver's function.
            let f = unsafe { ::std::mem::transmute::<*mut (), $state::Pointer>(p) };
            unsafe { f($($arg),*) }
        }

        #[allow(non_snake_case, dead_code, clippy::missing_safety_doc, clippy::too_many_arguments, deprecated)]
        impl Api {
            $(#[$attr])*
            #[inline]
            pub unsafe fn $symbol($($arg: $ty),*) -> Result<(), Error> {
                let code = unsafe { $symbol($($arg),*) };
                if <$ret as cushim_loader::Status>::is_success(&code) {
                    Ok(())
                } else {
                    Err($state::classify(code))
                }
            }
        }
    };
    (@alias [$(#[$attr:meta])*] $alias:ident $symbol:ident ($($arg:ident: $ty:ty),* $(,)?)) => {
        #[allow(unused_imports, deprecated)]
        pub use self::$symbol as $alias;

        #[allow(non_snake_case, dead_code, clippy::missing_safety_doc, clippy::too_many_arguments, deprecated)]
        impl Api {
            $(#[$attr])*
            #[inline]
            pub unsafe fn $alias($($arg: $ty),*) -> Result<(), Error> {
                unsafe { Self::$symbol($($arg),*) }
            }
        }
    };
}
