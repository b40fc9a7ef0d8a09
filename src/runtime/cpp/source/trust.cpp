#if defined(__linux__) || defined(_WIN32)
// Whether a Python environment found above the program may supply a library
// (the Rust runtime's `trust` module: the same rule, in the same words):
// OpenSSH's StrictModes rule. Nobody named that directory (unlike
// VIRTUAL_ENV, CONDA_PREFIX or LD_LIBRARY_PATH, which the user sets), so a
// pyvenv.cfg or conda-meta planted in a directory that others can write
// (/tmp, or C:\ where any user may create a folder) must not bring a library
// into this process. Each of these must be owned safely (`owned_safely`):
// - the environment's directory and its marker files;
// - every directory from the environment down to the program, and down to
//   the library, and the library itself;
// - where links lead the library out of the environment, the file it
//   resolves to, and every directory above that up to the root, which may
//   let others add entries but nothing more (`owned_safely_above`).
// On Linux a path is owned safely when it belongs to root or to this
// process's effective user and neither its group nor others may write it;
// on Windows when it belongs to this process's user, SYSTEM, Administrators
// or TrustedInstaller and its DACL grants write access to none but those.

#ifdef _WIN32
// The rule on Windows, from a path's owner and DACL (OpenSSH for Windows
// holds its configuration files to a rule of this kind). A path is owned
// safely when its owner is trusted (`trusted`), it has a DACL (a NULL DACL
// lets everyone do anything), and no ACE of that DACL that applies to the
// path itself (inherit-only ones are for its children, which carry their own
// copy) allows anyone else a right of `write_rights`. Deny ACEs are not
// weighed: an allowed right is refused even where a deny ACE would take it
// back.
#if defined(_MSC_VER)
#pragma comment(lib, "advapi32")
#endif

// The rights refused to anyone but the trusted: writing or appending to a
// file, adding entries to a directory (the same bits), removing or renaming
// the path or an entry of the directory, changing its DACL or its owner, the
// generic rights that hold those, and FILE_WRITE_ATTRIBUTES, so as not to
// rely on which of these rights a file system asks for before it turns a
// directory into a link (a reparse point). Reading, executing, and writing
// extended attributes (which the loader does not read) are not.
constexpr DWORD write_rights = FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_ATTRIBUTES | FILE_DELETE_CHILD |
                               DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;
// What a directory above a library outside its environment may let others
// do: add entries (C:\ lets every user create a folder), which replaces none
// of the entries on the way to the library.
constexpr DWORD add_rights = FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY;
// TrustedInstaller's SID (NT SERVICE\TrustedInstaller), which owns the
// system's own files.
constexpr const char *trusted_installer = "S-1-5-80-956008885-3544635353-1863223574-2197271163-1917906458";
// Who alone may write an environment, as a refusal says.
constexpr const char *trusted_writers = "this user, SYSTEM, Administrators or TrustedInstaller";

// `sid` as S-1-..., into `out`.
void sid_text(PSID sid, char *out, std::size_t size) {
    char *text = nullptr;
    if (!ConvertSidToStringSidA(sid, &text)) {
        format(out, size, "an unreadable SID");
        return;
    }
    format(out, size, "%s", text);
    LocalFree(text);
}

// `sid` as S-1-..., with the name of the groups that ACLs most often open to
// others: "Everyone (S-1-1-0)".
void sid_named(PSID sid, char *out, std::size_t size) {
    char text[256];
    sid_text(sid, text, sizeof text);
    const WELL_KNOWN_SID_TYPE kinds[] = {WinWorldSid, WinAuthenticatedUserSid, WinBuiltinUsersSid};
    const char *const names[] = {"Everyone", "Authenticated Users", "Users"};
    for (std::size_t i = 0; i < 3; ++i) {
        if (IsWellKnownSid(sid, kinds[i])) {
            format(out, size, "%s (%s)", names[i], text);
            return;
        }
    }
    format(out, size, "%s", text);
}

