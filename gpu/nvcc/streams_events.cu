// Launches on several streams with the full configuration (dynamic shared
// memory, a stream), ordered by events.
#include "common.cuh"

__global__ void square_sum(const int *in, long long *out, int n) {
    extern __shared__ long long part[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long v = i < n ? (long long)in[i] * in[i] : 0;
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd((unsigned long long *)out, (unsigned long long)part[0]);
}

int main() {
    if (!first_call()) return 0;
    const int streams = 4, n = 1 << 18, threads = 256;
    cudaStream_t s[streams];
    cudaEvent_t start[streams], done[streams];
    int *host;
    CHECK(cudaMallocHost(&host, streams * n * sizeof(int)));
    for (int i = 0; i < streams * n; ++i) host[i] = (i % n) % 1000;
    int *in;
    long long *out;
    CHECK(cudaMalloc(&in, streams * n * sizeof(int)));
    CHECK(cudaMalloc(&out, streams * sizeof(long long)));
    CHECK(cudaMemset(out, 0, streams * sizeof(long long)));
    for (int k = 0; k < streams; ++k) {
        CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        CHECK(cudaEventCreate(&start[k]));
        CHECK(cudaEventCreate(&done[k]));
        CHECK(cudaEventRecord(start[k], s[k]));
        CHECK(cudaMemcpyAsync(in + k * n, host + k * n, n * sizeof(int), cudaMemcpyHostToDevice, s[k]));
        square_sum<<<n / threads, threads, threads * sizeof(long long), s[k]>>>(in + k * n, out + k, n);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(done[k], s[k]));
    }
    // The last stream waits for the others' events before it copies back.
    for (int k = 0; k + 1 < streams; ++k) CHECK(cudaStreamWaitEvent(s[streams - 1], done[k], 0));
    long long sums[streams];
    CHECK(cudaMemcpyAsync(sums, out, sizeof sums, cudaMemcpyDeviceToHost, s[streams - 1]));
    CHECK(cudaStreamSynchronize(s[streams - 1]));
    long long expect = 0;
    for (int i = 0; i < n; ++i) expect += (long long)(i % 1000) * (i % 1000);
    int timed = 0;
    for (int k = 0; k < streams; ++k) {
        float ms = -1;
        CHECK(cudaEventElapsedTime(&ms, start[k], done[k]));
        timed += ms >= 0;
        std::printf("stream %d: sum=%lld %s\n", k, sums[k], sums[k] == expect ? "ok" : "WRONG");
    }
    std::printf("events timed: %d of %d\n", timed, streams);
    for (int k = 0; k < streams; ++k) {
        CHECK(cudaEventDestroy(start[k])); CHECK(cudaEventDestroy(done[k])); CHECK(cudaStreamDestroy(s[k]));
    }
    CHECK(cudaFree(in)); CHECK(cudaFree(out)); CHECK(cudaFreeHost(host));
    return 0;
}
