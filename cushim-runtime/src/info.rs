//! What a generated module tells the runtime about its library: plain data,
//! written as one constant by the generator from cushim's description.

use std::ffi::CStr;

/// How to find one library, how to ask its version, which codes its shims
/// answer with, and the words of its messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct LibraryInfo {
    /// Example: `CUDA driver` ("CUDA driver library not found").
    pub label: &'static str,
    /// Example: `driver` ("driver too old").
    pub short_name: &'static str,
    /// What its versions are versions of. Example: `CUDA`.
    pub product: &'static str,
    /// How to get it. Example: `Install the NVIDIA driver`.
    pub install: &'static str,
    /// The environment variable that names the library by absolute path,
    /// instead of the search. Read once, on the first load.
    /// Example: `CUSHIM_CUDA_LIBRARY`.
    pub override_var: &'static str,
    /// This system's file names, the header's major filled in. Example: `libnvrtc.so.13`.
    pub names: &'static [&'static str],
    /// The function that reports the version. Example: `cuDriverGetVersion`.
    pub version_function: &'static CStr,
    /// How it answers.
    pub version_query: VersionQuery,
    /// The status a link-time stub answers the version function with; such
    /// a library is never used. Example: `Some(34)` (`CUDA_ERROR_STUB_LIBRARY`).
    pub stub_code: Option<i32>,
    /// The library's lookup by name and ABI version, v2 then v1, if it has one.
    /// Example: `cuGetProcAddress_v2`, `cuGetProcAddress`.
    pub proc_address: Option<(&'static CStr, &'static CStr)>,
    /// The header's major version, which a library found must report; 0
    /// when any version will do (the file name does not carry it).
    pub major: u32,
    /// The pip wheel directories under `site-packages`, for a library
    /// installed with a toolkit; `None` for one installed with the driver,
    /// which only the system loader finds. Example: `nvidia/cu13/lib`.
    pub wheel_dirs: Option<&'static [&'static str]>,
    /// Directories under a toolkit's root that hold the library, searched
    /// after `lib64` and `lib` (Windows `bin`, `bin\\x64`). Example:
    /// `extras/CUPTI/lib64`.
    pub toolkit_subdirs: &'static [&'static str],
    /// Libraries loaded first from the directory of the library, where it
    /// has them. Example: `libcublasLt.so.13`.
    pub preload: &'static [&'static str],
    /// Libraries that must be in the library's own directory, loaded from
    /// there after it and before anything of it is called: a copy without
    /// them is not used, and the search goes on. Example:
    /// `libcudnn_graph.so.9`, without which cuDNN aborts the process on its
    /// first call.
    pub required: &'static [&'static str],
    /// The function that reports the CUDA release the library was built
    /// for, as `size_t f(void)` answering 1000 × major + 10 × minor, and
    /// the header's CUDA major, which it must match: for a library whose
    /// file names and directory do not tell. Example:
    /// `(c"cudnnGetCudartVersion", 13)`.
    pub built_for: Option<(&'static CStr, u32)>,
    /// Libraries that the library opens by bare name while it runs, loaded
    /// after it from its own directory so that its later `dlopen` finds
    /// them there, best effort: one absent or unusable leaves the library
    /// usable. `{minor}` stands for the minor version the library reports.
    /// Example: `libnvrtc-builtins.so.13.{minor}` (NVRTC 13.0 opens
    /// `libnvrtc-builtins.so.13.0` when it compiles).
    pub siblings: &'static [&'static str],
    /// File names of the libraries installed alongside, for the same CUDA
    /// major: the directory of a loaded one is searched. Example:
    /// `libcudart.so.13`.
    pub family: &'static [&'static str],
    /// The status values its shims answer when a call never reached it.
    pub codes: Codes,
    /// How its functions are found (`--resolve` at generation time).
    pub resolve: Resolve,
    /// The default-stream mode unless the program or the environment says
    /// otherwise (`--stream` at generation time); only libraries with
    /// per-thread variants read it.
    pub default_stream: StreamMode,
}