// Whether `sid` is this process's user (`me`), SYSTEM, Administrators or
// TrustedInstaller.
bool trusted(PSID sid, PSID me) {
    if (EqualSid(sid, me) || IsWellKnownSid(sid, WinLocalSystemSid) || IsWellKnownSid(sid, WinBuiltinAdministratorsSid))
        return true;
    char text[256];
    sid_text(sid, text, sizeof text);
    return std::strcmp(text, trusted_installer) == 0;
}

// Whether `path` passes the rule with `refused` rights for the others; else
// why not, in `why`.
bool owned_safely_against(const char *path, DWORD refused, char *why, std::size_t size) {
    wchar_t wide[path_size];
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) == 0) {
        format(why, size, "`%s` cannot be examined: the name is not valid UTF-8", path);
        return false;
    }
    PSID owner = nullptr;
    PACL dacl = nullptr;
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    DWORD rc = GetNamedSecurityInfoW(wide, SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
                                     &owner, nullptr, &dacl, nullptr, &descriptor);
    if (rc != ERROR_SUCCESS) {
        format(why, size, "`%s` cannot be examined: error %lu", path, static_cast<unsigned long>(rc));
        return false;
    }
    // This process's user, as its token tells.
    alignas(8) unsigned char user[512];
    HANDLE token = nullptr;
    DWORD got = 0;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        format(why, size, "this process's user is unknown: error %lu", static_cast<unsigned long>(GetLastError()));
        LocalFree(descriptor);
        return false;
    }
    BOOL known = GetTokenInformation(token, TokenUser, user, sizeof user, &got);
    DWORD error = GetLastError();
    CloseHandle(token);
    if (!known) {
        format(why, size, "this process's user is unknown: error %lu", static_cast<unsigned long>(error));
        LocalFree(descriptor);
        return false;
    }
    PSID me = reinterpret_cast<TOKEN_USER *>(user)->User.Sid;
    bool ok = true;
    char who[256], mine[256];
    if (!trusted(owner, me)) {
        sid_named(owner, who, sizeof who);
        sid_text(me, mine, sizeof mine);
        format(why, size,
               "`%s` is owned by %s, neither this process's user (%s), SYSTEM, Administrators nor TrustedInstaller",
               path, who, mine);
        ok = false;
    } else if (!dacl) {
        format(why, size, "`%s` has no DACL, which lets everyone write it", path);
        ok = false;
    }
    for (DWORD i = 0; ok && dacl && i < dacl->AceCount; ++i) {
        void *ace = nullptr;
        if (!GetAce(dacl, i, &ace)) continue;
        // Every ACE starts with its header, then (of the allowing types) its
        // 32-bit mask; the object kinds (5, 11) then have 32-bit flags and
        // one 16-byte GUID per flag set, and every allowing ACE then its SID.
        const unsigned char *bytes = static_cast<const unsigned char *>(ace);
        ACE_HEADER header;
        std::memcpy(&header, bytes, sizeof header);
        if (header.AceFlags & INHERIT_ONLY_ACE) continue;
        DWORD mask, flags;
        std::memcpy(&mask, bytes + 4, sizeof mask);
        std::size_t sid_at;
        if (header.AceType == 0 || header.AceType == 9) {
            sid_at = 8;
        } else if (header.AceType == 5 || header.AceType == 11) {
            std::memcpy(&flags, bytes + 8, sizeof flags);
            sid_at = 12 + 16 * (flags & 1) + 16 * (flags >> 1 & 1);
        } else {
            continue;
        }
        PSID sid = const_cast<unsigned char *>(bytes + sid_at);
        if ((mask & refused) != 0 && !trusted(sid, me)) {
            sid_named(sid, who, sizeof who);
            format(why, size, "`%s` is writable by %s (access mask 0x%08lx)", path, who,
                   static_cast<unsigned long>(mask));
            ok = false;
        }
    }
    LocalFree(descriptor);
    return ok;
}

// Whether `path` (followed through links) is owned safely; else why not, in
// `why`.
bool owned_safely(const char *path, char *why, std::size_t size) {
    return owned_safely_against(path, write_rights, why, size);
}

