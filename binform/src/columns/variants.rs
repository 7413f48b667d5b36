//! An enum's columns (§27) by code written once, here: its variant
//! indexes, then each variant's fields' columns over the elements of that
//! variant. The derive passes one recipe a variant, a tuple of them in
//! variant order: what the variant's columns are (the types of its
//! fields, their names in errors) and how an element is made from them
//! or its fields taken from one. rustc then checks the reading and the
//! writing once, generic, rather than in each enum's `read_column` and
//! `pack_columns`: an enum of four data variants cost 43 M instructions
//! of the check there, and costs 20 M with recipes (`CHANGELOG.md`).
//!
//! The price is depth: the recipes' columns are opaque iterator types of
//! a generic trait, one more level of those that nest with the enums, and
//! rustc's default `recursion_limit` ends a chain of enums by value at
//! 25 levels (40 before). Each level is held to one opaque type of
//! the recipe: a lone field's column is the field's own, each element
//! made by the enum's column (`MakeElement`), not by a `map` around it.
//!
//! A recipe is made by the selector `&FieldsOf<F>` (`ReadFields`,
//! `ReadOne`, [`PackVariantOf`]) when every field's type has an encoding,
//! and is [`NoVariant`] otherwise (`NoFields`): the field's other uses
//! report the missing encoding, at the field, and the enum's columns add
//! no error of their own. Writing takes recipes of the variants with
//! encoded fields only: the others write nothing but their index.

use alloc::vec::Vec;
use core::marker::PhantomData;

use crate::write::Rows;
use crate::{Layout, Reader, Result, Writer};

/// A variant's column: its values, `n` of them, and what makes an
/// element of the enum of each. Apart, so that the enum's column applies
/// `Make` itself: a `map` around the column would be one more level of
/// the iterator types that nest with the enums (`recursion_limit`).
#[doc(hidden)]
pub trait ReadVariant<'de, Out, L: Layout> {
    /// A value of the column: the variant's lone field, or the element.
    type Value;
    /// What makes an element of a value.
    type Make: MakeElement<Self::Value, Out>;

    /// Reads the variant's columns of `n` values (`n` checked against the
    /// input with the indexes).
    #[allow(clippy::type_complexity)]
    fn read_variant(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<(
        impl Iterator<Item = Self::Value> + use<'de, Self, Out, L>,
        Self::Make,
    )>;
}

/// Makes an element of the enum of a value of its variant's column.
#[doc(hidden)]
pub trait MakeElement<V, Out> {
    /// The element of `value`.
    fn make_element(&mut self, value: V) -> Out;
}

/// The value is the element.
#[doc(hidden)]
pub struct Made;

impl<Out> MakeElement<Out, Out> for Made {
    #[inline(always)]
    fn make_element(&mut self, value: Out) -> Out {
        value
    }
}

/// The element is made of the value by a function.
#[doc(hidden)]
pub struct MadeBy<M>(pub(crate) M);

impl<V, Out, M: FnMut(V) -> Out> MakeElement<V, Out> for MadeBy<M> {
    #[inline(always)]
    fn make_element(&mut self, value: V) -> Out {
        (self.0)(value)
    }
}

/// The element is made of nothing by a function (a variant with no
/// encoded field).
#[doc(hidden)]
pub struct MadeOfNothing<M>(M);

impl<Out, M: FnMut() -> Out> MakeElement<(), Out> for MadeOfNothing<M> {
    #[inline(always)]
    fn make_element(&mut self, (): ()) -> Out {
        (self.0)()
    }
}

/// A variant's column written: its fields' columns over the elements of
/// that variant.
#[doc(hidden)]
pub trait PackVariant<'r, T, L: Layout> {
    /// Writes the columns of the elements of `items` of this variant.
    fn pack_variant(self, items: Rows<'r, T>, w: &mut Writer<'_, L>) -> Result<()>;
}

/// A variant of up to 16 fields of types `F` (a tuple), named `names` in
/// errors, each element made by `make` (`ReadVariant` in
/// `impls/tuples.rs`, where the tuple's column is).
#[doc(hidden)]
pub struct VariantFields<F, M> {
    pub(crate) names: &'static [&'static str],
    pub(crate) make: M,
    pub(crate) fields: PhantomData<fn() -> F>,
}

