//! The decode side: [`Reader`] and the [`Unpack`] trait.

use alloc::vec::Vec;

use crate::encoding::Encoding;
use crate::error::{Error, ErrorKind, Result};

use crate::tolerant::wire::Wire;

mod budget;
pub(crate) mod cursor;
pub(crate) mod lazy;
mod reader;
mod shared;

pub use cursor::ReadCursor;
pub use reader::Reader;

/// A type that can be decoded from bytes that live for `'de`.
///
/// Types that borrow from the input (`&'de str`, `&'de [u8]`,
/// `Cow<'de, str>`) implement `Unpack<'de>` for that one lifetime; owned types
/// implement it for every `'de`, which [`UnpackOwned`] names.
///
/// Every implementation must treat the input as hostile: read through the
/// [`Reader`], whose methods check bounds, lengths and limits, and return an
/// error (never panic) on anything malformed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no binform encoding (`Unpack` is not implemented)",
    label = "no binform encoding",
    note = "a type from another crate: mark the field `#[binform(with = \"module\")]`, or `#[binform(serde)]` if it implements serde's traits (feature `serde`)",
    note = "a type of your own crate: derive `binform::Packable` for it"
)]
pub trait Unpack<'de>: Encoding + Sized {
    /// The fewest input bytes any encoding of this type takes. Collections
    /// multiply a declared length by it to reject impossible lengths before
    /// allocating. `0` (the default) is always correct, only less strict:
    /// such elements are counted against [`Options::max_len`](crate::Options::max_len) instead.
    const MIN_SIZE: usize = 0;

    /// The fewest input bytes 256 values of this type take as a column
    /// of the compact layout (`docs/format.md` §27): a sequence's declared
    /// length is checked against it before anything is allocated. The
    /// default, 256 × [`MIN_SIZE`](Unpack::MIN_SIZE), is what row after
    /// row takes; packed integers take 2 (a block's header and base),
    /// presence bits 32, a derived type its fields' sum. `0` counts the
    /// elements against the reader's budget of elements that take no
    /// input, as `MIN_SIZE` 0 does.
    #[doc(hidden)]
    const COLUMN_MIN: usize = Self::MIN_SIZE.saturating_mul(256);

    /// Decodes the value of a version-tolerant type's field whose key said
    /// `wire`; `tag` is for error messages. `Option` overrides it to read
    /// `None` from the `Null` wire type.
    #[doc(hidden)]
    #[inline(always)]
    fn unpack_field<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        tag: u32,
        wire: Wire,
    ) -> Result<Self> {
        r.read_field_plain(tag, wire)
    }

    /// Decodes one value.
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self>;

    /// Decodes one value through a [`ReadCursor`]: the fields of a derived
    /// compact type, so that their reads keep the input's position in
    /// registers. Scalars read through the cursor; anything else through
    /// the reader.
    #[doc(hidden)]
    #[inline(always)]
    fn unpack_cursor<L: crate::Layout>(c: &mut ReadCursor<'_, 'de, L>) -> Result<Self> {
        c.reader(Self::unpack)
    }

    /// A cheap stand-in value (zeros, empty collections, `None`) used while
    /// a shared value that refers back to itself is being decoded; `None`
    /// if the type has none. Derived for structs and enums, which take
    /// their cheapest variant (chosen at compile time) and spend one unit of
    /// `work` each: a placeholder builds at most 256 derived values
    /// whatever the type's shape, and `None` once `work` runs out.
    #[doc(hidden)]
    #[inline]
    fn placeholder(work: &mut u32) -> Option<Self> {
        let _ = work;
        None
    }

    /// For interior-mutable wrappers (`RefCell`, `Mutex`, `RwLock`): a
    /// placeholder whose contents [`shared_fill`](Unpack::shared_fill) can
    /// replace later, so that an `Rc`/`Arc` of it exists before its
    /// contents are decoded and strong cycles can close.
    #[doc(hidden)]
    #[inline]
    fn shared_placeholder() -> Option<Self> {
        None
    }

    /// Decodes the contents into a value made by `shared_placeholder`.
    #[doc(hidden)]
    fn shared_fill<L: crate::Layout>(&self, r: &mut Reader<'de, L>) -> Result<()> {
        Err(r.error(
            ErrorKind::Custom,
            "shared_fill on a type without shared_placeholder",
        ))
    }

    /// Resets a value made by `shared_placeholder` to a placeholder,
    /// dropping its contents (breaks cycles after a failed decode).
    #[doc(hidden)]
    fn shared_clear(&self) {}

    /// Decodes `len` values into a vector; `len` has already been checked
    /// against the remaining input by [`Reader::read_seq_len`]. Plain-data
    /// types override this with a bulk copy. A type with a lazy column
    /// ([`LAZY_COLUMN`](Unpack::LAZY_COLUMN)) builds each element in
    /// place from it: that is the default rather than an override in each
    /// derived type, which rustc checked once a type.
    #[doc(hidden)]
    #[inline]
    fn unpack_vec<L: crate::Layout>(r: &mut Reader<'de, L>, len: usize) -> Result<Vec<Self>> {
        // A constant test: each instance keeps one branch.
        if Self::LAZY_COLUMN {
            return lazy::unpack_lazy::<Self, L>(r, len);
        }
        unpack_each(r, len)
    }

    /// Reads a column of `n` values (§27; `n` checked by the caller
    /// against the input, as for [`unpack_vec`](Unpack::unpack_vec)) as an
    /// iterator that yields them in order: exactly `n` when the column was
    /// well formed, fewer for a short one, which the reader of the values
    /// turns into an error.
    ///
    /// The default is the decoded vector, counted as transient memory of
    /// the enclosing column. Derived types, `Option` and tuples read their
    /// fields' columns and build each value when it is asked for, where it
    /// is stored (`columns::lazy`); strings check their column's text and
    /// make each string when it is asked for (`impls::string::str_column`);
    /// bytes, `i8` and floats take each value from the input
    /// (`columns::plain`).
    /// A lazy column's iterator also ends early where it cannot allocate a
    /// value (a large string): the reader reports that as a short column.
    #[doc(hidden)]
    #[inline(always)]
    fn read_column<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<impl Iterator<Item = Self> + use<'de, Self, L>> {
        leaf(r, n)
    }

    /// Whether a column of sequences of this type fills each sequence from
    /// [`read_column`](Unpack::read_column) (`impls::seq::unpack_seqs`):
    /// set by derived types, `Option` and tuples, whose values are built
    /// when they are asked for. Others, strings among them (measured 6%
    /// slower on people's keywords), decode all the elements into one
    /// vector and cut each sequence from it with one copy. (Inside a lazy
    /// column, a `Vec<String>` fills each sequence from the strings' own
    /// lazy column, and a `Vec<u8>` or of floats copies it from the input:
    /// [`read_seqs`](Unpack::read_seqs).)
    ///
    /// Set only with a [`read_column`](Unpack::read_column) of the type's
    /// own: [`unpack_vec`](Unpack::unpack_vec)'s default then builds the
    /// elements from that column, and the default column is the decoded
    /// vector (each would call the other).
    #[doc(hidden)]
    const LAZY_COLUMN: bool = false;

    /// [`read_column`](Unpack::read_column) of `Vec<Self>`: the decoded
    /// sequences by default; packed integers copy each sequence out of the
    /// elements' column when it is asked for, bytes and floats copy it
    /// from the input (`columns::plain`), and strings fill each from their
    /// lazy column (`impls::string::str_seqs`).
    #[doc(hidden)]
    #[inline(always)]
    fn read_seqs<L: crate::Layout>(
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<impl Iterator<Item = Vec<Self>> + use<'de, Self, L>> {
        leaf::<Vec<Self>, L>(r, n)
    }

    /// Decodes an array of `N` values; packed integers override it to
    /// read their blocks.
    #[doc(hidden)]
    #[inline]
    fn unpack_array<const N: usize, L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<[Self; N]> {
        if crate::encoding::columns_in::<Self, L>() || crate::encoding::packed_in::<Self, L>() {
            return unpack_array_of_column(r);
        }
        unpack_each_array(r)
    }
}

