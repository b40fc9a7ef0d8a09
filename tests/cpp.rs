//! The C++ pair: compiled with g++ against the real pinned headers (every
//! committed pair, fresh ones, the fixtures'), linked into a C
//! program, and cross-compiled for Windows. The C++ test program's runs against
//! the fake `libcuda.so.1` are rows of the table in `tests/scenarios.rs`.

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::{
    compile, fixture, include_dir, missing_library, pair, root, run_ok, CXXFLAGS, FIXTURES,
};

/// The 13.5 pair and its object, compiled once for the tests that need both.
fn pair_13_5() -> &'static (PathBuf, PathBuf) {
    static PAIR: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    PAIR.get_or_init(|| {
        let dir = pair("cpp-13.5", cushim::Builder::new().cuda_version("13.5"));
        let object = compile(&dir, "cuda", &include_dir("13.5"), &[]);
        (dir, object)
    })
}

#[test]
fn pairs_from_the_real_headers_compile_without_warnings() {
    for version in ["11.8", "12.9"] {
        let dir = pair(
            &format!("cpp-{version}"),
            cushim::Builder::new().cuda_version(version),
        );
        compile(&dir, "cuda", &include_dir(version), &[]);
    }
    pair_13_5();
    let dir = pair(
        "cpp-13.5-prefixed",
        cushim::Builder::new()
            .cuda_version("13.5")
            .cpp_prefix("cushim_"),
    );
    let object = compile(&dir, "cuda", &include_dir("13.5"), &[]);
    let nm = run_ok(Command::new("nm").arg("--defined-only").arg(&object));
    assert!(nm.contains(" T cushim_cuMemAlloc_v2\n"), "prefixed export");
    assert!(
        !nm.contains(" T cuMemAlloc_v2\n"),
        "no drop-in export in prefixed mode"
    );
}

#[test]
fn fixture_pairs_compile_without_warnings() {
    let include = root().join("headers/fixtures");
    for name in FIXTURES {
        let dir = pair(
            &format!("cpp-fixture-{name}"),
            cushim::Builder::new().header(fixture(name), None),
        );
        compile(&dir, name, &include, &[]);
    }
}

#[test]
fn a_c_program_links_against_the_stubs_and_runs_without_a_driver() {
    // A C program's build compiles the stubs without exceptions.
    let dir = pair("cpp-13.5-c", cushim::Builder::new().cuda_version("13.5"));
    let include = include_dir("13.5");
    let object = compile(&dir, "cuda", &include, &["-fno-exceptions"]);
    let c_object = dir.join("c_program.o");
    run_ok(
        Command::new("gcc")
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-c"])
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/c_program.c"))
            .arg("-o")
            .arg(&c_object),
    );
    // The stub object needs nothing from the C++ library: no operator new,
    // no static-init guards, no exceptions, no std::mutex.
    let undefined = run_ok(
        Command::new("nm")
            .arg("-u")
            .arg(&object)
            .arg(common::runtime_object(&dir)),
    );
    let cxx_runtime: Vec<&str> = undefined
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| {
            s.starts_with("_Z")
                || s.starts_with("__cxa")
                || s.starts_with("__gxx")
                || s.starts_with("_Unwind")
        })
        .collect();
    assert!(
        cxx_runtime.is_empty(),
        "the stub object needs the C++ runtime: {cxx_runtime:?}"
    );
    // So a C compiler links the program, without libstdc++.
    let bin = dir.join("c_program");
    run_ok(
        Command::new("gcc")
            .arg(&c_object)
            .arg(&object)
            .arg(common::runtime_object(&dir))
            .args(["-pthread", "-ldl", "-o"])
            .arg(&bin),
    );
    let needed = run_ok(Command::new("readelf").arg("-d").arg(&bin));
    assert!(!needed.contains("libstdc++"), "{needed}");
    let out = run_ok(Command::new(&bin).env("CUSHIM_CUDA_LIBRARY", missing_library()));
    assert!(out.contains("cuInit -> 303, status 1"), "{out}");
}

