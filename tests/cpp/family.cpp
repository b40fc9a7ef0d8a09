// The family test's C++ program: NVRTC, nvJitLink and NVML through cushim's
// stubs only (linked without -lnvrtc, -lnvJitLink or -lnvidia-ml), each
// scenario in a fresh process, as tests/family.rs runs it. The headers are
// the real pinned ones, so the compiler checks every stub's prototype.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cufftXt.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <cudnn.h>
#include <cufile.h>
#include <cupti.h>
// The stubs define NVTX's functions: the header declares them only so.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <cutensor.h>
#include <nccl.h>
#include <nvJitLink.h>
#include <nvml.h>
#include <nvrtc.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <dlfcn.h>

#include "cublasLt_shim.h"
#include "cublas_shim.h"
#include "cudart_shim.h"
#include "cufft_shim.h"
#include "curand_shim.h"
#include "cusolver_shim.h"
#include "cusparse_shim.h"
#include "cudnn_shim.h"
#include "cufile_shim.h"
#include "cupti_shim.h"
#include "nvtx_shim.h"
#include "cutensor_shim.h"
#include "nccl_shim.h"
#include "nvjitlink_shim.h"
#include "nvml_shim.h"
#include "nvrtc_shim.h"

#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
            std::exit(1);                                             \
        }                                                             \
    } while (0)

