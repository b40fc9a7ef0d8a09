/* How the library behind registers.h folds its arguments into one number,
 * each argument with its own weight: an argument lost, moved or truncated on
 * the way changes the result. The library and the test program share it. */
#include <stdint.h>

static inline uint64_t fold_integers(const int64_t *values, int count) {
    uint64_t sum = 0;
    for (int i = 0; i < count; i++) sum = sum * 1000003u + (uint64_t)values[i];
    return sum;
}

static inline double fold_floats(const double *values, int count) {
    double sum = 0;
    for (int i = 0; i < count; i++) sum += values[i] * (i + 1);
    return sum;
}

/* A 32-byte struct, returned through the indirect-result register. */
struct big { long long v[4]; };
