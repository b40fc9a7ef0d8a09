// cuDNN and NCCL on the GPU, through cushim's stubs (the default) or linked
// directly (-DDNN_DIRECT with -lcudart -lcudnn -lnccl): cuDNN runs a
// convolution forward (NCHW float, implicit GEMM, which is deterministic),
// NCCL an all-reduce, a broadcast and an all-gather on one GPU
// (ncclCommInitAll with one device). Each result is printed as the FNV-1a
// hash of its bytes, so that the builds can be compared bit for bit.
// `dnn time` prints per-library (cuDNN, NCCL, cuFile) first-call and steady-call costs instead,
// `dnn first LIB` makes one call of one library, `dnn nvtx` prints what NVTX
// range calls answer, and `dnn trace` records
// the kernels of the convolution with CUPTI's activity API and prints how
// many there were and the hash of their sorted names. `dnn file` asks
// cuFile its version and opens its driver, and where that opens reads 1 MiB
// of a file into device memory (GPUDirect Storage, or cuFile's
// compatibility mode on a machine without nvidia-fs) and prints its hash.
// `dnn tensor` runs a cuTENSOR contraction (C[m,n] = A[m,k] B[k,n], float,
// with the library's CUTENSOR_COMPUTE_DESC_32F, an object it exports) and
// prints its hash; a build linked directly without cuTENSOR defines
// NO_CUTENSOR and has no such mode.
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <cufile.h>
#ifndef NO_CUTENSOR
#include <cutensor.h>
#endif
#include <cupti.h>
#include <nccl.h>
// The stubs, and the program linked with libnvtx3interop, call NVTX's
// library: its header declares the functions only so.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <string>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

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

// Deterministic inputs: a small integer pattern, scaled.
static std::vector<float> pattern(size_t n, unsigned seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 7919u + seed) % 17u) - 8) / 8.0f;
    return v;
}

static float *upload(const std::vector<float> &host) {
    void *p = nullptr;
    CHECK(cudaMalloc(&p, host.size() * sizeof(float)));
    CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
    return static_cast<float *>(p);
}

static void convolution() {
    const int n = 2, c = 3, h = 64, w = 64, k = 16, r = 3, s = 3;
    cudnnHandle_t handle;
    CHECK(cudnnCreate(&handle));
    cudnnTensorDescriptor_t x_desc, y_desc;
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv;
    CHECK(cudnnCreateTensorDescriptor(&x_desc));
    CHECK(cudnnCreateTensorDescriptor(&y_desc));
    CHECK(cudnnCreateFilterDescriptor(&w_desc));
    CHECK(cudnnCreateConvolutionDescriptor(&conv));
    CHECK(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
    CHECK(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, c, r, s));
    CHECK(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CHECK(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH));
    int on, oc, oh, ow;
    CHECK(cudnnGetConvolution2dForwardOutputDim(conv, x_desc, w_desc, &on, &oc, &oh, &ow));
    CHECK(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, on, oc, oh, ow));
    const cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    size_t workspace = 0;
    CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w_desc, conv, y_desc, algo, &workspace));
    float *x = upload(pattern(static_cast<size_t>(n) * c * h * w, 1));
    float *filter = upload(pattern(static_cast<size_t>(k) * c * r * s, 2));
    const size_t out = static_cast<size_t>(on) * oc * oh * ow;
    float *y = upload(std::vector<float>(out, 0.0f));
    void *ws = nullptr;
    if (workspace) CHECK(cudaMalloc(&ws, workspace));
    const float alpha = 1.0f, beta = 0.0f;
    CHECK(cudnnConvolutionForward(handle, &alpha, x_desc, x, w_desc, filter, conv, algo, ws, workspace, &beta, y_desc, y));
    CHECK(cudaDeviceSynchronize());
    std::printf("cudnn conv forward %dx%dx%dx%d * %dx%dx%dx%d -> %dx%dx%dx%d %016llx\n", n, c, h, w, k, c, r, s, on, oc,
                oh, ow, static_cast<unsigned long long>(device_hash(y, out)));
    CHECK(cudaFree(x));
    CHECK(cudaFree(filter));
    CHECK(cudaFree(y));
    if (ws) CHECK(cudaFree(ws));
    CHECK(cudnnDestroyConvolutionDescriptor(conv));
    CHECK(cudnnDestroyFilterDescriptor(w_desc));
    CHECK(cudnnDestroyTensorDescriptor(y_desc));
    CHECK(cudnnDestroyTensorDescriptor(x_desc));
    CHECK(cudnnDestroy(handle));
}

