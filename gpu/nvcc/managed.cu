// Managed memory: a __managed__ variable (registered with
// __cudaRegisterManagedVar, reached through __cudaInitModule) and
// cudaMallocManaged.
#include "common.cuh"

__managed__ int launches = 0;
__device__ int device_total = 0;

__global__ void fill(int *data, int n, int base) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = base + i;
        atomicAdd(&device_total, 1);
    }
    if (i == 0) atomicAdd(&launches, 1);
}

int main() {
    if (!first_call()) return 0;
    const int n = 10000;
    int *data;
    CHECK(cudaMallocManaged(&data, n * sizeof(int)));
    fill<<<(n + 127) / 128, 128>>>(data, n, 7);
    fill<<<(n + 127) / 128, 128>>>(data, n, 11);
    CHECK(cudaDeviceSynchronize());
    long long sum = 0;
    for (int i = 0; i < n; ++i) sum += data[i];
    int total = 0;
    CHECK(cudaMemcpyFromSymbol(&total, device_total, sizeof total));
    std::printf("managed: launches=%d sum=%lld device_total=%d\n", launches, sum, total);
    launches = 100;  // host write to the managed variable
    fill<<<1, 1>>>(data, 1, 0);
    CHECK(cudaDeviceSynchronize());
    std::printf("managed: after host write launches=%d data[0]=%d\n", launches, data[0]);
    CHECK(cudaFree(data));
    return 0;
}
