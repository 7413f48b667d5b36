//! The encode side: [`Writer`] and the [`Pack`] trait.

use crate::encoding::Encoding;
use crate::error::Result;
use crate::plain;

mod cursor;
#[cfg(feature = "std")]
mod stream;
mod writer;

pub use cursor::{Cursor, Kept, RESERVE_SLACK};
#[cfg(feature = "std")]
pub(crate) use stream::{Stream, STREAM_BUFFER};
pub use writer::Writer;

/// A type that can be encoded.
///
/// Derive it with `#[derive(binform::Packable)]`, which implements
/// [`Encoding`], `Pack` and [`Unpack`](crate::Unpack). Write it by hand only
/// for types the derive cannot see into, with a one-line `Encoding` impl
/// (see [`Encoding`] for what it may describe); keep the encoding in step
/// with `Unpack::unpack`.
///
/// ```
/// use binform::{Encoding, Pack, Unpack, Reader, Writer, Result};
///
/// /// A temperature stored as tenths of a degree.
/// struct Celsius(f32);
///
/// impl Encoding for Celsius {}
/// impl Pack for Celsius {
///     fn pack<L: binform::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
///         ((self.0 * 10.0).round() as i32).pack(w)
///     }
/// }
/// impl<'de> Unpack<'de> for Celsius {
///     fn unpack<L: binform::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
///         Ok(Celsius(i32::unpack(r)? as f32 / 10.0))
///     }
/// }
///
/// let bytes = binform::to_vec(&Celsius(21.5)).unwrap();
/// assert_eq!(bytes.len(), 2);
/// assert_eq!(binform::from_slice::<Celsius>(&bytes).unwrap().0, 21.5);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no binform encoding (`Pack` is not implemented)",
    label = "no binform encoding",
    note = "a type from another crate: mark the field `#[binform(with = \"module\")]`, or `#[binform(serde)]` if it implements serde's traits (feature `serde`)",
    note = "a type of your own crate: derive `binform::Packable` for it"
)]
pub trait Pack: Encoding {
    /// Appends the encoding of `self` to the writer.
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()>;

    /// Writes the value as a field of a version-tolerant type: the key
    /// (`gap_key` is the tag gap shifted left by 3; the wire type goes in
    /// the low bits), then the value. Scalars override it to write both in
    /// one store, `Option` to write `None` as the `Null` wire type.
    #[doc(hidden)]
    #[inline(always)]
    fn pack_field<L: crate::Layout>(&self, gap_key: u64, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_field_plain(self, gap_key)
    }

    /// Writes the value through a [`Cursor`]:
    /// the fields of a derived compact type, so that their writes keep the
    /// buffer's end in registers. Scalars, strings and options write
    /// through the cursor; anything else through the writer.
    #[doc(hidden)]
    #[inline(always)]
    fn pack_cursor<L: crate::Layout>(&self, c: &mut Cursor<'_, '_, L>) -> Result<()> {
        c.writer(|w| self.pack(w))
    }

    /// The most bytes the value's encoding takes, when the type bounds it
    /// and it is small (a scalar, an option of one, a derived type of
    /// such fields); `usize::MAX` otherwise. A derived type makes room for
    /// its bounded fields' sum once, then writes them with
    /// [`pack_reserved`](Pack::pack_reserved): one room check a value, not
    /// one a field. Only values up to 1024 count as bounds (larger ones
    /// are written with checks). Any value is memory-safe: one that
    /// understates what the type writes costs a growth of the buffer
    /// (through the default `pack_reserved`), never an overrun.
    #[doc(hidden)]
    const MAX_SIZE: usize = usize::MAX;

    /// Writes the value through a cursor that has room for it already.
    /// The default writes with checks ([`pack_cursor`](Pack::pack_cursor))
    /// and then makes room again for what its caller counted on after it,
    /// so a type's `MAX_SIZE` that understates what it writes costs a
    /// growth, never an overrun.
    ///
    /// Its caller trusts what it returns: a [`Kept`], made only by the
    /// `unsafe` [`Kept::promise`], is its word that it left the room the
    /// caller counted on. An override must keep that word; one in safe
    /// code cannot give it.
    ///
    /// # Safety
    /// `Self::MAX_SIZE` is a bound (at most 1024), and the cursor's
    /// [`room_left`](Cursor::room_left) is at least `Self::MAX_SIZE` +
    /// [`RESERVE_SLACK`]. (A derived struct's own `pack_cursor` also calls
    /// its generated `pack_reserved` with no room made when its `MAX_SIZE`
    /// is no bound: that body makes room itself before each run of
    /// bounded fields, `__private::pack_next`.)
    #[doc(hidden)]
    #[inline(always)]
    #[allow(unsafe_code)]
    unsafe fn pack_reserved<L: crate::Layout>(
        &self,
        c: &mut Cursor<'_, '_, L>,
    ) -> Result<Kept<Self>> {
        let room = c.room_left();
        self.pack_cursor(c)?;
        c.reserve(room.saturating_sub(Self::MAX_SIZE));
        // SAFETY: the room left is again at least what it was less
        // `MAX_SIZE`, and the checked writes stored only inside the buffer.
        Ok(unsafe { Kept::promise() })
    }

