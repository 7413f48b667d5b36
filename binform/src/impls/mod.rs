//! `Pack`/`Unpack` for std types, one file per area of std.

/// The schema items of a `Pack` impl for a built-in encoding with type
/// arguments: its `SHAPE` hash and its `describe`.
macro_rules! schema_builtin {
    ($name:expr $(, $arg:ty)*) => {
        const SHAPE: u64 = {
            #[allow(unused_mut)]
            let mut h = crate::schema::hash_str($name);
            $( h = crate::schema::mix(h, <$arg as crate::Pack>::SHAPE); )*
            h
        };

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            let _ = &b;
            crate::schema::TypeRef::builtin_of($name, alloc::vec![$(b.describe::<$arg>()),*])
        }
    };
}

/// The schema items of a wrapper encoded exactly as its contents.
macro_rules! schema_transparent {
    ($inner:ty) => {
        const SHAPE: u64 = <$inner as crate::Pack>::SHAPE;
        const WIRE: crate::tolerant::Wire = <$inner as crate::Pack>::WIRE;

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            b.describe::<$inner>()
        }
    };
}

/// `SHAPE` for an `Unpack` impl (the same value as the `Pack` side's).
macro_rules! unpack_shape {
    ($name:expr $(, $arg:ty)*) => {
        const SHAPE: u64 = {
            #[allow(unused_mut)]
            let mut h = crate::schema::hash_str($name);
            $( h = crate::schema::mix(h, <$arg as crate::Unpack<'de>>::SHAPE); )*
            h
        };
    };
}

/// `SHAPE` of a wrapper encoded as its contents, for an `Unpack` impl.
macro_rules! unpack_shape_transparent {
    ($inner:ty) => {
        const SHAPE: u64 = <$inner as crate::Unpack<'de>>::SHAPE;
        const WIRE: crate::tolerant::Wire = <$inner as crate::Unpack<'de>>::WIRE;
    };
}

/// `SHAPE` of `[T; N]`, for an `Unpack` impl.
macro_rules! unpack_shape_array {
    ($t:ty, $n:ident) => {
        const SHAPE: u64 = crate::schema::mix(
            crate::schema::mix(
                crate::schema::hash_str("array"),
                <$t as crate::Unpack<'de>>::SHAPE,
            ),
            $n as u64,
        );
    };
}

/// The schema items of `[T; N]`.
macro_rules! schema_array {
    ($t:ty, $n:ident) => {
        const SHAPE: u64 = crate::schema::mix(
            crate::schema::mix(crate::schema::hash_str("array"), <$t as crate::Pack>::SHAPE),
            $n as u64,
        );

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            crate::schema::TypeRef::builtin_of(
                "array",
                alloc::vec![
                    b.describe::<$t>(),
                    crate::schema::TypeRef::builtin(&alloc::format!("{}", $n))
                ],
            )
        }
    };
}

mod arrays;
mod boxed;
#[cfg(feature = "bytes")]
mod bytes;
mod cell_sync;
mod collections;
mod cow;
mod marker;
mod net;
mod option_result;
mod primitives;
mod rc_arc;
mod seq;
mod string;
mod time;
mod tuples;

pub use rc_arc::SharedUnpack;
