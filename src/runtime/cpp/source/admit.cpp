// The file of the library opened as `name` (handle `h`): the path itself,
// or where the platform's loader found a bare name (the file that holds the
// version function). False, with `name` in `file`, when it cannot tell.
bool library_file(const LibraryInfo &L, void *h, const char *name, char *file, std::size_t size) {
    format(file, size, "%s", name);
    if (is_absolute(name)) return true;
#ifdef _WIN32
    (void)L;
    wchar_t wide[path_size];
    DWORD n = GetModuleFileNameW(static_cast<HMODULE>(h), wide, static_cast<DWORD>(path_size));
    char utf8[path_size];
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, utf8, static_cast<int>(sizeof utf8), nullptr, nullptr) == 0 ||
        !is_absolute(utf8))
        return false;
    format(file, size, "%s", utf8);
#else
    Dl_info info;
    void *p = find(h, L.version_function);
    if (!p || dladdr(p, &info) == 0 || !info.dli_fname || !is_absolute(info.dli_fname)) return false;
    format(file, size, "%s", info.dli_fname);
#endif
    return true;
}

// Loads the library at `path`, beside the library (a sibling or one it
// requires), checked as the library was, and keeps it loaded (the Rust
// runtime's `load_sibling`). False, with the reason in `why`, when it is
// absent, refused or cannot be opened.
bool load_beside(const LibraryInfo &L, const char *path, const char *environment, char *why, std::size_t size) {
    if (!file_exists(path)) {
        format(why, size, "no such file");
        return false;
    }
    if (environment && refuse_environment(environment, path, why, size)) return false;
    if (!check_file(path, why, size)) return false;
    L.state->attempts.fetch_add(1, std::memory_order_relaxed);
    return open_one(path, why, size) != nullptr;  // never unloaded
}

// Loads the libraries that the library opens by bare name while it runs
// (NVRTC's libnvrtc-builtins.so.13.0) from `dir`, its own directory, after
// it: its own open of the name then finds the copy already loaded (by its
// soname; on Windows, its module name) instead of failing, or of taking
// another install's. `{minor}` in a name is the minor `version` reports.
// Best effort, unlike the preload: one that is absent, unusable or refused
// is skipped and the library stays usable. Each is checked as the library
// was (the Rust runtime's `load_siblings`, whose record `cushim doctor`
// shows).
void load_siblings(const LibraryInfo &L, unsigned version, const char *dir, const char *environment) {
    char minor[16];
    format(minor, sizeof minor, "%u", version % 1000 / 10);
    for (const char *const *sibling = L.siblings; *sibling; ++sibling) {
        char name[path_size];
        const char *mark = std::strstr(*sibling, "{minor}");
        if (mark && version == 0) continue;  // the name cannot be known
        if (mark)
            format(name, sizeof name, "%.*s%s%s", static_cast<int>(mark - *sibling), *sibling, minor, mark + 7);
        else
            format(name, sizeof name, "%s", *sibling);
        char path[path_size];
        format(path, sizeof path, "%s%c%s", dir, separator, name);
        char why[path_size + 2048] = {};
        load_beside(L, path, environment, why, sizeof why);
    }
}

// Ends a search without a library: the status, and the message that lists
// what was tried.
void not_found(const LibraryInfo &L) {
    Library &s = *L.state;
    s.status = status_library_not_found;
    if (!*L.names) {
        // cuFile on Windows: no file name to search for.
#ifdef _WIN32
        const char *system = "Windows";
#else
        const char *system = "this system";
#endif
        format(s.message, sizeof s.message, "%s has no library for %s; set %s to the absolute path of one to use it",
               L.label, system, L.override_var);
        return;
    }
    char names[256] = {};
    for (const char *const *name = L.names; *name; ++name) {
        append(names, sizeof names, names[0] ? "` or `" : "");
        append(names, sizeof names, *name);
    }
    format(s.message, sizeof s.message, "%s library not found; tried %s. %s, or set %s to the absolute path of `%s`",
           L.label, s.tried, L.install, L.override_var, names);
}

