//! Writing a [`Value`] by walking its schema: the bytes the typed encoder
//! writes for the value the tree describes. A node that does not fit its
//! schema is an `InvalidValue` error naming its path in the tree.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::builtin::{is_seq, shape, wire_of, DynTags, Node, Shape, NO_TYPES};
use super::scalar::Scalar;
use super::Value;
use crate::packed::Lane;
use crate::schema::embedded::write_header;
use crate::schema::{fingerprint, Body, FieldDef, Schema, TypeRef, VariantDef};
use crate::tolerant::wire::Wire;
use crate::{Error, ErrorKind, Pack, Result, Writer};

/// A document as a self-describing payload.
pub(super) fn document<L: crate::Layout>(value: &Value) -> Result<Vec<u8>> {
    let Value::Document { schema, value } = value else {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            "value::to_vec writes a Value::Document (as value::from_slice returns), which \
             holds its schema; write a bare value with value::to_vec_with",
        ));
    };
    let mut buf = Vec::new();
    write_header::<L>(&mut buf, fingerprint(schema), schema)?;
    Encoder::new(schema, value).value(
        &mut Writer::<L>::with_depth(&mut buf, WRITE_DEPTH),
        &schema.root,
        value,
    )?;
    Ok(buf)
}

/// A value (or a document's value) as the plain payload of `schema`.
pub(super) fn plain<L: crate::Layout>(schema: &Schema, value: &Value) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    Encoder::new(schema, value.root()).value(
        &mut Writer::<L>::with_depth(&mut buf, WRITE_DEPTH),
        &schema.root,
        value.root(),
    )?;
    Ok(buf)
}

/// A derived value in a column: its fields, and itself (for errors).
type Row<'v> = (&'v [(String, Value)], &'v Value);

struct Encoder<'s, 'doc> {
    schema: &'s Schema,
    /// The id the next `Value::Shared` is written with.
    next_id: u64,
    /// Each `Value::Shared`'s id, to the id it was written with.
    ids: BTreeMap<u64, u64>,
    /// The document's shared values by id: in a column (§27) a reference
    /// can be written before the value it refers to, which is then
    /// written there, in column order.
    shared: BTreeMap<u64, &'doc Value>,
    /// Each enum's variants by name, built on the enum's first value.
    variants: BTreeMap<*const VariantDef, BTreeMap<String, usize>>,
    /// Each trait-object node's tags.
    dyn_tags: DynTags,
    /// Which structs are rows (§27), each worked out once.
    rows: super::builtin::Rows,
}

impl<'s, 'doc> Encoder<'s, 'doc> {
    fn new(schema: &'s Schema, root: &'doc Value) -> Self {
        let mut shared = BTreeMap::new();
        super::resolve::index_shared(root, &mut shared);
        Encoder {
            schema,
            next_id: 0,
            ids: BTreeMap::new(),
            shared,
            variants: BTreeMap::new(),
            dyn_tags: DynTags::default(),
            rows: Default::default(),
        }
    }

    #[cold]
    fn mismatch(&self, what: impl core::fmt::Display, value: &Value) -> Error {
        Error::new(
            ErrorKind::InvalidValue,
            format!(
                "the schema wants {what}, the value is {}",
                super::show::kind(value)
            ),
        )
    }

    /// Runs `f`, naming `step` in the path of an error it returns.
    fn at<R>(&mut self, step: String, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        f(self).map_err(|e| e.in_field(&step))
    }

