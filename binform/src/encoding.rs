//! [`Encoding`]: what a type's encoding is, declared once for both
//! directions, and the schema [`Builder`] its `describe` fills.

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::plain::Plain;
use crate::schema::hash::Unrolled;
use crate::schema::model::{short_type_name, Body, Schema, TypeDef, TypeRef, Types};
use crate::tolerant::wire::Wire;

/// The fingerprint's levels, `UNROLLED_0` to `UNROLLED_16`: the one list of
/// their names. `__binform_levels!(path::to::m! { tokens })` expands to
/// `path::to::m! { tokens UNROLLED_0 … UNROLLED_16 }`; with `pairs`, each
/// level from 1 on follows with the one below it, `UNROLLED_1 UNROLLED_0,
/// UNROLLED_2 UNROLLED_1, …`.
#[doc(hidden)]
#[macro_export]
macro_rules! __binform_levels {
    (pairs $($m:tt)::+ ! { $($pre:tt)* }) => {
        $crate::__binform_levels!($crate::__binform_levels! { @pairs ($($m)::+) { $($pre)* } () });
    };
    (@pairs $m:tt { $($pre:tt)* } ($($done:tt)*) $below:ident $level:ident $($rest:ident)*) => {
        $crate::__binform_levels!(@pairs $m { $($pre)* } ($($done)* $level $below,) $level $($rest)*);
    };
    (@pairs ($($m:tt)*) { $($pre:tt)* } ($($done:tt)*) $last:ident) => {
        $($m)*! { $($pre)* $($done)* }
    };
    ($($m:tt)::+ ! { $($pre:tt)* }) => {
        $($m)::+! { $($pre)*
            UNROLLED_0 UNROLLED_1 UNROLLED_2 UNROLLED_3 UNROLLED_4 UNROLLED_5 UNROLLED_6
            UNROLLED_7 UNROLLED_8 UNROLLED_9 UNROLLED_10 UNROLLED_11 UNROLLED_12
            UNROLLED_13 UNROLLED_14 UNROLLED_15 UNROLLED_16 }
    };
}

/// `Encoding`'s default levels: a type that does not describe itself is
/// its `NAME` at every level.
macro_rules! default_levels {
    ($($level:ident)*) => {$(
        #[doc(hidden)]
        const $level: Unrolled = Unrolled::named(Self::NAME);
    )*};
}

/// What a type's encoding is, independent of direction: the facts that
/// [`Pack`](crate::Pack) and [`Unpack`](crate::Unpack) share, held once.
///
/// `#[derive(Packable)]` implements it with everything filled in. A type
/// written by hand needs one line, `impl Encoding for X {}`: the defaults
/// are always correct, only less informative (schemas and fingerprints say
/// `opaque`, and shared values of it are built as if it could hold a
/// `Weak`). A hand-written impl may name its encoding for schemas and
/// fingerprints with [`NAME`](Encoding::NAME):
///
/// ```
/// use binform::{Encoding, Pack, Reader, Result, Unpack, Writer};
///
/// /// A temperature stored as tenths of a degree.
/// struct Celsius(f32);
///
/// impl Encoding for Celsius {
///     const NAME: &'static str = "celsius_tenths";
/// }
/// impl Pack for Celsius {
///     fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
///         ((self.0 * 10.0).round() as i32).pack(w)
///     }
/// }
/// impl<'de> Unpack<'de> for Celsius {
///     fn unpack(r: &mut Reader<'de>) -> Result<Self> {
///         Ok(Celsius(i32::unpack(r)? as f32 / 10.0))
///     }
/// }
///
/// let bytes = binform::to_vec(&Celsius(21.5))?;
/// assert_eq!(binform::from_slice::<Celsius>(&bytes)?.0, 21.5);
/// assert_eq!(binform::schema_of::<Celsius>().root.to_string(), "celsius_tenths");
/// assert_eq!(
///     binform::schema::fingerprint_of::<Celsius>(),
///     binform::schema::fingerprint(&binform::schema_of::<Celsius>()),
/// );
/// # Ok::<(), binform::Error>(())
/// ```
///
/// The hidden items (the plain-data marker, the tolerant wire type, the
/// unrolled layout behind the fingerprint) are set by binform's own impls
/// and the derive; hand-written impls keep their defaults.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no binform encoding (`Encoding` is not implemented)",
    label = "no binform encoding",
    note = "derive `binform::Packable` for it, or mark the field `#[binform(serde)]` if it implements serde's traits (feature `serde`), or `#[binform(with = \"module\")]`"
)]
pub trait Encoding {
    /// Whether the type is plain data (its encoding is its memory), so
    /// slices of it are copied in one block.
    #[doc(hidden)]
    const PLAIN: Plain<Self> = Plain::NO;

    /// Whether sequences and arrays of this type are packed integer blocks
    /// (`docs/format.md` §22) instead of one encoding per element.
    #[doc(hidden)]
    const PACKED: bool = false;

    /// How a field of this type is delimited in a version-tolerant type
    /// (`docs/format.md` §12). `Framed` is always correct; a
    /// self-delimiting encoding may name its shorter form.
    #[doc(hidden)]
    const WIRE: Wire = Wire::Framed;