/// A variant of one field of type `T`, named `name` in errors, each
/// element made by `make`: its column without a tuple around it (`ReadOne`:
/// it nests no deeper than the field, `recursion_limit`).
#[doc(hidden)]
pub struct VariantField<T, M> {
    pub(crate) name: &'static str,
    pub(crate) make: M,
    pub(crate) field: PhantomData<fn() -> T>,
}

impl<F, M> VariantFields<F, M> {
    /// The recipe.
    #[inline(always)]
    pub(crate) fn new(names: &'static [&'static str], make: M) -> Self {
        VariantFields {
            names,
            make,
            fields: PhantomData,
        }
    }
}

impl<T, M> VariantField<T, M> {
    /// The recipe.
    #[inline(always)]
    pub(crate) fn new(name: &'static str, make: M) -> Self {
        VariantField {
            name,
            make,
            field: PhantomData,
        }
    }
}

/// A variant with no encoded field: each element is `make()`.
#[doc(hidden)]
pub struct VariantUnit<M>(pub M);

/// A variant whose columns are not one tuple (more than 16 fields, or a
/// `with` field among them): read by the derive's closure.
#[doc(hidden)]
pub struct VariantWith<C>(pub C);

/// A variant of up to 16 fields whose references `project` takes from an
/// element of that variant (`None` from any other), as a tuple `F`
/// (`PackVariant` in `impls/tuples.rs`).
#[doc(hidden)]
pub struct PackVariantFields<F, P> {
    pub(crate) project: P,
    pub(crate) fields: PhantomData<fn() -> F>,
}

/// The recipe of an enum's variant of fields `F` to write, made by the
/// selector `&FieldsOf<F>` when it has `PackFields` (every field's type
/// has an encoding); `NoFields` has the same method otherwise.
#[doc(hidden)]
pub trait PackVariantOf<F> {
    /// The recipe of the variant whose fields `project` takes from an
    /// element of it. The elements `items` are not used: they give a
    /// closure its signature, the fields borrowed for as long as the
    /// element (a closure's own would borrow them for a lifetime of their
    /// own).
    fn __binform_pack_variant<'r, T, P>(
        self,
        items: Rows<'r, T>,
        project: P,
    ) -> PackVariantFields<F, P>
    where
        P: Fn(&'r T) -> Option<F>;
}

impl<F, S: crate::write::PackFields<F>> PackVariantOf<F> for S {
    #[inline(always)]
    fn __binform_pack_variant<'r, T, P>(self, _: Rows<'r, T>, project: P) -> PackVariantFields<F, P>
    where
        P: Fn(&'r T) -> Option<F>,
    {
        PackVariantFields {
            project,
            fields: PhantomData,
        }
    }
}

/// A variant whose columns are not one tuple: written by the derive's
/// closure.
#[doc(hidden)]
pub struct PackVariantWith<C>(pub C);

/// The recipe of a variant with a field that has no encoding: never used
/// (the crate does not compile), it only lets the enum's columns
/// type-check without an error of their own.
#[doc(hidden)]
pub struct NoVariant;

impl<'de, Out, L: Layout> ReadVariant<'de, Out, L> for NoVariant {
    type Value = Out;
    type Make = Made;

    fn read_variant(
        self,
        _: &mut Reader<'de, L>,
        _: usize,
    ) -> Result<(impl Iterator<Item = Out> + use<'de, Out, L>, Made)> {
        Ok((core::iter::empty(), Made))
    }
}

impl<'r, T, L: Layout> PackVariant<'r, T, L> for NoVariant {
    fn pack_variant(self, _: Rows<'r, T>, _: &mut Writer<'_, L>) -> Result<()> {
        Ok(())
    }
}

impl<'de, Out, L: Layout, M: FnMut() -> Out> ReadVariant<'de, Out, L> for VariantUnit<M> {
    type Value = ();
    type Make = MadeOfNothing<M>;

    #[inline(always)]
    fn read_variant(
        self,
        _: &mut Reader<'de, L>,
        _: usize,
    ) -> Result<(
        impl Iterator<Item = ()> + use<'de, Out, L, M>,
        MadeOfNothing<M>,
    )> {
        // Taken only as often as the indexes say: no count of its own.
        Ok((core::iter::repeat(()), MadeOfNothing(self.0)))
    }
}