static void collectives() {
    const size_t count = 1 << 20;
    ncclComm_t comm;
    int devices[1] = {0};
    CHECK(ncclCommInitAll(&comm, 1, devices));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    float *send = upload(pattern(count, 3));
    float *recv = upload(std::vector<float>(count, 0.0f));
    CHECK(ncclAllReduce(send, recv, count, ncclFloat32, ncclSum, comm, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("nccl all-reduce n=%zu %016llx\n", count, static_cast<unsigned long long>(device_hash(recv, count)));
    float *bcast = upload(std::vector<float>(count, 0.0f));
    CHECK(ncclBroadcast(send, bcast, count, ncclFloat32, 0, comm, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("nccl broadcast n=%zu %016llx\n", count, static_cast<unsigned long long>(device_hash(bcast, count)));
    float *gathered = upload(std::vector<float>(count, 0.0f));
    CHECK(ncclAllGather(send, gathered, count, ncclFloat32, comm, stream));
    CHECK(cudaStreamSynchronize(stream));
    std::printf("nccl all-gather n=%zu %016llx\n", count, static_cast<unsigned long long>(device_hash(gathered, count)));
    int version = 0;
    CHECK(ncclGetVersion(&version));
    int ranks = 0;
    CHECK(ncclCommCount(comm, &ranks));
    std::printf("nccl ranks %d\n", ranks);
    CHECK(cudaFree(send));
    CHECK(cudaFree(recv));
    CHECK(cudaFree(bcast));
    CHECK(cudaFree(gathered));
    CHECK(cudaStreamDestroy(stream));
    CHECK(ncclCommDestroy(comm));
}

// CUPTI's activity buffers: the kernel records' names, as CUPTI completes them.
static std::vector<std::string> kernels;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *size = 8u << 20;
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, *size));
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t valid) {
    CUpti_Activity *record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
        if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            kernels.push_back(reinterpret_cast<CUpti_ActivityKernel10 *>(record)->name);
    std::free(buffer);
}

static void trace() {
    CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
    CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    convolution();
    CHECK(cuptiActivityFlushAll(1));
    std::sort(kernels.begin(), kernels.end());
    std::string names;
    for (const std::string &k : kernels) names += k + "\n";
    std::printf("cupti kernels %zu names %016llx\n", kernels.size(),
                static_cast<unsigned long long>(fnv1a(names.data(), names.size())));
}

template <typename F>
static void cost(const char *lib, F call) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    auto t1 = std::chrono::steady_clock::now();
    const int reps = 1000000;
    for (int i = 0; i < reps; ++i) call();
    auto t2 = std::chrono::steady_clock::now();
    std::printf("time %s first_us %.1f steady_ns %.2f\n", lib, std::chrono::duration<double, std::micro>(t1 - t0).count(),
                std::chrono::duration<double, std::nano>(t2 - t1).count() / reps);
}

