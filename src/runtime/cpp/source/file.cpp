// Appends "`name` (why)" to the list of places tried.
void note_tried(char *tried, std::size_t size, const char *name, const char *why) {
    append(tried, size, tried[0] ? "; `" : "`");
    append(tried, size, name);
    append(tried, size, "` (");
    append(tried, size, why);
    append(tried, size, ")");
}

// Whether `path` was already tried (the same place reached by two steps).
bool was_tried(const char *tried, const char *path) {
    char quoted[path_size + 2];
    format(quoted, sizeof quoted, "`%s`", path);
    return std::strstr(tried, quoted) != nullptr;
}

bool file_exists(const char *path) {
#ifdef _WIN32
    return GetFileAttributesA(path) != INVALID_FILE_ATTRIBUTES;
#else
    return access(path, F_OK) == 0;
#endif
}

// What is checked of a candidate file before the platform's loader sees it
// (the Rust runtime's `file` module: the same checks, in the same words).
// The loader trusts what it maps: a FIFO named like the library blocks the
// open forever, a truncated library dies of SIGBUS inside dlopen when a
// segment past the end of the file is touched, and glibc answers "No such
// file or directory" for a library built for another machine. So only a
// regular file is opened, without blocking, and its header must be for this
// build (ELF: class, byte order, type, machine, and every loaded segment
// inside the file; Windows: the PE header, machine, a DLL, every section
// inside the file).

unsigned long long add_saturating(unsigned long long a, unsigned long long b) {
    return a > ULLONG_MAX - b ? ULLONG_MAX : a + b;
}

// "truncated: WHAT ends at byte N, but the file has M bytes".
bool truncated(char *why, std::size_t size, const char *what, unsigned long long end, unsigned long long length) {
    format(why, size, "truncated: %s ends at byte %llu, but the file has %llu bytes", what, end, length);
    return false;
}

#ifdef _WIN32
using file_handle = HANDLE;

// Reads `n` bytes at `offset`; the caller checked that they lie inside the file.
bool read_at(file_handle f, unsigned long long offset, void *buffer, std::size_t n, char *why, std::size_t size) {
    char *p = static_cast<char *>(buffer);
    while (n > 0) {
        OVERLAPPED at = {};
        at.Offset = static_cast<DWORD>(offset);
        at.OffsetHigh = static_cast<DWORD>(offset >> 32);
        DWORD got = 0;
        DWORD want = n > 0x10000000 ? 0x10000000 : static_cast<DWORD>(n);
        if (!ReadFile(f, p, want, &got, &at) || got == 0) {
            format(why, size, "cannot be read: error %lu", static_cast<unsigned long>(GetLastError()));
            return false;
        }
        p += got;
        n -= got;
        offset += got;
    }
    return true;
}

unsigned read_u16(const unsigned char *b) { return b[0] | static_cast<unsigned>(b[1]) << 8; }
unsigned long read_u32(const unsigned char *b) {
    return b[0] | static_cast<unsigned long>(b[1]) << 8 | static_cast<unsigned long>(b[2]) << 16 |
           static_cast<unsigned long>(b[3]) << 24;
}

#if defined(_M_X64) || defined(__x86_64__)
constexpr unsigned this_machine = 0x8664;
#elif defined(_M_ARM64) || defined(__aarch64__)
constexpr unsigned this_machine = 0xaa64;
#elif defined(_M_IX86) || defined(__i386__)
constexpr unsigned this_machine = 0x14c;
#else
constexpr unsigned this_machine = 0;
#endif

// "0x8664 (x86-64)": a PE machine number, with its name when known.
void machine_name(char *out, std::size_t size, unsigned m) {
    const char *name = m == 0x14c ? "x86" : m == 0x8664 ? "x86-64" : m == 0xaa64 ? "ARM64" : m == 0x1c4 ? "ARMv7" : nullptr;
    if (name)
        format(out, size, "%#x (%s)", m, name);
    else
        format(out, size, "%#x", m);
}

