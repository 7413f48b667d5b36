//! binform's schema model: a type's wire layout as data, the lock-file text
//! that `Display` writes and [`parse`] reads, and the rules that say which
//! changes break a peer ([`compare`]).
//!
//! This crate has one home for those facts so that the runtime (`binform`,
//! which re-exports everything here as `binform::schema`) and the derive
//! (`binform-derive`, which checks `#[binform(schema_lock = "...")]` at
//! compile time) read lock files the same way. It has no dependencies and
//! builds without `std`.
//!
//! ```
//! use binform_schema::{parse, Body, TypeRef};
//!
//! let schema = parse(
//!     "root seq<point>\n\
//!      struct point compact\n  \
//!        field 0 x i32\n  \
//!        field 1 label option<string>\n",
//! )?;
//! // `point` has a block of its own, so it is a derived type, whatever
//! // its case; `i32` and `string` have none: built-in encodings.
//! assert_eq!(schema.root, TypeRef::builtin_of("seq", vec![TypeRef::Named("point".into())]));
//! assert!(matches!(&schema.types["point"].body, Body::Struct(fields) if fields.len() == 2));
//! assert_eq!(schema.to_string().lines().next(), Some("root seq<point>"));
//! # Ok::<(), String>(())
//! ```

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

mod compat;
pub mod hash;
mod model;
mod text;

pub use compat::{compare, Incompatibility};
pub use model::{
    is_builtin_name, short_type_name, type_ident, Body, FieldDef, Schema, TypeDef, TypeRef, Types,
    VariantDef, BUILTIN_NAMES,
};
pub use text::parse;

/// How deeply type arguments may nest (`seq<seq<…>>`): in a lock file, and
/// in a self-describing payload's schema. Honest schemas stay far below it;
/// the limit keeps every walk over a schema from outside bounded.
pub const MAX_DEPTH: usize = 256;
