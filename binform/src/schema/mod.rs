//! Schemas: a description of a type's wire layout, its 64-bit fingerprint,
//! and lock files that catch breaking changes in CI.
//!
//! [`schema_of::<T>()`](schema_of) describes `T` as its encoding sees it:
//! `Vec<T>`, `VecDeque<T>` and `[T]` are all `seq<T>`, `Box<T>` and
//! `RefCell<T>` are `T`, because each pair is the same bytes. Derived types
//! appear by name, with their fields (name, tag, type) or variants.
//!
//! ```
//! use binform::Packable;
//!
//! #[derive(Packable)]
//! struct Point { x: i32, y: i32, label: Option<String> }
//!
//! let text = binform::schema_of::<Vec<Point>>().to_string();
//! assert!(text.starts_with("root seq<Point>"));
//! assert!(text.contains("field 2 label option<string>"));
//! ```

pub(crate) mod embedded;
pub(crate) mod facts;
pub(crate) mod hash;
#[cfg(feature = "std")]
mod lock;
pub(crate) mod model;

pub use crate::encoding::{schema_of, Builder};
pub use crate::header::{
    FINGERPRINT_MAGIC, FIXED_LAYOUT_BIT, FORMAT_VERSION, SELF_DESCRIBING_MAGIC,
};
pub use binform_schema::{compare, parse, Incompatibility, MAX_DEPTH};
pub use embedded::read_schema;
pub use facts::fingerprint_of;
pub use hash::{fingerprint, hash_bytes, hash_str, mix, HASH_START, LEVELS};
#[cfg(feature = "std")]
pub use lock::{assert_compatible, check_compatible};
pub use model::{short_type_name, Body, FieldDef, Schema, TypeDef, TypeRef, Types, VariantDef};
