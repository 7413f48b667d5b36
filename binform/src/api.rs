//! The entry points: encode to a vector or a writer, decode from a slice
//! or a reader, with default or given [`Options`], and the fingerprint
//! header around the value.

use alloc::format;
use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Result};
use crate::options::Options;
#[cfg(any(feature = "std", feature = "bytes"))]
use crate::read::UnpackOwned;
use crate::read::{Reader, Unpack};
use crate::write::{Pack, Writer};

use crate::header::FINGERPRINT_MAGIC as HEADER_MAGIC;

/// How to find what a payload's header says of its type: its fingerprint,
/// and (for a self-describing payload) its schema. Functions, so that a
/// payload without a header asks for neither.
#[derive(Clone, Copy)]
pub(crate) struct Facts {
    pub(crate) fingerprint: fn() -> u64,
    pub(crate) schema: fn() -> crate::Schema,
}

impl Facts {
    /// `T`'s facts.
    #[inline]
    pub(crate) fn of<T: crate::Encoding + ?Sized>() -> Option<Facts> {
        Some(Facts {
            fingerprint: crate::schema::fingerprint_of::<T>,
            schema: crate::schema_of::<T>,
        })
    }
}

/// Encodes `value` into a new vector, with default [`Options`].
pub fn to_vec<T: Pack + ?Sized>(value: &T) -> Result<Vec<u8>> {
    Options::new().to_vec(value)
}

/// Appends the encoding of `value` to `buf`; reuse `buf` across calls to
/// avoid allocating.
///
/// ```
/// let mut buf = Vec::new();
/// for n in [1u64, 1000, 1_000_000] {
///     buf.clear();
///     binform::to_vec_into(&mut buf, &n)?;
///     assert_eq!(binform::from_slice::<u64>(&buf)?, n);
/// }
/// # Ok::<(), binform::Error>(())
/// ```
pub fn to_vec_into<T: Pack + ?Sized>(buf: &mut Vec<u8>, value: &T) -> Result<()> {
    encode_default_into::<T, crate::layout::Compact>(buf, value)
}

/// [`Options::to_vec_into`] with the default options in the layout `L`,
/// without their tests (no header to write) and with the default depth:
/// the encode's counterpart of [`decode_default`].
pub(crate) fn encode_default_into<T: Pack + ?Sized, L: crate::Layout>(
    buf: &mut Vec<u8>,
    value: &T,
) -> Result<()> {
    let start = buf.len();
    write_or_restore::<L>(buf, start, crate::options::DEFAULT_MAX_DEPTH, |w| {
        value.pack(w)
    })
}

/// Runs `encode` on a writer over `buf` that nests at most `depth`
/// levels; if it fails, `buf` is cut back to `start` (its length before
/// the call), so a failed encode leaves no partial value behind.
#[inline(always)]
fn write_or_restore<L: crate::Layout>(
    buf: &mut Vec<u8>,
    start: usize,
    depth: u32,
    encode: impl FnOnce(&mut Writer<'_, L>) -> Result<()>,
) -> Result<()> {
    let result = encode(&mut Writer::with_depth(buf, depth));
    if result.is_err() {
        buf.truncate(start);
    }
    result
}

/// Decodes a `T` from all of `bytes`, with default [`Options`]. Bytes left
/// over after the value are an [`ErrorKind::TrailingBytes`] error.
pub fn from_slice<'de, T: Unpack<'de>>(bytes: &'de [u8]) -> Result<T> {
    decode_default::<T, crate::layout::Compact>(bytes)
}

/// [`Options::from_slice`] with the default options in the layout `L`,
/// without their tests: no byte limit and no header to look at, and the
/// reader's limits constants. What a call costs besides its value (about
/// 75 instructions through the options, issue 31). Not marked `inline`:
/// inlined into a caller with a large value's decoder, it made the
/// caller's one function too large (people decode +16% instructions).
pub(crate) fn decode_default<'de, T: Unpack<'de>, L: crate::Layout>(bytes: &'de [u8]) -> Result<T> {
    let mut reader = Reader::new(bytes, &Options::new().in_layout::<L>());
    let result = T::unpack(&mut reader);
    finish_decode(&mut reader, result)
}

/// The end of every decode: bytes left over are an error, and a value
/// that is not returned has its strong cycles broken before it is
/// dropped (or it leaks). Checked in place: mapping the value into a new
/// `Result` moved it three times (about 2% of a small struct's decode).
#[inline(always)]
fn finish_decode<'de, T, L: crate::Layout>(
    reader: &mut Reader<'de, L>,
    mut result: Result<T>,
) -> Result<T> {
    if result.is_ok() {
        if let Err(e) = reader.finish() {
            reader.break_cycles();
            result = Err(e);
        }
    } else {
        reader.break_cycles();
    }
    result
}

