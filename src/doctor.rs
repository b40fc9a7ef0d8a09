//! `cushim doctor`: loads a library of this machine with the runtime that
//! generated modules use (the `cushim-runtime` crate), and reports what the
//! header's functions would bind to.

use std::ffi::CString;
use std::fmt::Write as _;

use crate::diag::Error;
use crate::ir::{Api, Function};
use crate::options::{Resolve, StreamMode};
use crate::version::CudaVersion;
use cushim_runtime::doctor::{Miss, Target};
use cushim_runtime::{version_text, Attempt, LibraryInfo, LoadError, Loaded};

/// Words of messages: `Install the NVIDIA driver` → `install the NVIDIA driver`.
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What the search saw: every candidate tried before the answer, and those
/// after it that the order left untried.
struct Seen {
    tried: Vec<Attempt>,
    not_tried: Vec<Attempt>,
}

/// The description the shims of `api` would load their library by: the
/// library's own, or for `--resolve runtime-entry-point` (the driver only)
/// the driver's, reached through the CUDA runtime's.
fn description(api: &Api, resolve: Resolve) -> Result<&'static LibraryInfo, Error> {
    let major = api.header_major()?;
    let info = crate::runtime::library_info(&api.library, major, cfg!(windows));
    if resolve != Resolve::RuntimeEntryPoint {
        return Ok(info);
    }
    if api.library.name != crate::library::DRIVER.name {
        return Err(Error::new(format!(
            "`--resolve runtime-entry-point` is for the driver only: the CUDA runtime's entry point hands out driver functions, not {}'s",
            api.library.words.label
        ))
        .hint("check the driver with it (`--lib driver`)"));
    }
    let (unix, windows) = crate::runtime::runtime_infos(major)?;
    let runtime = if cfg!(windows) { windows } else { unix };
    // One per process: doctor asks once.
    Ok(Box::leak(Box::new(LibraryInfo {
        resolve: cushim_runtime::Resolve::RuntimeEntryPoint(runtime),
        ..*info
    })))
}

/// The library as the shims of `api` would find it, or an error that says
/// why there is none; with what the search saw.
fn open(api: &Api, resolve: Resolve) -> Result<(Loaded, Seen, &'static LibraryInfo), Error> {
    let info = description(api, resolve)?;
    let search = cushim_runtime::doctor::search(info);
    let tried = search.tried;
    let not_tried = search.not_tried;
    let set = || {
        format!(
            "{}, or set {} to the absolute path of `{}`",
            lower_first(info.install),
            info.override_var,
            info.names.join("` or `")
        )
    };
    match search.found {
        Ok(found) => Ok((found, Seen { tried, not_tried }, info)),
        Err(LoadError::LibraryNotFound { tried, .. }) => {
            let attempts: Vec<String> = tried
                .iter()
                .map(|a| format!("`{}` ({})", a.name, a.error))
                .collect();
            Err(Error::new(format!(
                "no {}: cannot load {}",
                info.label,
                attempts.join(", ")
            ))
            .hint(set()))
        }
        Err(LoadError::StubLibrary { path, .. }) => Err(Error::new(format!(
            "`{path}` is NVIDIA's stub library, not a {} ({} answered the stub code)",
            info.short_name,
            info.version_function.to_string_lossy()
        ))
        .hint("remove the toolkit's lib64/stubs directory from LD_LIBRARY_PATH")),
        Err(LoadError::WrongMajor { found, .. }) => {
            let skipped: Vec<String> = tried
                .iter()
                .map(|a| format!("`{}` ({})", a.name, a.error))
                .collect();
            Err(Error::new(format!(
                "no {} {}.x: the only ones found are of another major: {}",
                info.label,
                info.major,
                skipped.join(", ")
            ))
            .hint(format!(
                "install the {}.x library, or regenerate from the {} headers ({})",
                info.major,
                version_text(found),
                set()
            )))
        }
        Err(LoadError::InvalidOverride { value, .. }) => Err(Error::new(format!(
            "{}=`{value}` is not an absolute path; relative paths are refused",
            info.override_var
        ))
        .hint(format!(
            "set {} to an absolute path, or unset it",
            info.override_var
        ))),
        Err(e @ LoadError::ThroughNotFound { .. }) => Err(Error::new(format!(
            "no {}: {e}",
            info.label
        ))
        .hint("without `--resolve runtime-entry-point`, doctor checks the driver the shims open themselves")),
        Err(e @ LoadError::NoEntryPoint { .. }) => Err(Error::new(format!(
            "no {}: {e}",
            info.label
        ))
        .hint("a CUDA runtime of 11.3 or later hands the driver out, where the NVIDIA driver is installed")),
        Err(other) => Err(Error::new(other.to_string())),
    }
}