    fn value<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        node: &TypeRef,
        v: &Value,
    ) -> Result<()> {
        let schema = self.schema;
        match shape(node, schema)? {
            Shape::Scalar(s) => self.scalar(w, s, v, false),
            Shape::NonZero(s) => self.scalar(w, s, v, true),
            Shape::String => match v {
                Value::String(s) => s.as_str().pack(w),
                _ => Err(self.mismatch("a string", v)),
            },
            Shape::Bytes => match v {
                Value::Bytes(b) => b.as_slice().pack(w),
                _ => Err(self.mismatch("bytes", v)),
            },
            Shape::Seq(elem) => {
                let Value::Seq(items) = v else {
                    return Err(self.mismatch(format!("a sequence of {elem}"), v));
                };
                w.write_len(items.len());
                // A set's items are a column too, packed integers included.
                let items: Vec<&Value> = items.iter().collect();
                deeper(w, |w| self.column(w, elem, &items))
            }
            Shape::Packed(s, nonzero) => {
                let Value::Seq(items) = v else {
                    return Err(self.mismatch("a sequence of integers", v));
                };
                w.write_len(items.len());
                self.packed(w, s, nonzero, items)
            }
            Shape::PackedArray(s, nonzero, n) => {
                let Value::Seq(items) = v.root() else {
                    return Err(self.mismatch(format!("an array of {n} integers"), v));
                };
                if items.len() != n {
                    return Err(self.mismatch(format!("an array of {n} integers"), v));
                }
                self.packed(w, s, nonzero, items)
            }
            Shape::Array(elem, n) => match v {
                Value::Bytes(b) if b.len() == n => {
                    w.write_bytes(b);
                    Ok(())
                }
                Value::Seq(items) if items.len() == n => {
                    if super::builtin::is_column::<L>(elem, schema, &mut self.rows) {
                        let items: Vec<&Value> = items.iter().collect();
                        return deeper(w, |w| self.column(w, elem, &items));
                    }
                    self.items(w, items, |_| elem)
                }
                _ => Err(self.mismatch(format!("an array of {n} {elem}"), v)),
            },
            Shape::Tuple(types) => match v {
                Value::Seq(items) if items.len() == types.len() => {
                    self.items(w, items, |i| &types[i])
                }
                _ => Err(self.mismatch(format!("a tuple of {}", types.len()), v)),
            },
            Shape::Map(k, vt) => {
                let Value::Map(entries) = v else {
                    return Err(self.mismatch("a map", v));
                };
                w.write_len(entries.len());
                if !L::FIXED {
                    // The keys' column, then the values' (§27).
                    let keys: Vec<&Value> = entries.iter().map(|(k, _)| k).collect();
                    let values: Vec<&Value> = entries.iter().map(|(_, v)| v).collect();
                    return deeper(w, |w| {
                        self.at("[keys]".to_string(), |e| e.column(w, k, &keys))?;
                        self.at("[values]".to_string(), |e| e.column(w, vt, &values))
                    });
                }
                deeper(w, |w| {
                    for (i, (key, value)) in entries.iter().enumerate() {
                        self.at(format!("[key {i}]"), |e| e.value(w, k, key))?;
                        self.at(format!("[value {i}]"), |e| e.value(w, vt, value))?;
                    }
                    Ok(())
                })
            }
            Shape::Option(inner) => match v {
                Value::Optional(None) => {
                    w.write_u8(0);
                    Ok(())
                }
                Value::Optional(Some(inner_value)) => {
                    w.write_u8(1);
                    deeper(w, |w| {
                        self.at("?".to_string(), |e| e.value(w, inner, inner_value))
                    })
                }
                _ => Err(self.mismatch("an option", v)),
            },
            Shape::Shared(inner, weak) => match v {
                // Numbered as written: in column order (§27), which a
                // value built in tree order (`from_slice_as`) need not
                // follow, so ids map to the order of writing, and a shared
                // value is written where it is first met in that order.
                Value::Shared { id, .. } | Value::Reference(id) if self.ids.contains_key(id) => {
                    let written = self.ids.get(id).copied().unwrap_or_default();
                    w.write_varint(written + crate::refs::TAG_ID_BASE);
                    Ok(())
                }
                Value::Shared { id, value } => {
                    self.ids.insert(*id, self.next_id);
                    self.next_id += 1;
                    w.write_varint(crate::refs::TAG_NEW);
                    deeper(w, |w| self.value(w, inner, value))
                }
                Value::Reference(id) if self.shared.contains_key(id) => {
                    let Some(value) = self.shared.get(id).copied() else {
                        return Err(self.mismatch("a reference to a shared value", v));
                    };
                    self.ids.insert(*id, self.next_id);
                    self.next_id += 1;
                    w.write_varint(crate::refs::TAG_NEW);
                    deeper(w, |w| self.value(w, inner, value))
                }
                Value::Dangling if weak => {
                    w.write_varint(crate::refs::TAG_NULL);
                    Ok(())
                }
                _ => Err(self.mismatch("a shared value or a reference to an earlier one", v)),
            },
            Shape::Record(name, fields) => {
                let Value::Struct { fields: values, .. } = v else {
                    return Err(self.mismatch(format!("a `{name}`"), v));
                };
                let mut by_name = super::ByName::new(values);
                for (i, (field, node)) in fields.iter().enumerate() {
                    let Some(value) = by_name.get(i, field) else {
                        return Err(self.mismatch(format!("a `{name}` with field `{field}`"), v));
                    };
                    self.at(format!(".{field}"), |e| e.node(w, node, value))?;
                }
                Ok(())
            }
            Shape::ByteEnum(name, variants) => {
                let Value::Variant {
                    variant, fields, ..
                } = v
                else {
                    return Err(self.mismatch(format!("a `{name}` variant"), v));
                };
                let Some(tag) = variants.iter().position(|(n, _)| n == variant) else {
                    return Err(self.mismatch(format!("a variant of `{name}`"), v));
                };
                w.write_u8(tag as u8);
                match (&variants[tag].1, fields.first()) {
                    (None, _) => Ok(()),
                    (Some(node), Some((_, value))) => deeper(w, |w| {
                        self.at(format!("::{variant}"), |e| e.node(w, node, value))
                    }),
                    (Some(_), None) => Err(self.mismatch(format!("`{variant}` with its value"), v)),
                }
            }
            Shape::Dyn(args) => {
                let Value::Variant {
                    variant, fields, ..
                } = v
                else {
                    return Err(self.mismatch("a trait object", v));
                };
                let entry = variant
                    .parse::<u32>()
                    .ok()
                    .and_then(|tag| self.dyn_tags.find(args, tag));
                let (Some((tag, ty)), Some((_, value))) = (entry, fields.first()) else {
                    return Err(self.mismatch("a registered trait object tag and its value", v));
                };
                w.write_tag(tag);
                deeper(w, |w| self.value(w, ty, value))
            }
            Shape::Named(def) if def.tolerant => w.nested(|w| self.tolerant(w, def, v)),
            Shape::Named(def) => w.nested(|w| match (&def.body, v) {
                (Body::Struct(defs), Value::Struct { fields, .. }) => {
                    self.fields(w, &def.name, defs, fields, v)
                }
                (
                    Body::Enum(variants),
                    Value::Variant {
                        variant, fields, ..
                    },
                ) => {
                    let vd = self.write_variant(w, &def.name, variants, variant, v)?;
                    self.at(format!("::{variant}"), |e| {
                        e.fields(w, &def.name, &vd.fields, fields, v)
                    })
                }
                (Body::Struct(_), _) => Err(self.mismatch(format!("a `{}` struct", def.name), v)),
                (Body::Enum(_), _) => Err(self.mismatch(format!("a `{}` variant", def.name), v)),
            }),
        }
    }

    /// A version-tolerant struct or enum (format.md §12).
    fn tolerant<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        def: &crate::schema::TypeDef,
        v: &Value,
    ) -> Result<()> {
        match (&def.body, v) {
            (Body::Struct(defs), Value::Struct { fields, .. }) => {
                self.tolerant_fields(w, defs, fields)
            }
            (
                Body::Enum(variants),
                Value::Variant {
                    variant, fields, ..
                },
            ) => {
                let vd = self.write_variant(w, &def.name, variants, variant, v)?;
                if vd.fields.is_empty() {
                    w.write_len(0);
                    return Ok(());
                }
                self.at(format!("::{variant}"), |e| {
                    w.write_len_prefixed(|w| e.tolerant_fields(w, &vd.fields, fields))
                })
            }
            (Body::Struct(_), _) => Err(self.mismatch(format!("a `{}` struct", def.name), v)),
            (Body::Enum(_), _) => Err(self.mismatch(format!("a `{}` variant", def.name), v)),
        }
    }

    /// The fields the value has, in tag order, each with its key.
    fn tolerant_fields<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        defs: &[FieldDef],
        values: &[(String, Value)],
    ) -> Result<()> {
        let mut by_name = super::ByName::new(values);
        let mut present: Vec<(&FieldDef, &Value)> = Vec::new();
        for d in defs {
            // Fields present so far are where the next one is expected.
            if let Some(v) = by_name.get(present.len(), &d.name) {
                present.push((d, v));
            }
        }
        w.write_len(present.len());
        let mut next = 0u32;
        for (def, value) in present {
            let gap = def.tag.checked_sub(next).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidValue,
                    "the schema's tolerant fields are not in tag order",
                )
            })?;
            next = def.tag.saturating_add(1);
            self.at(format!(".{}", def.name), |e| {
                e.tolerant_value(w, u64::from(gap) << 3, &def.schema, value)
            })?;
        }
        Ok(())
    }

    /// One tolerant field: its key and its value, delimited as its type's
    /// wire type says.
    fn tolerant_value<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        gap_key: u64,
        node: &TypeRef,
        v: &Value,
    ) -> Result<()> {
        let schema = self.schema;
        if let Shape::Option(inner) = shape(node, schema)? {
            if wire_of::<L>(inner, schema, &mut self.rows)? != Wire::Framed {
                return match v {
                    Value::Optional(None) => {
                        w.write_varint(gap_key | u64::from(Wire::Null.bits()));
                        Ok(())
                    }
                    Value::Optional(Some(x)) => self.tolerant_value(w, gap_key, inner, x),
                    _ => Err(self.mismatch("an option", v)),
                };
            }
        }
        let wire = wire_of::<L>(node, schema, &mut self.rows)?;
        w.write_varint(gap_key | u64::from(wire.bits()));
        match wire {
            Wire::Framed => w.write_len_prefixed(|w| self.value(w, node, v)),
            Wire::Seq(element) => {
                w.write_u8(element);
                self.value(w, node, v)
            }
            _ => self.value(w, node, v),
        }
    }

    /// Writes the tag of the variant `name` of the enum `enum_name`, found
    /// through an index of its `variants`, and returns that variant.
    fn write_variant<'d, L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        enum_name: &str,
        variants: &'d [VariantDef],
        name: &str,
        v: &Value,
    ) -> Result<&'d VariantDef> {
        let Some(vd) = self
            .variant_index(variants, name)
            .and_then(|i| variants.get(i))
        else {
            return Err(self.mismatch(format!("a variant of `{enum_name}`"), v));
        };
        w.write_tag(vd.tag);
        Ok(vd)
    }

    fn node<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        node: &Node<'_>,
        v: &Value,
    ) -> Result<()> {
        match node {
            Node::Schema(ty) => self.value(w, ty, v),
            Node::Builtin(ty) => {
                let schema = core::mem::replace(&mut self.schema, &NO_TYPES);
                let out = self.value(w, ty, v);
                self.schema = schema;
                out
            }
        }
    }

    fn fields<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        name: &str,
        defs: &[FieldDef],
        values: &[(String, Value)],
        whole: &Value,
    ) -> Result<()> {
        let mut by_name = super::ByName::new(values);
        for (i, def) in defs.iter().enumerate() {
            let Some(value) = by_name.get(i, &def.name) else {
                return Err(self.mismatch(format!("a `{name}` with field `{}`", def.name), whole));
            };
            self.at(format!(".{}", def.name), |e| e.value(w, &def.schema, value))?;
        }
        Ok(())
    }

    /// A column of `items` of `node` (format.md §27), as the typed
    /// encoders write it (see the decoder's `column`).
    fn column<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        node: &TypeRef,
        items: &[&Value],
    ) -> Result<()> {
        let schema = self.schema;
        if items.is_empty() {
            // No values, no bytes: nor a recursion through empty columns.
            return Ok(());
        }
        let shape = match L::FIXED {
            true => None,
            false => Some(shape(node, schema)?),
        };
        match shape {
            Some(Shape::Scalar(s)) if s.packs() => self.packed(w, s, false, items.iter().copied()),
            Some(Shape::NonZero(s)) if s.packs() => self.packed(w, s, true, items.iter().copied()),
            // A column of arrays is the column of all their elements.
            Some(Shape::PackedArray(s, nonzero, len)) => {
                let all = self.flatten(items, len)?;
                self.packed(w, s, nonzero, all)
            }
            Some(Shape::Array(elem, len))
                if super::builtin::is_column::<L>(node, schema, &mut self.rows) =>
            {
                let all = self.flatten(items, len)?;
                self.column(w, elem, &all)
            }
            Some(Shape::Scalar(Scalar::Bool)) => {
                let mut flags = Vec::with_capacity(items.len());
                for v in items {
                    match v {
                        Value::Bool(b) => flags.push(*b),
                        _ => return Err(self.mismatch("a bool", v)),
                    }
                }
                crate::columns::write_bits(flags.into_iter(), w);
                Ok(())
            }
            Some(shape @ (Shape::Seq(_) | Shape::Packed(..) | Shape::Bytes)) if is_seq(node) => {
                self.seq_column(w, shape, items)
            }
            // Each element's column in turn.
            Some(Shape::Tuple(types)) => {
                let mut rows = Vec::with_capacity(items.len());
                for v in items {
                    match v.root() {
                        Value::Seq(elems) if elems.len() == types.len() => rows.push(elems),
                        _ => return Err(self.mismatch(format!("a tuple of {}", types.len()), v)),
                    }
                }
                for (i, ty) in types.iter().enumerate() {
                    let column: Vec<&Value> =
                        rows.iter().filter_map(|elems| elems.get(i)).collect();
                    self.at(format!(".{i}"), |e| deeper(w, |w| e.column(w, ty, &column)))?;
                }
                Ok(())
            }
            Some(Shape::String) => {
                let mut texts = Vec::with_capacity(items.len());
                for v in items {
                    match v {
                        Value::String(s) => texts.push(s.as_str()),
                        _ => return Err(self.mismatch("a string", v)),
                    }
                }
                crate::impls::string::pack_strs(texts.iter().copied(), w)
            }
            Some(Shape::Option(inner)) => {
                let mut present = Vec::new();
                for v in items {
                    match v {
                        Value::Optional(Some(x)) => present.push(&**x),
                        Value::Optional(None) => {}
                        _ => return Err(self.mismatch(format!("an option of {inner}"), v)),
                    }
                }
                crate::columns::write_bits(
                    items.iter().map(|v| matches!(v, Value::Optional(Some(_)))),
                    w,
                );
                self.column(w, inner, &present)
            }
            // A level, as the decoder counts for a derived type's columns.
            Some(Shape::Named(def))
                if super::builtin::is_column::<L>(node, schema, &mut self.rows) =>
            {
                deeper(w, |w| {
                    w.nested(|w| match &def.body {
                        Body::Struct(defs) => {
                            let mut rows = Vec::with_capacity(items.len());
                            for v in items {
                                match v {
                                    Value::Struct { fields, .. } => {
                                        rows.push((fields.as_slice(), *v))
                                    }
                                    _ => {
                                        return Err(
                                            self.mismatch(format!("a `{}` struct", def.name), v)
                                        )
                                    }
                                }
                            }
                            self.field_columns(w, &def.name, defs, &rows, "")
                        }
                        Body::Enum(variants) => {
                            let mut tags = Vec::with_capacity(items.len());
                            let mut each: Vec<Vec<Row<'_>>> =
                                variants.iter().map(|_| Vec::new()).collect();
                            for v in items {
                                let Value::Variant {
                                    variant, fields, ..
                                } = v
                                else {
                                    return Err(
                                        self.mismatch(format!("a `{}` variant", def.name), v)
                                    );
                                };
                                let index = self.variant_index(variants, variant);
                                let Some(rows) = index.and_then(|i| each.get_mut(i)) else {
                                    return Err(
                                        self.mismatch(format!("a variant of `{}`", def.name), v)
                                    );
                                };
                                rows.push((fields.as_slice(), *v));
                                tags.push(index.unwrap_or_default() as u32);
                            }
                            crate::packed::pack_iter(tags.iter().copied(), w)?;
                            for (vd, rows) in variants.iter().zip(&each) {
                                let prefix = format!("::{}", vd.name);
                                self.field_columns(w, &def.name, &vd.fields, rows, &prefix)?;
                            }
                            Ok(())
                        }
                    })
                })
            }
            _ => deeper(w, |w| {
                for (i, item) in items.iter().enumerate() {
                    self.at(format!("[{i}]"), |e| e.value(w, node, item))?;
                }
                Ok(())
            }),
        }
    }

    /// A column of sequences of `shape` (§27): their lengths, then the
    /// column of all their elements (as `impls::seq::pack_seqs` writes
    /// it; no level counted, as the decoder's `seq_column` counts none).
    fn seq_column<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        shape: Shape<'_>,
        items: &[&Value],
    ) -> Result<()> {
        let mut lens = Vec::with_capacity(items.len());
        if let Shape::Bytes = shape {
            let mut all: Vec<&[u8]> = Vec::with_capacity(items.len());
            for v in items {
                match v.root() {
                    Value::Bytes(b) => {
                        lens.push(b.len() as u64);
                        all.push(b);
                    }
                    _ => return Err(self.mismatch("bytes", v)),
                }
            }
            crate::packed::pack_iter(lens.iter().copied(), w)?;
            all.iter().for_each(|b| w.write_bytes(b));
            return Ok(());
        }
        let mut all = Vec::new();
        for v in items {
            match v.root() {
                Value::Seq(elems) => {
                    lens.push(elems.len() as u64);
                    all.extend(elems.iter());
                }
                _ => return Err(self.mismatch("a sequence", v)),
            }
        }
        crate::packed::pack_iter(lens.iter().copied(), w)?;
        match shape {
            Shape::Packed(s, nonzero) => self.packed(w, s, nonzero, all),
            Shape::Seq(elem) => deeper(w, |w| self.column(w, elem, &all)),
            _ => Ok(()),
        }
    }

    /// The elements of arrays of `len` each, all in one column.
    fn flatten<'v>(&self, items: &[&'v Value], len: usize) -> Result<Vec<&'v Value>> {
        // Grown as the arrays are checked: `len` is the schema's word.
        let mut all = Vec::new();
        for v in items {
            match v.root() {
                Value::Seq(elems) if elems.len() == len => all.extend(elems.iter()),
                _ => return Err(self.mismatch(format!("an array of {len}"), v)),
            }
        }
        Ok(all)
    }

    /// The columns of fields `defs` of `rows` (each a value's fields and
    /// the value, for errors).
    fn field_columns<L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        name: &str,
        defs: &[FieldDef],
        rows: &[Row<'_>],
        prefix: &str,
    ) -> Result<()> {
        let mut by_name: Vec<_> = rows
            .iter()
            .map(|(fields, whole)| (super::ByName::new(fields), *whole))
            .collect();
        for (i, def) in defs.iter().enumerate() {
            let mut column = Vec::with_capacity(rows.len());
            for (fields, whole) in &mut by_name {
                let Some(value) = fields.get(i, &def.name) else {
                    return Err(
                        self.mismatch(format!("a `{name}` with field `{}`", def.name), whole)
                    );
                };
                column.push(value);
            }
            self.at(format!("{prefix}.{}", def.name), |e| {
                e.column(w, &def.schema, &column)
            })?;
        }
        Ok(())
    }

    /// The position of the variant `name` among `variants`.
    fn variant_index(&mut self, variants: &[VariantDef], name: &str) -> Option<usize> {
        let index = self.variants.entry(variants.as_ptr()).or_insert_with(|| {
            let mut index = BTreeMap::new();
            for (i, v) in variants.iter().enumerate() {
                index.entry(v.name.clone()).or_insert(i);
            }
            index
        });
        index.get(name).copied()
    }

    /// Elements, one nesting level down; `ty(i)` is element `i`'s type.
    fn items<'t, L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        items: &[Value],
        ty: impl Fn(usize) -> &'t TypeRef,
    ) -> Result<()> {
        deeper(w, |w| {
            for (i, item) in items.iter().enumerate() {
                self.at(format!("[{i}]"), |e| e.value(w, ty(i), item))?;
            }
            Ok(())
        })
    }

    fn packed<'v, L: crate::Layout>(
        &mut self,
        w: &mut Writer<'_, L>,
        s: Scalar,
        nonzero: bool,
        items: impl IntoIterator<Item = &'v Value>,
    ) -> Result<()> {
        let items: Vec<&Value> = items.into_iter().collect();
        let items = items.as_slice();
        fn gather<T: Lane + Pack + PartialEq, L: crate::Layout>(
            e: &Encoder<'_, '_>,
            items: &[&Value],
            nonzero: bool,
            get: fn(&Value) -> Option<T>,
            w: &mut Writer<'_, L>,
        ) -> Result<()> {
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                match get(item) {
                    Some(x) if !(nonzero && x == T::default()) => out.push(x),
                    _ => return Err(e.mismatch("a packed integer of the sequence's type", item)),
                }
            }
            T::pack_slice(&out, w)
        }
        macro_rules! by_type {
            ($($s:ident $t:ty => $v:ident),*) => {
                match s {
                    $(Scalar::$s => gather::<$t, _>(self, items, nonzero, |v| match v { Value::$v(x) => Some(*x), _ => None }, w),)*
                    _ => Err(self.mismatch("an integer type that packs", &Value::Unit)),
                }
            };
        }
        by_type!(U16 u16 => U16, U32 u32 => U32, U64 u64 => U64, U128 u128 => U128,
                 I16 i16 => I16, I32 i32 => I32, I64 i64 => I64, I128 i128 => I128)
    }

    fn scalar<L: crate::Layout>(
        &self,
        w: &mut Writer<'_, L>,
        s: Scalar,
        v: &Value,
        nonzero: bool,
    ) -> Result<()> {
        if nonzero && v.is_zero_integer() {
            return Err(self.mismatch("a non-zero integer", v));
        }
        match (s, v) {
            (Scalar::Unit, Value::Unit) => Ok(()),
            (Scalar::Bool, Value::Bool(x)) => x.pack(w),
            (Scalar::Char, Value::Char(x)) => x.pack(w),
            (Scalar::F32, Value::F32(x)) => x.pack(w),
            (Scalar::F64, Value::F64(x)) => x.pack(w),
            (Scalar::U8, Value::U8(x)) => x.pack(w),
            (Scalar::U16, Value::U16(x)) => x.pack(w),
            (Scalar::U32, Value::U32(x)) => x.pack(w),
            (Scalar::U64, Value::U64(x)) => x.pack(w),
            (Scalar::U128, Value::U128(x)) => x.pack(w),
            (Scalar::I8, Value::I8(x)) => x.pack(w),
            (Scalar::I16, Value::I16(x)) => x.pack(w),
            (Scalar::I32, Value::I32(x)) => x.pack(w),
            (Scalar::I64, Value::I64(x)) => x.pack(w),
            (Scalar::I128, Value::I128(x)) => x.pack(w),
            _ => Err(self.mismatch(format!("a {s:?}").to_lowercase(), v)),
        }
    }
}

/// Runs `f` on a fresh stack segment if this one runs low (only derived
/// types count toward the depth limit, as in the reader).
#[inline]
fn deeper<L: crate::Layout>(
    w: &mut Writer<'_, L>,
    f: impl FnOnce(&mut Writer<'_, L>) -> Result<()>,
) -> Result<()> {
    crate::stack::grow(|| f(w))
}

/// How deep derived types may nest in a document being written: the
/// reader bounded a decoded document already; this bounds one built by
/// hand (its built-in nesting is bounded by its schema's).
const WRITE_DEPTH: u32 = 4096;
