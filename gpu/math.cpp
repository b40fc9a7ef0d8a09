// The math libraries on the GPU, through cushim's stubs (the default) or
// linked directly (-DMATH_DIRECT with -lcudart -lcufft -lcurand -lcusparse
// -lcusolver): cudart allocates, fills and copies; cuFFT runs a C2C forward
// and inverse; cuRAND draws a Philox uniform stream; cuSPARSE multiplies a
// CSR matrix by a vector; cuSOLVER factors with potrf and getrf. Each result
// is printed as the FNV-1a hash of its bytes, so that the two builds can be
// compared bit for bit. `math time` prints per-library first-call and
// steady-call costs instead.
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        long long rc_ = static_cast<long long>(call);                                \
        if (rc_ != 0) {                                                              \
            std::fprintf(stderr, "%s:%d: %s = %lld\n", __FILE__, __LINE__, #call, rc_); \
            std::exit(1);                                                            \
        }                                                                            \
    } while (0)

static uint64_t fnv1a(const void *data, size_t size) {
    const unsigned char *p = static_cast<const unsigned char *>(data);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

template <typename T>
static uint64_t device_hash(const T *device, size_t count) {
    std::vector<T> host(count);
    CHECK(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
    return fnv1a(host.data(), count * sizeof(T));
}

static void runtime() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int version = 0;
    CHECK(cudaRuntimeGetVersion(&version));
    unsigned char *device = nullptr;
    CHECK(cudaMalloc(reinterpret_cast<void **>(&device), 1 << 20));
    CHECK(cudaMemset(device, 0x5a, 1 << 20));
    std::vector<unsigned char> host(1 << 20);
    for (size_t i = 0; i < host.size(); i += 4096) host[i] = static_cast<unsigned char>(i >> 12);
    CHECK(cudaMemcpy(device + 4096, host.data() + 4096, 65536, cudaMemcpyHostToDevice));
    std::printf("cudart device %s sm_%d%d runtime %d memory %016llx\n", prop.name, prop.major, prop.minor, version,
                static_cast<unsigned long long>(device_hash(device, 1 << 20)));
    CHECK(cudaFree(device));
}

static void fft() {
    const int n = 1 << 14;
    std::vector<cufftComplex> host(n);
    for (int i = 0; i < n; ++i) host[i] = {static_cast<float>(i % 97) / 97.0f, static_cast<float>(i % 13) / 13.0f};
    cufftComplex *data = nullptr;
    CHECK(cudaMalloc(reinterpret_cast<void **>(&data), n * sizeof(cufftComplex)));
    CHECK(cudaMemcpy(data, host.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice));
    cufftHandle plan;
    CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, 1));
    CHECK(cufftExecC2C(plan, data, data, CUFFT_FORWARD));
    CHECK(cudaDeviceSynchronize());
    uint64_t forward = device_hash(data, n);
    CHECK(cufftExecC2C(plan, data, data, CUFFT_INVERSE));
    CHECK(cudaDeviceSynchronize());
    std::printf("cufft c2c n=%d forward %016llx inverse %016llx\n", n, static_cast<unsigned long long>(forward),
                static_cast<unsigned long long>(device_hash(data, n)));
    CHECK(cufftDestroy(plan));
    CHECK(cudaFree(data));
}

static void uniform() {
    const size_t n = 1 << 20;
    float *data = nullptr;
    CHECK(cudaMalloc(reinterpret_cast<void **>(&data), n * sizeof(float)));
    curandGenerator_t generator;
    CHECK(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CHECK(curandSetPseudoRandomGeneratorSeed(generator, 1234));
    CHECK(curandGenerateUniform(generator, data, n));
    CHECK(cudaDeviceSynchronize());
    std::printf("curand philox uniform n=%zu %016llx\n", n, static_cast<unsigned long long>(device_hash(data, n)));
    CHECK(curandDestroyGenerator(generator));
    CHECK(cudaFree(data));
}

static void sparse() {
    // A tridiagonal n x n matrix (2 on the diagonal, -1 beside it), times x.
    const int n = 1 << 16;
    std::vector<int> rows(n + 1), cols;
    std::vector<float> values, x(n);
    for (int i = 0; i < n; ++i) {
        rows[i] = static_cast<int>(cols.size());
        for (int j = i - 1; j <= i + 1; ++j)
            if (j >= 0 && j < n) {
                cols.push_back(j);
                values.push_back(j == i ? 2.0f : -1.0f);
            }
        x[i] = static_cast<float>((i * 7919) % 1000) / 1000.0f;
    }
    rows[n] = static_cast<int>(cols.size());
    int nnz = rows[n];
    int *d_rows, *d_cols;
    float *d_values, *d_x, *d_y;
    CHECK(cudaMalloc(reinterpret_cast<void **>(&d_rows), (n + 1) * sizeof(int)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&d_cols), nnz * sizeof(int)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&d_values), nnz * sizeof(float)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&d_x), n * sizeof(float)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&d_y), n * sizeof(float)));
    CHECK(cudaMemcpy(d_rows, rows.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_values, values.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_y, 0, n * sizeof(float)));
    cusparseHandle_t handle;
    CHECK(cusparseCreate(&handle));
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t vx, vy;
    CHECK(cusparseCreateCsr(&a, n, n, nnz, d_rows, d_cols, d_values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK(cusparseCreateDnVec(&vx, n, d_x, CUDA_R_32F));
    CHECK(cusparseCreateDnVec(&vy, n, d_y, CUDA_R_32F));
    float alpha = 1.0f, beta = 0.0f;
    size_t size = 0;
    CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, vx, &beta, vy, CUDA_R_32F,
                                  CUSPARSE_SPMV_CSR_ALG1, &size));
    void *buffer = nullptr;
    CHECK(cudaMalloc(&buffer, size ? size : 1));
    CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, vx, &beta, vy, CUDA_R_32F,
                       CUSPARSE_SPMV_CSR_ALG1, buffer));
    CHECK(cudaDeviceSynchronize());
    std::printf("cusparse csr spmv n=%d nnz=%d %016llx\n", n, nnz, static_cast<unsigned long long>(device_hash(d_y, n)));
    CHECK(cusparseDestroySpMat(a));
    CHECK(cusparseDestroyDnVec(vx));
    CHECK(cusparseDestroyDnVec(vy));
    CHECK(cusparseDestroy(handle));
    for (void *p : {static_cast<void *>(d_rows), static_cast<void *>(d_cols), static_cast<void *>(d_values),
                    static_cast<void *>(d_x), static_cast<void *>(d_y), buffer})
        CHECK(cudaFree(p));
}

