//! What each schema node is made of, for [`Value`](super::Value)'s reader
//! and writer: every built-in name of format.md §14 reduced to a few
//! shapes. Types with a fixed layout of scalars (`duration`, `ipv4`,
//! chrono's and time's types, …) become records of named scalars, so the
//! reader and writer only know scalars, sequences, maps, options, records,
//! byte-tagged enums and shared values. Where two integer types share an
//! encoding (`u32` and `u64` varints; zig-zag `i32` and `i64`) a record
//! uses the wider: the bytes are the same.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::schema::{Schema, TypeDef, TypeRef};
use crate::{Error, ErrorKind, Result};

use super::scalar::Scalar;

/// A node inside a shape: one of the schema's, or one built for a
/// built-in record (which holds only scalars, byte arrays and records).
pub(super) enum Node<'s> {
    Schema(&'s TypeRef),
    Builtin(TypeRef),
}

/// What a schema node holds.
pub(super) enum Shape<'s> {
    Scalar(Scalar),
    String,
    /// A length and raw bytes (`seq<u8>`, `cstring`).
    Bytes,
    /// A length and elements (`seq<T>`, `set<T>`).
    Seq(&'s TypeRef),
    /// A length and packed integer blocks; the flag: `NonZero` values.
    Packed(Scalar, bool),
    /// `n` packed integers.
    PackedArray(Scalar, bool, usize),
    /// `n` elements, no length (`[u8; n]` as bytes).
    Array(&'s TypeRef, usize),
    /// Elements of these types, no length.
    Tuple(&'s [TypeRef]),
    Map(&'s TypeRef, &'s TypeRef),
    Option(&'s TypeRef),
    /// A reference tag (§11) then, for a new value, the value; `true` for
    /// `weak<T>`, which may dangle.
    Shared(&'s TypeRef, bool),
    /// The value, which must not be zero.
    NonZero(Scalar),
    /// Named fields of a built-in with a fixed layout (or a range).
    Record(&'static str, Vec<(&'static str, Node<'s>)>),
    /// A byte tag, then the variant's one field if it has one.
    ByteEnum(&'static str, Vec<(&'static str, Option<Node<'s>>)>),
    /// `varint(tag)` of a registered trait object, then its type.
    Dyn(&'s [TypeRef]),
    /// A derived type.
    Named(&'s TypeDef),
}

fn b(name: &str) -> TypeRef {
    TypeRef::builtin(name)
}

fn bytes_of(n: usize) -> TypeRef {
    TypeRef::builtin_of("array", vec![b("u8"), TypeRef::builtin(&format!("{n}"))])
}

/// The shape of a built-in whose layout is data (`crate::builtins`): a
/// record or a byte-tagged enum, with its type arguments.
fn from_registry<'s>(name: &str, args: &'s [TypeRef]) -> Option<Result<Shape<'s>>> {
    use crate::builtins::{FieldType, Payload};
    if let Some(record) = crate::builtins::record_of(name) {
        if args.len() != record.arity() {
            return Some(Err(malformed(name, args.len())));
        }
        let fields = record.fields.iter().map(|&(field, ty)| {
            let node = match ty {
                FieldType::Named(n) => Node::Builtin(b(n)),
                FieldType::Bytes(n) => Node::Builtin(bytes_of(n)),
                FieldType::Arg(i) => Node::Schema(&args[i]),
            };
            (field, node)
        });
        return Some(Ok(Shape::Record(record.name, fields.collect())));
    }
    let byte_enum = crate::builtins::byte_enum_of(name)?;
    if args.len() != byte_enum.arity() {
        return Some(Err(malformed(name, args.len())));
    }
    let variants = byte_enum.variants.iter().map(|&(variant, payload)| {
        let node = match payload {
            Payload::None => None,
            Payload::Arg(i) => Some(Node::Schema(&args[i])),
            Payload::Named(n) => Some(Node::Builtin(b(n))),
        };
        (variant, node)
    });
    Some(Ok(Shape::ByteEnum(byte_enum.rust_name, variants.collect())))
}

/// The one argument of a built-in, or an error.
fn one<'s>(name: &str, args: &'s [TypeRef]) -> Result<&'s TypeRef> {
    match args {
        [a] => Ok(a),
        _ => Err(malformed(name, args.len())),
    }
}

fn two<'s>(name: &str, args: &'s [TypeRef]) -> Result<(&'s TypeRef, &'s TypeRef)> {
    match args {
        [a, b] => Ok((a, b)),
        _ => Err(malformed(name, args.len())),
    }
}

#[cold]
fn malformed(name: &str, n: usize) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        format!("the schema has `{name}` with {n} type arguments"),
    )
}

/// A count given as a node named by its digits (`array<T,N>`).
fn count(node: &TypeRef) -> Result<usize> {
    match node {
        TypeRef::Builtin { name, args } if args.is_empty() => name.parse().map_err(|_| {
            Error::new(
                ErrorKind::InvalidValue,
                format!("`{name}` is not an array length"),
            )
        }),
        other => Err(Error::new(
            ErrorKind::InvalidValue,
            format!("`{other}` is not an array length"),
        )),
    }
}

/// The integer a packed sequence holds, and whether it is `NonZero`.
fn packed_int(node: &TypeRef) -> Result<(Scalar, bool)> {
    let (name, nonzero) = match node {
        TypeRef::Builtin { name, args } if name == "nonzero" => match args.as_slice() {
            [TypeRef::Builtin { name, .. }] => (name, true),
            _ => return Err(malformed("nonzero", args.len())),
        },
        TypeRef::Builtin { name, .. } => (name, false),
        TypeRef::Named(name) => (name, false),
    };
    match Scalar::by_name(name) {
        Some(s) if s.packs() => Ok((s, nonzero)),
        _ => Err(Error::new(
            ErrorKind::InvalidValue,
            format!("`packed<{node}>` names no packed integer"),
        )),
    }
}

/// What `node` holds, with `schema`'s derived types.
pub(super) fn shape<'s>(node: &'s TypeRef, schema: &'s Schema) -> Result<Shape<'s>> {
    let (name, args) = match node {
        TypeRef::Named(name) => {
            return schema.types.get(name).map(Shape::Named).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidValue,
                    format!("the schema refers to `{name}` and does not define it"),
                )
            })
        }
        TypeRef::Builtin { name, args } => (name.as_str(), args.as_slice()),
    };
    if let Some(scalar) = Scalar::by_name(name) {
        return Ok(Shape::Scalar(scalar));
    }
    if let Some(shape) = from_registry(name, args) {
        return shape;
    }
    Ok(match name {
        "string" => Shape::String,
        "cstring" => Shape::Bytes,
        "seq" | "set" => {
            let elem = one(name, args)?;
            if name == "seq" && *elem == b("u8") {
                Shape::Bytes
            } else {
                Shape::Seq(elem)
            }
        }
        "packed" => {
            let (s, nz) = packed_int(one(name, args)?)?;
            Shape::Packed(s, nz)
        }
        "packed_array" => {
            let (elem, n) = two(name, args)?;
            let (s, nz) = packed_int(elem)?;
            Shape::PackedArray(s, nz, count(n)?)
        }
        "array" => {
            let (elem, n) = two(name, args)?;
            Shape::Array(elem, count(n)?)
        }
        "tuple" => Shape::Tuple(args),
        "map" => {
            let (k, v) = two(name, args)?;
            Shape::Map(k, v)
        }
        "option" => Shape::Option(one(name, args)?),
        "shared" => Shape::Shared(one(name, args)?, false),
        "weak" => Shape::Shared(one(name, args)?, true),
        "nonzero" => match one(name, args)? {
            TypeRef::Builtin { name: inner, .. } => match Scalar::by_name(inner) {
                Some(s) if !matches!(s, Scalar::Unit | Scalar::Bool | Scalar::Char) => {
                    Shape::NonZero(s)
                }
                _ => return Err(malformed("nonzero", args.len())),
            },
            TypeRef::Named(_) => return Err(malformed("nonzero", args.len())),
        },
        "dyn" => {
            if args.len() % 2 != 0 {
                return Err(malformed(name, args.len()));
            }
            Shape::Dyn(args)
        }
        other => {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "`{node}` has no schema a Value can follow{}",
                    match other {
                        "with" => ": the field is encoded by a `with` module",
                        "opaque" =>
                            ": the type has a hand-written impl that does not describe itself",
                        _ => "",
                    }
                ),
            ))
        }
    })
}

