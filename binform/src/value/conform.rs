//! Reading a loosely written value into a schema's exact shapes: the step
//! between a text format (JSON) and [`to_vec`](super::to_vec). Numbers of
//! any width (or as decimal strings) become the schema's integer or float,
//! objects (maps with string keys) become structs, records and variants,
//! and every range is checked. The shapes are those
//! [`Value`]'s `Display` and the CLI's JSON use:
//!
//! | schema | loose value |
//! |---|---|
//! | integers, floats | any number; a string of its digits (or `NaN`, `NaN:0x<bits>`, `inf`, `-inf`) |
//! | `char`, `string` | a string |
//! | bytes | bytes, or a sequence of numbers 0 … 255 |
//! | sequences, sets, arrays, tuples | a sequence |
//! | `map<K,V>` | a sequence of `[key, value]` pairs, or a map |
//! | `option<T>` | unit (JSON `null`) for `None`; else the value, or `{"Some": v}` when `T` is itself an option or unit |
//! | structs, records | a map from field names to values |
//! | variants | the variant's name (no fields), `{"Name": v}` (one unnamed field), or `{"Name": {fields}}` |
//! | shared values | `{"$shared": id, "value": v}`, `{"$ref": id}`, `{"$dangling": true}` |

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::builtin::{dyn_entry, shape, Node, Shape, NO_TYPES};
use super::scalar::{convert, loose_integer as integer, mismatch, Lenience, Scalar};
use super::Value;
use crate::schema::{Body, FieldDef, Schema, TypeRef};
use crate::{Error, Result};

/// `loose` in the exact shapes of `schema`, as a document.
pub(super) fn document(schema: &Schema, loose: &Value) -> Result<Value> {
    let value = Conform { schema }.value(&schema.root, loose.root())?;
    Ok(Value::Document {
        schema: Box::new(schema.clone()),
        value: Box::new(value),
    })
}

struct Conform<'s> {
    schema: &'s Schema,
}

#[cold]
fn wants(what: impl core::fmt::Display, got: &Value) -> Error {
    mismatch(Lenience::Loose, what, got)
}

/// The entries of a map with string keys (a JSON object).
fn object(v: &Value) -> Option<impl Iterator<Item = (&str, &Value)>> {
    match v {
        Value::Map(entries) => Some(entries.iter().filter_map(|(k, v)| match k {
            Value::String(k) => Some((k.as_str(), v)),
            _ => None,
        })),
        _ => None,
    }
}

fn member<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    object(v)?.find(|(k, _)| *k == name).map(|(_, v)| v)
}

/// An object's members by name: at their position first (JSON written by
/// the tool lists fields in schema order), else through an index built on
/// the first miss, so a wide object costs a logarithm a field.
struct Object<'v> {
    entries: &'v [(Value, Value)],
    index: Option<alloc::collections::BTreeMap<&'v str, usize>>,
}

impl<'v> Object<'v> {
    fn new(v: &'v Value) -> Self {
        let entries: &[(Value, Value)] = match v {
            Value::Map(entries) => entries,
            _ => &[],
        };
        Object {
            entries,
            index: None,
        }
    }

    fn get(&mut self, at: usize, name: &str) -> Option<&'v Value> {
        if let Some((Value::String(k), v)) = self.entries.get(at) {
            if k == name {
                return Some(v);
            }
        }
        let entries = self.entries;
        let index = self.index.get_or_insert_with(|| {
            let mut index = alloc::collections::BTreeMap::new();
            for (i, (k, _)) in entries.iter().enumerate() {
                if let Value::String(k) = k {
                    index.entry(k.as_str()).or_insert(i);
                }
            }
            index
        });
        index
            .get(name)
            .and_then(|&i| entries.get(i))
            .map(|(_, v)| v)
    }
}

/// The single entry of a one-entry object: `{"Name": value}`.
fn single(v: &Value) -> Option<(&str, &Value)> {
    let mut entries = object(v)?;
    let first = entries.next()?;
    entries.next().is_none().then_some(first)
}

