// cuSOLVERMg on one GPU: an LU solve (cusolverMgGetrf, cusolverMgGetrs) of
// a nonsymmetric 8 x 8 system and a Cholesky solve (cusolverMgPotrf,
// cusolverMgPotrs) of a symmetric positive definite one, both with the
// solution 1, 2, ..., 8, in column blocks of 2 over a grid of one device.
// Prints every status, info and component of the solutions (%a: bit for
// bit), so that the program built on cushim's stubs and the same program
// linked with -lcusolverMg print the same lines. Built with
// CUSHIM_STUBS, it also names the library its stubs found, on stderr.
#define DISABLE_CUSOLVERMG_DEPRECATED
#include <cuda_runtime_api.h>
#include <cusolverMg.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef CUSHIM_STUBS
#include "cusolverMg_shim.h"
#endif

namespace {

constexpr int N = 8;
constexpr int BLOCK = 2;

int failures = 0;

void status(const char *what, cusolverStatus_t s) {
    std::printf("%s: status %d\n", what, static_cast<int>(s));
    if (s != CUSOLVER_STATUS_SUCCESS) ++failures;
}

void cuda(const char *what, cudaError_t e) {
    if (e != cudaSuccess) {
        std::printf("%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

// A device copy of a column-major host matrix: one device holds every
// column block, so its local storage is the matrix itself.
void *to_device(const std::vector<double> &host) {
    void *d = nullptr;
    cuda("cudaMalloc", cudaMalloc(&d, host.size() * sizeof(double)));
    cuda("cudaMemcpy", cudaMemcpy(d, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice));
    return d;
}

std::vector<double> rhs(const std::vector<double> &a) {
    std::vector<double> b(N, 0.0);
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) b[i] += a[i + j * N] * (j + 1);
    return b;
}

void print_solution(const char *what, void *d_b) {
    std::vector<double> x(N);
    cuda("cudaMemcpy", cudaMemcpy(x.data(), d_b, N * sizeof(double), cudaMemcpyDeviceToHost));
    std::printf("%s: x =", what);
    for (double v : x) std::printf(" %a", v);
    std::printf("\n%s: x (decimal) =", what);
    for (double v : x) std::printf(" %.6f", v);
    std::printf("\n");
}

void *workspace(int64_t lwork) {
    void *d = nullptr;
    cuda("cudaMalloc", cudaMalloc(&d, (lwork > 0 ? lwork : 1) * sizeof(double)));
    return d;
}

}  // namespace

int main() {
    int devices[1] = {0};
    cusolverMgHandle_t handle = nullptr;
    status("cusolverMgCreate", cusolverMgCreate(&handle));
    if (!handle) return 1;
    status("cusolverMgDeviceSelect", cusolverMgDeviceSelect(handle, 1, devices));
    cudaLibMgGrid_t grid = nullptr;
    status("cusolverMgCreateDeviceGrid",
           cusolverMgCreateDeviceGrid(&grid, 1, 1, devices, CUDALIBMG_GRID_MAPPING_COL_MAJOR));
    cudaLibMgMatrixDesc_t desc_a = nullptr, desc_b = nullptr;
    status("cusolverMgCreateMatrixDesc A", cusolverMgCreateMatrixDesc(&desc_a, N, N, N, BLOCK, CUDA_R_64F, grid));
    status("cusolverMgCreateMatrixDesc B", cusolverMgCreateMatrixDesc(&desc_b, N, 1, N, BLOCK, CUDA_R_64F, grid));

    // LU: a nonsymmetric, diagonally dominant matrix.
    std::vector<double> a(N * N);
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) a[i + j * N] = i == j ? 10.0 + i : 1.0 / (1 + i + 2 * j);
    std::vector<double> b = rhs(a);
    void *d_a[1] = {to_device(a)};
    void *d_b[1] = {to_device(b)};
    int *d_ipiv[1] = {nullptr};
    cuda("cudaMalloc", cudaMalloc(reinterpret_cast<void **>(&d_ipiv[0]), N * sizeof(int)));
    int64_t lwork_getrf = 0, lwork_getrs = 0;
    status("cusolverMgGetrf_bufferSize",
           cusolverMgGetrf_bufferSize(handle, N, N, d_a, 1, 1, desc_a, d_ipiv, CUDA_R_64F, &lwork_getrf));
    status("cusolverMgGetrs_bufferSize",
           cusolverMgGetrs_bufferSize(handle, CUBLAS_OP_N, N, 1, d_a, 1, 1, desc_a, d_ipiv, d_b, 1, 1,
                                      desc_b, CUDA_R_64F, &lwork_getrs));
    int64_t lwork = lwork_getrf > lwork_getrs ? lwork_getrf : lwork_getrs;
    void *d_work[1] = {workspace(lwork)};
    int info = -1;
    status("cusolverMgGetrf", cusolverMgGetrf(handle, N, N, d_a, 1, 1, desc_a, d_ipiv, CUDA_R_64F, d_work,
                                              lwork, &info));
    cuda("cudaDeviceSynchronize", cudaDeviceSynchronize());
    std::printf("cusolverMgGetrf: info %d\n", info);
    info = -1;
    status("cusolverMgGetrs", cusolverMgGetrs(handle, CUBLAS_OP_N, N, 1, d_a, 1, 1, desc_a, d_ipiv, d_b, 1, 1,
                                              desc_b, CUDA_R_64F, d_work, lwork, &info));
    cuda("cudaDeviceSynchronize", cudaDeviceSynchronize());
    std::printf("cusolverMgGetrs: info %d\n", info);
    print_solution("lu", d_b[0]);

    // Cholesky: the symmetric positive definite tridiagonal (-1, 4, -1).
    std::vector<double> s(N * N, 0.0);
    for (int i = 0; i < N; ++i) {
        s[i + i * N] = 4.0;
        if (i + 1 < N) s[(i + 1) + i * N] = s[i + (i + 1) * N] = -1.0;
    }
    std::vector<double> c = rhs(s);
    void *d_s[1] = {to_device(s)};
    void *d_c[1] = {to_device(c)};
    int64_t lwork_potrf = 0, lwork_potrs = 0;
    status("cusolverMgPotrf_bufferSize",
           cusolverMgPotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, N, d_s, 1, 1, desc_a, CUDA_R_64F,
                                      &lwork_potrf));
    status("cusolverMgPotrs_bufferSize",
           cusolverMgPotrs_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, N, 1, d_s, 1, 1, desc_a, d_c, 1, 1,
                                      desc_b, CUDA_R_64F, &lwork_potrs));
    int64_t lwork2 = lwork_potrf > lwork_potrs ? lwork_potrf : lwork_potrs;
    void *d_work2[1] = {workspace(lwork2)};
    info = -1;
    status("cusolverMgPotrf", cusolverMgPotrf(handle, CUBLAS_FILL_MODE_LOWER, N, d_s, 1, 1, desc_a, CUDA_R_64F,
                                              d_work2, lwork2, &info));
    cuda("cudaDeviceSynchronize", cudaDeviceSynchronize());
    std::printf("cusolverMgPotrf: info %d\n", info);
    info = -1;
    status("cusolverMgPotrs", cusolverMgPotrs(handle, CUBLAS_FILL_MODE_LOWER, N, 1, d_s, 1, 1, desc_a, d_c, 1,
                                              1, desc_b, CUDA_R_64F, d_work2, lwork2, &info));
    cuda("cudaDeviceSynchronize", cudaDeviceSynchronize());
    std::printf("cusolverMgPotrs: info %d\n", info);
    print_solution("cholesky", d_c[0]);

    status("cusolverMgDestroyMatrixDesc A", cusolverMgDestroyMatrixDesc(desc_a));
    status("cusolverMgDestroyMatrixDesc B", cusolverMgDestroyMatrixDesc(desc_b));
    status("cusolverMgDestroyGrid", cusolverMgDestroyGrid(grid));
    status("cusolverMgDestroy", cusolverMgDestroy(handle));
    for (void *p : {d_a[0], d_b[0], static_cast<void *>(d_ipiv[0]), d_work[0], d_s[0], d_c[0], d_work2[0]})
        cudaFree(p);
#ifdef CUSHIM_STUBS
    std::fprintf(stderr, "stubs: found %s\n",
                 cushim_cusolverMg_library_path() ? cushim_cusolverMg_library_path() : "(none)");
#endif
    std::printf("failures: %d\n", failures);
    return failures == 0 ? 0 : 1;
}
