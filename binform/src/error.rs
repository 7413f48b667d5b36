//! The error type shared by encoding and decoding.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// What went wrong, without the details. Match on this in code; print the
/// [`Error`] for people.
///
/// The enum is `#[non_exhaustive]`: new kinds arrive with new features, so
/// keep a wildcard arm.
///
/// ```
/// use binform::{from_slice, ErrorKind};
/// let err = from_slice::<bool>(&[7]).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::InvalidBool);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended before the value was complete, or a declared length
    /// needs more bytes than remain.
    UnexpectedEnd,
    /// A varint is longer than its minimal form or longer than its type allows.
    InvalidVarint,
    /// An integer does not fit the type being decoded (for example 70000 as `u16`,
    /// or a `u64` above `usize::MAX` on a 32-bit target).
    IntegerOverflow,
    /// A `bool` byte other than 0 or 1.
    InvalidBool,
    /// A `char` that is not a Unicode scalar value.
    InvalidChar,
    /// A string that is not valid UTF-8.
    InvalidUtf8,
    /// An enum, `Option` or `Result` tag that names no variant the reader knows.
    UnknownVariant,
    /// A value that breaks its type's rules: a zero `NonZero`, nanoseconds of
    /// a `Duration` above 999,999,999, a duplicate map key, a time out of range.
    InvalidValue,
    /// A limit was reached: one of [`Options`](crate::Options)' (depth,
    /// input bytes, declared length, the memory budget `max_memory`), the
    /// key-expansion budget of maps and sets, an allocation that failed, or
    /// a frame larger than its limit.
    LimitExceeded,
    /// Bytes were left over after the value was decoded.
    TrailingBytes,
    /// The underlying reader or writer failed.
    Io,
    /// Encoding met a `RefCell` that was mutably borrowed at that moment.
    AlreadyBorrowed,
    /// Encoding met a `Mutex` or `RwLock` that was poisoned by a panic.
    Poisoned,
    /// An error raised by user code (a `with` module or a hand-written impl).
    Custom,
    /// A shared-value reference names an id not defined yet, or a value of
    /// another type, or is null where an `Rc`/`Arc` is expected.
    InvalidReference,
    /// A strong reference cycle while [`Options::reject_cycles`](crate::Options::reject_cycles) is on.
    CycleRejected,
    /// A strong reference to a shared value that is still being decoded and
    /// cannot exist before its contents (it is not behind `RefCell`,
    /// `Mutex` or `RwLock`, or its type has no placeholder).
    UnsupportedCycle,
    /// Encoding a trait object whose concrete type is not registered with
    /// [`polymorphic!`](crate::polymorphic).
    UnregisteredType,
    /// The payload's schema fingerprint (see [`Options::fingerprint`](crate::Options::fingerprint))
    /// is not the reader's: the type definitions differ.
    SchemaMismatch,
    /// Something binform's format cannot carry was asked of it: through
    /// the serde bridge, `deserialize_any` (the bytes do not say their
    /// type), a field skipped by `skip_serializing_if`, a sequence that
    /// mixes integer types; or a fingerprint header for a type known only
    /// through serde.
    Unsupported,
    /// A version-tolerant payload lacks a field marked
    /// `#[binform(required)]`; the message names the field and its tag.
    MissingField,
}

