//! `bytes::Bytes` and `bytes::BytesMut`: a length, then the bytes, exactly
//! like `Vec<u8>`.

use bytes::{Bytes, BytesMut};

use crate::{Pack, Reader, Result, Unpack, Writer};

impl Pack for Bytes {
    schema_transparent!([u8]);
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        self.as_ref().pack(w)
    }
}

impl<'de> Unpack<'de> for Bytes {
    unpack_shape!("seq", u8);
    const WIRE: crate::tolerant::Wire = crate::tolerant::Wire::Bytes;
    #[inline]
    fn placeholder(_: u32) -> Option<Self> {
        Some(Bytes::new())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        let bytes: &[u8] = Unpack::unpack(r)?;
        Ok(Bytes::copy_from_slice(bytes))
    }
}

impl Pack for BytesMut {
    schema_transparent!([u8]);
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        self.as_ref().pack(w)
    }
}

impl<'de> Unpack<'de> for BytesMut {
    unpack_shape!("seq", u8);
    const WIRE: crate::tolerant::Wire = crate::tolerant::Wire::Bytes;
    #[inline]
    fn placeholder(_: u32) -> Option<Self> {
        Some(BytesMut::new())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        let bytes: &[u8] = Unpack::unpack(r)?;
        Ok(BytesMut::from(bytes))
    }
}
