//! `rust_decimal::Decimal` (feature `rust_decimal`): the mantissa as a
//! zig-zag `i128` varint, then the scale (0 to 28) as a byte. Negative
//! zero keeps no sign (it equals zero).

use rust_decimal::Decimal;

use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl Encoding for Decimal {
    encoding_builtin!("decimal");
}

impl Pack for Decimal {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_i128(self.mantissa());
        w.write_u8(self.scale() as u8);
        Ok(())
    }
}

impl<'de> Unpack<'de> for Decimal {
    const MIN_SIZE: usize = 2;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let at = r.position();
        let mantissa = r.read_i128()?;
        let scale = r.read_u8()?;
        Decimal::try_from_i128_with_scale(mantissa, u32::from(scale)).map_err(|_| {
            r.error_at(
                at,
                ErrorKind::InvalidValue,
                alloc::format!(
                    "mantissa {mantissa} with scale {scale} is not a Decimal (96 bits, scale 0 to 28)"
                ),
            )
        })
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Decimal::ZERO)
    }
}
