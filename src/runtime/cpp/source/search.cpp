// What a value of the override variable asks for: 0 (unset or empty) to
// search, 1 to open it, -1 for a relative path, which is refused. The same
// rule as the Rust runtime's `library_override`.
int library_override(const char *value) {
    if (!value || !*value) return 0;
    return is_absolute(value) ? 1 : -1;
}

// Opens the library by its own search: the file the override names, or
// else the places searched.
void open_library(const LibraryInfo &L) {
    Library &s = *L.state;
    s.status = status_library_not_found;
    char chosen[path_size] = {};
    lock(s);
    s.started = true;
    format(chosen, sizeof chosen, "%s", s.override_path);
    unlock(s);
    if (!chosen[0]) {
        const char *env = std::getenv(L.override_var);
        switch (library_override(env)) {
            case -1:
                format(s.message, sizeof s.message, "%s=`%s` is not an absolute path; relative paths are refused",
                       L.override_var, env);
                return;
            case 1:
                format(chosen, sizeof chosen, "%s", env);
                break;
            default:
                break;
        }
    }
    s.tried[0] = '\0';
    if (chosen[0]) {
        if (attempt(L, chosen, true)) return;
    } else {
        if (L.toolkit_search) {
            if (search_toolkit(L)) return;
        } else {
            // Installed with the driver: the system loader only.
            for (const char *const *name = L.names; *name; ++name)
                if (attempt(L, *name)) return;
        }
    }
    if (s.status == status_wrong_major) return;
    not_found(L);
}

