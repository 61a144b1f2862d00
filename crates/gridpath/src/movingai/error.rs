//! What can be wrong with a file: a problem in its text (with the line, and the column where it
//! helps), or a file that could not be read or is too large to read.

use super::quote::visible_path;
use std::fmt;
use std::path::PathBuf;

/// A problem in a `.map` or `.scen` text, with the 1-based line (and column) it is on. The
/// message quotes at most a short, escaped excerpt of the text (see [`super::text::quote`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters, when one character is at fault.
    pub column: Option<usize>,
    /// What is wrong, quoting at most a short, escaped excerpt.
    pub message: String,
}

impl FormatError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            column: None,
            message: message.into(),
        }
    }

    pub(crate) fn at_column(self, column: usize) -> Self {
        Self {
            column: Some(column),
            ..self
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "line {}, column {column}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for FormatError {}

/// A file that could not be read or parsed. Its message names the file (escaped), and the line
/// and column if any, as compilers do: `arena.map:5:2: unknown terrain 'x'`.
#[derive(Debug)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: FileErrorKind,
}

#[derive(Debug)]
/// Why a file could not be read or parsed.
pub enum FileErrorKind {
    /// It could not be read.
    Io(std::io::Error),
    /// The file holds more than `limit` bytes; reading stopped there.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// Its text is not a valid map or scenario file.
    Format(FormatError),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = visible_path(&self.path);
        match &self.kind {
            FileErrorKind::Io(e) => write!(f, "{path}: {e}"),
            FileErrorKind::TooLarge { limit } => write!(
                f,
                "{path}: the file is larger than {limit} bytes, the most this reader accepts"
            ),
            FileErrorKind::Format(e) => match e.column {
                Some(column) => write!(f, "{path}:{}:{column}: {}", e.line, e.message),
                None => write!(f, "{path}:{}: {}", e.line, e.message),
            },
        }
    }
}

impl std::error::Error for FileError {}
