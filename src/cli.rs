//! The `cushim` command line. The flags that decide the output are the
//! options table's ([`crate::options::GenerateArgs`]); this module adds the
//! commands and what they print.

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::builder::Builder;
use crate::diag::Error;
use crate::options::{GenerateArgs, Options, Source, SourceArgs, StreamMode};
use crate::pipeline::{generate as run_pipeline, load};
use crate::version::CudaVersion;
use crate::write::Outcome;
use crate::{fetch, pins};

/// The environment variables cushim and the code it generates read.
const ENVIRONMENT: &str = "\
Environment:
  CUSHIM_CACHE_DIR       where fetched headers go (else $XDG_CACHE_HOME/cushim, else ~/.cache/cushim)
  CUDA_PATH, CUDA_HOME   toolkit roots searched by `--cuda-path ''` (then /usr/local/cuda)
  LIBCLANG_PATH          the directory of libclang, when it is not found on its own
  CUSHIM_<LIB>_LIBRARY   absolute path of a library's file (CUSHIM_CUDA_LIBRARY for the driver,
                         CUSHIM_NVRTC_LIBRARY, ...), for `doctor` and generated code
  CUSHIM_PER_THREAD_DEFAULT_STREAM
                         1/true/on: per-thread default stream, 0/false/off: legacy,
                         for `doctor` and generated code";

#[derive(Parser, Debug)]
#[command(
    name = "cushim",
    version,
    about = "Generates lazy-loading Rust modules and C++ stubs for the CUDA libraries",
    after_help = ENVIRONMENT
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Generate the shim module (default: the newest pinned CUDA, into generated/cuda-<version>/)
    Generate(Box<GenerateArgs>),
    /// Print one row per function: name, symbol, proc name, ABI version, per-thread twin
    List(List),
    /// Download and check pinned headers into the cache
    Fetch(Fetch),
    /// Load this machine's copy of a library (the driver unless --lib says another) as the generated code does, and list the functions it lacks or is too old for; offline, from the data cushim ships
    Doctor(Doctor),
    /// Regenerate the generated files under a directory in memory and report stale ones (exit 3)
    Check(Check),
    /// The API difference between two CUDA releases or header sets
    Diff(DiffArgs),
    /// Write the data cushim ships (generated/data/*.weave): every pinned release's IR, types and rendered output
    Pinned(Pinned),
    /// Print a shell completion script, e.g. `cushim completions bash > ~/.local/share/bash-completion/completions/cushim`
    Completions(Completions),
    /// Print the man page (roff), e.g. `cushim man > cushim.1`
    Man,
}

#[derive(Args, Debug)]
pub struct Completions {
    /// The shell
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The old side: a pinned release (12.9), a header file, or a toolkit directory
    pub from: String,
    /// The new side, likewise
    pub to: String,
    /// Output format
    #[arg(long, value_enum, default_value = "text")]
    pub format: DiffFormat,
    #[arg(
        long,
        value_name = "NAME",
        default_value = "driver",
        help = format!("The library: {}", crate::library::names_for_help())
    )]
    pub lib: String,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffFormat {
    Text,
    Markdown,
    Json,
}

/// A diff side: a pinned release, a header file alone (with its
/// `cudaTypedefs.h` beside it when there is one), or a toolkit root or include
/// directory (every header of the library found there).
fn side(spec: &str, library: &'static crate::library::Library) -> Builder {
    let path = PathBuf::from(spec);
    let builder = Builder::new().library(library);
    if path.is_file() {
        let typedefs = path.with_file_name("cudaTypedefs.h");
        builder.header(&path, typedefs.is_file().then_some(typedefs))
    } else if path.is_dir() {
        builder.cuda_path(Some(path))
    } else {
        builder.cuda_version(spec)
    }
}

