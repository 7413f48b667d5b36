//! What each schema node is made of, for [`Value`](super::Value)'s reader
//! and writer: every built-in name of format.md §14 reduced to a few
//! shapes. Types with a fixed layout of scalars (`duration`, `ipv4`,
//! chrono's and time's types, …) become records of named scalars, so the
//! reader and writer only know scalars, sequences, maps, options, records,
//! byte-tagged enums and shared values. Where two integer types share an
//! encoding (`u32` and `u64` varints; zig-zag `i32` and `i64`) a record
//! uses the wider: the bytes are the same.

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

/// The record layout of a built-in with a fixed layout, if `name` is one.
fn record(name: &str) -> Option<Shape<'static>> {
    let (name, fields): (&'static str, Vec<(&'static str, TypeRef)>) = match name {
        "duration" => ("duration", vec![("secs", b("u64")), ("nanos", b("u64"))]),
        "system_time" => ("system_time", vec![("secs", b("i64")), ("nanos", b("u64"))]),
        "ipv4" => ("ipv4", vec![("octets", bytes_of(4))]),
        "ipv6" => ("ipv6", vec![("octets", bytes_of(16))]),
        "socket_v4" => ("socket_v4", vec![("ip", b("ipv4")), ("port", b("u64"))]),
        "socket_v6" => (
            "socket_v6",
            vec![
                ("ip", b("ipv6")),
                ("port", b("u64")),
                ("flowinfo", b("u64")),
                ("scope_id", b("u64")),
            ],
        ),
        "uuid" => ("uuid", vec![("bytes", bytes_of(16))]),
        "f16" => ("f16", vec![("bits", bytes_of(2))]),
        "bf16" => ("bf16", vec![("bits", bytes_of(2))]),
        "decimal" => ("decimal", vec![("mantissa", b("i128")), ("scale", b("u8"))]),
        "ordering" => ("ordering", vec![("sign", b("i8"))]),
        "chrono_utc" | "chrono_naive_datetime" | "time_primitive_datetime" | "chrono_delta" => {
            let name = match name {
                "chrono_utc" => "chrono_utc",
                "chrono_naive_datetime" => "chrono_naive_datetime",
                "time_primitive_datetime" => "time_primitive_datetime",
                _ => "chrono_delta",
            };
            (name, vec![("secs", b("i64")), ("nanos", b("u64"))])
        }
        "chrono_fixed_offset" | "time_offset_datetime" => {
            let name = if name == "chrono_fixed_offset" {
                "chrono_fixed_offset"
            } else {
                "time_offset_datetime"
            };
            (
                name,
                vec![
                    ("secs", b("i64")),
                    ("nanos", b("u64")),
                    ("offset", b("i64")),
                ],
            )
        }
        "chrono_date" => ("chrono_date", vec![("day", b("i64"))]),
        "time_date" => ("time_date", vec![("julian_day", b("i64"))]),
        "chrono_time" | "time_time" => {
            let name = if name == "chrono_time" {
                "chrono_time"
            } else {
                "time_time"
            };
            (name, vec![("secs", b("u64")), ("nanos", b("u64"))])
        }
        "time_duration" => (
            "time_duration",
            vec![("secs", b("i64")), ("nanos", b("i64"))],
        ),
        _ => return None,
    };
    Some(Shape::Record(
        name,
        fields
            .into_iter()
            .map(|(n, t)| (n, Node::Builtin(t)))
            .collect(),
    ))
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
    if let Some(record) = record(name) {
        return Ok(record);
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
        "range" | "range_inclusive" => {
            let t = one(name, args)?;
            let name = if name == "range" {
                "range"
            } else {
                "range_inclusive"
            };
            Shape::Record(
                name,
                vec![("start", Node::Schema(t)), ("end", Node::Schema(t))],
            )
        }
        "result" => {
            let (t, e) = two(name, args)?;
            Shape::ByteEnum(
                "Result",
                vec![
                    ("Ok", Some(Node::Schema(t))),
                    ("Err", Some(Node::Schema(e))),
                ],
            )
        }
        "bound" => {
            let t = one(name, args)?;
            Shape::ByteEnum(
                "Bound",
                vec![
                    ("Included", Some(Node::Schema(t))),
                    ("Excluded", Some(Node::Schema(t))),
                    ("Unbounded", None),
                ],
            )
        }
        "ip" => Shape::ByteEnum(
            "IpAddr",
            vec![
                ("V4", Some(Node::Builtin(b("ipv4")))),
                ("V6", Some(Node::Builtin(b("ipv6")))),
            ],
        ),
        "socket" => Shape::ByteEnum(
            "SocketAddr",
            vec![
                ("V4", Some(Node::Builtin(b("socket_v4")))),
                ("V6", Some(Node::Builtin(b("socket_v6")))),
            ],
        ),
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

/// The tag of `dyn<t1,T1,…>`'s pair `i`, and its type.
pub(super) fn dyn_entry(args: &[TypeRef], i: usize) -> Option<(u32, &TypeRef)> {
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
pub(super) fn wire_of(node: &TypeRef, schema: &Schema) -> Result<crate::tolerant::wire::Wire> {
    use crate::tolerant::wire::Wire;
    use crate::tolerant::wire::PACKED_ELEMENT;
    let scalar = |s: Scalar| match s {
        Scalar::U8 | Scalar::I8 | Scalar::Bool => Wire::Byte,
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
        Shape::Packed(..) => Wire::Seq(PACKED_ELEMENT),
        Shape::Seq(elem) => match node {
            TypeRef::Builtin { name, .. } if name == "seq" => Wire::seq_of(wire_of(elem, schema)?),
            _ => Wire::Framed,
        },
        Shape::Record("ordering", _) => Wire::Byte,
        _ => Wire::Framed,
    })
}
