// The CUDA runtime's part of the real-wheel program: asks the runtime its
// version and the driver's, which need no GPU, and prints `cudart runtime
// <version> driver <version> <code>`, the code being what
// cudaDriverGetVersion returned. Without a driver the Linux runtime answers
// 13000, and 0 with version 0; the Windows one answers every call with
// cudaErrorNotSupported (801) when it cannot load nvcuda.dll.
#include "cuda_runtime_api.h"
#include "real_wheels.h"

void real_cudart() {
    int runtime = -1;
    if (failed("cudart", "cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime)))
        return;
    int driver = -1;
    cudaError_t code = cudaDriverGetVersion(&driver);
    std::printf("cudart runtime %d driver %d %d\n", runtime, driver, static_cast<int>(code));
}
