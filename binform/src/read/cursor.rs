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
pub struct ReadCursor<'c, 'de, L: crate::Layout = crate::layout::Compact> {
    r: &'c mut Reader<'de, L>,
    /// The reader's input as of [`Reader::with_cursor`]; never reloaded
    /// (`wide_end` is computed from it, and reads check against it, not
    /// against the reader's).
    input: &'de [u8],
    /// The reader's position, ahead of it since the last sync.
    pos: usize,
    /// Positions below this have 8 bytes of input from them
    /// (`input.len() - 7`, or 0): one compare of two locals gates a word
    /// load. Slicing `pos..pos + 8` instead tests for the add's wrap and
    /// for the end, 7 instructions a field (issue 14).
    wide_end: usize,
}

impl<'de, L: crate::Layout> Reader<'de, L> {
    /// Runs `f` with a cursor over this reader's input; the reader is at
    /// the cursor's position afterwards, whether or not `f` failed.
    #[doc(hidden)]
    #[inline(always)]
    pub fn with_cursor<R>(&mut self, f: impl FnOnce(&mut ReadCursor<'_, 'de, L>) -> R) -> R {
        let mut cursor = ReadCursor {
            input: self.input,
            pos: self.pos,
            wide_end: self.input.len().saturating_sub(7),
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

impl<'de, L: crate::Layout> ReadCursor<'_, 'de, L> {
    /// Runs `f` on the reader itself (for anything the cursor does not
    /// read): synced before, the position reloaded after. The input is
    /// not reloaded: a reader's methods leave it as they found it
    /// ([`Reader::read_within`] narrows it only while its closure runs),
    /// and were it left otherwise (a panic caught inside `read_within`),
    /// the cursor's reads still check against its own input.
    #[inline(always)]
    pub fn reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de, L>) -> R) -> R {
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
    pub fn fail(&mut self, f: impl FnOnce(&Reader<'de, L>) -> Error) -> Error {
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

    /// The 8 input bytes at the position, if there are 8.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn word(&self) -> Option<[u8; 8]> {
        if self.pos < self.wide_end {
            // SAFETY: `pos < wide_end = input.len() - 7` (`wide_end` is
            // computed from `input`, and neither changes after), so
            // `pos + 8 <= input.len()`: the unaligned 8-byte read stays
            // inside the input; `[u8; 8]` needs no alignment.
            Some(unsafe {
                self.input
                    .as_ptr()
                    .add(self.pos)
                    .cast::<[u8; 8]>()
                    .read_unaligned()
            })
        } else {
            None
        }
    }

    /// Reads `N` raw bytes.
    #[inline(always)]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        if N <= 8 {
            if let Some(word) = self.word() {
                let mut out = [0u8; N];
                out.copy_from_slice(word.get(..N).unwrap_or_default());
                self.pos += N;
                return Ok(out);
            }
        }
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
        let fast = match self.word() {
            Some(word) => varint::from_word(u64::from_le_bytes(word)),
            None => varint::near_end_at(self.input, self.pos),
        };
        match fast {
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
    /// The layout of the reader underneath.
    type L: crate::Layout;
    fn read_u8(&mut self) -> Result<u8>;
    fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]>;
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]>;
    fn read_varint(&mut self) -> Result<u64>;
    fn position(&self) -> usize;
    fn max_len(&self) -> usize;
    /// Runs `f` on the reader, at the source's position.
    fn with_reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de, Self::L>) -> R) -> R;

    /// An error made by the reader, at the source's position.
    #[cold]
    #[inline(always)]
    fn fail(&mut self, f: impl FnOnce(&Reader<'de, Self::L>) -> Error) -> Error {
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

impl<'de, L: crate::Layout> Source<'de> for Reader<'de, L> {
    type L = L;
    #[inline(always)]
    fn read_u8(&mut self) -> Result<u8> {
        Reader::read_u8(self)
    }
    #[inline(always)]
    fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        Reader::read_bytes(self, n)
    }
    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        Reader::read_array(self)
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
    fn with_reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de, L>) -> R) -> R {
        f(self)
    }
}

