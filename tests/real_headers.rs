//! The IR of the real pinned headers (fetched into the cache on first use):
//! counts, and the version table facts that the real driver was checked against.

use cushim::ir::Api;

fn api(version: &str) -> Api {
    let b = cushim::Builder::new().cuda_version(version);
    cushim::load(b.options())
        .unwrap_or_else(|e| panic!("CUDA {version}: {e}"))
        .0
}

fn find<'a>(api: &'a Api, name: &str) -> &'a cushim::ir::Function {
    api.functions
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn function_counts_and_clean_version_tables() {
    for (version, count) in [("11.8", 400), ("12.9", 484), ("13.5", 524)] {
        let api = api(version);
        assert_eq!(api.functions.len(), count, "CUDA {version}");
        let diagnostics: Vec<String> = api.diagnostics.iter().map(|d| d.to_string()).collect();
        assert!(diagnostics.is_empty(), "CUDA {version}: {diagnostics:#?}");
        for f in &api.functions {
            let v = f
                .version
                .unwrap_or_else(|| panic!("{version} {}: no version", f.symbol))
                .number();
            assert!((2000..=13050).contains(&v), "{}: {v}", f.symbol);
            let p = &f.proc_name;
            assert!(!p.ends_with("_ptds") && !p.ends_with("_ptsz"), "{p}");
            if let Some((_, n)) = p.rsplit_once("_v") {
                // A suffix stays in the base name only where PFN_<name>_v<version> confirms it.
                assert!(
                    !n.chars().all(|c| c.is_ascii_digit()) || p == &f.symbol,
                    "{p}"
                );
            }
            if let Some(t) = &f.per_thread {
                assert!(
                    t.symbol.ends_with("_ptds") || t.symbol.ends_with("_ptsz"),
                    "{}",
                    t.symbol
                );
                assert!(t.version.is_some(), "{}: twin without a version", t.symbol);
            }
        }
    }
}

#[test]
fn known_entries_of_the_13_5_table() {
    let api = api("13.5");
    let row = |name: &str| {
        let f = find(&api, name);
        (
            f.symbol.clone(),
            f.proc_name.clone(),
            f.version.map(|v| v.number()),
            f.per_thread
                .as_ref()
                .map(|t| (t.symbol.clone(), t.version.map(|v| v.number()))),
        )
    };
    assert_eq!(
        row("cuCtxCreate"),
        (
            "cuCtxCreate_v4".into(),
            "cuCtxCreate".into(),
            Some(12050),
            None
        )
    );
    assert_eq!(
        row("cuMemAlloc"),
        (
            "cuMemAlloc_v2".into(),
            "cuMemAlloc".into(),
            Some(3020),
            None
        )
    );
    assert_eq!(
        row("cuMemcpyHtoD"),
        (
            "cuMemcpyHtoD_v2".into(),
            "cuMemcpyHtoD".into(),
            Some(3020),
            Some(("cuMemcpyHtoD_v2_ptds".into(), Some(7000)))
        )
    );
    assert_eq!(
        row("cuLaunchKernel"),
        (
            "cuLaunchKernel".into(),
            "cuLaunchKernel".into(),
            Some(4000),
            Some(("cuLaunchKernel_ptsz".into(), Some(7000)))
        )
    );
    assert_eq!(row("cuEventElapsedTime").0, "cuEventElapsedTime_v2");
    assert_eq!(row("cuEventElapsedTime").2, Some(12080));
    assert_eq!(row("cuDeviceGetUuid").2, Some(11040));
    let graph = find(&api, "cuGraphInstantiate");
    assert_eq!(graph.symbol, "cuGraphInstantiateWithFlags");
    // The interop headers follow the same rule: `_v2` legacy pairs and twins.
    assert_eq!(row("cuGLGetDevices").0, "cuGLGetDevices_v2");
    assert_eq!(row("cuGLGetDevices").2, Some(6050));
    assert_eq!(row("cuGLCtxCreate").0, "cuGLCtxCreate_v2");
    assert_eq!(row("cuVDPAUCtxCreate").0, "cuVDPAUCtxCreate_v2");
    assert_eq!(row("cuVDPAUCtxCreate").2, Some(3020));
    assert_eq!(
        row("cuGLMapBufferObjectAsync"),
        (
            "cuGLMapBufferObjectAsync_v2".into(),
            "cuGLMapBufferObjectAsync".into(),
            Some(3020),
            Some(("cuGLMapBufferObjectAsync_v2_ptsz".into(), Some(7000)))
        )
    );
    assert_eq!(row("cuProfilerStart").2, Some(4000));
    assert_eq!(
        find(&api, "cuGraphicsGLRegisterBuffer").header(),
        "cudaGL.h"
    );
    assert_eq!(
        find(&api, "cuEGLStreamProducerPresentFrame").header(),
        "cudaEGL.h"
    );
    // Independently of clang: every `#define cuX __CUDA_API_PTDS(...)`/`PTSZ`
    // of the library's headers.
    let pin = cushim::pins::find("13.5".parse().unwrap()).unwrap();
    let include = cushim::fetch::include_dir(&pin).unwrap();
    let header: String = cushim::library::DRIVER
        .headers
        .iter()
        .map(|h| std::fs::read_to_string(include.join(h.name)).unwrap())
        .collect();
    let mut from_macros: Vec<&str> = header
        .lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            match (w.next(), w.next(), w.next()) {
                (Some("#define"), Some(name), Some(body)) if body.starts_with("__CUDA_API_PT") => {
                    Some(name)
                }
                _ => None,
            }
        })
        .collect();
    from_macros.sort_unstable();
    let mut twins: Vec<&str> = api
        .functions
        .iter()
        .filter(|f| f.per_thread.is_some())
        .map(|f| f.name.as_str())
        .collect();
    twins.sort_unstable();
    assert_eq!(twins, from_macros);
    assert_eq!(twins.len(), 95);
    assert!(find(&api, "cuCtxAttach").deprecated);
}