impl<'de, Out, L: Layout, C, I> ReadVariant<'de, Out, L> for VariantWith<C>
where
    C: FnOnce(&mut Reader<'de, L>, usize) -> Result<I>,
    I: Iterator<Item = Out>,
{
    type Value = Out;
    type Make = Made;

    #[inline(always)]
    fn read_variant(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<(impl Iterator<Item = Out> + use<'de, Out, L, C, I>, Made)> {
        Ok(((self.0)(r, n)?, Made))
    }
}

impl<'r, T, L: Layout, C> PackVariant<'r, T, L> for PackVariantWith<C>
where
    C: FnOnce(Rows<'r, T>, &mut Writer<'_, L>) -> Result<()>,
{
    #[inline(always)]
    fn pack_variant(self, items: Rows<'r, T>, w: &mut Writer<'_, L>) -> Result<()> {
        (self.0)(items, w)
    }
}

/// An enum's variants' recipes, a tuple of up to 16 of them (the
/// derive's `MAX_VARIANTS`; an enum with more has its columns written out
/// by the derive) in variant order: its column read.
#[doc(hidden)]
pub trait ReadVariants<'de, Out, L: Layout> {
    /// Reads the variant indexes of `n` elements (an index past the
    /// variants is `UnknownVariant`, naming `name`), then each variant's
    /// columns, and yields each element from its variant's column.
    fn read_variants(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
        name: &'static str,
    ) -> Result<impl Iterator<Item = Out> + use<'de, Self, Out, L>>;
}

/// An enum's variants' recipes (of the variants with encoded fields), a
/// tuple of them: its columns written.
#[doc(hidden)]
pub trait PackVariants<'r, T, L: Layout> {
    /// Writes each variant's columns in turn.
    fn pack_variants(self, items: Rows<'r, T>, w: &mut Writer<'_, L>) -> Result<()>;
}

/// An enum's column: each element the next of its variant's column (by
/// its index), made into the enum's. A named type for each count of
/// variants, not a closure over a tuple: each is one more level of the
/// iterator types that nest with the enums (`recursion_limit`).
macro_rules! variants {
    ($k:literal $column:ident: $($v:ident $c:ident $m:ident . $i:tt),+) => {
        #[doc(hidden)]
        #[allow(non_snake_case)]
        pub struct $column<Out, $($c, $m),+> {
            tags: alloc::vec::IntoIter<u32>,
            $($c: $c, $m: $m,)+
            out: PhantomData<fn() -> Out>,
        }

        impl<Out, $($c: Iterator, $m: MakeElement<$c::Item, Out>),+> Iterator for $column<Out, $($c, $m),+> {
            type Item = Out;

            #[inline(always)]
            fn next(&mut self) -> Option<Out> {
                // Every index was checked below the variants' count: another
                // one is a short column to the reader of the elements.
                match self.tags.next()? {
                    $($i => {
                        let value = self.$c.next()?;
                        Some(self.$m.make_element(value))
                    })+
                    _ => None,
                }
            }
        }

        impl<'de, Out, L: Layout, $($v: ReadVariant<'de, Out, L>),+> ReadVariants<'de, Out, L>
            for ($($v,)+)
        {
            #[inline(always)]
            #[allow(non_snake_case)]
            fn read_variants(
                self,
                r: &mut Reader<'de, L>,
                n: usize,
                name: &'static str,
            ) -> Result<impl Iterator<Item = Out> + use<'de, $($v,)+ Out, L>> {
                let (tags, counts) = read_tags::<$k, L>(r, n, name)?;
                $(let ($c, $m) = self.$i.read_variant(r, counts[$i])?;)+
                Ok($column { tags, $($c, $m,)+ out: PhantomData })
            }
        }

        impl<'r, T, L: Layout, $($v: PackVariant<'r, T, L>),+> PackVariants<'r, T, L>
            for ($($v,)+)
        {
            #[inline(always)]
            fn pack_variants(self, items: Rows<'r, T>, w: &mut Writer<'_, L>) -> Result<()> {
                $(self.$i.pack_variant(items, w)?;)+
                Ok(())
            }
        }
    };
}

