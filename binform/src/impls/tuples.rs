//! Tuples up to 16 elements: the elements in order, nothing else. A
//! column of tuples (format.md §27) is each element's column in turn.

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

/// A field's column of `n` values, checked first (`check_field`), its
/// error given the path `$name`. A macro, not a function: a function
/// would be one more opaque iterator between a type's column and its
/// fields', and those nest a level a type (`recursion_limit`).
macro_rules! field_column {
    ($ty:ty, $r:ident, $n:ident, $name:expr) => {
        crate::error::in_field(
            crate::columns::lazy::check_field::<$ty, _>($r, $n)
                .and_then(|()| <$ty>::read_column($r, $n)),
            $name,
        )
    };
}

/// The column of a derived type's (or variant's) fields `$name` as a
/// column of its values `$out`, each made by `$make` (`ReadFields` and
/// an enum's recipe), or its rows when `$out`'s column is rows
/// (`columns::lazy::rows_of`). A macro, as `field_column!` is: a function
/// would be one more opaque iterator (`recursion_limit`). `?` on errors.
macro_rules! fields_column {
    ($out:ty, $r:ident, $n:ident, $names:expr, $make:expr, $($name:ident . $idx:tt),+) => {{
        let names = $names;
        let rows = crate::columns::lazy::rows_of::<$out, _>($r, $n)?;
        let n = if <$out as Encoding>::COLUMNS { $n } else { 0 };
        $(let $name = field_column!($name, $r, n, names.get($idx).copied().unwrap_or_default())?;)+
        crate::columns::lazy::ZipAs { rows, cols: ($($name,)+), make: $make }
    }};
}

