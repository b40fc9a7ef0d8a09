//! Scenarios of the family test (`tests/family.rs`), one per run, each in a
//! fresh process: `which LIB`, `present LIB...` and `absent LIB...` (each
//! library's own calls, `tests/fake/<name>.rs`, then `which`), `old-nvjitlink`,
//! `preloaded PATH`, `compile [PATH]`, `cudart-stream`. Prints what the test
//! checks and `ok: SCENARIO`.

use std::ffi::{CStr, c_char, c_void};
use std::ptr;

/// Prints where each library's loader found it, or why it found none.
macro_rules! which {
    ($lib:ident) => {
        match $lib::CUSHIM_LIBRARY.get() {
            Ok(found) => println!("path={} version={}", found.path(), found.version()),
            Err(e) => {
                println!("error={e}");
                if let $lib::LoadError::LibraryNotFound { tried, .. } = e {
                    for a in tried {
                        println!("tried: {} | {} | {}", a.from, a.name, a.error);
                    }
                }
            }
        }
    };
}

// A module of every library of cushim's registry but the driver, with its
// scenarios, and `which`, `present` and `absent` over them: written by
// `tests/family.rs` from the registry.
include!(concat!(env!("CUSHIM_FAMILY_DIR"), "/libraries.rs"));

/// nvJitLink older than the header: a typed error, and OUTDATED_LIBRARY.
fn old_nvjitlink() {
    let mut handle: nvjitlink::nvJitLinkHandle = ptr::null_mut();
    match unsafe { nvjitlink::Api::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) } {
        Err(nvjitlink::Error::Load(
            e @ nvjitlink::LoadError::TooOld {
                required: 13050,
                found: 13020,
                ..
            },
        )) => println!("nvjitlink: {e}"),
        other => panic!("nvJitLinkCreate on 13.2: {other:?}"),
    }
    let code = unsafe { nvjitlink::nvJitLinkCreate(&raw mut handle, 0, ptr::null_mut()) };
    println!("nvjitlink: raw code {}", code.0);
    // Functions without a release in their name still work.
    let (mut major, mut minor) = (0u32, 0u32);
    unsafe { nvjitlink::Api::nvJitLinkVersion(&raw mut major, &raw mut minor) }.expect("version");
    println!("nvjitlink: version {major}.{minor}");
}

/// A copy the program loaded itself is the one the shims use.
fn preloaded(path: &str) {
    let library = unsafe { libloading::Library::new(path) }.expect("the program loads its own copy");
    let _keep: *mut c_void = ptr::null_mut();
    which("nvrtc");
    std::mem::forget(library);
}

/// NVRTC compiles (a fake built with `FAKE_BUILTINS` opens its builtins by
/// bare name then, as the real one does), after the program loaded `path`
/// itself if given: prints the status, the program log (the builtins' file,
/// or the loader's error), where NVRTC was found and its siblings.
fn compile(path: Option<&str>) {
    if let Some(path) = path {
        let library = unsafe { libloading::Library::new(path) }.expect("the program loads its own copy");
        std::mem::forget(library);
    }
    let mut prog: nvrtc::nvrtcProgram = ptr::null_mut();
    unsafe {
        nvrtc::Api::nvrtcCreateProgram(&raw mut prog, c"k".as_ptr(), c"k.cu".as_ptr(), 0, ptr::null(), ptr::null())
    }
    .expect("create");
    let rc = unsafe { nvrtc::nvrtcCompileProgram(prog, 0, ptr::null()) };
    let mut size = 0usize;
    unsafe { nvrtc::Api::nvrtcGetProgramLogSize(prog, &raw mut size) }.expect("log size");
    let mut log: Vec<c_char> = vec![0; size.max(1)];
    unsafe { nvrtc::Api::nvrtcGetProgramLog(prog, log.as_mut_ptr()) }.expect("log");
    let log = unsafe { CStr::from_ptr(log.as_ptr()) }.to_string_lossy().into_owned();
    println!("nvrtc: compile code {} log {log}", rc.0);
    which("nvrtc");
    let found = nvrtc::CUSHIM_LIBRARY.get().expect("NVRTC loaded");
    for sibling in found.siblings() {
        println!("sibling: {} {}", sibling.path, sibling.skipped.as_deref().unwrap_or("loaded"));
    }
    unsafe { nvrtc::Api::nvrtcDestroyProgram(&raw mut prog) }.expect("destroy");
}

/// cudaMemcpyAsync through the stubs: the fake says whether its plain export
/// or its per-thread twin ran (the stream mode comes from the environment).
fn cudart_stream() {
    let src = [1u8; 4];
    let mut dst = [0u8; 4];
    let kind = cudart::cudaMemcpyKind::cudaMemcpyHostToHost;
    unsafe { cudart::Api::cudaMemcpyAsync(dst.as_mut_ptr().cast(), src.as_ptr().cast(), 4, kind, ptr::null_mut()) }
        .expect("cudaMemcpyAsync");
    let found = cudart::CUSHIM_LIBRARY.get().expect("cudart loaded");
    let library = unsafe { libloading::Library::new(found.path()) }.expect("loaded already");
    let last = unsafe { library.get::<unsafe extern "C" fn() -> *const c_char>(b"fake_last_copy") }.expect("the hook");
    println!("cudart: ran {}", unsafe { CStr::from_ptr(last()) }.to_string_lossy());
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("which") => which(&args[2]),
        Some("present") => args[2..].iter().for_each(|lib| present(lib)),
        Some("absent") => args[2..].iter().for_each(|lib| absent(lib)),
        Some("old-nvjitlink") => old_nvjitlink(),
        Some("preloaded") => preloaded(&args[2]),
        Some("compile") => compile(args.get(2).map(String::as_str)),
        Some("cudart-stream") => cudart_stream(),
        other => panic!("unknown scenario {other:?}"),
    }
    println!("ok: {}", args[1]);
}