/// The tags of each trait-object node (`dyn<t1,T1,…>`) met in a walk,
/// indexed on the node's first value: a document of many trait objects
/// over a schema that registers many types costs a lookup a value, not a
/// scan that parses every tag (25 s to write back a 1.5 MB document that
/// decoded in 21 ms). The first pair of a repeated tag wins, as in every
/// reader and writer of values.
#[derive(Default)]
pub(super) struct DynTags(
    core::cell::RefCell<
        alloc::collections::BTreeMap<*const TypeRef, alloc::collections::BTreeMap<u32, usize>>,
    >,
);

impl DynTags {
    /// The pair of `args` (a schema node's, alive for the walk) whose tag
    /// is `tag`.
    pub(super) fn find<'a>(&self, args: &'a [TypeRef], tag: u32) -> Option<(u32, &'a TypeRef)> {
        let i = *self
            .0
            .borrow_mut()
            .entry(args.as_ptr())
            .or_insert_with(|| dyn_index(args))
            .get(&tag)?;
        dyn_entry(args, i)
    }
}

/// Each tag of `dyn<t1,T1,…>` to its pair's position (the first, if a
/// hostile schema repeats one).
fn dyn_index(args: &[TypeRef]) -> alloc::collections::BTreeMap<u32, usize> {
    let mut index = alloc::collections::BTreeMap::new();
    for i in 0..args.len() / 2 {
        if let Some((tag, _)) = dyn_entry(args, i) {
            index.entry(tag).or_insert(i);
        }
    }
    index
}

