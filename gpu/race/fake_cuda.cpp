// A stand-in libcuda.so.1 for a dry run of scripts/gpu-race.sh on a machine
// without a GPU (RACE_FAKE=1): just the functions race.cpp calls, with a
// crude global-capture rule (cuCtxSynchronize and cuStreamCreate answer 900
// and spoil the capture while one is open) and busy waits for call costs.
// Its numbers mean nothing; it only shows that the programs and the script
// run end to end. FAKE_CRASH=1 makes those unsafe calls crash instead.
#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace {

std::atomic<bool> capturing{false};
std::atomic<bool> spoiled{false};

void busy(int micros) {
    auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
    while (std::chrono::steady_clock::now() < until) {
    }
}

CUresult unsafe_call(int micros) {
    busy(micros);
    // FAKE_CRASH=1: crash instead, to try the crash report of race.cpp.
    if (capturing.load() && std::getenv("FAKE_CRASH")) *static_cast<volatile int *>(nullptr) = 1;
    if (capturing.load()) {
        spoiled.store(true);
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    return CUDA_SUCCESS;
}

int stream_cells[1024];
std::atomic<int> next_stream{0};

CUstream new_stream() { return reinterpret_cast<CUstream>(&stream_cells[next_stream.fetch_add(1) % 1024]); }

}  // namespace

extern "C" {

CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuDriverGetVersion(int *v) {
    *v = 13000;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGet(CUdevice *d, int) {
    *d = 0;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
    *c = reinterpret_cast<CUcontext>(&stream_cells[0]);
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxGetDevice(CUdevice *d) {
    *d = 0;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxGetFlags(unsigned int *f) {
    *f = 0;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxGetApiVersion(CUcontext, unsigned int *v) {
    *v = 3020;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *p, size_t) {
    *p = 0x1000;
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemFree(CUdeviceptr) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamCreateWithPriority(CUstream *s, unsigned int, int) {
    *s = new_stream();
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamCreate(CUstream *s, unsigned int flags) {
    CUresult rc = flags == CU_STREAM_DEFAULT ? unsafe_call(6) : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS) *s = new_stream();
    return rc;
}
CUresult CUDAAPI cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxSynchronize(void) { return unsafe_call(3); }
CUresult CUDAAPI cuStreamBeginCapture(CUstream, CUstreamCaptureMode) {
    busy(2);
    spoiled.store(false);
    capturing.store(true);
    return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemsetD32Async(CUdeviceptr, unsigned int, size_t, CUstream) {
    busy(2);
    return spoiled.load() ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamEndCapture(CUstream, CUgraph *g) {
    busy(2);
    capturing.store(false);
    *g = spoiled.load() ? nullptr : reinterpret_cast<CUgraph>(&stream_cells[1]);
    return spoiled.load() ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
}
CUresult CUDAAPI cuGraphDestroy(CUgraph) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuGetProcAddress(const char *name, void **pfn, int, cuuint64_t, CUdriverProcAddressQueryResult *found) {
    struct Entry {
        const char *name;
        void *address;
    };
    static const Entry known[] = {
        {"cuInit", reinterpret_cast<void *>(&cuInit)},
        {"cuDriverGetVersion", reinterpret_cast<void *>(&cuDriverGetVersion)},
        {"cuDeviceGet", reinterpret_cast<void *>(&cuDeviceGet)},
        {"cuDevicePrimaryCtxRetain", reinterpret_cast<void *>(&cuDevicePrimaryCtxRetain)},
        {"cuCtxSetCurrent", reinterpret_cast<void *>(&cuCtxSetCurrent)},
        {"cuCtxGetDevice", reinterpret_cast<void *>(&cuCtxGetDevice)},
        {"cuCtxGetFlags", reinterpret_cast<void *>(&cuCtxGetFlags)},
        {"cuCtxGetApiVersion", reinterpret_cast<void *>(&cuCtxGetApiVersion)},
        {"cuMemAlloc", reinterpret_cast<void *>(&cuMemAlloc)},
        {"cuMemFree", reinterpret_cast<void *>(&cuMemFree)},
        {"cuStreamCreateWithPriority", reinterpret_cast<void *>(&cuStreamCreateWithPriority)},
        {"cuStreamCreate", reinterpret_cast<void *>(&cuStreamCreate)},
        {"cuStreamDestroy", reinterpret_cast<void *>(&cuStreamDestroy)},
        {"cuCtxSynchronize", reinterpret_cast<void *>(&cuCtxSynchronize)},
        {"cuStreamBeginCapture", reinterpret_cast<void *>(&cuStreamBeginCapture)},
        {"cuMemsetD32Async", reinterpret_cast<void *>(&cuMemsetD32Async)},
        {"cuStreamEndCapture", reinterpret_cast<void *>(&cuStreamEndCapture)},
        {"cuGraphDestroy", reinterpret_cast<void *>(&cuGraphDestroy)},
        {"cuGetProcAddress", reinterpret_cast<void *>(&cuGetProcAddress)},
    };
    for (const Entry &e : known) {
        if (std::strcmp(e.name, name) == 0) {
            busy(5);
            *pfn = e.address;
            if (found) *found = CU_GET_PROC_ADDRESS_SUCCESS;
            return CUDA_SUCCESS;
        }
    }
    *pfn = nullptr;
    if (found) *found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
}

}  // extern "C"