/// A leaf's column (`Unpack::read_column`'s default): its decoded
/// vector, counted as transient memory of the lazy column being read
/// (given back once its elements are built, `read::lazy`).
#[inline(always)]
pub(crate) fn leaf<'de, T: Unpack<'de>, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<alloc::vec::IntoIter<T>> {
    // A type with a lazy column reaches here only for its rows
    // (`columns::lazy::rows_of`): read each, where its `unpack_vec` would
    // read its column, which is this.
    let values = match T::LAZY_COLUMN {
        true => unpack_each(r, n)?,
        false => T::unpack_vec(r, n)?,
    };
    r.note_transient(&values);
    Ok(values.into_iter())
}

/// Pushes the value `make` returns onto `out`, which has room for it (the
/// caller grew it first): written where it is stored, not built on the
/// stack and moved there. A `push` after a fallible `make` kept the value
/// alive across its growth path, and mk48's contacts were copied twice
/// on the way into their vector (70 of 250 instructions a contact).
#[inline(always)]
pub(crate) fn push_made<T>(out: &mut Vec<T>, make: impl FnOnce() -> Result<T>) -> Result<()> {
    let len = out.len();
    match out.spare_capacity_mut().first_mut() {
        Some(slot) => {
            slot.write(make()?);
            #[allow(unsafe_code)]
            // SAFETY: the slot at `len`, the first past the initialized
            // elements, was written just above, and nothing else has
            // changed the vector since `len` was read.
            unsafe {
                out.set_len(len + 1)
            };
        }
        // No room (the caller's bug): still correct, only slower.
        None => out.push(make()?),
    }
    Ok(())
}

