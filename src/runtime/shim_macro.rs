/// One shim per invocation.
///
/// The module defines `cushim_lazy!` and `cushim_linked!` before this macro:
/// one expands what it is given and the other nothing, by the `--link` mode
/// (or a cargo feature). Linked, a shim calls the symbol the IR names (or its
/// per-thread twin, by the stream mode) through an `extern` block that
/// `cushim_linked!(extern ...)` marks `#[link]`.
///
/// Each shim's one static, a `cushim_runtime::Function`, holds its facts and
/// its slot. The slot starts at `resolve`, which binds the function (see
/// `cushim_runtime::Function::bind`) and forwards the call; from then on a
/// call is one atomic load and one indirect call. When the library cannot
/// give the function, the slot keeps `resolve`, which answers as the library
/// would be absent. `resolve` lives inside the static's initializer, so that
/// a shim makes two items (the static and its function) and one method of
/// `Api`, with names the generator chose.
macro_rules! cushim_shim {
    // The common shape: the C name is the export and the lookup name, with
    // no ABI version or per-thread twin; attributes and aliases if any.
    (
        fn $symbol:ident $params:tt -> $ret:ty;
        $(attrs [$($attr:tt)*];)?
        static $function:ident;
        returns $returns:ident, fallback $fallback:tt;
        $(aliases [$($alias:ident),* $(,)?];)?
    ) => {
        cushim_shim! {
            fn $symbol $params -> $ret;
            attrs [$($($attr)*)?];
            static $function, export cushim_runtime::private::c_name(concat!(stringify!($symbol), "\0")),
                name stringify!($symbol), proc cushim_runtime::private::c_name(concat!(stringify!($symbol), "\0")),
                version 0, since 0, per_thread [];
            link [$symbol];
            returns $returns, fallback $fallback;
            aliases [$($($alias),*)?];
        }
    };
    (
        fn $symbol:ident $params:tt -> $ret:ty;
        attrs $attrs:tt;
        static $function:ident, export $export:expr, name $name:expr, proc $proc:expr,
        version $version:literal, since $since:literal, per_thread [$($twin:literal, $twin_version:literal)?];
        link [$($link:ident),+];
        returns $returns:ident, fallback [$($fallback:tt)*];
        aliases [$($alias:ident),* $(,)?];
    ) => {
        cushim_shim!(@shim $attrs $symbol $params $ret; $function, $export, $name, $proc, $version, $since, [$($twin, $twin_version)?], [$($fallback)*], [$($link),+], $returns, [$($alias),*]);
        $(cushim_shim!(@alias $attrs $alias $symbol $params $ret, $returns);)*
    };
    (@twin) => { None };
    (@twin $twin:literal, $twin_version:literal) => { Some(($twin, $twin_version)) };
    // Without the library a shim answers the code of its failure, or, for a
    // status's text function (`cuGetErrorName`), its status argument's C name.
    (@absent $function:ident, $ret:ty, []) => {
        <$ret as cushim_runtime::Status>::from_code($function.absent_code())
    };
    (@absent $function:ident, $ret:ty, [name $code:ident, $out:ident]) => {
        // SAFETY: the caller's out-pointer, as the C function takes it.
        unsafe { cushim_runtime::private::status_fallback::<Module>($code, $out) }
    };
    // A function that returns its text (`nvrtcGetErrorString`).
    (@absent $function:ident, $ret:ty, [name $code:ident]) => {
        cushim_runtime::private::returned_fallback::<Module>($code)
    };
    // A function that returns a value, not a status: zero (NULL) without the library.
    (@absent $function:ident, $ret:ty, [zero]) => {
        // SAFETY: the return types of such functions are integers and pointers.
        unsafe { ::std::mem::zeroed::<$ret>() }
    };
    // The typed layer: a status as a `Result`, or the value returned.
    (@api status $function:ident $symbol:ident ($($arg:ident),*) $ret:ty) => {
        cushim_runtime::private::status_result::<Module>(&$function, unsafe { $symbol($($arg),*) })
    };
    (@api value $function:ident $symbol:ident ($($arg:ident),*) $ret:ty) => {
        cushim_runtime::private::value_result::<Module, $ret>(&$function, unsafe { $symbol($($arg),*) })
    };
    // A value function with a fallback answers without the library too.
    (@api answer $function:ident $symbol:ident ($($arg:ident),*) $ret:ty) => {{
        Ok::<$ret, Error>(unsafe { $symbol($($arg),*) })
    }};
    (@ok status $ret:ty) => { () };
    (@ok $returns:ident $ret:ty) => { $ret };
    // Linked: the exported symbol, or its per-thread twin when that mode is in force.
    (@linked ($($arg:ident: $ty:ty),*) $ret:ty; [$export:ident]) => {{
        cushim_linked!(extern fn $export($($arg: $ty),*) -> $ret;);
        unsafe { $export($($arg),*) }
    }};
    (@linked ($($arg:ident: $ty:ty),*) $ret:ty; [$export:ident, $twin:ident]) => {{
        cushim_linked!(extern fn $export($($arg: $ty),*) -> $ret; fn $twin($($arg: $ty),*) -> $ret;);
        if CUSHIM_LIBRARY.per_thread_now() {
            unsafe { $twin($($arg),*) }
        } else {
            unsafe { $export($($arg),*) }
        }
    }};
    (
        @shim [$(#[$attr:meta])*] $symbol:ident ($($arg:ident: $ty:ty),* $(,)?) $ret:ty;
        $function:ident, $export:expr, $name:expr, $proc:expr, $version:literal, $since:literal,
        [$($twin:tt)*], [$($fallback:tt)*], [$($link:ident),+], $returns:ident, [$($alias:ident),*]
    ) => {
        #[doc(hidden)]
        // (The transmute below is the identity for a function of no
        // parameters that returns nothing, such as `ncclParamDumpAll`.)
        #[allow(non_upper_case_globals, non_snake_case, unused_variables, deprecated, clippy::useless_transmute)]
        pub static $function: cushim_runtime::Function = {
            // The shim's first call, and every call of a function the
            // library cannot give: binds it, then forwards the call, or
            // answers as the library would be absent.
            unsafe extern "C" fn resolve($($arg: $ty),*) -> $ret {
                let p = $function.bind();
                if p.is_null() {
                    return cushim_shim!(@absent $function, $ret, [$($fallback)*]);
                }
                // SAFETY: the library's function, whose C prototype this type mirrors.
                let f = unsafe { ::std::mem::transmute::<*mut (), unsafe extern "C" fn($($ty),*) -> $ret>(p) };
                unsafe { f($($arg),*) }
            }
            cushim_runtime::Function::new(
                &CUSHIM_LIBRARY,
                cushim_runtime::Facts {
                    name: $name,
                    aliases: &[$(stringify!($alias)),*],
                    symbol: $export,
                    proc_name: $proc,
                    version: $version,
                    since: $since,
                    per_thread: cushim_shim!(@twin $($twin)*),
                },
                // SAFETY: only stored, and called back as its own type by the shim.
                unsafe {
                    ::std::mem::transmute::<unsafe extern "C" fn($($ty),*) -> $ret, unsafe extern "C" fn()>(resolve)
                },
            )
        };

        $(#[$attr])*
        #[doc = concat!(
            "The library's `", stringify!($symbol), "` (C callers write `", $name, "`), bound on its first call.\n\n",
            "Without a usable library it returns the code of the failure; `last_load_error` says why.\n\n",
            "# Safety\n\nThe C function's own contract: valid pointers, handles and sizes."
        )]
        #[allow(non_snake_case, dead_code, clippy::missing_safety_doc, clippy::too_many_arguments)]
        #[inline]
        pub unsafe extern "C" fn $symbol($($arg: $ty),*) -> $ret {
            cushim_linked! {
                cushim_shim!(@linked ($($arg: $ty),*) $ret; [$($link),+])
            }
            cushim_lazy! {
                let p = $function.address();
                // SAFETY: the function's address is only ever `resolve` or the library's function.
                let f = unsafe { ::std::mem::transmute::<*mut (), unsafe extern "C" fn($($ty),*) -> $ret>(p) };
                unsafe { f($($arg),*) }
            }
        }

        #[allow(non_snake_case, dead_code, clippy::missing_safety_doc, clippy::too_many_arguments, deprecated)]
        impl Api {
            $(#[$attr])*
            #[doc = concat!(
                "`", stringify!($symbol), "` with its status as a `Result`, or the value it returns.\n\n",
                "# Errors\n\n`Error::Status` with the code the library returned, or `Error::Load` when the call never reached it.\n\n",
                "# Safety\n\nThe C function's own contract: valid pointers, handles and sizes."
            )]
            #[inline]
            pub unsafe fn $symbol($($arg: $ty),*) -> Result<cushim_shim!(@ok $returns $ret), Error> {
                cushim_shim!(@api $returns $function $symbol ($($arg),*) $ret)
            }
        }
    };
    (@alias [$(#[$attr:meta])*] $alias:ident $symbol:ident ($($arg:ident: $ty:ty),* $(,)?) $ret:ty, $returns:ident) => {
        #[allow(unused_imports, deprecated)]
        pub use self::$symbol as $alias;

        #[allow(non_snake_case, dead_code, clippy::missing_safety_doc, clippy::too_many_arguments, deprecated)]
        impl Api {
            $(#[$attr])*
            #[doc = concat!(
                "The same as `Api::", stringify!($symbol), "`.\n\n",
                "# Errors\n\nAs `Api::", stringify!($symbol), "`.\n\n",
                "# Safety\n\nAs `Api::", stringify!($symbol), "`."
            )]
            #[inline]
            pub unsafe fn $alias($($arg: $ty),*) -> Result<cushim_shim!(@ok $returns $ret), Error> {
                unsafe { Self::$symbol($($arg),*) }
            }
        }
    };
}