/// Cross-compiles with mingw-w64 and runs under Wine: no driver, a planted
/// `nvcuda.dll` beside the executable and in the working directory. The
/// stubs are Win64 assembly: `cuInit` is one jump through its slot, and
/// calls with seven arguments on the stack and floats in xmm1 and xmm2
/// answer 303 without a driver and reach the fake driver (which changes the
/// vector registers while it binds) with every argument, through the binder
/// and then the slot.
#[test]
fn windows_build_reports_no_library_and_never_loads_a_planted_dll() {
    if !common::windows_cpp_tools() {
        return;
    }
    let dir = pair("cpp-windows", cushim::Builder::new().cuda_version("13.5"));
    // Its wine prefix weighs 0.7 GB.
    let _removed = common::RemovedAfter(dir.clone());
    let include = include_dir("13.5");
    let exe = dir.join("program.exe");
    run_ok(
        Command::new("x86_64-w64-mingw32-g++-posix")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/windows_program.cpp"))
            .arg(dir.join("cuda_shim.cpp"))
            // NCCL's committed pair, which needs no header here.
            .arg(format!(
                "-I{}",
                root().join("generated/cuda-13.5").display()
            ))
            .arg(root().join("generated/cuda-13.5/nccl_shim.cpp"))
            .arg(dir.join("cushim_runtime.cpp"))
            .args(["-static", "-o"])
            .arg(&exe),
    );
    // cudaGL.h's Windows-only function is a stub here, checked against its
    // prototype under _WIN32 (with the cross compiler's own GL headers).
    let nm = run_ok(Command::new("x86_64-w64-mingw32-nm").arg(&exe));
    assert!(nm.contains(" T cuWGLGetDevice\n"), "{nm}");
    let out = common::run_beside_planted_dll(&dir, &exe);
    assert!(out.contains("cuInit -> 303, status 1"), "{out}");
    assert!(out.contains("tried `nvcuda.dll`"), "{out}");
    assert!(
        out.contains("control: LoadLibraryA(\"nvcuda.dll\") loads the planted DLL"),
        "{out}"
    );
    assert!(out.contains("ok: windows"), "{out}");
    assert!(
        out.contains("nccl: 1: NCCL has no library for Windows; set CUSHIM_NCCL_LIBRARY"),
        "{out}"
    );
    assert!(
        out.contains(
            "call 1: cuLaunchKernel -> 303 (expected 303), cuTexRefSetMipmapLevelClamp -> 303"
        ),
        "{out}"
    );
    // The hot path: one jump through the slot.
    let listing = run_ok(
        Command::new("x86_64-w64-mingw32-objdump")
            .args(["-d", "--no-show-raw-insn"])
            .arg(&exe),
    );
    let init = body(&listing, "cuInit");
    assert!(
        init.len() == 1 && init[0].starts_with("jmp    *") && init[0].contains("(%rip)"),
        "{init:?}"
    );
    // The fake driver, named by the override, gets every argument.
    let fake = dir.join("fake-driver");
    std::fs::create_dir_all(&fake).unwrap();
    run_ok(
        Command::new("x86_64-w64-mingw32-gcc")
            .args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
            .arg(fake.join("nvcuda.dll"))
            .arg(root().join("tests/fake/libcuda.c")),
    );
    let library = format!("Z:{}", fake.join("nvcuda.dll").display()).replace('/', "\\");
    let out = run_ok(
        Command::new("wine")
            .arg(&exe)
            .arg("fake")
            .env("WINEPREFIX", dir.join("wine-prefix"))
            .env("WINEDEBUG", "-all")
            .env("CUSHIM_CUDA_LIBRARY", library),
    );
    assert!(out.contains("cuInit -> 0"), "{out}");
    assert!(
        out.contains("call 0: cuLaunchKernel -> 6793 (expected 6793), cuTexRefSetMipmapLevelClamp -> 24804 (expected 24804)"),
        "{out}"
    );
    assert!(out.contains("ok: fake"), "{out}");
}

