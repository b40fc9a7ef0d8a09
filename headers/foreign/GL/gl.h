/* cushim's stand-in for <GL/gl.h>, read only while parsing cudaGL.h.
 *
 * It declares the OpenGL types that the CUDA interop header names, with the
 * sizes every OpenGL implementation gives them, so that generating needs no
 * OpenGL headers. The C++ stubs never see this file: they include the real
 * header where the system has it. */
#ifndef CUSHIM_FOREIGN_GL_H
#define CUSHIM_FOREIGN_GL_H

typedef unsigned int GLenum;
typedef unsigned int GLuint;

#endif
