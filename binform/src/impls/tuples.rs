//! Tuples up to 16 elements: the elements in order, nothing else. A
//! column of tuples (format.md §27) is each element's column in turn.

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

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
                $(crate::write::pack_column(items.clone().map(|t| &t.$idx), w)?;)+
                Ok(())
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

            /// Each element's column in turn (§27), then the tuples.
            fn unpack_vec<L: crate::Layout>(r: &mut Reader<'de, L>, n: usize) -> Result<alloc::vec::Vec<Self>> {
                if L::FIXED {
                    return crate::read::unpack_each(r, n);
                }
                if n == 0 {
                    return Ok(alloc::vec::Vec::new());
                }
                // The tuples are built in this frame: a stack with room for
                // them, as a derived type's columns get.
                r.growing_for::<Self, _>(|r| {
                    let before = r.memory_left();
                    let mut columns = ($(crate::error::in_field(
                        $name::unpack_vec(r, n),
                        concat!(".", stringify!($idx)),
                    )?.into_iter(),)+);
                    let charged = before.saturating_sub(r.memory_left());
                    let mut out = r.vec_with_capacity(n)?;
                    for i in 0..n {
                        if out.len() == out.capacity() {
                            r.grow_toward(&mut out, i + 1, n)?;
                        }
                        out.push(($(crate::columns::next(r, &mut columns.$idx)?,)+));
                    }
                    // The columns' vectors are freed: given back, at most
                    // what they were charged.
                    let held = 0usize $(.saturating_add(core::mem::size_of::<$name>()))+;
                    r.refund_memory(charged.min(n.saturating_mul(held)));
                    Ok(out)
                })
            }
        }

        // Lazily, inside a derived type's column: each element's column in
        // turn (as `unpack_vec`), an error naming its index.
        impl<'de, $($name: crate::columns::lazy::Columnar<'de>),+> crate::columns::lazy::Columnar<'de> for ($($name,)+) {
            #[inline(always)]
            #[allow(non_snake_case)]
            fn read_column<L: crate::Layout>(
                r: &mut Reader<'de, L>,
                n: usize,
            ) -> Result<impl Iterator<Item = Self> + use<'de, $($name,)+ L>> {
                $(let mut $name = crate::error::in_field(
                    $name::read_column(r, n),
                    concat!(".", stringify!($idx)),
                )?;)+
                Ok(core::iter::from_fn(move || Some(($($name.next()?,)+))))
            }
        }
    };
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