/// Every committed pair compiles against its release's headers, with the
/// system's OpenGL, EGL and VDPAU headers present (as `.ci/run` installs
/// them): the profiler and interop headers are then included and each of
/// their functions is defined with the prototype the header declares.
#[test]
fn every_committed_pair_compiles_against_its_own_headers() {
    let scratch = common::scratch("committed-pairs");
    let check = scratch.join("check.cpp");
    let mut source = String::from("#include \"cuda_shim.cpp\"\n");
    for flag in [
        "CUSHIM_HAS_CUDAPROFILER_H",
        "CUSHIM_HAS_CUDAGL_H",
        "CUSHIM_HAS_CUDAEGL_H",
        "CUSHIM_HAS_CUDAVDPAU_H",
    ] {
        source.push_str(&format!(
            "#ifndef {flag}\n#error \"{flag}: the header or what it needs was not found\"\n#endif\n"
        ));
    }
    std::fs::write(&check, source).unwrap();
    let mut checked = 0;
    for pin in cushim::pins::vendored_for(&cushim::library::DRIVER) {
        let dir = root().join("generated").join(pin.cuda.dir_name());
        run_ok(
            Command::new("g++")
                .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
                // Read the headers where assembly stubs need none of them.
                .arg("-DCUSHIM_CHECK_SIGNATURES")
                .arg(format!(
                    "-I{}",
                    include_dir(&pin.cuda.to_string()).display()
                ))
                .arg(format!("-I{}", dir.display()))
                .arg(&check),
        );
        checked += 1;
    }
    // 11.8, 12.9, 13.0 and 13.5 (every release's pair comes from the same
    // emitter and is checked fresh by `tests/pinned.rs`).
    assert_eq!(checked, 4);
}

/// The cached include directory of a library's 13.5 headers.
fn library_include(name: &str) -> PathBuf {
    let library = cushim::library::by_name(name).unwrap();
    let pin = cushim::pins::find_for(library, "13.5".parse().unwrap()).unwrap();
    cushim::fetch::library_include_dir(library, &pin).unwrap()
}

/// `cmake/cushim.cmake` in a real CMake build: a C and a C++ program, each
/// with the committed 13.5 pair instead of -lcuda; the C one links without
/// libstdc++. Both run without a driver and get the documented answers.
#[test]
fn cmake_builds_a_c_and_a_cpp_program_without_libcuda() {
    if !common::have_cmake() {
        return;
    }
    let build = common::scratch("cmake-build");
    run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(root().join("tests/cmake"))
            .arg("-B")
            .arg(&build)
            .arg(format!("-DCUSHIM_ROOT={}", root().display()))
            .arg(format!(
                "-DCUSHIM_PAIR={}",
                root().join("generated/cuda-13.5").display()
            ))
            .arg(format!("-DCUDA_INCLUDE={}", include_dir("13.5").display()))
            .arg(format!(
                "-DNVRTC_INCLUDE={}",
                library_include("nvrtc").display()
            ))
            .arg(format!(
                "-DCUBLAS_INCLUDE={}",
                library_include("cublas").display()
            ))
            .arg("-DCMAKE_BUILD_TYPE=Release"),
    );
    run_ok(
        Command::new("cmake")
            .arg("--build")
            .arg(&build)
            .args(["--parallel", "2"]),
    );
    // c_family links with -Wl,--no-as-needed: an unneeded libstdc++ would show.
    for program in ["c_program", "c_family"] {
        let needed = run_ok(Command::new("readelf").arg("-d").arg(build.join(program)));
        assert!(!needed.contains("libstdc++"), "{program}: {needed}");
    }
    let out = run_ok(
        Command::new(build.join("c_family"))
            .env("CUSHIM_CUDA_LIBRARY", missing_library())
            .env("CUSHIM_NVRTC_LIBRARY", missing_library())
            .env("CUSHIM_CUBLAS_LIBRARY", missing_library()),
    );
    assert!(out.contains("cuInit -> 303"), "{out}");
    for program in ["c_program", "cpp_program"] {
        let out =
            run_ok(Command::new(build.join(program)).env("CUSHIM_CUDA_LIBRARY", missing_library()));
        assert!(out.contains("cuInit -> 303"), "{program}: {out}");
    }
    let out = run_ok(
        Command::new(build.join("cpp_program")).env("CUSHIM_CUDA_LIBRARY", missing_library()),
    );
    assert!(
        out.contains("(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED)"),
        "{out}"
    );
}

