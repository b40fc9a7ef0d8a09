// What nvcc's host code calls by itself, for tests/compiled.rs: a static
// constructor registers a fat binary, a kernel and two variables, and an exit
// handler unregisters it; `main` then brackets a launch with a push and a pop
// of its configuration, as `kernel<<<grid, block, shared, stream>>>` does, and
// makes the program's first runtime call. Each call is printed with what it
// sent and what came back ("sent: ..."), in the words of the fake runtime's
// own line ("got: ...", tests/fake/libcudart.c). The declarations are this
// file's own, with nvcc's types: the entry points have no public header.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime_api.h>

extern "C" {
void **__cudaRegisterFatBinary(void *fat_binary);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *host_function, char *device_function,
                            const char *device_name, int thread_limit, uint3 *tid, uint3 *bid,
                            dim3 *block, dim3 *grid, int *warp_size);
void __cudaRegisterVar(void **handle, char *host_variable, char *device_address,
                       const char *device_name, int ext, size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **handle, void **host_pointer, char *device_address,
                              const char *device_name, int ext, size_t size, int constant,
                              int global);
char __cudaInitModule(void **handle);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream);
}

namespace {

// What nvcc's objects hand over: the fat binary's wrapper, a kernel's host
// stub, a `__constant__` variable's shadow, a `__managed__` one's pointer.
const unsigned fat_binary[4] = {0x466243b1u, 1u, 0u, 0u};
void kernel_stub() {}
float constant_shadow;
void *managed_pointer;
void **handle;

void unregister() {
    __cudaUnregisterFatBinary(handle);
    std::printf("sent: __cudaUnregisterFatBinary(%p)\n", static_cast<void *>(handle));
}

// nvcc's objects register from a constructor (.init_array), before main.
__attribute__((constructor)) void register_module() {
    handle = __cudaRegisterFatBinary(const_cast<unsigned *>(fat_binary));
    std::printf("sent: __cudaRegisterFatBinary(%p) = %p\n", static_cast<const void *>(fat_binary),
                static_cast<void *>(handle));
    char kernel_name[] = "_Z6kernelv";
    __cudaRegisterFunction(handle, reinterpret_cast<const char *>(&kernel_stub), kernel_name,
                           kernel_name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
    std::printf("sent: __cudaRegisterFunction(%p, %p, %s, %s, %d, %p, %p, %p, %p, %p)\n",
                static_cast<void *>(handle), reinterpret_cast<void *>(&kernel_stub), kernel_name,
                kernel_name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
    char constant_name[] = "scale";
    __cudaRegisterVar(handle, reinterpret_cast<char *>(&constant_shadow), constant_name,
                      constant_name, 0, sizeof constant_shadow, 1, 0);
    std::printf("sent: __cudaRegisterVar(%p, %p, %s, %s, %d, %zu, %d, %d)\n",
                static_cast<void *>(handle), static_cast<void *>(&constant_shadow), constant_name,
                constant_name, 0, sizeof constant_shadow, 1, 0);
    char managed_name[] = "counter";
    __cudaRegisterManagedVar(handle, &managed_pointer, managed_name, managed_name, 0, sizeof(int),
                             0, 0);
    std::printf("sent: __cudaRegisterManagedVar(%p, %p, %s, %s, %d, %zu, %d, %d)\n",
                static_cast<void *>(handle), static_cast<void *>(&managed_pointer), managed_name,
                managed_name, 0, sizeof(int), 0, 0);
    __cudaRegisterFatBinaryEnd(handle);
    std::printf("sent: __cudaRegisterFatBinaryEnd(%p)\n", static_cast<void *>(handle));
    std::atexit(unregister);
    char initialized = __cudaInitModule(handle);
    std::printf("sent: __cudaInitModule(%p) = %d\n", static_cast<void *>(handle), initialized);
}

}  // namespace

int main() {
    std::printf("main reached\n");
    // kernel<<<dim3(2, 3, 4), dim3(32, 2, 1), 256, stream>>>(): the push,
    // then in the kernel's stub the pop.
    CUstream_st *stream = reinterpret_cast<CUstream_st *>(0x5eed);
    unsigned pushed = __cudaPushCallConfiguration(dim3(2, 3, 4), dim3(32, 2, 1), 256, stream);
    std::printf("sent: __cudaPushCallConfiguration(2 3 4, 32 2 1, 256, %p) = %u\n",
                static_cast<void *>(stream), pushed);
    dim3 grid(0, 0, 0), block(0, 0, 0);
    size_t shared = 0;
    cudaStream_t popped = nullptr;
    cudaError_t pop = __cudaPopCallConfiguration(&grid, &block, &shared, &popped);
    if (pop == cudaSuccess) {
        std::printf("sent: __cudaPopCallConfiguration() = 0: %u %u %u, %u %u %u, %zu, %p\n", grid.x,
                    grid.y, grid.z, block.x, block.y, block.z, shared, static_cast<void *>(popped));
    }
    std::printf("pop: %d\n", static_cast<int>(pop));
    int devices = -1;
    std::printf("first call: %d\n", static_cast<int>(cudaGetDeviceCount(&devices)));
    return 0;
}
