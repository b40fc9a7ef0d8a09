//! Errors and warnings that users can act on: each leads with `file:line`
//! where there is one, and carries a `hint:` where we know the fix.

// nanoserde's derived reader of an `Option` field trips this style lint,
// and a derive's impl takes no attribute from its item.
#![allow(clippy::question_mark)]

use std::fmt;

/// Where a diagnostic points. Example: `cuda.h:4711`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct Origin {
    /// File name as the user passed it or as clang reported it. Example: `/tmp/cuda/include/cuda.h`.
    pub file: String,
    /// 1-based line. Example: `4711`.
    pub line: u32,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub enum Severity {
    /// Printed; generation goes on.
    Warning,
    /// Generation stops before anything is written.
    Error,
}

/// A finding of one stage about the input. Warnings are collected and printed;
/// any error stops generation before anything is written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// Where, when it points into a file.
    pub origin: Option<Origin>,
    /// What is wrong. Example: `` `cuOdd` is variadic ``.
    pub message: String,
    /// What to do about it. Example: `` exclude it with `--block` ``.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A warning at `origin`.
    pub fn warning(origin: Option<Origin>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            origin,
            message: message.into(),
            hint: None,
        }
    }

    /// An error at `origin`.
    pub fn error(origin: Option<Origin>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            ..Diagnostic::warning(origin, message)
        }
    }

    /// The same diagnostic with a hint.
    #[must_use]
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = &self.origin {
            write!(f, "{o}: ")?;
        }
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{level}: {}", self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

/// The one error type of the library: a failure that stops the command.
#[derive(Clone, Debug)]
pub struct Error {
    diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// An error without a location.
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            diagnostics: vec![Diagnostic::error(None, message)],
        }
    }

    /// An error at `origin`.
    pub fn at(origin: Origin, message: impl Into<String>) -> Self {
        Error {
            diagnostics: vec![Diagnostic::error(Some(origin), message)],
        }
    }

    /// An error made of several diagnostics (the IR's errors, sorted by place).
    pub fn from_diagnostics(diagnostics: Vec<Diagnostic>) -> Self {
        Error { diagnostics }
    }

    /// Adds a hint to the last diagnostic.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        if let Some(d) = self.diagnostics.last_mut() {
            d.hint = Some(hint.into());
        }
        self
    }

    /// Every diagnostic of the error, in order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The same error with every hint rewritten by `f` (for example, naming
    /// Builder methods instead of command-line flags).
    #[must_use]
    pub fn map_hints(mut self, f: impl Fn(&str) -> String) -> Self {
        for d in &mut self.diagnostics {
            if let Some(h) = &d.hint {
                d.hint = Some(f(h));
            }
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Writes a line to stderr, as `eprintln!` does, but a closed or full
/// stderr (`2>/dev/full`) loses the line instead of panicking.
#[cfg(feature = "fetch")]
macro_rules! note {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = ::std::writeln!(::std::io::stderr(), $($arg)*);
    }};
}
#[cfg(feature = "fetch")]
pub(crate) use note;
