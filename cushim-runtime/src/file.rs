//! What is checked of a candidate file before the platform's loader sees
//! it. The loader trusts what it maps: a FIFO named like the library blocks
//! the open forever, a truncated library dies of SIGBUS inside `dlopen` when
//! a segment past the end of the file is touched, and glibc answers "No such
//! file or directory" for a library built for another machine. So only a
//! regular file is opened, without blocking, and its header must be for this
//! build (ELF: class, byte order, type, machine, and every loaded segment
//! inside the file; Windows: the PE header, machine, a DLL, every section
//! inside the file). The C++ runtime checks the same, in the same words.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// `Ok` when the file at `path` can be handed to the platform's loader,
/// else what is wrong with it.
pub(crate) fn check(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot be examined: {e}"))?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({})", kind(&meta)));
    }
    let mut file = open(path).map_err(|e| format!("cannot be read: {e}"))?;
    // The file opened may not be the one examined: look again.
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot be examined: {e}"))?;
    if !meta.is_file() {
        return Err(format!("not a regular file ({})", kind(&meta)));
    }
    header(&mut file, meta.len())
}

/// What a file that is not a regular file is.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// `O_NONBLOCK` where its value is known: a FIFO swapped in after the check
/// above is opened without waiting for a writer.
#[cfg(all(
    any(target_os = "linux", target_os = "android"),
    not(any(
        target_arch = "mips",
        target_arch = "mips64",
        target_arch = "sparc",
        target_arch = "sparc64"
    ))
))]
const NONBLOCK: i32 = 0o4000;
#[cfg(any(target_os = "macos", target_os = "ios"))]
const NONBLOCK: i32 = 4;

#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(any(
        all(
            any(target_os = "linux", target_os = "android"),
            not(any(
                target_arch = "mips",
                target_arch = "mips64",
                target_arch = "sparc",
                target_arch = "sparc64"
            ))
        ),
        target_os = "macos",
        target_os = "ios"
    ))]
    options.custom_flags(NONBLOCK);
    options.open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

/// Reads `buf.len()` bytes at `offset`; the caller checked that they lie
/// inside the file.
#[cfg(any(target_os = "linux", target_os = "android", windows))]
fn read_at(file: &mut File, offset: u64, buf: &mut [u8]) -> Result<(), String> {
    file.seek(SeekFrom::Start(offset))
        .and_then(|_| file.read_exact(buf))
        .map_err(|e| format!("cannot be read: {e}"))
}

/// "truncated: ... ends at byte N, but the file has M bytes".
#[cfg(any(target_os = "linux", target_os = "android", windows))]
fn truncated(what: &str, end: u64, len: u64) -> String {
    format!("truncated: {what} ends at byte {end}, but the file has {len} bytes")
}

#[cfg(windows)]
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

#[cfg(windows)]
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The ELF machine of this build (`e_machine`), 0 where unknown here.
#[cfg(any(target_os = "linux", target_os = "android"))]
const MACHINE: u16 = if cfg!(target_arch = "x86_64") {
    62
} else if cfg!(target_arch = "aarch64") {
    183
} else if cfg!(target_arch = "x86") {
    3
} else if cfg!(target_arch = "arm") {
    40
} else if cfg!(target_arch = "powerpc64") {
    21
} else if cfg!(target_arch = "powerpc") {
    20
} else if cfg!(target_arch = "riscv64") {
    243
} else if cfg!(target_arch = "s390x") {
    22
} else if cfg!(target_arch = "loongarch64") {
    258
} else {
    0
};

/// `62 (x86-64)`: an ELF machine number, with its name when known.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn machine_name(m: u16) -> String {
    let name = match m {
        3 => "x86",
        20 => "PowerPC",
        21 => "PowerPC64",
        22 => "S/390",
        40 => "ARM",
        62 => "x86-64",
        183 => "AArch64",
        243 => "RISC-V",
        258 => "LoongArch",
        _ => return m.to_string(),
    };
    format!("{m} ({name})")
}

