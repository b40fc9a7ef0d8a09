/* A fake CUDA runtime for cushim's tests, built as libcudart.so.<major>: a
 * member of the CUDA family that a program loaded itself, whose directory
 * the search for its siblings (NVRTC, nvJitLink, ...) then looks in. */
int cudaRuntimeGetVersion(int *version) {
    if (!version) return 1;
    *version = 13050;
    return 0;
}
