//! Version-tolerant records (`docs/format.md` §12) in code: the wire types
//! that let a reader skip what it does not know ([`Wire`]), the fields'
//! keys and values on the encode side, and on the decode side the keys,
//! the wire-type checks and the skipping of unknown fields and packed
//! blocks.
//!
//! Fields appear in ascending tag order, each as `varint(gap << 3 | wire
//! type)` and its value; the derive's tolerant generator writes and reads
//! them through the methods here.

mod read;
pub(crate) mod wire;
mod write;

pub use read::Fields;
