//! [`ReadCursor`]: a reader's input and position held in locals across
//! the fields of one value.
//!
//! Why: a [`Reader`] whose address reaches any call that is not inlined
//! (a string's decoder, a slow path) lives in memory, so every field
//! reloaded the position, added to it and stored it back: a chain through
//! store-to-load forwarding of about 5 cycles a field, on top of the
//! varint's own, most of what a struct of scalars cost to decode (perf,
//! issue 14). A cursor copies the input and the position into a value
//! that lives in registers while a derived type reads its fields, and
//! gives the position back to the reader once at the end. Anything that
//! needs the reader itself (a string, a collection, a shared value, a
//! field of an unknown type, every error) gets it through
//! [`ReadCursor::reader`], which syncs before and reloads after. The
//! mirror of the encoder's [`Cursor`](crate::__private::Cursor).
//!
//! Every read checks its bounds against the locals, and whatever misses
//! the fast path (the input's end, a long varint, an error) is handed to
//! the reader's own method, so the cursor and the reader accept the same
//! bytes and report the same errors at the same offsets.

use super::Reader;
use crate::error::{Error, ErrorKind, Result};
use crate::varint;

/// A reader's input and position, held in locals while one value is read.
/// Made by [`Reader::with_cursor`]; the derive reads the fields of
/// compact types through it ([`Unpack::unpack_cursor`](crate::Unpack)).
#[doc(hidden)]
pub struct ReadCursor<'c, 'de> {
    r: &'c mut Reader<'de>,
    /// The reader's input as of the last sync.
    input: &'de [u8],
    /// The reader's position, ahead of it since the last sync.
    pos: usize,
}

impl<'de> Reader<'de> {
    /// Runs `f` with a cursor over this reader's input; the reader is at
    /// the cursor's position afterwards, whether or not `f` failed.
    #[doc(hidden)]
    #[inline(always)]
    pub fn with_cursor<R>(&mut self, f: impl FnOnce(&mut ReadCursor<'_, 'de>) -> R) -> R {
        let mut cursor = ReadCursor {
            input: self.input,
            pos: self.pos,
            r: self,
        };
        let result = f(&mut cursor);
        cursor.r.pos = cursor.pos;
        result
    }

    /// Reads an enum variant tag.
    #[inline]
    pub fn read_tag(&mut self) -> Result<u32> {
        Source::read_tag(self)
    }

    /// Reads a length prefix and checks it against
    /// [`Options::max_len`](crate::Options::max_len).
    #[inline(always)]
    pub fn read_len(&mut self) -> Result<usize> {
        Source::read_len(self)
    }
}

impl<'de> ReadCursor<'_, 'de> {
    /// Runs `f` on the reader itself (for anything the cursor does not
    /// read): synced before, the position reloaded after. The input needs
    /// no reload: a reader's methods leave it as they found it
    /// ([`Reader::read_within`] narrows it only while its closure runs).
    #[inline(always)]
    pub fn reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de>) -> R) -> R {
        self.r.pos = self.pos;
        let result = f(self.r);
        self.pos = self.r.pos;
        result
    }

    /// An error made by the reader at the cursor's position. Out of line,
    /// and handed the reader and the position, not the cursor: a cursor
    /// whose address reached the error's closure lived in memory, its
    /// position stored after every field.
    #[inline(always)]
    pub fn fail(&mut self, f: impl FnOnce(&Reader<'de>) -> Error) -> Error {
        fail_at(self.r, self.pos, f)
    }

    /// Reads one raw byte.
    #[inline(always)]
    pub fn read_u8(&mut self) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.reader(Reader::read_u8),
        }
    }

    /// Reads `N` raw bytes.
    #[inline(always)]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match super::array_at(self.input, self.pos) {
            Some(out) => {
                self.pos += N;
                Ok(out)
            }
            None => self.reader(Reader::read_array::<N>),
        }
    }

    /// Reads `n` raw bytes, borrowed from the input.
    #[inline(always)]
    pub fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        match super::bytes_at(self.input, self.pos, n) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => self.reader(|r| r.read_bytes(n)),
        }
    }

    /// Reads an unsigned varint (`docs/format.md` §2).
    #[inline(always)]
    pub fn read_varint(&mut self) -> Result<u64> {
        match varint::fast_at(self.input, self.pos) {
            Some((v, len)) => {
                self.pos += len;
                Ok(v)
            }
            None => self.reader(Reader::read_varint_slow),
        }
    }

    /// Reads a `u128` varint.
    #[inline(always)]
    pub fn read_varint_u128(&mut self) -> Result<u128> {
        if varint::short_u128_at(self.input, self.pos) {
            return self.read_varint().map(u128::from);
        }
        self.reader(Reader::read_varint_u128_long)
    }

    /// Reads an enum variant tag.
    #[inline(always)]
    pub fn read_tag(&mut self) -> Result<u32> {
        Source::read_tag(self)
    }
}

