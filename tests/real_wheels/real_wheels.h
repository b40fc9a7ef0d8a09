// What the parts of the real-wheel program share (tests/real_wheels.rs):
// each part, `<library>.cpp`, defines `void real_<library>()`, which calls
// its library and prints one line: `<library> <what it got>`, or
// `<library>: <call> failed: <code>` when a call fails.
#ifndef CUSHIM_REAL_WHEELS_H
#define CUSHIM_REAL_WHEELS_H

#include <cstddef>
#include <cstdint>
#include <cstdio>

// Prints `<library> <what> <size> <hash>`: the FNV-1a hash of `size` bytes.
inline void print_hashed(const char *library, const char *what, const void *data,
                         std::size_t size) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    const unsigned char *bytes = static_cast<const unsigned char *>(data);
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= bytes[i];
        hash *= 0x100000001b3ull;
    }
    std::printf("%s %s %zu %016llx\n", library, what, size,
                static_cast<unsigned long long>(hash));
}

// Whether `code` is a failure (not 0); prints it if so.
inline bool failed(const char *library, const char *call, int code) {
    if (code == 0)
        return false;
    std::printf("%s: %s failed: %d\n", library, call, code);
    return true;
}

#endif
