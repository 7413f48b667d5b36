//! Types from other crates, each behind a feature named after its crate
//! (the default build depends on none of them).

#[cfg(feature = "uuid")]
mod uuid_impl {
    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// A UUID is its 16 bytes in RFC 9562 order (`Uuid::as_bytes`): every
    /// byte string is a valid UUID, so decoding cannot fail but by running
    /// out of input.
    impl Encoding for uuid::Uuid {
        encoding_builtin!("uuid");
    }

    impl Pack for uuid::Uuid {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            w.write_bytes(self.as_bytes());
            Ok(())
        }
    }

    impl<'de> Unpack<'de> for uuid::Uuid {
        const MIN_SIZE: usize = 16;

        #[inline]
        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            r.read_array::<16>().map(uuid::Uuid::from_bytes)
        }

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(uuid::Uuid::nil())
        }
    }
}

#[cfg(feature = "half")]
mod half_impl {
    use crate::wire::Wire;
    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// Half-precision floats are their 16 bits, little-endian (bit-exact,
    /// NaN payloads included), as `f32`/`f64` are theirs.
    macro_rules! half_float {
        ($($ty:ty => $name:literal),*) => {$(
            impl Encoding for $ty {
                encoding_builtin!($name);
                const WIRE: Wire = Wire::Framed;
            }

            impl Pack for $ty {
                #[inline]
                fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                    w.write_bytes(&self.to_bits().to_le_bytes());
                    Ok(())
                }
            }

            impl<'de> Unpack<'de> for $ty {
                const MIN_SIZE: usize = 2;

                #[inline]
                fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                    r.read_array::<2>().map(|b| <$ty>::from_bits(u16::from_le_bytes(b)))
                }

                #[inline]
                fn placeholder(_: &mut u32) -> Option<Self> {
                    Some(<$ty>::ZERO)
                }
            }
        )*};
    }

    half_float!(half::f16 => "f16", half::bf16 => "bf16");
}

/// `IndexMap`/`IndexSet` (feature `indexmap`) and hashbrown's
/// `HashMap`/`HashSet` (feature `hashbrown`) are maps and sets (format.md
/// §9): a length, then the entries in iteration order, which for the
/// index types is their order, kept by a round trip. A repeated key is
/// `InvalidValue`; keys are charged to the key budget like std's.
macro_rules! hashed_collections {
    ($map:ident, $set:ident, $reserve:ident) => {
        use core::hash::{BuildHasher, Hash};

        use super::super::collections::{pack_map, pack_set, unpack_map, unpack_set};
        use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

        impl<K: Encoding, V: Encoding, S> Encoding for $map<K, V, S> {
            encoding_builtin!(empty "map", K, V);
        }

        impl<K: Pack, V: Pack, S> Pack for $map<K, V, S> {
            fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                pack_map(w, self.len(), self.iter())
            }
        }

        impl<'de, K, V, S> Unpack<'de> for $map<K, V, S>
        where
            K: Unpack<'de> + Eq + Hash,
            V: Unpack<'de>,
            S: BuildHasher + Default,
        {
            const MIN_SIZE: usize = 1;

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some($map::with_hasher(S::default()))
            }

            fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                unpack_map(
                    r,
                    |n| {
                        let mut map = $map::with_hasher(S::default());
                        map.$reserve(n).ok()?;
                        Some(map)
                    },
                    |m, k, v| m.insert(k, v).is_none(),
                )
            }
        }

        impl<T: Encoding, S> Encoding for $set<T, S> {
            encoding_builtin!(empty "set", T);
        }

        impl<T: Pack, S> Pack for $set<T, S> {
            fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                pack_set(w, self.len(), self.iter())
            }
        }

        impl<'de, T, S> Unpack<'de> for $set<T, S>
        where
            T: Unpack<'de> + Eq + Hash,
            S: BuildHasher + Default,
        {
            const MIN_SIZE: usize = 1;

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some($set::with_hasher(S::default()))
            }

            fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                unpack_set(
                    r,
                    |n| {
                        let mut set = $set::with_hasher(S::default());
                        set.$reserve(n).ok()?;
                        Some(set)
                    },
                    |s, t| s.insert(t),
                )
            }
        }
    };
}

#[cfg(feature = "indexmap")]
mod indexmap_impl {
    use indexmap::{IndexMap, IndexSet};
    hashed_collections!(IndexMap, IndexSet, try_reserve);
}

#[cfg(feature = "hashbrown")]
mod hashbrown_impl {
    use hashbrown::{HashMap, HashSet};
    hashed_collections!(HashMap, HashSet, try_reserve);
}

#[cfg(feature = "smallvec")]
mod smallvec_impl {
    use smallvec::{Array, SmallVec};

    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// A `SmallVec` is a sequence, byte for byte a `Vec` of its items.
    impl<A: Array> Encoding for SmallVec<A>
    where
        A::Item: Encoding,
    {
        encoding_transparent!([A::Item]);
    }

    impl<A: Array> Pack for SmallVec<A>
    where
        A::Item: Pack,
    {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            self.as_slice().pack(w)
        }
    }

    impl<'de, A: Array> Unpack<'de> for SmallVec<A>
    where
        A::Item: Unpack<'de>,
    {
        const MIN_SIZE: usize = 1;

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(SmallVec::new())
        }

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            alloc::vec::Vec::<A::Item>::unpack(r).map(SmallVec::from_vec)
        }
    }
}

#[cfg(feature = "arrayvec")]
mod arrayvec_impl {
    use arrayvec::{ArrayString, ArrayVec};

    use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

    #[cold]
    #[inline(never)]
    fn over_capacity(r: &Reader<'_>, at: usize, len: usize, cap: usize) -> crate::Error {
        r.error_at(
            at,
            ErrorKind::InvalidValue,
            alloc::format!("{len} elements do not fit an ArrayVec/ArrayString of capacity {cap}"),
        )
    }

    /// An `ArrayVec` is a sequence, byte for byte a `Vec` of its items; a
    /// length above its capacity is an error before anything is decoded.
    impl<T: Encoding, const CAP: usize> Encoding for ArrayVec<T, CAP> {
        encoding_transparent!([T]);
    }

    impl<T: Pack, const CAP: usize> Pack for ArrayVec<T, CAP> {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            self.as_slice().pack(w)
        }
    }

    impl<'de, T: Unpack<'de>, const CAP: usize> Unpack<'de> for ArrayVec<T, CAP> {
        const MIN_SIZE: usize = 1;

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(ArrayVec::new())
        }

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            let at = r.position();
            let len = r.read_len_for::<T>()?;
            if len > CAP {
                return Err(over_capacity(r, at, len, CAP));
            }
            // Through the vector path, so packed integers read their blocks.
            Ok(T::unpack_vec(r, len)?.into_iter().collect())
        }
    }

    /// An `ArrayString` is a string (format.md §5).
    impl<const CAP: usize> Encoding for ArrayString<CAP> {
        encoding_transparent!(str);
    }

    impl<const CAP: usize> Pack for ArrayString<CAP> {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            self.as_str().pack(w)
        }
    }

    impl<'de, const CAP: usize> Unpack<'de> for ArrayString<CAP> {
        const MIN_SIZE: usize = 1;

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(ArrayString::new())
        }

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            let at = r.position();
            let text = <&str>::unpack(r)?;
            ArrayString::from(text).map_err(|_| over_capacity(r, at, text.len(), CAP))
        }
    }
}
