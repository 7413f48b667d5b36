//! [`Reader`]: a bounds-checked view of the input and the limits of one
//! decode call; its reads of bytes, varints and lengths, and its errors.

use alloc::boxed::Box;
use alloc::format;

use crate::error::{Error, ErrorKind, Result};
use crate::layout::{Compact, Layout};
use crate::options::Options;
use core::marker::PhantomData;
use core::mem::ManuallyDrop;

use crate::refs::DecodeRefs;
use crate::varint::{self, VarintError};

use super::{array_at, bytes_at, KEY_EXPANSION_BYTES};

/// The decode-side cursor handed to [`Unpack::unpack`](super::Unpack::unpack): a bounds-checked view
/// of the input plus the limits of one decode call. `L` is the layout it
/// reads ([`Compact`] unless named: [`crate::layout`]).
pub struct Reader<'de, L: Layout = Compact> {
    pub(super) input: &'de [u8],
    pub(super) pos: usize,
    pub(super) depth_left: u32,
    pub(super) max_depth: u32,
    pub(super) max_len: usize,
    /// Elements of `MIN_SIZE == 0` types still allowed in this decode.
    pub(super) empty_budget: usize,
    /// Bytes of memory this decode may still build (`Options::max_memory`).
    pub(super) memory_left: usize,
    /// The deepest level reached, references counted at the depth of what
    /// they point to, since the shared value being decoded began (or since
    /// the start): how deep that value is.
    pub(super) high_water: u32,
    /// Values built so far, shared values counted at every reference: what
    /// walking everything decoded (hashing it, comparing it) would cost.
    pub(super) expansion: u64,
    /// How much expansion the keys of maps and sets may still have.
    pub(super) key_expansion_left: u64,
    /// Bytes of the transient vectors behind the lazy column being read
    /// (`read::lazy`): what is given back once its elements are built.
    pub(crate) transient: usize,
    /// Shared values decoded so far; created on the first `Rc`/`Arc`.
    /// Dropped by hand (see `Drop`), so that a decode without shared
    /// values pays one test, not a call.
    pub(crate) refs: ManuallyDrop<Option<Box<DecodeRefs>>>,
    /// Whether a strong reference cycle is an error.
    pub(crate) reject_cycles: bool,
    /// The buffer the input is part of, when decoding from `bytes::Bytes`:
    /// `Bytes` fields share it instead of copying.
    #[cfg(feature = "bytes")]
    pub(super) source: ManuallyDrop<Option<bytes::Bytes>>,
    pub(super) layout: PhantomData<L>,
}

impl<L: crate::Layout> Drop for Reader<'_, L> {
    /// The reference table and the source buffer dropped out of line:
    /// inline, their drop code made every decode save and restore six
    /// registers around a call (about 45 instructions of 520 for a small
    /// message).
    #[inline(always)]
    fn drop(&mut self) {
        // The source first: its drop cannot panic, the shared values' (a
        // user's `Drop`) can, and would skip what follows.
        #[cfg(feature = "bytes")]
        if self.source.is_some() {
            self.drop_source();
        }
        if self.refs.is_some() {
            self.drop_refs();
        }
    }
}

impl<'de, L: crate::Layout> Reader<'de, L> {
    /// Counts `values` as transient memory of the lazy column being read
    /// (`read::lazy::unpack_lazy` gives it back).
    #[inline(always)]
    pub(crate) fn note_transient<T>(&mut self, values: &[T]) {
        let bytes = values.len().saturating_mul(core::mem::size_of::<T>());
        self.transient = self.transient.saturating_add(bytes);
    }

    /// A reader over `input` with the limits of `options`. The byte budget
    /// (`max_bytes`) is checked by the entry points, not here.
    #[inline]
    pub fn new(input: &'de [u8], options: &Options<L>) -> Self {
        let memory = options.memory_limit(input.len());
        Reader {
            input,
            pos: 0,
            depth_left: options.depth_limit(),
            max_depth: options.depth_limit(),
            max_len: options.len_limit(),
            empty_budget: options.len_limit(),
            memory_left: memory,
            high_water: 0,
            expansion: 0,
            key_expansion_left: (memory / KEY_EXPANSION_BYTES) as u64,
            transient: 0,
            refs: ManuallyDrop::new(None),
            reject_cycles: options.cycles_rejected(),
            #[cfg(feature = "bytes")]
            source: ManuallyDrop::new(None),
            layout: PhantomData,
        }
    }

