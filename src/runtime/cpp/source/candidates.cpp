// Tries `dir` + separator + each library name (`environment`: found above
// the executable).
bool attempt_in(const LibraryInfo &L, const char *dir, const char *environment = nullptr) {
    for (const char *const *name = L.names; *name; ++name) {
        char path[path_size];
        format(path, sizeof path, "%s%c%s", dir, separator, *name);
        if (attempt(L, path, false, environment)) return true;
    }
    return false;
}

// An environment variable's value when it is an absolute path, else null.
const char *absolute_env(const char *name) {
    const char *v = std::getenv(name);
    return v && is_absolute(v) ? v : nullptr;
}

#if defined(__linux__) || defined(_WIN32)
// Whether `dir` is a Python environment (a venv's pyvenv.cfg, or conda's
// conda-meta): the only directories above the executable that are searched,
// and of those only the ones nobody else can write (`environment_above`).
bool is_python_environment(const char *dir) {
    char path[path_size];
#ifdef _WIN32
    wchar_t wide[path_size];
    DWORD attributes = INVALID_FILE_ATTRIBUTES;
    format(path, sizeof path, "%s%cpyvenv.cfg", dir, separator);
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0)
        attributes = GetFileAttributesW(wide);
    if (attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY)) return true;
    format(path, sizeof path, "%s%cconda-meta", dir, separator);
    attributes = INVALID_FILE_ATTRIBUTES;
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) != 0)
        attributes = GetFileAttributesW(wide);
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
#else
    struct stat st;
    format(path, sizeof path, "%s%cpyvenv.cfg", dir, separator);
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return true;
    format(path, sizeof path, "%s%cconda-meta", dir, separator);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
#endif
}
#endif

// Tries the wheel directories of each site-packages under `prefix`
// (lib/python3.*/site-packages, or Lib\site-packages); `environment`: the
// prefix was found above the executable.
bool attempt_prefix(const LibraryInfo &L, const char *prefix, const char *environment = nullptr) {
    Library &s = *L.state;
    std::size_t count = 0;
#ifdef _WIN32
    format(s.sites[count++], path_size, "%s\\Lib\\site-packages", prefix);
#else
    char dir_path[path_size];
    format(dir_path, sizeof dir_path, "%s/lib", prefix);
    if (DIR *d = opendir(dir_path)) {
        while (dirent *e = readdir(d)) {
            if (std::strncmp(e->d_name, "python3", 7) != 0 || count == 8) continue;
            format(s.sites[count], path_size, "%s/%s/site-packages", dir_path, e->d_name);
            if (access(s.sites[count], F_OK) == 0) ++count;
        }
        closedir(d);
    }
    // Sorted, so that the order does not depend on the directory's.
    for (std::size_t i = 1; i < count; ++i)
        for (std::size_t j = i; j > 0 && std::strcmp(s.sites[j - 1], s.sites[j]) > 0; --j) {
            char swap[path_size];
            std::memcpy(swap, s.sites[j], path_size);
            std::memcpy(s.sites[j], s.sites[j - 1], path_size);
            std::memcpy(s.sites[j - 1], swap, path_size);
        }
#endif
    for (std::size_t i = 0; i < count; ++i) {
        for (const char *const *wheel = L.wheel_dirs; *wheel; ++wheel) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", s.sites[i], separator, *wheel);
            if (attempt_in(L, dir, environment)) return true;
        }
    }
    return false;
}

#if defined(__linux__)
// Collects the directories of loaded members of the CUDA family of the
// header's major into the state's `dirs`.
int add_family_dir(dl_phdr_info *info, std::size_t, void *data) {
    const LibraryInfo &L = *static_cast<const LibraryInfo *>(data);
    Library &s = *L.state;
    const char *path = info->dlpi_name;
    if (!path || path[0] != '/' || s.dir_count == 8) return 0;
    const char *file = std::strrchr(path, '/') + 1;
    // The name itself, or a longer version of it (`libcudart.so.13.0.96`).
    for (const char *const *name = L.family; *name; ++name) {
        std::size_t n = std::strlen(*name);
        if (std::strncmp(file, *name, n) != 0 || (file[n] != '\0' && file[n] != '.')) continue;
        char dir[path_size];
        format(dir, sizeof dir, "%.*s", static_cast<int>(file - 1 - path), path);
        for (std::size_t i = 0; i < s.dir_count; ++i)
            if (std::strcmp(s.dirs[i], dir) == 0) return 0;
        format(s.dirs[s.dir_count++], path_size, "%s", dir);
        return 0;
    }
    return 0;
}
#endif

// A copy already loaded in the process was loaded by someone else, by path
// (cuBLAS's loader loads cuBLASLt from its own directory): its file, not the
// bare name that found it, is where it came from, and the system loader
// would not find that name. The same as the Rust runtime's `Loaded::path`.
void adopted_loaded_copy(const LibraryInfo &L, void *h, const char *name) {
    Library &s = *L.state;
    char file[path_size];
    if (s.status == status_ok && library_file(L, h, name, file, sizeof file)) format(s.path, sizeof s.path, "%s", file);
}

