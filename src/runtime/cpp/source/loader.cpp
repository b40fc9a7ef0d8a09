// The spin lock of the override path: no std::mutex, so that the runtime
// needs nothing from the C++ library.
void lock(Library &s) {
    while (s.override_held.exchange(true, std::memory_order_acquire)) {
    }
}
void unlock(Library &s) { s.override_held.store(false, std::memory_order_release); }

bool is_absolute(const char *path) {
#ifdef _WIN32
    return path[0] != '\0' && path[1] == ':' && (path[2] == '\\' || path[2] == '/');
#else
    return path[0] == '/';
#endif
}

// Opening a library runs its initializers (and its dependencies') inside
// the platform's loader. An exception thrown there cannot be recovered
// from: glibc's loader lock stays held, so the next dlopen or dlclose on any
// other thread would block forever (the same thread's would go on). So no
// exception leaves open_one: it is noexcept, and the loader is called
// through a pointer the compiler cannot see into, because glibc declares
// dlopen itself nothrow, which would let the compiler drop the check; an
// initializer's throw ends the process with std::terminate, at the throw.
// (Built without exceptions, as for a C program, the runtime has no say: the
// exception passes through it to whatever the program does with it.)
#ifdef _WIN32
void *open_one(const char *name, char *error, std::size_t size) noexcept {
    wchar_t wide[path_size];
    if (MultiByteToWideChar(CP_UTF8, 0, name, -1, wide, static_cast<int>(path_size)) == 0) {
        format(error, size, "the name is not valid UTF-8");
        return nullptr;
    }
    // Only the system directory: never the executable's or the current directory.
    // A bare name from the system directory only; an absolute path with its
    // own directory for its dependencies.
    DWORD flags = is_absolute(name) ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32
                                    : LOAD_LIBRARY_SEARCH_SYSTEM32;
    HMODULE h = LoadLibraryExW(wide, nullptr, flags);
    if (!h) format(error, size, "LoadLibraryExW failed with error %lu", static_cast<unsigned long>(GetLastError()));
    return reinterpret_cast<void *>(h);
}
void *find(void *handle, const char *symbol) {
    return reinterpret_cast<void *>(GetProcAddress(static_cast<HMODULE>(handle), symbol));
}
constexpr char separator = '\\';
constexpr const char *lib_dir = "bin";
#else
void *(*const volatile loader_open)(const char *, int) = dlopen;

void *open_one(const char *name, char *error, std::size_t size) noexcept {
    void *h = loader_open(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        format(error, size, "%s", e ? e : "dlopen failed");
    }
    return h;
}
void *find(void *handle, const char *symbol) { return dlsym(handle, symbol); }
constexpr char separator = '/';
constexpr const char *lib_dir = "lib";
#endif

