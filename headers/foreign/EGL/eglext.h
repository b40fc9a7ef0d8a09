/* cushim's stand-in for <EGL/eglext.h>, read only while parsing cudaEGL.h.
 *
 * The extension handles that the CUDA interop header takes are opaque
 * pointers. */
#ifndef CUSHIM_FOREIGN_EGLEXT_H
#define CUSHIM_FOREIGN_EGLEXT_H

#include <EGL/egl.h>

typedef void *EGLImageKHR;
typedef void *EGLStreamKHR;
typedef void *EGLSyncKHR;

#endif