// `owned_safely` for a directory above a library that links lead out of its
// environment, which may also let others add entries.
bool owned_safely_above(const char *dir, char *why, std::size_t size) {
    return owned_safely_against(dir, write_rights & ~add_rights, why, size);
}

// The program's own path, into `path`; else why not, in `why`.
bool program_path(char *path, std::size_t length, char *why, std::size_t size) {
    wchar_t wide[path_size];
    DWORD n = GetModuleFileNameW(nullptr, wide, static_cast<DWORD>(path_size));
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, path, static_cast<int>(length), nullptr, nullptr) == 0) {
        format(why, size, "the program's own path is unknown: error %lu", static_cast<unsigned long>(GetLastError()));
        return false;
    }
    return true;
}

// Where `path` leads through links (\\?\C:\...), into `real`; else why not,
// in `why`.
bool resolve(const char *path, char *real, std::size_t length, char *why, std::size_t size) {
    wchar_t wide[path_size], final_path[path_size];
    HANDLE h = INVALID_HANDLE_VALUE;
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0)
        h = CreateFileW(wide, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    DWORD n = 0;
    if (h != INVALID_HANDLE_VALUE) {
        n = GetFinalPathNameByHandleW(h, final_path, static_cast<DWORD>(path_size), VOLUME_NAME_DOS);
        CloseHandle(h);
    }
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, final_path, -1, real, static_cast<int>(length), nullptr, nullptr) == 0) {
        format(why, size, "`%s` cannot be resolved: error %lu", path, static_cast<unsigned long>(GetLastError()));
        return false;
    }
    return true;
}

// The length of the root that `path` starts with: 3 for C:\, 7 for \\?\C:\.
std::size_t root_length(const char *path) { return std::strncmp(path, "\\\\?\\", 4) == 0 ? 7 : 3; }

// Whether `path` exists, a link itself counted.
bool exists_unfollowed(const char *path) {
    wchar_t wide[path_size];
    return MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0 &&
           GetFileAttributesW(wide) != INVALID_FILE_ATTRIBUTES;
}
#else
// Who alone may write an environment, as a refusal says.
constexpr const char *trusted_writers = "root or this user";

// Whether `path` (followed through links) belongs to root or this user and
// neither its group nor others may write it; else why not, in `why`.
bool owned_safely(const char *path, char *why, std::size_t size) {
    struct stat st;
    if (stat(path, &st) != 0) {
        format(why, size, "`%s` cannot be examined: %s", path, std::strerror(errno));
        return false;
    }
    uid_t me = geteuid();
    if (st.st_uid != 0 && st.st_uid != me) {
        format(why, size, "`%s` is owned by uid %lu, neither root nor this process's user (uid %lu)", path,
               static_cast<unsigned long>(st.st_uid), static_cast<unsigned long>(me));
        return false;
    }
    bool group = (st.st_mode & S_IWGRP) != 0, others = (st.st_mode & S_IWOTH) != 0;
    if (!group && !others) return true;
    format(why, size, "`%s` is writable by %s (mode %04o)", path,
           group && others ? "group and others" : group ? "its group" : "others",
           static_cast<unsigned>(st.st_mode & 07777));
    return false;
}

// `owned_safely` for a directory above a library that links lead out of its
// environment. A directory like /tmp (root's, others may write, sticky) is
// fine: no one but an entry's owner can rename or remove it, and the entry
// below it is checked in turn.
bool owned_safely_above(const char *dir, char *why, std::size_t size) {
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0 && st.st_uid == 0) return true;
    return owned_safely(dir, why, size);
}

// The program's own path, into `path`; else why not, in `why`.
bool program_path(char *path, std::size_t length, char *why, std::size_t size) {
    ssize_t n = readlink("/proc/self/exe", path, length - 1);
    if (n <= 0) {
        format(why, size, "the program's own path is unknown: %s", std::strerror(errno));
        return false;
    }
    path[n] = '\0';
    return true;
}

