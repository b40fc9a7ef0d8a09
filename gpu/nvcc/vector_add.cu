// A kernel launch with a __constant__ variable (registered with
// __cudaRegisterVar, written with cudaMemcpyToSymbol).
#include "common.cuh"

__constant__ float scale;

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = scale * (a[i] + b[i]);
}

int main() {
    if (!first_call()) return 0;
    const int n = 1 << 20;
    float *a, *b, *c;
    float *ha = new float[n], *hb = new float[n], *hc = new float[n];
    for (int i = 0; i < n; ++i) { ha[i] = float(i % 97); hb[i] = float(i % 89) * 0.5f; }
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    CHECK(cudaMemcpy(a, ha, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, n * sizeof(float), cudaMemcpyHostToDevice));
    const float two = 2.0f;
    CHECK(cudaMemcpyToSymbol(scale, &two, sizeof two));
    vector_add<<<(n + 255) / 256, 256>>>(a, b, c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hc, c, n * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        sum += hc[i];
        if (hc[i] != 2.0f * (ha[i] + hb[i])) ++wrong;
    }
    std::printf("vector_add: n=%d sum=%.1f wrong=%d\n", n, sum, wrong);
    CHECK(cudaFree(a)); CHECK(cudaFree(b)); CHECK(cudaFree(c));
    delete[] ha; delete[] hb; delete[] hc;
    return wrong != 0;
}
