//! The pinned CUDA releases (`headers/pins.txt`), compiled into the tool so
//! that `build.rs` users need no file of ours at run time.

use crate::diag::Error;
use crate::version::CudaVersion;

/// The driver's pin file, which names the CUDA releases.
const PINS: &str = crate::library::DRIVER.pin_text;

/// One pinned wheel. Example: `nvidia-cuda-runtime 13.5.37 df2b…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wheel {
    /// Example: `nvidia-cuda-runtime`.
    pub name: String,
    /// Example: `13.5.37`.
    pub version: String,
    /// sha256 of the manylinux x86_64 wheel.
    pub sha256: String,
}

impl Wheel {
    /// What `pip` is asked for. Example: `nvidia-cuda-runtime==13.5.37`.
    pub fn spec(&self) -> String {
        format!("{}=={}", self.name, self.version)
    }
}

/// One pinned release: the wheels that together carry its headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// Example: `13.5`.
    pub cuda: CudaVersion,
    /// In the order the pin file lists them. Example: the runtime wheel, then
    /// the profiler wheel.
    pub wheels: Vec<Wheel>,
}

/// Every pin of the driver, oldest first. A release's wheels may be on several lines.
pub fn all() -> Vec<Pin> {
    parse(PINS)
}

/// Every pin of `library`, oldest first (none for a library without a pin file).
pub fn all_for(library: &crate::library::Library) -> Vec<Pin> {
    parse(library.pin_text)
}

/// The releases whose rendered output `generated/` commits for `library`,
/// for users to vendor: the newest of each major, and 13.0 (the first of the
/// newest major, that the newest driver of the time serves). The crate's
/// shipped data (`generated/data/`) serves every pinned release.
pub fn vendored_for(library: &crate::library::Library) -> Vec<Pin> {
    let pins = all_for(library);
    let major = |p: &Pin| p.cuda.number() / 1000;
    let first_of_13 = pins.iter().position(|p| major(p) == 13);
    (0..pins.len())
        .filter(|&i| {
            let newest = i + 1 == pins.len() || major(&pins[i + 1]) != major(&pins[i]);
            newest || Some(i) == first_of_13
        })
        .map(|i| pins[i].clone())
        .collect()
}

/// The pin of `library` for `cuda`, or an error that lists its pinned releases.
pub fn find_for(library: &crate::library::Library, cuda: CudaVersion) -> Result<Pin, Error> {
    let pins = all_for(library);
    pins.iter()
        .find(|p| p.cuda == cuda)
        .cloned()
        .ok_or_else(|| {
            let known: Vec<String> = pins.iter().map(|p| p.cuda.to_string()).collect();
            let known = known.join(", ");
            // Everything another release needs, said once.
            let local = "or point `--cuda-path` (`Builder::cuda_path`) at a local toolkit of that release, which needs cushim's `parse` feature and libclang";
            if library.name == crate::library::DRIVER.name {
                Error::new(format!("unknown CUDA version `{cuda}`"))
                    .hint(format!("pinned releases: {known}; {local}"))
            } else {
                Error::new(format!(
                    "no pinned {} headers for CUDA `{cuda}`",
                    library.name
                ))
                .hint(format!(
                    "pinned releases of {}: {known}; {local}",
                    library.name
                ))
            }
        })
}

fn parse(text: &str) -> Vec<Pin> {
    let mut pins: Vec<Pin> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let [cuda, name, version, sha256] = f.as_slice() else {
            continue;
        };
        let Ok(cuda) = cuda.parse::<CudaVersion>() else {
            continue;
        };
        let wheel = Wheel {
            name: (*name).to_string(),
            version: (*version).to_string(),
            sha256: (*sha256).to_string(),
        };
        match pins.last_mut() {
            Some(last) if last.cuda == cuda => last.wheels.push(wheel),
            _ => pins.push(Pin {
                cuda,
                wheels: vec![wheel],
            }),
        }
    }
    pins
}

/// The newest pin: the default release.
pub fn default_pin() -> Pin {
    all()
        .pop()
        .expect("headers/pins.txt lists at least one release")
}

/// The pin for `cuda` (`13.5`), or an error that lists the pinned releases.
pub fn find(cuda: CudaVersion) -> Result<Pin, Error> {
    find_for(&crate::library::DRIVER, cuda)
}

