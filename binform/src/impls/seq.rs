//! Sequences: `[T]`, `Vec`, `VecDeque`, `LinkedList`, `BinaryHeap`, `&[u8]`.
//! All are a length followed by the elements in order.

use alloc::collections::{BinaryHeap, LinkedList, VecDeque};
use alloc::vec::Vec;

use crate::write::SEQUENCE_CHUNK;
use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

/// The `Pack` hook of a sequence type (`$as_slice` borrows its elements
/// as a slice): in the compact layout a column of them is their lengths,
/// then all their elements' column (§27).
macro_rules! seq_column_pack {
    ($as_slice:expr) => {
        column_pack_all!(|items, w| crate::impls::seq::pack_seqs(items.map($as_slice), w));
    };
}
// Used by the optional integrations (`bytes`, `smallvec`, `arrayvec`) too.
#[allow(unused_imports)]
pub(crate) use seq_column_pack;

/// Writes a column of sequences (§27): their lengths as packed `u64`
/// blocks, then the column of all their elements, one after another.
pub(crate) fn pack_seqs<'a, T: Pack + 'a, L: crate::Layout>(
    items: impl Iterator<Item = &'a [T]> + Clone,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    pack_seqs_with(items.clone().map(<[T]>::len), w, |w, total| {
        pack_flat(items, total, w)
    })
}

/// The column of the elements of `slices`, all of them: plain data copied
/// slice by slice (but for a plain derived type, whose column is its
/// fields' columns), anything else as one column.
fn pack_flat<'a, T: Pack + 'a, L: crate::Layout>(
    slices: impl Iterator<Item = &'a [T]> + Clone,
    total: usize,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    if T::PLAIN.in_layout::<L>() && !T::COLUMNS {
        return slices
            .into_iter()
            .try_for_each(|s| crate::write::pack_each(s, w));
    }
    T::pack_slices(slices, total, w)
}

/// A column of sequences of lengths `lens` whose elements `elements`
/// writes: the lengths, then the elements one level down (nested sequences
/// are how a type holds itself through `Vec`, and the level bounds that
/// recursion), unless there are none, as [`unpack_seqs`] counts.
fn pack_seqs_with<'w, L: crate::Layout>(
    lens: impl Iterator<Item = usize> + Clone,
    w: &mut Writer<'w, L>,
    elements: impl FnOnce(&mut Writer<'w, L>, usize) -> Result<()>,
) -> Result<()> {
    crate::packed::pack_iter(lens.clone().map(|n| n as u64), w)?;
    let total = lens.fold(0usize, usize::saturating_add);
    if total == 0 {
        return Ok(());
    }
    w.nested(|w| elements(w, total))
}

/// Reads a column of `n` sequences (`n` checked by the caller) written by
/// [`pack_seqs`], each made by `make` from its elements: the lengths, then
/// the elements' column. Elements whose column is built lazily (derived
/// types, options, tuples) are built straight into their sequence's
/// buffer; leaves (scalars, strings) are decoded into one vector and each
/// sequence cut from it with one copy. (A lazy column of sequences is
/// `Unpack::read_seqs`: strings fill each sequence from their column,
/// bytes and floats copy it from the input, `columns::plain`.)
pub(crate) fn unpack_seqs<'de, T: Unpack<'de>, S, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
    make: impl FnMut(&mut Reader<'de, L>, Vec<T>) -> Result<S>,
) -> Result<Vec<S>> {
    // The room of the sequences' vector is taken before the lengths and
    // elements are read, which back it (`Reader::vec_with_room`).
    let room = r.cautious_capacity::<S>(n);
    crate::columns::with_lengths(r, n, |r, lens| match T::LAZY_COLUMN && T::COLUMNS {
        true => seqs_from_column(r, lens, room, make),
        false => seqs_cut(r, lens, room, make),
    })
}

/// [`unpack_seqs`] of elements with a lazy column: each sequence
/// filled from the column in turn, so that an element is written once,
/// where it is stored (cut from a vector of all the elements, each was
/// written twice).
fn seqs_from_column<'de, T: Unpack<'de>, S, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    lens: &[u64],
    room: usize,
    mut make: impl FnMut(&mut Reader<'de, L>, Vec<T>) -> Result<S>,
) -> Result<Vec<S>> {
    let n = lens.len();
    let at = r.position();
    let total = crate::columns::total_of(r, lens, at)?;
    if total == 0 {
        // No elements, no column (nor a level, nor a recursion through
        // it): empty sequences, as the leaves' path makes them.
        return seqs_cut(r, lens, room, make);
    }
    r.check_column::<T>(total, at)?;
    // The sequences' own buffers (elements that take no memory a byte
    // each, as `vec_with_room` charges them).
    r.charge_memory(total.saturating_mul(core::mem::size_of::<T>().max(1)))?;
    let mut out = r.vec_with_room::<S>(n, room)?;
    r.nested_holding::<T, _>(|r| {
        let (mut column, refund) = crate::read::lazy::transient_column::<T, L>(r, total)?;
        for (i, &len) in lens.iter().enumerate() {
            // Each length is at most the total (they add up to it), which
            // was checked against the input and charged above.
            let len = len as usize;
            let mut items = r.vec_for(len)?;
            for _ in 0..len {
                crate::read::push_made(&mut items, || crate::read::lazy::next(r, &mut column))?;
            }
            if out.len() == out.capacity() {
                r.grow_toward(&mut out, i + 1, n)?;
            }
            crate::read::push_made(&mut out, || make(r, items))?;
        }
        drop(column);
        r.refund_memory(refund);
        Ok(out)
    })
}

