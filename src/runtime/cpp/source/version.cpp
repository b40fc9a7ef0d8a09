// 1000 x major + 10 x minor, the minor kept to two digits.
unsigned version_of(int major, int minor) {
    return static_cast<unsigned>(major) * 1000u + static_cast<unsigned>(minor < 0 ? 0 : minor > 99 ? 99 : minor) * 10u;
}

// Reads the library version once, as the description says the version
// function answers: 1000 x major + 10 x minor, or 0 when it cannot tell.
// Returns what the function returned (or `no_answer` without one); NVIDIA's
// toolkit stub of the driver answers with the stub code, a real driver never.
constexpr int no_answer = -0x7fff;
int read_version_at(const LibraryInfo &L, void *p, unsigned &version);
int read_version(const LibraryInfo &L, void *handle, unsigned &version) {
    version = 0;
    void *p = find(handle, L.version_function);
    if (!p) return no_answer;
    return read_version_at(L, p, version);
}

// The same, for the version function at `p`.
int read_version_at(const LibraryInfo &L, void *p, unsigned &version) {
    version = 0;
    int rc = no_answer;
    if (L.version_query == VersionQuery::number) {
        int v = 0;
        rc = reinterpret_cast<int (*)(int *)>(p)(&v);
        if (rc == 0 && v > 0) version = static_cast<unsigned>(v);
    } else if (L.version_query == VersionQuery::number_in_status) {
        struct CodePair {
            int code;
            int other;
        };
        int v = 0;
        rc = reinterpret_cast<CodePair (*)(int *)>(p)(&v).code;
        if (rc == 0 && v > 0) version = static_cast<unsigned>(v);
    } else if (L.version_query == VersionQuery::major_minor) {
        int major = 0, minor = 0;
        rc = reinterpret_cast<int (*)(int *, int *)>(p)(&major, &minor);
        if (rc == 0 && major > 0 && major < 4000000) version = version_of(major, minor);
    } else if (L.version_query == VersionQuery::property) {
        int major = 0, minor = 0;
        rc = reinterpret_cast<int (*)(int, int *)>(p)(0, &major);
        if (rc == 0) rc = reinterpret_cast<int (*)(int, int *)>(p)(1, &minor);
        if (rc == 0 && major > 0 && major < 4000000) version = version_of(major, minor);
    } else if (L.version_query == VersionQuery::absent) {
        return no_answer;
    } else if (L.version_query == VersionQuery::api) {
        unsigned v = 0;
        rc = reinterpret_cast<int (*)(unsigned *)>(p)(&v);
    } else if (L.version_query == VersionQuery::decimal || L.version_query == VersionQuery::returned) {
        unsigned long long v = 0;
        if (L.version_query == VersionQuery::returned) {
            v = reinterpret_cast<std::size_t (*)()>(p)();
            rc = 0;
        } else {
            int n = 0;
            rc = reinterpret_cast<int (*)(int *)>(p)(&n);
            if (n > 0) v = static_cast<unsigned long long>(n);
        }
        if (rc == 0 && v / 10000 > 0 && v / 10000 < 4000000)
            version = version_of(static_cast<int>(v / 10000), static_cast<int>(v / 100 % 100));
    } else {
        char text[96] = {};
        rc = reinterpret_cast<int (*)(char *, unsigned)>(p)(text, 95);
        text[95] = '\0';
        unsigned major = 0;
        for (const char *c = text; *c >= '0' && *c <= '9' && major < 4000000; ++c) major = major * 10 + static_cast<unsigned>(*c - '0');
        if (rc == 0) version = major * 1000u;
    }
    return rc;
}

