// The real-wheel program (tests/real_wheels.rs): runs the part of each
// library that CUSHIM_REAL_LIBRARIES lists (`CUSHIM_REAL(nvrtc)
// CUSHIM_REAL(nvjitlink) ...`), in that order, each whether the one before
// failed or not: one line a library.
#define CUSHIM_REAL(library) void real_##library();
CUSHIM_REAL_LIBRARIES
#undef CUSHIM_REAL

int main() {
#define CUSHIM_REAL(library) real_##library();
    CUSHIM_REAL_LIBRARIES
#undef CUSHIM_REAL
    return 0;
}
