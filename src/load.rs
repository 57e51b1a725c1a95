//! Loading a game file: reading it within bounds, then compiling it. Every way this can fail
//! is a [`LoadError`], which converts to diagnostics like any other problem of a file.

use crate::diag::{Code, Diagnostic, line_col};
use crate::engine::Engine;
use std::io::Read;
use std::path::Path;

/// How standard input (the path `-`) is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Files larger than this are refused before parsing.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Why a game file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file does not exist, or could not be opened or read.
    #[error("cannot read `{path}`: {reason}")]
    Unreadable {
        /// The path as given, or [`STDIN_NAME`] for `-`.
        path: String,
        /// What the system said, in words.
        reason: String,
    },
    /// The path names a directory.
    #[error("`{path}` is a directory, not a game file")]
    Directory {
        /// The path as given.
        path: String,
    },
    /// The path names something other than a file or a directory (a device, a pipe):
    /// it is refused without being opened.
    #[error("`{path}` is not a regular file")]
    NotAFile {
        /// The path as given.
        path: String,
    },
    /// The text is longer than [`MAX_SOURCE_BYTES`].
    #[error("`{path}` is too large (more than {MAX_SOURCE_BYTES} bytes)")]
    TooLarge {
        /// The path as given, or [`STDIN_NAME`] for `-`.
        path: String,
    },
    /// The text is not UTF-8.
    #[error("`{path}` is not valid UTF-8")]
    Encoding {
        /// The path as given, or [`STDIN_NAME`] for `-`.
        path: String,
        /// The text before the first invalid byte, to locate it.
        valid: String,
    },
    /// The text was read but is not a valid game: it has at least one error.
    #[error("`{path}` is not a valid game ({} error(s))", .diagnostics.iter().filter(|d| d.is_error()).count())]
    Invalid {
        /// The path as given.
        path: String,
        /// The text read, which the diagnostics' spans point into.
        text: String,
        /// Every diagnostic of the file, warnings included, in file order.
        diagnostics: Vec<Diagnostic>,
    },
}

impl LoadError {
    /// The problem as diagnostics, with the text they point into (empty when there is none).
    pub fn diagnostics(&self) -> (Vec<Diagnostic>, &str) {
        let hint_read = "check the path; `-` reads the game from standard input";
        match self {
            LoadError::Unreadable { .. } => (
                vec![Diagnostic::unlocated(Code::E0004, self.to_string()).with_hint(hint_read)],
                "",
            ),
            LoadError::Directory { .. } | LoadError::NotAFile { .. } => (
                vec![
                    Diagnostic::unlocated(Code::E0004, self.to_string())
                        .with_hint("give the path of a `.game` file"),
                ],
                "",
            ),
            LoadError::TooLarge { .. } => (
                vec![
                    Diagnostic::unlocated(Code::E0002, self.to_string())
                        .with_hint("game files are a few kilobytes; split generated data"),
                ],
                "",
            ),
            LoadError::Encoding { valid, .. } => {
                let at = valid.len();
                let mut d = Diagnostic::new(
                    Code::E0005,
                    crate::diag::Span::new(at, at),
                    self.to_string(),
                )
                .with_hint("save the file as UTF-8");
                let (line, col) = line_col(valid, at);
                d.message = format!("{} (line {line}, column {col})", d.message);
                (vec![d], valid)
            }
            LoadError::Invalid {
                text, diagnostics, ..
            } => (diagnostics.clone(), text),
        }
    }

    /// The path the error is about.
    pub fn path(&self) -> &str {
        match self {
            LoadError::Unreadable { path, .. }
            | LoadError::Directory { path }
            | LoadError::NotAFile { path }
            | LoadError::TooLarge { path }
            | LoadError::Encoding { path, .. }
            | LoadError::Invalid { path, .. } => path,
        }
    }
}

/// Reads a game file's text: at most [`MAX_SOURCE_BYTES`], from a regular file (or, for
/// `-`, standard input), as UTF-8. Devices and pipes are refused before they are opened, so
/// that reading never blocks or grows without bound. The path need not be UTF-8; errors
/// show it with invalid bytes replaced.
pub fn read_source(path: impl AsRef<Path>) -> Result<String, LoadError> {
    let path = path.as_ref();
    let stdin = path == Path::new("-");
    let p = if stdin {
        STDIN_NAME.to_string()
    } else {
        path.to_string_lossy().into_owned()
    };
    let bytes = if stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_SOURCE_BYTES as u64 + 1)
            .read_to_end(&mut buf)
            .map_err(|e| LoadError::Unreadable {
                path: p.clone(),
                reason: e.to_string(),
            })?;
        buf
    } else {
        let meta = std::fs::metadata(path).map_err(|e| LoadError::Unreadable {
            path: p.clone(),
            reason: io_reason(&e),
        })?;
        if meta.is_dir() {
            return Err(LoadError::Directory { path: p });
        }
        if !meta.is_file() {
            return Err(LoadError::NotAFile { path: p });
        }
        let mut buf = Vec::new();
        open_without_waiting(path)
            .and_then(|f| {
                f.take(MAX_SOURCE_BYTES as u64 + 1)
                    .read_to_end(&mut buf)
                    .map(|_| ())
            })
            .map_err(|e| LoadError::Unreadable {
                path: p.clone(),
                reason: io_reason(&e),
            })?;
        buf
    };
    if bytes.len() > MAX_SOURCE_BYTES {
        return Err(LoadError::TooLarge { path: p });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = String::from_utf8_lossy(&e.into_bytes()[..at]).into_owned();
        LoadError::Encoding { path: p, valid }
    })
}

/// Opens a file for reading without blocking: a few files that are regular in name (such
/// as the kernel's log) would otherwise make a read wait for data forever; with
/// `O_NONBLOCK` they fail at once, and ordinary files are not affected.
fn open_without_waiting(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::WouldBlock => "it has no data yet (it is not an ordinary file)".into(),
        _ => e.to_string(),
    }
}

/// Reads, checks and compiles a game file into a ready engine.
pub fn load_file(path: impl AsRef<Path>) -> Result<Engine, LoadError> {
    let text = read_source(&path)?;
    crate::load_str(&text).map_err(|diagnostics| LoadError::Invalid {
        path: path.as_ref().to_string_lossy().into_owned(),
        text,
        diagnostics,
    })
}
