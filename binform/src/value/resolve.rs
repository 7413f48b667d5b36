//! Reading a payload written by another version of a type: the writer's
//! document (its schema is in the payload) is matched to the reader's
//! schema by name, as Avro resolves a writer's schema against a reader's,
//! then written in the reader's encoding and decoded as the reader's type.
//!
//! - Struct fields and enum variants match by name; between two tolerant
//!   types, by tag first (so a field renamed under the same tag keeps its
//!   value).
//! - A field the reader lacks is dropped. A field the writer lacked: in a
//!   tolerant reader, the reader's `Default` or `default = ...` (the typed
//!   decoder fills it; a `required` one is `MissingField`); in a compact
//!   reader, its type's zero value (0, `false`, `""`, empty, `None`, a
//!   struct of zeros, an enum's first variant without fields).
//! - Integers convert to any integer type that holds the value, floats
//!   widen, `T` becomes `Option<T>` (as `Some`); anything else that cannot
//!   be lossless is an error naming the field path.

use super::{PAIR_SIZE, VALUE_SIZE};
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use super::builtin::{shape, DynTags, Shape, NO_TYPES};
use super::scalar::{self as scalars, mismatch, Lenience};
use super::walk::Walk;
use super::Value;
use crate::schema::{Body, FieldDef, Schema, TypeDef, TypeRef};
use crate::{Error, ErrorKind, Result};

/// `value` (a document of the writer's `writer` schema) in the shapes of
/// the reader's `reader` schema.
pub(super) fn resolve(
    writer: &Schema,
    reader: &Schema,
    value: &Value,
    budget: usize,
) -> Result<(Value, usize)> {
    let mut shared = BTreeMap::new();
    index_shared(value.root(), &mut shared);
    let wanted = RefCell::new(BTreeMap::new());
    let state = State {
        budget: Cell::new(budget),
        their_tags: RefCell::new(BTreeMap::new()),
        their_variants: RefCell::new(BTreeMap::new()),
        dyn_tags: DynTags::default(),
    };
    let resolver = Resolver {
        writer,
        reader,
        shared: &shared,
        wanted: &wanted,
        state: &state,
    };
    let mut out = resolver.value(&reader.root, value.root())?;
    // The reader may have dropped the field that defined a shared value,
    // or moved it after a reference to it: number the shared values again
    // in the reader's order, defining each at its first occurrence.
    let mut ids = Renumber {
        resolver: &resolver,
        map: BTreeMap::new(),
        next: 0,
    };
    ids.walk(&mut out)?;
    Ok((out, state.budget.get()))
}

/// The writer's shared values by id. The walk keeps a stack of child
/// lists being read, one a level, not of the children themselves (a
/// stack of every element of a wide document cost a pointer an element,
/// uncharged).
pub(super) fn index_shared<'v>(root: &'v Value, into: &mut BTreeMap<u64, &'v Value>) {
    let mut stack: Vec<Kids<'v>> = alloc::vec![Kids::One(Some(root))];
    while let Some(top) = stack.last_mut() {
        let Some(v) = top.next() else {
            stack.pop();
            continue;
        };
        if let Value::Shared { id, value } = v {
            into.insert(*id, value);
        }
        if let Some(kids) = Kids::of(v) {
            stack.push(kids);
        }
    }
}

/// The children of a value being walked, as a list.
enum Kids<'v> {
    One(Option<&'v Value>),
    Values(core::slice::Iter<'v, Value>),
    Pairs(core::slice::Iter<'v, (Value, Value)>, Option<&'v Value>),
    Fields(core::slice::Iter<'v, (String, Value)>),
}

impl<'v> Kids<'v> {
    fn of(v: &'v Value) -> Option<Self> {
        Some(match v {
            Value::Shared { value, .. } | Value::Document { value, .. } => Kids::One(Some(value)),
            Value::Optional(Some(x)) => Kids::One(Some(x)),
            Value::Seq(items) if !items.is_empty() => Kids::Values(items.iter()),
            Value::Map(entries) if !entries.is_empty() => Kids::Pairs(entries.iter(), None),
            Value::Struct { fields, .. } | Value::Variant { fields, .. } if !fields.is_empty() => {
                Kids::Fields(fields.iter())
            }
            _ => return None,
        })
    }

    fn next(&mut self) -> Option<&'v Value> {
        match self {
            Kids::One(only) => only.take(),
            Kids::Values(items) => items.next(),
            Kids::Pairs(entries, value) => value.take().or_else(|| {
                let (k, v) = entries.next()?;
                *value = Some(v);
                Some(k)
            }),
            Kids::Fields(fields) => fields.next().map(|(_, v)| v),
        }
    }
}

/// Numbers shared values in the order the reader's encoding meets them.
struct Renumber<'r, 's, 'v> {
    resolver: &'r Resolver<'s, 'v>,
    /// Writer's id to reader's id.
    map: BTreeMap<u64, u64>,
    next: u64,
}