/// A driver that throws during the first load (RELIABILITY row 15): the
/// exception reaches the caller and the stubs put their state back, so
/// another thread and the same thread load again instead of blocking or
/// answering "reentrant" forever.
#[test]
fn a_driver_that_throws_during_the_first_load_leaves_the_stubs_usable() {
    let (dir, object) = pair_13_5();
    let driver_dir = common::scratch("throwing-driver");
    let driver = driver_dir.join("libcuda.so.1");
    run_ok(
        Command::new("g++")
            .args(["-std=c++17", "-shared", "-fPIC", "-o"])
            .arg(&driver)
            .arg(root().join("tests/cpp/throwing_driver.cpp")),
    );
    let bin = driver_dir.join("throwing");
    run_ok(
        Command::new("g++")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include_dir("13.5").display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/throwing.cpp"))
            .arg(object)
            .arg(common::runtime_object(dir))
            .args(["-ldl", "-pthread", "-o"])
            .arg(&bin),
    );
    // Before the fix the other thread waited forever; `timeout` turns that into a failure.
    let out = Command::new("timeout")
        .arg("20")
        .arg(&bin)
        .env("CUSHIM_CUDA_LIBRARY", &driver)
        .output()
        .expect("the program runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        "first load threw: the driver failed to initialize\nother thread: 0\nsame thread: 0\n"
    );
}

/// The linked mode of the C++ pair: with `CUSHIM_CUDA_LINKED` defined (as
/// `--link linked` does in the file) the object defines no driver function;
/// a program links `-lcuda` (the fake driver), calls it directly, and the
/// status API reports on that same library.
#[test]
fn the_pair_in_linked_mode_defines_no_stubs_and_the_program_links_the_driver() {
    let fake = common::fake_driver("cpp-linked", &[]);
    let fake_dir = fake.parent().unwrap().to_path_buf();
    std::os::unix::fs::symlink("libcuda.so.1", fake_dir.join("libcuda.so")).unwrap();
    let include = include_dir("13.5");
    let dir = pair(
        "cpp-linked",
        cushim::Builder::new()
            .cuda_version("13.5")
            .link(cushim::Link::Linked),
    );
    let source = std::fs::read_to_string(dir.join("cuda_shim.cpp")).unwrap();
    assert!(source.contains("#define CUSHIM_CUDA_LINKED 1"));
    let object = compile(&dir, "cuda", &include, &[]);
    let nm = run_ok(Command::new("nm").arg("--defined-only").arg(&object));
    assert!(!nm.contains(" T cuInit"), "no stub in linked mode:\n{nm}");
    assert!(nm.contains(" T cushim_cuda_load"), "the status API stays");

    // The lazy pair's object, compiled with the define, is the same choice.
    let lazy = pair(
        "cpp-linked-by-define",
        cushim::Builder::new().cuda_version("13.5"),
    );
    let object_by_define = compile(&lazy, "cuda", &include, &["-DCUSHIM_CUDA_LINKED"]);
    let nm = run_ok(
        Command::new("nm")
            .arg("--defined-only")
            .arg(&object_by_define),
    );
    assert!(
        !nm.contains(" T cuInit"),
        "-DCUSHIM_CUDA_LINKED leaves the stubs out"
    );

    let program = dir.join("linked");
    run_ok(
        Command::new("g++")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/linked.cpp"))
            .arg(&object)
            .arg(common::runtime_object(&dir))
            .arg(format!("-L{}", fake_dir.display()))
            .args(["-lcuda", "-ldl", "-pthread", "-o"])
            .arg(&program),
    );
    let needed = run_ok(Command::new("readelf").arg("-d").arg(&program));
    assert!(needed.contains("[libcuda.so.1]"), "{needed}");
    let out = run_ok(
        Command::new(&program)
            .env_remove("CUSHIM_CUDA_LIBRARY")
            .env("LD_LIBRARY_PATH", &fake_dir),
    );
    assert!(out.contains("ok: linked"), "{out}");
}

