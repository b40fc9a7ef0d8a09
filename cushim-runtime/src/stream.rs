//! The default-stream mode of a library with per-thread variants (the
//! driver's `_ptds`/`_ptsz` functions): one explicit choice, fixed at the
//! first binding.

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::info::{StreamMode, STREAM_OFF, STREAM_ON, STREAM_VAR};

/// `set_stream_mode` came after the first function was bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamModeLocked {
    /// The mode asked for.
    pub requested: StreamMode,
    /// The mode in force, which stays.
    pub current: StreamMode,
}

impl fmt::Display for StreamModeLocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the stream mode must be set before the first CUDA call; it stays {:?} (asked for {:?})",
            self.current, self.requested
        )
    }
}

impl std::error::Error for StreamModeLocked {}

/// The mode a value of [`STREAM_VAR`] asks for; `None` for any other value,
/// which leaves the generated default in force.
#[must_use]
pub fn stream_mode_from_env(value: &str) -> Option<StreamMode> {
    let value = value.trim_matches(|c: char| c.is_ascii_whitespace());
    if STREAM_ON.contains(&value) {
        Some(StreamMode::PerThread)
    } else if STREAM_OFF.contains(&value) {
        Some(StreamMode::Legacy)
    } else {
        None
    }
}

/// The mode [`STREAM_VAR`] asks for in this process's environment, if any.
#[must_use]
pub fn stream_mode_from_environment() -> Option<StreamMode> {
    std::env::var(STREAM_VAR)
        .ok()
        .and_then(|v| stream_mode_from_env(&v))
}

/// Why [`STREAM_VAR`] is ignored, when it is set to a value that is none of
/// [`STREAM_ON`] and [`STREAM_OFF`]; `None` when it is unset or understood.
/// `default` is the mode then in force. A program that lets users set the
/// variable can show this once.
#[must_use]
pub fn stream_mode_warning(default: StreamMode) -> Option<String> {
    stream_warning_for(&std::env::var_os(STREAM_VAR)?.to_string_lossy(), default)
}

/// [`stream_mode_warning`] for the variable's value `text`.
#[must_use]
pub fn stream_warning_for(text: &str, default: StreamMode) -> Option<String> {
    if stream_mode_from_env(text).is_some() {
        return None;
    }
    let default = match default {
        StreamMode::Legacy => "legacy",
        StreamMode::PerThread => "per-thread",
    };
    Some(format!(
        "{STREAM_VAR}=`{text}` is ignored: it is none of {} (per-thread) and {} (legacy); the {default} default stream is used",
        STREAM_ON.join("/"),
        STREAM_OFF.join("/"),
    ))
}

// The mode: unset, or a mode; LOCKED once the first function was bound.
const UNSET: u8 = 0;
const LEGACY: u8 = 1;
const PER_THREAD: u8 = 2;
const LOCKED: u8 = 0x80;

fn mode_of(bits: u8) -> Option<StreamMode> {
    match bits & !LOCKED {
        LEGACY => Some(StreamMode::Legacy),
        PER_THREAD => Some(StreamMode::PerThread),
        _ => None,
    }
}

fn bits_of(mode: StreamMode) -> u8 {
    match mode {
        StreamMode::Legacy => LEGACY,
        StreamMode::PerThread => PER_THREAD,
    }
}

/// One library's default-stream mode: unset, chosen, or fixed by its first
/// binding. Unset, it is the one [`STREAM_VAR`] asks for, else `default`
/// (the generated one).
pub(crate) struct ModeCell(AtomicU8);

impl ModeCell {
    pub(crate) const fn new() -> ModeCell {
        ModeCell(AtomicU8::new(UNSET))
    }

    /// Chooses the mode, unless the first binding fixed one already.
    pub(crate) fn set(&self, mode: StreamMode) -> Result<(), StreamModeLocked> {
        let mut current = self.0.load(Ordering::Acquire);
        loop {
            if current & LOCKED != 0 {
                return Err(StreamModeLocked {
                    requested: mode,
                    current: mode_of(current).unwrap_or(StreamMode::Legacy),
                });
            }
            match self.0.compare_exchange(
                current,
                bits_of(mode),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(()),
                Err(now) => current = now,
            }
        }
    }

    /// The mode in force now.
    pub(crate) fn current(&self, default: StreamMode) -> StreamMode {
        mode_of(self.0.load(Ordering::Acquire)).unwrap_or_else(|| initial(default))
    }

    /// Fixes the mode (first binding) and returns it.
    pub(crate) fn lock(&self, default: StreamMode) -> StreamMode {
        let mut current = self.0.load(Ordering::Acquire);
        loop {
            if current & LOCKED != 0 {
                return mode_of(current).unwrap_or(StreamMode::Legacy);
            }
            let mode = mode_of(current).unwrap_or_else(|| initial(default));
            match self.0.compare_exchange(
                current,
                bits_of(mode) | LOCKED,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return mode,
                Err(now) => current = now,
            }
        }
    }
}

/// The mode from [`STREAM_VAR`], else `default`.
fn initial(default: StreamMode) -> StreamMode {
    stream_mode_from_environment().unwrap_or(default)
}
