#if defined(__linux__)
// Whether a Python environment found above the program may supply a library
// (the Rust runtime's `trust` module: the same rule, in the same words):
// OpenSSH's StrictModes rule. Nobody named that directory (unlike
// VIRTUAL_ENV, CONDA_PREFIX or LD_LIBRARY_PATH, which the user sets), so a
// pyvenv.cfg or conda-meta planted in a directory that others can write
// (/tmp) must not bring a library into this process. Each of these must be
// owned by root or by this process's effective user, and writable by neither
// its group nor others:
// - the environment's directory and its marker files;
// - every directory from the environment down to the program, and down to
//   the library, and the library itself;
// - where links lead the library out of the environment, the file it
//   resolves to and every directory above that, up to /.
// Only where the walk above the program is taken (Linux): Windows grants
// rights through ACLs, which this runtime does not read.

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

// Checks `from` and each path below it on the way to `to`, `to` included.
bool owned_safely_down(const char *from, const char *to, char *why, std::size_t size) {
    std::size_t n = std::strlen(from);
    while (n > 1 && from[n - 1] == '/') --n;
    bool inside = std::strncmp(from, to, n) == 0 && (to[n] == '\0' || to[n] == '/' || from[n - 1] == '/');
    if (!inside) {
        format(why, size, "`%s` is not inside `%s`", to, from);
        return false;
    }
    char path[path_size];
    format(path, sizeof path, "%.*s", static_cast<int>(n), from);
    if (!owned_safely(path, why, size)) return false;
    std::size_t length = std::strlen(to);
    for (std::size_t i = n + 1; i <= length; ++i) {
        if (i < length && to[i] != '/') continue;
        if (to[i - 1] == '/') continue;  // "//", or a trailing slash
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
        struct stat st;
        format(path, sizeof path, "%s/%s", root, marker);
        if (lstat(path, &st) == 0 && !owned_safely(path, why, size)) return false;
    }
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) {
        format(why, size, "the program's own path is unknown: %s", std::strerror(errno));
        return false;
    }
    path[n] = '\0';
    if (char *slash = std::strrchr(path, '/')) *(slash == path ? slash + 1 : slash) = '\0';
    if (!owned_safely_down(root, path, why, size)) return false;
    if (!owned_safely_down(root, library, why, size)) return false;
    char real[PATH_MAX], real_root[PATH_MAX];
    if (!realpath(library, real)) {
        format(why, size, "`%s` cannot be resolved: %s", library, std::strerror(errno));
        return false;
    }
    if (!realpath(root, real_root)) {
        format(why, size, "`%s` cannot be resolved: %s", root, std::strerror(errno));
        return false;
    }
    std::size_t r = std::strlen(real_root);
    if (std::strncmp(real, real_root, r) == 0 && (real[r] == '\0' || real[r] == '/' || real_root[r - 1] == '/'))
        return owned_safely_down(real_root, real, why, size);
    // Out of the environment: the file and every directory above it. Above
    // the file, a directory like /tmp (root's, others may write, sticky) is
    // fine: no one but an entry's owner can rename or remove it, and the
    // entry below it is checked in turn.
    for (bool file = true;; file = false) {
        struct stat st;
        bool sticky_roots = !file && stat(real, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0 &&
                            st.st_uid == 0;
        if (!sticky_roots && !owned_safely(real, why, size)) return false;
        char *slash = std::strrchr(real, '/');
        if (!slash || (slash == real && real[1] == '\0')) return true;
        *(slash == real ? slash + 1 : slash) = '\0';
    }
}

// Whether a candidate in `environment`, found above the executable, may not
// be used; then why, in `why`.
bool refuse_environment(const char *environment, const char *path, char *why, std::size_t size) {
    format(why, size, "not used: ");
    std::size_t used = std::strlen(why);
    if (environment_above(environment, path, why + used, size - used)) return false;
    append(why, size,
           ", but a Python environment above the program is searched only if root or this user alone can write it, "
           "its marker and every directory down to the library and to the program (remove the others' write access, "
           "or name the environment with VIRTUAL_ENV or CONDA_PREFIX)");
    return true;
}
#else
bool refuse_environment(const char *environment, const char *, char *why, std::size_t size) {
    format(why, size, "not used: `%s` was found above the program, which is not searched on this system", environment);
    return true;
}
#endif