/// Encodes `value` to an `io::Write`, with default [`Options`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_writer<T: Pack + ?Sized>(writer: impl std::io::Write, value: &T) -> Result<()> {
    Options::new().to_writer(writer, value)
}

/// Decodes a `T` from all of `bytes`, with default [`Options`]; `Bytes`
/// fields of `T` share the input's buffer (see [`Options::from_bytes`]).
/// It takes a `bytes::Bytes` (or a `BytesMut`); a `&[u8]` is
/// [`from_slice`]'s, and passing one says so.
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn from_bytes<T: UnpackOwned>(bytes: impl SharedBytes) -> Result<T> {
    Options::new().from_bytes(bytes)
}

/// What [`from_bytes`] reads: a buffer it can share with the `Bytes`
/// fields of the value (`bytes::Bytes`, or a `BytesMut`, frozen). A byte
/// slice is not one: decode it with [`from_slice`] (postcard's
/// `from_bytes` takes a `&[u8]`; binform's name is for the `bytes` crate).
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
#[diagnostic::on_unimplemented(
    message = "`from_bytes` reads a shared `bytes::Bytes`, not `{Self}`",
    label = "not a `bytes::Bytes`",
    note = "to decode a byte slice (`&[u8]`, `&Vec<u8>`), use `binform::from_slice` (or `Options::from_slice`); `from_bytes` is for a `bytes::Bytes` whose buffer the value's `Bytes` fields share"
)]
pub trait SharedBytes {
    /// The buffer, as `Bytes`.
    fn into_bytes(self) -> bytes::Bytes;
}

#[cfg(feature = "bytes")]
impl SharedBytes for bytes::Bytes {
    fn into_bytes(self) -> bytes::Bytes {
        self
    }
}

#[cfg(feature = "bytes")]
impl SharedBytes for bytes::BytesMut {
    fn into_bytes(self) -> bytes::Bytes {
        self.freeze()
    }
}

/// Encodes `value` into a `bytes::BufMut`, with default [`Options`]; a
/// buffer without room for it is [`ErrorKind::LimitExceeded`].
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn to_buf_mut<T: Pack + ?Sized>(buf: &mut impl bytes::BufMut, value: &T) -> Result<()> {
    Options::new().to_buf_mut(buf, value)
}

/// Decodes a `T` from an `io::Read` read to its end, with default [`Options`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn from_reader<T: UnpackOwned>(reader: impl std::io::Read) -> Result<T> {
    Options::new().from_reader(reader)
}

impl<L: crate::Layout> Options<L> {
    /// Encodes `value` into a new vector.
    pub fn to_vec<T: Pack + ?Sized>(&self, value: &T) -> Result<Vec<u8>> {
        self.encode_vec(Facts::of::<T>(), |w| value.pack(w))
    }

    /// Appends the encoding of `value` to `buf`, which can be reused across
    /// calls to save allocations. On error `buf` is restored to its length
    /// before the call.
    pub fn to_vec_into<T: Pack + ?Sized>(&self, buf: &mut Vec<u8>, value: &T) -> Result<()> {
        self.encode_into(buf, Facts::of::<T>(), |w| value.pack(w))
    }

