//! The tolerant records' fields on the decode side (`docs/format.md` §12):
//! keys, wire types, and skipping what a reader does not know.

use alloc::format;

use crate::error::{Error, ErrorKind, Result};

use crate::read::{Reader, Unpack};

use crate::tolerant::wire::Wire;

impl<'de, L: crate::Layout> Reader<'de, L> {
    /// `Unpack::unpack_field`'s default: the plain encoding, as
    /// `Pack::pack_field` wrote it.
    ///
    /// A framed value is accepted whatever the reader's wire type: the frame
    /// holds the plain encoding, which every type reads, and writers before
    /// a type learned a shorter wire type (`VecDeque`, `LinkedList` and
    /// `BinaryHeap` were framed before they shared `Vec`'s) framed it.
    #[inline(always)]
    pub(crate) fn read_field_plain<T: Unpack<'de>>(&mut self, tag: u32, wire: Wire) -> Result<T> {
        let ours = crate::encoding::wire_in::<T, L>();
        if ours != Wire::Framed && wire == Wire::Framed {
            return self.read_framed_instead(T::unpack);
        }
        self.expect_wire(tag, wire, ours)?;
        match ours {
            Wire::Framed => {
                let len = self.read_len()?;
                self.read_within(len, T::unpack)
            }
            _ => T::unpack(self),
        }
    }

    /// A framed field whose type has a shorter wire type (an older
    /// writer's): kept out of line, so that the usual paths stay small.
    #[cold]
    #[inline(never)]
    fn read_framed_instead<T>(&mut self, unpack: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let len = self.read_len()?;
        self.read_within(len, unpack)
    }

    /// Reads the field count of a tolerant value, checked against the
    /// remaining input (every field takes at least its key) before any
    /// field is read.
    #[doc(hidden)]
    #[inline(always)]
    pub fn read_fields(&mut self) -> Result<Fields> {
        let start = self.position();
        let count = self.read_len()?;
        if count > self.remaining() {
            return Err(self.short_input_error(count, 1, start));
        }
        Ok(Fields {
            left: count,
            next: 0,
        })
    }

    /// Reads a framed field value with `f` (a `with` module's decoder).
    #[doc(hidden)]
    #[inline(always)]
    pub fn read_field_with<T>(
        &mut self,
        tag: u32,
        wire: Wire,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.expect_wire(tag, wire, Wire::Framed)?;
        let len = self.read_len()?;
        self.read_within(len, f)
    }

    /// Fails unless a known field came with the wire type its type has
    /// here: the writer's field of that tag had another type.
    #[doc(hidden)]
    #[inline(always)]
    pub fn expect_wire(&self, tag: u32, found: Wire, expected: Wire) -> Result<()> {
        if found == expected {
            Ok(())
        } else {
            Err(self.wire_error(tag, found, expected))
        }
    }

    #[cold]
    #[inline(never)]
    fn wire_error(&self, tag: u32, found: Wire, expected: Wire) -> Error {
        self.error(
            ErrorKind::InvalidValue,
            format!(
                "field tag {tag} has wire type {}, but this reader's field is {}",
                found.name(),
                expected.name()
            ),
        )
    }

    /// Skips the value of a field this reader does not know.
    #[doc(hidden)]
    #[inline]
    pub fn skip_field(&mut self, wire: Wire) -> Result<()> {
        let n = match wire {
            Wire::Seq(element) => return self.skip_seq(element),
            Wire::Varint => match self.rest().first() {
                Some(&first) => crate::varint::encoded_len(first),
                None => 1,
            },
            Wire::Bytes | Wire::Framed => self.read_len()?,
            Wire::Byte | Wire::Fixed4 | Wire::Fixed8 | Wire::Null => {
                wire.fixed_size().unwrap_or_default()
            }
        };
        self.skip(n)
    }

    /// Skips a sequence of `element`-typed values (each at least a byte,
    /// so the count is bounded by the input).
    fn skip_seq(&mut self, element: u8) -> Result<()> {
        let start = self.position();
        let count = self.read_len()?;
        // Packed integers take two bytes a block of 256, anything else at
        // least a byte an element.
        let least = if element == crate::tolerant::wire::PACKED_ELEMENT {
            crate::packed::layout::min_size(count)
        } else {
            count
        };
        if least > self.remaining() {
            return Err(self.short_input_bytes(count, least, start));
        }
        if element == crate::tolerant::wire::PACKED_ELEMENT {
            return self.skip_packed(count);
        }
        // `Wire::seq` let only element wire types through.
        let wire = Wire::element(element).unwrap_or(Wire::Framed);
        if let Some(size) = wire.fixed_size() {
            return self.skip(count.saturating_mul(size));
        }
        for _ in 0..count {
            self.skip_field(wire)?;
        }
        Ok(())
    }

    /// Skips `count` packed integers (§22) without knowing their type.
    fn skip_packed(&mut self, count: usize) -> Result<()> {
        use crate::packed::layout::{
            bits_len, check_bits, codes_len, form, padding_is_zero, payload_len, Form, BLOCK, SHORT,
        };
        let mut left = count;
        while left > 0 {
            let n = left.min(BLOCK);
            let at = self.position();
            let form = if n < SHORT {
                Form::Varints
            } else {
                let header = self.read_u8()?;
                form(header).map_err(|p| self.error_at(at, ErrorKind::InvalidValue, p))?
            };
            match form {
                Form::Varints => {
                    for _ in 0..n {
                        self.skip_field(Wire::Varint)?;
                    }
                }
                Form::Bits => {
                    // Tolerant sequences of packed integers hold at most
                    // 64 bits.
                    let bits = u32::from(self.read_u8()?);
                    check_bits(bits, 64)
                        .map_err(|p| self.error_at(at, ErrorKind::InvalidValue, p))?;
                    self.skip_packed_base()?;
                    self.skip(bits_len(n, bits))?;
                }
                Form::Lengths(code_bits) => {
                    let codes = self.read_bytes(codes_len(n, code_bits))?;
                    if !padding_is_zero(codes, n, code_bits) {
                        return Err(self.error_at(
                            at,
                            ErrorKind::InvalidValue,
                            "packed block of byte lengths with non-zero codes past its last value",
                        ));
                    }
                    let longest = crate::packed::layout::codes_longest(codes, code_bits);
                    if longest > 8 {
                        return Err(self.error_at(
                            at,
                            ErrorKind::InvalidValue,
                            format!("packed block of byte lengths with a {longest}-byte value"),
                        ));
                    }
                    self.skip(payload_len(codes, n, code_bits))?;
                }
                Form::Fixed(width) => {
                    self.skip_packed_base()?;
                    self.skip(n * width)?;
                }
            }
            left -= n;
        }
        Ok(())
    }

    /// Skips a packed block's base.
    fn skip_packed_base(&mut self) -> Result<()> {
        // Only integers of up to 64 bits are tolerant sequences of packed
        // integers (`u128`/`i128` fields are framed), so a base is a `u64`
        // varint: its first byte gives its length.
        self.skip_field(Wire::Varint)
    }
}