/// Every committed pair of the other libraries (NVRTC, NVML, nvJitLink,
/// cuBLAS, cuBLASLt: the first and newest release of each major) compiles
/// against its release's pinned headers with `CUSHIM_CHECK_SIGNATURES`, so
/// the compiler checks each stub's prototype against the header's own
/// declaration; cuBLAS's runtime headers get cushim's host-only <nv/target>.
/// A 13.5 pair whose stubs are all assembly also compiles with no header of
/// its library on the include path, as it is built by default.
#[test]
fn every_committed_library_pair_compiles_against_its_own_headers() {
    let (mut checked, mut headerless) = (0, 0);
    for library in cushim::library::LIBRARIES.iter().skip(1) {
        for pin in cushim::pins::vendored_for(library) {
            let dir = root().join("generated").join(pin.cuda.dir_name());
            let source = dir.join(format!("{}_shim.cpp", library.stem));
            assert!(source.is_file(), "{} is committed", source.display());
            let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
            // The newest release also with the C++ stubs of other platforms.
            let newest = pin.cuda.to_string() == "13.5";
            let modes: &[&[&str]] = if newest {
                &[&["-DCUSHIM_CHECK_SIGNATURES"], &["-DCUSHIM_NO_ASM_STUBS"]]
            } else {
                &[&["-DCUSHIM_CHECK_SIGNATURES"]]
            };
            for defines in modes {
                run_ok(
                    Command::new("g++")
                        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
                        .args(*defines)
                        .arg(format!("-I{}", include.display()))
                        .arg(format!("-I{}", root().join("headers/foreign").display()))
                        .arg(format!("-I{}", dir.display()))
                        .arg(&source),
                );
            }
            let text = std::fs::read_to_string(&source).unwrap();
            if newest && text.contains("CUSHIM_SIGNATURE_UNCHECKED") {
                run_ok(
                    Command::new("g++")
                        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
                        .arg(format!("-I{}", dir.display()))
                        .arg(&source),
                );
                headerless += 1;
            }
            checked += 1;
        }
    }
    // Each library's vendored releases (11.8, 12.9, 13.0 and 13.5 where it
    // has them).
    let vendored: usize = cushim::library::LIBRARIES
        .iter()
        .skip(1)
        .map(|l| cushim::pins::vendored_for(l).len())
        .sum();
    assert_eq!(checked, vendored);
    assert!(checked >= 3 * (cushim::library::LIBRARIES.len() - 1));
    // NVRTC's and cuBLAS's among them.
    assert!(headerless >= 2, "{headerless}");
}