/// The tag of `dyn<t1,T1,…>`'s pair `i`, and its type.
fn dyn_entry(args: &[TypeRef], i: usize) -> Option<(u32, &TypeRef)> {
    let tag = match args.get(2 * i)? {
        TypeRef::Builtin { name, .. } => name.parse().ok()?,
        TypeRef::Named(_) => return None,
    };
    Some((tag, args.get(2 * i + 1)?))
}

/// The schema of built-in nodes, which name no derived type.
pub(super) static NO_TYPES: Schema = Schema {
    root: TypeRef::Named(String::new()),
    types: alloc::collections::BTreeMap::new(),
};

/// The wire type (format.md §12) a field of type `node` has in a tolerant
/// type, as the Rust type's `Encoding::WIRE` says it: the same rules by
/// schema name.
/// In the fixed layout, integers take their fixed widths' wire types
/// (`Encoding::FIXED_WIRE`).
pub(super) fn wire_of<L: crate::Layout>(
    node: &TypeRef,
    schema: &Schema,
    rows: &mut Rows,
) -> Result<crate::tolerant::wire::Wire> {
    use crate::tolerant::wire::Wire;
    use crate::tolerant::wire::PACKED_ELEMENT;
    let scalar = |s: Scalar| match s {
        Scalar::U8 | Scalar::I8 | Scalar::Bool => Wire::Byte,
        Scalar::U16 | Scalar::I16 if L::FIXED => Wire::Framed,
        Scalar::U32 | Scalar::I32 | Scalar::Char if L::FIXED => Wire::Fixed4,
        Scalar::U64 | Scalar::I64 if L::FIXED => Wire::Fixed8,
        Scalar::U16
        | Scalar::U32
        | Scalar::U64
        | Scalar::I16
        | Scalar::I32
        | Scalar::I64
        | Scalar::Char => Wire::Varint,
        Scalar::F32 => Wire::Fixed4,
        Scalar::F64 => Wire::Fixed8,
        Scalar::U128 | Scalar::I128 | Scalar::Unit => Wire::Framed,
    };
    Ok(match shape(node, schema)? {
        Shape::Scalar(s) | Shape::NonZero(s) => scalar(s),
        Shape::String | Shape::Bytes => Wire::Bytes,
        Shape::Packed(s, ..) if L::FIXED => Wire::seq_of(scalar(s)),
        Shape::Packed(..) => Wire::Seq(PACKED_ELEMENT),
        Shape::Seq(elem) => match node {
            // Columns (§27) are framed, as `[T]`'s wire type says.
            TypeRef::Builtin { name, .. }
                if name == "seq" && !is_column::<L>(elem, schema, rows) =>
            {
                Wire::seq_of(wire_of::<L>(elem, schema, rows)?)
            }
            _ => Wire::Framed,
        },
        Shape::Record("ordering", _) => Wire::Byte,
        _ => Wire::Framed,
    })
}