fn number(v: Option<CudaVersion>) -> u32 {
    v.map_or(0, CudaVersion::number)
}

/// What one function binds to in `mode`: its symbol, ABI version and the miss, if any.
fn bind(library: &Loaded, f: &Function, mode: StreamMode) -> (String, u32, Option<Miss>) {
    let names = (
        CString::new(f.proc_name.as_str()),
        CString::new(f.symbol.as_str()),
        f.per_thread
            .as_ref()
            .map(|t| CString::new(t.symbol.as_str()))
            .transpose(),
    );
    let (Ok(proc_name), Ok(symbol), Ok(twin)) = names else {
        let why = Miss::NotFound("name contains NUL".into());
        return (f.symbol.clone(), number(f.version), Some(why));
    };
    let per_thread = f
        .per_thread
        .as_ref()
        .zip(twin.as_deref())
        .map(|(t, name)| (name, number(t.version)));
    let target = Target::new(&proc_name, (&symbol, number(f.version)), per_thread, mode);
    let miss = library
        .find(&target, cushim_runtime::Resolve::ProcAddress)
        .err();
    (
        target.symbol.to_string_lossy().into_owned(),
        target.version,
        miss,
    )
}

/// The search order, the override first: `override (CUSHIM_NVRTC_LIBRARY),
/// loaded, family, ...`, then what `LD_LIBRARY_PATH` holds that the system
/// loader would search relative to the working directory.
fn order(info: &LibraryInfo) -> (String, Option<String>) {
    let steps: Vec<String> = cushim_runtime::doctor::steps(info)
        .into_iter()
        .map(|step| {
            if step == "override" {
                format!("override ({})", info.override_var)
            } else if step == "system loader" && cfg!(unix) {
                "system loader (LD_LIBRARY_PATH, loader cache)".to_string()
            } else {
                step.to_string()
            }
        })
        .collect();
    // An empty entry is the working directory to the loader (an empty
    // value is no entry); `$ORIGIN` and its kin are the loader's own.
    let relative: Vec<String> = std::env::var_os("LD_LIBRARY_PATH")
        .filter(|v| cfg!(unix) && !v.is_empty())
        .map(|v| {
            v.to_string_lossy()
                .split(':')
                .filter(|e| !e.starts_with('/') && !e.starts_with('$'))
                .map(|e| format!("`{e}`"))
                .collect()
        })
        .unwrap_or_default();
    let warning = (!relative.is_empty()).then(|| {
        format!(
            "LD_LIBRARY_PATH has {} ({}): the system loader looks there relative to the working directory",
            if relative.len() == 1 {
                "an empty or relative entry"
            } else {
                "empty or relative entries"
            },
            relative.join(", ")
        )
    });
    (steps.join(", "), warning)
}

/// The rows of the candidates' table, in the search's order: each one
/// tried and why it lost, the one used, and each later one the order left
/// untried.
fn candidate_rows(library: &Loaded, seen: &Seen) -> Vec<[String; 3]> {
    let mut rows: Vec<[String; 3]> = seen
        .tried
        .iter()
        .map(|a| {
            [
                a.name.clone(),
                a.from.to_string(),
                format!("skipped: {}", a.error),
            ]
        })
        .collect();
    // A bare name: the file the loader took for it. Reached through the
    // runtime: the runtime's, which the search found.
    let (path, file, from) = match library.through() {
        Some(t) => (t.path(), t.file(), t.found_by()),
        None => (library.path(), library.file(), library.found_by()),
    };
    let used = match file {
        Some(file) if file.as_os_str() != path => {
            format!("used: `{}`", file.display())
        }
        _ => "used".to_string(),
    };
    rows.push([path.to_string(), from.to_string(), used]);
    rows.extend(
        seen.not_tried
            .iter()
            .map(|a| [a.name.clone(), a.from.to_string(), a.error.clone()]),
    );
    rows
}