variants!(1 Column1: A C0 M0 . 0);
variants!(2 Column2: A C0 M0 . 0, B C1 M1 . 1);
variants!(3 Column3: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2);
variants!(4 Column4: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3);
variants!(5 Column5: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4);
variants!(6 Column6: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5);
variants!(7 Column7: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6);
variants!(8 Column8: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7);
variants!(9 Column9: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8);
variants!(10 Column10: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8, J C9 M9 . 9);
variants!(11 Column11: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8, J C9 M9 . 9, K C10 M10 . 10);
variants!(12 Column12: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8, J C9 M9 . 9, K C10 M10 . 10, LL C11 M11 . 11);
variants!(13 Column13: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8, J C9 M9 . 9, K C10 M10 . 10, LL C11 M11 . 11, M C12 M12 . 12);
variants!(14 Column14: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8, J C9 M9 . 9, K C10 M10 . 10, LL C11 M11 . 11, M C12 M12 . 12, N C13 M13 . 13);
variants!(15 Column15: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8, J C9 M9 . 9, K C10 M10 . 10, LL C11 M11 . 11, M C12 M12 . 12, N C13 M13 . 13, O C14 M14 . 14);
variants!(16 Column16: A C0 M0 . 0, B C1 M1 . 1, C C2 M2 . 2, D C3 M3 . 3, E C4 M4 . 4, F C5 M5 . 5, G C6 M6 . 6, H C7 M7 . 7, I C8 M8 . 8, J C9 M9 . 9, K C10 M10 . 10, LL C11 M11 . 11, M C12 M12 . 12, N C13 M13 . 13, O C14 M14 . 14, P C15 M15 . 15);

/// A derived enum's `pack_columns` (up to 16 variants): the
/// variant indexes (`tag` of each element), then the columns of each
/// variant with encoded fields, `variants` a tuple of their recipes.
#[inline(always)]
pub fn pack_enum_columns<'r, T, L: Layout, V: PackVariants<'r, T, L>>(
    items: Rows<'r, T>,
    w: &mut Writer<'_, L>,
    tag: fn(&T) -> u32,
    variants: V,
) -> Result<()> {
    tag_column(items, tag, w)?;
    variants.pack_variants(items, w)
}

/// A derived enum's column of variant indexes (§27).
#[inline(always)]
pub fn tag_column<S, L: Layout>(
    items: Rows<'_, S>,
    tag: fn(&S) -> u32,
    w: &mut Writer<'_, L>,
) -> Result<()> {
    // Packed `u32` blocks (§22).
    crate::packed::pack_iter(items.iter().map(tag), w)
}

/// Reads an enum column's `n` variant indexes (`n` checked by the
/// caller), each below `K` (else `UnknownVariant`, naming `name`), and how
/// many elements each variant has. Apart from `read_tags`: merged into
/// it (always inlined), the loop cost a column of 1,000 enums 0.3% more
/// decode instructions.
fn unpack_tags<const K: usize, L: Layout>(
    r: &mut Reader<'_, L>,
    n: usize,
    name: &str,
) -> Result<(Vec<u32>, [usize; K])> {
    let tags: Vec<u32> = crate::packed::unpack_vec(r, n)?;
    let mut counts = [0usize; K];
    for (i, &tag) in tags.iter().enumerate() {
        match counts.get_mut(tag as usize) {
            Some(c) => *c += 1,
            None => {
                return Err(r
                    .unknown_variant(tag, name)
                    .in_field(&alloc::format!("[{i}]")))
            }
        }
    }
    Ok((tags, counts))
}

/// An enum's column of variant indexes as an iterator, and each
/// variant's count (as `unpack_tags`).
#[inline(always)]
pub fn read_tags<const K: usize, L: Layout>(
    r: &mut Reader<'_, L>,
    n: usize,
    name: &str,
) -> Result<(alloc::vec::IntoIter<u32>, [usize; K])> {
    let (tags, counts) = unpack_tags::<K, L>(r, n, name)?;
    r.note_transient(&tags);
    Ok((tags.into_iter(), counts))
}
