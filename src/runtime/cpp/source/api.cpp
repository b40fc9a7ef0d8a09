extern "C" {

// Kept whole under link-time optimization: assembly binders call it by name.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((used))
#endif
void *cushim_runtime_bind(const LibraryInfo *L, std::size_t index, int *code) {
    void *p = resolve(*L, index, code);
    if (p && L->slots) store_slot(&L->slots[index], p);
    return p;
}

int cushim_runtime_load(const LibraryInfo *L) {
    Library *s = usable(*L);
    return s ? status_ok : L->thread()->status;
}

int cushim_runtime_last_status(const LibraryInfo *L) { return L->thread()->status; }

const char *cushim_runtime_last_message(const LibraryInfo *L) { return L->thread()->message; }

int cushim_runtime_function_status(const LibraryInfo *L, const char *name) {
    for (const cushim::Alias *a = L->aliases; a->name; ++a)
        if (std::strcmp(a->name, name) == 0) name = a->symbol;
    for (std::size_t i = 0; i < L->count; ++i) {
        const Function &f = L->functions[i];
        if (std::strcmp(f.name, name) == 0 || std::strcmp(f.symbol, name) == 0) {
            if (f.elsewhere) break;
            if (cushim_runtime_bind(L, i, nullptr)) return status_ok;
            return L->thread()->status;
        }
    }
    char message[1024];
    format(message, sizeof message, "`%s` is not a function of this header on this system", name);
    note(*L, status_symbol_not_found, message);
    return status_symbol_not_found;
}

int cushim_runtime_set_library_path(const LibraryInfo *L, const char *absolute_path) {
    if (!absolute_path || !is_absolute(absolute_path)) return -1;
    Library &s = *L->state;
    int result = 0;
    lock(s);
    if (s.started)
        result = -2;
    else if (std::strlen(absolute_path) >= sizeof s.override_path)
        result = -1;
    else
        format(s.override_path, sizeof s.override_path, "%s", absolute_path);
    unlock(s);
    return result;
}

std::size_t cushim_runtime_resolve_all(const LibraryInfo *L, const char **missing, std::size_t capacity) {
    if (!usable(*L)) return static_cast<std::size_t>(-1);
    std::size_t count = 0;
    for (std::size_t i = 0; i < L->count; ++i) {
        if (L->functions[i].elsewhere) continue;
        if (cushim_runtime_bind(L, i, nullptr)) continue;
        if (missing && count < capacity) missing[count] = L->functions[i].symbol;
        ++count;
    }
    return count;
}

unsigned cushim_runtime_library_version(const LibraryInfo *L) {
    Library *s = usable(*L);
    return s ? s->version : 0u;
}

const char *cushim_runtime_library_path(const LibraryInfo *L) {
    Library *s = usable(*L);
    return s ? s->path : nullptr;
}

unsigned cushim_runtime_library_open_attempts(const LibraryInfo *L) {
    unsigned attempts = L->state->attempts.load(std::memory_order_relaxed);
    // Reached through the CUDA runtime: the loader's calls were the runtime's search.
    if (L->abi_lookup && L->abi_lookup->runtime) attempts += L->abi_lookup->runtime->state->attempts.load(std::memory_order_relaxed);
    return attempts;
}

int cushim_runtime_set_stream_mode(const LibraryInfo *L, int per_thread) {
    if (!L->abi_lookup) return -1;
    std::atomic<int> &stream_mode = L->state->stream_mode;
    int mode = per_thread ? mode_per_thread : mode_legacy;
    int current = stream_mode.load(std::memory_order_acquire);
    while (!(current & mode_locked)) {
        if (stream_mode.compare_exchange_weak(current, mode, std::memory_order_acq_rel)) return 0;
    }
    char message[256];
    format(message, sizeof message, "the stream mode must be set before the first CUDA call; it stays %s",
           (current & ~mode_locked) == mode_per_thread ? "per-thread" : "legacy");
    note(*L, status_ok, message);
    return -2;
}

int cushim_runtime_stream_mode(const LibraryInfo *L) {
    if (!L->abi_lookup) return 0;
    int current = L->state->stream_mode.load(std::memory_order_acquire) & ~mode_locked;
    if (current == mode_unset) current = initial_mode(*L->abi_lookup);
    return current == mode_per_thread;
}

// Why the stream variable is ignored, or null: the same rule and words as
// the Rust runtime's `stream_mode_warning`.
const char *cushim_runtime_stream_mode_warning(const LibraryInfo *L) {
    if (!L->abi_lookup) return nullptr;
    const cushim::Driver &d = *L->abi_lookup;
    const char *value = std::getenv(d.stream_var);
    if (!value || stream_mode_from_env(d, value) != mode_unset) return nullptr;
    char on[64] = {}, off[64] = {};
    for (const char *const *word = d.stream_on; *word; ++word)
        append(on, sizeof on, on[0] ? "/" : ""), append(on, sizeof on, *word);
    for (const char *const *word = d.stream_off; *word; ++word)
        append(off, sizeof off, off[0] ? "/" : ""), append(off, sizeof off, *word);
    char *warning = L->thread()->warning;
    format(warning, sizeof L->thread()->warning,
           "%s=`%s` is ignored: it is none of %s (per-thread) and %s (legacy); the %s default stream is used",
           d.stream_var, value, on, off, d.per_thread_by_default ? "per-thread" : "legacy");
    return warning;
}

int cushim_runtime_status_name(const LibraryInfo *L, int code, const char **out) {
    if (!out) return 0;
    for (std::size_t i = 0; i < L->status_count; ++i) {
        if (L->statuses[i].code == code) {
            *out = L->statuses[i].name;
            return 1;
        }
    }
    *out = nullptr;
    return 0;
}

const char *cushim_runtime_returned_name(const LibraryInfo *L, int code) {
    const char *out = nullptr;
    if (cushim_runtime_status_name(L, code, &out)) return out;
    return "unrecognized status";
}

unsigned long long cushim_runtime_answer(const LibraryInfo *L, unsigned answer, int code,
                                         const unsigned long long *args) {
    // A status is a 32-bit enum: the register's upper half stays zero, as
    // the C++ stubs' return of it leaves it.
    auto status = [](int value) { return static_cast<unsigned long long>(static_cast<unsigned>(value)); };
    const int argument = static_cast<int>(args[0]);
    switch (answer) {
    case CUSHIM_ANSWER_code:
        return status(code);
    case CUSHIM_ANSWER_name:
        return reinterpret_cast<std::uintptr_t>(cushim_runtime_returned_name(L, argument));
    case CUSHIM_ANSWER_out_name: {
        const char **out = reinterpret_cast<const char **>(static_cast<std::uintptr_t>(args[1]));
        int known = cushim_runtime_status_name(L, argument, out);
        return status(known ? L->codes.success : L->codes.invalid_value);
    }
    default: // CUSHIM_ANSWER_zero
        return 0;
    }
}

int cushim_runtime_stream_value(const LibraryInfo *L, const char *value) {
    return L->abi_lookup ? stream_mode_from_env(*L->abi_lookup, value) : mode_unset;
}

int cushim_runtime_override_value(const char *value) { return library_override(value); }

}  // extern "C"
