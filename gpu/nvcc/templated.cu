// A templated kernel, instantiated for three types (each instance registered
// with __cudaRegisterFunction), launched with 2-D and 3-D configurations.
#include "common.cuh"

template <typename T>
__global__ void axpy(T a, const T *x, T *y, int width, int height) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height) y[row * width + col] += a * x[row * width + col];
}

template <typename T>
__global__ void iota3(T *out, int nx, int ny, int nz) {
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    int z = threadIdx.z + blockIdx.z * blockDim.z;
    if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = T(x + 10 * y + 100 * z);
}

template <typename T>
double run(T a) {
    const int w = 300, h = 200, n = w * h;
    T *x, *y;
    T *hx = new T[n], *hy = new T[n];
    for (int i = 0; i < n; ++i) { hx[i] = T(i % 13); hy[i] = T(i % 7); }
    CHECK(cudaMalloc(&x, n * sizeof(T)));
    CHECK(cudaMalloc(&y, n * sizeof(T)));
    CHECK(cudaMemcpy(x, hx, n * sizeof(T), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy, n * sizeof(T), cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    axpy<T><<<grid, block>>>(a, x, y, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hy, y, n * sizeof(T), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += double(hy[i]);
    CHECK(cudaFree(x)); CHECK(cudaFree(y));
    delete[] hx; delete[] hy;
    return sum;
}

int main() {
    if (!first_call()) return 0;
    std::printf("axpy<float>: %.1f\n", run<float>(1.5f));
    std::printf("axpy<double>: %.1f\n", run<double>(-2.25));
    std::printf("axpy<int>: %.1f\n", run<int>(3));
    const int nx = 20, ny = 10, nz = 5, n = nx * ny * nz;
    long long *out, host[n];
    CHECK(cudaMalloc(&out, sizeof host));
    iota3<long long><<<dim3(3, 2, 5), dim3(8, 8, 1)>>>(out, nx, ny, nz);
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < n; ++i) sum += host[i];
    std::printf("iota3<long long>: %lld\n", sum);
    CHECK(cudaFree(out));
    return 0;
}
