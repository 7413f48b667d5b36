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
//! | UUIDs, dates and times, decimals, IP and socket addresses | also their text form ([`Value::text`]) |

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::builtin::{shape, DynTags, Shape, NO_TYPES};
use super::scalar::{loose_integer as integer, mismatch, Lenience, Scalar};
use super::text;
use super::walk::Walk;
use super::Value;
use crate::schema::{Body, FieldDef, Schema, TypeDef, TypeRef};
use crate::{Error, Result};

/// `loose` in the exact shapes of `schema`, as a document.
pub(super) fn document(schema: &Schema, loose: &Value) -> Result<Value> {
    let tags = DynTags::default();
    let value = Conform {
        schema,
        tags: &tags,
    }
    .value(&schema.root, loose.root())?;
    Ok(Value::Document {
        schema: Box::new(schema.clone()),
        value: Box::new(value),
    })
}

struct Conform<'s> {
    schema: &'s Schema,
    tags: &'s DynTags,
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

impl Walk for Conform<'_> {
    const HOW: Lenience = Lenience::Loose;

    fn schema(&self) -> &Schema {
        self.schema
    }

    fn builtin(&self) -> Self {
        Conform {
            schema: &NO_TYPES,
            tags: self.tags,
        }
    }

    fn dyn_tags(&self) -> &DynTags {
        self.tags
    }

    /// Each level on a grown stack when the stack runs low: a loose value
    /// built by hand may nest deeper than any decoder would allow.
    fn value(&self, node: &TypeRef, v: &Value) -> Result<Value> {
        crate::stack::grow(|| self.walk(node, v))
    }

    /// JSON's `null` is `None`; an option of an option (or of unit) spells
    /// its `Some` out, `{"Some": v}`, so the two `None`s stay apart.
    fn option(&self, inner: &TypeRef, v: &Value) -> Result<Value> {
        let some = |x| Ok(Value::Optional(Some(Box::new(self.value(inner, x)?))));
        let nests = matches!(
            shape(inner, self.schema)?,
            Shape::Option(_) | Shape::Scalar(Scalar::Unit)
        );
        match v {
            Value::Unit | Value::Optional(None) => Ok(Value::Optional(None)),
            Value::Optional(Some(x)) => some(x),
            _ if nests => match single(v) {
                Some(("Some", x)) => some(x),
                _ => Err(wants("null or {\"Some\": …}", v)),
            },
            _ => some(v),
        }
    }

    /// `{"$shared": id, "value": v}`, `{"$ref": id}`, `{"$dangling": true}`.
    fn shared(&self, inner: &TypeRef, weak: bool, v: &Value) -> Result<Value> {
        let id = |id: &Value| integer(id)?.try_into().map_err(|_| wants("an id", id));
        if let Some(at) = member(v, "$ref") {
            return Ok(Value::Reference(id(at)?));
        }
        if let Some(at) = member(v, "$shared") {
            let value =
                member(v, "value").ok_or_else(|| wants("{\"$shared\": id, \"value\": …}", v))?;
            return Ok(Value::Shared {
                id: id(at)?,
                value: Box::new(self.value(inner, value)?),
            });
        }
        if weak && member(v, "$dangling").is_some() {
            return Ok(Value::Dangling);
        }
        Err(wants(
            "{\"$shared\": id, \"value\": …} or {\"$ref\": id}",
            v,
        ))
    }

    fn member<'v>(&self, v: &'v Value, field: &str) -> Option<&'v Value> {
        member(v, field)
    }

    fn variant<'v>(&self, v: &'v Value) -> Result<(&'v str, Option<&'v Value>)> {
        variant_of(v)
    }

    /// A built-in's text form (a UUID's hex, a date in RFC 3339, …).
    fn text(&self, name: &str, v: &Value) -> Result<Option<Value>> {
        match v {
            Value::String(s) if text::has_text(name) => text::parse(name, s)
                .map(Some)
                .ok_or_else(|| wants(format!("a `{name}` (its text form, or its fields)"), v)),
            _ => Ok(None),
        }
    }

    /// A struct as an object of its fields by name; a variant as its name,
    /// `{"Name": v}` (one unnamed field) or `{"Name": {fields}}`.
    fn named(&self, def: &TypeDef, v: &Value) -> Result<Value> {
        // A derived type shaped and named as a built-in with a text form
        // (a user's own `IpAddr` enum) prints as that text: read it back
        // through the built-in's fields.
        if let Value::String(s) = v {
            let is_variant = matches!(&def.body, Body::Enum(vs) if vs.iter().any(|d| d.name == *s));
            if !is_variant && text::has_text(&def.name) {
                if let Some(parsed) = text::parse(&def.name, s) {
                    return self.named(def, &text::loosen(parsed));
                }
            }
        }
        Ok(match &def.body {
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
        })
    }
}

impl Conform<'_> {
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