// cuFile: every answer printed, so that the builds compare whole.
static void file() {
    int version = 0;
    CUfileError_t asked = cuFileGetVersion(&version);
    std::printf("cufile version %d err %d\n", version, static_cast<int>(asked.err));
    CUfileError_t opened = cuFileDriverOpen();
    std::printf("cufile cuFileDriverOpen err %d cu_err %d\n", static_cast<int>(opened.err),
                static_cast<int>(opened.cu_err));
    if (opened.err != CU_FILE_SUCCESS) return;
    const size_t size = 1 << 20;
    std::vector<unsigned char> bytes(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<unsigned char>((i * 131 + 7) & 255);
    char path[] = "/tmp/cushim-cufile-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, bytes.data(), size) != static_cast<ssize_t>(size)) std::exit(1);
    close(fd);
    // O_DIRECT where the file system takes it (GPUDirect Storage needs it).
    fd = open(path, O_RDONLY | O_DIRECT);
    if (fd < 0) fd = open(path, O_RDONLY);
    CUfileDescr_t descr = {};
    descr.handle.fd = fd;
    descr.type = CU_FILE_HANDLE_TYPE_OPAQUE_FD;
    CUfileHandle_t handle = nullptr;
    CUfileError_t registered = cuFileHandleRegister(&handle, &descr);
    std::printf("cufile cuFileHandleRegister err %d\n", static_cast<int>(registered.err));
    if (registered.err == CU_FILE_SUCCESS) {
        void *device = nullptr;
        CHECK(cudaMalloc(&device, size));
        CHECK(cudaMemset(device, 0, size));
        ssize_t read = cuFileRead(handle, device, size, 0, 0);
        std::printf("cufile read %zd hash %016llx\n", read,
                    static_cast<unsigned long long>(device_hash(static_cast<unsigned char *>(device), size)));
        cuFileHandleDeregister(handle);
        CHECK(cudaFree(device));
    }
    close(fd);
    unlink(path);
    CUfileError_t closed = cuFileDriverClose();
    std::printf("cufile cuFileDriverClose err %d\n", static_cast<int>(closed.err));
}

#ifndef NO_CUTENSOR
// cuTENSOR: C[m,n] = A[m,k] B[k,n] as a contraction.
static void tensor() {
    cutensorHandle_t handle = nullptr;
    CHECK(cutensorCreate(&handle));
    const int64_t m = 256, n = 128, k = 64;
    const int32_t mode_a[] = {'m', 'k'}, mode_b[] = {'k', 'n'}, mode_c[] = {'m', 'n'};
    const int64_t extent_a[] = {m, k}, extent_b[] = {k, n}, extent_c[] = {m, n};
    cutensorTensorDescriptor_t da = nullptr, db = nullptr, dc = nullptr;
    CHECK(cutensorCreateTensorDescriptor(handle, &da, 2, extent_a, nullptr, CUTENSOR_R_32F, 128));
    CHECK(cutensorCreateTensorDescriptor(handle, &db, 2, extent_b, nullptr, CUTENSOR_R_32F, 128));
    CHECK(cutensorCreateTensorDescriptor(handle, &dc, 2, extent_c, nullptr, CUTENSOR_R_32F, 128));
    cutensorOperationDescriptor_t op = nullptr;
    CHECK(cutensorCreateContraction(handle, &op, da, mode_a, CUTENSOR_OP_IDENTITY, db, mode_b, CUTENSOR_OP_IDENTITY, dc,
                                    mode_c, CUTENSOR_OP_IDENTITY, dc, mode_c, CUTENSOR_COMPUTE_DESC_32F));
    cutensorPlanPreference_t pref = nullptr;
    CHECK(cutensorCreatePlanPreference(handle, &pref, CUTENSOR_ALGO_DEFAULT, CUTENSOR_JIT_MODE_NONE));
    uint64_t workspace_size = 0;
    CHECK(cutensorEstimateWorkspaceSize(handle, op, pref, CUTENSOR_WORKSPACE_DEFAULT, &workspace_size));
    cutensorPlan_t plan = nullptr;
    CHECK(cutensorCreatePlan(handle, &plan, op, pref, workspace_size));
    std::vector<float> a = pattern(static_cast<size_t>(m * k), 3), b = pattern(static_cast<size_t>(k * n), 5);
    float *da_ = nullptr, *db_ = nullptr, *dc_ = nullptr;
    void *work = nullptr;
    CHECK(cudaMalloc(reinterpret_cast<void **>(&da_), a.size() * sizeof(float)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&db_), b.size() * sizeof(float)));
    CHECK(cudaMalloc(reinterpret_cast<void **>(&dc_), static_cast<size_t>(m * n) * sizeof(float)));
    if (workspace_size) CHECK(cudaMalloc(&work, workspace_size));
    CHECK(cudaMemcpy(da_, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db_, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dc_, 0, static_cast<size_t>(m * n) * sizeof(float)));
    float alpha = 1.0f, beta = 0.0f;
    CHECK(cutensorContract(handle, plan, &alpha, da_, db_, &beta, dc_, dc_, work, workspace_size, nullptr));
    CHECK(cudaDeviceSynchronize());
    std::printf("cutensor contraction %lldx%lld * %lldx%lld %016llx\n", static_cast<long long>(m),
                static_cast<long long>(k), static_cast<long long>(k), static_cast<long long>(n),
                static_cast<unsigned long long>(device_hash(dc_, static_cast<size_t>(m * n))));
    CHECK(cudaFree(da_));
    CHECK(cudaFree(db_));
    CHECK(cudaFree(dc_));
    if (work) CHECK(cudaFree(work));
    CHECK(cutensorDestroyPlan(plan));
    CHECK(cutensorDestroyPlanPreference(pref));
    CHECK(cutensorDestroyOperationDescriptor(op));
    CHECK(cutensorDestroyTensorDescriptor(da));
    CHECK(cutensorDestroyTensorDescriptor(db));
    CHECK(cutensorDestroyTensorDescriptor(dc));
    CHECK(cutensorDestroy(handle));
}
#endif

