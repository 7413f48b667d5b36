//! Sequences: `[T]`, `Vec`, `VecDeque`, `LinkedList`, `BinaryHeap`, `&[u8]`.
//! All are a length followed by the elements in order.

use alloc::collections::{BinaryHeap, LinkedList, VecDeque};
use alloc::vec::Vec;

use crate::write::SEQUENCE_CHUNK;
use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

/// The one home of a sequence's encoding facts: every other sequence is
/// encoded as a slice, and says so.
impl<T: Encoding> Encoding for [T] {
    // Packed integers (format.md §22) are another encoding of the same
    // values, so another name (`packed<T>`); a wrapper transparent to an
    // integer (`Wrapping<u32>`, `Cell<u32>`) packs too, and says so.
    encoding_builtin!(crate::encoding::seq_name::<T>(), T);
    // Columns (§27) are not element after element: framed.
    const WIRE: crate::tolerant::wire::Wire = if T::COLUMNS {
        crate::tolerant::wire::Wire::Framed
    } else {
        crate::tolerant::wire::Wire::seq_of_packed(T::WIRE, T::PACKED)
    };
    // Integers are fixed-width in the fixed layout, never packed.
    const FIXED_WIRE: crate::tolerant::wire::Wire =
        crate::tolerant::wire::Wire::seq_of(T::FIXED_WIRE);
}

impl<T: Pack> Pack for [T] {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_len(self.len());
        // Plain data is one copy and integers are packed blocks or
        // fixed-width values: none of them nests, and their decoders count
        // no level; everything else counts a level, as its decoder does.
        if T::PLAIN.in_layout::<L>() {
            return T::pack_slice(self, w);
        }
        if T::PACKED {
            return pack_elements(self, w);
        }
        if crate::encoding::columns_in::<T, L>() {
            // Columns run the whole length (§27), not chunk by chunk; a
            // derived type's columns count their own level, as its
            // `unpack_vec` does, and strings and options none.
            return T::pack_slice(self, w);
        }
        w.nested(|w| pack_elements(self, w))
    }
}

/// Writes `items` in chunks, so that a streaming encode (`to_writer`) can
/// hand over its buffer between them.
#[inline]
fn pack_elements<T: Pack, L: crate::Layout>(items: &[T], w: &mut Writer<'_, L>) -> Result<()> {
    for chunk in items.chunks(SEQUENCE_CHUNK) {
        T::pack_slice(chunk, w)?;
        w.checkpoint();
    }
    Ok(())
}

impl<T: Encoding> Encoding for Vec<T> {
    encoding_transparent!([T]);
}

impl<T: Pack> Pack for Vec<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_slice().pack(w)
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for Vec<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Vec::new())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let len = r.read_seq_len::<T>()?;
        T::unpack_vec(r, len)
    }
}

impl<'de: 'a, 'a> Unpack<'de> for &'a [u8] {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(&[])
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let len = r.read_len()?;
        r.read_bytes(len).map(|b| b as &'a [u8])
    }
}

impl<T: Encoding> Encoding for VecDeque<T> {
    encoding_transparent!([T]);
}

impl<T: Pack> Pack for VecDeque<T> {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_len(self.len());
        if crate::encoding::packed_in::<T, L>() || crate::encoding::columns_in::<T, L>() {
            // Blocks and columns count from the front, across the two
            // halves.
            return match self.as_slices() {
                // Blocks may go in chunks (1,024 is a whole number of
                // blocks); columns run the whole length.
                (front, []) if T::PACKED => pack_elements(front, w),
                (front, []) => T::pack_slice(front, w),
                _ => T::pack_all(self.iter(), w),
            };
        }
        let (front, back) = self.as_slices();
        if T::PACKED || T::PLAIN.in_layout::<L>() {
            // Integers and plain data: no level, as for `[T]` (whose
            // decoder this one is).
            pack_elements(front, w)?;
            return pack_elements(back, w);
        }
        w.nested(|w| {
            pack_elements(front, w)?;
            pack_elements(back, w)
        })
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for VecDeque<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(VecDeque::new())
    }

    const MIN_SIZE: usize = 1;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        Vec::<T>::unpack(r).map(VecDeque::from)
    }
}

impl<T: Encoding> Encoding for LinkedList<T> {
    encoding_transparent!([T]);
}

impl<T: Pack> Pack for LinkedList<T> {
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_len(self.len());
        w.nested(|w| T::pack_all(self.iter(), w))
    }
}

impl<'de, T: Unpack<'de>> Unpack<'de> for LinkedList<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(LinkedList::new())
    }

    const MIN_SIZE: usize = 1;

    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let len = r.read_seq_len::<T>()?;
        // Each element in a node of its own, with two links (and the
        // padding the element's alignment puts between them).
        let node = core::mem::size_of::<(usize, usize, T)>();
        r.charge_memory(len.saturating_mul(node))?;
        if crate::encoding::packed_in::<T, L>() || crate::encoding::columns_in::<T, L>() {
            // Blocks and columns decode as a vector, then move into their
            // nodes.
            return r
                .nested(|r| T::unpack_vec(r, len))
                .map(LinkedList::from_iter);
        }
        r.nested_holding::<T, _>(|r| {
            let mut out = LinkedList::new();
            for i in 0..len {
                out.push_back(crate::error::in_element(T::unpack(r), "", i)?);
            }
            Ok(out)
        })
    }
}

/// A heap is written in its internal (heap) order; the decoder requires
/// that order, which rebuilding from the decoded vector leaves unchanged,
/// so a round trip is byte-exact.
impl<T: Encoding> Encoding for BinaryHeap<T> {
    encoding_transparent!([T]);
}

impl<T: Pack> Pack for BinaryHeap<T> {
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        self.as_slice().pack(w)
    }
}

impl<'de, T: Unpack<'de> + Ord> Unpack<'de> for BinaryHeap<T> {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(BinaryHeap::new())
    }

    const MIN_SIZE: usize = 1;

    /// The elements must be in heap order (as any heap writes them), which
    /// makes a round trip byte-exact; comparing them walks them, so their
    /// expansion is charged like a set's keys.
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let at = r.position();
        let before = r.expansion();
        let items = Vec::<T>::unpack(r)?;
        r.charge_key(before, at)?;
        let in_heap_order = (1..items.len()).all(|i| items.get((i - 1) / 2) >= items.get(i));
        if !in_heap_order {
            return Err(r.error_at(
                at,
                crate::ErrorKind::InvalidValue,
                "BinaryHeap elements are not in heap order (each at most its parent)",
            ));
        }
        Ok(BinaryHeap::from(items))
    }
}