impl<'s> Conform<'s> {
    fn value(&self, node: &TypeRef, v: &Value) -> Result<Value> {
        Ok(match shape(node, self.schema)? {
            Shape::Scalar(s) => convert(s, v, Lenience::Loose)?,
            Shape::NonZero(s) => {
                let x = convert(s, v, Lenience::Loose)?;
                if x.is_zero_integer() {
                    return Err(wants("a non-zero integer", v));
                }
                x
            }
            Shape::String => match v {
                Value::String(s) => Value::String(s.clone()),
                _ => return Err(wants("a string", v)),
            },
            Shape::Bytes => bytes(v, None)?,
            Shape::Seq(elem) => Value::Seq(self.items(v, None, |_| elem)?),
            Shape::Packed(s, nonzero) => Value::Seq(self.ints(s, nonzero, v, None)?),
            Shape::PackedArray(s, nonzero, n) => Value::Seq(self.ints(s, nonzero, v, Some(n))?),
            Shape::Array(elem, n) => {
                if matches!(shape(elem, self.schema)?, Shape::Scalar(Scalar::U8)) {
                    bytes(v, Some(n))?
                } else {
                    Value::Seq(self.items(v, Some(n), |_| elem)?)
                }
            }
            Shape::Tuple(types) => Value::Seq(self.items(v, Some(types.len()), |i| &types[i])?),
            Shape::Map(k, val) => {
                let mut out = Vec::new();
                match v {
                    Value::Seq(pairs) => {
                        for (i, pair) in pairs.iter().enumerate() {
                            let kv = match pair {
                                Value::Seq(kv) if kv.len() == 2 => kv,
                                _ => {
                                    return Err(wants("a [key, value] pair", pair)
                                        .in_field(&format!("[{i}]")))
                                }
                            };
                            let key = self
                                .value(k, &kv[0])
                                .map_err(|e| e.in_field(&format!("[key {i}]")))?;
                            let value = self
                                .value(val, &kv[1])
                                .map_err(|e| e.in_field(&format!("[{i}]")))?;
                            out.push((key, value));
                        }
                    }
                    Value::Map(entries) => {
                        for (i, (key, value)) in entries.iter().enumerate() {
                            let key = self
                                .value(k, key)
                                .map_err(|e| e.in_field(&format!("[key {i}]")))?;
                            let value = self
                                .value(val, value)
                                .map_err(|e| e.in_field(&format!("[{i}]")))?;
                            out.push((key, value));
                        }
                    }
                    _ => return Err(wants("a map", v)),
                }
                Value::Map(out)
            }
            Shape::Option(inner) => {
                let nests = matches!(
                    shape(inner, self.schema)?,
                    Shape::Option(_) | Shape::Scalar(Scalar::Unit)
                );
                match v {
                    Value::Unit | Value::Optional(None) => Value::Optional(None),
                    Value::Optional(Some(x)) => {
                        Value::Optional(Some(Box::new(self.value(inner, x)?)))
                    }
                    _ if nests => match single(v) {
                        Some(("Some", x)) => Value::Optional(Some(Box::new(self.value(inner, x)?))),
                        _ => return Err(wants("null or {\"Some\": …}", v)),
                    },
                    _ => Value::Optional(Some(Box::new(self.value(inner, v)?))),
                }
            }
            Shape::Shared(inner, weak) => {
                if let Some(id) = member(v, "$ref") {
                    Value::Reference(integer(id)?.try_into().map_err(|_| wants("an id", id))?)
                } else if let Some(id) = member(v, "$shared") {
                    let id = integer(id)?.try_into().map_err(|_| wants("an id", id))?;
                    let value = member(v, "value")
                        .ok_or_else(|| wants("{\"$shared\": id, \"value\": …}", v))?;
                    Value::Shared {
                        id,
                        value: Box::new(self.value(inner, value)?),
                    }
                } else if weak && member(v, "$dangling").is_some() {
                    Value::Dangling
                } else {
                    return Err(wants(
                        "{\"$shared\": id, \"value\": …} or {\"$ref\": id}",
                        v,
                    ));
                }
            }
            Shape::Record(name, fields) => {
                let mut out = Vec::new();
                for (field, node) in &fields {
                    let x = member(v, field)
                        .ok_or_else(|| wants(format!("a `{name}` with field `{field}`"), v))?;
                    let x = self
                        .node(node, x)
                        .map_err(|e| e.in_field(&format!(".{field}")))?;
                    out.push((field.to_string(), x));
                }
                Value::Struct {
                    name: name.to_string(),
                    fields: out,
                }
            }
            Shape::ByteEnum(name, variants) => {
                let (variant, inner) = variant_of(v)?;
                let Some((vname, node)) = variants.iter().find(|(n, _)| *n == variant) else {
                    return Err(wants(format!("a variant of `{name}`"), v));
                };
                let fields = match (node, inner) {
                    (None, None) => Vec::new(),
                    (Some(node), Some(x)) => alloc::vec![(
                        "0".to_string(),
                        self.node(node, x)
                            .map_err(|e| e.in_field(&format!("::{vname}")))?
                    )],
                    _ => return Err(wants(format!("`{name}::{vname}` with its value"), v)),
                };
                Value::Variant {
                    name: name.to_string(),
                    variant: vname.to_string(),
                    fields,
                }
            }
            Shape::Dyn(args) => {
                let (tag, inner) = variant_of(v)?;
                let entry = tag.parse::<u32>().ok().and_then(|t| {
                    (0..args.len() / 2)
                        .filter_map(|i| dyn_entry(args, i))
                        .find(|(x, _)| *x == t)
                });
                let (Some((tag, ty)), Some(x)) = (entry, inner) else {
                    return Err(wants("{\"<registered tag>\": value}", v));
                };
                Value::Variant {
                    name: "dyn".to_string(),
                    variant: tag.to_string(),
                    fields: alloc::vec![("0".to_string(), self.value(ty, x)?)],
                }
            }
            Shape::Named(def) => match &def.body {
                Body::Struct(fields) => Value::Struct {
                    name: def.name.clone(),
                    fields: self.fields(fields, v)?,
                },
                Body::Enum(variants) => {
                    let (variant, inner) = variant_of(v)?;
                    let Some(vd) = variants.iter().find(|d| d.name == variant) else {
                        return Err(wants(format!("a variant of `{}`", def.name), v));
                    };
                    let fields = match (vd.fields.as_slice(), inner) {
                        ([], None) => Vec::new(),
                        ([only], Some(x)) if only.name == "0" => {
                            alloc::vec![(
                                "0".to_string(),
                                self.value(&only.schema, x)
                                    .map_err(|e| e.in_field(&format!("::{variant}")))?
                            )]
                        }
                        (defs, Some(x)) => self
                            .fields(defs, x)
                            .map_err(|e| e.in_field(&format!("::{variant}")))?,
                        (_, None) => {
                            return Err(wants(
                                format!("`{}::{variant}` with its fields", def.name),
                                v,
                            ))
                        }
                    };
                    Value::Variant {
                        name: def.name.clone(),
                        variant: variant.to_string(),
                        fields,
                    }
                }
            },
        })
    }

