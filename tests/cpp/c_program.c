/* A C11 program that includes cuda.h and the status header and links the
 * generated stubs. Run without a driver, it must get the documented code. */
#include <cuda.h>
#include <stdio.h>

#include "cuda_shim.h"

int main(void) {
    CUresult rc = cuInit(0);
    cushim_cuda_status status = cushim_cuda_load();
    printf("cuInit -> %d, status %d: %s\n", (int)rc, (int)status, cushim_cuda_last_message());
    return rc == CUDA_ERROR_SHARED_OBJECT_INIT_FAILED && status == CUSHIM_CUDA_LIBRARY_NOT_FOUND ? 0 : 1;
}
