//! A derived enum's lazy column (§27): its variant indexes, then each
//! variant's fields' columns in turn, each element the next value of its
//! variant's column.
//!
//! The derive names each variant's field types (a tuple of them, `()` for
//! none) and passes a closure that makes the variant from them; the
//! columns are read here. Read by statements in each enum's own
//! `read_column`, a variant's column was a local of an opaque iterator
//! type built from its fields' columns, and rustc's borrow check of every
//! enum walked those types down through every nested derived type: a
//! data enum of the compile-time crate cost about six times a struct to
//! check (`scripts/derive_check_instructions.sh`). Here the columns'
//! types appear only in generic code, checked once.

use alloc::vec::IntoIter;

use crate::{Layout, Reader, Result, Unpack};

/// The fields of one variant: a tuple of their types (`()` for a variant
/// without encoded fields), whose column is read as the columns of its
/// elements in turn.
#[doc(hidden)]
pub trait VariantFields<'de>: Sized {
    /// The variant's column of `n` values, each made by `make` from the
    /// next value of each field's column (the `i`-th field's errors given
    /// the path `names[i]`).
    fn __binform_read_variant<Out: Unpack<'de>, L: Layout, Make: FnMut(Self) -> Out>(
        r: &mut Reader<'de, L>,
        n: usize,
        names: &'static [&'static str],
        make: Make,
    ) -> Result<impl Iterator<Item = Out> + use<'de, Self, Out, L, Make>>;
}

/// A variant without encoded fields: each value made from nothing.
impl<'de> VariantFields<'de> for () {
    #[inline(always)]
    fn __binform_read_variant<Out: Unpack<'de>, L: Layout, Make: FnMut(()) -> Out>(
        _: &mut Reader<'de, L>,
        _: usize,
        _: &'static [&'static str],
        mut make: Make,
    ) -> Result<impl Iterator<Item = Out> + use<'de, Out, L, Make>> {
        Ok(core::iter::repeat_with(move || make(())))
    }
}

/// The columns of the variants of a derived enum, read as one: implemented
/// for the selector `&__private::FieldsOf<V>` of a tuple `V` of each
/// variant's [`VariantFields`], with `Makes` a tuple of the closures that
/// make each variant of its fields.
#[doc(hidden)]
pub trait ReadVariants<'de, Out, Makes> {
    /// Reads the `n` variant indexes (each below the variants' count,
    /// else `UnknownVariant` naming `name`), then each variant's column of
    /// its count (`names[v]` the paths of variant `v`'s fields), and
    /// yields each element from its variant's column.
    fn __binform_read_variants<L: Layout>(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
        name: &'static str,
        names: &'static [&'static [&'static str]],
        makes: Makes,
    ) -> Result<impl Iterator<Item = Out> + use<'de, Out, Makes, L, Self>>;
}

/// The columns of an enum's variants, side by side.
#[doc(hidden)]
pub trait NextOf {
    /// The enum.
    type Item;

    /// The next element of variant `tag`'s column (`None` past its end,
    /// or for an index of no variant: a short column to the reader).
    fn next_of(&mut self, tag: u32) -> Option<Self::Item>;
}

/// A derived enum's column: each element the next of its variant's
/// column.
pub(crate) struct Variants<C> {
    tags: IntoIter<u32>,
    cols: C,
}

impl<C: NextOf> Iterator for Variants<C> {
    type Item = C::Item;

    #[inline(always)]
    fn next(&mut self) -> Option<C::Item> {
        let tag = self.tags.next()?;
        self.cols.next_of(tag)
    }
}

macro_rules! variants {
    ($k:literal; $($fields:ident $make:ident $col:ident $idx:tt),+) => {
        impl<'de, Out: Unpack<'de>, $($fields: VariantFields<'de>, $make: FnMut($fields) -> Out),+>
            ReadVariants<'de, Out, ($($make,)+)> for &crate::__private::FieldsOf<'de, ($($fields,)+)>
        {
            // The selector is not captured: the column outlives it.
            #[allow(refining_impl_trait)]
            #[inline(always)]
            fn __binform_read_variants<L: Layout>(
                self,
                r: &mut Reader<'de, L>,
                n: usize,
                name: &'static str,
                names: &'static [&'static [&'static str]],
                makes: ($($make,)+),
            ) -> Result<impl Iterator<Item = Out> + use<'de, Out, $($fields, $make,)+ L>> {
                let (tags, counts) = crate::__private::read_tags::<$k, L>(r, n, name)?;
                let cols = ($(
                    $fields::__binform_read_variant(
                        r,
                        counts[$idx],
                        names.get($idx).copied().unwrap_or_default(),
                        makes.$idx,
                    )?,
                )+);
                Ok(Variants { tags, cols })
            }
        }

        impl<T, $($col: Iterator<Item = T>),+> NextOf for ($($col,)+) {
            type Item = T;

            #[inline(always)]
            fn next_of(&mut self, tag: u32) -> Option<T> {
                match tag {
                    $($idx => self.$idx.next(),)+
                    _ => None,
                }
            }
        }
    };
}

variants!(1; F0 M0 C0 0);
variants!(2; F0 M0 C0 0, F1 M1 C1 1);
variants!(3; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2);
variants!(4; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3);
variants!(5; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4);
variants!(6; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5);
variants!(7; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6);
variants!(8; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7);
variants!(9; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8);
variants!(10; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8, F9 M9 C9 9);
variants!(11; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8, F9 M9 C9 9, F10 M10 C10 10);
variants!(12; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8, F9 M9 C9 9, F10 M10 C10 10, F11 M11 C11 11);
variants!(13; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8, F9 M9 C9 9, F10 M10 C10 10, F11 M11 C11 11, F12 M12 C12 12);
variants!(14; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8, F9 M9 C9 9, F10 M10 C10 10, F11 M11 C11 11, F12 M12 C12 12, F13 M13 C13 13);
variants!(15; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8, F9 M9 C9 9, F10 M10 C10 10, F11 M11 C11 11, F12 M12 C12 12, F13 M13 C13 13, F14 M14 C14 14);
variants!(16; F0 M0 C0 0, F1 M1 C1 1, F2 M2 C2 2, F3 M3 C3 3, F4 M4 C4 4, F5 M5 C5 5, F6 M6 C6 6, F7 M7 C7 7, F8 M8 C8 8, F9 M9 C9 9, F10 M10 C10 10, F11 M11 C11 11, F12 M12 C12 12, F13 M13 C13 13, F14 M14 C14 14, F15 M15 C15 15);
