//! `uuid::Uuid` (feature `uuid`): its 16 bytes.

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

/// A UUID is its 16 bytes in RFC 9562 order (`Uuid::as_bytes`): every
/// byte string is a valid UUID, so decoding cannot fail but by running
/// out of input.
impl Encoding for uuid::Uuid {
    encoding_builtin!("uuid");
}

impl Pack for uuid::Uuid {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_bytes(self.as_bytes());
        Ok(())
    }
}

impl<'de> Unpack<'de> for uuid::Uuid {
    const MIN_SIZE: usize = 16;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        r.read_array::<16>().map(uuid::Uuid::from_bytes)
    }

    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(uuid::Uuid::nil())
    }
}
