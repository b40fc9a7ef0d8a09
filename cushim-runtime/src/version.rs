//! A library's version, read through its version function as its
//! description says that function answers.

use std::ffi::{c_char, c_int, c_void, CStr};

use crate::info::{LibraryInfo, VersionQuery};

/// Whether the library exports its version function: a file that does not
/// is no copy of this library, and the search goes on.
pub(crate) fn has_version_function(info: &LibraryInfo, library: &libloading::Library) -> bool {
    // SAFETY: only the symbol's address is asked for; nothing is called.
    unsafe {
        library
            .get::<*const c_void>(info.version_function.to_bytes_with_nul())
            .is_ok()
    }
}

/// What the version function returned, and the version as 1000 × major +
/// 10 × minor (0 when it is missing or failed).
pub(crate) fn version_of(info: &LibraryInfo, library: &libloading::Library) -> (Option<i32>, u32) {
    // SAFETY: only the symbol's address is taken here.
    let function = unsafe {
        library
            .get::<*mut c_void>(info.version_function.to_bytes_with_nul())
            .map(|f| *f)
    };
    match function {
        // SAFETY: the library exports the version function under its name,
        // with the prototype the description gives.
        Ok(f) if !f.is_null() => unsafe { call_version(info.version_query, f) },
        _ => (None, 0),
    }
}

/// Calls the version function at `function` as `query` says it answers:
/// what it returned, and the version as 1000 × major + 10 × minor (0 when
/// it failed).
///
/// # Safety
/// `function` is the library's version function, of the prototype `query` names.
pub(crate) unsafe fn call_version(
    query: VersionQuery,
    function: *mut c_void,
) -> (Option<i32>, u32) {
    type Number = unsafe extern "C" fn(*mut c_int) -> c_int;
    type MajorMinor = unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int;
    type Text = unsafe extern "C" fn(*mut c_char, u32) -> c_int;
    type Property = unsafe extern "C" fn(c_int, *mut c_int) -> c_int;
    type Returned = unsafe extern "C" fn() -> usize;
    /// A status struct of two ints, the code first (cuFile's `CUfileError_t`).
    #[repr(C)]
    struct CodePair {
        code: c_int,
        _other: c_int,
    }
    type InStatus = unsafe extern "C" fn(*mut c_int) -> CodePair;
    let ok = |v: c_int| u32::try_from(v).unwrap_or(0);
    // 10000 × major + 100 × minor + patch, as 1000 × major + 10 × minor.
    // 0 (unknown) outside the encoding, as the C++ runtime reads it.
    let decimal = |v: u64| match u32::try_from(v / 10000) {
        Ok(major @ 1..4_000_000) => major * 1000 + u32::try_from(v / 100 % 100).unwrap_or(0) * 10,
        _ => 0,
    };
    // SAFETY: the caller vouches for the prototype, which the library has
    // kept since it introduced the function.
    unsafe {
        match query {
            VersionQuery::Number => {
                let f = std::mem::transmute::<*mut c_void, Number>(function);
                let mut v: c_int = 0;
                let rc = f(&raw mut v);
                (Some(rc), if rc == 0 { ok(v) } else { 0 })
            }
            VersionQuery::NumberInStatus => {
                let f = std::mem::transmute::<*mut c_void, InStatus>(function);
                let mut v: c_int = 0;
                let rc = f(&raw mut v).code;
                (Some(rc), if rc == 0 { ok(v) } else { 0 })
            }
            VersionQuery::MajorMinor => {
                let f = std::mem::transmute::<*mut c_void, MajorMinor>(function);
                let (mut major, mut minor): (c_int, c_int) = (0, 0);
                let rc = f(&raw mut major, &raw mut minor);
                let v = ok(major)
                    .saturating_mul(1000)
                    .saturating_add(ok(minor).min(99) * 10);
                (Some(rc), if rc == 0 { v } else { 0 })
            }
            VersionQuery::Property => {
                let f = std::mem::transmute::<*mut c_void, Property>(function);
                let (mut major, mut minor): (c_int, c_int) = (0, 0);
                let rc = f(0, &raw mut major);
                let rc = if rc == 0 { f(1, &raw mut minor) } else { rc };
                let v = ok(major)
                    .saturating_mul(1000)
                    .saturating_add(ok(minor).min(99) * 10);
                (Some(rc), if rc == 0 { v } else { 0 })
            }
            VersionQuery::Decimal => {
                let f = std::mem::transmute::<*mut c_void, Number>(function);
                let mut v: c_int = 0;
                let rc = f(&raw mut v);
                (
                    Some(rc),
                    if rc == 0 {
                        decimal(u64::from(ok(v)))
                    } else {
                        0
                    },
                )
            }
            VersionQuery::Absent => (None, 0),
            VersionQuery::Api => {
                let f = std::mem::transmute::<*mut c_void, Number>(function);
                let mut v: c_int = 0;
                (Some(f(&raw mut v)), 0)
            }
            VersionQuery::Returned => {
                let f = std::mem::transmute::<*mut c_void, Returned>(function);
                (Some(0), decimal(f() as u64))
            }
            VersionQuery::Text => {
                let f = std::mem::transmute::<*mut c_void, Text>(function);
                let mut text = [0 as c_char; 96];
                let rc = f(text.as_mut_ptr(), 95);
                text[95] = 0;
                let digits: String = CStr::from_ptr(text.as_ptr())
                    .to_string_lossy()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                let major = digits.parse::<u32>().unwrap_or(0).min(4_000_000);
                (Some(rc), if rc == 0 { major * 1000 } else { 0 })
            }
        }
    }
}