/// Walks the fields of one tolerant value: how many are left, and the tag
/// the next one has if its gap is zero.
#[doc(hidden)]
pub struct Fields {
    left: usize,
    next: u64,
}

impl Fields {
    /// No fields: the empty body of a tolerant enum variant.
    #[inline]
    pub fn none() -> Fields {
        Fields { left: 0, next: 0 }
    }

    /// Takes the next field if it is the `index`-th of the value and comes
    /// `gap` tags after the previous one, returning its wire type: the fast
    /// path, in which the generated decoder expects its own fields one
    /// after another, as its own version writes them, after
    /// [`take_exact`](Self::take_exact) found another wire type than the
    /// reader's (`Null` for an option, or a mismatch the field's decoder
    /// reports). The cursor itself is not advanced: the caller knows, at
    /// compile time, how many fields it took and their last tag, and says
    /// so with [`Fields::resume`]. Consumes nothing when the field is not
    /// the expected one, nor for sequences and gaps of 16 or more (the
    /// general path handles those).
    #[inline(always)]
    pub fn take<L: crate::Layout>(
        &self,
        r: &mut Reader<'_, L>,
        index: usize,
        gap: u32,
    ) -> Option<Wire> {
        if self.left <= index || gap >= 16 {
            return None;
        }
        // A one-byte key is `gap << 4 | wire << 1`.
        let b = r.next_byte_if(|b| b & 1 == 0 && u32::from(b >> 4) == gap && (b >> 1) & 7 != 7)?;
        Wire::from_bits((b >> 1) & 7)
    }

