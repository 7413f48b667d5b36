//! Limits and modes for one encode or decode call.

use alloc::format;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Result};
#[cfg(feature = "std")]
use crate::read::UnpackOwned;
use crate::read::{Reader, Unpack};
use crate::write::{Pack, Writer};

/// Default nesting limit, in the range of serde_json's 128.
pub const DEFAULT_MAX_DEPTH: u32 = 128;
/// Default byte budget for one decode: 256 MiB.
pub const DEFAULT_MAX_BYTES: usize = 256 << 20;
/// Default limit on one declared length: 2^28 elements.
pub const DEFAULT_MAX_LEN: usize = 1 << 28;

/// Settings for encoding and decoding: a builder whose methods mirror the
/// crate-level functions.
///
/// The defaults are safe for untrusted input: at most
/// [`DEFAULT_MAX_BYTES`] of input, nesting at most [`DEFAULT_MAX_DEPTH`]
/// levels, lengths at most [`DEFAULT_MAX_LEN`].
///
/// ```
/// use binform::{ErrorKind, Options};
///
/// let opts = Options::new().max_bytes(1024).max_depth(16);
/// let bytes = opts.to_vec(&vec![1u32, 2, 3]).unwrap();
/// assert_eq!(opts.from_slice::<Vec<u32>>(&bytes).unwrap(), [1, 2, 3]);
///
/// let too_big = binform::to_vec(&vec![0u8; 2000]).unwrap();
/// let err = opts.from_slice::<Vec<u8>>(&too_big).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    max_bytes: usize,
    max_depth: u32,
    max_len: usize,
    reject_cycles: bool,
    fingerprint: bool,
}

