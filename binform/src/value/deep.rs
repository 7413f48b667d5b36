//! `Clone`, `Debug` and `PartialEq` for [`Value`] that survive any depth a
//! decoder builds: each level runs on a grown stack when the stack runs
//! low (as `Display` and the decoder do), and `Debug` prints `…` past
//! [`MAX_DEPTH`] levels, so `{:#?}`'s indentation cannot make the output
//! quadratic. Derived, they recursed a frame a level: a 1,168-byte
//! document decoded fine and then overflowed a 2 MiB thread when printed
//! with `{:?}` or cloned.
//!
//! Without `std` there is no stack to grow onto: the depth limits of
//! decoding are then the bound.

use alloc::boxed::Box;
use core::fmt;

use super::Value;
use crate::stack::grow;

/// Deeper than this, `Debug` prints a subtree as `…`.
const MAX_DEPTH: usize = 512;

impl Clone for Value {
    fn clone(&self) -> Self {
        grow(|| match self {
            Value::Unit => Value::Unit,
            Value::Bool(x) => Value::Bool(*x),
            Value::U8(x) => Value::U8(*x),
            Value::U16(x) => Value::U16(*x),
            Value::U32(x) => Value::U32(*x),
            Value::U64(x) => Value::U64(*x),
            Value::U128(x) => Value::U128(*x),
            Value::I8(x) => Value::I8(*x),
            Value::I16(x) => Value::I16(*x),
            Value::I32(x) => Value::I32(*x),
            Value::I64(x) => Value::I64(*x),
            Value::I128(x) => Value::I128(*x),
            Value::F32(x) => Value::F32(*x),
            Value::F64(x) => Value::F64(*x),
            Value::Char(x) => Value::Char(*x),
            Value::String(x) => Value::String(x.clone()),
            Value::Bytes(x) => Value::Bytes(x.clone()),
            Value::Seq(items) => Value::Seq(items.clone()),
            Value::Map(entries) => Value::Map(entries.clone()),
            Value::Optional(inner) => Value::Optional(inner.clone()),
            Value::Struct { name, fields } => Value::Struct {
                name: name.clone(),
                fields: fields.clone(),
            },
            Value::Variant {
                name,
                variant,
                fields,
            } => Value::Variant {
                name: name.clone(),
                variant: variant.clone(),
                fields: fields.clone(),
            },
            Value::Shared { id, value } => Value::Shared {
                id: *id,
                value: value.clone(),
            },
            Value::Reference(id) => Value::Reference(*id),
            Value::Dangling => Value::Dangling,
            Value::Document { schema, value } => Value::Document {
                schema: schema.clone(),
                value: Box::new((**value).clone()),
            },
        })
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        grow(|| match (self, other) {
            (Value::Unit, Value::Unit) | (Value::Dangling, Value::Dangling) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::U8(a), Value::U8(b)) => a == b,
            (Value::U16(a), Value::U16(b)) => a == b,
            (Value::U32(a), Value::U32(b)) => a == b,
            (Value::U64(a), Value::U64(b)) => a == b,
            (Value::U128(a), Value::U128(b)) => a == b,
            (Value::I8(a), Value::I8(b)) => a == b,
            (Value::I16(a), Value::I16(b)) => a == b,
            (Value::I32(a), Value::I32(b)) => a == b,
            (Value::I64(a), Value::I64(b)) => a == b,
            (Value::I128(a), Value::I128(b)) => a == b,
            (Value::F32(a), Value::F32(b)) => a == b,
            (Value::F64(a), Value::F64(b)) => a == b,
            (Value::Char(a), Value::Char(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Bytes(a), Value::Bytes(b)) => a == b,
            (Value::Seq(a), Value::Seq(b)) => a == b,
            (Value::Map(a), Value::Map(b)) => a == b,
            (Value::Optional(a), Value::Optional(b)) => a == b,
            (
                Value::Struct { name, fields },
                Value::Struct {
                    name: name_b,
                    fields: fields_b,
                },
            ) => name == name_b && fields == fields_b,
            (
                Value::Variant {
                    name,
                    variant,
                    fields,
                },
                Value::Variant {
                    name: name_b,
                    variant: variant_b,
                    fields: fields_b,
                },
            ) => name == name_b && variant == variant_b && fields == fields_b,
            (
                Value::Shared { id, value },
                Value::Shared {
                    id: id_b,
                    value: value_b,
                },
            ) => id == id_b && value == value_b,
            (Value::Reference(a), Value::Reference(b)) => a == b,
            (
                Value::Document { schema, value },
                Value::Document {
                    schema: schema_b,
                    value: value_b,
                },
            ) => schema == schema_b && value == value_b,
            _ => false,
        })
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Deep(self, 0).fmt(f)
    }
}