// The search for a library installed with a toolkit, conda or pip; the same
// order as the Rust runtime's `candidates`, NVIDIA's own finder's
// (cuda-pathfinder): a copy already loaded, pip wheels, conda, then the
// system loader (LD_LIBRARY_PATH, which is how users choose a copy, and the
// loader cache), and only then the toolkit directories.
bool search_toolkit(const LibraryInfo &L) {
    Library &s = *L.state;
    // A copy already loaded.
    for (const char *const *name = L.names; *name; ++name) {
#ifdef _WIN32
        HMODULE h = nullptr;
        wchar_t wide[path_size];
        if (MultiByteToWideChar(CP_UTF8, 0, *name, -1, wide, static_cast<int>(path_size)) != 0 &&
            GetModuleHandleExW(0, wide, &h) && h) {
            s.attempts.fetch_add(1, std::memory_order_relaxed);
            if (adopt(L, reinterpret_cast<void *>(h), *name, false)) {
                adopted_loaded_copy(L, reinterpret_cast<void *>(h), *name);
                return true;
            }
        }
#else
        if (void *h = dlopen(*name, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD)) {
            s.attempts.fetch_add(1, std::memory_order_relaxed);
            if (adopt(L, h, *name, false)) {
                adopted_loaded_copy(L, h, *name);
                return true;
            }
        }
#endif
    }
#if defined(__linux__)
    s.dir_count = 0;
    dl_iterate_phdr(add_family_dir, const_cast<LibraryInfo *>(&L));
    for (std::size_t i = 0; i < s.dir_count; ++i)
        if (attempt_in(L, s.dirs[i])) return true;
#endif
    // pip wheels: the virtual environment, conda's, and (on Linux and
    // Windows) the Python environments above the executable that nobody else
    // can write (owners and modes on Linux, owners and ACLs on Windows, where
    // any user may create C:\conda-meta). A program in venv/bin (Windows:
    // venv\Scripts) finds its environment's wheels.
    const char *const prefix_vars[] = {"VIRTUAL_ENV", "CONDA_PREFIX"};
    for (const char *var : prefix_vars)
        if (const char *prefix = absolute_env(var))
            if (attempt_prefix(L, prefix)) return true;
#if defined(__linux__) || defined(_WIN32)
    char unused[256];
    if (program_path(s.exe, sizeof s.exe, unused, sizeof unused)) {
        while (char *slash = std::strrchr(s.exe, separator)) {
            *slash = '\0';
            // At the root, / (or C:\), its separator is kept.
#ifdef _WIN32
            bool at_root = s.exe[0] != '\0' && s.exe[1] == ':' && s.exe[2] == '\0';
#else
            bool at_root = s.exe[0] == '\0';
#endif
            char root[8];
            if (at_root) format(root, sizeof root, "%s%c", s.exe, separator);
            const char *prefix = at_root ? root : s.exe;
            if (is_python_environment(prefix) && attempt_prefix(L, prefix, prefix)) return true;
        }
    }
#endif
    if (const char *conda = absolute_env("CONDA_PREFIX")) {
        char dir[path_size];
        // conda keeps DLLs in Library\bin on Windows.
#ifdef _WIN32
        format(dir, sizeof dir, "%s\\Library\\bin", conda);
#else
        format(dir, sizeof dir, "%s%c%s", conda, separator, lib_dir);
#endif
        if (attempt_in(L, dir)) return true;
    }
    for (const char *const *name = L.names; *name; ++name)
        if (attempt(L, *name)) return true;
    const char *roots[] = {absolute_env("CUDA_HOME"), absolute_env("CUDA_PATH"),
#ifdef _WIN32
                           nullptr};
    const char *subdirs[] = {"bin", "bin\\x64"};
#else
                           "/usr/local/cuda"};
    // After lib64 and lib, the directories of the architecture this program
    // is built for below targets/ (SBSA's or Jetson's for aarch64), which
    // lib64 usually links to, but not in a toolkit unpacked from an archive.
    const char *subdirs[] = {"lib64", "lib",
#if defined(__linux__) && defined(__x86_64__)
                             "targets/x86_64-linux/lib",
#elif defined(__linux__) && defined(__aarch64__)
                             "targets/sbsa-linux/lib", "targets/aarch64-linux/lib",
#elif defined(__linux__) && defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
                             "targets/ppc64le-linux/lib",
#endif
    };
#endif
    for (const char *root : roots) {
        if (!root) continue;
        for (const char *sub : subdirs) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", root, separator, sub);
            if (attempt_in(L, dir)) return true;
        }
        for (const char *const *sub = L.toolkit_subdirs; *sub; ++sub) {
            char dir[path_size];
            format(dir, sizeof dir, "%s%c%s", root, separator, *sub);
            if (attempt_in(L, dir)) return true;
        }
    }
    return false;
}