/// The header written with [`Options::fingerprint`]: magic and format version.
pub const HEADER_MAGIC: [u8; 4] = *b"BFM\x01";

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// The default settings.
    pub const fn new() -> Self {
        Options {
            max_bytes: DEFAULT_MAX_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_len: DEFAULT_MAX_LEN,
            reject_cycles: false,
            fingerprint: false,
        }
    }

    /// Writes (and, when decoding, requires) a 12-byte header: the magic
    /// `BFM` and format version 1, then the type's 64-bit schema
    /// fingerprint, little-endian. A reader whose type definition differs
    /// from the writer's fails at once with [`ErrorKind::SchemaMismatch`],
    /// before reading any field. Both sides must turn it on. Off by default:
    /// compact payloads carry no type information.
    ///
    /// ```
    /// use binform::{ErrorKind, Options, Packable};
    ///
    /// #[derive(Packable)]
    /// struct V1 { a: u32 }
    /// #[derive(Packable)]
    /// struct V2 { a: u32, b: u32 }
    ///
    /// let opts = Options::new().fingerprint(true);
    /// let bytes = opts.to_vec(&V1 { a: 1 })?;
    /// assert!(opts.from_slice::<V1>(&bytes).is_ok());
    /// let err = opts.from_slice::<V2>(&bytes).err().unwrap();
    /// assert_eq!(err.kind(), ErrorKind::SchemaMismatch);
    /// # Ok::<(), binform::Error>(())
    /// ```
    #[must_use]
    pub const fn fingerprint(mut self, on: bool) -> Self {
        self.fingerprint = on;
        self
    }

    /// Rejects strong reference cycles when decoding, with
    /// [`ErrorKind::CycleRejected`]. A decoded strong cycle (an `Rc` that
    /// reaches itself through `RefCell`s) is never freed, exactly like one
    /// built in code; a service that accepts graph types from untrusted
    /// peers can turn this on so a peer cannot make it leak. Cycles through
    /// `Weak` stay allowed. Off by default.
    #[must_use]
    pub const fn reject_cycles(mut self, reject: bool) -> Self {
        self.reject_cycles = reject;
        self
    }

    /// Whether strong cycles are rejected.
    pub const fn cycles_rejected(&self) -> bool {
        self.reject_cycles
    }

    /// The most input bytes one decode may read; a longer input fails with
    /// [`ErrorKind::LimitExceeded`] before any of it is decoded, and
    /// [`from_reader`](Options::from_reader) stops reading there.
    #[must_use]
    pub const fn max_bytes(mut self, n: usize) -> Self {
        self.max_bytes = n;
        self
    }

    /// How many boxes and collections may nest inside each other.
    #[must_use]
    pub const fn max_depth(mut self, n: usize) -> Self {
        self.max_depth = if n > u32::MAX as usize {
            u32::MAX
        } else {
            n as u32
        };
        self
    }

    /// The largest length any string, byte string or collection may declare.
    /// It is also the total budget, over the whole decode, for elements that
    /// take no input bytes (such as `()`), which the input size cannot bound.
    #[must_use]
    pub const fn max_len(mut self, n: usize) -> Self {
        self.max_len = n;
        self
    }

    /// The byte budget.
    pub const fn byte_limit(&self) -> usize {
        self.max_bytes
    }

    /// The nesting limit.
    pub const fn depth_limit(&self) -> u32 {
        self.max_depth
    }

    /// The length limit.
    pub const fn len_limit(&self) -> usize {
        self.max_len
    }

    /// Encodes `value` into a new vector.
    pub fn to_vec<T: Pack + ?Sized>(&self, value: &T) -> Result<Vec<u8>> {
        let mut buf = Vec::new();
        self.to_vec_into(&mut buf, value)?;
        Ok(buf)
    }

    /// Appends the encoding of `value` to `buf`, which can be reused across
    /// calls to save allocations. On error `buf` is restored to its length
    /// before the call.
    pub fn to_vec_into<T: Pack + ?Sized>(&self, buf: &mut Vec<u8>, value: &T) -> Result<()> {
        let start = buf.len();
        if self.fingerprint {
            buf.extend_from_slice(&HEADER_MAGIC);
            buf.extend_from_slice(&T::FINGERPRINT.to_le_bytes());
        }
        let result = value.pack(&mut Writer::with_depth(buf, self.max_depth));
        if result.is_err() {
            buf.truncate(start);
        }
        result
    }

    /// Decodes a `T` that is the whole of `bytes`: bytes left over are an
    /// [`ErrorKind::TrailingBytes`] error.
    pub fn from_slice<'de, T: Unpack<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        if bytes.len() > self.max_bytes {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "input of {} bytes is over the limit of {} bytes",
                    bytes.len(),
                    self.max_bytes
                ),
            ));
        }
        let bytes = if self.fingerprint {
            check_header::<T>(bytes)?
        } else {
            bytes
        };
        let mut reader = Reader::new(bytes, self);
        let result = T::unpack(&mut reader).and_then(|value| match reader.finish() {
            Ok(()) => Ok(value),
            Err(e) => {
                // Break strong cycles before the value is dropped, or it leaks.
                reader.break_cycles();
                drop(value);
                Err(e)
            }
        });
        if result.is_err() {
            reader.break_cycles();
        }
        result
    }

    /// Encodes `value` to an `io::Write`. The value is encoded into a buffer
    /// first and written with one `write_all`, so a failing value writes
    /// nothing.
    #[cfg(feature = "std")]
    pub fn to_writer<T: Pack + ?Sized>(
        &self,
        mut writer: impl std::io::Write,
        value: &T,
    ) -> Result<()> {
        let bytes = self.to_vec(value)?;
        writer.write_all(&bytes).map_err(Error::io)
    }

    /// Decodes a `T` from everything an `io::Read` yields up to its end.
    /// Reading stops with [`ErrorKind::LimitExceeded`] once more than
    /// [`max_bytes`](Options::max_bytes) arrive, so an endless stream cannot
    /// exhaust memory.
    #[cfg(feature = "std")]
    pub fn from_reader<T: UnpackOwned>(&self, reader: impl std::io::Read) -> Result<T> {
        use std::io::Read;
        let mut bytes = Vec::new();
        let limit = (self.max_bytes as u64).saturating_add(1);
        reader
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(Error::io)?;
        self.from_slice(&bytes)
    }
}

/// Checks the fingerprint header and returns the payload after it.
fn check_header<'de, T: Unpack<'de>>(bytes: &'de [u8]) -> Result<&'de [u8]> {
    let (Some(magic), Some(fp)) = (bytes.get(..4), bytes.get(4..12)) else {
        return Err(Error::new(
            ErrorKind::UnexpectedEnd,
            "input is shorter than the 12-byte fingerprint header",
        )
        .at(bytes.len()));
    };
    if magic[..3] != HEADER_MAGIC[..3] {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            "no binform fingerprint header (magic `BFM`)",
        )
        .at(0));
    }
    if magic[3] != HEADER_MAGIC[3] {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("unsupported format version {}", magic[3]),
        )
        .at(3));
    }
    let mut raw = [0u8; 8];
    raw.copy_from_slice(fp);
    let theirs = u64::from_le_bytes(raw);
    let ours = <T as Unpack<'de>>::FINGERPRINT;
    if theirs != ours {
        return Err(Error::new(
            ErrorKind::SchemaMismatch,
            format!("the payload was written for schema {theirs:#018x}, this reader's type has {ours:#018x}"),
        )
        .at(4));
    }
    Ok(&bytes[12..])
}
