//! The `#[binform(...)]` attributes of `#[derive(Packable)]`, each with an
//! example. (This module holds documentation only.)
//!
//! `#[derive(Packable)]` implements [`Encoding`](crate::Encoding),
//! [`Pack`](crate::Pack) and [`Unpack`](crate::Unpack) for a struct or an
//! enum. Without attributes a type is *compact*: its fields in declaration
//! order, with no names, tags or lengths; an enum is its variant's index and
//! that variant's fields. Mistakes (an unknown or repeated attribute, a
//! malformed value, two attributes that contradict each other) are compile
//! errors on the offending span.
//!
//! | Attribute | On | Meaning |
//! |---|---|---|
//! | [`skip`](#skip) | field | not encoded; decoded as `Default::default()` (or `default`) |
//! | [`default = "path"`](#default) | field | the function that supplies a value the payload does not have |
//! | [`with = "module"`](#with) | field | encoded by `module::pack` and `module::unpack` (foreign types) |
//! | [`serde`](#serde) | field | encoded through the field's serde impls (feature `serde`) |
//! | [`bound = "..."`](#bound) | type | the impls' where-clauses instead of the inferred ones |
//! | [`crate = "path"`](#crate) | type | where binform is, when it is re-exported |
//! | [`version_tolerant`](#version_tolerant) | type | tagged fields that other versions skip or fill in |
//! | [`tag = N`](#tag) | field, variant | a stable tag in a tolerant type |
//! | [`required`](#required) | field | in a tolerant type, no default: a payload without it is an error |
//! | [`reserved = [3, 5]`](#reserved) | type | tags of removed fields or variants, never to be reused |
//! | [`other`](#other) | variant | the catch-all for variants a reader does not know |
//! | [`schema_lock = "path"`](#schema_lock) | type | checked at compile time against a lock file |
//!
//! # `skip`
//! The field is not in the payload; decoding fills it with
//! `Default::default()`, or with the `default` function.
//! ```
//! #[derive(binform::Packable, Debug, PartialEq)]
//! struct Session { user: String, #[binform(skip)] cache: Vec<u8> }
//!
//! let s = Session { user: "kate".into(), cache: vec![1, 2, 3] };
//! let back: Session = binform::from_slice(&binform::to_vec(&s)?)?;
//! assert_eq!(back, Session { user: "kate".into(), cache: vec![] });
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # `default`
//! The function (a path, as a string) that supplies the value of a field
//! the payload does not hold: a `skip` field, or a tolerant field an older
//! writer did not know.
//! ```
//! fn retries() -> u8 { 3 }
//!
//! #[derive(binform::Packable, Debug, PartialEq)]
//! struct Job { id: u64, #[binform(skip, default = "retries")] retries: u8 }
//!
//! let back: Job = binform::from_slice(&binform::to_vec(&Job { id: 7, retries: 9 })?)?;
//! assert_eq!(back, Job { id: 7, retries: 3 });
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # `with`
//! `module::pack(&T, &mut Writer) -> Result<()>` and
//! `module::unpack(&mut Reader) -> Result<T>` encode the field: for a type
//! of another crate that has no encoding, or a field that wants another
//! one.
//! ```
//! mod as_millis {
//!     use std::time::Duration;
//!     pub fn pack<L: binform::Layout>(d: &Duration, w: &mut binform::Writer<'_, L>) -> binform::Result<()> {
//!         w.write_varint(d.as_millis() as u64);
//!         Ok(())
//!     }
//!     pub fn unpack<L: binform::Layout>(r: &mut binform::Reader<'_, L>) -> binform::Result<Duration> {
//!         r.read_varint().map(Duration::from_millis)
//!     }
//! }
//!
//! #[derive(binform::Packable)]
//! struct Timeout { #[binform(with = "as_millis")] after: std::time::Duration }
//!
//! let bytes = binform::to_vec(&Timeout { after: std::time::Duration::from_millis(1500) })?;
//! assert_eq!(bytes.len(), 2);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # `serde`
//! With the feature `serde`: the field is encoded through its serde impls,
//! in the serde bridge's bytes (`binform::serde`), for a type of
//! another crate that implements `Serialize` and `Deserialize`.
//! ```ignore
//! #[derive(binform::Packable)]
//! struct Release { #[binform(serde)] version: semver::Version }
//! ```
//!
//! # `bound`
//! Replaces the where-clauses the derive infers (`T: Pack` for each type
//! parameter a field uses): `bound = "..."` for every impl, or
//! `bound(pack = "...", unpack = "...", encoding = "...")` for one. The
//! input's lifetime in `Unpack<'de>` is `'de`.
//! ```
//! trait Config { type Value; }
//! struct Small;
//! impl Config for Small { type Value = u16; }
//!
//! #[derive(binform::Packable)]
//! #[binform(bound = "C::Value: binform::Pack + for<'a> binform::Unpack<'a>")]
//! struct Setting<C: Config> { value: C::Value }
//!
//! let bytes = binform::to_vec(&Setting::<Small> { value: 300 })?;
//! assert_eq!(binform::from_slice::<Setting<Small>>(&bytes)?.value, 300);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # `crate`
//! Where binform is, for a crate that re-exports it (generated code names
//! `::binform` otherwise).
//! ```
//! mod reexported { pub use ::binform::*; pub mod codec { pub use ::binform::*; } }
//!
//! #[derive(binform::Packable)]
//! #[binform(crate = "reexported::codec")]
//! struct Point { x: i32, y: i32 }
//! # assert_eq!(binform::to_vec(&Point { x: 1, y: 2 }).unwrap().len(), 2);
//! ```
//!
//! # `version_tolerant`
//! The type's fields (or variants) carry tags and wire types, so a reader
//! skips fields it does not know and fills in those the writer did not
//! have: peers with different versions of the type read each other
//! (`docs/versioning.md`). Every field needs a `default`, a `Default`
//! type, or `required`.
//! ```
//! mod v1 {
//!     #[derive(binform::Packable, Default)]
//!     #[binform(version_tolerant)]
//!     pub struct Order { pub id: u64 }
//! }
//! mod v2 {
//!     #[derive(binform::Packable, Default, Debug, PartialEq)]
//!     #[binform(version_tolerant)]
//!     pub struct Order { pub id: u64, pub note: String }
//! }
//!
//! let old = binform::to_vec(&v1::Order { id: 5 })?;
//! let new: v2::Order = binform::from_slice(&old)?;
//! assert_eq!(new, v2::Order { id: 5, note: String::new() });
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # `tag`
//! A field's or a variant's stable tag in a tolerant type. Without it, a
//! tag is the previous one's plus one (from 0), so renaming keeps the tag
//! and reordering needs explicit tags.
//! ```
//! #[derive(binform::Packable, Default)]
//! #[binform(version_tolerant)]
//! struct Customer {
//!     id: u64,
//!     #[binform(tag = 4)]
//!     email: String,
//! }
//! # let _ = binform::to_vec(&Customer::default()).unwrap();
//! ```
//!
//! # `required`
//! In a tolerant type: the field needs no `Default`, and a payload without
//! it is [`ErrorKind::MissingField`](crate::ErrorKind::MissingField).
//! ```
//! struct Id(u64); // no Default
//! # impl binform::Encoding for Id {}
//! # impl binform::Pack for Id {
//! #     fn pack<L: binform::Layout>(&self, w: &mut binform::Writer<'_, L>) -> binform::Result<()> { self.0.pack(w) }
//! # }
//! # impl<'de> binform::Unpack<'de> for Id {
//! #     fn unpack<L: binform::Layout>(r: &mut binform::Reader<'de, L>) -> binform::Result<Self> { u64::unpack(r).map(Id) }
//! # }
//! # use binform::{Pack, Unpack};
//!
//! #[derive(binform::Packable)]
//! #[binform(version_tolerant)]
//! struct Payment { #[binform(required)] id: Id, amount: u64 }
//!
//! #[derive(binform::Packable, Default)]
//! #[binform(version_tolerant)]
//! struct Empty {}
//!
//! let err = binform::from_slice::<Payment>(&binform::to_vec(&Empty {})?).err().unwrap();
//! assert_eq!(err.kind(), binform::ErrorKind::MissingField);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # `reserved`
//! Tags of removed fields (or variants) of a tolerant type: never to be
//! reused, so an old payload's bytes cannot land in a new field. Reusing
//! one is a compile error.
//! ```
//! #[derive(binform::Packable, Default)]
//! #[binform(version_tolerant, reserved = [1])]
//! struct Profile { name: String, #[binform(tag = 2)] city: String }
//! # let _ = binform::to_vec(&Profile::default()).unwrap();
//! ```
//!
//! # `other`
//! The variant a tolerant enum's reader decodes a variant it does not know
//! as (a unit variant, or one whose fields all have defaults).
//! ```
//! mod v2 {
//!     #[derive(binform::Packable, Default)]
//!     #[binform(version_tolerant)]
//!     pub enum Status { #[default] Open, Closed, Archived }
//! }
//! mod v1 {
//!     #[derive(binform::Packable, Default, Debug, PartialEq)]
//!     #[binform(version_tolerant)]
//!     pub enum Status { #[default] Open, Closed, #[binform(other)] Unknown }
//! }
//!
//! let newer = binform::to_vec(&v2::Status::Archived)?;
//! assert_eq!(binform::from_slice::<v1::Status>(&newer)?, v1::Status::Unknown);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! # `schema_lock`
//! The type is checked at compile time against the lock file at the path
//! (relative to the crate's `Cargo.toml`, or, if no file is there, to the
//! source file that holds the type) that
//! [`schema::assert_compatible`](crate::schema::assert_compatible) writes:
//! each breaking change of the type's own definition is an error on its
//! span (`docs/versioning.md`).
//! ```ignore
//! #[derive(binform::Packable, Default)]
//! #[binform(version_tolerant, schema_lock = "schemas/Customer.binform-schema")]
//! struct Customer { id: u64, name: String }
//! ```