// The DOS and PE headers, and every section's place in the file.
bool check_header(file_handle f, unsigned long long length, char *why, std::size_t size) {
    unsigned char dos[64] = {};
    std::size_t have = length < sizeof dos ? static_cast<std::size_t>(length) : sizeof dos;
    if (!read_at(f, 0, dos, have, why, size)) return false;
    if (have < 2 || dos[0] != 'M' || dos[1] != 'Z') {
        format(why, size, "not a Windows DLL (it does not start with `MZ`)");
        return false;
    }
    if (length < sizeof dos) return truncated(why, size, "its DOS header", sizeof dos, length);
    unsigned long long pe = read_u32(dos + 0x3c);
    // The signature, the file header (20 bytes) and the optional header's magic.
    unsigned char h[26];
    if (add_saturating(pe, sizeof h) > length)
        return truncated(why, size, "its PE header", add_saturating(pe, sizeof h), length);
    if (!read_at(f, pe, h, sizeof h, why, size)) return false;
    if (std::memcmp(h, "PE\0\0", 4) != 0) {
        format(why, size, "not a Windows DLL (no PE signature)");
        return false;
    }
    unsigned machine = read_u16(h + 4);
    if (this_machine != 0 && machine != this_machine) {
        char found[64], wanted[64];
        machine_name(found, sizeof found, machine);
        machine_name(wanted, sizeof wanted, this_machine);
        format(why, size, "a DLL for machine %s, but this program is for %s", found, wanted);
        return false;
    }
    unsigned long long sections = read_u16(h + 6);
    unsigned long long optional = read_u16(h + 20);
    if ((read_u16(h + 22) & 0x2000) == 0) {
        format(why, size, "a Windows program, not a DLL");
        return false;
    }
    constexpr unsigned bits = sizeof(void *) * 8;
    unsigned magic = read_u16(h + 24);
    unsigned found_bits = magic == 0x10b ? 32 : magic == 0x20b ? 64 : 0;
    if (found_bits != bits) {
        if (found_bits == 0)
            format(why, size, "a malformed DLL (optional header magic %#x)", magic);
        else
            format(why, size, "a %u-bit DLL, but this program is %u-bit", found_bits, bits);
        return false;
    }
    unsigned long long table = pe + 24 + optional;
    if (table + sections * 40 > length) return truncated(why, size, "its section table", table + sections * 40, length);
    for (unsigned long long i = 0; i < sections; ++i) {
        unsigned char section[40];
        if (!read_at(f, table + i * 40, section, sizeof section, why, size)) return false;
        unsigned long long raw = read_u32(section + 16);
        unsigned long long end = raw + read_u32(section + 20);
        if (raw != 0 && end > length) return truncated(why, size, "a section", end, length);
    }
    return true;
}

// Whether the file at `path` can be handed to the loader; else what is
// wrong with it, in `why`.
bool check_file(const char *path, char *why, std::size_t size) {
    wchar_t wide[path_size];
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, wide, static_cast<int>(path_size)) == 0) {
        format(why, size, "cannot be examined: the name is not valid UTF-8");
        return false;
    }
    DWORD attributes = GetFileAttributesW(wide);
    if (attributes == INVALID_FILE_ATTRIBUTES) {
        format(why, size, "cannot be examined: error %lu", static_cast<unsigned long>(GetLastError()));
        return false;
    }
    if (attributes & FILE_ATTRIBUTE_DIRECTORY) {
        format(why, size, "not a regular file (a directory)");
        return false;
    }
    HANDLE f = CreateFileW(wide, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (f == INVALID_HANDLE_VALUE) {
        format(why, size, "cannot be read: error %lu", static_cast<unsigned long>(GetLastError()));
        return false;
    }
    LARGE_INTEGER length = {};
    bool ok = false;
    if (GetFileType(f) != FILE_TYPE_DISK)
        format(why, size, "not a regular file (not a file)");
    else if (!GetFileSizeEx(f, &length))
        format(why, size, "cannot be examined: error %lu", static_cast<unsigned long>(GetLastError()));
    else
        ok = check_header(f, static_cast<unsigned long long>(length.QuadPart), why, size);
    CloseHandle(f);
    return ok;
}
#else
// Reads `n` bytes at `offset`; the caller checked that they lie inside the file.
bool read_at(int fd, unsigned long long offset, void *buffer, std::size_t n, char *why, std::size_t size) {
    char *p = static_cast<char *>(buffer);
    while (n > 0) {
        ssize_t got = pread(fd, p, n, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            format(why, size, "cannot be read: %s", got < 0 ? std::strerror(errno) : "it ended early");
            return false;
        }
        p += got;
        n -= static_cast<std::size_t>(got);
        offset += static_cast<unsigned long long>(got);
    }
    return true;
}

// What a file that is not a regular file is.
const char *file_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    return "not a file";
}

#if defined(__linux__)
// The ELF machine of this build (e_machine), 0 where unknown here.
#if defined(__x86_64__)
constexpr unsigned this_machine = 62;
#elif defined(__aarch64__)
constexpr unsigned this_machine = 183;
#elif defined(__i386__)
constexpr unsigned this_machine = 3;
#elif defined(__arm__)
constexpr unsigned this_machine = 40;
#elif defined(__powerpc64__)
constexpr unsigned this_machine = 21;
#elif defined(__powerpc__)
constexpr unsigned this_machine = 20;
#elif defined(__riscv) && __riscv_xlen == 64
constexpr unsigned this_machine = 243;
#elif defined(__s390x__)
constexpr unsigned this_machine = 22;
#elif defined(__loongarch64)
constexpr unsigned this_machine = 258;
#else
constexpr unsigned this_machine = 0;
#endif

