//! `bytes::Bytes` and `bytes::BytesMut`: a length, then the bytes, exactly
//! like `Vec<u8>`.

use bytes::{Bytes, BytesMut};

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

impl Encoding for Bytes {
    encoding_transparent!([u8]);
}

impl Pack for Bytes {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_ref().pack(w)
    }
}

impl<'de> Unpack<'de> for Bytes {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Bytes::new())
    }

    const MIN_SIZE: usize = 1;

    /// Shares the input's buffer when decoding from `Bytes`
    /// (`binform::from_bytes`), copies otherwise.
    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let bytes: &[u8] = Unpack::unpack(r)?;
        Ok(r.shared_bytes(bytes)
            .unwrap_or_else(|| Bytes::copy_from_slice(bytes)))
    }
}

impl Encoding for BytesMut {
    encoding_transparent!([u8]);
}

impl Pack for BytesMut {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_ref().pack(w)
    }
}

impl<'de> Unpack<'de> for BytesMut {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(BytesMut::new())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let bytes: &[u8] = Unpack::unpack(r)?;
        Ok(BytesMut::from(bytes))
    }
}
