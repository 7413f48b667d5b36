//! One walk over a schema's shapes that builds a [`Value`] in them from
//! another value, for the two readers of values: [`conform`](super::conform)
//! (a loosely written value, as from JSON) and [`resolve`](super::resolve)
//! (the value of another version of the type). The walk is the shape
//! dispatch and everything the two read alike (scalars, strings, bytes,
//! sequences, packed integers, arrays, tuples, maps, built-in records and
//! byte-tagged enums, trait objects); each reader says, through [`Walk`],
//! how it reads what differs: options, shared values, records' members,
//! variants, and derived types.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::builtin::{shape, DynTags, Node, Shape};
use super::scalar::{convert, mismatch, Lenience, Scalar};
use super::{Value, PAIR_SIZE, VALUE_SIZE};
use crate::schema::{Schema, TypeDef, TypeRef};
use crate::{Error, ErrorKind, Result};

/// A reader of values in a schema's shapes: what it reads its own way;
/// [`walk`](Walk::walk) does the rest.
pub(super) trait Walk: Sized {
    /// How scalars convert, and how errors are worded.
    const HOW: Lenience;

    /// The schema whose derived types the walk knows.
    fn schema(&self) -> &Schema;

    /// The same reader over a built-in's own nodes (no derived types).
    fn builtin(&self) -> Self;

    /// The walk's index of trait-object tags.
    fn dyn_tags(&self) -> &DynTags;

    /// Charges `n` bytes about to be built besides the values
    /// [`value`](Walk::value) pays for: copied strings and bytes, integers
    /// of packed sequences, field pairs and names (a reader with a memory
    /// budget overrides it).
    fn charge_bytes(&self, _n: usize) -> Result<()> {
        Ok(())
    }

    /// `v` as the type `node`: [`walk`](Walk::walk), with whatever the
    /// reader does around each value (charging a budget, growing the
    /// stack).
    fn value(&self, node: &TypeRef, v: &Value) -> Result<Value> {
        self.walk(node, v)
    }

    /// `v` as an option of `inner`.
    fn option(&self, inner: &TypeRef, v: &Value) -> Result<Value>;

    /// `v` as a shared value (or reference, or dangling `Weak` if `weak`)
    /// of `inner`.
    fn shared(&self, inner: &TypeRef, weak: bool, v: &Value) -> Result<Value>;