// What a copy needs before anything of it is called (the Rust runtime's
// `admit`): the libraries it requires, loaded from its own directory, and,
// where its file does not tell, the CUDA release it was built for. 0 to use
// it; 1, noted as tried, to go on searching; 2 to stop the search: a copy of
// another release was refused after the libraries it requires were loaded,
// which stay loaded and which any later copy would open by name.
int admit(const LibraryInfo &L, void *h, const char *name, const char *file, bool known, const char *environment) {
    Library &s = *L.state;
    char why[path_size * 2 + 2048];
    const char *slash = std::strrchr(file, separator);
    for (const char *const *req = L.required; *req; ++req) {
        if (!known || !slash) {
            format(why, sizeof why, "its directory is unknown, and it needs `%s` from there", *req);
            note_tried(s.tried, sizeof s.tried, name, why);
            return 1;
        }
        char path[path_size];
        format(path, sizeof path, "%.*s%c%s", static_cast<int>(slash - file), file, separator, *req);
        char error[path_size + 1024] = {};
        if (!load_beside(L, path, environment, error, sizeof error)) {
            format(why, sizeof why,
                   "it needs `%s` beside it, which cannot be loaded (%s); the %s would stop the process on its "
                   "first call without it",
                   path, error, L.label);
            note_tried(s.tried, sizeof s.tried, name, why);
            return 1;
        }
    }
    if (L.built_for) {
        void *p = find(h, L.built_for);
        if (!p) {
            format(why, sizeof why, "it does not export `%s`, which tells the CUDA release it was built for",
                   L.built_for);
            note_tried(s.tried, sizeof s.tried, name, why);
            return 1;
        }
        std::size_t built = reinterpret_cast<std::size_t (*)()>(p)();
        if (built != 0 && built / 1000 != L.built_for_major) {
            format(why, sizeof why, "it was built for CUDA %u.%u (its `%s`), but the header is for CUDA %u.x",
                   static_cast<unsigned>(built / 1000), static_cast<unsigned>(built % 1000 / 10), L.built_for,
                   L.built_for_major);
            if (!L.required[0]) {
                note_tried(s.tried, sizeof s.tried, name, why);
                return 1;
            }
            append(why, sizeof why, "; `");
            for (const char *const *req = L.required; *req; ++req) {
                if (req != L.required) append(why, sizeof why, "`, `");
                append(why, sizeof why, *req);
            }
            append(why, sizeof why, "` from its directory stay loaded, so no other copy is tried (name the right one with ");
            append(why, sizeof why, L.override_var);
            append(why, sizeof why, ")");
            note_tried(s.tried, sizeof s.tried, name, why);
            return 2;
        }
    }
    return 0;
}