/// Writes `text` to standard output. A reader that went away (`cushim list |
/// head`) ends the output quietly; any other failure is an error.
fn out(text: &str) -> Result<(), Error> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::new(format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

fn diff_cmd(args: &DiffArgs) -> Result<(), Error> {
    let library = crate::options::library_named(&args.lib)?;
    let (a, _) = load(side(&args.from, library).checked_options()?)?;
    let (b, _) = load(side(&args.to, library).checked_options()?)?;
    let d = crate::diff::diff(&a, &b);
    // Said where neither side has ABI versions (a library such as cuBLAS).
    if let Some(note) = b
        .unversioned_note()
        .filter(|_| a.unversioned_note().is_some())
    {
        crate::diag::note!("note: {note}");
    }
    out(&match args.format {
        DiffFormat::Text => d.text(),
        DiffFormat::Markdown => d.markdown(),
        DiffFormat::Json => d.json(),
    })
}

#[derive(Args, Debug)]
pub struct Check {
    /// Where the generated (or vendored) files are
    #[arg(long, value_name = "DIR", default_value = "generated")]
    pub dir: PathBuf,
    /// A clang argument you trust for files that record it (repeatable); without it,
    /// a file that records clang arguments is refused, never regenerated
    #[arg(long = "clang-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub clang_args: Vec<String>,
    /// Trust files that record `--docs`: their pinned headers are fetched (pip, over
    /// the network) if not cached; without it, such a file is refused
    #[arg(long)]
    pub docs: bool,
}

#[derive(Args, Debug)]
pub struct Doctor {
    #[command(flatten)]
    pub source: SourceArgs,
    /// The stream mode to check (default: CUSHIM_PER_THREAD_DEFAULT_STREAM, else legacy)
    #[arg(long, value_parser = crate::options::word_parser::<StreamMode>())]
    pub stream: Option<StreamMode>,
    /// How the shims would reach the driver: proc-address and dlsym open it (the search is the
    /// same); runtime-entry-point finds the CUDA runtime and takes the driver from it
    #[arg(long, default_value = "proc-address", value_parser = crate::options::word_parser::<crate::options::Resolve>())]
    pub resolve: crate::options::Resolve,
}

#[derive(Args, Debug)]
pub struct List {
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Args, Debug)]
pub struct Fetch {
    #[command(flatten)]
    pub releases: Releases,
    #[arg(
        long,
        value_name = "NAME",
        default_value = "driver",
        help = format!(
            "Whose headers: {}, several (nvrtc,nvml) or all",
            crate::library::names_for_help()
        )
    )]
    pub lib: String,
}

#[derive(Args, Debug)]
pub struct Pinned {
    /// Releases to parse again from their headers, e.g. 13.5 (default: none;
    /// every release's rendered output is rewritten from the shipped IR)
    #[arg(value_name = "VERSION", conflicts_with = "all")]
    pub versions: Vec<String>,
    /// Parse every pinned release again from its headers
    #[arg(long)]
    pub all: bool,
    /// The directory of the weaves (the crate's own generated/data/)
    #[arg(long, value_name = "DIR", default_value = "generated/data")]
    pub out: PathBuf,
    /// The Rust runtime's opaque structs, written from the types of every library and release
    #[arg(
        long,
        value_name = "FILE",
        default_value = "cushim-runtime/src/opaque.rs"
    )]
    pub runtime: PathBuf,
    #[arg(
        long,
        value_name = "NAME",
        default_value = "all",
        help = format!(
            "Whose data: {}, several (nvrtc,nvml) or all (the default)",
            crate::library::names_for_help()
        )
    )]
    pub lib: String,
}

/// Which pinned releases a command works on.
#[derive(Args, Debug)]
pub struct Releases {
    /// Pinned releases, e.g. 13.5 (default: the newest pin)
    #[arg(value_name = "VERSION", conflicts_with = "all")]
    pub versions: Vec<String>,
    /// Every pinned release
    #[arg(long)]
    pub all: bool,
}