impl ErrorKind {
    /// A short description of the kind, as used in `Display`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedEnd => "unexpected end of input",
            ErrorKind::InvalidVarint => "invalid varint",
            ErrorKind::IntegerOverflow => "integer out of range for its type",
            ErrorKind::InvalidBool => "invalid bool",
            ErrorKind::InvalidChar => "invalid char",
            ErrorKind::InvalidUtf8 => "invalid UTF-8",
            ErrorKind::UnknownVariant => "unknown variant tag",
            ErrorKind::InvalidValue => "invalid value",
            ErrorKind::LimitExceeded => "limit exceeded",
            ErrorKind::TrailingBytes => "trailing bytes",
            ErrorKind::Io => "I/O error",
            ErrorKind::AlreadyBorrowed => "RefCell already mutably borrowed",
            ErrorKind::Poisoned => "lock poisoned",
            ErrorKind::Custom => "error",
            ErrorKind::InvalidReference => "invalid reference",
            ErrorKind::CycleRejected => "strong reference cycle rejected",
            ErrorKind::UnsupportedCycle => "unsupported reference cycle",
            ErrorKind::UnregisteredType => "unregistered type",
            ErrorKind::SchemaMismatch => "schema mismatch",
            ErrorKind::Unsupported => "unsupported by the format",
            ErrorKind::MissingField => "missing required field",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An encoding or decoding error: a [`kind`](Error::kind), a message with the
/// details, and for decoding the byte offset where it was found.
///
/// The error is one pointer wide so that `Result<T, Error>` stays small on the
/// hot path; the details live behind it.
pub struct Error {
    inner: Box<Inner>,
}

struct Inner {
    kind: ErrorKind,
    offset: Option<usize>,
    message: String,
    /// Where in the value, when known (`.cards[3].number`).
    path: FrontPath,
    #[cfg(feature = "std")]
    source: Option<std::io::Error>,
}

/// A path built from its end: each level of a walk puts its segment in
/// front on the error's way out. The text sits at the end of a buffer
/// with room before it, which doubles when used up, so a path of `n`
/// bytes costs `O(n)` to build however many levels it has (inserting at
/// the front of a `String` cost `O(n)` a level: 2.4 s for a 100 KB
/// document nested to its limit).
#[derive(Default)]
struct FrontPath {
    buf: Vec<u8>,
    start: usize,
}

impl FrontPath {
    fn push_front(&mut self, segment: &str) {
        let segment = segment.as_bytes();
        if segment.len() > self.start {
            let used = self.buf.len() - self.start;
            let room = (used + segment.len()).max(16);
            let mut grown = Vec::with_capacity(room + used);
            grown.resize(room, 0);
            grown.extend_from_slice(&self.buf[self.start..]);
            self.buf = grown;
            self.start = room;
        }
        let at = self.start - segment.len();
        self.buf[at..self.start].copy_from_slice(segment);
        self.start = at;
    }

    fn as_str(&self) -> &str {
        // Whole `str` segments, so always UTF-8.
        core::str::from_utf8(&self.buf[self.start..]).unwrap_or_default()
    }
}

impl Error {
    /// Makes an error of `kind` with a message and no offset.
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                offset: None,
                message: message.into(),
                path: FrontPath::default(),
                #[cfg(feature = "std")]
                source: None,
            }),
        }
    }

    /// An error for user code, such as a `with` module, of kind [`ErrorKind::Custom`].
    #[cold]
    pub fn custom(message: impl fmt::Display) -> Self {
        Error::new(ErrorKind::Custom, alloc::format!("{message}"))
    }

    /// Sets the byte offset (decoding) if none was set yet.
    #[must_use]
    pub fn at(mut self, offset: usize) -> Self {
        if self.inner.offset.is_none() {
            self.inner.offset = Some(offset);
        }
        self
    }

    /// The error with its offset moved `by` bytes on (an error found in a
    /// part of the input, reported in the whole).
    #[cold]
    #[must_use]
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        if let Some(offset) = self.inner.offset.as_mut() {
            *offset += by;
        }
        self
    }

    /// Puts `segment` (`.field`, `[3]`) in front of the error's path:
    /// each level of a walk over a value adds its own on the way out.
    #[cold]
    #[must_use]
    pub fn in_field(mut self, segment: &str) -> Self {
        self.inner.path.push_front(segment);
        self
    }

    /// The same error with `hint` after its message: what the reader can
    /// do about it.
    #[cold]
    #[must_use]
    pub(crate) fn with_hint(mut self, hint: &str) -> Self {
        if !self.inner.message.is_empty() {
            self.inner.message.push_str("; ");
        }
        self.inner.message.push_str(hint);
        self
    }

    /// Where in the value the error was found (`.cards[3].number`), for
    /// errors from walks that track it ([`Value`](crate::Value) reading and
    /// writing); empty when unknown or at the root.
    pub fn path(&self) -> &str {
        self.inner.path.as_str()
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The byte offset in the input where decoding failed, if known.
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// The detail message, without kind or offset.
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    #[cfg(feature = "std")]
    #[cold]
    pub(crate) fn io(err: std::io::Error) -> Self {
        let mut e = Error::new(ErrorKind::Io, alloc::format!("{err}"));
        e.inner.source = Some(err);
        e
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.inner.kind.as_str())?;
        if !self.inner.message.is_empty() {
            write!(f, ": {}", self.inner.message)?;
        }
        if let Some(offset) = self.inner.offset {
            write!(f, " (at byte {offset})")?;
        }
        if !self.path().is_empty() {
            write!(f, " in `{}`", self.path())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("offset", &self.inner.offset)
            .field("message", &self.inner.message)
            .field("path", &self.path())
            .finish()
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.inner
            .source
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

#[cfg(not(feature = "std"))]
impl core::error::Error for Error {}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        Error::io(err)
    }
}