/// The ELF header, the program headers, and every loadable segment's place
/// in the file (what glibc maps; a part past the end is a SIGBUS).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn header(file: &mut File, len: u64) -> Result<(), String> {
    let wide = cfg!(target_pointer_width = "64");
    let bits = if wide { 64 } else { 32 };
    let size: u64 = if wide { 64 } else { 52 };
    let mut h = [0u8; 64];
    let have = usize::try_from(len.min(size)).unwrap_or(0);
    read_at(file, 0, &mut h[..have])?;
    if have < 4 || h[..4] != *b"\x7fELF" {
        return Err("not an ELF file (it does not start with the ELF magic number)".into());
    }
    if len < size {
        return Err(truncated("its ELF header", size, len));
    }
    let class = match h[4] {
        1 => 32,
        2 => 64,
        _ => 0,
    };
    if class != bits {
        return Err(if class == 0 {
            format!("an ELF file of unknown class {}", h[4])
        } else {
            format!("a {class}-bit ELF file, but this program is {bits}-bit")
        });
    }
    let little = cfg!(target_endian = "little");
    if h[5] != if little { 1 } else { 2 } {
        return Err(format!(
            "an ELF file of the other byte order, but this program is {}-endian",
            if little { "little" } else { "big" }
        ));
    }
    // Every multi-byte field is in this build's byte order from here on.
    let u16_ne = |at: usize| u16::from_ne_bytes([h[at], h[at + 1]]);
    let file_type = u16_ne(16);
    if file_type != 3 {
        return Err(format!(
            "an ELF file of type {file_type}, not a shared library (type 3)"
        ));
    }
    let machine = u16_ne(18);
    if MACHINE != 0 && machine != MACHINE {
        return Err(format!(
            "an ELF file for machine {}, but this program is for {}",
            machine_name(machine),
            machine_name(MACHINE)
        ));
    }
    let word = |b: &[u8], at: usize| -> u64 {
        if wide {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_ne_bytes(w)
        } else {
            let mut w = [0u8; 4];
            w.copy_from_slice(&b[at..at + 4]);
            u64::from(u32::from_ne_bytes(w))
        }
    };
    let (phoff, entsize, count) = if wide {
        (word(&h, 32), u16_ne(54), u16_ne(56))
    } else {
        (word(&h, 28), u16_ne(42), u16_ne(44))
    };
    let min_entry: u16 = if wide { 56 } else { 32 };
    if count > 0 && entsize < min_entry {
        return Err(format!(
            "a malformed ELF file (program headers of {entsize} bytes)"
        ));
    }
    let table = u64::from(entsize) * u64::from(count);
    let end = phoff.saturating_add(table);
    if end > len {
        return Err(truncated("its program header table", end, len));
    }
    let mut headers = vec![0u8; usize::try_from(table).unwrap_or(0)];
    read_at(file, phoff, &mut headers)?;
    for entry in headers.chunks_exact(usize::from(entsize.max(1))) {
        let p_type = u32::from_ne_bytes([entry[0], entry[1], entry[2], entry[3]]);
        if p_type != 1 {
            continue; // only PT_LOAD segments are mapped from the file
        }
        let (offset, file_size) = if wide {
            (word(entry, 8), word(entry, 32))
        } else {
            (word(entry, 4), word(entry, 16))
        };
        let end = offset.saturating_add(file_size);
        if end > len {
            return Err(truncated("a loadable segment", end, len));
        }
    }
    Ok(())
}

/// The PE machine of this build, 0 where unknown here.
#[cfg(windows)]
const MACHINE: u16 = if cfg!(target_arch = "x86_64") {
    0x8664
} else if cfg!(target_arch = "aarch64") {
    0xaa64
} else if cfg!(target_arch = "x86") {
    0x14c
} else {
    0
};

/// `0x8664 (x86-64)`: a PE machine number, with its name when known.
#[cfg(windows)]
fn machine_name(m: u16) -> String {
    let name = match m {
        0x14c => "x86",
        0x8664 => "x86-64",
        0xaa64 => "ARM64",
        0x1c4 => "ARMv7",
        _ => return format!("{m:#x}"),
    };
    format!("{m:#x} ({name})")
}