int main(int argc, char **argv) {
#ifndef NO_CUTENSOR
    if (argc == 2 && std::strcmp(argv[1], "tensor") == 0) {
        tensor();
        return 0;
    }
#endif
    if (argc == 2 && std::strcmp(argv[1], "file") == 0) {
        file();
        return 0;
    }
    if (argc == 2 && std::strcmp(argv[1], "time") == 0) {
        int value = 0;
        volatile size_t sink = 0;
        cost("cudnn", [&] { sink = sink + cudnnGetVersion(); });
        cost("nccl", [&] { CHECK(ncclGetVersion(&value)); });
        cost("cufile", [&] { CHECK(cuFileGetVersion(&value).err); });
        uint64_t stamp = 0;
        cost("cupti", [&] { CHECK(cuptiGetTimestamp(&stamp)); });
        // A push and a pop: two calls, so the figure is of a pair.
        cost("nvtx", [&] { sink = sink + static_cast<size_t>(nvtxRangePushA("r") + nvtxRangePop()); });
#ifndef NO_CUTENSOR
        cost("cutensor", [&] { sink = sink + cutensorGetVersion(); });
#endif
        return 0;
    }
    if (argc == 2 && std::strcmp(argv[1], "nvtx") == 0) {
        int outer = nvtxRangePushA("outer");
        int inner = nvtxRangePushA("inner");
        nvtxMarkA("mark");
        int first = nvtxRangePop();
        int second = nvtxRangePop();
        std::printf("nvtx push %d %d pop %d %d\n", outer, inner, first, second);
        return 0;
    }
    if (argc == 2 && std::strcmp(argv[1], "trace") == 0) {
        trace();
        return 0;
    }
    if (argc == 3 && std::strcmp(argv[1], "first") == 0) {
        const char *lib = argv[2];
        int value = 0;
        if (!std::strcmp(lib, "cudnn")) value = static_cast<int>(cudnnGetVersion());
        if (!std::strcmp(lib, "nccl")) CHECK(ncclGetVersion(&value));
        if (!std::strcmp(lib, "cufile")) CHECK(cuFileGetVersion(&value).err);
        if (!std::strcmp(lib, "cupti")) {
            uint64_t stamp = 0;
            CHECK(cuptiGetTimestamp(&stamp));
            value = stamp != 0;
        }
        if (!std::strcmp(lib, "nvtx")) value = nvtxRangePushA("r") + nvtxRangePop();
#ifndef NO_CUTENSOR
        if (!std::strcmp(lib, "cutensor")) value = static_cast<int>(cutensorGetVersion());
#endif
        std::printf("%s %d\n", lib, value);
        return 0;
    }
    convolution();
    collectives();
    return 0;
}