/// Every 13.5 pair builds for 64-bit Windows with mingw-w64, warning-free
/// with its library's headers as system headers: objects, so that the Win64
/// assembly stubs are assembled too. A pair whose stubs are all assembly
/// also builds with no header of its library, as it is built by default.
/// A library with no Windows file (its description names none) need not have
/// headers that build there (one needs POSIX's sockets): its pair may fail
/// with them, and then is not built; one such pair at most.
#[test]
fn every_13_5_pair_builds_for_windows_with_mingw() {
    if !common::windows_cpp_tools() {
        return;
    }
    let dir = common::scratch("mingw-pairs");
    let generated = root().join("generated/cuda-13.5");
    let (mut built, mut headerless) = (0, 0);
    let mut not_built = Vec::new();
    for library in cushim::library::LIBRARIES {
        let on_windows = !library.names_for(13).windows.is_empty();
        let pin = cushim::pins::find_for(library, "13.5".parse().unwrap()).unwrap();
        let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
        let source = generated.join(format!("{}_shim.cpp", library.stem));
        let text = std::fs::read_to_string(&source).unwrap();
        let untyped = text.contains("CUSHIM_SIGNATURE_UNCHECKED");
        let mut ok = true;
        for with_header in [true, false] {
            if !with_header && !untyped {
                continue;
            }
            let mut g = Command::new("x86_64-w64-mingw32-g++-posix");
            g.args(CXXFLAGS).arg("-c");
            if with_header {
                g.arg("-isystem")
                    .arg(&include)
                    .arg("-isystem")
                    .arg(root().join("headers/foreign"));
            } else {
                headerless += 1;
            }
            g.arg(format!("-I{}", generated.display()))
                .arg(&source)
                .arg("-o")
                .arg(dir.join(format!("{}-{with_header}.o", library.stem)));
            if on_windows {
                run_ok(&mut g);
            } else {
                ok &= g.output().unwrap().status.success();
            }
        }
        if ok {
            built += 1;
        } else {
            not_built.push(library.stem);
        }
    }
    // Every library with a Windows file; of the others, one at most.
    assert!(not_built.len() <= 1, "{not_built:?}");
    assert_eq!(built + not_built.len(), cushim::library::LIBRARIES.len());
    // The driver's, NVRTC's and cuBLAS's among them.
    assert!(headerless >= 3, "{headerless}");
}

/// On x86-64 ELF a stub of a function that returns its status (or an
/// integer, a pointer, nothing, or a fallback's text: `nvrtcGetErrorString`)
/// is assembly: one jump through its slot, with no frame, so the hot path is
/// one load and one indirect jump. With `CUSHIM_NO_ASM_STUBS` (and on every
/// other platform) every stub is C++, and the pair compiles that way too.
#[test]
fn an_x86_64_stub_is_one_jump_through_its_slot() {
    let dir = common::scratch("asm-stubs");
    let generated = root().join("generated/cuda-13.5");
    let pin = cushim::pins::find_for(&cushim::library::NVRTC, "13.5".parse().unwrap()).unwrap();
    let include = cushim::fetch::library_include_dir(&cushim::library::NVRTC, &pin).unwrap();
    let disassemble = |defines: &[&str], name: &str| {
        let object = dir.join(format!("{name}.o"));
        run_ok(
            Command::new("g++")
                .args(CXXFLAGS)
                .args(["-O2", "-c"])
                .args(defines)
                .arg(format!("-I{}", include.display()))
                .arg(format!("-I{}", generated.display()))
                .arg(generated.join("nvrtc_shim.cpp"))
                .arg("-o")
                .arg(&object),
        );
        run_ok(
            Command::new("objdump")
                .args(["-d", "--no-show-raw-insn"])
                .arg(&object),
        )
    };
    let asm = disassemble(&[], "asm");
    let version = body(&asm, "nvrtcVersion");
    assert_eq!(version.len(), 1, "{version:?}");
    assert!(
        version[0].starts_with("jmp    *") && version[0].contains("(%rip)"),
        "{version:?}"
    );
    let text = body(&asm, "nvrtcGetErrorString");
    assert!(
        text.len() == 1 && text[0].starts_with("jmp    *") && text[0].contains("(%rip)"),
        "{text:?}"
    );
    let cpp = disassemble(&["-DCUSHIM_NO_ASM_STUBS"], "cpp");
    let version = body(&cpp, "nvrtcVersion");
    assert!(
        version.len() == 2 && version[1].starts_with("jmp    *%"),
        "{version:?}"
    );
}