impl<'de, L: crate::Layout> Source<'de> for ReadCursor<'_, 'de, L> {
    type L = L;
    #[inline(always)]
    fn read_u8(&mut self) -> Result<u8> {
        ReadCursor::read_u8(self)
    }
    #[inline(always)]
    fn read_bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        ReadCursor::read_bytes(self, n)
    }
    #[inline(always)]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        ReadCursor::read_array(self)
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
    fn with_reader<R>(&mut self, f: impl FnOnce(&mut Reader<'de, L>) -> R) -> R {
        self.reader(f)
    }
    #[inline(always)]
    fn fail(&mut self, f: impl FnOnce(&Reader<'de, L>) -> Error) -> Error {
        ReadCursor::fail(self, f)
    }
}

/// [`ReadCursor::fail`]: the reader synced to `pos`, then `f`.
#[cold]
#[inline(never)]
fn fail_at<'de, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    pos: usize,
    f: impl FnOnce(&Reader<'de, L>) -> Error,
) -> Error {
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

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::{Options, Reader};

    /// What a read produced: the value and the position after it, or the
    /// error's kind, offset and message.
    fn outcome<T: core::fmt::Debug>(r: crate::Result<T>, pos: usize) -> String {
        match r {
            Ok(v) => format!("{v:?} then {pos}"),
            Err(e) => format!("{:?} at {:?}: {e}", e.kind(), e.offset()),
        }
    }

    /// Varints and arrays read through a cursor from every position of
    /// every window of up to 12 bytes of a stream of varints of every
    /// length (so each read starts with 8 bytes to spare, with fewer, and
    /// at the end, and whole forms of every length end exactly at the
    /// input's end) give what the reader gives. Under Miri this checks
    /// the cursor's unchecked word load.
    #[test]
    fn a_cursor_reads_what_the_reader_reads_at_every_distance_from_the_end() {
        let options = Options::new();
        let mut stream = Vec::new();
        for v in [
            5u64,
            300,
            1 << 20,
            1 << 22,
            1 << 30,
            1 << 40,
            1 << 50,
            1 << 56,
            9,
        ] {
            let (bytes, len) = crate::varint::encode_u64(v);
            stream.extend_from_slice(&bytes[..len]);
        }
        // A form longer than it needs (0 in two bytes), then 1 << 9.
        stream.extend_from_slice(&[0x01, 0x00, 0x01, 0x08]);
        let mut near_end = 0;
        // Under Miri (CI runs this test there, for the unchecked loads),
        // every fifth start: the ends still meet every value's bytes.
        for from in (0..stream.len()).step_by(if cfg!(miri) { 5 } else { 1 }) {
            for to in from..=stream.len().min(from + 12) {
                let input = &stream[from..to];
                for start in 0..=input.len() {
                    let reader = || {
                        let mut r = Reader::new(input, &options);
                        r.pos = start;
                        r
                    };
                    let (mut r, mut c) = (reader(), reader());
                    let varint = outcome(r.read_varint(), r.pos);
                    assert_eq!(
                        c.with_cursor(|c| outcome(c.read_varint(), c.pos)),
                        varint,
                        "varint at {start} of {input:x?}"
                    );
                    if input.len() - start < 8 && varint.contains("then") {
                        near_end += 1;
                    }
                    let (mut r, mut c) = (reader(), reader());
                    assert_eq!(
                        c.with_cursor(|c| outcome(c.read_array::<4>(), c.pos)),
                        outcome(r.read_array::<4>(), r.pos),
                        "4 bytes at {start} of {input:x?}"
                    );
                    let (mut r, mut c) = (reader(), reader());
                    assert_eq!(
                        c.with_cursor(|c| outcome(c.read_array::<8>(), c.pos)),
                        outcome(r.read_array::<8>(), r.pos),
                        "8 bytes at {start} of {input:x?}"
                    );
                }
            }
        }
        assert!(near_end > 100, "{near_end} varints decoded near the end");
    }
}
