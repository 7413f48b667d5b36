//! `half::f16` and `half::bf16` (feature `half`): their 16 bits.

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

/// Half-precision floats are their 16 bits, little-endian (bit-exact,
/// NaN payloads included), as `f32`/`f64` are theirs.
macro_rules! half_float {
    ($($ty:ty => $name:literal),*) => {$(
        impl Encoding for $ty {
            encoding_builtin!($name);
        }

        impl Pack for $ty {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                w.write_bytes(&self.to_bits().to_le_bytes());
                Ok(())
            }
        }

        impl<'de> Unpack<'de> for $ty {
            const MIN_SIZE: usize = 2;

            #[inline]
            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                r.read_array::<2>().map(|b| <$ty>::from_bits(u16::from_le_bytes(b)))
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some(<$ty>::ZERO)
            }
        }
    )*};
}

half_float!(half::f16 => "f16", half::bf16 => "bf16");
