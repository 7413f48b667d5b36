//! [`Encoding`]: what a type's encoding is, declared once for both
//! directions, and the schema [`Builder`] its `describe` fills.

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::plain::Plain;
use crate::schema::model::{short_type_name, Body, Schema, TypeDef, TypeRef, Types};
use crate::tolerant::wire::Wire;

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
///     fn pack<L: binform::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
///         ((self.0 * 10.0).round() as i32).pack(w)
///     }
/// }
/// impl<'de> Unpack<'de> for Celsius {
///     fn unpack<L: binform::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
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
/// shape a `schema_lock` check compares) are set by binform's own impls
/// and the derive; hand-written impls keep their defaults.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no binform encoding (`Encoding` is not implemented)",
    label = "no binform encoding",
    note = "a type from another crate: mark the field `#[binform(with = \"module\")]`, or `#[binform(serde)]` if it implements serde's traits (feature `serde`)",
    note = "a type of your own crate: derive `binform::Packable` for it"
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

    /// Whether sequences of this type are columns in the compact layout
    /// (`docs/format.md` §27): a string's lengths then its bytes, an
    /// option's presence bits then its values, a derived type's fields
    /// each in a column of its own. Decided by the type's schema, so a
    /// wrapper encoded as its contents says what its contents say.
    #[doc(hidden)]
    const COLUMNS: bool = false;

    /// How a field of this type is delimited in a version-tolerant type
    /// (`docs/format.md` §12). `Framed` is always correct; a
    /// self-delimiting encoding may name its shorter form.
    #[doc(hidden)]
    const WIRE: Wire = Wire::Framed;

    /// [`WIRE`](Encoding::WIRE) in the fixed layout, where integers are
    /// fixed-width: `Fixed4`/`Fixed8` for 4- and 8-byte integers, `Framed`
    /// for other widths. Only integers and what holds them differ.
    #[doc(hidden)]
    const FIXED_WIRE: Wire = Self::WIRE;

    /// The name of this type's encoding in schemas and fingerprints: what a
    /// hand-written impl sets to describe itself (`"celsius_tenths"`). The
    /// default, `opaque`, says nothing; binform's own impls and the derive
    /// describe their layout in full instead.
    const NAME: &'static str = "opaque";

    /// The type's *shape*: its fingerprint node at level 0 (built-ins with
    /// their arguments, derived types by name: `docs/format.md` §14), the
    /// one constant a `#[binform(schema_lock)]` check compares at compile
    /// time. The fingerprint itself is computed from the schema when first
    /// asked for ([`fingerprint_of`]), so that no build pays for it.
    #[doc(hidden)]
    const SHAPE: u64 = crate::schema::hash_str(Self::NAME);

    /// Describes the layout for [`schema_of`]: a built-in encoding with
    /// [`TypeRef::builtin_of`], or a derived type through
    /// [`Builder::named`]. The default is [`NAME`](Encoding::NAME); a
    /// hand-written impl may override it (to name type arguments, say),
    /// which changes its schema, lock files and fingerprint alike.
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

/// `T`'s wire type in the layout `L`: [`Encoding::WIRE`], or in the fixed
/// layout [`Encoding::FIXED_WIRE`]. Known at compile time.
#[inline(always)]
pub(crate) const fn wire_in<T: Encoding + ?Sized, L: crate::Layout>() -> Wire {
    pick_wire::<L>(T::WIRE, T::FIXED_WIRE)
}

/// The wire type of layout `L` of the two: `compact`'s or `fixed`'s.
#[inline(always)]
pub(crate) const fn pick_wire<L: crate::Layout>(compact: Wire, fixed: Wire) -> Wire {
    if L::FIXED {
        fixed
    } else {
        compact
    }
}

/// Whether sequences of `T` are packed integer blocks in the layout `L`:
/// only in the compact one (the fixed layout copies them whole).
#[inline(always)]
pub(crate) const fn packed_in<T: Encoding + ?Sized, L: crate::Layout>() -> bool {
    T::PACKED && !L::FIXED
}

/// Whether sequences of `T` are columns in the layout `L` (§27): only in
/// the compact one (the fixed layout writes them row by row).
#[inline(always)]
pub(crate) const fn columns_in<T: Encoding + ?Sized, L: crate::Layout>() -> bool {
    T::COLUMNS && !L::FIXED
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

/// The `Encoding` items of a built-in encoding with type arguments: its
/// shape and `describe`.
macro_rules! encoding_builtin {
    ($name:expr $(, $arg:ty)*) => {
        const SHAPE: u64 = crate::schema::hash::builtin_value(
            $name,
            &[$(<$arg as crate::Encoding>::SHAPE),*],
        );

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            let _ = &b;
            crate::schema::TypeRef::builtin_of($name, alloc::vec![$(b.describe::<$arg>()),*])
        }
    };
}

/// The `Encoding` items of `[T; N]`: `array<T, N>`.
macro_rules! encoding_array {
    ($t:ty, $n:ident) => {
        const SHAPE: u64 = crate::schema::hash::builtin_value(
            crate::encoding::array_name::<$t>(),
            &[
                <$t as crate::Encoding>::SHAPE,
                crate::schema::hash::number_value($n as u64),
            ],
        );

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
}

/// The `Encoding` items of a wrapper encoded exactly as its contents:
/// everything is the contents'.
macro_rules! encoding_transparent {
    ($inner:ty) => {
        const PACKED: bool = <$inner as crate::Encoding>::PACKED;
        const COLUMNS: bool = <$inner as crate::Encoding>::COLUMNS;
        const WIRE: crate::tolerant::wire::Wire = <$inner as crate::Encoding>::WIRE;
        const FIXED_WIRE: crate::tolerant::wire::Wire = <$inner as crate::Encoding>::FIXED_WIRE;
        const SHAPE: u64 = <$inner as crate::Encoding>::SHAPE;

        fn describe(b: &mut crate::schema::Builder) -> crate::schema::TypeRef {
            b.describe::<$inner>()
        }
    };
}
