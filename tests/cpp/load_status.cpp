// The status API of a pair around a failed or adopted load (NVRTC's pair):
//   load-fails       cushim_nvrtc_load() fails (the override names no file);
//                    last_status and last_message say why, as after a failed
//                    call, and so do the other entry points that load
//   preloaded PATH   the program loads PATH itself first (as cuBLAS's stubs
//                    load cuBLASLt); the search adopts that copy, and
//                    library_path names its file, not the bare name
#include <dlfcn.h>
#include <nvrtc_shim.h>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "load-fails") == 0) {
        std::printf("before: last_status=%d last_message=[%s]\n", cushim_nvrtc_last_status(),
                    cushim_nvrtc_last_message());
        int status = cushim_nvrtc_load();
        std::printf("load=%d last_status=%d last_message=[%s]\n", status, cushim_nvrtc_last_status(),
                    cushim_nvrtc_last_message());
        // Each entry point that loads notes the failure for this thread too.
        const char *pointers[] = {"library_path", "library_version", "resolve_all"};
        for (const char *which : pointers) {
            std::strcpy(const_cast<char *>(cushim_nvrtc_last_message()), "");
            if (std::strcmp(which, "library_path") == 0)
                std::printf("library_path=%s", cushim_nvrtc_library_path() ? "set" : "null");
            else if (std::strcmp(which, "library_version") == 0)
                std::printf("library_version=%u", cushim_nvrtc_library_version());
            else
                std::printf("resolve_all=%d", static_cast<int>(cushim_nvrtc_resolve_all(nullptr, 0)));
            std::printf(" last_status=%d noted=%d\n", cushim_nvrtc_last_status(),
                        cushim_nvrtc_last_message()[0] != '\0');
        }
        return 0;
    }
    if (argc == 3 && std::strcmp(argv[1], "preloaded") == 0) {
        if (!dlopen(argv[2], RTLD_NOW | RTLD_LOCAL)) {
            std::printf("cannot preload %s: %s\n", argv[2], dlerror());
            return 1;
        }
        int status = cushim_nvrtc_load();
        std::printf("load=%d path=%s version=%u\n", status, cushim_nvrtc_library_path(),
                    cushim_nvrtc_library_version());
        return 0;
    }
    std::printf("usage: load_status load-fails | preloaded PATH\n");
    return 2;
}