/// Whether sequences of `elem` are columns in the layout `L` (§27): the
/// schema's account of `Encoding::COLUMNS`. Wrappers encoded as their
/// contents are transparent in schemas and forward their columns.
pub(super) fn is_column<L: crate::Layout>(
    elem: &TypeRef,
    schema: &Schema,
    rows: &mut Rows,
) -> bool {
    if L::FIXED {
        return false;
    }
    let key: *const TypeRef = elem;
    if let Some(&known) = rows.nodes.as_ref().and_then(|nodes| nodes.get(&key)) {
        return known;
    }
    let answer = column_within(elem, schema, rows, ROWS_DEPTH);
    if let Some(nodes) = &mut rows.nodes {
        nodes.insert(key, answer);
    }
    answer
}

/// What [`is_column`] found so far, for a whole decode or encode: each
/// struct of the schema met, whether it is rows (§27 "Structs of rows"),
/// worked out once; and, for a decoder, whose nodes are all borrowed from
/// the schema for the whole decode (so an address is one node), each node
/// asked about, whether it is a column. A column of zero-size arrays of a
/// large struct, or of arrays nested 256 deep, then costs a lookup an
/// element, not a walk of the type. Past [`ROWS_DEPTH`] levels, or
/// through a struct that holds itself by value (no Rust type does either),
/// an answer can depend on which node was asked about first.
#[derive(Default)]
pub(super) struct Rows {
    structs: BTreeMap<*const TypeDef, bool>,
    nodes: Option<BTreeMap<*const TypeRef, bool>>,
}

impl Rows {
    /// For a decoder: nodes remembered too.
    pub(super) fn remembering_nodes() -> Self {
        Rows {
            structs: BTreeMap::new(),
            nodes: Some(BTreeMap::new()),
        }
    }
}

/// How deep structs and arrays of rows may nest in one [`is_column`]: a
/// bound on the stack a hostile schema can make it use, far past any Rust
/// struct of rows (each level is a field holding the next).
const ROWS_DEPTH: u32 = 256;