/// The instructions of `function` in objdump's `listing`, up to the next
/// symbol, without padding.
pub(crate) fn body(listing: &str, function: &str) -> Vec<String> {
    listing
        .split(&format!("<{function}>:\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("{function} in\n{listing}"))
        .split("\n\n")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(":\t").map(|(_, i)| i.trim().to_string()))
        // Alignment padding.
        .filter(|i| !i.contains("nop") && i != "int3")
        .collect()
}

/// A C program's build (no exceptions, no libstdc++) links the stubs and the
/// runtime, also unoptimized: no static-init guard, operator new or exception
/// support is left for the C++ runtime to provide, and every static is
/// constant-initialized (no `.init_array`). The driver's pair and a toolkit
/// library's (NVRTC's) cover every path of the one runtime.
#[test]
fn stub_objects_need_no_cpp_runtime_even_unoptimized() {
    let dir = common::scratch("stub-objects-o0");
    let generated = root().join("generated/cuda-13.5");
    let mut sources = Vec::new();
    for library in [&cushim::library::DRIVER, &cushim::library::NVRTC] {
        let pin = cushim::pins::find_for(library, "13.5".parse().unwrap()).unwrap();
        let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
        sources.push((format!("{}_shim", library.stem), Some(include)));
    }
    sources.push(("cushim_runtime".to_string(), None));
    for (stem, include) in sources {
        let object = dir.join(format!("{stem}.o"));
        let mut g = Command::new("g++");
        g.args([
            "-std=c++17",
            "-O0",
            "-fno-exceptions",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-c",
        ]);
        if let Some(include) = include {
            g.arg(format!("-I{}", include.display()));
        }
        run_ok(
            g.arg(format!("-I{}", root().join("headers/foreign").display()))
                .arg(format!("-I{}", generated.display()))
                .arg(generated.join(format!("{stem}.cpp")))
                .arg("-o")
                .arg(&object),
        );
        let undefined = run_ok(Command::new("nm").arg("-u").arg(&object));
        let cxx_runtime: Vec<&str> = undefined
            .lines()
            .filter_map(|l| l.split_whitespace().last())
            .filter(|s| {
                s.starts_with("_Z")
                    || s.starts_with("__cxa")
                    || s.starts_with("__gxx")
                    || s.starts_with("_Unwind")
            })
            .collect();
        assert!(
            cxx_runtime.is_empty(),
            "{stem}: the object needs the C++ runtime: {cxx_runtime:?}"
        );
        let sections = run_ok(Command::new("readelf").arg("-S").arg(&object));
        assert!(
            !sections.contains(".init_array"),
            "{stem}: a static is initialized at run time:\n{sections}"
        );
    }
}

/// NVRTC's pair, its runtime and `tests/cpp/load_status.cpp`, linked; the
/// program's path.
fn load_status_program() -> PathBuf {
    let library = cushim::library::by_name("nvrtc").unwrap();
    let release = "13.0";
    let dir = pair(
        "cpp-load-status",
        cushim::Builder::new()
            .library("nvrtc")
            .cuda_version(release),
    );
    let pin = cushim::pins::find_for(library, release.parse().unwrap()).unwrap();
    let include = cushim::fetch::library_include_dir(library, &pin).unwrap();
    let object = compile(&dir, "nvrtc", &include, &[]);
    let bin = dir.join("load_status");
    run_ok(
        Command::new("g++")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include.display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/load_status.cpp"))
            .arg(object)
            .arg(common::runtime_object(&dir))
            .args(["-ldl", "-pthread", "-o"])
            .arg(&bin),
    );
    bin
}

/// Runs `program ARGS` with only `env` set (and `PATH`), within 20 s.
fn run_clean(program: &std::path::Path, args: &[&str], env: &[(&str, &std::path::Path)]) -> String {
    let mut cmd = Command::new("timeout");
    cmd.arg("20").arg(program).args(args).env_clear();
    cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the program runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?}: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// After `cushim_<lib>_load()` fails, `last_status` and `last_message` say
/// why, as after a failed call; and a copy that was already loaded (as
/// cuBLAS's stubs load cuBLASLt from cuBLAS's directory) is reported by its
/// absolute path, not by the bare name that found it. (Issue 20, item 9:
/// before, the status stayed OK with an empty message, and the path was
/// `libnvrtc.so.13`.)
#[test]
fn a_failed_load_sets_the_last_status_and_an_adopted_copy_reports_its_file() {
    let bin = load_status_program();
    let missing = std::path::Path::new("/nonexistent/cushim/libnvrtc.so.13");
    let out = run_clean(&bin, &["load-fails"], &[("CUSHIM_NVRTC_LIBRARY", missing)]);
    assert!(
        out.contains("before: last_status=0 last_message=[]\n"),
        "{out}"
    );
    let load = out.lines().find(|l| l.starts_with("load=")).unwrap();
    assert!(
        load.starts_with("load=1 last_status=1 last_message=[NVRTC library not found; tried `/nonexistent/cushim/libnvrtc.so.13`"),
        "{out}"
    );
    for line in [
        "library_path=null last_status=1 noted=1",
        "library_version=0 last_status=1 noted=1",
        "resolve_all=-1 last_status=1 noted=1",
    ] {
        assert!(out.contains(line), "{line} in\n{out}");
    }

    let dir = common::scratch("cpp-load-status-lib");
    let lib = dir.join("libnvrtc.so.13");
    run_ok(
        Command::new("cc")
            .args([
                "-shared",
                "-fPIC",
                "-O1",
                "-Wl,-soname,libnvrtc.so.13",
                "-o",
            ])
            .arg(&lib)
            .arg(root().join("tests/fake/libnvrtc.c"))
            .args(["-DFAKE_MAJOR=13", "-DFAKE_MINOR=2"]),
    );
    let out = run_clean(&bin, &["preloaded", lib.to_str().unwrap()], &[]);
    assert_eq!(
        out,
        format!("load=0 path={} version=13020\n", lib.display())
    );
}

/// A driver whose constructor throws, inside the platform's loader
/// (RELIABILITY row 15; issue 20, item 9). glibc declares `dlopen`
/// `noexcept`, so the runtime's call into it ends the process with
/// `std::terminate` at once; the exception never reaches the caller, and no
/// thread is left waiting for glibc's loader lock, which the exception would
/// have left held (measured on glibc 2.36: with `dlopen` called through a
/// plain function pointer, the same thread's next `dlopen` succeeds and any
/// other thread's blocks forever). The README says which throws recover.
#[test]
fn a_driver_whose_constructor_throws_ends_the_program_instead_of_hanging_its_loader() {
    let (dir, object) = pair_13_5();
    let driver_dir = common::scratch("throwing-constructor-driver");
    let driver = driver_dir.join("libcuda.so.1");
    run_ok(
        Command::new("g++")
            .args(["-std=c++17", "-shared", "-fPIC", "-o"])
            .arg(&driver)
            .arg(root().join("tests/cpp/throwing_constructor_driver.cpp")),
    );
    let bin = driver_dir.join("throwing");
    run_ok(
        Command::new("g++")
            .args(CXXFLAGS)
            .arg(format!("-I{}", include_dir("13.5").display()))
            .arg(format!("-I{}", dir.display()))
            .arg(root().join("tests/cpp/throwing.cpp"))
            .arg(object)
            .arg(common::runtime_object(dir))
            .args(["-ldl", "-pthread", "-o"])
            .arg(&bin),
    );
    let out = Command::new("timeout")
        .arg("20")
        .arg(&bin)
        .env("CUSHIM_CUDA_LIBRARY", &driver)
        .output()
        .expect("the program runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    use std::os::unix::process::ExitStatusExt as _;
    assert_eq!(
        out.status.signal(),
        Some(6), // SIGABRT
        "std::terminate, not a hang (timeout's 124) nor a caught exception: {}\n{stdout}\n{stderr}",
        out.status
    );
    assert!(
        stderr.contains("terminate called after throwing an instance of 'std::runtime_error'")
            && stderr.contains("the driver's constructor failed"),
        "{stderr}"
    );
    assert_eq!(stdout, "", "nothing after the first load ran");
}