impl Releases {
    /// The releases named, of `library`'s pins.
    fn pins_of(&self, library: &crate::library::Library) -> Result<Vec<pins::Pin>, Error> {
        if self.all {
            return Ok(pins::all_for(library));
        }
        if self.versions.is_empty() {
            return pins::all_for(library)
                .pop()
                .map(|p| vec![p])
                .ok_or_else(|| Error::new(format!("no pinned release of {}", library.name)));
        }
        self.versions
            .iter()
            .map(|v| {
                let v: CudaVersion = v
                    .parse()
                    .map_err(|e: crate::version::InvalidVersion| Error::new(e.to_string()))?;
                pins::find_for(library, v)
            })
            .collect()
    }
}

/// `generate` for each library that `--lib` names, in the order given.
fn generate(args: &GenerateArgs) -> Result<(), Error> {
    for library in args.source.libraries()? {
        generate_library(args.all, &args.options_for(library)?)?;
    }
    Ok(())
}

/// `generate` for one library: one release, or with `--all` each release of
/// it that `generated/` commits (`pins::vendored_for`; and, for the driver,
/// the merged module).
fn generate_library(all: bool, options: &Options) -> Result<(), Error> {
    let library = options.library;
    if !all {
        return generate_one(options);
    }
    let root = options
        .out_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from("generated"));
    let pins = pins::vendored_for(library);
    for pin in &pins {
        generate_one(&Options {
            source: Source::Pinned(pin.cuda),
            out_dir: Some(root.join(pin.cuda.dir_name())),
            ..options.clone()
        })?;
    }
    let rust = options.languages.contains(&crate::options::Language::Rust);
    let driver = library.name == crate::library::DRIVER.name;
    if let (Some(first), Some(last), true, true) = (pins.first(), pins.last(), rust, driver) {
        generate_one(&Options {
            source: Source::Merged {
                from: first.cuda,
                to: last.cuda,
            },
            out_dir: Some(root.join("merged")),
            ..options.clone()
        })?;
    }
    Ok(())
}

fn generate_one(options: &Options) -> Result<(), Error> {
    let generated = run_pipeline(options)?;
    for d in generated.api.iter().flat_map(|a| &a.diagnostics) {
        crate::diag::note!("{d}");
    }
    let dir = options
        .out_dir
        .clone()
        .unwrap_or(generated.default_out_dir.clone());
    for outcome in crate::write::write_all(&dir, &generated.files)? {
        match outcome {
            Outcome::Written(p) => crate::diag::note!(
                "wrote {} ({} functions)",
                p.display(),
                generated.api.as_ref().map_or(0, |a| a.functions.len())
            ),
            Outcome::Unchanged(p) => crate::diag::note!("unchanged {}", p.display()),
        }
    }
    Ok(())
}

fn list(args: &List) -> Result<(), Error> {
    let (api, _) = load(&args.source.options()?)?;
    for d in &api.diagnostics {
        crate::diag::note!("{d}");
    }
    if let Some(note) = api.unversioned_note() {
        crate::diag::note!("note: {note}");
    }
    out(&crate::ir::table(&api))
}

fn check_cmd(args: &Check) -> i32 {
    let trust = crate::check::Trust {
        clang_args: args.clang_args.clone(),
        docs: args.docs,
    };
    let report = crate::check::check(&args.dir, &trust);
    let report = match report {
        Err(e) => {
            crate::diag::note!("{e}");
            return 1;
        }
        Ok(report) => report,
    };
    for (path, why) in &report.skipped {
        crate::diag::note!("cushim: not checked: `{}`: {why}", path.display());
    }
    let mut text = String::new();
    let code = if report.stale.is_empty() {
        text.push_str(&format!(
            "{} generated files are fresh\n",
            report.fresh.len()
        ));
        0
    } else {
        text.push_str(&format!(
            "{} of {} generated files are stale:\n",
            report.stale.len(),
            report.stale.len() + report.fresh.len()
        ));
        let mut fixes: Vec<&str> = Vec::new();
        for (path, fix) in &report.stale {
            text.push_str(&format!("  {}\n", path.display()));
            if !fixes.contains(&fix.as_str()) {
                fixes.push(fix);
            }
        }
        for m in &report.mixed {
            text.push_str(&format!("{m}\n"));
        }
        text.push_str("fix with:\n");
        for f in fixes {
            text.push_str(&format!("  {f}\n"));
        }
        crate::check::STALE_EXIT
    };
    match out(&text) {
        Ok(()) => code,
        Err(e) => {
            crate::diag::note!("{e}");
            1
        }
    }
}

