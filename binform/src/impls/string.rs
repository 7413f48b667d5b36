//! `str`, `String`, `&str`, `Box<str>`: a length, then UTF-8 bytes.

use alloc::boxed::Box;
use alloc::string::String;

use crate::wire::Wire;
use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

impl Encoding for str {
    encoding_builtin!("string");
    const WIRE: Wire = Wire::Bytes;
}

impl Pack for str {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        w.write_len(self.len());
        w.write_bytes(self.as_bytes());
        Ok(())
    }

    /// The key and the length in one store.
    #[inline(always)]
    fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
        w.write_keyed_varint(gap_key | u64::from(Wire::Bytes.bits()), self.len() as u64);
        w.write_bytes(self.as_bytes());
        Ok(())
    }
}

impl Encoding for String {
    encoding_transparent!(str);
}

impl Pack for String {
    #[inline]
    fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
        self.as_str().pack(w)
    }

    #[inline(always)]
    fn pack_field(&self, gap_key: u64, w: &mut Writer<'_>) -> Result<()> {
        self.as_str().pack_field(gap_key, w)
    }
}

/// Reads a length-prefixed UTF-8 string borrowed from the input.
#[inline]
pub(crate) fn read_str<'de>(r: &mut Reader<'de>) -> Result<&'de str> {
    let len = r.read_len()?;
    let start = r.position();
    let bytes = r.read_bytes(len)?;
    core::str::from_utf8(bytes).map_err(|e| {
        r.error_at(
            start + e.valid_up_to(),
            ErrorKind::InvalidUtf8,
            "string is not valid UTF-8",
        )
    })
}

impl<'de: 'a, 'a> Unpack<'de> for &'a str {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some("")
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        read_str(r)
    }
}

impl<'de> Unpack<'de> for String {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(String::new())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        let s = read_str(r)?;
        if s.len() <= crate::read::SMALL_ALLOCATION {
            // A plain allocation is faster than the fallible path, and a
            // small one cannot meaningfully fail.
            return Ok(String::from(s));
        }
        let mut out = String::new();
        out.try_reserve_exact(s.len())
            .map_err(|_| r.alloc_error(s.len()))?;
        out.push_str(s);
        Ok(out)
    }
}

impl<'de> Unpack<'de> for Box<str> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Box::default())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack(r: &mut Reader<'de>) -> Result<Self> {
        // One level for the box, as its encoder counts.
        r.nested(|r| String::unpack(r).map(String::into_boxed_str))
    }
}
