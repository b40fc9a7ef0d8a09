//! The `cushim` command line. Each flag maps to one [`Builder`] call.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::diag::Error;
use crate::write::Outcome;
use crate::{fetch, pins, Builder, Language};

#[derive(Parser, Debug)]
#[command(
    name = "cushim",
    version,
    about = "Generates lazy-loading Rust shims for the CUDA driver API"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Generate the shim module (default: the newest pinned CUDA, into generated/cuda-<version>/)
    Generate(Generate),
    /// Print one row per function: name, symbol, proc name, ABI version, per-thread twin
    List(List),
    /// Download and check pinned headers into the cache
    Fetch(Fetch),
    /// Load this machine's driver and list the header's functions it lacks or is too old for
    Doctor(Doctor),
    /// Regenerate the generated files under a directory in memory and report stale ones (exit 3)
    Check(Check),
    /// The API difference between two CUDA releases or header sets
    Diff(DiffArgs),
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
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffFormat {
    Text,
    Markdown,
    Json,
}

/// A diff side: a pinned release, a header file (with its `cudaTypedefs.h`
/// beside it when there is one), or a toolkit directory.
fn side(spec: &str) -> Builder {
    let path = PathBuf::from(spec);
    if path.is_file() {
        let typedefs = path.with_file_name("cudaTypedefs.h");
        Builder::new().header(&path, typedefs.is_file().then_some(typedefs))
    } else if path.is_dir() {
        let include = if path.join("include/cuda.h").is_file() {
            path.join("include")
        } else {
            path
        };
        Builder::new().header(include.join("cuda.h"), Some(include.join("cudaTypedefs.h")))
    } else {
        Builder::new().cuda_version(spec)
    }
}

fn diff_cmd(args: &DiffArgs) -> Result<(), Error> {
    let (a, _) = crate::load(side(&args.from).options())?;
    let (b, _) = crate::load(side(&args.to).options())?;
    let d = crate::diff::diff(&a, &b);
    print!(
        "{}",
        match args.format {
            DiffFormat::Text => d.text(),
            DiffFormat::Markdown => d.markdown(),
            DiffFormat::Json => d.json(),
        }
    );
    Ok(())
}

#[derive(Args, Debug)]
pub struct Check {
    /// Where the generated (or vendored) files are
    #[arg(long, value_name = "DIR", default_value = "generated")]
    pub dir: PathBuf,
}

#[derive(Args, Debug)]
pub struct Doctor {
    #[command(flatten)]
    pub source: SourceArgs,
    /// The stream mode to check (default: CUSHIM_PER_THREAD_DEFAULT_STREAM, else legacy)
    #[arg(long, value_enum)]
    pub stream: Option<StreamArg>,
}

/// Where the headers come from. At most one of these.
#[derive(Args, Debug, Clone)]
pub struct SourceArgs {
    /// A pinned CUDA release, e.g. 13.5 (default: the newest pin)
    #[arg(long, value_name = "VERSION", group = "source")]
    pub cuda: Option<String>,
    /// Every pinned release, each into <out>/cuda-<version>, and the merged module into <out>/merged (default out: generated)
    #[arg(long, group = "source")]
    pub all: bool,
    /// With `--cuda FROM..TO`: one module for every release in the range
    #[arg(long)]
    pub merged: bool,
    /// A local CUDA toolkit root (use `--cuda-path ''` to search CUDA_PATH, CUDA_HOME, /usr/local/cuda)
    #[arg(long, value_name = "DIR", group = "source")]
    pub cuda_path: Option<PathBuf>,
    /// An explicit header that declares the functions
    #[arg(long, value_name = "FILE", group = "source")]
    pub header: Option<PathBuf>,
    /// The PFN typedef header that goes with --header
    #[arg(long, value_name = "FILE", requires = "header")]
    pub typedefs: Option<PathBuf>,
    /// Keep only functions whose C name matches this regex
    #[arg(long, value_name = "REGEX")]
    pub allow: Option<String>,
    /// Drop functions whose C name matches this regex
    #[arg(long, value_name = "REGEX")]
    pub block: Option<String>,
    /// An extra argument for clang, e.g. -I/opt/include (repeatable)
    #[arg(long = "clang-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub clang_args: Vec<String>,
}

