//! The rule on Windows, from a path's owner and DACL (OpenSSH for Windows
//! holds its configuration files to a rule of this kind).
//!
//! A path is owned safely when its owner is this process's user, SYSTEM,
//! Administrators or `TrustedInstaller` (the trusted), it has a DACL (a NULL
//! DACL lets everyone do anything), and no ACE of that DACL that applies to
//! the path itself (inherit-only ones are for its children, which carry
//! their own copy) allows anyone else a right that changes what the path
//! holds or names ([`WRITE`]). Deny ACEs are not weighed: an allowed right
//! is refused even where a deny ACE would take it back.

use std::ffi::c_void;
use std::os::windows::ffi::OsStrExt;
use std::path::Path;
use std::ptr::null_mut;

use windows_sys::Win32::Foundation::{
    CloseHandle, LocalFree, ERROR_SUCCESS, GENERIC_ALL, GENERIC_WRITE, HANDLE,
};
use windows_sys::Win32::Security::Authorization::{
    ConvertSidToStringSidW, GetNamedSecurityInfoW, SE_FILE_OBJECT,
};
use windows_sys::Win32::Security::{
    EqualSid, GetAce, GetTokenInformation, IsWellKnownSid, TokenUser, WinAuthenticatedUserSid,
    WinBuiltinAdministratorsSid, WinBuiltinUsersSid, WinLocalSystemSid, WinWorldSid, ACE_HEADER,
    ACL, DACL_SECURITY_INFORMATION, INHERIT_ONLY_ACE, OWNER_SECURITY_INFORMATION, PSID,
    TOKEN_QUERY, TOKEN_USER,
};
use windows_sys::Win32::Storage::FileSystem::{
    DELETE, FILE_ADD_FILE, FILE_ADD_SUBDIRECTORY, FILE_APPEND_DATA, FILE_DELETE_CHILD,
    FILE_WRITE_ATTRIBUTES, FILE_WRITE_DATA, WRITE_DAC, WRITE_OWNER,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

/// The rights refused to anyone but the trusted: writing or appending to a
/// file, adding entries to a directory (the same bits), removing or
/// renaming the path or an entry of the directory, changing its DACL or its
/// owner, the generic rights that hold those, and `FILE_WRITE_ATTRIBUTES`,
/// so as not to rely on which of these rights a file system asks for before
/// it turns a directory into a link (a reparse point). Reading, executing,
/// and writing extended attributes (which the loader does not read) are
/// not.
const WRITE: u32 = FILE_WRITE_DATA
    | FILE_APPEND_DATA
    | FILE_WRITE_ATTRIBUTES
    | FILE_DELETE_CHILD
    | DELETE
    | WRITE_DAC
    | WRITE_OWNER
    | GENERIC_WRITE
    | GENERIC_ALL;

/// What a directory above a library outside its environment may let others
/// do: add entries (`C:\` lets every user create a folder), which replaces
/// none of the entries on the way to the library.
const ADD: u32 = FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY;

/// The ACE types that allow: their mask, then their SID (`ACCESS_ALLOWED`,
/// `ACCESS_ALLOWED_CALLBACK`), or their mask, flags and object types, then
/// their SID (the object kinds).
const ALLOWED: [u8; 2] = [0, 9];
const ALLOWED_OBJECT: [u8; 2] = [5, 11];

/// `TrustedInstaller`'s SID (`NT SERVICE\TrustedInstaller`), which owns the
/// system's own files.
const TRUSTED_INSTALLER: &str = "S-1-5-80-956008885-3544635353-1863223574-2197271163-1917906458";

/// `Ok` when `path` (followed through links) is owned safely.
pub(super) fn owned_safely(path: &Path) -> Result<(), String> {
    check(path, WRITE)
}

/// [`owned_safely`] for a directory above a library that links lead out of
/// its environment, which may also let others add entries ([`ADD`]).
pub(super) fn above(dir: &Path) -> Result<(), String> {
    check(dir, WRITE & !ADD)
}

/// A buffer that Windows allocated, freed with `LocalFree`.
struct Local(*mut c_void);

impl Drop for Local {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: Windows allocated it with LocalAlloc; nothing else frees it.
            unsafe { LocalFree(self.0) };
        }
    }
}

