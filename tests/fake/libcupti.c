/* family-release: 13.0 (tests/family.rs: the release of its stubs) */
/* A fake CUPTI 13 for cushim's tests, built as libcupti.so.13. Like the
 * real CUPTI 13 on a machine without a driver, cuptiGetVersion answers
 * CUPTI_ERROR_UNKNOWN (999): that is no missing library. It lacks
 * cuptiActivityFlushAll, which the header declares. Plain C types only; no
 * NVIDIA header.
 *
 * Knobs: FAKE_API (when defined, cuptiGetVersion answers it with success).
 */
#include <stddef.h>
#include <stdint.h>

int cuptiGetVersion(uint32_t *version) {
#ifdef FAKE_API
    if (!version) return 1; /* CUPTI_ERROR_INVALID_PARAMETER */
    *version = FAKE_API;
    return 0;
#else
    (void)version;
    return 999;
#endif
}

int cuptiGetResultString(int result, const char **str) {
    if (!str) return 1;
    *str = result == 0 ? "CUPTI_SUCCESS" : "CUPTI_ERROR_FAKE";
    return 0;
}

int cuptiGetTimestamp(uint64_t *timestamp) {
    if (!timestamp) return 1;
    *timestamp = 1234567890123ull;
    return 0;
}
