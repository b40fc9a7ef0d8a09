//! With no argument: what the modules that `build.rs` generated hold in this
//! build, the target's (whether the driver's Windows-only `cuWGLGetDevice`
//! is a function of it, each library's file names). With `generate DIR`:
//! the same modules generated again into `DIR` by cushim on the machine the
//! program runs on; with `generate` alone, into `OUT_DIR`, as a build script
//! on that machine would. With `which`: where NVRTC's loader found its
//! library (`path=`), or why it found none (`error=`), then `ok: which`.

mod generate;

#[allow(dead_code)]
mod cuda {
    include!(concat!(env!("OUT_DIR"), "/cuda.rs"));
}

#[allow(dead_code)]
mod nvrtc {
    include!(concat!(env!("OUT_DIR"), "/nvrtc.rs"));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => report(),
        [command] if command == "which" => which(),
        [command, rest @ ..] if command == "generate" && rest.len() <= 1 => {
            let dir = rest.first().map(std::path::Path::new);
            if let Err(e) = generate::modules(dir) {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
        _ => {
            eprintln!("usage: cushim-cross [generate [DIR] | which]");
            std::process::exit(2);
        }
    }
}

/// One line a fact, `key: value`.
fn report() {
    println!("build script host: {}", env!("CUSHIM_CROSS_HOST"));
    println!("build script target: {}", env!("CUSHIM_CROSS_TARGET"));
    println!(
        "build script target os: {}",
        env!("CUSHIM_CROSS_CARGO_CFG_TARGET_OS")
    );
    let has = |functions: &[&cushim_runtime::Function], name: &str| {
        functions.iter().any(|f| f.name == name)
    };
    println!("driver names: {}", cuda::CUSHIM_INFO.names.join(" "));
    println!("driver functions: {}", cuda::FUNCTIONS.len());
    println!(
        "driver cuWGLGetDevice: {}",
        has(cuda::FUNCTIONS, "cuWGLGetDevice")
    );
    println!("driver cuInit: {}", has(cuda::FUNCTIONS, "cuInit"));
    println!("nvrtc names: {}", nvrtc::CUSHIM_INFO.names.join(" "));
    println!("nvrtc functions: {}", nvrtc::FUNCTIONS.len());
    // The Windows-only function is an item of the typed API there, and
    // answers as the others do without the library.
    #[cfg(windows)]
    {
        let mut device = 0;
        // SAFETY: a valid out-pointer; the handle is only passed on.
        let e = unsafe { cuda::Api::cuWGLGetDevice(&raw mut device, std::ptr::null_mut()) };
        println!("driver cuWGLGetDevice call: {e:?}");
    }
    // SAFETY: no pointer.
    let e = unsafe { cuda::Api::cuInit(0) };
    println!("driver cuInit call: {e:?}");
}

/// Where NVRTC's loader found its library, or why it found none.
fn which() {
    match nvrtc::CUSHIM_LIBRARY.get() {
        Ok(found) => println!("path={}", found.path()),
        Err(e) => println!("error={e}"),
    }
    println!("ok: which");
}