    /// Appends every element of `items`, one after another; plain data is
    /// copied in one block.
    #[doc(hidden)]
    #[inline]
    fn pack_slice<L: crate::Layout>(items: &[Self], w: &mut Writer<'_, L>) -> Result<()>
    where
        Self: Sized,
    {
        // Columns (§27), and the packed blocks of a wrapper of integers:
        // through `pack_columns`, whose default is `pack_all`.
        if crate::encoding::columns_in::<Self, L>() || crate::encoding::packed_in::<Self, L>() {
            if items.is_empty() {
                return Ok(());
            }
            return Self::pack_columns(Rows::Slice(items), w);
        }
        pack_each(items, w)
    }

    /// Appends the elements of a sequence that is not one slice (a
    /// `VecDeque` split in two, a `LinkedList`, one field of each element
    /// of a column): the same bytes as [`pack_slice`](Pack::pack_slice) of
    /// all of them. Packed integers override it to gather their blocks,
    /// and types whose sequences are columns (§27) to write them.
    #[doc(hidden)]
    #[inline]
    fn pack_all<'a, L: crate::Layout>(
        items: impl Iterator<Item = &'a Self> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()>
    where
        Self: 'a,
    {
        pack_each_of(items, w)
    }

    /// Writes the column (§27) of all the elements of `slices`, `total` of
    /// them, one slice after another: the elements of a column of
    /// sequences. The default gathers a column set's references slice by
    /// slice (`pack_slices_as_rows`) and flattens anything else into one
    /// iterator; bools and packed integers override it to work a slice at
    /// a time (a flattening iterator cost them most of a column's time).
    #[doc(hidden)]
    #[inline]
    fn pack_slices<'a, L: crate::Layout>(
        slices: impl Iterator<Item = &'a [Self]> + Clone,
        total: usize,
        w: &mut Writer<'_, L>,
    ) -> Result<()>
    where
        Self: Sized + 'a,
    {
        if crate::encoding::columns_in::<Self, L>() {
            return pack_slices_as_rows(slices, total, w);
        }
        let all = Counted::new(slices.flat_map(<[Self]>::iter), total);
        pack_column::<Self, L>(all, w)
    }

    /// Writes the columns (§27) of the elements `items` (at least one): a
    /// derived compact type's fields, a column each. Called by the default
    /// [`pack_slice`](Pack::pack_slice) of a type whose
    /// [`COLUMNS`](crate::Encoding::COLUMNS) is set, in the compact layout
    /// only. The elements come as one type, [`Rows`], whatever iterator
    /// reached them, so that the iterators of a type that holds itself
    /// (through a box or an option) do not nest without end.
    #[doc(hidden)]
    #[inline]
    fn pack_columns<L: crate::Layout>(items: Rows<'_, Self>, w: &mut Writer<'_, L>) -> Result<()>
    where
        Self: Sized,
    {
        // A type whose column is its `pack_all` (strings, options,
        // wrappers): a derived type writes its fields here instead.
        Self::pack_all(items.iter(), w)
    }
}

/// An iterator of a known number of items (`total`, the sum of a column
/// of sequences' counts), which says so: the elements' column then takes
/// its short forms (`packed::pack_iter`) where a flattening iterator
/// could not tell its length.
#[derive(Clone)]
pub(crate) struct Counted<I> {
    items: I,
    left: usize,
}

impl<I> Counted<I> {
    pub(crate) fn new(items: I, total: usize) -> Self {
        Counted { items, left: total }
    }
}

impl<I: Iterator> Iterator for Counted<I> {
    type Item = I::Item;

    #[inline(always)]
    fn next(&mut self) -> Option<I::Item> {
        let item = self.items.next()?;
        self.left = self.left.saturating_sub(1);
        Some(item)
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }

    // The inner iterator's own loop (a flattening one's is two nested
    // loops, where `next` steps its state machine at each item).
    #[inline(always)]
    fn fold<B, F: FnMut(B, I::Item) -> B>(self, init: B, f: F) -> B {
        self.items.fold(init, f)
    }
}