/// Shows the library's label only: every failure carries its library.
impl std::fmt::Debug for LibraryInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LibraryInfo")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// How the version function answers. Every kind but [`VersionQuery::Returned`]
/// returns the library's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionQuery {
    /// `f(int *version)`: 1000 × major + 10 × minor. Example: `cuDriverGetVersion`.
    Number,
    /// `f(int *major, int *minor)`. Example: `nvrtcVersion`.
    MajorMinor,
    /// `f(char *text, unsigned length)`, `13.580.82`: the major only.
    /// Example: `nvmlSystemGetNVMLVersion`.
    Text,
    /// `f(int property, int *value)`, asked for the major (0) and the minor (1).
    /// Example: `cublasGetProperty`.
    Property,
    /// `f(int *version)`: 10000 × major + 100 × minor + patch.
    /// Example: `ncclGetVersion` (`23203`, NCCL 2.32.3).
    Decimal,
    /// `size_t f(void)`, which returns no status: 10000 × major + 100 ×
    /// minor + patch. Example: `cudnnGetVersion` (`92801`, cuDNN 9.28.1).
    Returned,
    /// `f(uint32_t *version)`: an API number, not a release, so no version
    /// is read from it (the file name tells the major). Example:
    /// `cuptiGetVersion` (`28` for CUDA 12.9, `130001` for 13.0).
    Api,
    /// `S f(int *version)`, where `S` is the library's status struct, whose
    /// first field is the code: 1000 × major + 10 × minor, as [`Self::Number`].
    /// Example: `cuFileGetVersion` (`1150`, cuFile 1.15).
    NumberInStatus,
    /// No version function: the name is one of the library's exports, looked
    /// up (never called) to tell the library from another file. Example:
    /// NVTX's `nvtxRangePushA`.
    Absent,
}

/// The status values the drop-in layer returns when a call never reached
/// the library: the values of the header's own constants, chosen by
/// cushim's description of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Codes {
    /// No usable library. Example: 303, `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`.
    pub library_not_found: u32,
    /// The library lacks this function. Example: 500, `CUDA_ERROR_NOT_FOUND`.
    pub symbol_not_found: u32,
    /// The library found is a link-time stub. Example: 34, `CUDA_ERROR_STUB_LIBRARY`.
    pub stub_library: u32,
    /// The function is newer than the library.
    /// Example: 36, `CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER`.
    pub too_old: u32,
    /// What the library itself answers in a forked child.
    /// Example: 3, `CUDA_ERROR_NOT_INITIALIZED`.
    pub not_initialized: u32,
    /// Success. Example: 0, `CUDA_SUCCESS`.
    pub success: u32,
    /// An invalid argument. Example: 1, `CUDA_ERROR_INVALID_VALUE`.
    pub invalid_value: u32,
}

/// How shims find their functions (chosen at generation time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolve {
    /// The library's own lookup by name and ABI version (the driver's
    /// `cuGetProcAddress_v2`, then v1), then the exact versioned export for
    /// a library without it.
    ProcAddress,
    /// The exact versioned export only.
    Dlsym,
    /// The driver's functions as the CUDA runtime hands them out, described
    /// here (its names, wheel directories and version function): the loader
    /// never opens the driver itself, but finds the runtime (a copy already
    /// loaded first, then the runtime's own search) and asks it for each
    /// function by name and ABI version (`cudaGetDriverEntryPointByVersion`,
    /// CUDA 12.5 and later), or, from an older runtime, asks its
    /// `cudaGetDriverEntryPoint` once for the driver's own lookup
    /// (`cuGetProcAddress`) and binds through that. Example: the driver's
    /// module with `--resolve runtime-entry-point`.
    RuntimeEntryPoint(&'static LibraryInfo),
}

/// The default-stream semantics of the stream-ordered functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamMode {
    /// The legacy default stream (`CU_GET_PROC_ADDRESS_LEGACY_STREAM`).
    Legacy,
    /// The per-thread default stream: `_ptds`/`_ptsz` variants.
    PerThread,
}

impl StreamMode {
    /// The `cuGetProcAddress` flag of this mode, never 0.
    #[must_use]
    pub fn flag(self) -> u64 {
        match self {
            StreamMode::Legacy => 1,
            StreamMode::PerThread => 2,
        }
    }
}

/// Environment variable that picks the default-stream mode when the program
/// did not: `1` per-thread, `0` legacy. Read once, on the first binding.
pub const STREAM_VAR: &str = "CUSHIM_PER_THREAD_DEFAULT_STREAM";
/// Values of [`STREAM_VAR`] that choose the per-thread default stream, compared
/// after trimming ASCII whitespace. The C++ runtime gets the same list.
pub const STREAM_ON: &[&str] = &["1", "true", "on"];
/// Values of [`STREAM_VAR`] that choose the legacy default stream.
pub const STREAM_OFF: &[&str] = &["0", "false", "off"];

/// `12050` → `12.5`.
#[must_use]
pub fn version_text(v: u32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}