impl Renumber<'_, '_, '_> {
    fn walk(&mut self, v: &mut Value) -> Result<()> {
        crate::stack::grow(|| self.walk_here(v))
    }

    fn walk_here(&mut self, v: &mut Value) -> Result<()> {
        match v {
            Value::Shared { id, value } => match self.map.get(id) {
                // Defined earlier in the reader's order: a reference now.
                Some(&n) => *v = Value::Reference(n),
                None => {
                    self.map.insert(*id, self.next);
                    *id = self.next;
                    self.next += 1;
                    self.walk(value)?;
                }
            },
            Value::Reference(old) => match self.map.get(old) {
                Some(&n) => *old = n,
                None => {
                    // Its definition was dropped or comes later: define it
                    // here, from the writer's value, as the reader's type.
                    let old = *old;
                    let target = self.resolver.shared.get(&old).copied();
                    let ty = self.resolver.wanted.borrow().get(&old).cloned();
                    let (Some(target), Some(ty)) = (target, ty) else {
                        return Err(Error::new(
                            ErrorKind::InvalidReference,
                            format!("reference to shared value {old}, which the payload does not define"),
                        ));
                    };
                    let n = self.next;
                    self.map.insert(old, n);
                    self.next += 1;
                    let mut value = self.resolver.value(&ty, target)?;
                    self.walk(&mut value)?;
                    *v = Value::Shared {
                        id: n,
                        value: Box::new(value),
                    };
                }
            },
            Value::Seq(items) => items.iter_mut().try_for_each(|x| self.walk(x))?,
            Value::Map(entries) => {
                for (k, x) in entries.iter_mut() {
                    self.walk(k)?;
                    self.walk(x)?;
                }
            }
            Value::Optional(Some(x)) | Value::Document { value: x, .. } => self.walk(x)?,
            Value::Struct { fields, .. } | Value::Variant { fields, .. } => {
                fields.iter_mut().try_for_each(|(_, x)| self.walk(x))?
            }
            _ => {}
        }
        Ok(())
    }
}

struct Resolver<'s, 'v> {
    writer: &'s Schema,
    reader: &'s Schema,
    /// The writer's shared values by id.
    shared: &'v BTreeMap<u64, &'v Value>,
    /// The reader's type of each shared value a reference points to.
    wanted: &'v RefCell<BTreeMap<u64, TypeRef>>,
    state: &'v State,
}

/// What the walk keeps across values: the memory it may still build
/// (zero values for missing fields are not in the input, so the budget
/// of the decode is charged again here), and the writer's field tags and
/// variant names indexed once per definition, not scanned per value.
struct State {
    budget: Cell<usize>,
    their_tags: RefCell<BTreeMap<*const FieldDef, BTreeMap<u32, usize>>>,
    their_variants: RefCell<BTreeMap<*const crate::schema::VariantDef, BTreeMap<String, usize>>>,
    dyn_tags: DynTags,
}

#[cold]
fn cannot(what: impl core::fmt::Display, got: &Value) -> Error {
    mismatch(Lenience::Exact, what, got)
}

impl Walk for Resolver<'_, '_> {
    const HOW: Lenience = Lenience::Exact;

    fn schema(&self) -> &Schema {
        self.reader
    }

    fn builtin(&self) -> Self {
        Resolver {
            reader: &NO_TYPES,
            ..*self
        }
    }

    fn dyn_tags(&self) -> &DynTags {
        &self.state.dyn_tags
    }

    fn charge_bytes(&self, n: usize) -> Result<()> {
        self.charge_built(n)
    }

    /// Each value built is charged to the budget, and deep ones walk on
    /// grown stacks.
    fn value(&self, node: &TypeRef, v: &Value) -> Result<Value> {
        self.charge()?;
        crate::stack::grow(|| self.walk(node, v))
    }

    /// A value whose slot was charged with its vector.
    fn value_in_slot(&self, node: &TypeRef, v: &Value) -> Result<Value> {
        crate::stack::grow(|| self.walk(node, v))
    }

    /// A field that became optional reads its value as `Some`.
    fn option(&self, inner: &TypeRef, v: &Value) -> Result<Value> {
        let x = match v {
            Value::Optional(None) => return Ok(Value::Optional(None)),
            Value::Optional(Some(x)) => x,
            other => other,
        };
        Ok(Value::Optional(Some(Box::new(self.value(inner, x)?))))
    }

