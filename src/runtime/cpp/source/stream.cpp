// The stream mode: unset, or a mode; locked once the first stub was bound.
constexpr int mode_unset = 0, mode_legacy = 1, mode_per_thread = 2, mode_locked = 0x10;

bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// Whether `value`, without surrounding ASCII whitespace, is one of `words`.
bool one_of(const char *value, const char *const *words) {
    while (is_ascii_space(*value)) ++value;
    std::size_t length = std::strlen(value);
    while (length > 0 && is_ascii_space(value[length - 1])) --length;
    for (; *words; ++words)
        if (std::strlen(*words) == length && std::strncmp(value, *words, length) == 0) return true;
    return false;
}

// The mode a value of the stream variable asks for; mode_unset for any other
// value. The same rule as the Rust runtime's `stream_mode_from_env`.
int stream_mode_from_env(const cushim::Driver &d, const char *value) {
    if (!value) return mode_unset;
    if (one_of(value, d.stream_on)) return mode_per_thread;
    if (one_of(value, d.stream_off)) return mode_legacy;
    return mode_unset;
}

int initial_mode(const cushim::Driver &d) {
    int mode = stream_mode_from_env(d, std::getenv(d.stream_var));
    if (mode != mode_unset) return mode;
    return d.per_thread_by_default ? mode_per_thread : mode_legacy;
}

// Fixes the mode at the first binding and returns it.
int lock_stream_mode(const LibraryInfo &L) {
    std::atomic<int> &stream_mode = L.state->stream_mode;
    int current = stream_mode.load(std::memory_order_acquire);
    for (;;) {
        if (current & mode_locked) return current & ~mode_locked;
        int mode = current == mode_unset ? initial_mode(*L.abi_lookup) : current;
        if (stream_mode.compare_exchange_weak(current, mode | mode_locked, std::memory_order_acq_rel)) return mode;
    }
}

