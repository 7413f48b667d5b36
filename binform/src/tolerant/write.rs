//! The tolerant records' fields on the encode side (`docs/format.md` §12):
//! each field's key (the tag gap and the wire type) and its value, in one
//! store where the value is a scalar.

use crate::error::Result;
use crate::varint;
use crate::write::{Pack, Writer};

use super::wire::Wire;

impl<L: crate::Layout> Writer<'_, L> {
    /// Writes one field of a version-tolerant type, `gap` tags after the
    /// previous one.
    #[doc(hidden)]
    #[inline(always)]
    pub fn write_field<T: Pack + ?Sized>(&mut self, gap: u32, value: &T) -> Result<()> {
        value.pack_field(u64::from(gap) << 3, self)
    }

    /// Writes one field whose value `f` writes (a `with` module's), framed.
    #[doc(hidden)]
    #[inline(always)]
    pub fn write_field_with(
        &mut self,
        gap: u32,
        f: impl FnOnce(&mut Self) -> Result<()>,
    ) -> Result<()> {
        self.write_varint((u64::from(gap) << 3) | u64::from(Wire::Framed.bits()));
        self.write_len_prefixed(f)
    }

    /// Writes a one-byte key and a varint with one 8-byte store where both
    /// fit (keys are compile-time constants, so the test on them folds away).
    #[inline(always)]
    pub(crate) fn write_keyed_varint(&mut self, key: u64, v: u64) {
        if key < 0x80 && v < 1 << 49 {
            let (value, len) = varint::prefix_word(v);
            self.write_word_prefix((value << 8) | (key << 1), len + 1);
        } else {
            self.write_varint(key);
            self.write_varint(v);
        }
    }

    /// Writes a one-byte key and `N` raw bytes with one store.
    #[inline(always)]
    pub(crate) fn write_keyed_bytes<const N: usize>(&mut self, key: u64, bytes: [u8; N]) {
        if key < 0x80 && N < 8 {
            let mut word = [0u8; 8];
            word[0] = (key as u8) << 1;
            word[1..=N].copy_from_slice(&bytes);
            self.write_word_prefix(u64::from_le_bytes(word), N + 1);
        } else if key < 0x80 && N < 16 {
            let mut block = [0u8; 16];
            block[0] = (key as u8) << 1;
            block[1..=N].copy_from_slice(&bytes);
            self.write_prefix(block, N + 1);
        } else {
            self.write_varint(key);
            self.write_bytes(&bytes);
        }
    }

    /// `Pack::pack_field`'s default: the key, then the plain encoding,
    /// framed by its length unless `T::WIRE` says it delimits itself.
    #[inline(always)]
    pub(crate) fn write_field_plain<T: Pack + ?Sized>(
        &mut self,
        value: &T,
        gap_key: u64,
    ) -> Result<()> {
        let wire = crate::encoding::wire_in::<T, L>();
        match wire {
            Wire::Framed => {
                self.write_varint(gap_key | u64::from(Wire::Framed.bits()));
                self.write_len_prefixed(|w| value.pack(w))
            }
            Wire::Seq(element) => {
                self.write_keyed_bytes(gap_key | u64::from(wire.bits()), [element]);
                value.pack(self)
            }
            wire => {
                self.write_varint(gap_key | u64::from(wire.bits()));
                value.pack(self)
            }
        }
    }
}