/// [`is_column`] in the compact layout, `depth` the levels of structs and
/// arrays it may still go down.
fn column_within(elem: &TypeRef, schema: &Schema, rows: &mut Rows, depth: u32) -> bool {
    let Some(depth) = depth.checked_sub(1) else {
        // A deeper schema than any Rust type: columns.
        return true;
    };
    match shape(elem, schema) {
        Ok(Shape::String | Shape::Option(_) | Shape::PackedArray(..)) => true,
        // Bits (`bool::COLUMNS`), and tuples: each element's column.
        Ok(Shape::Scalar(Scalar::Bool) | Shape::Tuple(_)) => true,
        // Sequences (`[T]::COLUMNS`), not sets or C strings.
        Ok(Shape::Seq(_) | Shape::Packed(..) | Shape::Bytes) => is_seq(elem),
        // A compact type, unless it is a struct whose fields' columns
        // would all be rows (the derive's `COLUMNS`).
        Ok(Shape::Named(def)) => !def.tolerant && !rows_only(def, schema, rows, depth),
        // Arrays of columns or of packed integers (`[T; N]::COLUMNS`).
        Ok(Shape::Array(inner, _)) => {
            column_within(inner, schema, rows, depth) || packs(inner, schema)
        }
        _ => false,
    }
}

/// Whether a schema node is packed integers (`Encoding::PACKED`).
fn packs(node: &TypeRef, schema: &Schema) -> bool {
    matches!(shape(node, schema), Ok(Shape::Scalar(s) | Shape::NonZero(s)) if s.packs())
}

/// Whether a compact struct is written as rows in its columns (§27): it
/// has fields, none of them a `with` field, and none of them is a column
/// or packed, so its fields' columns would be the same bytes in another
/// order. Remembered in `rows`; a struct met again while its own fields
/// are being looked at (which no Rust type of rows can do: it would hold
/// itself by value) is columns.
fn rows_only(def: &TypeDef, schema: &Schema, rows: &mut Rows, depth: u32) -> bool {
    let key: *const TypeDef = def;
    if let Some(&known) = rows.structs.get(&key) {
        return known;
    }
    rows.structs.insert(key, false);
    let crate::schema::Body::Struct(fields) = &def.body else {
        return false;
    };
    let answer = !fields.is_empty()
        && fields.iter().all(|f| {
            let with = matches!(&f.schema, TypeRef::Builtin { name, .. } if name == "with");
            !with && !column_within(&f.schema, schema, rows, depth) && !packs(&f.schema, schema)
        });
    rows.structs.insert(key, answer);
    answer
}

