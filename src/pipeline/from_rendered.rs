//! Without the `emit` feature: the output that cushim ships rendered for each
//! pinned release and for the merged module, with default options. Any other
//! option needs the emitters, and says so.

use super::Generated;
use crate::diag::Error;
use crate::emit::File;
use crate::options::{Language, Options, Source};
use crate::pinned;
use crate::pins;
use crate::version::Release;

/// The flags that shipped output can serve: the library, the release and the
/// languages.
const SERVED: &[&str] = &["--lib", "--cuda", "--merged", "--lang"];

pub(super) fn generate(options: &Options) -> Result<Generated, Error> {
    if let Some(flag) = options.first_flag_besides(SERVED) {
        return Err(Error::new(
            "an option beyond the library, the release and the languages needs the emitters, which this build of cushim leaves out",
        )
        .hint(format!(
            "turn on cushim's `emit` feature in [build-dependencies] for `{flag}`"
        )));
    }
    let library = options.library;
    let all = pins::all();
    let (release, files) = match options.source {
        Source::Default | Source::Pinned(_) => {
            let pin = match options.source {
                Source::Pinned(v) => pins::find_for(library, v)?,
                _ => pins::default_pin(),
            };
            let files = pinned::release(library, pin.cuda).ok_or_else(|| {
                Error::new(format!(
                    "this build of cushim ships no output of {} for CUDA {}",
                    library.words.label, pin.cuda
                ))
            })??;
            (Release::One(pin.cuda), files)
        }
        Source::Merged { from, to } => {
            if library.name != crate::library::DRIVER.name {
                return Err(Error::new(format!(
                    "merging releases is for the driver only so far, not {}",
                    library.name
                ))
                .hint("name one release, e.g. `--cuda 13.5`"));
            }
            let (first, last) = (all.first().map(|p| p.cuda), all.last().map(|p| p.cuda));
            if (Some(from), Some(to)) != (first, last) {
                return Err(Error::new(format!(
                    "the merged module that cushim ships spans every pinned release, not {from}..{to}"
                ))
                .hint("turn on cushim's `emit` feature in [build-dependencies] for other ranges (`--cuda FROM..TO --merged`)"));
            }
            let (name, text) = pinned::merged();
            (
                Release::Range(from, to),
                vec![(name.to_string(), text.to_string())],
            )
        }
        Source::Toolkit(_) | Source::Files { .. } => {
            return Err(Error::new(
                "reading headers needs libclang, which this build of cushim leaves out",
            )
            .hint(format!("turn on {}", super::PARSE_NEEDS)));
        }
    };
    let command = options.command(match release {
        Release::One(v) => Some(v),
        _ => None,
    });
    // In the emitters' order: each language as asked, the C++ header first.
    let mut out = Vec::new();
    for lang in &options.languages {
        for (name, text) in &files {
            let ours = match lang {
                Language::Rust => name.ends_with(".rs"),
                Language::Cpp => !name.ends_with(".rs"),
            };
            if ours && !out.iter().any(|f: &File| f.name == *name) {
                out.push(File {
                    name: name.clone(),
                    contents: pinned::with_command(text, &command),
                });
            }
        }
    }
    Ok(Generated {
        api: None,
        files: out,
        inputs: Vec::new(),
        default_out_dir: super::default_out_dir(release),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pinned(version: &str) -> Options {
        Options {
            source: Source::Pinned(version.parse().unwrap()),
            ..Options::default()
        }
    }

    #[test]
    fn a_pinned_release_is_its_rendered_files_with_the_asked_command() {
        let rust = Options {
            languages: vec![Language::Rust],
            ..pinned("12.4")
        };
        let generated = super::super::generate(&rust).unwrap();
        let names: Vec<&str> = generated.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["cuda.rs"]);
        assert!(generated.files[0]
            .contents
            .contains("// Regenerate with: cushim generate --cuda 12.4 --lang rust\n"));
        let both = super::super::generate(&pinned("13.5")).unwrap();
        let names: Vec<&str> = both.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "cuda.rs",
                "cuda_shim.h",
                "cuda_shim.cpp",
                "cushim_runtime.h",
                "cushim_runtime.cpp"
            ]
        );
    }

    /// Every library's every pinned release is served, with its own names.
    #[test]
    fn every_library_is_served_for_each_of_its_releases() {
        for library in crate::library::LIBRARIES {
            for pin in pins::all_for(library) {
                let options = Options {
                    library,
                    ..pinned(&pin.cuda.to_string())
                };
                let generated = super::super::generate(&options).unwrap();
                let names: Vec<&str> = generated.files.iter().map(|f| f.name.as_str()).collect();
                let stem = library.stem;
                assert_eq!(
                    names[..3],
                    [
                        format!("{stem}.rs"),
                        format!("{stem}_shim.h"),
                        format!("{stem}_shim.cpp")
                    ],
                    "{} {}",
                    library.name,
                    pin.cuda
                );
                let rust = &generated.files[0].contents;
                assert!(
                    rust.contains(&format!("// CUDA {};", pin.cuda)),
                    "{}",
                    &rust[..400]
                );
            }
        }
        let nvjitlink = Options {
            library: &crate::library::NVJITLINK,
            ..pinned("11.8")
        };
        let e = super::super::generate(&nvjitlink).unwrap_err().to_string();
        assert!(e.contains("12.0"), "{e}");
    }

    #[test]
    fn an_option_that_needs_the_emitters_says_so() {
        let allow = Options {
            allow: Some("^cuInit$".into()),
            ..pinned("13.5")
        };
        let e = super::super::generate(&allow).unwrap_err().to_string();
        assert!(e.contains("needs the emitters"), "{e}");
        assert!(
            e.contains("`emit` feature in [build-dependencies] for `--allow`"),
            "{e}"
        );
        assert!(e.contains("`emit` feature"), "{e}");
        let range = Options {
            source: Source::Merged {
                from: "12.0".parse().unwrap(),
                to: "13.5".parse().unwrap(),
            },
            ..Options::default()
        };
        let e = super::super::generate(&range).unwrap_err().to_string();
        assert!(
            e.contains("spans every pinned release, not 12.0..13.5"),
            "{e}"
        );
    }
}