    /// A reader over `input`, which is part of `source`.
    #[cfg(feature = "bytes")]
    pub(crate) fn with_source(
        input: &'de [u8],
        options: &Options<L>,
        source: bytes::Bytes,
    ) -> Self {
        let mut reader = Reader::new(input, options);
        *reader.source = Some(source);
        reader
    }

    #[cfg(feature = "bytes")]
    #[cold]
    #[inline(never)]
    pub(super) fn drop_source(&mut self) {
        drop(core::mem::take(&mut *self.source));
    }

    /// `slice` (just read from the input) as part of the source buffer,
    /// without copying, when there is one.
    #[cfg(feature = "bytes")]
    pub(crate) fn shared_bytes(&self, slice: &[u8]) -> Option<bytes::Bytes> {
        let source = self.source.as_ref()?;
        let offset = (slice.as_ptr() as usize).checked_sub(source.as_ptr() as usize)?;
        let end = offset.checked_add(slice.len())?;
        (end <= source.len()).then(|| source.slice(offset..end))
    }

    /// The byte offset of the next byte to read.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// How many input bytes are left.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.input.len() - self.pos
    }

    /// Makes an error of `kind` at the current offset.
    #[cold]
    #[inline(never)]
    pub fn error(&self, kind: ErrorKind, message: impl Into<alloc::string::String>) -> Error {
        Error::new(kind, message).at(self.pos)
    }

    /// Makes an error of `kind` at an earlier `offset`, such as the start of
    /// the value that turned out to be invalid.
    #[cold]
    #[inline(never)]
    pub fn error_at(
        &self,
        offset: usize,
        kind: ErrorKind,
        message: impl Into<alloc::string::String>,
    ) -> Error {
        Error::new(kind, message).at(offset)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn end_error(&self, needed: usize) -> Error {
        self.error(
            ErrorKind::UnexpectedEnd,
            format!("needed {needed} more bytes, {} remain", self.remaining()),
        )
    }

    #[cold]
    #[inline(never)]
    pub(super) fn varint_error(&self, e: VarintError) -> Error {
        match e {
            VarintError::End => self.error(ErrorKind::UnexpectedEnd, "input ends inside a varint"),
            VarintError::Invalid => self.error(
                ErrorKind::InvalidVarint,
                "varint is not in its shortest form",
            ),
        }
    }

    /// Reads one byte.
    #[inline(always)]
    pub fn read_u8(&mut self) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.end_error(1)),
        }
    }

    /// Reads `n` raw bytes, borrowed from the input.
    #[inline]
    pub fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        match bytes_at(self.input, self.pos, n) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => Err(self.end_error(n)),
        }
    }

    /// Reads exactly `N` raw bytes into an array.
    #[inline(always)]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match array_at(self.input, self.pos) {
            Some(out) => {
                self.pos += N;
                Ok(out)
            }
            None => Err(self.end_error(N)),
        }
    }

    /// Reads an unsigned varint, in either layout
    /// ([`read_u64`](Self::read_u64) follows the layout).
    #[inline(always)]
    pub fn read_varint(&mut self) -> Result<u64> {
        match varint::fast_at(self.input, self.pos) {
            Some((v, len)) => {
                self.pos += len;
                Ok(v)
            }
            None => self.read_varint_slow(),
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn read_varint_slow(&mut self) -> Result<u64> {
        match varint::decode_u64(self.input.get(self.pos..).unwrap_or_default()) {
            Ok((v, len)) => {
                self.pos += len;
                Ok(v)
            }
            Err(e) => Err(self.varint_error(e)),
        }
    }

    /// Reads a zig-zag signed varint, in either layout
    /// ([`read_i64`](Self::read_i64) follows the layout).
    #[inline(always)]
    pub fn read_varint_signed(&mut self) -> Result<i64> {
        self.read_varint().map(varint::unzigzag_i64)
    }

    /// Reads a `u128` varint, in either layout
    /// ([`read_u128`](Self::read_u128) follows the layout).
    #[inline(always)]
    pub fn read_varint_u128(&mut self) -> Result<u128> {
        if varint::short_u128_at(self.input, self.pos) {
            return self.read_varint().map(u128::from);
        }
        self.read_varint_u128_long()
    }

    #[inline(never)]
    pub(super) fn read_varint_u128_long(&mut self) -> Result<u128> {
        match varint::decode_u128(self.input.get(self.pos..).unwrap_or_default()) {
            Ok((v, len)) => {
                self.pos += len;
                Ok(v)
            }
            Err(e) => Err(self.varint_error(e)),
        }
    }

    /// The error for a `#[binform(required)]` field that a tolerant
    /// payload does not hold (called by derived code).
    #[doc(hidden)]
    #[cold]
    #[inline(never)]
    pub fn missing_field(&self, name: &str, tag: u32) -> Error {
        self.error(
            ErrorKind::MissingField,
            format!("the payload has no field `{name}` (tag {tag}), which is required"),
        )
    }

    /// Builds the error for a tag that names no variant of `type_name`.
    #[cold]
    #[inline(never)]
    pub fn unknown_variant(&self, tag: u32, type_name: &str) -> Error {
        // Point at the tag, which was just read.
        let start = self.pos.saturating_sub(varint::len_u64(tag as u64));
        self.error_at(
            start,
            ErrorKind::UnknownVariant,
            format!("{type_name} has no variant with tag {tag}"),
        )
    }

    /// Runs `f` on exactly the next `len` bytes: `f` cannot read past them
    /// and must consume all of them. How version-tolerant types decode one
    /// length-prefixed field.
    #[inline(always)]
    pub fn read_within<R>(
        &mut self,
        len: usize,
        f: impl FnOnce(&mut Self) -> Result<R>,
    ) -> Result<R> {
        let start = self.pos;
        let end = match start.checked_add(len) {
            Some(end) if end <= self.input.len() => end,
            _ => return Err(self.end_error(len)),
        };
        let whole = self.input;
        self.input = whole.get(..end).unwrap_or(whole);
        let result = f(self);
        self.input = whole;
        let value = result?;
        if self.pos != end {
            return Err(self.leftover_error(len, end));
        }
        Ok(value)
    }

    #[cold]
    #[inline(never)]
    pub(super) fn leftover_error(&self, len: usize, end: usize) -> Error {
        self.error_at(
            self.pos,
            ErrorKind::InvalidValue,
            format!(
                "field of {} has {} left over",
                crate::error::bytes(len),
                crate::error::bytes(end.saturating_sub(self.pos))
            ),
        )
    }

    /// Skips `len` bytes (an unknown field of a version-tolerant type).
    #[inline]
    pub fn skip(&mut self, len: usize) -> Result<()> {
        self.read_bytes(len).map(|_| ())
    }

    /// Consumes the next byte if there is one and `accept` holds for it.
    #[inline(always)]
    pub(crate) fn next_byte_if(&mut self, accept: impl FnOnce(u8) -> bool) -> Option<u8> {
        match self.input.get(self.pos) {
            Some(&b) if accept(b) => {
                self.pos += 1;
                Some(b)
            }
            _ => None,
        }
    }

    /// The input not read yet.
    #[inline(always)]
    pub(crate) fn rest(&self) -> &'de [u8] {
        let input: &'de [u8] = self.input;
        input.get(self.pos..).unwrap_or_default()
    }

    /// Moves past `n` bytes of [`rest`](Self::rest) (never past the end).
    #[inline(always)]
    pub(crate) fn advance(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.input.len());
    }

    /// Fails with [`ErrorKind::TrailingBytes`] unless all input was read.
    pub fn finish(&self) -> Result<()> {
        if self.pos == self.input.len() {
            Ok(())
        } else {
            Err(self.trailing_error())
        }
    }

    /// Bytes left after the value, with a hint when the input starts with
    /// a header (a payload written with `fingerprint(true)` or
    /// `self_describing(true)` and read without it decodes as junk and
    /// leaves bytes over; with the option, the header was taken off first).
    #[cold]
    #[inline(never)]
    fn trailing_error(&self) -> Error {
        let e = self.error(
            ErrorKind::TrailingBytes,
            format!(
                "{} left after the value",
                crate::error::bytes(self.remaining())
            ),
        );
        let starts = |magic: [u8; 4]| self.input.get(..3) == magic.get(..3);
        if starts(crate::header::FINGERPRINT_MAGIC) {
            e.with_hint(
                "the input starts with a fingerprint header (BFM): was it written with \
                 Options::fingerprint(true)? Decode with the same option",
            )
        } else if starts(crate::header::SELF_DESCRIBING_MAGIC) {
            e.with_hint(
                "the input starts with a self-describing header (BFS): was it written with \
                 Options::self_describing(true)? Decode with the same option, or read it as a \
                 binform::Value",
            )
        } else {
            e
        }
    }
}