/// The DOS and PE headers, and every section's place in the file.
#[cfg(windows)]
fn header(file: &mut File, len: u64) -> Result<(), String> {
    let mut dos = [0u8; 64];
    let have = usize::try_from(len.min(64)).unwrap_or(0);
    read_at(file, 0, &mut dos[..have])?;
    if have < 2 || dos[..2] != *b"MZ" {
        return Err("not a Windows DLL (it does not start with `MZ`)".into());
    }
    if len < 64 {
        return Err(truncated("its DOS header", 64, len));
    }
    let pe = u64::from(u32_at(&dos, 0x3c));
    // The signature, the file header (20 bytes) and the optional header's magic.
    let mut h = [0u8; 26];
    let end = pe.saturating_add(26);
    if end > len {
        return Err(truncated("its PE header", end, len));
    }
    read_at(file, pe, &mut h)?;
    if h[..4] != *b"PE\0\0" {
        return Err("not a Windows DLL (no PE signature)".into());
    }
    let machine = u16_at(&h, 4);
    if MACHINE != 0 && machine != MACHINE {
        return Err(format!(
            "a DLL for machine {}, but this program is for {}",
            machine_name(machine),
            machine_name(MACHINE)
        ));
    }
    let sections = u64::from(u16_at(&h, 6));
    let optional = u64::from(u16_at(&h, 20));
    if u16_at(&h, 22) & 0x2000 == 0 {
        return Err("a Windows program, not a DLL".into());
    }
    let bits = if cfg!(target_pointer_width = "64") {
        64
    } else {
        32
    };
    let magic = u16_at(&h, 24);
    let class = match magic {
        0x10b => 32,
        0x20b => 64,
        _ => 0,
    };
    if class != bits {
        return Err(if class == 0 {
            format!("a malformed DLL (optional header magic {magic:#x})")
        } else {
            format!("a {class}-bit DLL, but this program is {bits}-bit")
        });
    }
    let table = pe + 24 + optional;
    let end = table.saturating_add(sections * 40);
    if end > len {
        return Err(truncated("its section table", end, len));
    }
    let mut entries = vec![0u8; usize::try_from(sections * 40).unwrap_or(0)];
    read_at(file, table, &mut entries)?;
    for s in entries.chunks_exact(40) {
        let end = u64::from(u32_at(s, 16)) + u64::from(u32_at(s, 20));
        if u32_at(s, 16) != 0 && end > len {
            return Err(truncated("a section", end, len));
        }
    }
    Ok(())
}

/// Elsewhere (macOS), the regular-file check only.
#[cfg(not(any(target_os = "linux", target_os = "android", windows)))]
fn header(_: &mut File, _: u64) -> Result<(), String> {
    Ok(())
}

#[cfg(all(test, target_os = "linux", target_pointer_width = "64"))]
mod tests {
    use super::check;
    use std::path::{Path, PathBuf};

    /// A fresh file under the system's temporary directory, holding `bytes`.
    fn file(name: &str, bytes: &[u8]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cushim-runtime-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// This test program: a position-independent executable, ELF type 3
    /// like a shared library, of this build's class and machine.
    fn this_program() -> Vec<u8> {
        std::fs::read(std::env::current_exe().unwrap()).unwrap()
    }

    #[test]
    fn a_library_of_this_build_passes_and_each_defect_is_named() {
        let good = this_program();
        check(&file("good", &good)).unwrap();
        let why = |name: &str, bytes: &[u8]| check(&file(name, bytes)).unwrap_err();
        assert!(why("empty", b"").starts_with("not an ELF file"));
        assert!(why("script", b"INPUT(libnvrtc.so.13.0)\n").starts_with("not an ELF file"));
        assert!(
            why("header-only", &good[..40])
                .starts_with("truncated: its ELF header ends at byte 64"),
            "{}",
            why("header-only", &good[..40])
        );
        // Past its program headers, inside its first segment (a debug
        // build's second half is debug information, which is not loaded).
        let cut = why("cut", &good[..1024]);
        assert!(
            cut.starts_with("truncated: a loadable segment ends at byte ")
                && cut.ends_with(", but the file has 1024 bytes"),
            "{cut}"
        );
        let mut narrow = good.clone();
        narrow[4] = 1;
        assert_eq!(
            why("narrow", &narrow),
            "a 32-bit ELF file, but this program is 64-bit"
        );
        let mut other = good.clone();
        let machine: u16 = if cfg!(target_arch = "aarch64") {
            62
        } else {
            183
        };
        other[18..20].copy_from_slice(&machine.to_ne_bytes());
        assert!(why("other", &other).starts_with("an ELF file for machine "));
        let mut object = good.clone();
        object[16..18].copy_from_slice(&1u16.to_ne_bytes());
        assert_eq!(
            why("object", &object),
            "an ELF file of type 1, not a shared library (type 3)"
        );
    }

    #[test]
    fn only_a_regular_file_is_opened() {
        let dir = file("placeholder", b"").parent().unwrap().to_path_buf();
        assert_eq!(check(&dir).unwrap_err(), "not a regular file (a directory)");
        let fifo = dir.join("fifo");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(check(&fifo).unwrap_err(), "not a regular file (a FIFO)");
        }
        assert!(check(Path::new("/dev/null"))
            .unwrap_err()
            .contains("a character device"));
        assert!(check(&dir.join("absent"))
            .unwrap_err()
            .starts_with("cannot be examined: "));
    }
}