/// [`unpack_seqs`] of leaves: the elements' column ([`seq_elements`]),
/// then each sequence cut from it with one copy, the last first (from the
/// front, each cut would move all that follow it); their order is
/// restored at the end.
fn seqs_cut<'de, T: Unpack<'de>, S, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    lens: &[u64],
    room: usize,
    mut make: impl FnMut(&mut Reader<'de, L>, Vec<T>) -> Result<S>,
) -> Result<Vec<S>> {
    let n = lens.len();
    let (mut all, charged) = seq_elements::<T, L>(r, lens)?;
    let total = all.len();
    let mut out = r.vec_with_room::<S>(n, room)?;
    for (i, &len) in lens.iter().rev().enumerate() {
        // Each length is at most what is left of the total: the lengths
        // add up to it.
        let items = all.split_off(all.len().saturating_sub(len as usize));
        if out.len() == out.capacity() {
            r.grow_toward(&mut out, i + 1, n)?;
        }
        out.push(make(r, items)?);
    }
    out.reverse();
    // The column's vector is freed; what it was charged is given back.
    r.refund_memory(charged.min(total.saturating_mul(core::mem::size_of::<T>())));
    Ok(out)
}

/// The elements' column of a column of sequences of lengths `lens`: their
/// sum checked against the input before anything is read, one nesting
/// level if there are elements (as the writer counts), and the sequences'
/// own buffers charged besides the column's. Also returns what the
/// column was charged (whatever it charged inside and gave back), at most
/// what may be given back once it is freed: a hand-written `unpack_vec`
/// that charged nothing gets nothing back.
pub(crate) fn seq_elements<'de, T: Unpack<'de>, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    lens: &[u64],
) -> Result<(Vec<T>, usize)> {
    let at = r.position();
    let total = crate::columns::total_of(r, lens, at)?;
    r.check_column::<T>(total, at)?;
    let before = r.memory_left();
    let all = match total {
        0 => Vec::new(),
        _ => r.nested_holding::<T, _>(|r| T::unpack_vec(r, total))?,
    };
    let charged = before.saturating_sub(r.memory_left());
    if all.len() != total {
        return Err(crate::read::short_column(r));
    }
    r.charge_memory(total.saturating_mul(core::mem::size_of::<T>()))?;
    Ok((all, charged))
}

/// `Unpack::read_seqs` of a packed integer: each sequence of a column of
/// them copied out of the elements' column when it is asked for, where
/// the eager column made every sequence first; empty ones allocate
/// nothing.
macro_rules! copied_seq_column {
    () => {
        #[inline(always)]
        fn read_seqs<L: crate::Layout>(
            r: &mut crate::Reader<'de, L>,
            n: usize,
        ) -> crate::Result<impl Iterator<Item = alloc::vec::Vec<Self>> + use<'de, L>> {
            crate::impls::seq::copied_seqs(r, n)
        }
    };
}
pub(crate) use copied_seq_column;

/// A column of `n` sequences of `T`: lengths (packed), then the elements'
/// column (`seq_elements`); both are transient.
pub(crate) fn copied_seqs<'de, T: Unpack<'de> + Copy, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<impl Iterator<Item = Vec<T>> + use<'de, T, L>> {
    let lens: Vec<u64> = crate::packed::unpack_vec(r, n)?;
    let (all, _) = seq_elements::<T, L>(r, &lens)?;
    r.note_transient(&lens);
    r.note_transient(&all);
    let mut lens = lens.into_iter();
    let mut at = 0usize;
    Ok(core::iter::from_fn(move || {
        // The lengths add up to the elements' count: never past it.
        let end = at.checked_add(usize::try_from(lens.next()?).ok()?)?;
        let items = all.get(at..end)?;
        at = end;
        match items.is_empty() {
            true => Some(Vec::new()),
            false => Some(items.to_vec()),
        }
    }))
}

