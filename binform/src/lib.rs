//! binform: a fast, compact binary serializer driven by `#[derive(Packable)]`,
//! safe on hostile input.
//!
//! ```
//! use binform::Packable;
//!
//! #[derive(Packable, Debug, PartialEq)]
//! struct Person {
//!     name: String,
//!     age: i32,
//!     programming_keywords: Vec<String>,
//! }
//!
//! let john = Person { name: "John".into(), age: 20, programming_keywords: vec!["C#".into(), "F#".into()] };
//! let bytes = binform::to_vec(&john)?;
//! assert_eq!(bytes.len(), 13);
//! let back: Person = binform::from_slice(&bytes)?;
//! assert_eq!(back, john);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! The derive writes each field in declaration order, with no names, tags or
//! header: integers as compact varints, floats as their bits, strings and
//! collections as a length and their contents. `docs/format.md` in the
//! repository specifies every byte.
//!
//! Decoding treats its input as hostile: every read is bounds-checked, every
//! declared length is checked against the remaining input before anything is
//! allocated, nesting is bounded, and all of it is set through [`Options`].
//! Malformed input yields an [`Error`], never a panic.
//!
//! Beyond plain values:
//! - **Object graphs**: `Rc`/`Arc` keep their identity, `Weak` links and
//!   cycles through `RefCell`/`Mutex`/`RwLock` round-trip, and trait objects
//!   work through an explicit registration ([`polymorphic!`]); see
//!   `docs/graphs.md`.
//! - **Versioning**: `#[binform(version_tolerant)]` types (tagged fields that
//!   other versions skip or default), a compile-time `FINGERPRINT` on every
//!   derived type with an optional header check
//!   ([`Options::fingerprint`]), and schema lock files
//!   ([`schema::assert_compatible`]); see `docs/versioning.md`.
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---------|---------|--------------|
//! | `std`   | yes     | [`to_writer`], [`from_reader`], `HashMap`/`HashSet`, `SystemTime`, `Mutex`/`RwLock`, `std::error::Error` |
//! | `bytes` | yes     | `bytes::Bytes` and `bytes::BytesMut` |
//!
//! Without `std` the crate needs only `core` and `alloc`.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(unsafe_code)]

extern crate alloc;

mod error;
mod impls;
#[macro_use]
mod polymorphic;
mod options;
mod plain;
mod read;
mod refs;
pub mod schema;
mod tolerant;
pub mod varint;
mod write;

#[doc(hidden)]
pub mod __private;

pub use binform_derive::Packable;
pub use error::{Error, ErrorKind, Result};
pub use options::{Options, DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_LEN};
#[doc(hidden)]
pub use plain::Plain;
pub use read::{Reader, Unpack, UnpackOwned};
pub use schema::{schema_of, Schema, TypeRef};
#[doc(hidden)]
pub use tolerant::{Fields, Wire};
pub use write::{Pack, Writer};

use alloc::vec::Vec;

/// Encodes `value` into a new vector, with default [`Options`].
pub fn to_vec<T: Pack + ?Sized>(value: &T) -> Result<Vec<u8>> {
    Options::new().to_vec(value)
}

/// Appends the encoding of `value` to `buf`; reuse `buf` across calls to
/// avoid allocating.
///
/// ```
/// let mut buf = Vec::new();
/// for n in [1u64, 1000, 1_000_000] {
///     buf.clear();
///     binform::to_vec_into(&mut buf, &n)?;
///     assert_eq!(binform::from_slice::<u64>(&buf)?, n);
/// }
/// # Ok::<(), binform::Error>(())
/// ```
pub fn to_vec_into<T: Pack + ?Sized>(buf: &mut Vec<u8>, value: &T) -> Result<()> {
    Options::new().to_vec_into(buf, value)
}

/// Decodes a `T` from all of `bytes`, with default [`Options`]. Bytes left
/// over after the value are an [`ErrorKind::TrailingBytes`] error.
pub fn from_slice<'de, T: Unpack<'de>>(bytes: &'de [u8]) -> Result<T> {
    Options::new().from_slice(bytes)
}

/// Encodes `value` to an `io::Write`, with default [`Options`].
#[cfg(feature = "std")]
pub fn to_writer<T: Pack + ?Sized>(writer: impl std::io::Write, value: &T) -> Result<()> {
    Options::new().to_writer(writer, value)
}

/// Decodes a `T` from an `io::Read` read to its end, with default [`Options`].
#[cfg(feature = "std")]
pub fn from_reader<T: UnpackOwned>(reader: impl std::io::Read) -> Result<T> {
    Options::new().from_reader(reader)
}
