// NCCL in the family test's C++ program, with the fake `libnccl.c`: included
// by the list `tests/family.rs` writes from the registry, after the
// program's CHECK and the pairs' headers; the C++ twin of `nccl.rs`.
#include <nccl.h>

static void nccl_present() {
    int version = 0;
    CHECK(ncclGetVersion(&version) == ncclSuccess);
    std::printf("nccl: version %d\n", version);
    ncclComm_t comm = nullptr;
    CHECK(ncclCommInitAll(&comm, 1, nullptr) == ncclSuccess);
    float send[3] = {1.5f, 2.5f, 3.5f}, recv[3] = {};
    CHECK(ncclGroupStart() == ncclSuccess);
    CHECK(ncclAllReduce(send, recv, 3, ncclFloat32, ncclSum, comm, nullptr) == ncclSuccess);
    CHECK(ncclGroupEnd() == ncclSuccess);
    std::printf("nccl: all-reduce [%g, %g, %g]\n", recv[0], recv[1], recv[2]);
    int count = 0;
    std::printf("nccl: ncclCommCount code %d\n", static_cast<int>(ncclCommCount(comm, &count)));
    CHECK(ncclCommDestroy(comm) == ncclSuccess);
}

static void nccl_absent() {
    int version = 0;
    std::printf("nccl: ncclGetVersion code %d\n", static_cast<int>(ncclGetVersion(&version)));
    std::printf("nccl: ncclGetErrorString(2) = %s\n", ncclGetErrorString(ncclSystemError));
}
