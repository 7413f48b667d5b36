//! bitflags types (feature `bitflags`), as a `with` module: a type made by
//! `bitflags!` is encoded as its bits, in the encoding of its bits type
//! (`u8` one byte, wider integers a varint, format.md §3), and decoding
//! rejects bits that name no flag (`InvalidValue`), so a decoded value
//! holds only flags its type defines.
//!
//! The orphan rule keeps binform from implementing its traits for every
//! bitflags type, so a field names this module:
//!
//! ```
//! bitflags::bitflags! {
//!     #[derive(Debug, Clone, Copy, PartialEq, Eq)]
//!     pub struct Perms: u8 {
//!         const READ = 1;
//!         const WRITE = 2;
//!         const EXEC = 4;
//!     }
//! }
//!
//! #[derive(binform::Packable, Debug, PartialEq)]
//! struct Entry {
//!     name: String,
//!     #[binform(with = "binform::bitflags")]
//!     perms: Perms,
//! }
//!
//! let entry = Entry { name: "a.out".into(), perms: Perms::READ | Perms::EXEC };
//! let bytes = binform::to_vec(&entry)?;
//! assert_eq!(bytes, [0x0A, b'a', b'.', b'o', b'u', b't', 0x05]);
//! assert_eq!(binform::from_slice::<Entry>(&bytes)?, entry);
//!
//! // Bit 3 names no flag of `Perms`.
//! let err = binform::from_slice::<Entry>(&[0x00, 0x08]).unwrap_err();
//! assert_eq!(err.kind(), binform::ErrorKind::InvalidValue);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! To accept unknown bits (from a newer peer that defined more flags),
//! write the field's impl by hand with `from_bits_retain`; a type used in
//! many places can also get a hand-written `Encoding`/`Pack`/`Unpack`
//! impl that calls [`pack`] and [`unpack`].

use bitflags::Flags;

use crate::{ErrorKind, Pack, Reader, Result, Unpack, Writer};

/// Writes the flags' bits; bits that name no flag (a value made with
/// `from_bits_retain`) are an `InvalidValue` error, as decoding them would
/// be, so that whatever encodes decodes.
#[inline]
pub fn pack<F, L: crate::Layout>(flags: &F, w: &mut Writer<'_, L>) -> Result<()>
where
    F: Flags,
    F::Bits: Pack,
{
    let bits = flags.bits();
    if F::from_bits(bits).is_none() {
        return Err(crate::Error::new(
            ErrorKind::InvalidValue,
            alloc::format!("bits that name no flag of {}", core::any::type_name::<F>()),
        ));
    }
    bits.pack(w)
}

/// Reads bits and checks that each names a flag of `F`.
#[inline]
pub fn unpack<'de, F, L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<F>
where
    F: Flags,
    F::Bits: Unpack<'de>,
{
    let at = r.position();
    let bits = F::Bits::unpack(r)?;
    F::from_bits(bits).ok_or_else(|| {
        r.error_at(
            at,
            ErrorKind::InvalidValue,
            alloc::format!("bits that name no flag of {}", core::any::type_name::<F>()),
        )
    })
}