    /// The member `field` of the record `v`.
    fn member<'v>(&self, v: &'v Value, field: &str) -> Option<&'v Value>;

    /// The variant `v` names, and its value if it has one.
    fn variant<'v>(&self, v: &'v Value) -> Result<(&'v str, Option<&'v Value>)>;

    /// `v` as the derived type `def`.
    fn named(&self, def: &TypeDef, v: &Value) -> Result<Value>;

    /// `v` as the built-in `name` if the reader takes `v` as its text
    /// form ([`Value::text`]); `None` to read `v` by its fields.
    fn text(&self, _name: &str, _v: &Value) -> Result<Option<Value>> {
        Ok(None)
    }

    /// The error of a value that is not `what` was expected.
    #[cold]
    fn wrong(&self, what: impl core::fmt::Display, got: &Value) -> Error {
        mismatch(Self::HOW, what, got)
    }

    /// [`value`](Walk::value) for a value whose slot was paid for with
    /// [`charge_bytes`](Walk::charge_bytes) before its vector was
    /// allocated (a reader that charges each value overrides it).
    fn value_in_slot(&self, node: &TypeRef, v: &Value) -> Result<Value> {
        self.value(node, v)
    }

    /// `v` in the shape of `node`.
    fn walk(&self, node: &TypeRef, v: &Value) -> Result<Value> {
        Ok(match shape(node, self.schema())? {
            Shape::Scalar(s) => convert(s, v, Self::HOW)?,
            Shape::NonZero(s) => nonzero(self, s, v)?,
            Shape::String => match v {
                Value::String(s) => {
                    self.charge_bytes(s.len())?;
                    Value::String(s.clone())
                }
                _ => return Err(self.wrong("a string", v)),
            },
            Shape::Bytes => bytes(self, v, None)?,
            Shape::Seq(elem) => Value::Seq(self.items(v, None, |_| elem)?),
            Shape::Packed(s, nonzero) => Value::Seq(self.ints(s, nonzero, v, None)?),
            Shape::PackedArray(s, nonzero, n) => Value::Seq(self.ints(s, nonzero, v, Some(n))?),
            Shape::Array(elem, n) => {
                if matches!(shape(elem, self.schema())?, Shape::Scalar(Scalar::U8)) {
                    bytes(self, v, Some(n))?
                } else {
                    Value::Seq(self.items(v, Some(n), |_| elem)?)
                }
            }
            Shape::Tuple(types) => Value::Seq(self.items(v, Some(types.len()), |i| &types[i])?),
            Shape::Map(k, val) => {
                let entries = entries(self, v)?;
                // The entries' slots, before they are allocated.
                self.charge_bytes(entries.len().saturating_mul(2 * VALUE_SIZE))?;
                let mut out = Vec::with_capacity(entries.len());
                for (i, (key, value)) in entries.into_iter().enumerate() {
                    let key = self
                        .value_in_slot(k, key)
                        .map_err(|e| e.in_field(&format!("[key {i}]")))?;
                    let value = self
                        .value_in_slot(val, value)
                        .map_err(|e| e.in_field(&format!("[{i}]")))?;
                    out.push((key, value));
                }
                Value::Map(out)
            }
            Shape::Option(inner) => self.option(inner, v)?,
            Shape::Shared(inner, weak) => self.shared(inner, weak, v)?,
            Shape::Record(name, fields) => {
                if let Some(parsed) = self.text(name, v)? {
                    return Ok(parsed);
                }
                let names: usize = fields.iter().map(|(f, _)| f.len()).sum();
                self.charge_bytes(
                    fields
                        .len()
                        .saturating_mul(PAIR_SIZE - VALUE_SIZE)
                        .saturating_add(names + name.len()),
                )?;
                let mut out = Vec::with_capacity(fields.len());
                for (field, node) in &fields {
                    let x = self
                        .member(v, field)
                        .ok_or_else(|| self.wrong(format!("a `{name}` with field `{field}`"), v))?;
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
                if let Some(parsed) = self.text(name, v)? {
                    return Ok(parsed);
                }
                let (variant, inner) = self.variant(v)?;
                let Some((vname, node)) = variants.iter().find(|(n, _)| *n == variant) else {
                    return Err(self.wrong(format!("a variant of `{name}`"), v));
                };
                let fields = match (node, inner) {
                    (None, _) => Vec::new(),
                    (Some(node), Some(x)) => alloc::vec![(
                        "0".to_string(),
                        self.node(node, x)
                            .map_err(|e| e.in_field(&format!("::{vname}")))?
                    )],
                    (Some(_), None) => {
                        return Err(self.wrong(format!("`{name}::{vname}` with its value"), v))
                    }
                };
                Value::Variant {
                    name: name.to_string(),
                    variant: vname.to_string(),
                    fields,
                }
            }
            Shape::Dyn(args) => {
                // The tag names a registered type; its value is read as
                // that type like any other.
                let (tag, inner) = self.variant(v)?;
                let entry = tag
                    .parse::<u32>()
                    .ok()
                    .and_then(|t| self.dyn_tags().find(args, t));
                let Some((tag, ty)) = entry else {
                    return Err(Error::new(
                        ErrorKind::UnknownVariant,
                        format!("no registered type has the tag {tag}"),
                    ));
                };
                let x = inner.ok_or_else(|| self.wrong("a registered type's value", v))?;
                Value::Variant {
                    name: "dyn".to_string(),
                    variant: tag.to_string(),
                    fields: alloc::vec![("0".to_string(), self.value(ty, x)?)],
                }
            }
            Shape::Named(def) => self.named(def, v)?,
        })
    }

    /// `v` as a node of a built-in's shape: the schema's type, or one of
    /// the built-in's own.
    fn node(&self, node: &Node<'_>, v: &Value) -> Result<Value> {
        match node {
            Node::Schema(ty) => self.value(ty, v),
            Node::Builtin(ty) => self.builtin().value(ty, v),
        }
    }

    /// The items of the sequence `v` as the types `ty` gives by position,
    /// exactly `n` of them when `n` is given. The vector is allocated
    /// once, at its length, its slots charged first (collecting through
    /// `Result` grew it by doubling past what was charged, and allocating
    /// before charging let a long sequence claim its slots unpaid).
    fn items<'t>(
        &self,
        v: &Value,
        n: Option<usize>,
        ty: impl Fn(usize) -> &'t TypeRef,
    ) -> Result<Vec<Value>> {
        let items = sequence(self, v, n)?;
        self.charge_bytes(items.len().saturating_mul(VALUE_SIZE))?;
        let mut out = Vec::with_capacity(items.len());
        for i in 0..items.len() {
            let item = items.get(i);
            out.push(
                self.value_in_slot(ty(i), &item)
                    .map_err(|e| e.in_field(&format!("[{i}]")))?,
            );
        }
        Ok(out)
    }

    /// The items of `v` as integers `s` (none of them zero if `nonzero`),
    /// charged as values before they are built.
    fn ints(&self, s: Scalar, nonzero: bool, v: &Value, n: Option<usize>) -> Result<Vec<Value>> {
        let items = sequence(self, v, n)?;
        self.charge_bytes(items.len().saturating_mul(VALUE_SIZE))?;
        let mut out = Vec::with_capacity(items.len());
        for i in 0..items.len() {
            let item = items.get(i);
            let at = |e: Error| e.in_field(&format!("[{i}]"));
            let x = convert(s, &item, Self::HOW).map_err(at)?;
            if nonzero && x.is_zero_integer() {
                return Err(at(self.wrong("a non-zero integer", &item)));
            }
            out.push(x);
        }
        Ok(out)
    }
}

