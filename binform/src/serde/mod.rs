//! The serde bridge (feature `serde`): binform's format for any type that
//! implements `serde::Serialize` / `serde::Deserialize`, such as types
//! from crates that do not know binform.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, binform::Packable, Debug, PartialEq)]
//! struct Reading { sensor: String, values: Vec<i32>, at: Option<u64> }
//!
//! let reading = Reading { sensor: "t1".into(), values: vec![20, 21, 19], at: Some(1_700_000_000) };
//! let bytes = binform::serde::to_vec(&reading)?;
//! // The derive and the bridge write the same bytes for the same shape.
//! assert_eq!(bytes, binform::to_vec(&reading)?);
//! let back: Reading = binform::serde::from_slice(&bytes)?;
//! assert_eq!(back, reading);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! One field of a derived type can go through its serde impls with
//! `#[binform(serde)]`, so a single foreign field needs no `with` module:
//!
//! ```
//! # use serde::{Deserialize, Serialize};
//! /// A type from a crate that implements serde but not binform.
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Celsius(f32);
//!
//! #[derive(binform::Packable, Debug, PartialEq)]
//! struct Room { name: String, #[binform(serde)] temperature: Celsius }
//!
//! let room = Room { name: "lab".into(), temperature: Celsius(21.5) };
//! let back: Room = binform::from_slice(&binform::to_vec(&room)?)?;
//! assert_eq!(back, room);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # The same bytes as the derive
//!
//! serde's data model maps onto the format one to one (`docs/format.md`):
//! integers are varints, `u8`/`i8` one byte, floats their bits, strings and
//! byte strings (`serde_bytes`) a length and their bytes, `Option` a tag
//! byte, a unit variant its index, a newtype, tuple or struct variant its
//! index and its fields (`Result`, `IpAddr` and `SocketAddr` their tag
//! byte, §8 and §17), a struct or tuple its fields in order with no
//! names, a sequence its count and elements, a map its count and entries.
//! Integer elements wider than a byte of a sequence go in packed blocks
//! (§22), exactly as the derive writes `Vec<i32>`. So a value of a type that
//! derives both `Packable` and serde's traits gets the same bytes from either
//! path, and either can read what the other wrote, unless it holds one of
//! the following. Where serde's data model does not carry what the derive
//! writes, the bytes differ:
//!
//! - **Sequences of bools, strings, options, sequences, tuples and derived
//!   types.** The derive writes them a column at a time
//!   (`docs/format.md` §27): bools as bits; all the lengths, then all the
//!   bytes or elements; all the presence bits, then the values; each field
//!   or element of every element, then the next. serde hands a
//!   sequence over one element at a time, and reading columns back needs
//!   every field's type before the first element, which serde's
//!   `Deserialize` does not give, so the bridge writes and reads them row
//!   by row. `Vec<Person>`, `Vec<String>`, `Vec<Option<u32>>`,
//!   `Vec<bool>`, `Vec<Vec<u8>>` and `Vec<(u8, u16)>` differ; a single
//!   `Person`, `Option<String>` and `Vec<u32>` agree.
//! - **Maps.** The derive writes a map's keys as a column, then its values
//!   (§27); the bridge key, value, key, value. They agree only where both
//!   columns are rows anyway (keys and values of bytes and floats).
//!   Sets are their items' column, as sequences are, so sets of integers
//!   agree (both packed) and sets of strings differ.
//! - **Shared references.** serde writes an `Rc`/`Arc` as its contents
//!   (each time it is reached), with no identity; the derive writes a
//!   reference tag and keeps sharing and cycles. `Weak` has no serde form.
//! - **Version-tolerant types** (`#[binform(version_tolerant)]`): their
//!   tags and wire types exist only in the derive.
//! - **Arrays of 8 or more integers wider than a byte.** serde presents
//!   `[T; N]` as a tuple, and a tuple may mix types, so the bridge writes
//!   its integers one varint each; the derive packs `[u32; 16]` like a
//!   sequence. Arrays under 8 elements agree (a block that short has no
//!   header).
//! - **Types whose serde form is not the derive's form**: `Bound` (serde
//!   numbers its variants Unbounded, Included, Excluded; binform Included,
//!   Excluded, Unbounded), `SystemTime`
//!   (serde: unsigned seconds and nanoseconds since the epoch, no times
//!   before it), `SocketAddrV6` (serde drops flow info and scope id),
//!   `OsString`/`OsStr` (serde: a `Unix` or `Windows` variant holding
//!   bytes or UTF-16 units; binform: a UTF-8 string),
//!   and any type with a hand-written `Serialize` that chooses its own
//!   shape. The other way round, a derived enum named `Result`, `IpAddr`
//!   or `SocketAddr` whose two variants have the std type's names is
//!   written with the std type's tag byte, since serde cannot tell them
//!   apart (with more than 128 variants, indexes 128, 192, … of such an
//!   enum would read as `Err`/`V6`).
//!
//! serde's own impls are more lenient than binform's: through the bridge
//! a repeated map or set key keeps the last value, a `BinaryHeap` is
//! rebuilt whatever its order, and `Duration` carries nanoseconds over a
//! second into the seconds, where the derive rejects all three. A field
//! marked `#[serde(skip_serializing)]` but not `skip_deserializing` is
//! not written but is read, so its bytes do not decode: skip both ways.
//!
//! # What the bridge refuses
//!
//! binform bytes do not say their type, so what serde can only do by
//! asking the bytes is an [`ErrorKind::Unsupported`] error, named in the
//! message: `deserialize_any` (`#[serde(untagged)]`, internally and
//! adjacently tagged enums, `#[serde(flatten)]`, `serde_json::Value`),
//! `deserialize_ignored_any` and `deserialize_identifier`; a field skipped
//! by `skip_serializing_if` (a reader could not tell it is missing); a
//! sequence whose elements mix integer types; and
//! [`Options::fingerprint`], which needs the binform schema a serde type
//! does not have.
//!
//! # Limits
//!
//! Decoding takes the same [`Options`] as the derive's entry points
//! (through the `_with` functions): the byte limit, the nesting depth,
//! declared lengths, and the memory budget, to which each element is
//! charged before it is built (and a collection's preallocation is capped
//! by the input left). The bridge counts one nesting level for every
//! sequence, tuple, map, struct, variant, option and newtype, where the
//! derive counts fewer (no level for a struct, or for a sequence of bytes
//! or integers), so a value near the depth limit may pass through the
//! derive and not through the bridge; encode and decode through the
//! bridge count alike.