// Adopts handle `h`, opened as `name`; true when the search is over (loaded,
// or found the stub). A library of another major than the header's, or one
// without its version function (unless the override named it), is noted and
// the search goes on. A library kept gets its siblings from its directory
// (`environment`: it was found in a Python environment above the executable,
// whose rule they must pass too).
bool adopt(const LibraryInfo &L, void *h, const char *name, bool named, const char *environment = nullptr) {
    Library &s = *L.state;
    if (!named && !find(h, L.version_function)) {
        // Kept loaded but never used: a library is never unloaded.
        char why[256];
        format(why, sizeof why, "it does not export `%s`, which every %s has", L.version_function, L.label);
        note_tried(s.tried, sizeof s.tried, name, why);
        return false;
    }
    // The file: the path opened, or where the system loader found a bare name.
    char file[path_size];
    bool known = library_file(L, h, name, file, sizeof file);
    switch (admit(L, h, name, file, known, environment)) {
        case 0:
            break;
        case 1:
            return false;
        default:
            // The search is over: not found, with this copy's reason last.
            not_found(L);
            return true;
    }
    unsigned version = 0;
    int rc = read_version(L, h, version);
    if (L.has_stub && rc == L.codes.stub_library) {
        // Kept loaded but never used: a library is never unloaded.
        s.status = status_stub_library;
        format(s.message, sizeof s.message,
               "`%s` is NVIDIA's stub library, not a %s (%s answered the stub code); remove the toolkit's "
               "lib64/stubs directory from LD_LIBRARY_PATH",
               name, L.short_name, L.version_function);
        return true;
    }
    if (L.major != 0 && version != 0 && version / 1000 != L.major) {
        char why[path_size + 256];
        format(why, sizeof why, "`%s` is %s %u.%u, but the header is for %s %u.x", file, L.label, version / 1000,
               version % 1000 / 10, L.product, L.major);
        note_tried(s.tried, sizeof s.tried, name, why);
        if (s.status != status_wrong_major) {
            s.status = status_wrong_major;
            format(s.message, sizeof s.message, "%s; install the %u.x library", why, L.major);
        }
        return false;
    }
    s.version = version;
    s.handle = h;
    format(s.path, sizeof s.path, "%s", name);
    if (L.abi_lookup && L.abi_lookup->proc_address_v2) s.proc_v2 = find(h, L.abi_lookup->proc_address_v2);
    if (L.abi_lookup && L.abi_lookup->proc_address_v1) s.proc_v1 = find(h, L.abi_lookup->proc_address_v1);
    s.status = status_ok;
    format(s.message, sizeof s.message, "loaded `%s`", name);
    // The objects it exports, into the pair's definitions of them.
    for (std::size_t i = 0; i < L.variable_count; ++i) {
        if (void *object = find(h, L.variables[i].name))
            std::memcpy(L.variables[i].storage, object, L.variables[i].size);
    }
    // Its siblings, from its directory.
    char *slash = std::strrchr(file, separator);
    if (L.siblings[0] && known && slash) {
        *slash = '\0';
        load_siblings(L, version, file, environment);
    }
    return true;
}

// Tries one name or path (`named`: the override, opened as given, after the
// checks that keep a file from hanging or crashing the loader; `environment`:
// a path in a Python environment found above the executable); true when the
// search is over.
bool attempt(const LibraryInfo &L, const char *name, bool named = false, const char *environment = nullptr) {
    Library &s = *L.state;
    if (is_absolute(name)) {
        if (!named && was_tried(s.tried, name)) return false;
        bool exists = file_exists(name);
        if (!named && !exists) {
            note_tried(s.tried, sizeof s.tried, name, "no such file");
            return false;
        }
        char why[path_size + 2048];
        if (environment && refuse_environment(environment, name, why, sizeof why)) {
            note_tried(s.tried, sizeof s.tried, name, why);
            return false;
        }
        if (exists && !check_file(name, why, sizeof why)) {
            note_tried(s.tried, sizeof s.tried, name, why);
            return false;
        }
        // Dependencies first, from the same directory where it has them,
        // each checked as the library is; one absent there is left to the
        // library's own run path.
        const char *slash = std::strrchr(name, separator);
        for (const char *const *dep = L.preload; *dep && slash; ++dep) {
            char dep_path[path_size];
            format(dep_path, sizeof dep_path, "%.*s%c%s", static_cast<int>(slash - name), name, separator, *dep);
            if (!file_exists(dep_path)) continue;
            // The reason follows this prefix in `why`.
            format(why, sizeof why, "its dependency `%s` could not be loaded: ", dep_path);
            std::size_t used = std::strlen(why);
            char *error = why + used;
            std::size_t room = sizeof why - used;
            bool dep_usable = true;
            if (!check_file(dep_path, error, room))
                dep_usable = false;
            else if (environment && refuse_environment(environment, dep_path, error, room))
                dep_usable = false;
            if (dep_usable) {
                s.attempts.fetch_add(1, std::memory_order_relaxed);
                dep_usable = open_one(dep_path, error, room) != nullptr;
            }
            if (!dep_usable) {
                note_tried(s.tried, sizeof s.tried, name, why);
                return false;
            }
        }
    }
    s.attempts.fetch_add(1, std::memory_order_relaxed);
    char error[1024] = {};
    void *h = open_one(name, error, sizeof error);
    if (!h) {
        note_tried(s.tried, sizeof s.tried, name, error);
        return false;
    }
    return adopt(L, h, name, named, environment);
}