/// The pinned releases from `from` to `to`, oldest first.
pub fn range(from: CudaVersion, to: CudaVersion) -> Result<Vec<Pin>, Error> {
    let (first, last) = (find(from)?, find(to)?);
    if first.cuda > last.cuda {
        return Err(Error::new(format!("the range {from}..{to} is empty"))
            .hint("write the older release first"));
    }
    Ok(all()
        .into_iter()
        .filter(|p| p.cuda >= first.cuda && p.cuda <= last.cuda)
        .collect())
}

#[cfg(test)]
mod tests {
    /// `generated/` commits the newest release of each major, and 13.0: of
    /// each library, those of the driver's that it pins (nvJitLink has no
    /// 11.8, cuFile nothing before 12.6).
    #[test]
    fn the_vendored_releases_are_each_majors_newest_and_13_0() {
        let names = |library| -> Vec<String> {
            super::vendored_for(library)
                .iter()
                .map(|p| p.cuda.to_string())
                .collect()
        };
        assert_eq!(
            names(&crate::library::DRIVER),
            ["11.8", "12.9", "13.0", "13.5"]
        );
        for library in crate::library::LIBRARIES {
            let pinned: Vec<String> = super::all_for(library)
                .iter()
                .map(|p| p.cuda.to_string())
                .collect();
            let expected: Vec<String> = names(&crate::library::DRIVER)
                .into_iter()
                .filter(|r| pinned.contains(r))
                .collect();
            assert_eq!(names(library), expected, "{}", library.name);
        }
    }

    use super::*;

    #[test]
    fn every_line_of_the_pin_file_is_a_pin() {
        let lines = PINS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .count();
        let pins = all();
        let wheels: Vec<&Wheel> = pins.iter().flat_map(|p| &p.wheels).collect();
        assert_eq!(wheels.len(), lines, "every line is a wheel");
        assert_eq!(all().len(), 16);
        assert!(wheels
            .iter()
            .all(|w| w.sha256.len() == 64 && w.sha256.bytes().all(|b| b.is_ascii_hexdigit())));
        // Each release has its runtime wheel and its profiler wheel.
        assert!(all().iter().all(|p| p.wheels.len() == 2));
        assert!(
            all().windows(2).all(|w| w[0].cuda < w[1].cuda),
            "oldest first"
        );
    }

    #[test]
    fn every_pin_file_a_library_names_is_compiled_in_and_complete() {
        for library in crate::library::LIBRARIES {
            let pins = all_for(library);
            // Every release of the driver's from the library's first on (a
            // library may start later: nvJitLink has no 11.8, cuFile nothing
            // before 12.6) ...
            let releases: Vec<CudaVersion> = pins.iter().map(|p| p.cuda).collect();
            let first = *releases.first().expect("at least one release");
            let expected: Vec<CudaVersion> = all()
                .iter()
                .map(|p| p.cuda)
                .filter(|c| *c >= first)
                .collect();
            assert_eq!(releases, expected, "{}", library.name);
            // ... and the releases whose data the crate ships for it.
            let weave = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("generated/data/{}.rs.weave", library.stem)),
            )
            .unwrap();
            let shipped: Vec<String> = crate::weave::releases(&weave)
                .expect("a weave")
                .iter()
                .map(ToString::to_string)
                .collect();
            let pinned: Vec<String> = releases.iter().map(ToString::to_string).collect();
            assert_eq!(pinned, shipped, "{}: pins and shipped data", library.name);
            let on_disk = std::fs::read_to_string(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(library.pins),
            )
            .unwrap();
            assert_eq!(on_disk, library.pin_text, "{}", library.pins);
            let lines = library
                .pin_text
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .count();
            let wheels: usize = pins.iter().map(|p| p.wheels.len()).sum();
            assert_eq!(wheels, lines, "{}: every line is a wheel", library.name);
        }
    }

    #[test]
    fn the_newest_release_is_the_default() {
        assert_eq!(default_pin().cuda.to_string(), "13.5");
    }

    #[test]
    fn an_unknown_version_lists_the_pinned_ones() {
        let e = find("12.7".parse().unwrap()).unwrap_err().to_string();
        assert!(e.contains("unknown CUDA version `12.7`"), "{e}");
        assert!(e.contains("11.8, 12.0"), "{e}");
    }
}