/// A value at a depth, for `Debug`.
struct Deep<'a>(&'a Value, usize);

/// A field `(name, value)` at a depth, printed as the derive prints a pair.
struct Pair<'a>(&'a str, &'a Value, usize);

impl fmt::Debug for Pair<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("")
            .field(&self.0)
            .field(&Deep(self.1, self.2))
            .finish()
    }
}

impl fmt::Debug for Deep<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Deep(v, depth) = *self;
        if depth > MAX_DEPTH {
            return f.write_str("…");
        }
        let d = depth + 1;
        grow(|| match v {
            Value::Unit => f.write_str("Unit"),
            Value::Bool(x) => f.debug_tuple("Bool").field(x).finish(),
            Value::U8(x) => f.debug_tuple("U8").field(x).finish(),
            Value::U16(x) => f.debug_tuple("U16").field(x).finish(),
            Value::U32(x) => f.debug_tuple("U32").field(x).finish(),
            Value::U64(x) => f.debug_tuple("U64").field(x).finish(),
            Value::U128(x) => f.debug_tuple("U128").field(x).finish(),
            Value::I8(x) => f.debug_tuple("I8").field(x).finish(),
            Value::I16(x) => f.debug_tuple("I16").field(x).finish(),
            Value::I32(x) => f.debug_tuple("I32").field(x).finish(),
            Value::I64(x) => f.debug_tuple("I64").field(x).finish(),
            Value::I128(x) => f.debug_tuple("I128").field(x).finish(),
            Value::F32(x) => f.debug_tuple("F32").field(x).finish(),
            Value::F64(x) => f.debug_tuple("F64").field(x).finish(),
            Value::Char(x) => f.debug_tuple("Char").field(x).finish(),
            Value::String(x) => f.debug_tuple("String").field(x).finish(),
            Value::Bytes(x) => f.debug_tuple("Bytes").field(x).finish(),
            Value::Seq(items) => f
                .debug_tuple("Seq")
                .field(&List(items.iter().map(|v| Deep(v, d))))
                .finish(),
            Value::Map(entries) => f
                .debug_tuple("Map")
                .field(&List(entries.iter().map(|(k, v)| (Deep(k, d), Deep(v, d)))))
                .finish(),
            Value::Optional(None) => f.debug_tuple("Optional").field(&None::<()>).finish(),
            Value::Optional(Some(inner)) => f
                .debug_tuple("Optional")
                .field(&Some(Deep(inner, d)))
                .finish(),
            Value::Struct { name, fields } => f
                .debug_struct("Struct")
                .field("name", name)
                .field("fields", &List(fields.iter().map(|(n, v)| Pair(n, v, d))))
                .finish(),
            Value::Variant {
                name,
                variant,
                fields,
            } => f
                .debug_struct("Variant")
                .field("name", name)
                .field("variant", variant)
                .field("fields", &List(fields.iter().map(|(n, v)| Pair(n, v, d))))
                .finish(),
            Value::Shared { id, value } => f
                .debug_struct("Shared")
                .field("id", id)
                .field("value", &Deep(value, d))
                .finish(),
            Value::Reference(id) => f.debug_tuple("Reference").field(id).finish(),
            Value::Dangling => f.write_str("Dangling"),
            Value::Document { schema, value } => f
                .debug_struct("Document")
                .field("schema", schema)
                .field("value", &Deep(value, d))
                .finish(),
        })
    }
}

/// Items printed as a list, from an iterator that can be walked again.
struct List<I>(I);

impl<I, T> fmt::Debug for List<I>
where
    I: Iterator<Item = T> + Clone,
    T: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.clone()).finish()
    }
}