/// Whether `node` is a sequence (`seq<T>`, `packed<T>`), whose columns
/// are their lengths then their elements' column (§27).
pub(super) fn is_seq(node: &TypeRef) -> bool {
    matches!(node, TypeRef::Builtin { name, .. } if name == "seq" || name == "packed")
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::wire_of;
    use crate::{Encoding, Pack, Value};

    /// A typed value seen through its schema: the `Value` its bytes
    /// decode to, which must write back the same bytes; and the wire type
    /// the schema gives it, which must be the Rust type's own.
    fn through_schema<T: Pack + Encoding>(value: &T) -> Value {
        let schema = crate::schema_of::<T>();
        let bytes = crate::to_vec(value).unwrap();
        let seen = super::super::from_slice_with(&schema, &bytes).unwrap();
        assert_eq!(
            super::super::to_vec_with(&schema, &seen).unwrap(),
            bytes,
            "{seen}"
        );
        assert_eq!(
            wire_of::<crate::layout::Compact>(&schema.root, &schema, &mut Default::default())
                .unwrap(),
            T::WIRE,
            "{}",
            schema.root
        );
        // The same in the fixed layout: the schema reads the fixed bytes
        // to the same value, writes them back, and names the fixed wire.
        let fixed = crate::Options::new().fixed_width();
        let bytes = crate::fixed::to_vec(value).unwrap();
        let seen_fixed = super::super::from_slice_with_options(&schema, &bytes, &fixed).unwrap();
        assert_eq!(seen_fixed, seen, "the fixed layout reads the same value");
        assert_eq!(
            super::super::to_vec_with_options(&schema, &seen_fixed, &fixed).unwrap(),
            bytes,
            "{seen}"
        );
        assert_eq!(
            wire_of::<crate::layout::Fixed>(&schema.root, &schema, &mut Default::default())
                .unwrap(),
            T::FIXED_WIRE,
            "{} (fixed)",
            schema.root
        );
        seen
    }

    /// Each record of the registry describes the bytes its type's impl
    /// writes: the values `expected` (when given) are what the registry's
    /// fields, by name, type and order, read from them.
    fn record<T: Pack + Encoding>(value: &T, expected: &[(&str, Value)]) {
        let schema = crate::schema_of::<T>();
        let seen = through_schema(value);
        let Value::Struct { name, fields } = seen.root() else {
            panic!("{} reads as a record", schema.root)
        };
        assert!(crate::builtins::record_of(name).is_some(), "{name}");
        if !expected.is_empty() {
            let expected: Vec<(String, Value)> = expected
                .iter()
                .map(|(n, v)| ((*n).into(), v.clone()))
                .collect();
            assert_eq!(fields, &expected, "{name}");
        }
    }

    /// Each byte-tagged enum of the registry is its type's bytes.
    fn byte_enum<T: Pack + Encoding>(value: &T, variant: &str) {
        match through_schema(value).root() {
            Value::Variant { variant: v, .. } => assert_eq!(v, variant),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn the_registry_describes_what_the_impls_write() {
        use core::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
        use core::ops::Bound;
        use Value::{Bytes, I8, U64, U8};
        let v4 = Ipv4Addr::new(10, 0, 0, 1);
        let v6 = Ipv6Addr::LOCALHOST;
        let (v4_bytes, v6_bytes) = (Bytes(v4.octets().into()), Bytes(v6.octets().into()));
        record(
            &core::time::Duration::new(500, 999_999_999),
            &[("secs", U64(500)), ("nanos", U64(999_999_999))],
        );
        record(&v4, &[("octets", v4_bytes.clone())]);
        record(&v6, &[("octets", v6_bytes.clone())]);
        let ip = |name: &str, octets: Value| Value::Struct {
            name: name.into(),
            fields: alloc::vec![("octets".into(), octets)],
        };
        record(
            &SocketAddrV4::new(v4, 8080),
            &[("ip", ip("ipv4", v4_bytes.clone())), ("port", U64(8080))],
        );
        record(
            &SocketAddrV6::new(v6, 443, 70_000, 9),
            &[
                (
                    "ip",
                    Value::Struct {
                        name: "ipv6".into(),
                        fields: alloc::vec![("octets".into(), v6_bytes)],
                    },
                ),
                ("port", U64(443)),
                ("flowinfo", U64(70_000)),
                ("scope_id", U64(9)),
            ],
        );
        record(&core::cmp::Ordering::Less, &[("sign", I8(-1))]);
        record(&(3u8..200), &[("start", U8(3)), ("end", U8(200))]);
        record(&(3u8..=9), &[("start", U8(3)), ("end", U8(9))]);
        #[cfg(feature = "std")]
        record(
            &(std::time::SystemTime::UNIX_EPOCH - core::time::Duration::new(1, 500)),
            &[("secs", Value::I64(-2)), ("nanos", U64(999_999_500))],
        );
        #[cfg(feature = "uuid")]
        record(&uuid::Uuid::from_u128(7), &[]);
        #[cfg(feature = "half")]
        record(&half::f16::from_f32(1.5), &[]);
        #[cfg(feature = "half")]
        record(&half::bf16::from_f32(1.5), &[]);
        #[cfg(feature = "rust_decimal")]
        record(&rust_decimal::Decimal::new(-314, 2), &[]);
        #[cfg(feature = "chrono")]
        {
            use chrono::TimeZone;
            let at = chrono::Utc.timestamp_opt(1_700_000_000, 5).unwrap();
            record(&at, &[]);
            record(&at.naive_utc(), &[]);
            record(&at.fixed_offset(), &[]);
            record(&at.date_naive(), &[]);
            record(&at.time(), &[]);
            record(&chrono::TimeDelta::seconds(-5), &[]);
        }
        #[cfg(feature = "time")]
        {
            let at = time::OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap();
            record(&at, &[]);
            record(&time::PrimitiveDateTime::new(at.date(), at.time()), &[]);
            record(&at.date(), &[]);
            record(&at.time(), &[]);
            record(&time::Duration::seconds(-5), &[]);
        }
        byte_enum(&Ok::<u8, String>(1), "Ok");
        byte_enum(&Err::<u8, String>("e".into()), "Err");
        byte_enum(&Bound::Included(4u16), "Included");
        byte_enum(&Bound::<u16>::Unbounded, "Unbounded");
        byte_enum(&IpAddr::V6(v6), "V6");
        byte_enum(&SocketAddr::V4(SocketAddrV4::new(v4, 1)), "V4");
    }
}

#[cfg(test)]
mod names {
    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::TypeRef;

    /// Every built-in name in `node` (array lengths and trait-object
    /// tags are digits, not names).
    fn names(node: &TypeRef, out: &mut Vec<String>) {
        if let TypeRef::Builtin { name, args } = node {
            if !name.bytes().all(|b| b.is_ascii_digit()) {
                out.push(name.clone());
            }
            args.iter().for_each(|a| names(a, out));
        }
    }

    fn check<T: crate::Encoding + ?Sized>(seen: &mut Vec<String>) {
        let schema = crate::schema_of::<T>();
        let mut found = Vec::new();
        names(&schema.root, &mut found);
        for name in found {
            assert!(
                binform_schema::is_builtin_name(&name),
                "`{name}` is not in BUILTIN_NAMES"
            );
            seen.push(name);
        }
    }

    /// The names the impls describe themselves by are the list the derive
    /// keeps derived types from taking, and so is every name of the
    /// registry of built-in layouts.
    #[test]
    fn every_built_in_name_is_listed() {
        use alloc::collections::{BTreeMap, BTreeSet};
        use alloc::rc::{Rc, Weak};
        use core::net::{IpAddr, SocketAddr};
        use core::num::{NonZeroI64, NonZeroU32};
        use core::ops::{Bound, Range, RangeInclusive};
        let mut seen = Vec::new();
        check::<(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128, f32, f64)>(&mut seen);
        check::<(bool, char, (), String, alloc::ffi::CString, usize, isize)>(&mut seen);
        check::<(
            Vec<u32>,
            Vec<u8>,
            BTreeSet<u8>,
            BTreeMap<u8, u8>,
            [u32; 8],
            [u8; 4],
            [i8; 2],
        )>(&mut seen);
        check::<(Option<u8>, Rc<u8>, Weak<u8>, NonZeroU32, Vec<NonZeroI64>)>(&mut seen);
        check::<(
            Result<u8, u8>,
            Bound<u8>,
            IpAddr,
            SocketAddr,
            core::time::Duration,
        )>(&mut seen);
        check::<(core::cmp::Ordering, Range<u8>, RangeInclusive<u8>)>(&mut seen);
        #[cfg(feature = "std")]
        check::<std::time::SystemTime>(&mut seen);
        #[cfg(feature = "uuid")]
        check::<uuid::Uuid>(&mut seen);
        #[cfg(feature = "half")]
        check::<(half::f16, half::bf16)>(&mut seen);
        #[cfg(feature = "rust_decimal")]
        check::<rust_decimal::Decimal>(&mut seen);
        for record in crate::builtins::RECORDS {
            assert!(
                binform_schema::is_builtin_name(record.name),
                "{}",
                record.name
            );
        }
        for byte_enum in crate::builtins::BYTE_ENUMS {
            assert!(
                binform_schema::is_builtin_name(byte_enum.name),
                "{}",
                byte_enum.name
            );
        }
        // The check saw each family.
        for name in [
            "u8", "string", "cstring", "seq", "set", "map", "packed", "option", "shared", "weak",
            "nonzero", "result", "ip",
        ] {
            assert!(seen.iter().any(|s| s == name), "{name} was not seen");
        }
    }
}