    /// A reference keeps its id; the reader's type of what it points to
    /// is noted, so that a definition the reader dropped is made again.
    fn shared(&self, inner: &TypeRef, weak: bool, v: &Value) -> Result<Value> {
        Ok(match v {
            Value::Shared { id, value } => Value::Shared {
                id: *id,
                value: Box::new(self.value(inner, value)?),
            },
            Value::Reference(id) => {
                self.wanted
                    .borrow_mut()
                    .entry(*id)
                    .or_insert_with(|| inner.clone());
                Value::Reference(*id)
            }
            Value::Dangling if weak => Value::Dangling,
            _ => return Err(cannot("a shared value", v)),
        })
    }

    fn member<'v>(&self, v: &'v Value, field: &str) -> Option<&'v Value> {
        match v {
            Value::Struct { fields, .. } => fields.iter().find(|(n, _)| n == field).map(|(_, x)| x),
            _ => None,
        }
    }

    fn variant<'v>(&self, v: &'v Value) -> Result<(&'v str, Option<&'v Value>)> {
        match v {
            Value::Variant {
                variant, fields, ..
            } => Ok((variant, fields.first().map(|(_, x)| x))),
            _ => Err(cannot("a variant", v)),
        }
    }

    fn named(&self, def: &TypeDef, v: &Value) -> Result<Value> {
        self.named_type(def, v)
    }
}