fn doctor(args: &Doctor) -> Result<(), Error> {
    let mode = args
        .stream
        .or_else(cushim_runtime::stream_mode_from_environment)
        .unwrap_or(StreamMode::Legacy);
    let libraries = args.source.libraries()?;
    if let [library] = libraries.as_slice() {
        let (api, _) = load(&args.source.options_for(library)?)?;
        return out(&crate::doctor::report(&api, mode, args.resolve)?);
    }
    // Several: each library's report or error, and an error at the end if any failed.
    let mut unusable = Vec::new();
    for (i, library) in libraries.iter().enumerate() {
        let gap = if i > 0 { "\n" } else { "" };
        out(&format!(
            "{gap}== {} ({}) ==\n",
            library.words.label, library.name
        ))?;
        let report = args
            .source
            .options_for(library)
            .and_then(|options| load(&options))
            .and_then(|(api, _)| {
                // The runtime's entry point hands out the driver only; the others
                // are searched as their modules search.
                let resolve = if library.name == crate::library::DRIVER.name {
                    args.resolve
                } else {
                    crate::options::Resolve::ProcAddress
                };
                crate::doctor::report(&api, mode, resolve)
            });
        match report {
            Ok(text) => out(&text)?,
            Err(e) => {
                out(&format!("{e}\n"))?;
                unusable.push(library.name);
            }
        }
    }
    if unusable.is_empty() {
        return Ok(());
    }
    Err(Error::new(format!(
        "{} of {} libraries cannot be used here: {}",
        unusable.len(),
        libraries.len(),
        unusable.join(", ")
    ))
    .hint("each library's section above says why"))
}

fn fetch_cmd(args: &Fetch) -> Result<(), Error> {
    // Every (library, release) asked for; libraries that share their pins
    // (cuBLAS, cuBLASLt) share one cache entry, fetched once.
    let mut jobs: Vec<(&crate::library::Library, pins::Pin)> = Vec::new();
    for library in crate::options::select_libraries(&args.lib)? {
        for pin in args.releases.pins_of(library)? {
            let shared = jobs
                .iter()
                .any(|(l, p)| l.pins == library.pins && p.cuda == pin.cuda);
            if !shared {
                jobs.push((library, pin));
            }
        }
    }
    // pip locates each release's wheels at once, ahead of the fetches: one
    // Python start for the three wheels of cuBLAS's headers, not three.
    if jobs.len() > 1 || jobs.iter().any(|(_, pin)| pin.wheels.len() > 1) {
        fetch::locate_ahead(&jobs);
    }
    // A fetch mostly waits for pip and the network: a few run at once, and
    // their lines are printed in order.
    let results: Vec<Result<PathBuf, Error>> = std::thread::scope(|scope| {
        let mut results = Vec::new();
        for batch in jobs.chunks(4) {
            let handles: Vec<_> = batch
                .iter()
                .map(|(library, pin)| scope.spawn(move || fetch::library_include_dir(library, pin)))
                .collect();
            results.extend(handles.into_iter().map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::new("a fetch thread panicked")))
            }));
        }
        results
    });
    for ((library, pin), dir) in jobs.iter().zip(results) {
        let whose = if library.name == crate::library::DRIVER.name {
            String::new()
        } else {
            format!(" ({})", library.name)
        };
        out(&format!("CUDA {}{whose}: {}\n", pin.cuda, dir?.display()))?;
    }
    Ok(())
}

