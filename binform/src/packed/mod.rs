//! Packed integer sequences (`docs/format.md` §22): the elements of a
//! sequence or array of integers go in blocks of [`BLOCK`] values, each
//! written as varints, as offsets from the block's minimum in whole bytes,
//! as bit-packed offsets, or as byte-length-coded payloads, whichever is
//! smallest.
//!
//! Why blocks: one varint per value is a serial chain of length decisions
//! that no compiler vectorizes, and full-range values cost a fifth more
//! than their width. Fixed-width offsets are a plain widen-and-add loop in
//! both directions, and narrow whenever a block's values lie close together
//! (ids, timestamps, counters), however large they are. Choosing per block
//! keeps an outlier's cost inside its own block, and the varint form keeps
//! small mixed values as compact as before: a block is never more than its
//! one header byte larger than the varints of the same values. Mixed
//! magnitudes that no base serves take the lengths form: all lengths
//! first, so each payload is read without waiting on the one before.
//!
//! Offsets are taken in an *ordered key* space (the value's bits, with the
//! sign bit flipped for signed types), where subtraction from the minimum
//! never wraps and the key order is the value order.

pub(crate) mod layout;

#[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
mod avx512;
mod decode;
mod encode;
mod lane;
mod scan;
mod tables;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86;

#[cfg(test)]
mod tests;

pub(crate) use decode::{unpack_into, unpack_vec};
pub(crate) use encode::{pack_iter, pack_slice, pack_slices};
pub(crate) use lane::Lane;