    /// The encode into a new vector shared by every entry point (the
    /// derive's and the serde bridge's): `fingerprint` is the header's, if
    /// the type has one.
    pub(crate) fn encode_vec(
        &self,
        facts: Option<Facts>,
        encode: impl FnOnce(&mut Writer<'_, L>) -> Result<()>,
    ) -> Result<Vec<u8>> {
        // One allocation of the exact size: the bytes are built in the
        // thread's reused buffer, then copied out once. A fresh vector
        // grown from empty allocates about log2(n) times and copies its
        // bytes about twice.
        #[cfg(feature = "std")]
        return crate::scratch::with_scratch(|buf| {
            self.encode_into(buf, facts, encode)?;
            if buf.len() > crate::scratch::KEPT {
                // The thread would not keep a buffer this large: hand it
                // over rather than copy it.
                return Ok(core::mem::take(buf));
            }
            Ok(buf.as_slice().to_vec())
        });
        #[cfg(not(feature = "std"))]
        {
            let mut buf = Vec::new();
            self.encode_into(&mut buf, facts, encode)?;
            Ok(buf)
        }
    }

    /// The encode into a caller's buffer shared by every entry point.
    pub(crate) fn encode_into(
        &self,
        buf: &mut Vec<u8>,
        facts: Option<Facts>,
        encode: impl FnOnce(&mut Writer<'_, L>) -> Result<()>,
    ) -> Result<()> {
        let start = buf.len();
        // Tested here so that a plain encode makes no call for it.
        if self.self_describing || self.fingerprint {
            self.write_header(buf, facts)?;
        }
        write_or_restore(buf, start, self.max_depth, encode)
    }

    /// The type's facts for a header: a type seen only through serde has
    /// none, so no header can be written or checked for it.
    fn header_facts(&self, facts: Option<Facts>) -> Result<Facts> {
        facts.ok_or_else(|| {
            Error::new(
                ErrorKind::Unsupported,
                "Options::fingerprint and Options::self_describing need the type's binform \
                 schema; a type seen only through serde has none (derive Packable for it)",
            )
        })
    }

    /// Writes the header the options ask for: a self-describing one
    /// (§25), which holds the fingerprint, or the fingerprint header (§13).
    #[inline(never)]
    fn write_header(&self, buf: &mut Vec<u8>, facts: Option<Facts>) -> Result<()> {
        if self.self_describing {
            let facts = self.header_facts(facts)?;
            crate::schema::embedded::write_header::<L>(
                buf,
                (facts.fingerprint)(),
                &(facts.schema)(),
            )?;
        } else if self.fingerprint {
            buf.extend_from_slice(&crate::header::magic_in::<L>(HEADER_MAGIC));
            buf.extend_from_slice(&(self.header_facts(facts)?.fingerprint)().to_le_bytes());
        }
        Ok(())
    }

    /// Decodes a `T` that is the whole of `bytes`: bytes left over are an
    /// [`ErrorKind::TrailingBytes`] error.
    pub fn from_slice<'de, T: Unpack<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        self.decode(bytes, |bytes| Reader::new(bytes, self))
    }

    /// Decodes a `T` that is the whole of `bytes`, like
    /// [`from_slice`](Options::from_slice), except that `bytes::Bytes`
    /// fields of `T` share `bytes`' buffer instead of copying their part of
    /// it (a reference count, no allocation). Fields shorter than
    /// [`SHARE_BYTES_FROM`](crate::SHARE_BYTES_FROM) (64) bytes are copied
    /// instead: a shared field keeps the whole buffer alive, which a small
    /// one kept from a large frame should not.
    ///
    /// ```
    /// use bytes::Bytes;
    ///
    /// #[derive(binform::Packable)]
    /// struct Message { id: u32, body: Bytes, tag: Bytes }
    ///
    /// let body = Bytes::from(vec![7u8; 1000]);
    /// let sent = Message { id: 7, body, tag: Bytes::from_static(b"hello") };
    /// let wire = Bytes::from(binform::to_vec(&sent)?);
    /// let message: Message = binform::from_bytes(wire.clone())?;
    /// let range = wire.as_ptr_range();
    /// assert!(range.contains(&message.body.as_ptr()), "the body points into the input");
    /// assert!(!range.contains(&message.tag.as_ptr()), "the short tag is a copy");
    /// # Ok::<(), binform::Error>(())
    /// ```
    #[cfg(feature = "bytes")]
    #[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
    pub fn from_bytes<T: UnpackOwned>(&self, bytes: impl SharedBytes) -> Result<T> {
        let bytes = bytes.into_bytes();
        self.decode(&bytes, |input| {
            Reader::with_source(input, self, bytes.clone())
        })
    }

    /// Encodes `value` into a `bytes::BufMut` (a `BytesMut`, a socket
    /// buffer): the encoding is built in a vector, then put in one call.
    #[cfg(feature = "bytes")]
    #[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
    pub fn to_buf_mut<T: Pack + ?Sized>(
        &self,
        buf: &mut impl bytes::BufMut,
        value: &T,
    ) -> Result<()> {
        let bytes = self.to_vec(value)?;
        if buf.remaining_mut() < bytes.len() {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "the buffer has room for {} more bytes, the value takes {}",
                    buf.remaining_mut(),
                    bytes.len()
                ),
            ));
        }
        buf.put_slice(&bytes);
        Ok(())
    }

    /// The decode shared by every entry point: the byte limit, the
    /// fingerprint header, the value, trailing bytes, and breaking the
    /// cycles of a failed decode.
    fn decode<'de, T: Unpack<'de>>(
        &self,
        bytes: &'de [u8],
        reader: impl FnOnce(&'de [u8]) -> Reader<'de, L>,
    ) -> Result<T> {
        self.decode_with(
            bytes,
            Some(crate::schema::fingerprint_of::<T>),
            reader,
            T::unpack,
        )
    }

    /// [`decode`](Self::decode) with the value's decoder given: the
    /// derive's `unpack`, or the serde bridge's.
    pub(crate) fn decode_with<'de, T>(
        &self,
        bytes: &'de [u8],
        fingerprint: Option<fn() -> u64>,
        reader: impl FnOnce(&'de [u8]) -> Reader<'de, L>,
        unpack: impl FnOnce(&mut Reader<'de, L>) -> Result<T>,
    ) -> Result<T> {
        if let Some(limit) = self.max_bytes.filter(|&limit| bytes.len() > limit) {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "input of {} bytes is over the limit of {limit} bytes (Options::max_bytes)",
                    bytes.len(),
                ),
            ));
        }
        let expected = || match fingerprint {
            Some(fingerprint) => Ok(fingerprint()),
            None => self.header_facts(None).map(|_| 0),
        };
        let bytes = if self.self_describing {
            crate::schema::embedded::body_for::<L>(bytes, expected()?)?
        } else if self.fingerprint {
            check_header::<L>(bytes, expected()?)?
        } else {
            bytes
        };
        let mut reader = reader(bytes);
        let result = unpack(&mut reader);
        finish_decode(&mut reader, result)
    }

    /// Encodes `value` to an `io::Write`, streaming: what is complete goes
    /// to `writer` in blocks of about 64 KiB, and large byte strings go
    /// straight through, so the whole encoding is never held in memory
    /// (a 100 MB value costs about 64 KiB of buffer, not 100 MB). Wrap an
    /// unbuffered writer in a `BufWriter` only if values are small. A value
    /// that fails to encode part way may have written a prefix; to write
    /// all or nothing, encode with [`to_vec`](Options::to_vec) first.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn to_writer<T: Pack + ?Sized>(
        &self,
        writer: impl std::io::Write,
        value: &T,
    ) -> Result<()> {
        self.encode_writer(writer, Facts::of::<T>(), |w| value.pack(w))
    }

    /// The streaming encode shared by every entry point.
    #[cfg(feature = "std")]
    pub(crate) fn encode_writer(
        &self,
        mut writer: impl std::io::Write,
        facts: Option<Facts>,
        encode: impl FnOnce(&mut Writer<'_, L>) -> Result<()>,
    ) -> Result<()> {
        let mut buf = Vec::with_capacity(crate::write::STREAM_BUFFER);
        self.write_header(&mut buf, facts)?;
        let mut stream = crate::write::Stream::new(&mut writer);
        let mut w = Writer::streaming(&mut buf, &mut stream, self.max_depth);
        encode(&mut w)?;
        w.finish_stream()
    }

    /// Decodes a `T` from everything an `io::Read` yields up to its end.
    /// Reading stops with [`ErrorKind::LimitExceeded`] once more than
    /// [`byte_limit`](Options::byte_limit) arrive, so an endless stream cannot
    /// exhaust memory.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn from_reader<T: UnpackOwned>(&self, reader: impl std::io::Read) -> Result<T> {
        self.from_slice(&self.read_to_limit(reader)?)
    }

    /// Everything `reader` yields up to its end, at most
    /// [`byte_limit`](Options::byte_limit) bytes.
    #[cfg(feature = "std")]
    pub(crate) fn read_to_limit(&self, reader: impl std::io::Read) -> Result<Vec<u8>> {
        use std::io::Read;
        let mut bytes = Vec::new();
        let limit = self.byte_limit();
        reader
            .take((limit as u64).saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(Error::io)?;
        if bytes.len() > limit {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "the stream is longer than the limit of {limit} bytes (Options::max_bytes)"
                ),
            ));
        }
        Ok(bytes)
    }
}

/// Checks the fingerprint header and returns the payload after it.
fn check_header<L: crate::Layout>(bytes: &[u8], ours: u64) -> Result<&[u8]> {
    let (theirs, rest) = crate::header::open_in::<L>(bytes, HEADER_MAGIC, "fingerprint header")?;
    if theirs != ours {
        return Err(crate::header::mismatch(theirs, ours));
    }
    Ok(rest)
}
