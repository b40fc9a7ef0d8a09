/* A fake of NVRTC's builtins for cushim's tests, built as
 * libnvrtc-builtins.so.<major>.<minor> beside a fake NVRTC built with
 * FAKE_BUILTINS, which opens it by bare name when it compiles, as the real
 * NVRTC does. It exports one function, by which the fake NVRTC tells it
 * from another library of that name.
 */
int fake_builtins(void) { return 1; }
