//! `bytes::Bytes` and `bytes::BytesMut`: a length, then the bytes, exactly
//! like `Vec<u8>`.

use bytes::{Bytes, BytesMut};

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

/// The shortest `Bytes` field that shares the input's buffer instead of
/// being copied (when decoding from `Bytes`): a field kept alive holds
/// its whole frame, so a kept field holds at most `frame / SHARE_FROM`
/// times its own size. Shorter fields are copied, which costs less than
/// the memory it frees.
pub const SHARE_FROM: usize = 64;

impl Encoding for Bytes {
    encoding_transparent!([u8]);
}

impl Pack for Bytes {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_ref().pack(w)
    }

    crate::impls::seq::seq_column_pack!(|b: &'a Self| b.as_ref());
}

impl<'de> Unpack<'de> for Bytes {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Bytes::new())
    }

    const MIN_SIZE: usize = 1;

    /// Shares the input's buffer when decoding from `Bytes`
    /// (`binform::from_bytes`, the codec) and the field is at least
    /// [`SHARE_FROM`] bytes long; copies otherwise. A shared field keeps
    /// the whole buffer alive, so a small one kept from a large frame
    /// would hold the frame (50 frames of 1 MiB held 36.7 MB for 50
    /// one-byte fields): below the threshold, the copy is cheaper than
    /// what it frees.
    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let bytes: &[u8] = Unpack::unpack(r)?;
        bytes_of(r, bytes)
    }

    /// A column of lengths, packed (two bytes for 256).
    const COLUMN_MIN: usize = 2;

    /// A column of byte strings (§27), each shared or copied as one
    /// field would be.
    fn unpack_vec<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        len: usize,
    ) -> Result<alloc::vec::Vec<Self>> {
        each_of(r, len, bytes_of)
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

    crate::impls::seq::seq_column_pack!(|b: &'a Self| b.as_ref());
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
        r.charge_copy(bytes.len())?;
        Ok(BytesMut::from(bytes))
    }

    /// A column of lengths, packed (two bytes for 256).
    const COLUMN_MIN: usize = 2;

    /// A column of byte strings (§27), each copied.
    fn unpack_vec<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        len: usize,
    ) -> Result<alloc::vec::Vec<Self>> {
        each_of(r, len, |r, bytes| {
            r.charge_copy(bytes.len())?;
            Ok(BytesMut::from(bytes))
        })
    }
}

/// A field of `bytes` read from the input: shared with the input's buffer
/// when decoding from `Bytes` and it is at least [`SHARE_FROM`] long,
/// else copied.
fn bytes_of<L: crate::Layout>(r: &mut Reader<'_, L>, bytes: &[u8]) -> Result<Bytes> {
    if bytes.len() >= SHARE_FROM {
        if let Some(shared) = r.shared_bytes(bytes) {
            return Ok(shared);
        }
    }
    r.charge_copy(bytes.len())?;
    Ok(Bytes::copy_from_slice(bytes))
}

/// A column of `len` byte strings, each made into a buffer by `make`.
fn each_of<'de, B, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    len: usize,
    mut make: impl FnMut(&mut Reader<'de, L>, &'de [u8]) -> Result<B>,
) -> Result<alloc::vec::Vec<B>> {
    let room = r.cautious_capacity::<B>(len);
    let slices = <&[u8]>::unpack_vec(r, len)?;
    let n = slices.len();
    let mut out = r.vec_with_room(n, room)?;
    for (i, bytes) in slices.into_iter().enumerate() {
        // Grown toward the charged length, never doubled past it.
        if out.len() == out.capacity() {
            r.grow_toward(&mut out, i + 1, n)?;
        }
        out.push(make(r, bytes)?);
    }
    Ok(out)
}
