/* A fake sublibrary for cushim's tests (cuDNN 9's libcudnn_graph.so.9,
 * libcudnn_ops.so.9, ..., cuFile's libcufile_rdma.so.1): it only tells
 * which file it is. */
#define _GNU_SOURCE
#include <dlfcn.h>

/* Private to this file, so that its address is this copy's. */
static const char anchor = 0;

const char *fake_sublibrary_file(void) {
    Dl_info info;
    if (dladdr(&anchor, &info) == 0 || !info.dli_fname) return "?";
    return info.dli_fname;
}
