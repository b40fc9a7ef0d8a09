// The ABI version of the driver's version function (cuDriverGetVersion, one
// ABI since CUDA 2.2), asked for to learn the driver's version.
constexpr unsigned version_function_abi = 2020;

// Notes why the driver could not be taken from the runtime `R` (at `path`).
void no_entry(const LibraryInfo &L, const LibraryInfo &R, const char *path, const char *why) {
    Library &s = *L.state;
    s.status = status_library_not_found;
    format(s.message, sizeof s.message, "the %s at `%s` did not hand out the %s (%s). %s", R.label, path, L.label, why,
           L.install);
}

// The driver `L` as the CUDA runtime `R` hands it out (--resolve
// runtime-entry-point): `R` was found by its own search (a copy already
// loaded first), and `r` is its state (null: a stub was called while it was
// being loaded on the same thread); the driver is never opened here. From a runtime with
// cudaGetDriverEntryPointByVersion (12.5 and later) each function is asked
// for at its ABI version. An older runtime's cudaGetDriverEntryPoint hands out
// each function at the ABI of the runtime's own release, which need not be the
// header's (a 12.2 runtime hands out cuCtxCreate_v3 for `cuCtxCreate`, which a
// 12.9 header binds to cuCtxCreate_v2), so it is asked for the driver's own
// lookup only (cuGetProcAddress, at that release's ABI: v2 from 12.0 on),
// which every function is then bound through. Its arguments follow the
// runtime's version: 3 before 12.0, 4 from 12.0 on; never the 3-argument call
// into a 12.x runtime, which would write its status through garbage.
void open_through(const LibraryInfo &L, const LibraryInfo &R, const Library *r) {
    Library &s = *L.state;
    if (!r || r->status != status_ok) {
        s.status = status_library_not_found;
        format(s.message, sizeof s.message,
               "the %s is reached only through the %s (`--resolve runtime-entry-point`), which could not be used: %s",
               L.label, R.label, r ? r->message : "a stub was called while it was being loaded on the same thread");
        return;
    }
    char runtime[path_size];
    if (!library_file(R, r->handle, r->path, runtime, sizeof runtime)) format(runtime, sizeof runtime, "%s", r->path);
    char why[1024];
    if (void *f = find(r->handle, "cudaGetDriverEntryPointByVersion")) {
        s.proc_by_version = f;
        s.entry_point = "cudaGetDriverEntryPointByVersion";
    } else {
        void *entry = find(r->handle, "cudaGetDriverEntryPoint");
        // A runtime that did not report its version (11.8's answers
        // cudaErrorInsufficientDriver without a driver) is told by the major
        // its file name carries: 11 (whose entry point, where it has one, is
        // 11.3's or later), or 12 and later.
        unsigned version = r->version != 0 ? r->version : R.major == 11 ? 11030u : R.major >= 12 ? R.major * 1000u : 0u;
        const char *name = L.abi_lookup->proc_address_v1;
        if (!entry) {
            no_entry(L, R, runtime,
                     "it exports neither `cudaGetDriverEntryPointByVersion` (12.5 and later) nor "
                     "`cudaGetDriverEntryPoint` (11.3 and later)");
            return;
        }
        if (version < 11030) {
            if (version == 0)
                format(why, sizeof why,
                       "it lacks `cudaGetDriverEntryPointByVersion`, and its version, which tells the arguments of "
                       "its `cudaGetDriverEntryPoint`, is unknown");
            else
                format(why, sizeof why, "it is %s %u.%u, whose `cudaGetDriverEntryPoint` is not known (11.3 and later have one)",
                       R.label, version / 1000, version % 1000 / 10);
            no_entry(L, R, runtime, why);
            return;
        }
        if (!name) {
            no_entry(L, R, runtime, "the library has no lookup by ABI version to ask its `cudaGetDriverEntryPoint` for");
            return;
        }
        void *proc = nullptr;
        int status = 0;
        bool four = version >= 12000;
        int rc = four ? reinterpret_cast<entry_point_4>(entry)(name, &proc, 1u, &status)
                      : reinterpret_cast<entry_point_3>(entry)(name, &proc, 1u);
        if (rc != 0 || status != 0 || !proc) {
            format(why, sizeof why, "its %d-argument `cudaGetDriverEntryPoint` answered %d, status %d, %s for `%s`",
                   four ? 4 : 3, rc, status, proc ? "an address" : "no address", name);
            no_entry(L, R, runtime, why);
            return;
        }
        (four ? s.proc_v2 : s.proc_v1) = proc;
        s.entry_point = "cudaGetDriverEntryPoint";
    }
    // The driver's version, through the lookup just found.
    void *p = nullptr;
    int status = 0, rc = 0;
    const char *function = L.version_function;
    if (s.proc_by_version)
        rc = reinterpret_cast<by_version>(s.proc_by_version)(function, &p, version_function_abi, 1u, &status);
    else if (s.proc_v2)
        rc = reinterpret_cast<get_proc_v2>(s.proc_v2)(function, &p, static_cast<int>(version_function_abi), 1u, &status);
    else
        rc = reinterpret_cast<get_proc_v1>(s.proc_v1)(function, &p, static_cast<int>(version_function_abi), 1u);
    if (rc != 0 || status != 0 || !p) {
        format(why, sizeof why, "%s did not hand out `%s`: it answered %d, status %d", s.entry_point, function, rc,
               status);
        s.proc_by_version = s.proc_v2 = s.proc_v1 = nullptr;
        no_entry(L, R, runtime, why);
        return;
    }
    unsigned version = 0;
    rc = read_version_at(L, p, version);
    // The file the driver's functions live in, as the platform's loader tells.
    char file[path_size];
#ifdef _WIN32
    HMODULE module = nullptr;
    wchar_t wide[path_size];
    DWORD n = 0;
    if (GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           reinterpret_cast<LPCWSTR>(p), &module))
        n = GetModuleFileNameW(module, wide, static_cast<DWORD>(path_size));
    if (n == 0 || n >= path_size ||
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, file, static_cast<int>(sizeof file), nullptr, nullptr) == 0)
        format(file, sizeof file, "the %s behind `%s`", L.label, runtime);
#else
    Dl_info info;
    if (dladdr(p, &info) != 0 && info.dli_fname && is_absolute(info.dli_fname))
        format(file, sizeof file, "%s", info.dli_fname);
    else
        format(file, sizeof file, "the %s behind `%s`", L.label, runtime);
#endif
    if (L.has_stub && rc == L.codes.stub_library) {
        s.proc_by_version = s.proc_v2 = s.proc_v1 = nullptr;
        s.status = status_stub_library;
        format(s.message, sizeof s.message,
               "`%s` is NVIDIA's stub library, not a %s (%s answered the stub code); remove the toolkit's "
               "lib64/stubs directory from LD_LIBRARY_PATH",
               file, L.short_name, L.version_function);
        return;
    }
    s.version = version;
    s.handle = r->handle;
    format(s.path, sizeof s.path, "%s", file);
    s.status = status_ok;
    format(s.message, sizeof s.message, "loaded `%s` through the %s at `%s` (%s)", file, R.label, runtime,
           s.entry_point);
}