static void solver() {
    const int n = 512;
    // SPD: A = B B^T + n I; general: B itself.
    std::vector<double> b(n * n), spd(n * n);
    for (int i = 0; i < n * n; ++i) b[i] = static_cast<double>((i * 2654435761u) % 1000) / 1000.0 - 0.5;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            double s = i == j ? n : 0;
            for (int k = 0; k < n; ++k) s += b[i + k * n] * b[j + k * n];
            spd[i + j * n] = s;
        }
    cusolverDnHandle_t handle;
    CHECK(cusolverDnCreate(&handle));
    double *d_a, *work;
    int *info, *pivots;
    CHECK(cudaMalloc(reinterpret_cast<void **>(&d_a), n * n * sizeof(double)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&info), sizeof(int)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&pivots), n * sizeof(int)));
    CHECK(cudaMemcpy(d_a, spd.data(), n * n * sizeof(double), cudaMemcpyHostToDevice));
    int lwork = 0;
    CHECK(cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, d_a, n, &lwork));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&work), lwork * sizeof(double)));
    CHECK(cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, d_a, n, work, lwork, info));
    CHECK(cudaDeviceSynchronize());
    int potrf_info = -1;
    CHECK(cudaMemcpy(&potrf_info, info, sizeof(int), cudaMemcpyDeviceToHost));
    uint64_t potrf = device_hash(d_a, n * n);
    CHECK(cudaFree(work));
    CHECK(cudaMemcpy(d_a, b.data(), n * n * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cusolverDnDgetrf_bufferSize(handle, n, n, d_a, n, &lwork));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&work), lwork * sizeof(double)));
    CHECK(cusolverDnDgetrf(handle, n, n, d_a, n, work, pivots, info));
    CHECK(cudaDeviceSynchronize());
    int getrf_info = -1;
    CHECK(cudaMemcpy(&getrf_info, info, sizeof(int), cudaMemcpyDeviceToHost));
    std::printf("cusolver n=%d potrf info %d %016llx getrf info %d %016llx pivots %016llx\n", n, potrf_info,
                static_cast<unsigned long long>(potrf), getrf_info,
                static_cast<unsigned long long>(device_hash(d_a, n * n)),
                static_cast<unsigned long long>(device_hash(pivots, n)));
    CHECK(cudaFree(work));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(info));
    CHECK(cudaFree(pivots));
    CHECK(cusolverDnDestroy(handle));
}

// One cheap call per library: the first in this process (the stubs load the
// library then), then the mean of a million more.
template <typename F>
static void cost(const char *lib, F call) {
    auto t0 = std::chrono::steady_clock::now();
    CHECK(call());
    auto t1 = std::chrono::steady_clock::now();
    const int reps = 1000000;
    for (int i = 0; i < reps; ++i) CHECK(call());
    auto t2 = std::chrono::steady_clock::now();
    std::printf("time %s first_us %.1f steady_ns %.2f\n", lib, std::chrono::duration<double, std::micro>(t1 - t0).count(),
                std::chrono::duration<double, std::nano>(t2 - t1).count() / reps);
}

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "time") == 0) {
        int value = 0;
        cost("cudart", [&] { return cudaRuntimeGetVersion(&value); });
        cost("cufft", [&] { return cufftGetVersion(&value); });
        cost("curand", [&] { return curandGetVersion(&value); });
        cost("cusparse", [&] { return cusparseGetProperty(MAJOR_VERSION, &value); });
        cost("cusolver", [&] { return cusolverGetProperty(MAJOR_VERSION, &value); });
        return 0;
    }
    if (argc == 3 && std::strcmp(argv[1], "first") == 0) {
        // The whole process does one call of one library.
        int value = 0;
        const char *lib = argv[2];
        if (!std::strcmp(lib, "cudart")) CHECK(cudaRuntimeGetVersion(&value));
        if (!std::strcmp(lib, "cufft")) CHECK(cufftGetVersion(&value));
        if (!std::strcmp(lib, "curand")) CHECK(curandGetVersion(&value));
        if (!std::strcmp(lib, "cusparse")) CHECK(cusparseGetProperty(MAJOR_VERSION, &value));
        if (!std::strcmp(lib, "cusolver")) CHECK(cusolverGetProperty(MAJOR_VERSION, &value));
        std::printf("%s %d\n", lib, value);
        return 0;
    }
    runtime();
    fft();
    uniform();
    sparse();
    solver();
    return 0;
}