/// The report, or an error when there is no usable library.
pub fn report(api: &Api, mode: StreamMode, resolve: Resolve) -> Result<String, Error> {
    let (library, seen, info) = open(api, resolve)?;
    // Never unloaded, as in a generated module: the library keeps running
    // what it started, and nothing it handed out may dangle.
    let library = &*Box::leak(Box::new(library));
    let mut out = String::new();
    let lookup = library.proc_address();
    let proc = match (info.proc_address, library.through()) {
        (_, Some(t)) if t.entry_point() == lookup => format!(
            "{lookup} of the {}, at each function's ABI version",
            t.info().label
        ),
        (Some((v2, _)), Some(t)) => format!(
            "{lookup}{}, handed out by the {}'s {}",
            if v2.to_bytes() == lookup.as_bytes() {
                ""
            } else {
                " (v1)"
            },
            t.info().label,
            t.entry_point()
        ),
        (Some((v2, _)), None) if v2.to_bytes() == lookup.as_bytes() => lookup.to_string(),
        (Some(_), None) if lookup != "none" => format!("{lookup} (v1)"),
        _ => "none (exact exports)".into(),
    };
    let line = |out: &mut String, key: &str, value: &str| {
        let key = format!("{key}:");
        let _ = writeln!(
            out,
            "{key:<18}{}{value}",
            if key.len() >= 18 { " " } else { "" }
        );
    };
    let file = library
        .file()
        .map_or_else(|| library.path().to_string(), |f| f.display().to_string());
    line(&mut out, "library", &file);
    if file == library.path() {
        line(&mut out, "found by", library.found_by());
    } else {
        line(
            &mut out,
            "found by",
            &format!("{}, as `{}`", library.found_by(), library.path()),
        );
    }
    if let Some(t) = library.through() {
        let file = t
            .file()
            .map_or_else(|| t.path().to_string(), |f| f.display().to_string());
        line(
            &mut out,
            "through",
            &format!(
                "the {} {} ({}) at `{file}`, found by {}; the driver itself is never opened (--resolve runtime-entry-point)",
                t.info().label,
                version_text(t.version()),
                t.version(),
                t.found_by()
            ),
        );
    }
    for sibling in library.siblings() {
        let outcome = match &sibling.skipped {
            None => format!("`{}` loaded", sibling.path),
            Some(why) => format!("`{}` not loaded: {why}", sibling.path),
        };
        line(&mut out, "opens by name", &outcome);
    }
    line(
        &mut out,
        &format!("{} version", info.short_name),
        &format!(
            "{} ({})",
            version_text(library.version()),
            library.version()
        ),
    );
    line(&mut out, "resolution", &proc);
    if !api.library.naming.per_thread_suffixes.is_empty() {
        line(
            &mut out,
            "stream mode",
            match mode {
                StreamMode::Legacy => "legacy (flag 1)",
                StreamMode::PerThread => "per-thread (flag 2 for _ptds/_ptsz variants)",
            },
        );
    }
    let mut rows = Vec::new();
    // Only this system's functions (not `cuWGLGetDevice` on Linux).
    let here: Vec<&Function> = api
        .functions
        .iter()
        .filter(|f| f.is_for_this_system())
        .collect();
    for f in &here {
        let (symbol, version, miss) = bind(library, f, mode);
        let why = match miss {
            None => continue,
            Some(Miss::TooOld) => format!(
                "{short} too old: needs {}, {short} is {}",
                version_text(version),
                version_text(library.version()),
                short = info.short_name
            ),
            Some(Miss::VersionNotSufficient) => {
                format!(
                    "version not sufficient: {} lacks the {} ABI",
                    info.short_name,
                    version_text(version)
                )
            }
            Some(Miss::NotFound(how)) => format!("missing ({how})"),
        };
        rows.push([f.name.clone(), symbol, version.to_string(), why]);
    }
    let _ = writeln!(
        out,
        "header:           CUDA {}, {} functions; {} available, {} not",
        api.release,
        here.len(),
        here.len() - rows.len(),
        rows.len()
    );
    if !rows.is_empty() {
        out.push('\n');
        let mut table = vec![["function", "symbol", "ABI", "why"].map(String::from)];
        table.extend(rows);
        out.push_str(&crate::columns::columns(&table));
    }
    // The order, and every place the search looked: why each before the
    // one used lost, and which later copies the order left untried.
    // The search is the runtime's when the driver is reached through it.
    let searched = library.through().map_or(info, |t| t.info());
    let (steps, warning) = order(searched);
    out.push('\n');
    line(&mut out, "search order", &steps);
    if let Some(warning) = warning {
        line(&mut out, "warning", &warning);
    }
    out.push('\n');
    let mut table = vec![["candidate", "from", "outcome"].map(String::from)];
    table.extend(candidate_rows(library, &seen));
    out.push_str(&crate::columns::columns(&table));
    Ok(out)
}