fn pinned_cmd(args: &Pinned) -> Result<(), Error> {
    let mut jobs = Vec::new();
    for library in crate::options::select_libraries(&args.lib)? {
        let fresh: Vec<CudaVersion> = if args.all {
            pins::all_for(library).iter().map(|p| p.cuda).collect()
        } else {
            let releases = Releases {
                versions: args.versions.clone(),
                all: false,
            };
            if args.versions.is_empty() {
                Vec::new()
            } else {
                releases.pins_of(library)?.iter().map(|p| p.cuda).collect()
            }
        };
        jobs.push((library, fresh));
    }
    // Each library's releases are parsed and rendered on their own: one
    // library a core at a time, written in order once all are done.
    let shipped = each_on_its_own_core(&jobs, |(library, fresh)| {
        crate::pipeline::ship(library, fresh)
    });
    let report = |outcomes: Vec<Outcome>| {
        for outcome in outcomes {
            match outcome {
                Outcome::Written(p) => crate::diag::note!("wrote {}", p.display()),
                Outcome::Unchanged(p) => crate::diag::note!("unchanged {}", p.display()),
            }
        }
    };
    let mut written = Vec::new();
    for files in shipped {
        let files = files?;
        report(crate::write::write_all(&args.out, &files)?);
        written.extend(files);
    }
    // The runtime's opaque structs, from the types just written (and the
    // shipped ones of the libraries not asked for).
    let fresh: Vec<(&str, &str)> = written
        .iter()
        .filter_map(|f| {
            let stem = f.name.strip_suffix(".types.rs.weave")?;
            Some((stem, f.contents.as_str()))
        })
        .collect();
    let source = crate::pinned::opaque_source(&fresh)?;
    let (dir, name) = match (args.runtime.parent(), args.runtime.file_name()) {
        (Some(dir), Some(name)) => (dir, name.to_string_lossy().into_owned()),
        _ => {
            return Err(Error::new(format!(
                "`--runtime {}` names no file",
                args.runtime.display()
            ))
            .hint("name the runtime's file, e.g. `cushim-runtime/src/opaque.rs`"))
        }
    };
    let dir = if dir.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        dir
    };
    let outcomes = crate::write::write_all(
        dir,
        &[crate::emit::File {
            name,
            contents: source.clone(),
        }],
    )?;
    if matches!(outcomes.first(), Some(Outcome::Written(_)))
        && !source.contains(&runtime_tags_line())
    {
        crate::diag::note!(
            "the runtime's opaque structs changed: build again and run `cushim pinned` once more, so that the modules re-export them"
        );
    }
    report(outcomes);
    Ok(())
}

/// The `TAGS` list of the runtime this build of cushim has, as the
/// runtime's file spells it: the structs its modules re-export.
fn runtime_tags_line() -> String {
    let tags: String = cushim_runtime::opaque::TAGS
        .iter()
        .map(|t| format!("    {t:?},\n"))
        .collect();
    format!("pub const TAGS: &[&str] = &[\n{tags}];\n")
}

/// `work` on every job, as many at once as the machine has cores; the
/// results in the jobs' order. A job whose thread panics answers an error.
fn each_on_its_own_core<J: Sync, T: Send>(
    jobs: &[J],
    work: impl Fn(&J) -> Result<T, Error> + Sync,
) -> Vec<Result<T, Error>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<Result<T, Error>>> = jobs.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..cores.min(jobs.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(job) = jobs.get(at) else { break done };
                        done.push((at, work(job)));
                    }
                })
            })
            .collect();
        for (at, result) in workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
        {
            results[at] = Some(result);
        }
    });
    results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(Error::new("a worker thread panicked"))))
        .collect()
}

fn completions(args: &Completions) -> Result<(), Error> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "cushim", &mut script);
    out(&String::from_utf8_lossy(&script))
}

fn man() -> Result<(), Error> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| Error::new(format!("cannot render the man page: {e}")))?;
    out(&String::from_utf8_lossy(&page))
}

