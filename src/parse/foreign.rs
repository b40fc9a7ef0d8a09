//! cushim's stand-ins for the headers of other projects that some library
//! headers include or expect (`GL/gl.h` for `cudaGL.h`). Each declares only
//! the types those headers name, with their real ABI, so that generating
//! needs no OpenGL, EGL or VDPAU headers and gives the same output on every
//! machine. The parse reads them as libclang's in-memory files under
//! [`ROOT`], which exists nowhere on disk.

/// The include directory the stand-ins appear in, to libclang only.
pub const ROOT: &str = "/cushim-foreign-headers";

/// Every stand-in, by the name an `#include <...>` gives it.
pub const FILES: &[(&str, &str)] = &[
    ("GL/gl.h", include_str!("../../headers/foreign/GL/gl.h")),
    ("EGL/egl.h", include_str!("../../headers/foreign/EGL/egl.h")),
    (
        "EGL/eglext.h",
        include_str!("../../headers/foreign/EGL/eglext.h"),
    ),
    (
        "vdpau/vdpau.h",
        include_str!("../../headers/foreign/vdpau/vdpau.h"),
    ),
    ("nv/target", include_str!("../../headers/foreign/nv/target")),
    ("string", include_str!("../../headers/foreign/string")),
    (
        "cushim/bool.h",
        include_str!("../../headers/foreign/cushim/bool.h"),
    ),
];

/// The stand-ins that only the parse for Windows reads (the `_WIN32` branch
/// of a header): `<windows.h>`, which CUPTI's, NVRTC's and NVTX's headers
/// include there and whose types none of their declarations name, empty.
pub const WINDOWS: &[(&str, &str)] = &[(
    "windows.h",
    "/* cushim's stand-in for <windows.h>: the parse for Windows needs none of it. */\n",
)];

/// The stand-ins as `(absolute path, contents)`, for libclang's unsaved files.
pub fn unsaved() -> Vec<(String, &'static str)> {
    FILES
        .iter()
        .map(|(name, text)| (format!("{ROOT}/{name}"), *text))
        .collect()
}

/// [`unsaved`] with the [`WINDOWS`] stand-ins, for the parse for Windows.
pub fn unsaved_for_windows() -> Vec<(String, &'static str)> {
    FILES
        .iter()
        .chain(WINDOWS)
        .map(|(name, text)| (format!("{ROOT}/{name}"), *text))
        .collect()
}

/// The stand-ins that `input`'s headers need, as [`unsaved`] gives them.
pub fn needed(input: &super::Input) -> Vec<(String, &'static str)> {
    FILES
        .iter()
        .filter(|(name, _)| input.headers.iter().any(|h| h.needs.contains(name)))
        .map(|(name, text)| (format!("{ROOT}/{name}"), *text))
        .collect()
}

#[cfg(test)]
mod tests {
    /// Each library's `needs` has a stand-in.
    #[test]
    fn every_needed_foreign_header_has_a_stand_in() {
        for h in crate::library::LIBRARIES.iter().flat_map(|l| l.headers) {
            for need in h.needs {
                assert!(
                    super::FILES.iter().any(|(n, _)| n == need),
                    "{} needs {need}",
                    h.name
                );
            }
        }
        for l in crate::library::LIBRARIES {
            for need in l.parse.globbed.needs {
                assert!(
                    super::FILES.iter().any(|(n, _)| n == need),
                    "{}'s headers found by name need {need}",
                    l.name
                );
            }
        }
    }
}