/// `v` as a non-zero integer `s`.
fn nonzero<W: Walk>(w: &W, s: Scalar, v: &Value) -> Result<Value> {
    let x = convert(s, v, W::HOW)?;
    if x.is_zero_integer() {
        return Err(w.wrong("a non-zero integer", v));
    }
    Ok(x)
}

/// The items of a sequence value: its values, or a byte string's bytes
/// as `u8` values made one at a time (a copy of them all as values cost
/// the size of a value per input byte, uncharged).
enum Items<'v> {
    Values(&'v [Value]),
    Bytes(&'v [u8]),
}

impl Items<'_> {
    fn len(&self) -> usize {
        match self {
            Items::Values(v) => v.len(),
            Items::Bytes(b) => b.len(),
        }
    }

    /// Item `i` (< `len()`).
    fn get(&self, i: usize) -> Cow<'_, Value> {
        match self {
            Items::Values(v) => v.get(i).map_or(Cow::Owned(Value::Unit), Cow::Borrowed),
            Items::Bytes(b) => Cow::Owned(Value::U8(b.get(i).copied().unwrap_or_default())),
        }
    }
}

/// The items of a sequence (a byte string's are its bytes), exactly `n` of
/// them when `n` is given.
fn sequence<'v, W: Walk>(w: &W, v: &'v Value, n: Option<usize>) -> Result<Items<'v>> {
    let items = match v {
        Value::Seq(items) => Items::Values(items),
        Value::Bytes(b) => Items::Bytes(b),
        _ => return Err(w.wrong("a sequence", v)),
    };
    match n {
        Some(n) if n != items.len() => Err(w.wrong(format!("a sequence of {n}"), v)),
        _ => Ok(items),
    }
}

/// A byte string (or a sequence of bytes), exactly `n` bytes when given.
fn bytes<W: Walk>(w: &W, v: &Value, n: Option<usize>) -> Result<Value> {
    match v {
        Value::Bytes(b) => w.charge_bytes(b.len())?,
        Value::Seq(items) => w.charge_bytes(items.len())?,
        _ => {}
    }
    let out: Vec<u8> = match v {
        Value::Bytes(b) => b.clone(),
        Value::Seq(items) => items
            .iter()
            .map(|x| match convert(Scalar::U8, x, W::HOW)? {
                Value::U8(b) => Ok(b),
                _ => Err(w.wrong("a byte", x)),
            })
            .collect::<Result<_>>()?,
        _ => return Err(w.wrong("bytes", v)),
    };
    match n {
        Some(n) if n != out.len() => Err(w.wrong(format!("{n} bytes"), v)),
        _ => Ok(Value::Bytes(out)),
    }
}

/// A map's entries: a map's, or a sequence of `[key, value]` pairs'.
fn entries<'v, W: Walk>(w: &W, v: &'v Value) -> Result<Vec<(&'v Value, &'v Value)>> {
    match v {
        Value::Map(entries) => Ok(entries.iter().map(|(k, x)| (k, x)).collect()),
        Value::Seq(pairs) => pairs
            .iter()
            .enumerate()
            .map(|(i, pair)| match pair {
                Value::Seq(kv) => match kv.as_slice() {
                    [k, x] => Ok((k, x)),
                    _ => Err(w
                        .wrong("a [key, value] pair", pair)
                        .in_field(&format!("[{i}]"))),
                },
                _ => Err(w
                    .wrong("a [key, value] pair", pair)
                    .in_field(&format!("[{i}]"))),
            })
            .collect(),
        _ => Err(w.wrong("a map", v)),
    }
}