/// `Result` with [`Error`] as the error type.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// `n` bytes as a message says it: `1 byte`, `2 bytes`.
pub(crate) fn bytes(n: usize) -> String {
    if n == 1 {
        String::from("1 byte")
    } else {
        alloc::format!("{n} bytes")
    }
}

/// A field's decoded value, or its error with the field's path segment
/// (`.name`) put in front: the path is built on the error's way out, so
/// the success path pays a test it had anyway.
#[inline(always)]
pub fn in_field<T>(result: Result<T>, segment: &'static str) -> Result<T> {
    match result {
        Ok(value) => Ok(value),
        Err(e) => Err(field_error(e, segment)),
    }
}

#[cold]
#[inline(never)]
fn field_error(e: Error, segment: &'static str) -> Error {
    e.in_field(segment)
}

/// An element's decoded value, or its error with the element's path
/// segment (`[3]`, or `[key 3]` for a map's key: `what` is `"key "`) put
/// in front, built on the error's way out.
#[inline(always)]
pub fn in_element<T>(result: Result<T>, what: &'static str, index: usize) -> Result<T> {
    match result {
        Ok(value) => Ok(value),
        Err(e) => Err(element_error(e, what, index)),
    }
}

#[cold]
#[inline(never)]
fn element_error(e: Error, what: &'static str, index: usize) -> Error {
    e.in_field(&alloc::format!("[{what}{index}]"))
}

#[cfg(test)]
mod tests {
    use super::{Error, ErrorKind};

    #[test]
    fn a_path_is_built_from_its_end() {
        let e = Error::new(ErrorKind::InvalidValue, "bad")
            .in_field(".flag")
            .in_field("[3]")
            .in_field(".cards")
            .in_field("::Ünïcode");
        assert_eq!(e.path(), "::Ünïcode.cards[3].flag");
        assert!(e.to_string().ends_with("in `::Ünïcode.cards[3].flag`"));
        assert_eq!(Error::new(ErrorKind::InvalidValue, "x").path(), "");
    }

    /// A path of a million segments: linear, where inserting each at the
    /// front of a `String` took quadratic time (minutes at this size).
    #[test]
    fn a_deep_path_costs_linear_time() {
        let start = std::time::Instant::now();
        let mut e = Error::new(ErrorKind::InvalidValue, "deep");
        for i in 0..1_000_000u32 {
            e = e.in_field(if i % 2 == 0 { ".a" } else { "[7]" });
        }
        assert_eq!(e.path().len(), 2_500_000);
        assert!(e.path().starts_with("[7].a[7]"));
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }
}
