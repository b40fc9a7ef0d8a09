/* cushim's stand-in for <EGL/egl.h>, read only while parsing cudaEGL.h.
 *
 * EGLint is a 32-bit signed integer on every platform. */
#ifndef CUSHIM_FOREIGN_EGL_H
#define CUSHIM_FOREIGN_EGL_H

#include <stdint.h>

typedef int32_t EGLint;

#endif