    fn node(&self, node: &Node<'_>, v: &Value) -> Result<Value> {
        match node {
            Node::Schema(ty) => self.value(ty, v),
            Node::Builtin(ty) => Conform { schema: &NO_TYPES }.value(ty, v),
        }
    }

    fn fields(&self, defs: &[FieldDef], v: &Value) -> Result<Vec<(String, Value)>> {
        let mut out = Vec::new();
        let mut object = Object::new(v);
        for (i, def) in defs.iter().enumerate() {
            let x = object
                .get(i, &def.name)
                .ok_or_else(|| wants(format!("an object with field `{}`", def.name), v))?;
            let x = self
                .value(&def.schema, x)
                .map_err(|e| e.in_field(&format!(".{}", def.name)))?;
            out.push((def.name.clone(), x));
        }
        Ok(out)
    }

    fn items<'t>(
        &self,
        v: &Value,
        n: Option<usize>,
        ty: impl Fn(usize) -> &'t TypeRef,
    ) -> Result<Vec<Value>> {
        seq(v, n, "a sequence", "elements")?
            .iter()
            .enumerate()
            .map(|(i, item)| {
                self.value(ty(i), item)
                    .map_err(|e| e.in_field(&format!("[{i}]")))
            })
            .collect()
    }

    fn ints(&self, s: Scalar, nonzero: bool, v: &Value, n: Option<usize>) -> Result<Vec<Value>> {
        seq(v, n, "a sequence of integers", "integers")?
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let x =
                    convert(s, item, Lenience::Loose).map_err(|e| e.in_field(&format!("[{i}]")))?;
                if nonzero && x.is_zero_integer() {
                    return Err(wants("a non-zero integer", item).in_field(&format!("[{i}]")));
                }
                Ok(x)
            })
            .collect()
    }
}

/// A variant written as its name, or as `{"Name": inner}`.
fn variant_of(v: &Value) -> Result<(&str, Option<&Value>)> {
    match v {
        Value::String(name) => Ok((name, None)),
        _ => single(v)
            .map(|(name, inner)| (name, Some(inner)))
            .ok_or_else(|| wants("a variant: its name, or {\"Name\": value}", v)),
    }
}

fn bytes(v: &Value, n: Option<usize>) -> Result<Value> {
    let out: Vec<u8> = match v {
        Value::Bytes(b) => b.clone(),
        Value::Seq(items) => items
            .iter()
            .map(|x| {
                integer(x)
                    .ok()
                    .and_then(|x| u8::try_from(x).ok())
                    .ok_or_else(|| wants("a byte", x))
            })
            .collect::<Result<_>>()?,
        _ => return Err(wants("bytes", v)),
    };
    if n.is_some_and(|n| n != out.len()) {
        return Err(wants(format!("{} bytes", n.unwrap_or(0)), v));
    }
    Ok(Value::Bytes(out))
}

/// `v`'s items, exactly `n` of them when `n` is given (`what` names the
/// sequence, `unit` its elements, in the error).
fn seq<'v>(v: &'v Value, n: Option<usize>, what: &str, unit: &str) -> Result<&'v [Value]> {
    let Value::Seq(items) = v else {
        return Err(wants(what, v));
    };
    if n.is_some_and(|n| n != items.len()) {
        return Err(wants(format!("{} {unit}", n.unwrap_or(0)), v));
    }
    Ok(items)
}