// "62 (x86-64)": an ELF machine number, with its name when known.
void machine_name(char *out, std::size_t size, unsigned m) {
    const char *name = nullptr;
    switch (m) {
        case 3: name = "x86"; break;
        case 20: name = "PowerPC"; break;
        case 21: name = "PowerPC64"; break;
        case 22: name = "S/390"; break;
        case 40: name = "ARM"; break;
        case 62: name = "x86-64"; break;
        case 183: name = "AArch64"; break;
        case 243: name = "RISC-V"; break;
        case 258: name = "LoongArch"; break;
        default: break;
    }
    if (name)
        format(out, size, "%u (%s)", m, name);
    else
        format(out, size, "%u", m);
}

// The ELF header, the program headers, and every loadable segment's place
// in the file (what glibc maps; a part past the end is a SIGBUS).
bool check_header(int fd, unsigned long long length, char *why, std::size_t size) {
    constexpr unsigned bits = sizeof(void *) * 8;
    ElfW(Ehdr) h;
    std::memset(&h, 0, sizeof h);
    std::size_t have = length < sizeof h ? static_cast<std::size_t>(length) : sizeof h;
    if (!read_at(fd, 0, &h, have, why, size)) return false;
    if (have < 4 || std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) {
        format(why, size, "not an ELF file (it does not start with the ELF magic number)");
        return false;
    }
    if (length < sizeof h) return truncated(why, size, "its ELF header", sizeof h, length);
    unsigned char cls = h.e_ident[EI_CLASS];
    unsigned found_bits = cls == ELFCLASS32 ? 32 : cls == ELFCLASS64 ? 64 : 0;
    if (found_bits != bits) {
        if (found_bits == 0)
            format(why, size, "an ELF file of unknown class %u", static_cast<unsigned>(cls));
        else
            format(why, size, "a %u-bit ELF file, but this program is %u-bit", found_bits, bits);
        return false;
    }
    bool little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
    if (h.e_ident[EI_DATA] != (little ? ELFDATA2LSB : ELFDATA2MSB)) {
        format(why, size, "an ELF file of the other byte order, but this program is %s-endian", little ? "little" : "big");
        return false;
    }
    if (h.e_type != ET_DYN) {
        format(why, size, "an ELF file of type %u, not a shared library (type 3)", static_cast<unsigned>(h.e_type));
        return false;
    }
    if (this_machine != 0 && h.e_machine != this_machine) {
        char found[64], wanted[64];
        machine_name(found, sizeof found, h.e_machine);
        machine_name(wanted, sizeof wanted, this_machine);
        format(why, size, "an ELF file for machine %s, but this program is for %s", found, wanted);
        return false;
    }
    if (h.e_phnum > 0 && h.e_phentsize < sizeof(ElfW(Phdr))) {
        format(why, size, "a malformed ELF file (program headers of %u bytes)", static_cast<unsigned>(h.e_phentsize));
        return false;
    }
    unsigned long long table = static_cast<unsigned long long>(h.e_phentsize) * h.e_phnum;
    unsigned long long end = add_saturating(h.e_phoff, table);
    if (end > length) return truncated(why, size, "its program header table", end, length);
    for (unsigned i = 0; i < h.e_phnum; ++i) {
        ElfW(Phdr) p;
        if (!read_at(fd, h.e_phoff + static_cast<unsigned long long>(i) * h.e_phentsize, &p, sizeof p, why, size))
            return false;
        if (p.p_type != PT_LOAD) continue;  // only PT_LOAD segments are mapped from the file
        end = add_saturating(p.p_offset, p.p_filesz);
        if (end > length) return truncated(why, size, "a loadable segment", end, length);
    }
    return true;
}
#else
// Elsewhere (macOS), the regular-file check only.
bool check_header(int, unsigned long long, char *, std::size_t) { return true; }
#endif

// Whether the file at `path` can be handed to the loader; else what is
// wrong with it, in `why`.
bool check_file(const char *path, char *why, std::size_t size) {
    struct stat st;
    if (stat(path, &st) != 0) {
        format(why, size, "cannot be examined: %s", std::strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        format(why, size, "not a regular file (%s)", file_kind(st.st_mode));
        return false;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        format(why, size, "cannot be read: %s", std::strerror(errno));
        return false;
    }
    // The file opened may not be the one examined: look again.
    bool ok = false;
    if (fstat(fd, &st) != 0)
        format(why, size, "cannot be examined: %s", std::strerror(errno));
    else if (!S_ISREG(st.st_mode))
        format(why, size, "not a regular file (%s)", file_kind(st.st_mode));
    else
        ok = check_header(fd, static_cast<unsigned long long>(st.st_size), why, size);
    close(fd);
    return ok;
}
#endif

