//! The two layouts a value can be written in, chosen at compile time.
//!
//! - [`Compact`] (the default): integers as varints, sequences of them in
//!   packed blocks. The smallest payloads.
//! - [`Fixed`]: integers as fixed-width little-endian, sequences of plain
//!   values copied whole, as MemoryPack does. The fastest to write and
//!   read.
//!
//! Everything else (lengths, enum tags, strings, options, maps, shared
//! references, version-tolerant records, frames) has the same structure in
//! both: only the leaves differ (`docs/format.md` §26).
//!
//! The layout is a type parameter of [`Writer`](crate::Writer),
//! [`Reader`](crate::Reader) and [`Options`](crate::Options), so each
//! layout a program uses is compiled on its own, with no test of which one
//! is active on any value. Hand-written impls are generic over it and
//! follow it through the writer's and reader's integer methods:
//!
//! ```
//! use binform::{Encoding, Layout, Pack, Reader, Result, Unpack, Writer};
//!
//! /// A count kept as a `u32` on the wire.
//! struct Count(usize);
//!
//! impl Encoding for Count {}
//! impl Pack for Count {
//!     fn pack<L: Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
//!         (self.0 as u32).pack(w)
//!     }
//! }
//! impl<'de> Unpack<'de> for Count {
//!     fn unpack<L: Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
//!         Ok(Count(u32::unpack(r)? as usize))
//!     }
//! }
//!
//! let compact = binform::to_vec(&Count(5))?;
//! assert_eq!(compact, [10]); // the varint of 5
//! assert_eq!(binform::from_slice::<Count>(&compact)?.0, 5);
//!
//! let fixed = binform::fixed::to_vec(&Count(5))?;
//! assert_eq!(fixed, [5, 0, 0, 0]);
//! assert_eq!(binform::fixed::from_slice::<Count>(&fixed)?.0, 5);
//! # Ok::<(), binform::Error>(())
//! ```
//!
//! A payload does not say which layout wrote it unless it carries a header
//! ([`Options::fingerprint`](crate::Options::fingerprint) or
//! [`Options::self_describing`](crate::Options::self_describing)): like the
//! type, the reader must know it.

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Compact {}
    impl Sealed for super::Fixed {}
}

/// A layout: [`Compact`] or [`Fixed`]. Sealed: the set is closed, and
/// code generic over it is compiled once for each one a program uses.
pub trait Layout:
    sealed::Sealed + Copy + Default + Eq + core::hash::Hash + Send + Sync + core::fmt::Debug + 'static
{
    /// Whether integers are fixed-width (`true`) or varints (`false`).
    #[doc(hidden)]
    const FIXED: bool;
    /// The layout's name in error messages: `compact` or `fixed`.
    const NAME: &'static str;
}

/// The compact layout, the default: varint integers and packed integer
/// blocks, for the smallest payloads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Compact;

/// The fixed layout: fixed-width little-endian integers, and sequences of
/// plain values as one copy, for the fastest encode and decode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fixed;

impl Layout for Compact {
    const FIXED: bool = false;
    const NAME: &'static str = "compact";
}

impl Layout for Fixed {
    const FIXED: bool = true;
    const NAME: &'static str = "fixed";
}

#[cfg(test)]
mod tests {
    use crate::layout::Fixed;
    use crate::{Pack, Writer};

    /// A writer of a named layout, the lifetime left out.
    #[test]
    fn a_writer_in_a_named_layout() {
        let mut buf = alloc::vec::Vec::new();
        let mut w = Writer::<Fixed>::in_layout(&mut buf);
        7u32.pack(&mut w).unwrap();
        w.write_u16(1);
        assert_eq!(buf, [7, 0, 0, 0, 1, 0]);
    }
}