// Where `path` leads through links, into `real` (of path_size bytes at
// least); else why not, in `why`.
bool resolve(const char *path, char *real, std::size_t, char *why, std::size_t size) {
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) {
        format(why, size, "`%s` cannot be resolved: %s", path, std::strerror(errno));
        return false;
    }
    format(real, path_size, "%s", resolved);
    return true;
}

// The length of the root that `path` starts with (/).
std::size_t root_length(const char *) { return 1; }

// Whether `path` exists, a link itself counted.
bool exists_unfollowed(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0;
}
#endif

// Checks `from` and each path below it on the way to `to`, `to` included.
bool owned_safely_down(const char *from, const char *to, char *why, std::size_t size) {
    std::size_t n = std::strlen(from);
    while (n > root_length(from) && from[n - 1] == separator) --n;
    bool inside = std::strncmp(from, to, n) == 0 && (to[n] == '\0' || to[n] == separator || from[n - 1] == separator);
    if (!inside) {
        format(why, size, "`%s` is not inside `%s`", to, from);
        return false;
    }
    char path[path_size];
    format(path, sizeof path, "%.*s", static_cast<int>(n), from);
    if (!owned_safely(path, why, size)) return false;
    std::size_t length = std::strlen(to);
    for (std::size_t i = n + 1; i <= length; ++i) {
        if (i < length && to[i] != separator) continue;
        if (to[i - 1] == separator) continue;  // "//", or a trailing separator
        format(path, sizeof path, "%.*s", static_cast<int>(i), to);
        if (!owned_safely(path, why, size)) return false;
    }
    return true;
}

// Whether the environment at `root`, found above the program, may supply
// `library` (a file below it); else why not, naming the path at fault.
bool environment_above(const char *root, const char *library, char *why, std::size_t size) {
    const char *const markers[] = {"pyvenv.cfg", "conda-meta"};
    char path[path_size];
    for (const char *marker : markers) {
        format(path, sizeof path, "%s%c%s", root, separator, marker);
        if (exists_unfollowed(path) && !owned_safely(path, why, size)) return false;
    }
    if (!program_path(path, sizeof path, why, size)) return false;
    if (char *slash = std::strrchr(path, separator))
        *(static_cast<std::size_t>(slash - path) + 1 == root_length(path) ? slash + 1 : slash) = '\0';
    if (!owned_safely_down(root, path, why, size)) return false;
    if (!owned_safely_down(root, library, why, size)) return false;
    char real[path_size], real_root[path_size];
    if (!resolve(library, real, sizeof real, why, size) || !resolve(root, real_root, sizeof real_root, why, size))
        return false;
    std::size_t r = std::strlen(real_root);
    if (std::strncmp(real, real_root, r) == 0 &&
        (real[r] == '\0' || real[r] == separator || real_root[r - 1] == separator))
        return owned_safely_down(real_root, real, why, size);
    // Out of the environment: the file, then every directory above it.
    if (!owned_safely(real, why, size)) return false;
    std::size_t top = root_length(real);
    while (std::strlen(real) > top) {
        char *slash = std::strrchr(real, separator);
        if (!slash) return true;
        *(static_cast<std::size_t>(slash - real) + 1 == top ? slash + 1 : slash) = '\0';
        if (!owned_safely_above(real, why, size)) return false;
    }
    return true;
}

// Whether a candidate in `environment`, found above the executable, may not
// be used; then why, in `why`.
bool refuse_environment(const char *environment, const char *path, char *why, std::size_t size) {
    format(why, size, "not used: ");
    std::size_t used = std::strlen(why);
    if (environment_above(environment, path, why + used, size - used)) return false;
    append(why, size, ", but a Python environment above the program is searched only if ");
    append(why, size, trusted_writers);
    append(why, size,
           " alone can write it, its marker and every directory down to the library and to the program (remove the "
           "others' write access, or name the environment with VIRTUAL_ENV or CONDA_PREFIX)");
    return true;
}
#else
bool refuse_environment(const char *environment, const char *, char *why, std::size_t size) {
    format(why, size, "not used: `%s` was found above the program, which is not searched on this system", environment);
    return true;
}
#endif

