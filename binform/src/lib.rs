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
//! header: integers as compact varints (sequences of them in packed
//! blocks), floats as their bits, strings and
//! collections as a length and their contents. `docs/format.md` in the
//! repository specifies every byte.
//!
//! # Two layouts
//!
//! One derive writes two layouts, chosen at compile time per call site:
//! - **compact** (the default, [`to_vec`], [`from_slice`], [`Options::new`]):
//!   integers as varints, sequences of them in packed blocks; the smallest
//!   payloads.
//! - **fixed** ([`fixed::to_vec`], [`fixed::from_slice`],
//!   [`Options::fixed_width`]): integers fixed-width little-endian and
//!   sequences of plain values (numbers, derived structs of them without
//!   padding) copied whole, as MemoryPack does; the fastest encode and
//!   decode.
//!
//! ```
//! let ids = vec![7u32, 1_000_000];
//! assert_eq!(binform::to_vec(&ids)?.len(), 1 + 1 + 3);
//! assert_eq!(binform::fixed::to_vec(&ids)?.len(), 1 + 4 + 4);
//! assert_eq!(binform::fixed::from_slice::<Vec<u32>>(&binform::fixed::to_vec(&ids)?)?, ids);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! Everything else (strings, options, maps, shared references,
//! version-tolerant records, headers, frames) has the same structure in
//! both. A reader must use the writer's
//! layout; a fingerprint or self-describing header records it, and reading
//! the other layout's payload is then [`ErrorKind::SchemaMismatch`]. See
//! [`layout`] and `docs/format.md` §26.
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
//!   other versions skip or default), a deep fingerprint of every type
//!   ([`schema::fingerprint_of`]) with an optional header check
//!   ([`Options::fingerprint`]), and schema lock files
//!   ([`schema::assert_compatible`]); see `docs/versioning.md`.
//!
//! # Hand-written impls
//!
//! A type is encodable when it implements three traits: [`Encoding`] (what
//! its encoding is: the facts both directions share, such as its schema
//! and fingerprint), [`Pack`] (encode) and [`Unpack`] (decode). The derive
//! writes all three. For a type the derive cannot see into, write them by
//! hand; `Encoding` is one line, since its defaults are always correct.
//! `pack` and `unpack` are generic over the [`Layout`]: written against
//! other values' impls or the writer's and reader's integer methods
//! (`write_u32`, `read_i64`, ...), they follow whichever layout they are
//! called in without knowing it:
//!
//! ```
//! use binform::{Encoding, Pack, Reader, Result, Unpack, Writer};
//!
//! /// An angle kept in whole degrees on the wire.
//! struct Degrees(f64);
//!
//! impl Encoding for Degrees {}
//!
//! impl Pack for Degrees {
//!     fn pack<L: binform::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
//!         (self.0.round() as i16).pack(w)
//!     }
//! }
//!
//! impl<'de> Unpack<'de> for Degrees {
//!     fn unpack<L: binform::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
//!         Ok(Degrees(f64::from(i16::unpack(r)?)))
//!     }
//! }
//!
//! #[derive(binform::Packable)]
//! struct Heading { name: String, angle: Degrees }
//!
//! let bytes = binform::to_vec(&Heading { name: "north-east".into(), angle: Degrees(45.2) })?;
//! let back: Heading = binform::from_slice(&bytes)?;
//! assert_eq!(back.angle.0, 45.0);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! [`Encoding::describe`] can name the layout for schemas and fingerprints
//! (the default says `opaque`); see its documentation.
//!
//! # Entry points, and how they are named
//!
//! - The crate root's functions ([`to_vec`], [`from_slice`], ...) use the
//!   default [`Options`]; the same names are methods of `Options` for any
//!   other (`Options::new().max_depth(64).from_slice(..)`).
//! - `_with` adds the one thing a call needs beyond the value and its
//!   bytes: in [`serde`](mod@serde) the `Options` (`serde::to_vec_with`);
//!   in [`value`], whose payload may not carry its schema, the
//!   [`Schema`] (`value::from_slice_with`).
//! - `_options` adds `Options` to a call that already takes what `_with`
//!   names (`value::from_slice_options`, `value::from_slice_with_options`).
//! - `_as` reads a payload as a typed value through its schema
//!   (`value::from_slice_as`).
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---------|---------|--------------|
//! | `derive` | yes    | [`Packable`], the derive macro |
//! | `std`   | yes     | [`to_writer`], [`from_reader`], [`io`] frames (many values on one stream), `HashMap`/`HashSet`, `SystemTime`, `Mutex`/`RwLock`, `std::error::Error`, stack growth on deep input |
//! | `bytes` | yes     | `bytes::Bytes` and `bytes::BytesMut`, [`from_bytes`] (zero-copy `Bytes` fields), [`to_buf_mut`] |
//! | `tokio` | no      | [`codec::PackCodec`], a tokio-util codec over [`io`]'s frames |
//! | `serde` | no      | [`serde`](mod@serde): the derive's bytes for any serde type, and `#[binform(serde)]` on a field |
//! | `uuid`  | no      | `uuid::Uuid` as its 16 bytes |
//! | `half`  | no      | `half::f16` and `half::bf16` as their 16 bits |
//! | `indexmap` | no   | `IndexMap` and `IndexSet`, as maps and sets in their order |
//! | `hashbrown` | no  | hashbrown's `HashMap` and `HashSet` (maps and sets without `std`) |
//! | `smallvec` | no   | `SmallVec`, as a sequence |
//! | `arrayvec` | no   | `ArrayVec` and `ArrayString`; more than the capacity is an error |
//! | `chrono` | no     | `DateTime<Utc>`, `DateTime<FixedOffset>`, `NaiveDate`, `NaiveTime`, `NaiveDateTime`, `TimeDelta` |
//! | `time`  | no      | `OffsetDateTime`, `PrimitiveDateTime`, `Date`, `Time`, `Duration` |
//! | `rust_decimal` | no | `Decimal`, as a varint mantissa and its scale |
//! | `bitflags` | no   | [`bitflags`](mod@bitflags), a `with` module: a bitflags type as its bits, unknown bits an error |
//! | `simdutf8` | no   | strings past 64 bytes validated by simdutf8's SIMD kernels (5x faster on long non-ASCII text); same bytes, same errors |
//!
//! Each type from another crate is specified in `docs/format.md` §23.
//!
//! Without `std` the crate needs only `core` and `alloc`.
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(unsafe_code)]