/// Runs the CLI on `args` and returns the process exit code.
pub fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let result = match &cli.command {
        Command::Generate(g) => generate(g),
        Command::List(l) => list(l),
        Command::Fetch(f) => fetch_cmd(f),
        Command::Doctor(d) => doctor(d),
        Command::Check(c) => return check_cmd(c),
        Command::Diff(d) => diff_cmd(d),
        Command::Pinned(p) => pinned_cmd(p),
        Command::Completions(c) => completions(c),
        Command::Man => man(),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            crate::diag::note!("{e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Paths, FLAG_METHODS};

    /// The flags of `cushim generate` that set no option of the table.
    /// Example: `--all` runs the options once per release.
    const NOT_OPTIONS: &[&str] = &["--all", "--with-derive-default", "--help"];

    /// Walks the table of options, so that an option declared there is
    /// covered with no other change: each Builder call of its examples sets
    /// something, reaches `cushim generate` as arguments, and the real command
    /// line reads the same options back; every flag of `generate` belongs to
    /// an option whose examples write it; and every Builder method of the table
    /// is named by a flag, and every flag's method is one of the table's.
    #[test]
    fn every_declared_option_round_trips_through_the_command_line() {
        let mut written: Vec<String> = Vec::new();
        for (field, builder) in Builder::option_examples() {
            let options = builder
                .checked_options()
                .unwrap_or_else(|e| panic!("{field}: {e}"));
            assert_ne!(
                options,
                &Options::default(),
                "an example of `{field}` sets nothing"
            );
            let mut words: Vec<std::ffi::OsString> = vec!["cushim".into(), "generate".into()];
            words.extend(options.args(Paths::Exact, None));
            let cli = Cli::try_parse_from(&words).unwrap_or_else(|e| panic!("{words:?}: {e}"));
            let Command::Generate(g) = cli.command else {
                panic!("{words:?} is not `generate`")
            };
            let parsed = g.options().unwrap_or_else(|e| panic!("{words:?}: {e}"));
            assert_eq!(&parsed, options, "{field}: {words:?}");
            // The recorded command reads back the same, but for paths.
            let recorded = shell_words::split(&options.command(None)).unwrap();
            let again = crate::options::parse_generate(&recorded)
                .and_then(|g| g.options())
                .unwrap_or_else(|e| panic!("{recorded:?}: {e}"));
            assert_eq!(again.command(None), options.command(None), "{field}");
            written.extend(
                words
                    .iter()
                    .filter_map(|w| w.to_str())
                    .filter(|w| w.starts_with("--"))
                    .map(String::from),
            );
        }
        let command = Cli::command();
        let generate = command
            .find_subcommand("generate")
            .expect("`generate` is a subcommand");
        let flags: Vec<String> = generate
            .get_arguments()
            .filter_map(|a| a.get_long())
            .map(|long| format!("--{long}"))
            .filter(|flag| !NOT_OPTIONS.contains(&flag.as_str()))
            .collect();
        assert!(flags.len() > 20, "{flags:?}");
        for flag in &flags {
            assert!(
                FLAG_METHODS.iter().any(|(f, _)| f == flag),
                "`{flag}` names no Builder method in the table of options"
            );
            assert!(
                written.contains(flag),
                "no example in the table of options writes `{flag}`"
            );
        }
        for (flag, method) in FLAG_METHODS {
            assert!(flags.iter().any(|f| f == flag), "`{flag}` is not a flag");
            let method = method.trim_start_matches("Builder::");
            assert!(
                Builder::OPTION_METHODS.contains(&method),
                "`{flag}` names `{method}`, not a method of the table"
            );
        }
        for method in Builder::OPTION_METHODS {
            let named = format!("Builder::{method}");
            assert!(
                FLAG_METHODS.iter().any(|(_, m)| *m == named),
                "`{named}` has no flag: the command line cannot do what it does"
            );
        }
    }
}