/// An empty vector with room for `cap` values: up to
/// [`SMALL_ALLOCATION`] bytes through the infallible (faster) allocation,
/// more (a capacity the input declared) through the fallible one
/// ([`try_vec`]); `None` where that cannot be allocated. The caller has
/// charged the memory budget.
#[inline(always)]
pub(crate) fn vec_room<T>(cap: usize) -> Option<Vec<T>> {
    if cap.saturating_mul(core::mem::size_of::<T>()) <= SMALL_ALLOCATION {
        return Some(Vec::with_capacity(cap));
    }
    try_vec(cap)
}

/// An empty vector with room for `cap` values, through the fallible
/// allocation (a capacity the input declared); `None` where it cannot be
/// allocated. Out of the loops' way.
#[cold]
#[inline(never)]
pub(crate) fn try_vec<T>(cap: usize) -> Option<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(cap).ok()?;
    Some(out)
}

/// Pushes `value` onto `out`, into its spare capacity where it has room
/// (`Vec::push` was left out of line in a large caller: a call a value).
#[inline(always)]
pub(crate) fn push_within<T>(out: &mut Vec<T>, value: T) {
    let len = out.len();
    match out.spare_capacity_mut().first_mut() {
        Some(slot) => {
            slot.write(value);
            #[allow(unsafe_code)]
            // SAFETY: the slot at `len`, the first past the initialized
            // elements, was written just above.
            unsafe {
                out.set_len(len + 1)
            };
        }
        None => out.push(value),
    }
}

/// Pushes the next value of a lazy `column` onto `out`, which has room
/// for it (the caller grew it first); a column that has run out is an
/// error ([`lazy::next`]). The column's `Option` is matched where the
/// slot is written: through [`push_made`]'s `Result` (`lazy::next`), a
/// person (72 bytes) was copied twice on its way into its vector (people
/// decode 6.7% fewer instructions with `impls::string::small_string`'s
/// inline allocation, which this needs: the more inlined loop had left
/// `String::from`'s out of line). The slot is taken before the column's
/// `next`, not after it as [`push_within`] would: that order cost 1.6%
/// of people's decode instructions, 1.1% of log's.
#[inline(always)]
pub(crate) fn push_next<T, L: crate::Layout>(
    r: &Reader<'_, L>,
    out: &mut Vec<T>,
    column: &mut impl Iterator<Item = T>,
) -> Result<()> {
    let len = out.len();
    match out.spare_capacity_mut().first_mut() {
        Some(slot) => {
            match column.next() {
                Some(value) => slot.write(value),
                None => return Err(short_column(r)),
            };
            #[allow(unsafe_code)]
            // SAFETY: the slot at `len`, the first past the initialized
            // elements, was written just above, and nothing else has
            // changed the vector since `len` was read.
            unsafe {
                out.set_len(len + 1)
            };
        }
        None => out.push(lazy::next(r, column)?),
    }
    Ok(())
}

/// [`Unpack::unpack_vec`]'s default: plain data in one copy, anything
/// else one value at a time (what integers do in the fixed layout, too).
#[inline]
pub(crate) fn unpack_each<'de, T: Unpack<'de>, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    len: usize,
) -> Result<Vec<T>> {
    if T::PLAIN.in_layout::<L>() {
        return r.read_plain_vec(len);
    }
    // No elements: no level either (an empty column's encoder counts
    // none, `write::pack_column`).
    if len == 0 {
        return Ok(Vec::new());
    }
    let each = |r: &mut Reader<'de, L>| {
        let mut out = r.vec_with_capacity::<T>(len)?;
        // Within the preallocation, a plain loop; past a cautious one (a
        // length larger than the input could justify), growth toward
        // `len`, never `push`'s doubling past what was charged.
        let room = out.capacity().min(len);
        for i in 0..room {
            out.push(crate::error::in_element(T::unpack(r), "", i)?);
        }
        if room < len {
            unpack_past_room(r, &mut out, len)?;
        }
        Ok(out)
    };
    // Integers nest no level (their encoders count none either).
    if T::PACKED {
        return each(r);
    }
    r.nested_holding::<T, _>(each)
}