extern crate alloc;

#[macro_use]
mod encoding;
mod api;
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
pub mod attributes;
#[cfg(feature = "axum")]
#[cfg_attr(docsrs, doc(cfg(feature = "axum")))]
pub mod axum;
#[cfg(feature = "bitflags")]
#[cfg_attr(docsrs, doc(cfg(feature = "bitflags")))]
pub mod bitflags;
mod builtins;
#[cfg(feature = "tokio")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio")))]
pub mod codec;
#[macro_use]
mod columns;
mod error;
pub mod fixed;
mod header;
mod impls;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub mod io;
pub mod layout;
#[macro_use]
mod polymorphic;
mod options;
mod packed;
mod plain;
mod read;
mod refs;
mod row;
pub mod schema;
#[cfg(feature = "std")]
mod scratch;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub mod serde;
mod stack;
mod tolerant;
#[cfg(feature = "tonic")]
#[cfg_attr(docsrs, doc(cfg(feature = "tonic")))]
pub mod tonic;
pub mod value;
pub mod varint;
mod write;

#[doc(hidden)]
pub mod __private;

/// `docs/format.md`'s Rust examples, run as doctests (read only when
/// doctests are built, so the packaged crate does not need the file).
#[cfg(doctest)]
#[doc = include_str!("../../docs/format.md")]
pub struct FormatSpec;

#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub use api::{from_bytes, to_buf_mut, SharedBytes};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use api::{from_reader, to_writer};
pub use api::{from_slice, to_vec, to_vec_into};
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
#[doc = include_str!("attributes.md")]
pub use binform_derive::Packable;
pub use encoding::{schema_of, Encoding};
pub use error::{Error, ErrorKind, Result};
#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub use impls::SHARE_FROM as SHARE_BYTES_FROM;
pub use layout::Layout;
pub use options::{
    Options, DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_LEN, DEFAULT_MEMORY_BASE,
    DEFAULT_MEMORY_PER_INPUT_BYTE, DEFAULT_VALUE_MEMORY_PER_INPUT_BYTE,
};
pub use read::{Reader, Unpack, UnpackOwned};
pub use schema::{Schema, TypeRef};
pub use value::Value;
pub use write::{Pack, Writer};
