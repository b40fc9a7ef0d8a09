void note_failure(const LibraryInfo &L, std::size_t index) {
    const Function &f = L.functions[index];
    const FunctionState &fs = L.states[index];
    const Library &s = *L.state;
    char message[1024];
    switch (fs.state.load(std::memory_order_acquire)) {
        case too_old:
            format(message, sizeof message, "%s too old: `%s` needs %s %u.%u, %s is %u.%u", L.short_name, f.name,
                   L.product, f.version / 1000, f.version % 1000 / 10, L.short_name, s.version / 1000,
                   s.version % 1000 / 10);
            note(L, status_too_old, message);
            return;
        case version_not_sufficient:
            format(message, sizeof message, "%s too old: %s knows `%s` but not its %s %u.%u ABI (%s is %u.%u)",
                   L.short_name, L.abi_lookup->proc_address_v1, f.name, L.product, f.version / 1000,
                   f.version % 1000 / 10, L.short_name, s.version / 1000, s.version % 1000 / 10);
            note(L, status_version_not_sufficient, message);
            return;
        default: {
            char how[128] = "dlsym, code";
            if (L.abi_lookup && f.version && s.proc_by_version)
                format(how, sizeof how, "%s answered", s.entry_point);
            else if (L.abi_lookup && f.version && (s.proc_v2 || s.proc_v1))
                format(how, sizeof how, "%s answered", L.abi_lookup->proc_address_v1);
            else if (s.entry_point)
                format(how, sizeof how, "no ABI version to ask %s for, code", s.entry_point);
            format(message, sizeof message,
                   "`%s`: the %s does not provide `%s` (%s %d); the %s is older than the header, or does not export every function the header declares", f.name,
                   L.short_name, f.symbol, how, fs.detail.load(std::memory_order_relaxed), L.short_name);
            note(L, status_symbol_not_found, message);
        }
    }
}

// Finds the address for row `index` in the process's stream mode. Never calls
// the library for a function whose ABI is newer than it, never passes NULL or
// flags 0 to its lookup, and never retries with a lower version.
void *lookup(const LibraryInfo &L, std::size_t index, int &state) {
    const Library &s = *L.state;
    const Function *target = &L.functions[index];
    bool per_thread = target->per_thread;
    if (L.abi_lookup && lock_stream_mode(L) == mode_per_thread && !per_thread && target->twin >= 0) {
        // The legacy name in per-thread mode binds the per-thread variant.
        target = &L.functions[target->twin];
        per_thread = true;
    }
    unsigned version = target->version;
    if (version != 0 && s.version != 0 && version > s.version) {
        state = too_old;
        return nullptr;
    }
    unsigned long long flags = per_thread ? 2u : 1u;
    void *p = nullptr;
    if (version != 0 && s.proc_v2) {
        int status = 0;
        int rc = reinterpret_cast<get_proc_v2>(s.proc_v2)(target->proc_name, &p, static_cast<int>(version), flags,
                                                         &status);
        if (rc == 0 && status == 0 && p) return p;
        state = rc == 0 && status == 2 ? version_not_sufficient : missing;
        L.states[index].detail.store(rc != 0 ? rc : status, std::memory_order_relaxed);
        return nullptr;
    }
    if (version != 0 && s.proc_v1) {
        int rc = reinterpret_cast<get_proc_v1>(s.proc_v1)(target->proc_name, &p, static_cast<int>(version), flags);
        if (rc == 0 && p) return p;
        state = missing;
        L.states[index].detail.store(rc, std::memory_order_relaxed);
        return nullptr;
    }
    if (version != 0 && s.proc_by_version) {
        int status = 0;
        int rc = reinterpret_cast<by_version>(s.proc_by_version)(target->proc_name, &p, version, flags, &status);
        if (rc == 0 && status == 0 && p) return p;
        state = status == 2 ? version_not_sufficient : missing;
        L.states[index].detail.store(rc != 0 ? rc : status, std::memory_order_relaxed);
        return nullptr;
    }
    if (s.entry_point) {
        // Reached through the runtime: its handle is never searched for the
        // driver's exports, and a function without an ABI version cannot be asked for.
        state = missing;
        return nullptr;
    }
    p = find(s.handle, target->symbol);
    if (!p) state = missing;
    return p;
}

// The code a stub returns for the failure just noted.
int failure_code(const LibraryInfo &L, const Library *s, std::size_t index) {
    if (!s) return L.codes.library_not_found;  // reentrant
    if (s->status != status_ok) {
        if (s->status == status_stub_library) return L.codes.stub_library;
        if (s->status == status_forked_during_load) return L.codes.not_initialized;
        return L.codes.library_not_found;
    }
    int state = L.states[index].state.load(std::memory_order_acquire);
    return state == too_old || state == version_not_sufficient ? L.codes.too_old : L.codes.symbol_not_found;
}

// The loaded library, or null with the reason noted for this thread's
// last_status and last_message (a library that could not be loaded, or a
// call back from its own initializer).
Library *usable(const LibraryInfo &L) {
    Library *s = loaded(L);
    if (s && s->status != status_ok) {
        note(L, s->status, s->message);
        return nullptr;
    }
    return s;
}

// The address of row `index`, or null with the reason noted.
void *resolve(const LibraryInfo &L, std::size_t index, int *code) {
    FunctionState &fs = L.states[index];
    int state = fs.state.load(std::memory_order_acquire);
    if (state == resolved) return fs.address.load(std::memory_order_relaxed);
    Library *s = loaded(L);
    if (!s || s->status != status_ok) {
        if (s) note(L, s->status, s->message);
        if (code) *code = failure_code(L, s, index);
        return nullptr;
    }
    if (state == unresolved) {
        void *p = lookup(L, index, state);
        if (p) {
            fs.address.store(p, std::memory_order_relaxed);
            fs.state.store(resolved, std::memory_order_release);
            return p;
        }
        fs.state.store(state, std::memory_order_release);
    }
    note_failure(L, index);
    if (code) *code = failure_code(L, s, index);
    return nullptr;
}

void store_slot(void **slot, void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(slot, p, __ATOMIC_RELEASE);
#else
    reinterpret_cast<std::atomic<void *> *>(slot)->store(p, std::memory_order_release);
#endif
}

}  // namespace