    /// Takes the next field if it is the `index`-th of the value, comes
    /// `gap` tags after the previous one and has exactly the wire type
    /// `expected` (the reader's own): the fastest path, one compare of a
    /// constant key (one byte for gaps below 16, two below 2048) for most
    /// fields. [`take`](Self::take) handles the other wire types a field
    /// accepts (`Null` for an option).
    #[inline(always)]
    pub fn take_exact<L: crate::Layout>(
        &self,
        r: &mut Reader<'_, L>,
        index: usize,
        gap: u32,
        expected: Wire,
    ) -> bool {
        if self.left <= index || gap >= 1 << 11 {
            return false;
        }
        let key = (u64::from(gap) << 3) | u64::from(expected.bits());
        // The key's varint bytes and, for a sequence, the element byte.
        let (word, len) = if key < 0x80 {
            (key << 1, 1)
        } else {
            ((key << 2) | 1, 2)
        };
        let (word, len) = match expected {
            Wire::Seq(element) => (word | (u64::from(element) << (8 * len)), len + 1),
            _ => (word, len),
        };
        let matches = match (len, r.rest()) {
            (1, [a, ..]) => u64::from(*a) == word,
            (2, [a, b, ..]) => (u64::from(*a) | (u64::from(*b) << 8)) == word,
            (3, [a, b, c, ..]) => {
                (u64::from(*a) | (u64::from(*b) << 8) | (u64::from(*c) << 16)) == word
            }
            _ => false,
        };
        if matches {
            r.advance(len);
        }
        matches
    }

    /// Whether every field has been read.
    #[inline(always)]
    pub fn is_done(&self) -> bool {
        self.left == 0
    }

    /// Records that the fast path took `taken` fields, the last with tag
    /// `last` (`None` if it took none).
    #[inline(always)]
    pub fn resume(&mut self, taken: usize, last: Option<u32>) {
        if let Some(last) = last {
            self.left -= taken;
            self.next = u64::from(last) + 1;
        }
    }

    /// Reads the next field's tag and wire type; `None` after the last.
    #[inline(always)]
    pub fn next<L: crate::Layout>(&mut self, r: &mut Reader<'_, L>) -> Result<Option<(u32, Wire)>> {
        // After a fast path that took every field, this is all that runs.
        if self.left == 0 {
            return Ok(None);
        }
        self.next_key(r)
    }

    #[inline(never)]
    fn next_key<L: crate::Layout>(&mut self, r: &mut Reader<'_, L>) -> Result<Option<(u32, Wire)>> {
        let start = r.position();
        let key = r.read_varint()?;
        // `next` is at most 2^32 and the gap below 2^61: no overflow.
        let tag = self.next + (key >> 3);
        let Ok(t) = u32::try_from(tag) else {
            return Err(r.error_at(
                start,
                ErrorKind::InvalidValue,
                format!("field tag {tag} is larger than the largest tag, 2^32 - 1"),
            ));
        };
        let wire = match Wire::from_bits((key & 7) as u8) {
            Some(wire) => wire,
            None => {
                let element = r.read_u8()?;
                Wire::seq(element).ok_or_else(|| {
                    r.error(
                        ErrorKind::InvalidValue,
                        format!("field tag {tag}: {element} is not a sequence element wire type"),
                    )
                })?
            }
        };
        self.left -= 1;
        self.next = tag + 1;
        Ok(Some((t, wire)))
    }
}