macro_rules! tuple {
    ($($name:ident . $idx:tt),+) => {
        impl<$($name: Encoding),+> Encoding for ($($name,)+) {
            encoding_builtin!("tuple", $($name),+);
            const COLUMNS: bool = true;
        }

        impl<$($name: Pack),+> Pack for ($($name,)+) {
            #[inline]
            fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
                $(self.$idx.pack(w)?;)+
                Ok(())
            }

            #[inline(always)]
            fn pack_cursor<L: crate::Layout>(&self, c: &mut crate::__private::Cursor<'_, '_, L>) -> Result<()> {
                $(self.$idx.pack_cursor(c)?;)+
                Ok(())
            }

            // Each element's column in turn (§27).
            column_pack_all!(|items, w| {
                use crate::write::PackFields as _;
                (&crate::__private::FieldsOf::<($(&$name,)+)>::NEW)
                    .__binform_pack_fields(items.map(|t| ($(&t.$idx,)+)), w)
            });
        }

        impl<'de, $($name: Unpack<'de>),+> Unpack<'de> for ($($name,)+) {
            const MIN_SIZE: usize = 0 $(+ $name::MIN_SIZE)+;

            #[inline]
            fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
                Ok(($($name::unpack(r)?,)+))
            }

            #[inline]
            fn placeholder(work: &mut u32) -> Option<Self> {
                Some(($($name::placeholder(work)?,)+))
            }

            const COLUMN_MIN: usize = crate::__private::column_min_sum(&[$($name::COLUMN_MIN),+]);
            const LAZY_COLUMN: bool = true;

            #[inline(always)]
            fn read_column<L: crate::Layout>(
                r: &mut Reader<'de, L>,
                n: usize,
            ) -> Result<impl Iterator<Item = Self> + use<'de, $($name,)+ L>> {
                use crate::columns::lazy::ReadFields as _;
                (&crate::__private::FieldsOf::<'de, Self>::NEW).__binform_read_as(
                    r,
                    n,
                    &[$(concat!(".", stringify!($idx))),+],
                    |t: Self| t,
                )
            }
        }

        // The selector of a derived type's fields (`__private::FieldsOf`).
        impl<'de, $($name: Unpack<'de>),+> crate::columns::lazy::ReadFields<'de, ($($name,)+)>
            for &crate::__private::FieldsOf<'de, ($($name,)+)>
        {
            // The selector is not captured: the column outlives it.
            #[allow(refining_impl_trait)]
            #[inline(always)]
            #[allow(non_snake_case)]
            fn __binform_read_as<Out: Unpack<'de>, L: crate::Layout, Make: FnMut(($($name,)+)) -> Out>(
                self,
                r: &mut Reader<'de, L>,
                n: usize,
                names: &'static [&'static str],
                make: Make,
            ) -> Result<impl Iterator<Item = Out> + use<'de, $($name,)+ Out, L, Make>> {
                Ok(fields_column!(Out, r, n, names, make, $($name.$idx),+))
            }
        }

        // An enum's variant of these fields (`columns::variants`).
        impl<'de, Out: Unpack<'de>, L: crate::Layout, Make: FnMut(($($name,)+)) -> Out, $($name: Unpack<'de>),+>
            crate::columns::variants::ReadVariant<'de, Out, L>
            for crate::columns::variants::VariantFields<($($name,)+), Make>
        {
            type Value = Out;
            type Make = crate::columns::variants::Made;

            #[inline(always)]
            #[allow(non_snake_case)]
            fn read_variant(
                self,
                r: &mut Reader<'de, L>,
                n: usize,
            ) -> Result<(
                impl Iterator<Item = Out> + use<'de, $($name,)+ Out, L, Make>,
                crate::columns::variants::Made,
            )> {
                // `ReadFields`' column, built here rather than through it:
                // one level fewer of the types that nest with the enums.
                let column = fields_column!(Out, r, n, self.names, self.make, $($name.$idx),+);
                Ok((column, crate::columns::variants::Made))
            }
        }

        impl<'r, T: 'r, L: crate::Layout, Project, $($name: Pack + 'r),+>
            crate::columns::variants::PackVariant<'r, T, L>
            for crate::columns::variants::PackVariantFields<($(&'r $name,)+), Project>
        where
            Project: Fn(&'r T) -> Option<($(&'r $name,)+)> + Clone,
        {
            #[inline(always)]
            fn pack_variant(
                self,
                items: crate::write::Rows<'r, T>,
                w: &mut Writer<'_, L>,
            ) -> Result<()> {
                use crate::write::PackFields as _;
                (&crate::__private::FieldsOf::<($(&'r $name,)+)>::NEW)
                    .__binform_pack_fields(items.iter().filter_map(self.project), w)
            }
        }

        // A derived struct's fields as one row (`row`).
        // SAFETY: each field is one `pack_next` call told the `MAX_SIZE`
        // of the field before it and the room of the fields from it on
        // (`row::rooms`), as the derive's own statements were.
        #[allow(unsafe_code)]
        unsafe impl<'a, $($name: Pack + 'a),+> crate::row::PackRow<($(&'a $name,)+)>
            for &crate::__private::FieldsOf<'_, ($(&'a $name,)+)>
        {
            #[inline(always)]
            unsafe fn __binform_pack_row<L: crate::Layout>(
                self,
                row: ($(&'a $name,)+),
                c: &mut crate::__private::Cursor<'_, '_, L>,
                first_prev: usize,
            ) -> Result<()> {
                let maxes = const { [$($name::MAX_SIZE),+] };
                let rooms = const { crate::row::rooms([$($name::MAX_SIZE),+]) };
                $(
                    // SAFETY: when this field and the one before are bounded,
                    // room was made for this field's `MAX_SIZE`, every
                    // bounded field's after it and the slack (by the caller
                    // for the first, or by `pack_next` after a field with no
                    // bound), and each bounded field since wrote at most its
                    // own `MAX_SIZE`.
                    unsafe {
                        crate::__private::pack_next(
                            row.$idx,
                            c,
                            crate::row::prev_max(first_prev, &maxes, $idx),
                            rooms[$idx],
                        )
                    }?;
                )+
                Ok(())
            }
        }

        impl<$($name: Encoding),+> crate::row::DescribeRow
            for &crate::__private::FieldsOf<'_, ($($name,)+)>
        {
            fn __binform_describe(
                self,
                b: &mut crate::schema::Builder,
                type_name: &str,
                tolerant: bool,
                fields: &[(u32, &'static str)],
                reserved: &[u32],
            ) -> crate::TypeRef {
                let entry = |i: usize| fields.get(i).copied().unwrap_or_default();
                let entries = [$({
                    let (tag, name) = entry($idx);
                    (tag, name, crate::__private::FieldSchema::Of(<$name as Encoding>::describe))
                }),+];
                crate::__private::describe_derived(
                    b,
                    type_name,
                    tolerant,
                    crate::__private::Shape::Struct(&entries),
                    reserved,
                )
            }
        }

        impl<'de, $($name: Unpack<'de>),+> crate::row::UnpackRow<'de, ($($name,)+)>
            for &crate::__private::FieldsOf<'de, ($($name,)+)>
        {
            #[inline(always)]
            fn __binform_unpack_row<L: crate::Layout>(
                self,
                c: &mut crate::__private::ReadCursor<'_, 'de, L>,
                names: &'static [&'static str],
            ) -> Result<($($name,)+)> {
                Ok(($(crate::error::in_field(
                    $name::unpack_cursor(c),
                    names.get($idx).copied().unwrap_or_default(),
                )?,)+))
            }

            #[inline]
            fn __binform_placeholder_row(self, work: &mut u32) -> Option<($($name,)+)> {
                Some(($($name::placeholder(work)?,)+))
            }
        }

        // Columns side by side (`ZipAs`).
        impl<$($name: Iterator),+> crate::columns::lazy::Zip for ($($name,)+) {
            type Item = ($($name::Item,)+);

            #[inline(always)]
            fn next_all(&mut self) -> Option<Self::Item> {
                Some(($(self.$idx.next()?,)+))
            }
        }

        impl<'a, $($name: Pack + 'a),+> crate::write::PackFields<($(&'a $name,)+)>
            for &crate::__private::FieldsOf<'_, ($(&'a $name,)+)>
        {
            #[inline(always)]
            fn __binform_pack_fields<L: crate::Layout>(
                self,
                items: impl Iterator<Item = ($(&'a $name,)+)> + Clone,
                w: &mut Writer<'_, L>,
            ) -> Result<()> {
                $(crate::write::pack_column(items.clone().map(|t| t.$idx), w)?;)+
                Ok(())
            }
        }
    };
}

// A lone field's column (`ReadOne`), selected as a tuple of one is.
impl<'de, T: Unpack<'de>> crate::columns::lazy::ReadOne<'de, T>
    for &crate::__private::FieldsOf<'de, (T,)>
{
    // The selector is not captured: the column outlives it.
    #[allow(refining_impl_trait)]
    #[inline(always)]
    fn __binform_read_one<L: crate::Layout>(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
        name: &'static str,
    ) -> Result<impl Iterator<Item = T> + use<'de, T, L>> {
        field_column!(T, r, n, name)
    }
}

// An enum's variant of one field (`columns::variants`): the field's own
// column, each element made of its value by the enum's column.
impl<'de, T: Unpack<'de>, Out, L: crate::Layout, Make: FnMut(T) -> Out>
    crate::columns::variants::ReadVariant<'de, Out, L>
    for crate::columns::variants::VariantField<T, Make>
{
    type Value = T;
    type Make = crate::columns::variants::MadeBy<Make>;

    #[inline(always)]
    fn read_variant(
        self,
        r: &mut Reader<'de, L>,
        n: usize,
    ) -> Result<(
        impl Iterator<Item = T> + use<'de, T, Out, L, Make>,
        crate::columns::variants::MadeBy<Make>,
    )> {
        // The field's own column, not `ReadOne`'s around it: one level
        // fewer of the types that nest with the enums.
        let column = field_column!(T, r, n, self.name)?;
        Ok((column, crate::columns::variants::MadeBy(self.make)))
    }
}

tuple!(A.0);
tuple!(A.0, B.1);
tuple!(A.0, B.1, C.2);
tuple!(A.0, B.1, C.2, D.3);
tuple!(A.0, B.1, C.2, D.3, E.4);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, LL.11);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, LL.11, M.12);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, LL.11, M.12, N.13);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, LL.11, M.12, N.13, O.14);
tuple!(A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, LL.11, M.12, N.13, O.14, P.15);