/// Writes one field's column (§27): `T::pack_all`, one nesting level
/// down when `T`'s column is rows, whose decoder (`Unpack::unpack_vec`'s
/// default) counts that level.
#[inline(always)]
pub fn pack_column<'a, T: Pack + ?Sized + 'a, L: crate::Layout>(
    items: impl Iterator<Item = &'a T> + Clone,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    if T::PACKED || T::COLUMNS || T::PLAIN.in_layout::<L>() {
        return T::pack_all(items, w);
    }
    // An empty column is no bytes and no level, as its decoder counts.
    if items.clone().next().is_none() {
        return Ok(());
    }
    w.nested(|w| T::pack_all(items, w))
}

/// The columns of up to 16 fields of a derived type (or a tuple's
/// elements), written from tuples `F` of references to them: implemented
/// for the selector `&__private::FieldsOf<F>` of tuples of references to
/// encodable types (`impls/tuples.rs`).
#[doc(hidden)]
pub trait PackFields<F> {
    /// Writes each element's column in turn ([`pack_column`]).
    fn __binform_pack_fields<L: crate::Layout>(
        self,
        items: impl Iterator<Item = F> + Clone,
        w: &mut Writer<'_, L>,
    ) -> Result<()>;
}

/// The elements of a column set (§27): a slice of them (a sequence's,
/// which needs no copy), or references gathered from an iterator (a
/// field's values, an option's present values).
#[doc(hidden)]
pub enum Rows<'a, T> {
    /// The elements of a slice.
    Slice(&'a [T]),
    /// References to the elements.
    Refs(&'a [&'a T]),
}

// By hand: a derive would ask `T: Copy`.
impl<T> Clone for Rows<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Rows<'_, T> {}

impl<'a, T> Rows<'a, T> {
    /// The elements, in order.
    #[inline(always)]
    pub fn iter(self) -> RowsIter<'a, T> {
        match self {
            Rows::Slice(items) => RowsIter::Slice(items.iter()),
            Rows::Refs(items) => RowsIter::Refs(items.iter()),
        }
    }
}

/// [`Rows::iter`]'s iterator.
#[doc(hidden)]
pub enum RowsIter<'a, T> {
    /// Over a slice.
    Slice(core::slice::Iter<'a, T>),
    /// Over references.
    Refs(core::slice::Iter<'a, &'a T>),
}

impl<T> Clone for RowsIter<'_, T> {
    fn clone(&self) -> Self {
        match self {
            RowsIter::Slice(items) => RowsIter::Slice(items.clone()),
            RowsIter::Refs(items) => RowsIter::Refs(items.clone()),
        }
    }
}

impl<'a, T> Iterator for RowsIter<'a, T> {
    type Item = &'a T;

    #[inline(always)]
    fn next(&mut self) -> Option<&'a T> {
        match self {
            RowsIter::Slice(items) => items.next(),
            RowsIter::Refs(items) => items.next().copied(),
        }
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            RowsIter::Slice(items) => items.size_hint(),
            RowsIter::Refs(items) => items.size_hint(),
        }
    }

    // One match, then the slice's own loop: the default `fold` matched
    // on the variant at every element of every column's pass.
    #[inline(always)]
    fn fold<B, F: FnMut(B, &'a T) -> B>(self, init: B, f: F) -> B {
        match self {
            RowsIter::Slice(items) => items.fold(init, f),
            RowsIter::Refs(items) => items.copied().fold(init, f),
        }
    }
}

/// The elements' references gathered, then their columns: what a type
/// with [`Encoding::COLUMNS`] and no `pack_all` of its own writes.
#[inline(never)]
pub(crate) fn pack_columns_of<'a, T: Pack + 'a, L: crate::Layout>(
    mut items: impl Iterator<Item = &'a T>,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    // No elements, no columns: a type that holds itself (through a box
    // or an option) would otherwise recurse through its empty columns
    // without end.
    let Some(first) = items.next() else {
        return Ok(());
    };
    // A short column's references on the stack (a derived field of each
    // element of a short sequence is the common case): filled with the
    // first, then overwritten, so that no slot is ever uninitialized.
    let (least, _) = items.size_hint();
    if least < GATHER_ON_STACK {
        let mut stack = [first; GATHER_ON_STACK];
        let mut n = 1;
        for item in items.by_ref() {
            match stack.get_mut(n) {
                Some(slot) => *slot = item,
                None => {
                    let mut refs: alloc::vec::Vec<&T> = stack.to_vec();
                    refs.push(item);
                    refs.extend(items);
                    return T::pack_columns(Rows::Refs(&refs), w);
                }
            }
            n += 1;
        }
        return T::pack_columns(Rows::Refs(stack.get(..n).unwrap_or_default()), w);
    }
    // A long column (its lower bound says so): the vector at once, then
    // filled in place, past its length only if the bound was low (a push
    // a reference spilled the vector's length at each).
    let mut refs: alloc::vec::Vec<&T> = alloc::vec![first; least.saturating_add(1)];
    let n = items.fold(1, |i, item| {
        match refs.get_mut(i) {
            Some(slot) => *slot = item,
            None => refs.push(item),
        }
        i + 1
    });
    refs.truncate(n);
    T::pack_columns(Rows::Refs(&refs), w)
}