mod de;
mod ints;
mod ser;

/// The std enums whose tag the format writes as one byte rather than a
/// varint index and whose serde form agrees with it (format.md §8, §17;
/// `crate::builtins::BYTE_ENUMS`), by the names serde gives them: an enum
/// of that name whose variant at an index has the std type's name there
/// is written as the derive writes the std type.
fn byte_enum(name: &str) -> Option<&'static crate::builtins::ByteEnum> {
    crate::builtins::BYTE_ENUMS
        .iter()
        .find(|e| e.serde_agrees && e.rust_name == name)
}

/// Whether the enum `name` with `variants` is a byte-tagged std enum: its
/// first two variants are the std type's (serde's list may go on with
/// more variants or aliases). The encoder writes those two as a byte and
/// any other as a varint, which never starts with `00` or `01` below
/// index 128.
fn byte_tagged(name: &str, variants: &[&str]) -> bool {
    byte_enum(name).is_some_and(|e| {
        e.variants.len() == 2
            && variants
                .get(..2)
                .is_some_and(|v| v.iter().zip(e.variants).all(|(a, (b, _))| a == b))
    })
}

use alloc::vec::Vec;

#[cfg(feature = "std")]
use ::serde::de::DeserializeOwned;
use ::serde::{Deserialize, Serialize};

use crate::{Error, ErrorKind, Options, Reader, Result, Writer};

/// Encodes `value` through its `Serialize` impl into a new vector, with
/// default [`Options`].
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    to_vec_with(&Options::new(), value)
}

/// Appends the encoding of `value` to `buf` (reuse `buf` to save
/// allocations), with default [`Options`]. On error `buf` is restored.
pub fn to_vec_into<T: Serialize + ?Sized>(buf: &mut Vec<u8>, value: &T) -> Result<()> {
    to_vec_into_with(&Options::new(), buf, value)
}

/// Decodes a `T` from all of `bytes` through its `Deserialize` impl, with
/// default [`Options`]; strings and byte strings can borrow from `bytes`.
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    from_slice_with(&Options::new(), bytes)
}

/// Encodes `value` to an `io::Write`, streaming, with default [`Options`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_writer<T: Serialize + ?Sized>(writer: impl std::io::Write, value: &T) -> Result<()> {
    to_writer_with(&Options::new(), writer, value)
}