/// The elements of a vector past its cautious preallocation, out of line
/// (honest vectors are preallocated whole): each growth goes toward
/// `len`, never `push`'s doubling past what was charged.
#[cold]
#[inline(never)]
fn unpack_past_room<'de, T: Unpack<'de>, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    out: &mut Vec<T>,
    len: usize,
) -> Result<()> {
    for i in out.len()..len {
        let x = crate::error::in_element(T::unpack(r), "", i)?;
        if out.len() == out.capacity() {
            r.grow_toward(out, i + 1, len)?;
        }
        out.push(x);
    }
    Ok(())
}

/// [`Unpack::unpack_array`]'s default: one value at a time.
#[inline]
pub(crate) fn unpack_each_array<'de, T: Unpack<'de>, L: crate::Layout, const N: usize>(
    r: &mut Reader<'de, L>,
) -> Result<[T; N]> {
    // Decode into `Option`s so that the first error can stop the array
    // without a value to fill the rest; every slot is `Some` after.
    let mut failure: Option<Error> = None;
    let slots: [Option<T>; N] = core::array::from_fn(|_| {
        if failure.is_some() {
            return None;
        }
        match T::unpack(r) {
            Ok(v) => Some(v),
            Err(e) => {
                failure = Some(e);
                None
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // Without a failure, `from_fn` filled every slot.
    Ok(slots.map(|slot| slot.unwrap_or_else(|| unreachable!("every slot is filled"))))
}

/// An array whose elements are a column (§27) or packed blocks (§22),
/// from the sequence decoder: `N` is checked against the input first.
#[inline(never)]
fn unpack_array_of_column<'de, T: Unpack<'de>, L: crate::Layout, const N: usize>(
    r: &mut Reader<'de, L>,
) -> Result<[T; N]> {
    r.check_column::<T>(N, r.position())?;
    let values = T::unpack_vec(r, N)?;
    values.try_into().map_err(|_| short_column(r))
}

/// The error of a column (§27) with fewer values than its count: a
/// hand-written `unpack_vec` that returned fewer than asked for.
#[cold]
#[inline(never)]
pub fn short_column<L: crate::Layout>(r: &Reader<'_, L>) -> Error {
    r.error(
        ErrorKind::Custom,
        "a column decoder returned fewer values than asked for (or could not allocate one)",
    )
}

/// The `n` bytes at `pos`, if the input holds them: the bounds check of
/// the reader's and the cursor's byte reads alike.
#[inline(always)]
fn bytes_at(input: &[u8], pos: usize, n: usize) -> Option<&[u8]> {
    pos.checked_add(n).and_then(|end| input.get(pos..end))
}

/// The `N` bytes at `pos` as an array, if the input holds them (sliced to
/// `pos + N` with a wrapping add: the check is a compare and a carry).
#[inline(always)]
fn array_at<const N: usize>(input: &[u8], pos: usize) -> Option<[u8; N]> {
    let bytes = input.get(pos..pos.wrapping_add(N))?;
    let mut out = [0u8; N];
    out.copy_from_slice(bytes);
    Some(out)
}

/// A type that can be decoded from input of any lifetime: it borrows nothing.
/// Needed where the input does not outlive the call, as in
/// [`from_reader`](crate::from_reader).
pub trait UnpackOwned: for<'de> Unpack<'de> {}
impl<T> UnpackOwned for T where T: for<'de> Unpack<'de> {}

/// How many derived values one placeholder may build: a small constant per
/// shared value, so that no type shape (an octree's eight boxed children,
/// say) makes placeholders cost exponential work.
pub(crate) const PLACEHOLDER_WORK: u32 = 256;
/// Allocations up to this size use the infallible (faster) path.
pub(crate) const SMALL_ALLOCATION: usize = 4096;

/// The keys of maps and sets may expand to one value per this many bytes
/// of the memory budget: as many values as honest keys could fill it with.
const KEY_EXPANSION_BYTES: usize = 16;
