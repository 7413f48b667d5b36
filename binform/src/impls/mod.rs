//! `Encoding`, `Pack` and `Unpack` for std types, one file per area of std.

mod arrays;
mod atomic;
mod boxed;
#[cfg(feature = "bytes")]
mod bytes;
#[cfg(feature = "bytes")]
pub use bytes::SHARE_FROM;
mod cell_sync;
mod collections;
mod cow;
mod ext;
mod ffi;
mod marker;
mod net;
mod option_result;
mod primitives;
mod rc_arc;
mod seq;
pub(crate) mod string;
mod time;
mod tuples;

pub use rc_arc::SharedUnpack;