    /// The name of this type's encoding in schemas and fingerprints: what a
    /// hand-written impl sets to describe itself (`"celsius_tenths"`). The
    /// default, `opaque`, says nothing; binform's own impls and the derive
    /// describe their layout in full instead.
    const NAME: &'static str = "opaque";

    // The layout unrolled to level 0 … 16 (see `crate::schema::hash`): one
    // constant per level, so that the constants of recursive types never
    // depend on themselves.
    __binform_levels!(default_levels! {});

    /// The schema fingerprint: a stable 64-bit hash of the type's canonical
    /// layout, everything reachable from it included (`docs/format.md`
    /// §14). Computed at compile time; never override it.
    const FINGERPRINT: u64 = Self::UNROLLED_16.fingerprint;

    /// Whether a value may (transitively) hold a `Weak`, so that a weak
    /// reference to a shared value can occur while it is being decoded;
    /// computed from the field types, never from names. `false` lets
    /// shared values of the type skip `Rc::new_cyclic`.
    #[doc(hidden)]
    const MAY_HOLD_WEAK: bool = Self::UNROLLED_16.holds_weak;

    /// Describes the layout for [`schema_of`]: a built-in encoding with
    /// [`TypeRef::builtin_of`], or a derived type through
    /// [`Builder::named`]. The default is [`NAME`](Encoding::NAME); a
    /// hand-written impl that overrides it (to name type arguments, say)
    /// changes schemas and lock files, not the fingerprint, which only
    /// `NAME` reaches.
    fn describe(b: &mut Builder) -> TypeRef {
        let _ = b;
        TypeRef::builtin(Self::NAME)
    }
}

/// Collects the derived types while a schema is built; a type already
/// being described is referred to by name, which ends recursion.
#[derive(Default)]
pub struct Builder {
    types: Types,
    /// Full type name -> the name it has in `types`: the short name, or
    /// `Name#2`, `Name#3`, … when types of different modules share it.
    keys: BTreeMap<String, String>,
}

impl Builder {
    /// Describes `T` (recording derived types in the table).
    pub fn describe<T: Encoding + ?Sized>(&mut self) -> TypeRef {
        T::describe(self)
    }

    /// Records a derived type unless it is already known, then returns a
    /// reference to it by name. `name` identifies the type (the derive
    /// passes its full `core::any::type_name`); the schema shows it without
    /// module paths, and two different types with the same short name are
    /// told apart as `Name` and `Name#2`. `define` describes the fields; it
    /// runs at most once per type, after the type is registered, and the
    /// name it puts in the [`TypeDef`] is replaced by the schema's.
    pub fn named(&mut self, name: &str, define: impl FnOnce(&mut Self) -> TypeDef) -> TypeRef {
        if let Some(key) = self.keys.get(name) {
            return TypeRef::Named(key.clone());
        }
        let short = short_type_name(name);
        let mut key = short.clone();
        let mut n = 2;
        while self.types.contains_key(&key) {
            key = alloc::format!("{short}#{n}");
            n += 1;
        }
        self.keys.insert(name.to_owned(), key.clone());
        // Register first, so a field that mentions this type again stops.
        self.types.insert(
            key.clone(),
            TypeDef {
                name: key.clone(),
                tolerant: false,
                body: Body::Struct(Vec::new()),
                reserved: Vec::new(),
            },
        );
        let mut def = define(self);
        def.name = key.clone();
        self.types.insert(key.clone(), def);
        TypeRef::Named(key)
    }
}

/// Describes `T`: its layout and every derived type it uses.
///
/// ```
/// use binform::Packable;
///
/// #[derive(Packable)]
/// struct Point { x: i32, y: i32, label: Option<String> }
///
/// let text = binform::schema_of::<Vec<Point>>().to_string();
/// assert!(text.starts_with("root seq<Point>"));
/// assert!(text.contains("field 2 label option<string>"));
/// ```
pub fn schema_of<T: Encoding + ?Sized>() -> Schema {
    let mut builder = Builder::default();
    let root = builder.describe::<T>();
    Schema {
        root,
        types: builder.types,
    }
}

/// The fingerprint of `T`: a stable 64-bit hash of its canonical layout,
/// the same value as the `FINGERPRINT` constant the derive puts on each
/// type.
pub const fn fingerprint_of<T: Encoding + ?Sized>() -> u64 {
    T::FINGERPRINT
}

/// The schema name of a sequence of `T`: `packed` for packed integers,
/// `seq` for everything else.
pub(crate) const fn seq_name<T: Encoding + ?Sized>() -> &'static str {
    if T::PACKED {
        "packed"
    } else {
        "seq"
    }
}

/// The schema name of an array of `T`: `packed_array` or `array`.
pub(crate) const fn array_name<T: Encoding + ?Sized>() -> &'static str {
    if T::PACKED {
        "packed_array"
    } else {
        "array"
    }
}