// Where one library's stubs found it, or why they found none (after asking
// for one of its functions).
#define WHICH(STEM, UPPER, FUNCTION)                                                                    \
    do {                                                                                                \
        if (cushim_##STEM##_load() == CUSHIM_##UPPER##_OK)                                              \
            std::printf("path=%s version=%u\n", cushim_##STEM##_library_path(),                       \
                        cushim_##STEM##_library_version());                                             \
        else                                                                                            \
            std::printf("error=%s\n", (cushim_##STEM##_function_status(FUNCTION), cushim_##STEM##_last_message())); \
    } while (0)

// Where each library's stubs found it, or why they found none.
static void which(const char *lib) {
    if (std::strcmp(lib, "cudart") == 0) {
        WHICH(cudart, CUDART, "cudaMalloc");
    } else if (std::strcmp(lib, "cufft") == 0) {
        WHICH(cufft, CUFFT, "cufftPlan1d");
    } else if (std::strcmp(lib, "curand") == 0) {
        WHICH(curand, CURAND, "curandCreateGenerator");
    } else if (std::strcmp(lib, "cusparse") == 0) {
        WHICH(cusparse, CUSPARSE, "cusparseCreate");
    } else if (std::strcmp(lib, "cusolver") == 0) {
        WHICH(cusolver, CUSOLVER, "cusolverDnCreate");
    } else if (std::strcmp(lib, "cudnn") == 0) {
        WHICH(cudnn, CUDNN, "cudnnCreate");
    } else if (std::strcmp(lib, "nccl") == 0) {
        WHICH(nccl, NCCL, "ncclGetVersion");
    } else if (std::strcmp(lib, "cutensor") == 0) {
        WHICH(cutensor, CUTENSOR, "cutensorCreate");
    } else if (std::strcmp(lib, "cupti") == 0) {
        WHICH(cupti, CUPTI, "cuptiGetTimestamp");
    } else if (std::strcmp(lib, "nvtx") == 0) {
        WHICH(nvtx, NVTX, "nvtxRangePushA");
    } else if (std::strcmp(lib, "cufile") == 0) {
        WHICH(cufile, CUFILE, "cuFileDriverOpen");
    } else if (std::strcmp(lib, "nvrtc") == 0) {
        if (cushim_nvrtc_load() == CUSHIM_NVRTC_OK)
            std::printf("path=%s version=%u\n", cushim_nvrtc_library_path(), cushim_nvrtc_library_version());
        else
            std::printf("error=%s\n", (cushim_nvrtc_function_status("nvrtcVersion"), cushim_nvrtc_last_message()));
    } else if (std::strcmp(lib, "nvjitlink") == 0) {
        if (cushim_nvjitlink_load() == CUSHIM_NVJITLINK_OK)
            std::printf("path=%s version=%u\n", cushim_nvjitlink_library_path(), cushim_nvjitlink_library_version());
        else
            std::printf("error=%s\n",
                        (cushim_nvjitlink_function_status("nvJitLinkVersion"), cushim_nvjitlink_last_message()));
    } else if (std::strcmp(lib, "cublas") == 0) {
        if (cushim_cublas_load() == CUSHIM_CUBLAS_OK)
            std::printf("path=%s version=%u\n", cushim_cublas_library_path(), cushim_cublas_library_version());
        else
            std::printf("error=%s\n", (cushim_cublas_function_status("cublasCreate_v2"), cushim_cublas_last_message()));
    } else if (std::strcmp(lib, "cublaslt") == 0) {
        if (cushim_cublasLt_load() == CUSHIM_CUBLASLT_OK)
            std::printf("path=%s version=%u\n", cushim_cublasLt_library_path(), cushim_cublasLt_library_version());
        else
            std::printf("error=%s\n", (cushim_cublasLt_function_status("cublasLtCreate"), cushim_cublasLt_last_message()));
    } else {
        CHECK(std::strcmp(lib, "nvml") == 0);
        if (cushim_nvml_load() == CUSHIM_NVML_OK)
            std::printf("path=%s version=%u\n", cushim_nvml_library_path(), cushim_nvml_library_version());
        else
            std::printf("error=%s\n", (cushim_nvml_function_status("nvmlInit_v2"), cushim_nvml_last_message()));
    }
}

// Every library present: each binds the export its header names.
static void bind() {
    // The header maps nvmlInit to nvmlInit_v2; the fake's v1 answers 999.
    CHECK(nvmlInit() == NVML_SUCCESS);
    // The status API knows the header's other names too.
    CHECK(cushim_nvml_function_status("nvmlInit") == CUSHIM_NVML_OK);
    unsigned count = 0;
    CHECK(nvmlDeviceGetCount(&count) == NVML_SUCCESS && count == 1);
    std::printf("nvml: nvmlInit ok, devices %u\n", count);

    nvrtcProgram prog = nullptr;
    CHECK(nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
    CHECK(nvrtcCompileProgram(prog, 0, nullptr) == NVRTC_SUCCESS);
    size_t size = 0;
    CHECK(nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS && size == 42);
    nvrtcResult missing = nvrtcGetTileIRSize(prog, &size);
    std::printf("nvrtc: nvrtcGetTileIRSize code %d status %d: %s\n", static_cast<int>(missing),
                static_cast<int>(cushim_nvrtc_last_status()), cushim_nvrtc_last_message());
    CHECK(cushim_nvrtc_last_status() == CUSHIM_NVRTC_SYMBOL_NOT_FOUND);
    CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
    std::printf("nvrtc: nvrtcGetErrorString(0) = %s\n", nvrtcGetErrorString(NVRTC_SUCCESS));

    nvJitLinkHandle handle = nullptr;
    CHECK(nvJitLinkCreate(&handle, 0, nullptr) == NVJITLINK_SUCCESS);
    CHECK(nvJitLinkComplete(handle) == NVJITLINK_SUCCESS);
    CHECK(nvJitLinkDestroy(&handle) == NVJITLINK_SUCCESS);
    std::printf("nvjitlink: nvJitLinkCreate ok\n");
}

// nvJitLink older than the header: OUTDATED_LIBRARY, and why.
static void old_nvjitlink() {
    nvJitLinkHandle handle = nullptr;
    nvJitLinkResult rc = nvJitLinkCreate(&handle, 0, nullptr);
    std::printf("nvjitlink: raw code %d: %s\n", static_cast<int>(rc), cushim_nvjitlink_last_message());
    CHECK(cushim_nvjitlink_last_status() == CUSHIM_NVJITLINK_TOO_OLD);
    unsigned major = 0, minor = 0;
    CHECK(nvJitLinkVersion(&major, &minor) == NVJITLINK_SUCCESS);
    std::printf("nvjitlink: version %u.%u\n", major, minor);
}

// No library at all: each library's own not-found code, and the strings.
static void absent() {
    std::printf("nvml: nvmlInit code %d\n", static_cast<int>(nvmlInit()));
    std::printf("nvml: %s\n", cushim_nvml_last_message());
    nvrtcProgram prog = nullptr;
    std::printf("nvrtc: nvrtcCreateProgram code %d\n",
                static_cast<int>(nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr)));
    std::printf("nvrtc: nvrtcGetErrorString(3) = %s\n", nvrtcGetErrorString(NVRTC_ERROR_INVALID_INPUT));
    std::printf("nvrtc: nvrtcGetErrorString(12345) = %s\n", nvrtcGetErrorString(static_cast<nvrtcResult>(12345)));
    std::printf("nvml: nvmlErrorString(12) = %s\n", nvmlErrorString(NVML_ERROR_LIBRARY_NOT_FOUND));
    nvJitLinkHandle handle = nullptr;
    std::printf("nvjitlink: nvJitLinkCreate code %d\n", static_cast<int>(nvJitLinkCreate(&handle, 0, nullptr)));
    std::printf("nvjitlink: %s\n", cushim_nvjitlink_last_message());
}

// cuBLAS binds cublasSgemm_v2 through the header's macro (the fake's legacy
// cublasSgemm aborts), with cuBLASLt loaded first from its directory.
static void cublas_sgemm() {
    cublasHandle_t handle = nullptr;
    CHECK(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
    const float a[] = {1, 2, 3, 4}, b[] = {1, 0, 0, 1};
    float c[4] = {};
    const float alpha = 1, beta = 0;
    CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, a, 2, b, 2, &beta, c, 2) ==
          CUBLAS_STATUS_SUCCESS);
    for (int i = 0; i < 4; ++i) CHECK(c[i] == a[i]);
    CHECK(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
    std::printf("cublas: cublasSgemm ok\n");
    which("cublas");
    cublasLtHandle_t lt = nullptr;
    CHECK(cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS);
    CHECK(cublasLtDestroy(lt) == CUBLAS_STATUS_SUCCESS);
    which("cublaslt");
}

// Without cuBLAS: CUBLAS_STATUS_NOT_INITIALIZED, and the names from the header.
static void cublas_absent() {
    cublasHandle_t handle = nullptr;
    std::printf("cublas: cublasCreate code %d\n", static_cast<int>(cublasCreate(&handle)));
    std::printf("cublas: cublasGetStatusName(7) = %s\n", cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE));
}

// NVRTC compiles (a fake built with FAKE_BUILTINS opens its builtins by bare
// name then, as the real one does), after the program loaded `path` itself if
// given: the status, the program log (the builtins' file, or the loader's
// error) and where NVRTC was found.
static void compile(const char *path) {
    if (path) CHECK(dlopen(path, RTLD_NOW | RTLD_LOCAL) != nullptr);
    nvrtcProgram prog = nullptr;
    CHECK(nvrtcCreateProgram(&prog, "k", "k.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
    nvrtcResult rc = nvrtcCompileProgram(prog, 0, nullptr);
    size_t size = 0;
    char log[4096] = {};
    CHECK(nvrtcGetProgramLogSize(prog, &size) == NVRTC_SUCCESS && size <= sizeof log);
    CHECK(nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS);
    std::printf("nvrtc: compile code %d log %s\n", static_cast<int>(rc), log);
    which("nvrtc");
    CHECK(nvrtcDestroyProgram(&prog) == NVRTC_SUCCESS);
}

// cudart, cuFFT, cuRAND, cuSPARSE and cuSOLVER found by path, each after
// the libraries it needs from its directory: each works, and the function
// each fake lacks (as the real library lacks it) fails alone.
static void more() {
    void *device = nullptr;
    CHECK(cudaMalloc(&device, 8) == cudaSuccess);
    CHECK(cudaMemset(device, 7, 8) == cudaSuccess);
    unsigned char host[8] = {};
    CHECK(cudaMemcpy(host, device, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(cudaFree(device) == cudaSuccess);
    static cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
    std::printf("cudart: memory [");
    for (int i = 0; i < 8; ++i) std::printf(i ? ", %u" : "%u", host[i]);
    std::printf("], device %s\n", prop.name);
    // The fake lacks cudaDeviceReset: it alone fails, with
    // cudaErrorSharedObjectSymbolNotFound.
    std::printf("cudart: cudaDeviceReset code %d\n", static_cast<int>(cudaDeviceReset()));
    CHECK(cushim_cudart_last_status() == CUSHIM_CUDART_SYMBOL_NOT_FOUND);
    CHECK(cudaFree(nullptr) == cudaSuccess);

    cufftHandle plan = 0;
    CHECK(cufftPlan1d(&plan, 4, CUFFT_C2C, 1) == CUFFT_SUCCESS);
    cufftComplex input[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}};
    cufftComplex output[4] = {};
    CHECK(cufftExecC2C(plan, input, output, CUFFT_FORWARD) == CUFFT_SUCCESS);
    std::printf("cufft: forward");
    // Rounded, and +0.0 turns a rounding's -0 into 0.
    for (const cufftComplex &c : output) std::printf(" %.0f%+.0fi", std::round(c.x) + 0.0, std::round(c.y) + 0.0);
    std::printf("\n");
    cufftResult missing = cufftXtSetJITCallback(plan, "f", nullptr, 0, static_cast<cufftXtCallbackType>(0), nullptr);
    std::printf("cufft: cufftXtSetJITCallback code %d\n", static_cast<int>(missing));
    CHECK(cushim_cufft_last_status() == CUSHIM_CUFFT_SYMBOL_NOT_FOUND);
    CHECK(cufftDestroy(plan) == CUFFT_SUCCESS);

    curandGenerator_t generator = nullptr;
    CHECK(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS);
    CHECK(curandSetPseudoRandomGeneratorSeed(generator, 1234) == CURAND_STATUS_SUCCESS);
    float numbers[3] = {};
    CHECK(curandGenerateUniform(generator, numbers, 3) == CURAND_STATUS_SUCCESS);
    std::printf("curand: uniform [%.6f, %.6f, %.6f]\n", numbers[0], numbers[1], numbers[2]);
    unsigned counts[2] = {};
    curandStatus_t binomial = curandGenerateBinomial(generator, counts, 2, 10, 0.5);
    std::printf("curand: curandGenerateBinomial code %d\n", static_cast<int>(binomial));
    CHECK(cushim_curand_last_status() == CUSHIM_CURAND_SYMBOL_NOT_FOUND);
    CHECK(curandDestroyGenerator(generator) == CURAND_STATUS_SUCCESS);

    cusparseHandle_t sparse = nullptr;
    CHECK(cusparseCreate(&sparse) == CUSPARSE_STATUS_SUCCESS);
    // Declared deprecated, and not exported by the real library either.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    cusparseStatus_t gebsr = cusparseXgebsr2csr(sparse, CUSPARSE_DIRECTION_ROW, 0, 0, nullptr, nullptr, nullptr, 1, 1,
                                                nullptr, nullptr, nullptr);
#pragma GCC diagnostic pop
    std::printf("cusparse: cusparseXgebsr2csr code %d\n", static_cast<int>(gebsr));
    CHECK(cusparseDestroy(sparse) == CUSPARSE_STATUS_SUCCESS);

    cusolverDnHandle_t dense = nullptr;
    CHECK(cusolverDnCreate(&dense) == CUSOLVER_STATUS_SUCCESS);
    std::printf("cusolver: cusolverDnLoggerSetLevel code %d\n", static_cast<int>(cusolverDnLoggerSetLevel(1)));
    CHECK(cusolverDnDestroy(dense) == CUSOLVER_STATUS_SUCCESS);
    for (const char *lib : {"cudart", "cufft", "curand", "cusparse", "cusolver"}) which(lib);
}

// cudaMemcpyAsync through the stubs: the fake says whether its plain export
// or its per-thread twin ran (the stream mode comes from the environment).
static void cudart_stream() {
    unsigned char src[4] = {1, 1, 1, 1}, dst[4] = {};
    CHECK(cudaMemcpyAsync(dst, src, 4, cudaMemcpyHostToHost, nullptr) == cudaSuccess);
    void *library = dlopen(cushim_cudart_library_path(), RTLD_NOW | RTLD_NOLOAD);
    CHECK(library != nullptr);
    auto last = reinterpret_cast<const char *(*)()>(dlsym(library, "fake_last_copy"));
    CHECK(last != nullptr);
    std::printf("cudart: ran %s\n", last());
}

// Without the five: each answers its own code, and names the file it looked for.
static void more_absent() {
    void *device = nullptr;
    std::printf("cudart: cudaMalloc code %d\n", static_cast<int>(cudaMalloc(&device, 8)));
    cufftHandle plan = 0;
    std::printf("cufft: cufftPlan1d code %d\n", static_cast<int>(cufftPlan1d(&plan, 4, CUFFT_C2C, 1)));
    std::printf("cufft: %s\n", cushim_cufft_last_message());
    curandGenerator_t generator = nullptr;
    std::printf("curand: curandCreateGenerator code %d\n",
                static_cast<int>(curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_PHILOX4_32_10)));
    cusparseHandle_t sparse = nullptr;
    std::printf("cusparse: cusparseCreate code %d\n", static_cast<int>(cusparseCreate(&sparse)));
    cusolverDnHandle_t dense = nullptr;
    std::printf("cusolver: cusolverDnCreate code %d\n", static_cast<int>(cusolverDnCreate(&dense)));
}

// The Rust program's `nvtx_ranges`.
static void nvtx_ranges() {
    int outer = nvtxRangePushA("outer");
    int inner = nvtxRangePushA("inner");
    nvtxMarkA("mark");
    int popped = nvtxRangePop();
    nvtxDomainHandle_t domain = nvtxDomainCreateA("d");
    std::printf("nvtx: push %d %d pop %d domain null %s\n", outer, inner, popped, domain ? "false" : "true");
}

// cuDNN, NCCL and cuTENSOR found by path (the Rust program's `dnn`).
static void dnn() {
    std::printf("cudnn: version %zu\n", cudnnGetVersion());
    cudnnHandle_t handle = nullptr;
    CHECK(cudnnCreate(&handle) == CUDNN_STATUS_SUCCESS);
    void *front = dlopen(cushim_cudnn_library_path(), RTLD_NOW | RTLD_NOLOAD);
    CHECK(front != nullptr);
    auto ops = reinterpret_cast<const char *(*)()>(dlsym(front, "fake_cudnn_ops_file"));
    CHECK(ops != nullptr);
    std::printf("cudnn: ops from %s\n", ops());
    std::printf("cudnn: cudnnBackendCreateDescriptor code %d\n",
                static_cast<int>(cudnnBackendCreateDescriptor(static_cast<cudnnBackendDescriptorType_t>(0), nullptr)));
    CHECK(cushim_cudnn_last_status() == CUSHIM_CUDNN_SYMBOL_NOT_FOUND);
    CHECK(cudnnDestroy(handle) == CUDNN_STATUS_SUCCESS);

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

    std::printf("cutensor: version %zu\n", cutensorGetVersion());
    cutensorHandle_t tensor = nullptr;
    CHECK(cutensorCreate(&tensor) == CUTENSOR_STATUS_SUCCESS);
    std::printf("cutensor: cutensorLoggerSetLevel code %d\n", static_cast<int>(cutensorLoggerSetLevel(1)));
    // The compute descriptor is an object the library exports: the pair
    // defines it, and the runtime copied the library's value when it loaded.
    cutensorOperationDescriptor_t operation = nullptr;
    cutensorStatus_t contraction = cutensorCreateContraction(
        tensor, &operation, nullptr, nullptr, CUTENSOR_OP_IDENTITY, nullptr, nullptr, CUTENSOR_OP_IDENTITY, nullptr,
        nullptr, CUTENSOR_OP_IDENTITY, nullptr, nullptr, CUTENSOR_COMPUTE_DESC_32F);
    std::printf("cutensor: contraction with the library's 32F descriptor code %d\n", static_cast<int>(contraction));
    CHECK(cutensorDestroy(tensor) == CUTENSOR_STATUS_SUCCESS);

    uint64_t stamp = 0;
    CHECK(cuptiGetTimestamp(&stamp) == CUPTI_SUCCESS);
    std::printf("cupti: timestamp %llu\n", static_cast<unsigned long long>(stamp));
    std::printf("cupti: cuptiActivityFlushAll code %d\n", static_cast<int>(cuptiActivityFlushAll(0)));
    nvtx_ranges();

    // cuFile: a status struct; the header's cuFileDriverClose is
    // cuFileDriverClose_v2; libcufile_rdma.so.1 from beside it.
    CHECK(cuFileGetVersion(&version).err == CU_FILE_SUCCESS);
    std::printf("cufile: version %d\n", version);
    CHECK(cuFileDriverOpen().err == CU_FILE_SUCCESS);
    void *file = dlopen(cushim_cufile_library_path(), RTLD_NOW | RTLD_NOLOAD);
    CHECK(file != nullptr);
    auto rdma = reinterpret_cast<const char *(*)()>(dlsym(file, "fake_rdma_file"));
    CHECK(rdma != nullptr);
    std::printf("cufile: rdma from %s\n", rdma());
    CHECK(cuFileDriverClose().err == CU_FILE_SUCCESS);
    unsigned char bytes[4] = {};
    ssize_t read = cuFileRead(nullptr, bytes, 4, 0, 0);
    std::printf("cufile: read %zd [%d, %d, %d, %d]\n", read, bytes[0], bytes[1], bytes[2], bytes[3]);
    CUfileError_t registered = cuFileBufRegister(bytes, 4, 0);
    std::printf("cufile: cuFileBufRegister code %d cu_err %d\n", static_cast<int>(registered.err),
                static_cast<int>(registered.cu_err));
    which("cudnn");
    which("nccl");
    which("cutensor");
    which("cupti");
    which("nvtx");
    which("cufile");
}

// Without them: each answers its own code, and says why.
static void dnn_absent() {
    cudnnHandle_t handle = nullptr;
    std::printf("cudnn: cudnnCreate code %d\n", static_cast<int>(cudnnCreate(&handle)));
    std::printf("cudnn: cudnnGetVersion %zu\n", cudnnGetVersion());
    int version = 0;
    std::printf("nccl: ncclGetVersion code %d\n", static_cast<int>(ncclGetVersion(&version)));
    cutensorHandle_t tensor = nullptr;
    std::printf("cutensor: cutensorCreate code %d\n", static_cast<int>(cutensorCreate(&tensor)));
    std::printf("cutensor: CUTENSOR_COMPUTE_DESC_32F %s\n", CUTENSOR_COMPUTE_DESC_32F ? "set" : "None");
    uint64_t stamp = 0;
    std::printf("cupti: cuptiGetTimestamp code %d\n", static_cast<int>(cuptiGetTimestamp(&stamp)));
    nvtx_ranges();
    CUfileError_t opened = cuFileDriverOpen();
    std::printf("cufile: cuFileDriverOpen code %d cu_err %d\n", static_cast<int>(opened.err),
                static_cast<int>(opened.cu_err));
    std::printf("cufile: cuFileRead %zd\n", cuFileRead(nullptr, nullptr, 4, 0, 0));
    which("cudnn");
    which("nccl");
    which("cutensor");
    which("cupti");
    which("nvtx");
    which("cufile");
}

int main(int argc, char **argv) {
    CHECK(argc >= 2);
    const char *scenario = argv[1];
    if (std::strcmp(scenario, "which") == 0 && argc == 3)
        which(argv[2]);
    else if (std::strcmp(scenario, "bind") == 0)
        bind();
    else if (std::strcmp(scenario, "old-nvjitlink") == 0)
        old_nvjitlink();
    else if (std::strcmp(scenario, "absent") == 0)
        absent();
    else if (std::strcmp(scenario, "cublas") == 0)
        cublas_sgemm();
    else if (std::strcmp(scenario, "cublas-absent") == 0)
        cublas_absent();
    else if (std::strcmp(scenario, "more") == 0)
        more();
    else if (std::strcmp(scenario, "more-absent") == 0)
        more_absent();
    else if (std::strcmp(scenario, "cudart-stream") == 0)
        cudart_stream();
    else if (std::strcmp(scenario, "dnn") == 0)
        dnn();
    else if (std::strcmp(scenario, "dnn-absent") == 0)
        dnn_absent();
    else if (std::strcmp(scenario, "compile") == 0 && argc <= 3)
        compile(argc == 3 ? argv[2] : nullptr);
    else if (std::strcmp(scenario, "preloaded") == 0 && argc == 3) {
        CHECK(dlopen(argv[2], RTLD_NOW | RTLD_LOCAL) != nullptr);
        which("nvrtc");
    } else {
        std::fprintf(stderr, "unknown scenario %s\n", scenario);
        return 2;
    }
    std::printf("ok: %s\n", scenario);
    return 0;
}