/// [`Pack::pack_slices`] of a column set (a derived type's, a tuple's,
/// ...): the elements' references gathered a slice at a time, where
/// flattening the slices cost a step of its state machine at each
/// element in each of the columns' passes. `T::pack_columns` of them is
/// what `pack_column` would have written through `T::pack_all`, at the
/// same level.
fn pack_slices_as_rows<'a, T: Pack + 'a, L: crate::Layout>(
    slices: impl Iterator<Item = &'a [T]> + Clone,
    total: usize,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    // No elements, no columns (a type that holds itself would recurse
    // through its empty columns without end).
    let Some(first) = slices.clone().find_map(<[T]>::first) else {
        return Ok(());
    };
    // A short column on the stack, which allocates nothing (an encode
    // into a reused buffer allocates nothing): filled with the first,
    // then overwritten.
    if total <= GATHER_ON_STACK {
        let mut stack = [first; GATHER_ON_STACK];
        let mut n = 0;
        for item in slices.clone().flatten() {
            if let Some(slot) = stack.get_mut(n) {
                *slot = item;
            }
            n += 1;
        }
        // More than `total` elements (never from this crate's callers)
        // take the vector below.
        if let Some(refs) = stack.get(..n) {
            return T::pack_columns(Rows::Refs(refs), w);
        }
    }
    let mut refs: alloc::vec::Vec<&T> = alloc::vec::Vec::with_capacity(total);
    slices.for_each(|s| refs.extend(s));
    T::pack_columns(Rows::Refs(&refs), w)
}

/// Columns of at most this many elements gather their references on the
/// stack, larger ones in a vector.
const GATHER_ON_STACK: usize = 64;

/// [`Pack::pack_slice`]'s default: plain data in one copy, anything else
/// one value at a time (what integers do in the fixed layout, too).
#[inline]
pub(crate) fn pack_each<T: Pack, L: crate::Layout>(
    items: &[T],
    w: &mut Writer<'_, L>,
) -> Result<()> {
    if let Some(bytes) = plain::bytes_of::<T, L>(items, T::PLAIN) {
        w.write_bytes(bytes);
        return Ok(());
    }
    for item in items {
        item.pack(w)?;
    }
    Ok(())
}

/// The `pack_all` of a fixed-size scalar (`u8`, `i8`, floats) whose bytes
/// `bytes` gives: a column of them (a field of each element, §27) reserved
/// and filled a chunk at a time, where a value at a time cost each its own
/// reservation. The iterator's size hint only sizes a chunk: what a chunk
/// was not filled with is taken back, and every value the iterator
/// yields is written, once.
#[inline]
pub(crate) fn pack_scalars_of<'a, T: 'a, const N: usize, L: crate::Layout>(
    items: impl Iterator<Item = &'a T>,
    bytes: impl Fn(&T) -> [u8; N],
    w: &mut Writer<'_, L>,
) {
    let mut items = items.peekable();
    while items.peek().is_some() {
        let k = match items.size_hint() {
            (_, Some(hi)) => hi,
            (lo, None) => lo,
        }
        .clamp(1, SEQUENCE_CHUNK);
        let out = w.extend_zeroed(k * N);
        let mut filled = 0;
        // The chunk's slots first: a full chunk takes no value past it.
        for (dst, v) in out.chunks_exact_mut(N).zip(items.by_ref()) {
            dst.copy_from_slice(&bytes(v));
            filled += 1;
        }
        w.unextend((k - filled) * N);
        w.checkpoint();
    }
}

/// [`Pack::pack_all`]'s default: one value at a time, a streaming encode
/// handed the buffer between chunks.
#[inline]
pub(crate) fn pack_each_of<'a, T: Pack + ?Sized + 'a, L: crate::Layout>(
    items: impl Iterator<Item = &'a T>,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    for (i, item) in items.enumerate() {
        item.pack(w)?;
        if i % SEQUENCE_CHUNK == SEQUENCE_CHUNK - 1 {
            w.checkpoint();
        }
    }
    Ok(())
}

/// Elements of a sequence are written this many at a time between the
/// points where a streaming encode may hand over its buffer.
pub(crate) const SEQUENCE_CHUNK: usize = 1024;
