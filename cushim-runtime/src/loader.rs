//! The platform's loader: opening a library by path or name, its messages,
//! and the file mapped at an address.

use std::ffi::c_void;
#[cfg(unix)]
use std::ffi::{c_char, c_int, CStr};
use std::path::PathBuf;

/// The absolute path of the file mapped at `address`, as the platform's
/// loader reports it. Example: where the driver that the CUDA runtime
/// handed out lives.
#[cfg(unix)]
pub(crate) fn file_of(address: *const c_void) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    #[repr(C)]
    struct DlInfo {
        fname: *const c_char,
        fbase: *mut c_void,
        sname: *const c_char,
        saddr: *mut c_void,
    }
    unsafe extern "C" {
        fn dladdr(address: *const c_void, info: *mut DlInfo) -> c_int;
    }
    let mut found = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: `found` is a valid `Dl_info`; the loader fills it in, and its
    // file name lives as long as the library, which is never unloaded.
    let name = unsafe {
        if address.is_null() || dladdr(address, &raw mut found) == 0 || found.fname.is_null() {
            return None;
        }
        CStr::from_ptr(found.fname)
    };
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(name.to_bytes()));
    path.is_absolute().then_some(path)
}

/// The absolute path of the DLL mapped at `address`.
#[cfg(windows)]
pub(crate) fn file_of(address: *const c_void) -> Option<PathBuf> {
    use std::ffi::OsString;
    use std::os::windows::ffi::OsStringExt;
    #[link(name = "kernel32")]
    unsafe extern "system" {
        fn GetModuleHandleExW(flags: u32, name: *const u16, module: *mut *mut c_void) -> i32;
        fn GetModuleFileNameW(module: *mut c_void, name: *mut u16, size: u32) -> u32;
    }
    // GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | ..._UNCHANGED_REFCOUNT
    const FROM_ADDRESS: u32 = 0x4 | 0x2;
    if address.is_null() {
        return None;
    }
    let mut module: *mut c_void = std::ptr::null_mut();
    let mut name = vec![0u16; 32_768];
    // SAFETY: `module` and `name` are valid for the sizes given; the module
    // stays loaded (a library is never unloaded).
    let length = unsafe {
        if GetModuleHandleExW(FROM_ADDRESS, address.cast(), &raw mut module) == 0 {
            return None;
        }
        GetModuleFileNameW(module, name.as_mut_ptr(), 32_768)
    };
    let length = usize::try_from(length).ok()?;
    if length == 0 || length >= name.len() {
        return None;
    }
    let path = PathBuf::from(OsString::from_wide(&name[..length]));
    path.is_absolute().then_some(path)
}

#[cfg(not(any(unix, windows)))]
pub(crate) fn file_of(_: *const c_void) -> Option<PathBuf> {
    None
}

/// libloading's message and the platform's own (`dlerror`), on one line.
pub(crate) fn describe(e: &libloading::Error) -> String {
    match std::error::Error::source(e) {
        Some(inner) => format!("{e}: {inner}"),
        None => e.to_string(),
    }
}

/// Opens a library by path or name (`loaded_only`: only if it is loaded already).
#[cfg(unix)]
pub(crate) fn open_one(
    name: &std::ffi::OsStr,
    loaded_only: bool,
) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};
    // `RTLD_NOLOAD`, asked for only where `ASKS_LOADED` knows its value.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const NOLOAD: c_int = 4;
    #[cfg(any(target_os = "macos", target_os = "ios"))]
    const NOLOAD: c_int = 0x10;
    #[cfg(not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios"
    )))]
    const NOLOAD: c_int = 0;
    let flags = RTLD_NOW | RTLD_LOCAL | if loaded_only { NOLOAD } else { 0 };
    // SAFETY: loading the library runs its initializers; that is the point.
    unsafe { Library::open(Some(name), flags) }.map(Into::into)
}

/// Opens a library: a bare name only from the system directory, an absolute
/// path with its own directory for its dependencies; never the working
/// directory or the executable's.
#[cfg(windows)]
pub(crate) fn open_one(
    name: &std::ffi::OsStr,
    loaded_only: bool,
) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::windows::{
        Library, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR, LOAD_LIBRARY_SEARCH_SYSTEM32,
    };
    if loaded_only {
        return Library::open_already_loaded(name).map(Into::into);
    }
    let flags = if std::path::Path::new(name).is_absolute() {
        LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32
    } else {
        LOAD_LIBRARY_SEARCH_SYSTEM32
    };
    // SAFETY: as above.
    unsafe { Library::load_with_flags(name, flags) }.map(Into::into)
}
