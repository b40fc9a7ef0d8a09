/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake cuFFT for cushim's tests, built as libcufft.so.<its major>: a plan
 * is a length, and cufftExecC2C is a plain DFT on host memory (the sign of
 * the exponent from the direction, no scaling, as cuFFT's). It lacks
 * cufftXtSetJITCallback, which the 13.x header declares, so that one
 * missing function fails alone. Plain C types only; no NVIDIA header.
 *
 * Knobs: FAKE_MAJOR, FAKE_MINOR (what cufftGetProperty and cufftGetVersion
 * report; default 12.0, CUDA 13's cuFFT).
 */
#include <math.h>
#include <stddef.h>

#ifndef FAKE_MAJOR
#define FAKE_MAJOR 12
#endif
#ifndef FAKE_MINOR
#define FAKE_MINOR 0
#endif

typedef struct {
    float x, y;
} complex_float;

enum { C2C = 0x29, INVALID_PLAN = 1, INVALID_TYPE = 3, INVALID_VALUE = 4, MAX_PLANS = 8 };

static int lengths[MAX_PLANS];

int cufftGetVersion(int *version) {
    if (!version) return INVALID_VALUE;
    *version = FAKE_MAJOR * 1000 + FAKE_MINOR * 100;
    return 0;
}

int cufftGetProperty(int type, int *value) {
    if (!value) return INVALID_VALUE;
    switch (type) {
        case 0: *value = FAKE_MAJOR; return 0;
        case 1: *value = FAKE_MINOR; return 0;
        case 2: *value = 0; return 0;
        default: return INVALID_VALUE;
    }
}

int cufftPlan1d(int *plan, int nx, int type, int batch) {
    if (!plan || nx <= 0 || batch != 1) return INVALID_VALUE;
    if (type != C2C) return INVALID_TYPE;
    for (int i = 0; i < MAX_PLANS; ++i)
        if (lengths[i] == 0) {
            lengths[i] = nx;
            *plan = i + 1;
            return 0;
        }
    return 2; /* CUFFT_ALLOC_FAILED */
}

int cufftExecC2C(int plan, complex_float *in, complex_float *out, int direction) {
    if (plan < 1 || plan > MAX_PLANS || lengths[plan - 1] == 0) return INVALID_PLAN;
    if (!in || !out || in == out || (direction != -1 && direction != 1)) return INVALID_VALUE;
    int n = lengths[plan - 1];
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n; ++k) {
        double re = 0, im = 0;
        for (int j = 0; j < n; ++j) {
            double angle = direction * 2 * pi * (double)j * k / n;
            re += in[j].x * cos(angle) - in[j].y * sin(angle);
            im += in[j].x * sin(angle) + in[j].y * cos(angle);
        }
        out[k].x = (float)re;
        out[k].y = (float)im;
    }
    return 0;
}

int cufftDestroy(int plan) {
    if (plan < 1 || plan > MAX_PLANS || lengths[plan - 1] == 0) return INVALID_PLAN;
    lengths[plan - 1] = 0;
    return 0;
}