/// The `Unpack` hooks of a sequence type made from a `Vec` by `$make`
/// (given the reader): a column of them is read by [`unpack_seqs`].
macro_rules! seq_column_unpack {
    ($make:expr) => {
        /// A column of lengths, packed (two bytes for 256).
        const COLUMN_MIN: usize = 2;

        #[inline]
        fn unpack_vec<L: crate::Layout>(
            r: &mut crate::Reader<'de, L>,
            len: usize,
        ) -> crate::Result<alloc::vec::Vec<Self>> {
            if L::FIXED {
                return crate::read::unpack_each(r, len);
            }
            crate::impls::seq::unpack_seqs(r, len, $make)
        }
    };
}
pub(crate) use seq_column_unpack;

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
    // A column of sequences is their lengths, then one column of all
    // their elements (§27).
    const COLUMNS: bool = true;
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

    seq_column_pack!(|s: &'a Self| s);
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

    seq_column_pack!(Vec::as_slice);
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

    seq_column_unpack!(|_, items| Ok(items));

    #[inline(always)]
    fn read_column<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<impl Iterator<Item = Self> + use<'de, T, L>> {
        T::read_seqs(r, n)
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

    /// A column of lengths, packed (two bytes for 256).
    const COLUMN_MIN: usize = 2;

    /// A column of byte strings (§27): the lengths, then all the bytes,
    /// borrowed and split.
    fn unpack_vec<L: crate::Layout>(r: &mut Reader<'de, L>, len: usize) -> Result<Vec<Self>> {
        if L::FIXED {
            return crate::read::unpack_each(r, len);
        }
        let room = r.cautious_capacity::<Self>(len);
        crate::columns::with_lengths(r, len, |r, lens| {
            let at = r.position();
            let total = crate::columns::total_of(r, lens, at)?;
            let bytes: &'de [u8] = match total {
                0 => &[],
                _ => r.nested(|r| r.read_bytes(total))?,
            };
            let mut out = r.vec_with_room(len, room)?;
            let mut start = 0usize;
            for (i, &n) in lens.iter().enumerate() {
                // Each length is at most the total, which fits in `usize`.
                let end = start + n as usize;
                let slice = bytes
                    .get(start..end)
                    .ok_or_else(|| crate::read::short_column(r))?;
                // Grown toward the charged length, never doubled past it.
                if out.len() == out.capacity() {
                    r.grow_toward(&mut out, i + 1, len)?;
                }
                out.push(slice as &'a [u8]);
                start = end;
            }
            Ok(out)
        })
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

    // A column of sequences (§27), over both halves of each.
    column_pack_all!(|items, w| {
        let halves = items.clone().flat_map(|d| {
            let (front, back) = d.as_slices();
            [front, back]
        });
        pack_seqs_with(items.map(VecDeque::len), w, |w, total| {
            pack_flat(halves, total, w)
        })
    });
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

    seq_column_unpack!(|_, items| Ok(VecDeque::from(items)));
}

impl<T: Encoding> Encoding for LinkedList<T> {
    encoding_transparent!([T]);
}

impl<T: Pack> Pack for LinkedList<T> {
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_len(self.len());
        w.nested(|w| T::pack_all(self.iter(), w))
    }

    // A column of sequences (§27).
    column_pack_all!(|items, w| {
        let elements = items.clone().flat_map(LinkedList::iter);
        pack_seqs_with(items.map(LinkedList::len), w, |w, total| {
            let all = crate::write::Counted::new(elements, total);
            crate::write::pack_column::<T, L>(all, w)
        })
    });
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

    seq_column_unpack!(|r: &mut Reader<'de, L>, items: Vec<T>| {
        // A node each, as `unpack` charges.
        r.charge_memory(
            items
                .len()
                .saturating_mul(core::mem::size_of::<(usize, usize, T)>()),
        )?;
        Ok(LinkedList::from_iter(items))
    });
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

    seq_column_pack!(BinaryHeap::as_slice);
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
        heap_of(r, items, at)
    }

    /// A column of lengths, packed (two bytes for 256).
    const COLUMN_MIN: usize = 2;

    /// A column of heaps (§27): every element's expansion charged before
    /// any is compared.
    fn unpack_vec<L: crate::Layout>(r: &mut Reader<'de, L>, len: usize) -> Result<Vec<Self>> {
        let at = r.position();
        let before = r.expansion();
        let room = r.cautious_capacity::<Self>(len);
        let heaps = Vec::<T>::unpack_vec(r, len)?;
        r.charge_key(before, at)?;
        let mut out = r.vec_with_room(heaps.len(), room)?;
        for (i, items) in heaps.into_iter().enumerate() {
            if out.len() == out.capacity() {
                r.grow_toward(&mut out, i + 1, len)?;
            }
            out.push(crate::error::in_element(heap_of(r, items, at), "", i)?);
        }
        Ok(out)
    }
}

/// `items` as a heap, if they are in heap order.
fn heap_of<T: Ord, L: crate::Layout>(
    r: &Reader<'_, L>,
    items: Vec<T>,
    at: usize,
) -> Result<BinaryHeap<T>> {
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
