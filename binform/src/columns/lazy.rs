//! Columns read lazily: the same bytes as `Unpack::unpack_vec` (§27),
//! read the same way, but a column of derived structs, enums, options or
//! tuples is not built as a vector of its own. Its fields' columns are
//! read, and each element is made from them when it is asked for, where
//! it is stored: in the vector of the outermost sequence, or inside the
//! element of an enclosing column.
//!
//! Built eagerly, a `Vec<Contact>` of mk48 made a vector for each nested
//! struct, option and tuple column, then moved every value out of it into
//! the next level: a quarter of the decode. Only the leaves (integers,
//! sequences, anything without a lazy column) are vectors now; a string
//! column is its checked text, each string made when it is asked for
//! (`impls::string::str_column`), and a column of `Vec<String>` fills
//! each sequence from such a column (`impls::string::str_seqs`). Bytes,
//! `i8` and floats, and sequences of them, are read from the input in
//! place (`columns::plain`).
//!
//! Every type has a column to read (`Unpack::read_column`); the other
//! leaves' is their decoded vector. A derived type reads its fields' columns as
//! tuples of them ([`ReadFields`], one call for up to 16 fields), so that the
//! code the derive emits for a type is one call and one pattern, not a
//! statement for each field (`docs/compile-time.md`).

use alloc::vec::{IntoIter, Vec};

use crate::{Layout, Reader, Result, Unpack};

/// A derived struct's rows, when its fields' columns would all be rows
/// (`Encoding::COLUMNS` unset); else none, and its fields' columns are
/// read.
#[inline(always)]
pub fn rows_of<'de, T: Unpack<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<IntoIter<T>> {
    match T::COLUMNS {
        true => Ok(Vec::new().into_iter()),
        false => crate::read::leaf(r, n),
    }
}

/// `Option<T>`'s column (`Unpack::read_column`): presence bits, then
/// the present values' column (as `unpack_vec` reads them).
#[inline(always)]
pub(crate) fn option_column<'de, T: Unpack<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<impl Iterator<Item = Option<T>> + use<'de, T, L>> {
    let bits = super::read_bits(r, n)?;
    let present = bits.count();
    r.check_column::<T>(present, r.position())?;
    let values = T::read_column(r, present)?;
    Ok(OptionColumn {
        bits,
        values,
        next: 0,
    })
}

/// The iterator of [`option_column`]: each element's presence bit, and
/// the next present value where it is set. A named type, its `next`
/// always inlined: as `iter::from_fn`'s closure, minecraft's option
/// columns were each a call a value.
pub(crate) struct OptionColumn<'de, I> {
    bits: super::Bits<'de>,
    values: I,
    next: usize,
}

impl<T, I: Iterator<Item = T>> Iterator for OptionColumn<'_, I> {
    type Item = Option<T>;

    #[inline(always)]
    fn next(&mut self) -> Option<Option<T>> {
        let v = match self.bits.get(self.next) {
            true => Some(self.values.next()?),
            false => None,
        };
        self.next += 1;
        Some(v)
    }
}

/// Checks a field's column of `n` values against the input before its
/// `read_column` (a derived type's or a tuple's field): a count inside a
/// column is at most the sequence's, which was checked (and, for elements
/// that take no input, charged to the budget of such elements) once, so a
/// zero-size field is not charged again for each column it is in.
#[inline(always)]
pub(crate) fn check_field<'de, T: Unpack<'de>, L: Layout>(
    r: &mut Reader<'de, L>,
    n: usize,
) -> Result<()> {
    match T::COLUMN_MIN != 0 || T::PACKED {
        true => r.check_column::<T>(n, r.position()),
        false => Ok(()),
    }
}

/// The columns of up to 16 fields `F` of a derived type (or a tuple's
/// elements), read as one column of tuples: implemented for the selector
/// `&__private::FieldsOf<F>` of tuples of decodable types
/// (`impls/tuples.rs`).
#[doc(hidden)]
pub trait ReadFields<'de, F> {
    /// Reads each element's column of `n` values in turn (checked by
    /// [`check_field`]), the `i`-th error given the path
    /// `names[i]`, and yields `make` of each tuple: the values of a type
    /// `Out` of these fields. When `Out`'s column is rows
    /// (`Encoding::COLUMNS` unset: a struct whose fields' columns would
    /// all be rows), its rows are read instead, and the fields' columns
    /// are empty ([`rows_of`]).
    ///
    /// The value is made in the tuples' iterator, not in one of `Out`'s
    /// own around it: opaque iterators nest with the types, and rustc's
    /// recursion limit bounds how deep.
    fn __binform_read_as<Out: Unpack<'de>, L: Layout, Make: FnMut(F) -> Out>(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
        names: &'static [&'static str],
        make: Make,
    ) -> Result<impl Iterator<Item = Out> + use<'de, F, Out, L, Make, Self>>;

    /// The recipe of an enum's variant of these fields, named `names`,
    /// each element made by `make` (`columns::variants`).
    #[inline(always)]
    fn __binform_variant<Make>(
        self,
        names: &'static [&'static str],
        make: Make,
    ) -> super::variants::VariantFields<F, Make>
    where
        Self: Sized,
    {
        super::variants::VariantFields::new(names, make)
    }
}

/// The column of a lone field `T` (a field between `with` fields, or a
/// variant of one field where the derive writes an enum's columns out;
/// an enum's recipe reads the field's own column, `columns::variants`)
/// read without a tuple: the field's own iterator, nesting no deeper than
/// it (`recursion_limit`). Implemented for the
/// selector `&__private::FieldsOf<(T,)>` (`impls/tuples.rs`).
#[doc(hidden)]
pub trait ReadOne<'de, T> {
    /// `T`'s column of `n` values (checked by [`check_field`]), its error
    /// given the path `name`.
    fn __binform_read_one<L: Layout>(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
        name: &'static str,
    ) -> Result<impl Iterator<Item = T> + use<'de, T, L, Self>>;

    /// The recipe of an enum's variant of this one field, named `name`,
    /// each element made by `make` (`columns::variants`).
    #[inline(always)]
    fn __binform_variant_one<Make>(
        self,
        name: &'static str,
        make: Make,
    ) -> super::variants::VariantField<T, Make>
    where
        Self: Sized,
    {
        super::variants::VariantField::new(name, make)
    }
}

/// Columns read side by side: a tuple of iterators (a field's column
/// each), which yields tuples of their values (`impls/tuples.rs`).
pub(crate) trait Zip {
    /// A tuple of one value of each column.
    type Item;
    /// The next value of every column, or `None` when one has run out
    /// (a short column, which the reader of the values reports).
    fn next_all(&mut self) -> Option<Self::Item>;
}

/// The iterator of a [`ReadFields`] column: each value made by `make`
/// from the next values of the fields' columns `cols`, or the next of
/// `rows` when `T`'s column is rows ([`rows_of`]). A named type, not a
/// closure: a closure's captures are one more level of the nesting that
/// rustc's `recursion_limit` bounds (chains of enums of several fields
/// reached it at half the depth).
pub(crate) struct ZipAs<T, Z, F> {
    pub(crate) rows: IntoIter<T>,
    pub(crate) cols: Z,
    pub(crate) make: F,
}

impl<T: crate::Encoding, Z: Zip, F: FnMut(Z::Item) -> T> Iterator for ZipAs<T, Z, F> {
    type Item = T;

    #[inline(always)]
    fn next(&mut self) -> Option<T> {
        // A constant test: each instance keeps one branch.
        if !T::COLUMNS {
            return self.rows.next();
        }
        let values = self.cols.next_all()?;
        Some((self.make)(values))
    }
}