/// What the scalars' and strings' decoders need of their input: the
/// reader itself, or a cursor over it. Each such decoder is written once,
/// generic over it; what both share beyond that (tags, lengths, errors)
/// is written here.
pub(crate) trait Source<'de> {
    fn read_u8(&mut self) -> Result<u8>;
    fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]>;
    fn read_varint(&mut self) -> Result<u64>;
    fn position(&self) -> usize;
    fn max_len(&self) -> usize;
    /// Runs `f` on the reader, at the source's position.
    fn with_reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de>) -> R) -> R;

    /// An error made by the reader, at the source's position.
    #[cold]
    #[inline(always)]
    fn fail(&mut self, f: impl FnOnce(&Reader<'de>) -> Error) -> Error {
        self.with_reader(|r| f(r))
    }

    /// Reads an enum variant tag.
    #[inline(always)]
    fn read_tag(&mut self) -> Result<u32> {
        let start = self.position();
        let v = self.read_varint()?;
        u32::try_from(v).map_err(|_| tag_too_large(v, start))
    }

    /// Reads a length prefix and checks it against `Options::max_len`.
    #[inline(always)]
    fn read_len(&mut self) -> Result<usize> {
        let start = self.position();
        let v = self.read_varint()?;
        if v <= self.max_len() as u64 {
            Ok(v as usize)
        } else {
            Err(self.fail(|r| r.len_error(v, start)))
        }
    }
}

impl<'de> Source<'de> for Reader<'de> {
    #[inline(always)]
    fn read_u8(&mut self) -> Result<u8> {
        Reader::read_u8(self)
    }
    #[inline(always)]
    fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        Reader::read_bytes(self, n)
    }
    #[inline(always)]
    fn read_varint(&mut self) -> Result<u64> {
        Reader::read_varint(self)
    }
    #[inline(always)]
    fn position(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn max_len(&self) -> usize {
        self.max_len
    }
    #[inline(always)]
    fn with_reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de>) -> R) -> R {
        f(self)
    }
}

impl<'de> Source<'de> for ReadCursor<'_, 'de> {
    #[inline(always)]
    fn read_u8(&mut self) -> Result<u8> {
        ReadCursor::read_u8(self)
    }
    #[inline(always)]
    fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        ReadCursor::read_bytes(self, n)
    }
    #[inline(always)]
    fn read_varint(&mut self) -> Result<u64> {
        ReadCursor::read_varint(self)
    }
    #[inline(always)]
    fn position(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn max_len(&self) -> usize {
        self.r.max_len
    }
    #[inline(always)]
    fn with_reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de>) -> R) -> R {
        self.reader(f)
    }
    #[inline(always)]
    fn fail(&mut self, f: impl FnOnce(&Reader<'de>) -> Error) -> Error {
        ReadCursor::fail(self, f)
    }
}

/// [`ReadCursor::fail`]: the reader synced to `pos`, then `f`.
#[cold]
#[inline(never)]
fn fail_at<'de>(r: &mut Reader<'de>, pos: usize, f: impl FnOnce(&Reader<'de>) -> Error) -> Error {
    r.pos = pos;
    f(r)
}

#[cold]
#[inline(never)]
fn tag_too_large(v: u64, start: usize) -> Error {
    Error::new(
        ErrorKind::UnknownVariant,
        alloc::format!("variant tag {v} is too large"),
    )
    .at(start)
}