impl<'s> Resolver<'s, '_> {
    /// Charges one value built to the budget.
    fn charge(&self) -> Result<()> {
        self.charge_built(VALUE_SIZE)
    }

    /// Charges `n` bytes built to the budget.
    fn charge_built(&self, n: usize) -> Result<()> {
        match self.state.budget.get().checked_sub(n) {
            Some(left) => {
                self.state.budget.set(left);
                Ok(())
            }
            None => Err(Error::new(
                ErrorKind::LimitExceeded,
                "the reader's value would exceed the memory budget (Options::max_memory)",
            )),
        }
    }

    /// The writer's definition of the type a value came from.
    fn writer_def(&self, v: &Value) -> Option<&'s TypeDef> {
        match v {
            Value::Struct { name, .. } | Value::Variant { name, .. } => self.writer.types.get(name),
            _ => None,
        }
    }

    fn named_type(&self, def: &TypeDef, v: &Value) -> Result<Value> {
        // The type's name (a variant's name is charged where it is chosen).
        self.charge_built(def.name.len())?;
        let theirs = self.writer_def(v);
        let by_tag = def.tolerant && theirs.is_some_and(|t| t.tolerant);
        match (&def.body, v) {
            (Body::Struct(defs), Value::Struct { fields, .. }) => {
                let their_defs = match theirs.map(|t| &t.body) {
                    Some(Body::Struct(d)) => d.as_slice(),
                    _ => &[],
                };
                Ok(Value::Struct {
                    name: def.name.clone(),
                    fields: self.fields(def.tolerant, by_tag, defs, their_defs, fields)?,
                })
            }
            (
                Body::Enum(variants),
                Value::Variant {
                    variant, fields, ..
                },
            ) => {
                let their_variant = match theirs.map(|t| &t.body) {
                    Some(Body::Enum(vs)) => {
                        let mut cache = self.state.their_variants.borrow_mut();
                        let index = cache.entry(vs.as_ptr()).or_insert_with(|| {
                            let mut index = BTreeMap::new();
                            for (i, x) in vs.iter().enumerate() {
                                index.entry(x.name.clone()).or_insert(i);
                            }
                            index
                        });
                        index.get(variant.as_str()).and_then(|&i| vs.get(i))
                    }
                    _ => None,
                };
                let ours = variants
                    .iter()
                    .find(|x| by_tag && their_variant.is_some_and(|t| t.tag == x.tag))
                    .or_else(|| variants.iter().find(|x| x.name == *variant));
                let Some(ours) = ours else {
                    // A variant this reader does not know: its catch-all,
                    // as a typed tolerant reader would choose.
                    if let Some(other) = variants.iter().find(|x| x.other) {
                        self.charge_built(other.name.len())?;
                        return Ok(Value::Variant {
                            name: def.name.clone(),
                            variant: other.name.clone(),
                            fields: if def.tolerant {
                                Vec::new()
                            } else {
                                self.zeros(&other.fields)?
                            },
                        });
                    }
                    return Err(Error::new(
                        ErrorKind::UnknownVariant,
                        format!("the reader's `{}` has no variant `{variant}`", def.name),
                    ));
                };
                self.charge_built(ours.name.len())?;
                let their_defs = their_variant.map(|t| t.fields.as_slice()).unwrap_or(&[]);
                let fields = self
                    .fields(def.tolerant, by_tag, &ours.fields, their_defs, fields)
                    .map_err(|e| e.in_field(&format!("::{}", ours.name)))?;
                Ok(Value::Variant {
                    name: def.name.clone(),
                    variant: ours.name.clone(),
                    fields,
                })
            }
            _ => Err(cannot(format!("`{}`", def.name), v)),
        }
    }

    /// The reader's fields from the writer's: by tag (tolerant both
    /// sides) or by name; missing ones left out (tolerant reader: the
    /// typed decoder fills them) or zero (compact reader).
    fn fields(
        &self,
        tolerant: bool,
        by_tag: bool,
        ours: &[FieldDef],
        theirs: &[FieldDef],
        values: &[(String, Value)],
    ) -> Result<Vec<(String, Value)>> {
        // The pairs and their names, at most one a field; each value pays
        // for itself.
        let names: usize = ours.iter().map(|d| d.name.len()).sum();
        self.charge_built(ours.len().saturating_mul(PAIR_SIZE).saturating_add(names))?;
        let mut out = Vec::with_capacity(ours.len());
        let mut by_name = super::ByName::new(values);
        for (i, def) in ours.iter().enumerate() {
            let their_name = if by_tag {
                let mut cache = self.state.their_tags.borrow_mut();
                let index = cache.entry(theirs.as_ptr()).or_insert_with(|| {
                    theirs.iter().enumerate().map(|(i, t)| (t.tag, i)).collect()
                });
                index
                    .get(&def.tag)
                    .and_then(|&i| theirs.get(i))
                    .map(|t| t.name.as_str())
            } else {
                Some(def.name.as_str())
            };
            let found = their_name.and_then(|n| by_name.get(i, n));
            match found {
                Some(x) => {
                    let x = self
                        .value_in_slot(&def.schema, x)
                        .map_err(|e| e.in_field(&format!(".{}", def.name)))?;
                    out.push((def.name.clone(), x));
                }
                None if tolerant => {}
                None => out.push((
                    def.name.clone(),
                    self.zero(&def.schema)
                        .map_err(|e| e.in_field(&format!(".{}", def.name)))?,
                )),
            }
        }
        Ok(out)
    }

    fn zeros(&self, defs: &[FieldDef]) -> Result<Vec<(String, Value)>> {
        defs.iter()
            .map(|d| Ok((d.name.clone(), self.zero(&d.schema)?)))
            .collect()
    }

    /// A type's zero value, for a field a compact reader has and the
    /// writer lacked.
    fn zero(&self, node: &TypeRef) -> Result<Value> {
        self.zero_at(node, 0)
    }

    fn zero_at(&self, node: &TypeRef, depth: u32) -> Result<Value> {
        self.charge()?;
        if depth > 64 {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!("`{node}` has no finite zero value to fill a missing field with"),
            ));
        }
        Ok(match shape(node, self.reader)? {
            Shape::Scalar(s) => scalars::zero(s),
            Shape::String => Value::String(String::new()),
            Shape::Bytes => Value::Bytes(Vec::new()),
            Shape::Seq(_) | Shape::Packed(..) => Value::Seq(Vec::new()),
            Shape::Map(..) => Value::Map(Vec::new()),
            Shape::Option(_) => Value::Optional(None),
            Shape::Array(_, 0) | Shape::PackedArray(_, _, 0) => Value::Seq(Vec::new()),
            // A tolerant struct with no fields in the payload: the typed
            // decoder gives each its own default.
            Shape::Named(def) if def.tolerant && matches!(def.body, Body::Struct(_)) => {
                Value::Struct {
                    name: def.name.clone(),
                    fields: Vec::new(),
                }
            }
            Shape::Named(def) => match &def.body {
                Body::Struct(fields) => Value::Struct {
                    name: def.name.clone(),
                    fields: fields
                        .iter()
                        .map(|f| Ok((f.name.clone(), self.zero_at(&f.schema, depth + 1)?)))
                        .collect::<Result<_>>()?,
                },
                Body::Enum(variants) => match variants.iter().find(|v| v.fields.is_empty()) {
                    Some(v) => Value::Variant {
                        name: def.name.clone(),
                        variant: v.name.clone(),
                        fields: Vec::new(),
                    },
                    None => return Err(no_zero(node)),
                },
            },
            _ => return Err(no_zero(node)),
        })
    }
}

#[cold]
fn no_zero(node: &TypeRef) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        format!(
            "the writer lacked this field and its type `{node}` has no zero value to fill it with"
        ),
    )
}