/// Decodes a `T` from everything an `io::Read` yields, with default
/// [`Options`] (at most [`DEFAULT_MAX_BYTES`](crate::DEFAULT_MAX_BYTES)).
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn from_reader<T: DeserializeOwned>(reader: impl std::io::Read) -> Result<T> {
    from_reader_with(&Options::new(), reader)
}

/// [`to_vec`] with the given [`Options`] (its depth limit).
pub fn to_vec_with<T: Serialize + ?Sized>(
    options: &Options<impl crate::Layout>,
    value: &T,
) -> Result<Vec<u8>> {
    options.encode_vec(None, |w| pack(value, w))
}

/// [`to_vec_into`] with the given [`Options`].
pub fn to_vec_into_with<T: Serialize + ?Sized>(
    options: &Options<impl crate::Layout>,
    buf: &mut Vec<u8>,
    value: &T,
) -> Result<()> {
    options.encode_into(buf, None, |w| pack(value, w))
}

/// [`from_slice`] with the given [`Options`]: every limit applies.
///
/// ```
/// use binform::{ErrorKind, Options};
///
/// let deep = binform::serde::to_vec(&vec![vec![vec![1u8]]])?;
/// let err = binform::serde::from_slice_with::<Vec<Vec<Vec<u8>>>>(&Options::new().max_depth(2), &deep)
///     .unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::LimitExceeded);
/// # Ok::<(), binform::Error>(())
/// ```
pub fn from_slice_with<'de, T: Deserialize<'de>>(
    options: &Options<impl crate::Layout>,
    bytes: &'de [u8],
) -> Result<T> {
    options.decode_with(bytes, None, |bytes| Reader::new(bytes, options), unpack)
}

/// [`to_writer`] with the given [`Options`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_writer_with<T: Serialize + ?Sized>(
    options: &Options<impl crate::Layout>,
    writer: impl std::io::Write,
    value: &T,
) -> Result<()> {
    options.encode_writer(writer, None, |w| pack(value, w))
}

/// [`from_reader`] with the given [`Options`]: reading stops past
/// [`Options::max_bytes`].
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn from_reader_with<T: DeserializeOwned>(
    options: &Options<impl crate::Layout>,
    reader: impl std::io::Read,
) -> Result<T> {
    let bytes = options.read_to_limit(reader)?;
    from_slice_with(options, &bytes)
}

/// Writes `value` through its `Serialize` impl, as part of an encode in
/// progress: for a hand-written [`Pack`](crate::Pack) impl that holds a
/// serde type.
pub fn pack<T: Serialize + ?Sized, L: crate::Layout>(
    value: &T,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    value.serialize(ser::Serializer::new(w))
}

/// Reads a `T` through its `Deserialize` impl, as part of a decode in
/// progress (the counterpart of [`pack`]); with [`pack`] this module is
/// what `#[binform(serde)]` on a field uses, like a `with` module.
pub fn unpack<'de, T: Deserialize<'de>, L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<T> {
    T::deserialize(de::Deserializer::new(r))
}

impl ::serde::ser::Error for Error {
    #[cold]
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        Error::custom(msg)
    }
}

impl ::serde::de::Error for Error {
    #[cold]
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        Error::custom(msg)
    }

    #[cold]
    fn invalid_value(unexp: ::serde::de::Unexpected<'_>, exp: &dyn ::serde::de::Expected) -> Self {
        // serde's derive reports a variant index it does not know this
        // way; binform's own enums call that `UnknownVariant`.
        let kind = match unexp {
            ::serde::de::Unexpected::Unsigned(_) if alloc::format!("{exp}").contains("variant") => {
                ErrorKind::UnknownVariant
            }
            _ => ErrorKind::InvalidValue,
        };
        Error::new(
            kind,
            alloc::format!("invalid value: {unexp}, expected {exp}"),
        )
    }

    #[cold]
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        Error::new(
            ErrorKind::UnknownVariant,
            alloc::format!("unknown variant `{variant}`, expected one of {expected:?}"),
        )
    }

    #[cold]
    fn invalid_length(len: usize, exp: &dyn ::serde::de::Expected) -> Self {
        Error::new(
            ErrorKind::InvalidValue,
            alloc::format!("invalid length {len}, expected {exp}"),
        )
    }

    #[cold]
    fn duplicate_field(field: &'static str) -> Self {
        Error::new(
            ErrorKind::InvalidValue,
            alloc::format!("duplicate field `{field}`"),
        )
    }
}
