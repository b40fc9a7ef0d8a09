// nvJitLink's part of the real-wheel program: links a saxpy kernel written
// in PTX into a cubin for sm_90 and prints `nvjitlink cubin <size> <hash>`.
#include <cstring>
#include <vector>

#include "nvJitLink.h"
#include "real_wheels.h"

// y[i] = a * x[i] + y[i] for i < n, one thread an element. The NUL after the
// literal matters: without it nvJitLinkAddData of 13.0 answers
// NVJITLINK_ERROR_INCORRECT_INPUT_TYPE, whatever the size it is given.
static const char *const ptx =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry saxpy(.param .f32 a, .param .u64 x, .param .u64 y, .param .u32 n)\n"
    "{\n"
    "    .reg .pred %p;\n"
    "    .reg .f32 %f<5>;\n"
    "    .reg .b32 %r<5>;\n"
    "    .reg .b64 %rd<6>;\n"
    "    ld.param.f32 %f1, [a];\n"
    "    ld.param.u64 %rd1, [x];\n"
    "    ld.param.u64 %rd2, [y];\n"
    "    ld.param.u32 %r1, [n];\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    mov.u32 %r3, %ntid.x;\n"
    "    mov.u32 %r4, %tid.x;\n"
    "    mad.lo.s32 %r2, %r2, %r3, %r4;\n"
    "    setp.ge.s32 %p, %r2, %r1;\n"
    "    @%p bra done;\n"
    "    cvta.to.global.u64 %rd1, %rd1;\n"
    "    cvta.to.global.u64 %rd2, %rd2;\n"
    "    mul.wide.s32 %rd3, %r2, 4;\n"
    "    add.s64 %rd4, %rd1, %rd3;\n"
    "    add.s64 %rd5, %rd2, %rd3;\n"
    "    ld.global.f32 %f2, [%rd4];\n"
    "    ld.global.f32 %f3, [%rd5];\n"
    "    fma.rn.f32 %f4, %f1, %f2, %f3;\n"
    "    st.global.f32 [%rd5], %f4;\n"
    "done:\n"
    "    ret;\n"
    "}\n";

void real_nvjitlink() {
    nvJitLinkHandle handle = nullptr;
    const char *options[] = {"-arch=sm_90"};
    if (failed("nvjitlink", "nvJitLinkCreate", nvJitLinkCreate(&handle, 1, options)))
        return;
    nvJitLinkResult added = nvJitLinkAddData(handle, NVJITLINK_INPUT_PTX, ptx,
                                             std::strlen(ptx), "saxpy.ptx");
    nvJitLinkResult completed = added == NVJITLINK_SUCCESS ? nvJitLinkComplete(handle) : added;
    if (completed != NVJITLINK_SUCCESS) {
        size_t size = 0;
        nvJitLinkGetErrorLogSize(handle, &size);
        std::vector<char> log(size + 1);
        nvJitLinkGetErrorLog(handle, log.data());
        std::printf("%s\n", log.data());
        failed("nvjitlink", added ? "nvJitLinkAddData" : "nvJitLinkComplete", completed);
        return;
    }
    size_t size = 0;
    if (failed("nvjitlink", "nvJitLinkGetLinkedCubinSize",
               nvJitLinkGetLinkedCubinSize(handle, &size)))
        return;
    std::vector<char> cubin(size);
    if (failed("nvjitlink", "nvJitLinkGetLinkedCubin",
               nvJitLinkGetLinkedCubin(handle, cubin.data())))
        return;
    nvJitLinkDestroy(&handle);
    print_hashed("nvjitlink", "cubin", cubin.data(), size);
}