#[derive(Args, Debug)]
pub struct Generate {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Output directory (default: generated/cuda-<version>)
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Output languages, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = "rust,cpp")]
    pub lang: Vec<LangArg>,
    /// C++: export `<PREFIX>cuMemAlloc_v2` instead of drop-in names (for programs that also link libcuda)
    #[arg(long, value_name = "PREFIX")]
    pub prefix: Option<String>,
    /// Copy each function's brief doc from the header into the output
    #[arg(long)]
    pub docs: bool,
    /// How shims find driver functions
    #[arg(long, value_enum, default_value = "proc-address")]
    pub resolve: ResolveArg,
    /// The default-stream mode shims bind unless the program chooses at run time
    #[arg(long, value_enum, default_value = "legacy")]
    pub stream: StreamArg,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveArg {
    /// cuGetProcAddress_v2 with each function's ABI version, then v1, then the exact export
    ProcAddress,
    /// The exact versioned export only
    Dlsym,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamArg {
    Legacy,
    PerThread,
}

#[derive(Args, Debug)]
pub struct List {
    #[command(flatten)]
    pub source: SourceArgs,
}

#[derive(Args, Debug)]
pub struct Fetch {
    /// Releases to fetch (default: the newest pin)
    #[arg(value_name = "VERSION", conflicts_with = "all")]
    pub versions: Vec<String>,
    /// Fetch every pinned release
    #[arg(long)]
    pub all: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LangArg {
    Rust,
    Cpp,
}

impl SourceArgs {
    /// The Builder these flags describe.
    pub fn builder(&self) -> Builder {
        let mut b = Builder::new();
        if let Some(v) = &self.cuda {
            b = match v.split_once("..") {
                Some((from, to)) if self.merged => b.cuda_range(from, to),
                _ => b.cuda_version(v),
            };
        }
        if let Some(p) = &self.cuda_path {
            b = b.cuda_path((!p.as_os_str().is_empty()).then(|| p.clone()));
        }
        if let Some(h) = &self.header {
            b = b.header(h, self.typedefs.clone());
        }
        if let Some(r) = &self.allow {
            b = b.allowlist(r);
        }
        if let Some(r) = &self.block {
            b = b.blocklist(r);
        }
        for a in &self.clang_args {
            b = b.clang_arg(a);
        }
        b
    }
}

impl Generate {
    pub fn builder(&self) -> Builder {
        let mut b = self.source.builder().docs(self.docs);
        let langs: Vec<Language> = self
            .lang
            .iter()
            .map(|l| match l {
                LangArg::Rust => Language::Rust,
                LangArg::Cpp => Language::Cpp,
            })
            .collect();
        b = b.languages(&langs);
        if let Some(o) = &self.out {
            b = b.out_dir(o);
        }
        if let Some(p) = &self.prefix {
            b = b.cpp_prefix(p);
        }
        b.resolve(match self.resolve {
            ResolveArg::ProcAddress => crate::Resolve::ProcAddress,
            ResolveArg::Dlsym => crate::Resolve::Dlsym,
        })
        .stream(match self.stream {
            StreamArg::Legacy => crate::StreamMode::Legacy,
            StreamArg::PerThread => crate::StreamMode::PerThread,
        })
    }
}

fn generate(args: &Generate) -> Result<(), Error> {
    if args.source.all {
        let root = args
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from("generated"));
        let all = pins::all();
        for pin in &all {
            let mut one = args.builder().cuda_version(&pin.cuda);
            one = one.out_dir(root.join(format!("cuda-{}", pin.cuda)));
            generate_one(&one)?;
        }
        if let (Some(first), Some(last)) = (all.first(), all.last()) {
            let merged = args
                .builder()
                .cuda_range(&first.cuda, &last.cuda)
                .out_dir(root.join("merged"));
            generate_one(&merged)?;
        }
        return Ok(());
    }
    generate_one(&args.builder())
}

fn generate_one(builder: &Builder) -> Result<(), Error> {
    let generated = crate::generate(builder.options())?;
    for d in &generated.api.diagnostics {
        eprintln!("{d}");
    }
    let dir = builder
        .options()
        .out_dir
        .clone()
        .unwrap_or(generated.default_out_dir.clone());
    for outcome in crate::write::write_all(&dir, &generated.files)? {
        match outcome {
            Outcome::Written(p) => eprintln!(
                "wrote {} ({} functions)",
                p.display(),
                generated.api.functions.len()
            ),
            Outcome::Unchanged(p) => eprintln!("unchanged {}", p.display()),
        }
    }
    Ok(())
}

fn list(args: &List) -> Result<(), Error> {
    let (api, _) = crate::load(args.source.builder().options())?;
    for d in &api.diagnostics {
        eprintln!("{d}");
    }
    print!("{}", crate::ir::table(&api));
    Ok(())
}

fn check_cmd(args: &Check) -> i32 {
    match crate::check::check(&args.dir) {
        Err(e) => {
            eprintln!("{e}");
            1
        }
        Ok(report) if report.stale.is_empty() => {
            println!("{} generated files are fresh", report.fresh.len());
            0
        }
        Ok(report) => {
            println!(
                "{} of {} generated files are stale:",
                report.stale.len(),
                report.stale.len() + report.fresh.len()
            );
            let mut fixes: Vec<&str> = Vec::new();
            for (path, fix) in &report.stale {
                println!("  {}", path.display());
                if !fixes.contains(&fix.as_str()) {
                    fixes.push(fix);
                }
            }
            println!("fix with:");
            for f in fixes {
                println!("  {f}");
            }
            crate::check::STALE_EXIT
        }
    }
}

fn doctor(args: &Doctor) -> Result<(), Error> {
    let (api, _) = crate::load(args.source.builder().options())?;
    let mode = match args.stream {
        Some(StreamArg::PerThread) => crate::StreamMode::PerThread,
        Some(StreamArg::Legacy) => crate::StreamMode::Legacy,
        None => crate::doctor::stream_mode_from_env().unwrap_or(crate::StreamMode::Legacy),
    };
    print!("{}", crate::doctor::report(&api, mode)?);
    Ok(())
}

fn fetch_cmd(args: &Fetch) -> Result<(), Error> {
    let pins = if args.all {
        pins::all()
    } else if args.versions.is_empty() {
        vec![pins::default_pin()]
    } else {
        args.versions
            .iter()
            .map(|v| pins::find(v))
            .collect::<Result<_, _>>()?
    };
    for pin in pins {
        let dir = fetch::include_dir(&pin)?;
        println!("CUDA {}: {}", pin.cuda, dir.display());
    }
    Ok(())
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
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
