//! Tuples up to 16 elements: the elements in order, nothing else.

use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

macro_rules! tuple {
    ($($name:ident . $idx:tt),+) => {
        impl<$($name: Encoding),+> Encoding for ($($name,)+) {
            encoding_builtin!("tuple", $($name),+);
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
