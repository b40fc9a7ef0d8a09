// cuFile in the family test's C++ program, with the fake `libcufile.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `cufile.rs`.
#include <cufile.h>

// A status struct; the header's cuFileDriverClose is cuFileDriverClose_v2;
// libcufile_rdma.so.1 from beside it.
static void cufile_present() {
    int version = 0;
    CHECK(cuFileGetVersion(&version).err == CU_FILE_SUCCESS);
    std::printf("cufile: version %d\n", version);
    CHECK(cuFileDriverOpen().err == CU_FILE_SUCCESS);
    void *file = dlopen(cushim_cufile_library_path(), RTLD_NOW | RTLD_NOLOAD);
    CHECK(file != nullptr);
    auto rdma = reinterpret_cast<const char *(*)()>(dlsym(file, "fake_rdma_file"));
    CHECK(rdma != nullptr);
    std::printf("cufile: rdma from %s\n", rdma());
    CHECK(cuFileDriverClose().err == CU_FILE_SUCCESS);
    unsigned char bytes[4] = {};
    ssize_t read = cuFileRead(nullptr, bytes, 4, 0, 0);
    std::printf("cufile: read %zd [%d, %d, %d, %d]\n", read, bytes[0], bytes[1], bytes[2], bytes[3]);
    CUfileError_t registered = cuFileBufRegister(bytes, 4, 0);
    std::printf("cufile: cuFileBufRegister code %d cu_err %d\n", static_cast<int>(registered.err),
                static_cast<int>(registered.cu_err));
}

static void cufile_absent() {
    CUfileError_t opened = cuFileDriverOpen();
    std::printf("cufile: cuFileDriverOpen code %d cu_err %d\n", static_cast<int>(opened.err),
                static_cast<int>(opened.cu_err));
    std::printf("cufile: cuFileRead %zd\n", cuFileRead(nullptr, nullptr, 4, 0, 0));
}
