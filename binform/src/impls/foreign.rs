//! Types from other crates, each behind a feature named after its crate
//! (the default build depends on none of them).

#[cfg(feature = "uuid")]
mod uuid_impl {
    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// A UUID is its 16 bytes in RFC 9562 order (`Uuid::as_bytes`): every
    /// byte string is a valid UUID, so decoding cannot fail but by running
    /// out of input.
    impl Encoding for uuid::Uuid {
        encoding_builtin!("uuid");
    }

    impl Pack for uuid::Uuid {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            w.write_bytes(self.as_bytes());
            Ok(())
        }
    }

    impl<'de> Unpack<'de> for uuid::Uuid {
        const MIN_SIZE: usize = 16;

        #[inline]
        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            r.read_array::<16>().map(uuid::Uuid::from_bytes)
        }

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(uuid::Uuid::nil())
        }
    }
}

#[cfg(feature = "half")]
mod half_impl {
    use crate::wire::Wire;
    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// Half-precision floats are their 16 bits, little-endian (bit-exact,
    /// NaN payloads included), as `f32`/`f64` are theirs.
    macro_rules! half_float {
        ($($ty:ty => $name:literal),*) => {$(
            impl Encoding for $ty {
                encoding_builtin!($name);
                const WIRE: Wire = Wire::Framed;
            }

            impl Pack for $ty {
                #[inline]
                fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                    w.write_bytes(&self.to_bits().to_le_bytes());
                    Ok(())
                }
            }

            impl<'de> Unpack<'de> for $ty {
                const MIN_SIZE: usize = 2;

                #[inline]
                fn unpack(r: &mut Reader<'de>) -> Result<Self> {
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
}
