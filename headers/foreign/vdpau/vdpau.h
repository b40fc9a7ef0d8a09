/* cushim's stand-in for <vdpau/vdpau.h>, read only while parsing cudaVDPAU.h
 * (which expects the caller to have included VDPAU first).
 *
 * VDPAU handles are 32-bit unsigned integers, its status an enum of C's int
 * size; VdpGetProcAddress is a function type that the interop functions take
 * by pointer. Only the status value that success needs is named here, and
 * the enum has a tag (VDPAU's own is anonymous), which gives it a name in the
 * generated Rust; the ABI is the same. */
#ifndef CUSHIM_FOREIGN_VDPAU_H
#define CUSHIM_FOREIGN_VDPAU_H

#include <stdint.h>

typedef uint32_t VdpDevice;
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;

typedef enum VdpStatus {
    VDP_STATUS_OK = 0
} VdpStatus;

typedef VdpStatus VdpGetProcAddress(VdpDevice device, uint32_t function_id, void **function_pointer);

#endif