/// The `Encoding` items of a built-in encoding with type arguments: the
/// unrolled layout at every level, and `describe`.
///
/// `empty` marks an encoding whose placeholder needs none of its
/// arguments' (an empty collection, `None`); `weak` is `weak<T>`, which is
/// also empty.
macro_rules! encoding_builtin {
    (weak $name:expr, $arg:ty) => {
        encoding_builtin!(@all $name, (.or_weak(true).emptiable()), ($arg));
    };
    (empty $name:expr $(, $arg:ty)*) => {
        encoding_builtin!(@all $name, (.emptiable()), ($($arg),*));
    };
    ($name:expr $(, $arg:ty)*) => {
        encoding_builtin!(@all $name, (), ($($arg),*));
    };
    (@all $name:expr, $finish:tt, ($($arg:ty),*)) => {
        __binform_levels!(encoding_builtin! { @levels $name, $finish, ($($arg),*), });

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            let _ = &b;
            crate::schema::TypeRef::builtin_of($name, alloc::vec![$(b.describe::<$arg>()),*])
        }
    };
    (@levels $name:expr, $finish:tt, $args:tt, $($level:ident)*) => {
        $(
            const $level: crate::schema::hash::Unrolled = encoding_builtin!(@finish $finish
                crate::schema::hash::Unrolled::builtin($name, &encoding_builtin!(@args $level $args)));
        )*
    };
    (@finish ($($finish:tt)*) $node:expr) => {
        $node $($finish)*
    };
    (@args $level:ident ($($arg:ty),*)) => {
        [$(<$arg as crate::Encoding>::$level),*]
    };
}

/// The `Encoding` items of `[T; N]`: `array<T, N>`.
macro_rules! encoding_array {
    ($t:ty, $n:ident) => {
        __binform_levels!(encoding_array! { @levels $t, $n, });

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            crate::schema::TypeRef::builtin_of(
                crate::encoding::array_name::<$t>(),
                alloc::vec![
                    b.describe::<$t>(),
                    crate::schema::TypeRef::builtin(&alloc::format!("{}", $n))
                ],
            )
        }
    };
    (@levels $t:ty, $n:ident, $($level:ident)*) => {
        $(
            const $level: crate::schema::hash::Unrolled = crate::schema::hash::Unrolled::builtin(
                crate::encoding::array_name::<$t>(),
                &[<$t as crate::Encoding>::$level, crate::schema::hash::Unrolled::number($n as u64)],
            )
            .repeated(<$t as crate::Encoding>::$level, $n as u64);
        )*
    };
}

/// The `Encoding` items of a wrapper encoded exactly as its contents:
/// everything is the contents'.
macro_rules! encoding_transparent {
    ($inner:ty) => {
        const WIRE: crate::tolerant::wire::Wire = <$inner as crate::Encoding>::WIRE;
        __binform_levels!(encoding_transparent! { @levels $inner, });

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            b.describe::<$inner>()
        }
    };
    (@levels $inner:ty, $($level:ident)*) => {
        $( const $level: crate::schema::hash::Unrolled = <$inner as crate::Encoding>::$level; )*
    };
}

/// The `Encoding` levels of a derived type, for the derive: level 0 is
/// `ref Name`, and level `n` the definition (`$pieces`, see
/// [`Unrolled::derived`]) with the fields at level `n - 1`. `$fields` is
/// `(ty (Type), field (Type), with ("path"), ...)` in the pieces' order; `$variants` an
/// enum's field count per variant, in the same order (empty for a struct).
/// `@fields LEVEL (...)` alone gives the fields' facts at one level.
#[doc(hidden)]
#[macro_export]
macro_rules! __binform_derived_levels {
    ($name:expr, $pieces:expr, $variants:expr, $fields:tt) => {
        const UNROLLED_0: $crate::__private::Unrolled = $crate::__private::Unrolled::reference($name);
        $crate::__binform_levels!(pairs $crate::__binform_derived_levels! {
            @levels $pieces, $variants, $fields,
        });
    };
    (@levels $pieces:expr, $variants:expr, $fields:tt, $($level:ident $below:ident,)*) => {
        $(
            const $level: $crate::__private::Unrolled = $crate::__private::Unrolled::derived(
                $pieces,
                &$crate::__binform_derived_levels!(@fields $below $fields),
                $variants,
            );
        )*
    };
    (@fields $below:ident ($($kind:ident $field:tt),* $(,)?)) => {
        [$($crate::__binform_derived_levels!(@field $below $kind $field)),*]
    };
    (@field $below:ident ty ($field:ty)) => {
        <$field as $crate::Encoding>::$below
    };
    // A field of a concrete type, through the one trait derived code
    // asks of those (`__private::Field`).
    (@field $below:ident field ($field:ty)) => {
        <$field as $crate::__private::Field>::$below
    };
    // A `with` module's encoding is opaque: `with<path>` on every level.
    // What a `with` module writes is unknown: it may hold a `Weak`, and it
    // has no placeholder.
    (@field $below:ident with ($path:literal)) => {
        $crate::__private::Unrolled::builtin(
            "with",
            &[$crate::__private::Unrolled::builtin($path, &[])],
        )
        .or_weak(true)
        .no_placeholder()
    };
}
