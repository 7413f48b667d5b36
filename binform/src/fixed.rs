//! The crate-level entry points in the fixed layout
//! ([`layout::Fixed`](crate::layout::Fixed)): the same functions with the
//! same signatures, for `Options::new().fixed_width()`.
//!
//! The fixed layout writes integers as fixed-width little-endian and
//! copies sequences of plain values (numbers, and derived structs of them
//! without padding) whole: the fastest to encode and decode, where the
//! default compact layout is the smallest. Pick it per call site; a reader
//! must use the layout the writer used.
//!
//! ```
//! use binform::Packable;
//!
//! #[derive(Packable, Debug, PartialEq)]
//! struct Vector3 { x: f32, y: f32, z: f32 }
//!
//! #[derive(Packable, Debug, PartialEq)]
//! struct Particle { id: u64, position: Vector3, charge: i32 }
//!
//! let particles = vec![Particle { id: 1, position: Vector3 { x: 0.5, y: 1.0, z: -2.0 }, charge: -1 }];
//! let bytes = binform::fixed::to_vec(&particles)?;
//! // The length, then each particle's 8 + 12 + 4 bytes, copied whole.
//! assert_eq!(bytes.len(), 1 + 24);
//! let back: Vec<Particle> = binform::fixed::from_slice(&bytes)?;
//! assert_eq!(back, particles);
//! # Ok::<(), binform::Error>(())
//! ```

use alloc::vec::Vec;

#[cfg(any(feature = "std", feature = "bytes"))]
use crate::UnpackOwned;
use crate::{Options, Pack, Result, Unpack};

/// The default options in the fixed layout.
const FIXED: Options<crate::layout::Fixed> = Options::new().fixed_width();

/// Encodes `value` into a new vector in the fixed layout, with default
/// options otherwise ([`crate::to_vec`]'s fixed twin).
pub fn to_vec<T: Pack + ?Sized>(value: &T) -> Result<Vec<u8>> {
    FIXED.to_vec(value)
}

/// Appends the fixed-layout encoding of `value` to `buf`
/// ([`crate::to_vec_into`]'s fixed twin).
pub fn to_vec_into<T: Pack + ?Sized>(buf: &mut Vec<u8>, value: &T) -> Result<()> {
    crate::api::encode_default_into::<T, crate::layout::Fixed>(buf, value)
}

/// Decodes a `T` from all of `bytes`, written in the fixed layout
/// ([`crate::from_slice`]'s fixed twin).
pub fn from_slice<'de, T: Unpack<'de>>(bytes: &'de [u8]) -> Result<T> {
    crate::api::decode_default::<T, crate::layout::Fixed>(bytes)
}

/// Encodes `value` to an `io::Write` in the fixed layout
/// ([`crate::to_writer`]'s fixed twin).
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_writer<T: Pack + ?Sized>(writer: impl std::io::Write, value: &T) -> Result<()> {
    FIXED.to_writer(writer, value)
}

/// Decodes a `T` from an `io::Read` read to its end, in the fixed layout
/// ([`crate::from_reader`]'s fixed twin).
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn from_reader<T: UnpackOwned>(reader: impl std::io::Read) -> Result<T> {
    FIXED.from_reader(reader)
}

/// Decodes a `T` from a shared buffer in the fixed layout, `Bytes` fields
/// sharing it ([`crate::from_bytes`]'s fixed twin).
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn from_bytes<T: UnpackOwned>(bytes: impl crate::SharedBytes) -> Result<T> {
    FIXED.from_bytes(bytes)
}

/// Encodes `value` into a `bytes::BufMut` in the fixed layout
/// ([`crate::to_buf_mut`]'s fixed twin).
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn to_buf_mut<T: Pack + ?Sized>(buf: &mut impl bytes::BufMut, value: &T) -> Result<()> {
    FIXED.to_buf_mut(buf, value)
}