/// `Ok` when `path` passes the rule with `refused` rights for the others.
fn check(path: &Path, refused: u32) -> Result<(), String> {
    let wide: Vec<u16> = path
        .as_os_str()
        .encode_wide()
        .chain(std::iter::once(0))
        .collect();
    let (mut owner, mut dacl, mut descriptor): (PSID, *mut ACL, *mut c_void) =
        (null_mut(), null_mut(), null_mut());
    // SAFETY: a NUL-terminated path and valid out-pointers; the descriptor
    // it allocates holds the owner and the DACL and is freed last.
    let rc = unsafe {
        GetNamedSecurityInfoW(
            wide.as_ptr(),
            SE_FILE_OBJECT,
            OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
            &raw mut owner,
            null_mut(),
            &raw mut dacl,
            null_mut(),
            &raw mut descriptor,
        )
    };
    if rc != ERROR_SUCCESS {
        return Err(format!(
            "`{}` cannot be examined: error {rc}",
            path.display()
        ));
    }
    let _descriptor = Local(descriptor);
    let mut buffer = [0; 64];
    let me_sid = user(&mut buffer)?;
    if !trusted(owner, me_sid) {
        return Err(format!(
            "`{}` is owned by {}, neither this process's user ({}), SYSTEM, Administrators nor TrustedInstaller",
            path.display(),
            named(owner),
            sid_text(me_sid)
        ));
    }
    if dacl.is_null() {
        return Err(format!(
            "`{}` has no DACL, which lets everyone write it",
            path.display()
        ));
    }
    // SAFETY: the DACL lies in the descriptor, alive until the end.
    let count = unsafe { (*dacl).AceCount };
    for i in 0..u32::from(count) {
        let mut ace: *mut c_void = null_mut();
        // SAFETY: `i` is below the DACL's count.
        if unsafe { GetAce(dacl, i, &raw mut ace) } == 0 {
            continue;
        }
        // SAFETY: every ACE starts with its header, then (of the allowing
        // types) its 32-bit mask; the object kinds then have 32-bit flags
        // and one 16-byte GUID per flag set, and every allowing ACE then its
        // SID, inside the ACE's size.
        let (mask, sid) = unsafe {
            let header = ace.cast::<ACE_HEADER>().read_unaligned();
            if u32::from(header.AceFlags) & INHERIT_ONLY_ACE != 0 {
                continue;
            }
            let at = |offset: usize| ace.cast::<u8>().add(offset);
            let mask = at(4).cast::<u32>().read_unaligned();
            let sid_at = if ALLOWED.contains(&header.AceType) {
                8
            } else if ALLOWED_OBJECT.contains(&header.AceType) {
                let flags = at(8).cast::<u32>().read_unaligned();
                12 + 16 * (flags & 1) as usize + 16 * (flags >> 1 & 1) as usize
            } else {
                continue;
            };
            (mask, at(sid_at).cast::<c_void>())
        };
        if mask & refused != 0 && !trusted(sid, me_sid) {
            return Err(format!(
                "`{}` is writable by {} (access mask {mask:#010x})",
                path.display(),
                named(sid)
            ));
        }
    }
    Ok(())
}

/// This process's user, as its token tells, written into `buffer` (the
/// SID points into it); else why it is unknown.
fn user(buffer: &mut [u64; 64]) -> Result<PSID, String> {
    let mut token: HANDLE = null_mut();
    // SAFETY: the pseudo-handle of this process and a valid out-pointer.
    if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &raw mut token) } == 0 {
        return Err(format!(
            "this process's user is unknown: error {}",
            std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
        ));
    }
    let mut size = 0;
    // SAFETY: the token is open; the buffer is 512 bytes, 8-aligned.
    let ok = unsafe {
        GetTokenInformation(
            token,
            TokenUser,
            buffer.as_mut_ptr().cast(),
            512,
            &raw mut size,
        )
    };
    let error = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
    // SAFETY: opened above, closed once.
    unsafe { CloseHandle(token) };
    if ok == 0 {
        return Err(format!("this process's user is unknown: error {error}"));
    }
    // SAFETY: GetTokenInformation wrote a TOKEN_USER at the start.
    Ok(unsafe { buffer.as_ptr().cast::<TOKEN_USER>().read().User.Sid })
}

/// Whether `sid` is this process's user, SYSTEM, Administrators or
/// `TrustedInstaller`.
fn trusted(sid: PSID, me: PSID) -> bool {
    // SAFETY: both are valid SIDs.
    let known = unsafe {
        EqualSid(sid, me) != 0
            || IsWellKnownSid(sid, WinLocalSystemSid) != 0
            || IsWellKnownSid(sid, WinBuiltinAdministratorsSid) != 0
    };
    known || sid_text(sid) == TRUSTED_INSTALLER
}

/// `sid` as `S-1-...`, with the name of the groups that ACLs most often
/// open to others: `Everyone (S-1-1-0)`.
fn named(sid: PSID) -> String {
    let names = [
        (WinWorldSid, "Everyone"),
        (WinAuthenticatedUserSid, "Authenticated Users"),
        (WinBuiltinUsersSid, "Users"),
    ];
    // SAFETY: a valid SID.
    match names
        .iter()
        .find(|(kind, _)| unsafe { IsWellKnownSid(sid, *kind) } != 0)
    {
        Some((_, name)) => format!("{name} ({})", sid_text(sid)),
        None => sid_text(sid),
    }
}

/// `sid` as `S-1-...`.
fn sid_text(sid: PSID) -> String {
    let mut text: *mut u16 = null_mut();
    // SAFETY: a valid SID and out-pointer; the string is freed below.
    if unsafe { ConvertSidToStringSidW(sid, &raw mut text) } == 0 {
        return "an unreadable SID".into();
    }
    let _text = Local(text.cast());
    // SAFETY: a NUL-terminated string that Windows wrote, of at most 184
    // characters (15 sub-authorities).
    let length = (0..256)
        .take_while(|&i| unsafe { *text.add(i) } != 0)
        .count();
    // SAFETY: `length` units before the NUL.
    String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(text, length) })
}
