//! Reading a [`Value`] by walking the schema over the bytes. Every read
//! goes through a [`Reader`] with the caller's [`Options`]: each compound
//! is a nesting level, each element is charged to the memory budget
//! before it is built, declared lengths are checked against the input.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::builtin::{is_column, is_seq, shape, wire_of, DynTags, Node, Shape, NO_TYPES};
use super::scalar::Scalar;
use super::Value;
use crate::schema::embedded::{decode_schema_within, split};
use crate::schema::{Body, FieldDef, Schema, TypeRef};
use crate::tolerant::wire::Wire;
use crate::{Error, ErrorKind, Options, Reader, Result, Unpack};

use super::{PAIR_SIZE, VALUE_SIZE};
use crate::refs::{TAG_ID_BASE, TAG_NEW, TAG_NULL};

/// A self-describing payload as a document.
/// The value is read in the layout the header states, whatever `options`'.
pub(super) fn document<L: crate::Layout>(bytes: &[u8], options: &Options<L>) -> Result<Value> {
    document_within(bytes, options).map(|(doc, _)| doc)
}

/// [`document`], and what its memory budget has left, for the phases of a
/// call that share it.
pub(super) fn document_within<L: crate::Layout>(
    bytes: &[u8],
    options: &Options<L>,
) -> Result<(Value, usize)> {
    check_size(bytes, options)?;
    let parts = split(bytes)?;
    // One budget for the schema and the body, whose document holds both.
    let options = options.max_memory(options.value_memory_limit(bytes.len()));
    let (schema, left) = decode_schema_within(&parts, &options.in_layout())?;
    let options = options.max_memory(left);
    let body_at = bytes.len() - parts.body.len();
    let value = if parts.fixed {
        body(&schema, parts.body, &options.fixed_width())
    } else {
        body(
            &schema,
            parts.body,
            &options.in_layout::<crate::layout::Compact>(),
        )
    }
    .map_err(|e| e.shifted(body_at))?;
    let (value, left) = value;
    Ok((
        Value::Document {
            schema: Box::new(schema),
            value: Box::new(value),
        },
        left,
    ))
}

/// A plain payload of a type with `schema`, as a document.
pub(super) fn plain<L: crate::Layout>(
    schema: &Schema,
    bytes: &[u8],
    options: &Options<L>,
) -> Result<Value> {
    check_size(bytes, options)?;
    let options = options.max_memory(options.value_memory_limit(bytes.len()));
    let (value, _) = body(schema, bytes, &options)?;
    Ok(Value::Document {
        schema: Box::new(schema.clone()),
        value: Box::new(value),
    })
}

fn check_size<L: crate::Layout>(bytes: &[u8], options: &Options<L>) -> Result<()> {
    match options.max_bytes {
        Some(limit) if bytes.len() > limit => Err(Error::new(
            ErrorKind::LimitExceeded,
            format!(
                "input of {} bytes is over the limit of {limit} bytes (Options::max_bytes)",
                bytes.len()
            ),
        )),
        _ => Ok(()),
    }
}

/// The value, and what the memory budget has left.
fn body<L: crate::Layout>(
    schema: &Schema,
    bytes: &[u8],
    options: &Options<L>,
) -> Result<(Value, usize)> {
    let mut r = Reader::new(bytes, options);
    let mut d = Decoder {
        schema,
        shared: Vec::new(),
        hashes: BTreeMap::new(),
        tags: BTreeMap::new(),
        dyn_tags: DynTags::default(),
        others: BTreeMap::new(),
        rows: super::builtin::Rows::remembering_nodes(),
    };
    let value = d.value(&mut r, &schema.root)?;
    r.finish()?;
    Ok((value, r.memory_left()))
}

struct Decoder<'s> {
    schema: &'s Schema,
    /// The type of each shared value by id, so that a reference to a
    /// value of another type is refused as the typed decoder refuses it.
    shared: Vec<&'s TypeRef>,
    /// Indexes built once per schema node, so that a value's lookup costs
    /// a logarithm, not a scan of a list the payload's schema may make
    /// long: a type's structural hash, a `dyn`'s tags, an enum's variant
    /// tags, a tolerant field list's tags.
    hashes: BTreeMap<*const TypeRef, u64>,
    tags: BTreeMap<*const (), BTreeMap<u32, usize>>,
    dyn_tags: DynTags,
    /// Each tolerant enum's `other` variant.
    others: BTreeMap<*const crate::schema::VariantDef, Option<usize>>,
    /// Which structs are rows (§27), each worked out once.
    rows: super::builtin::Rows,
}

impl<'s> Decoder<'s> {
    fn value<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        node: &'s TypeRef,
    ) -> Result<Value> {
        Ok(match shape(node, self.schema)? {
            Shape::Scalar(s) => scalar(r, s)?,
            Shape::String => {
                let text = <&str>::unpack(r)?;
                r.charge_memory(text.len())?;
                Value::String(text.to_string())
            }
            Shape::Bytes => {
                let bytes = <&[u8]>::unpack(r)?;
                r.charge_memory(bytes.len())?;
                Value::Bytes(bytes.to_vec())
            }
            Shape::Seq(elem) => {
                let len = r.read_len()?;
                // A set's items are a column too, packed integers included.
                Value::Seq(deeper(r, |r| self.column(r, elem, len))?)
            }
            Shape::Packed(s, nonzero) => {
                let len = r.read_len()?;
                packed(r, s, nonzero, len)?
            }
            Shape::PackedArray(s, nonzero, n) => packed(r, s, nonzero, n)?,
            Shape::Array(elem, n) => {
                if shape(elem, self.schema).is_ok_and(|s| matches!(s, Shape::Scalar(Scalar::U8))) {
                    r.charge_memory(n)?;
                    Value::Bytes(r.read_bytes(n)?.to_vec())
                } else if is_column::<L>(elem, self.schema, &mut self.rows) {
                    Value::Seq(deeper(r, |r| self.column(r, elem, n))?)
                } else {
                    Value::Seq(self.elements(r, n, |d, r| d.value(r, elem))?)
                }
            }
            Shape::Tuple(types) => {
                let mut i = 0;
                Value::Seq(self.elements(r, types.len(), |d, r| {
                    let v = d.value(r, &types[i]);
                    i += 1;
                    v
                })?)
            }
            Shape::Map(k, v) if !L::FIXED => {
                // The keys' column, then the values' (§27).
                let len = r.read_len()?;
                deeper(r, |r| {
                    let keys = self.column(r, k, len).map_err(|e| e.in_field("[keys]"))?;
                    let values = self.column(r, v, len).map_err(|e| e.in_field("[values]"))?;
                    if keys.len() != len || values.len() != len {
                        return Err(crate::read::short_column(r));
                    }
                    let mut entries = Vec::new();
                    for pair in keys.into_iter().zip(values) {
                        r.room_for_one(&mut entries, len)?;
                        entries.push(pair);
                    }
                    // The two columns' vectors are freed.
                    r.refund_memory(len.saturating_mul(2 * VALUE_SIZE));
                    Ok(Value::Map(entries))
                })?
            }
            Shape::Map(k, v) => {
                let len = r.read_len()?;
                deeper(r, |r| {
                    let mut entries = Vec::new();
                    for i in 0..len {
                        r.room_for_one(&mut entries, len)?;
                        let key = self
                            .value(r, k)
                            .map_err(|e| e.in_field(&format!("[key {i}]")))?;
                        let value = self
                            .value(r, v)
                            .map_err(|e| e.in_field(&format!("[{i}]")))?;
                        entries.push((key, value));
                    }
                    Ok(Value::Map(entries))
                })?
            }
            Shape::Option(inner) => {
                let at = r.position();
                match r.read_u8()? {
                    0 => Value::Optional(None),
                    1 => {
                        r.charge_memory(VALUE_SIZE)?;
                        let v = deeper(r, |r| self.value(r, inner))?;
                        Value::Optional(Some(Box::new(v)))
                    }
                    tag => return Err(bad_tag(r, at, tag, "Option")),
                }
            }
            Shape::Shared(inner, weak) => self.shared(r, inner, weak)?,
            Shape::NonZero(s) => {
                let at = r.position();
                let v = scalar(r, s)?;
                if v.is_zero_integer() {
                    return Err(r.error_at(at, ErrorKind::InvalidValue, "a NonZero value of zero"));
                }
                v
            }
            Shape::Record(name, fields) => deeper(r, |r| {
                // Charged like any fields (`range<range<…>>` doubles per
                // level), with the names they are given.
                let names: usize = fields.iter().map(|(f, _)| f.len()).sum();
                r.charge_memory(
                    fields
                        .len()
                        .saturating_mul(PAIR_SIZE)
                        .saturating_add(names + name.len()),
                )?;
                let mut out = Vec::with_capacity(fields.len());
                for (field, node) in &fields {
                    let v = self
                        .node(r, node)
                        .map_err(|e| e.in_field(&format!(".{field}")))?;
                    out.push((field.to_string(), v));
                }
                Ok(Value::Struct {
                    name: name.to_string(),
                    fields: out,
                })
            })?,
            Shape::ByteEnum(name, variants) => {
                let at = r.position();
                let tag = r.read_u8()?;
                let Some((variant, node)) = variants.get(usize::from(tag)) else {
                    return Err(bad_tag(r, at, tag, name));
                };
                r.charge_memory(name.len() + variant.len())?;
                let fields = match node {
                    Some(node) => {
                        r.charge_memory(PAIR_SIZE + 1)?;
                        let v = deeper(r, |r| self.node(r, node))?;
                        alloc::vec![("0".to_string(), v)]
                    }
                    None => Vec::new(),
                };
                Value::Variant {
                    name: name.to_string(),
                    variant: variant.to_string(),
                    fields,
                }
            }
            Shape::Dyn(args) => {
                let at = r.position();
                let tag = r.read_tag()?;
                let ty = self
                    .dyn_tags
                    .find(args, tag)
                    .map(|(_, ty)| ty)
                    .ok_or_else(|| {
                        r.error_at(
                            at,
                            ErrorKind::UnknownVariant,
                            format!("trait object tag {tag} is not registered"),
                        )
                    })?;
                // The variant's pair, its name and its tag's digits.
                r.charge_memory(PAIR_SIZE + 1 + 3 + 10)?;
                let v = deeper(r, |r| self.value(r, ty))?;
                Value::Variant {
                    name: "dyn".to_string(),
                    variant: tag.to_string(),
                    fields: alloc::vec![("0".to_string(), v)],
                }
            }
            Shape::Named(def) if def.tolerant => r.nested(|r| {
                // The names a value copies cost memory like its contents.
                r.charge_memory(def.name.len())?;
                self.tolerant(r, def)
            })?,
            Shape::Named(def) => r.nested(|r| match &def.body {
                Body::Struct(fields) => {
                    r.charge_memory(def.name.len())?;
                    Ok(Value::Struct {
                        name: def.name.clone(),
                        fields: self.fields(r, fields)?,
                    })
                }
                Body::Enum(variants) => {
                    r.charge_memory(def.name.len())?;
                    let at = r.position();
                    let tag = r.read_tag()?;
                    let v = self
                        .tag_index(variants.as_ptr().cast(), tag, || {
                            variants
                                .iter()
                                .enumerate()
                                .map(|(i, v)| (v.tag, i))
                                .collect()
                        })
                        .and_then(|i| variants.get(i))
                        .ok_or_else(|| {
                            r.error_at(
                                at,
                                ErrorKind::UnknownVariant,
                                format!("{} has no variant with tag {tag}", def.name),
                            )
                        })?;
                    let fields = self
                        .fields(r, &v.fields)
                        .map_err(|e| e.in_field(&format!("::{}", v.name)))?;
                    Ok(Value::Variant {
                        name: def.name.clone(),
                        variant: {
                            r.charge_memory(v.name.len())?;
                            v.name.clone()
                        },
                        fields,
                    })
                }
            })?,
        })
    }

    /// A version-tolerant struct or enum (format.md §12).
    fn tolerant<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        def: &'s crate::schema::TypeDef,
    ) -> Result<Value> {
        match &def.body {
            Body::Struct(fields) => Ok(Value::Struct {
                name: def.name.clone(),
                fields: self.tolerant_fields(r, fields)?,
            }),
            Body::Enum(variants) => {
                let at = r.position();
                let tag = r.read_tag()?;
                let len = r.read_len()?;
                let found = self.tag_index(variants.as_ptr().cast(), tag, || {
                    variants
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (v.tag, i))
                        .collect()
                });
                let Some(v) = found.and_then(|i| variants.get(i)) else {
                    // The catch-all, as a typed reader would produce it.
                    // Found once per enum, not scanned per value.
                    let other = *self
                        .others
                        .entry(variants.as_ptr())
                        .or_insert_with(|| variants.iter().position(|v| v.other));
                    if let Some(other) = other.and_then(|i| variants.get(i)) {
                        r.skip(len)?;
                        return Ok(Value::Variant {
                            name: def.name.clone(),
                            variant: other.name.clone(),
                            fields: Vec::new(),
                        });
                    }
                    return Err(r.error_at(
                        at,
                        ErrorKind::UnknownVariant,
                        format!("{} has no variant with tag {tag}", def.name),
                    ));
                };
                let fields = r
                    .read_within(len, |r| {
                        if len == 0 {
                            Ok(Vec::new())
                        } else {
                            self.tolerant_fields(r, &v.fields)
                        }
                    })
                    .map_err(|e| e.in_field(&format!("::{}", v.name)))?;
                Ok(Value::Variant {
                    name: def.name.clone(),
                    variant: {
                        r.charge_memory(v.name.len())?;
                        v.name.clone()
                    },
                    fields,
                })
            }
        }
    }

    /// A tolerant field list: known tags by their schema, others skipped
    /// by their wire type (they are not part of the document).
    fn tolerant_fields<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        defs: &'s [FieldDef],
    ) -> Result<Vec<(String, Value)>> {
        let mut cursor = r.read_fields()?;
        let mut out = Vec::new();
        while let Some((tag, wire)) = cursor.next(r)? {
            let found = self.tag_index(defs.as_ptr().cast(), tag, || {
                defs.iter().enumerate().map(|(i, d)| (d.tag, i)).collect()
            });
            let Some(def) = found.and_then(|i| defs.get(i)) else {
                r.skip_field(wire)?;
                continue;
            };
            // The pair's slot (by capacity) and the name it copies.
            let most = defs.len().max(out.len() + 1);
            r.room_for_one(&mut out, most)?;
            r.charge_memory(def.name.len())?;
            let v = self
                .tolerant_value(r, &def.schema, wire)
                .map_err(|e| e.in_field(&format!(".{}", def.name)))?;
            out.push((def.name.clone(), v));
        }
        Ok(out)
    }

    /// One tolerant field's value, delimited by `wire`.
    fn tolerant_value<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        node: &'s TypeRef,
        wire: Wire,
    ) -> Result<Value> {
        if let Shape::Option(inner) = shape(node, self.schema)? {
            // An option of a self-delimiting type is its contents' field,
            // or `Null` for `None`.
            if wire_of::<L>(inner, self.schema, &mut self.rows)? != Wire::Framed {
                return match wire {
                    Wire::Null => Ok(Value::Optional(None)),
                    wire => Ok(Value::Optional(Some(Box::new(
                        self.tolerant_value(r, inner, wire)?,
                    )))),
                };
            }
        }
        let expected = wire_of::<L>(node, self.schema, &mut self.rows)?;
        if wire == Wire::Framed {
            // Framed is always readable: the value's plain encoding.
            let len = r.read_len()?;
            return r.read_within(len, |r| self.value(r, node));
        }
        if wire != expected {
            return Err(r.error(
                ErrorKind::InvalidValue,
                format!(
                    "the field is a {} on the wire; its schema `{node}` is a {}",
                    wire.name(),
                    expected.name()
                ),
            ));
        }
        self.value(r, node)
    }

    /// A node of a shape: the schema's, or a built-in's (no derived
    /// types, no shared values).
    fn node<L: crate::Layout>(&mut self, r: &mut Reader<'_, L>, node: &Node<'s>) -> Result<Value> {
        match node {
            Node::Schema(ty) => self.value(r, ty),
            Node::Builtin(ty) => builtin(r, ty),
        }
    }

    fn fields<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        fields: &'s [FieldDef],
    ) -> Result<Vec<(String, Value)>> {
        let mut out = Vec::new();
        for f in fields {
            r.room_for_one(&mut out, fields.len())?;
            r.charge_memory(f.name.len())?;
            let v = self
                .value(r, &f.schema)
                .map_err(|e| e.in_field(&format!(".{}", f.name)))?;
            out.push((f.name.clone(), v));
        }
        Ok(out)
    }

    /// A column of `n` values of `node` (format.md §27), as the typed
    /// decoders read it: packed integers, a string column, presence bits
    /// and the present values' column, a derived type's fields' columns
    /// (an enum's indexes first), or rows.
    fn column<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        node: &'s TypeRef,
        n: usize,
    ) -> Result<Vec<Value>> {
        if L::FIXED {
            return self.elements(r, n, |d, r| d.value(r, node));
        }
        if n == 0 {
            // No values, no bytes: nor a recursion through empty columns.
            return Ok(Vec::new());
        }
        match shape(node, self.schema)? {
            Shape::Scalar(s) if s.packs() => packed_values(r, s, false, n),
            Shape::NonZero(s) if s.packs() => packed_values(r, s, true, n),
            // A column of arrays is the column of all their elements.
            Shape::PackedArray(s, nonzero, len) => {
                let total = n.checked_mul(len).ok_or_else(|| r.alloc_error(n))?;
                let values = packed_values(r, s, nonzero, total)?;
                chunks(r, values, n, len)
            }
            Shape::Array(elem, len) if is_column::<L>(node, self.schema, &mut self.rows) => {
                let total = n.checked_mul(len).ok_or_else(|| r.alloc_error(n))?;
                let values = deeper(r, |r| self.column(r, elem, total))?;
                chunks(r, values, n, len)
            }
            Shape::Scalar(Scalar::Bool) => {
                let bits = crate::columns::read_bits(r, n)?;
                r.charge_memory(n.saturating_mul(VALUE_SIZE))?;
                Ok((0..n).map(|i| Value::Bool(bits.get(i))).collect())
            }
            shape @ (Shape::Seq(_) | Shape::Packed(..) | Shape::Bytes) if is_seq(node) => {
                self.seq_column(r, shape, n)
            }
            Shape::Tuple(types) => self.tuple_column(r, types, n),
            Shape::String => {
                r.charge_memory(n.saturating_mul(VALUE_SIZE))?;
                crate::impls::string::unpack_strs(r, n, |r, s| {
                    r.charge_memory(s.len())?;
                    Ok(Value::String(s.to_string()))
                })
            }
            Shape::Option(inner) => {
                let bits = crate::columns::read_bits(r, n)?;
                let present = bits.count();
                let mut values = deeper(r, |r| self.column(r, inner, present))?.into_iter();
                // The present values' column is freed once they are moved.
                let freed = values.len().saturating_mul(VALUE_SIZE);
                let mut out = Vec::new();
                for i in 0..n {
                    r.room_for_one(&mut out, n)?;
                    out.push(Value::Optional(match bits.get(i) {
                        true => {
                            r.charge_memory(VALUE_SIZE)?;
                            Some(Box::new(crate::read::lazy::next(r, &mut values)?))
                        }
                        false => None,
                    }));
                }
                r.refund_memory(freed);
                Ok(out)
            }
            // A derived type's columns count a level and grow the stack, as
            // a derived value does in rows: a schema's recursion goes
            // through a derived type, so this bounds it (arrays and
            // options only grow the stack).
            Shape::Named(def) if is_column::<L>(node, self.schema, &mut self.rows) => {
                deeper(r, |r| {
                    r.nested(|r| match &def.body {
                        Body::Struct(fields) => {
                            let columns = self.field_columns(r, fields, n, "")?;
                            self.rows_of(r, n, &def.name, None, fields, columns)
                        }
                        Body::Enum(variants) => self.enum_column(r, def, variants, n),
                    })
                })
            }
            _ => self.elements(r, n, |d, r| d.value(r, node)),
        }
    }

    /// A column of `n` sequences of `shape` (§27): their lengths, then
    /// the column of all their elements (as `impls::seq::unpack_seqs`
    /// reads it; on a grown stack, but no level counted, as for rows of
    /// sequences: only derived types recurse, and count).
    fn seq_column<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        shape: Shape<'s>,
        n: usize,
    ) -> Result<Vec<Value>> {
        let at = r.position();
        let lens: Vec<u64> = crate::packed::unpack_vec(r, n)?;
        let total = crate::columns::total_of(r, &lens, at)?;
        let mut out = Vec::new();
        if let Shape::Bytes = shape {
            let bytes: &[u8] = match total {
                0 => &[],
                _ => r.read_bytes(total)?,
            };
            r.charge_memory(total)?;
            let mut start = 0usize;
            for &len in &lens {
                r.room_for_one(&mut out, n)?;
                // Each length is at most the total, which fits in `usize`.
                let end = start + len as usize;
                let slice = bytes
                    .get(start..end)
                    .ok_or_else(|| crate::read::short_column(r))?;
                out.push(Value::Bytes(slice.to_vec()));
                start = end;
            }
            return Ok(out);
        }
        let values = match (total, shape) {
            (0, _) => Vec::new(),
            (_, Shape::Packed(s, nonzero)) => packed_values(r, s, nonzero, total)?,
            (_, Shape::Seq(elem)) => deeper(r, |r| self.column(r, elem, total))?,
            _ => return Err(crate::read::short_column(r)),
        };
        if values.len() != total {
            return Err(crate::read::short_column(r));
        }
        // The sequences' own vectors, besides the column's.
        r.charge_memory(total.saturating_mul(VALUE_SIZE))?;
        let mut values = values.into_iter();
        for &len in &lens {
            r.room_for_one(&mut out, n)?;
            out.push(Value::Seq(values.by_ref().take(len as usize).collect()));
        }
        // The column's vector is freed.
        r.refund_memory(total.saturating_mul(VALUE_SIZE));
        Ok(out)
    }

    /// A column of `n` tuples of `types`: each element's column in turn,
    /// then the tuples (as the typed `unpack_vec` of a tuple reads them).
    fn tuple_column<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        types: &'s [TypeRef],
        n: usize,
    ) -> Result<Vec<Value>> {
        let mut columns = Vec::new();
        for (i, ty) in types.iter().enumerate() {
            r.room_for_one(&mut columns, types.len())?;
            let column =
                deeper(r, |r| self.column(r, ty, n)).map_err(|e| e.in_field(&format!(".{i}")))?;
            if column.len() != n {
                return Err(crate::read::short_column(r));
            }
            columns.push(column.into_iter());
        }
        let mut out = Vec::new();
        for _ in 0..n {
            r.room_for_one(&mut out, n)?;
            r.charge_memory(types.len().saturating_mul(VALUE_SIZE))?;
            let mut items = Vec::with_capacity(types.len());
            for column in columns.iter_mut() {
                items.push(crate::read::lazy::next(r, column)?);
            }
            out.push(Value::Seq(items));
        }
        // The columns' vectors are freed.
        r.refund_memory(n.saturating_mul(types.len()).saturating_mul(VALUE_SIZE));
        Ok(out)
    }

    /// A column of `n` values of the enum `def`: the indexes, then each
    /// present variant's fields' columns (absent ones take no bytes and
    /// no work, so a schema of many variants costs nothing per column).
    fn enum_column<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        def: &'s crate::schema::TypeDef,
        variants: &'s [crate::schema::VariantDef],
        n: usize,
    ) -> Result<Vec<Value>> {
        let tags: Vec<u32> = crate::packed::unpack_vec(r, n)?;
        let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, &tag) in tags.iter().enumerate() {
            if tag as usize >= variants.len() {
                return Err(r
                    .error(
                        ErrorKind::UnknownVariant,
                        format!("{} has no variant with tag {tag}", def.name),
                    )
                    .in_field(&format!("[{i}]")));
            }
            *counts.entry(tag as usize).or_default() += 1;
        }
        let mut each = BTreeMap::new();
        for (&index, &count) in &counts {
            let Some(v) = variants.get(index) else {
                return Err(crate::read::short_column(r));
            };
            let columns = self.field_columns(r, &v.fields, count, &format!("::{}", v.name))?;
            let rows = self.rows_of(r, count, &def.name, Some(&v.name), &v.fields, columns)?;
            each.insert(index, rows.into_iter());
        }
        let mut out = Vec::new();
        for &tag in &tags {
            r.room_for_one(&mut out, n)?;
            let column = each
                .get_mut(&(tag as usize))
                .ok_or_else(|| crate::read::short_column(r))?;
            out.push(crate::read::lazy::next(r, column)?);
        }
        r.refund_memory(n.saturating_mul(VALUE_SIZE));
        Ok(out)
    }

    /// The columns of `fields`, `n` values each.
    fn field_columns<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        fields: &'s [FieldDef],
        n: usize,
        prefix: &str,
    ) -> Result<Vec<Vec<Value>>> {
        let mut columns = Vec::new();
        for f in fields {
            r.room_for_one(&mut columns, fields.len())?;
            let column = self
                .column(r, &f.schema, n)
                .map_err(|e| e.in_field(&format!("{prefix}.{}", f.name)))?;
            columns.push(column);
        }
        Ok(columns)
    }

    /// `n` structs (or variants `variant` of the enum `name`) from their
    /// fields' columns.
    fn rows_of<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        n: usize,
        name: &str,
        variant: Option<&str>,
        fields: &'s [FieldDef],
        columns: Vec<Vec<Value>>,
    ) -> Result<Vec<Value>> {
        // The columns' vectors are freed once their values are moved.
        let freed = columns
            .iter()
            .map(|c| c.len().saturating_mul(VALUE_SIZE))
            .fold(0usize, usize::saturating_add);
        let mut columns: Vec<_> = columns.into_iter().map(Vec::into_iter).collect();
        let names: usize = fields.iter().map(|f| f.name.len()).sum();
        let each = fields
            .len()
            .saturating_mul(PAIR_SIZE)
            .saturating_add(names + name.len() + variant.map_or(0, str::len));
        let mut out = Vec::new();
        for _ in 0..n {
            r.room_for_one(&mut out, n)?;
            r.charge_memory(each)?;
            let mut values = Vec::with_capacity(fields.len());
            for (f, column) in fields.iter().zip(columns.iter_mut()) {
                values.push((f.name.clone(), crate::read::lazy::next(r, column)?));
            }
            out.push(match variant {
                None => Value::Struct {
                    name: name.to_string(),
                    fields: values,
                },
                Some(variant) => Value::Variant {
                    name: name.to_string(),
                    variant: variant.to_string(),
                    fields: values,
                },
            });
        }
        r.refund_memory(freed);
        Ok(out)
    }

    /// `len` elements read by `each`, one nesting level down, each charged
    /// before it is built.
    fn elements<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        len: usize,
        mut each: impl FnMut(&mut Self, &mut Reader<'_, L>) -> Result<Value>,
    ) -> Result<Vec<Value>> {
        deeper(r, |r| {
            let mut out = Vec::new();
            for i in 0..len {
                r.room_for_one(&mut out, len)?;
                out.push(each(self, r).map_err(|e| e.in_field(&format!("[{i}]")))?);
            }
            Ok(out)
        })
    }

    /// The position of `tag` in the list at `key`, from an index built on
    /// the list's first use.
    fn tag_index(
        &mut self,
        key: *const (),
        tag: u32,
        build: impl FnOnce() -> BTreeMap<u32, usize>,
    ) -> Option<usize> {
        self.tags
            .entry(key)
            .or_insert_with(build)
            .get(&tag)
            .copied()
    }

    /// A schema node's structural hash, computed once per node.
    fn type_hash(&mut self, node: &'s TypeRef) -> u64 {
        *self
            .hashes
            .entry(node as *const TypeRef)
            .or_insert_with(|| crate::schema::hash_str(&node.to_string()))
    }

    fn shared<L: crate::Layout>(
        &mut self,
        r: &mut Reader<'_, L>,
        inner: &'s TypeRef,
        weak: bool,
    ) -> Result<Value> {
        let at = r.position();
        let tag = r.read_varint()?;
        match tag {
            TAG_NEW => {
                let id = self.shared.len() as u64;
                self.shared.push(inner);
                r.charge_memory(VALUE_SIZE)?;
                let v = deeper(r, |r| self.value(r, inner))?;
                Ok(Value::Shared {
                    id,
                    value: Box::new(v),
                })
            }
            TAG_NULL if weak => Ok(Value::Dangling),
            TAG_NULL => Err(r.null_strong(at, "an Rc or Arc")),
            n => {
                let id = n - TAG_ID_BASE;
                // `try_from`: on a 32-bit target a cast would wrap id 2^32
                // onto shared value 0.
                let Some(&ty) = usize::try_from(id).ok().and_then(|i| self.shared.get(i)) else {
                    return Err(r.error_at(
                        at,
                        ErrorKind::InvalidReference,
                        format!("reference to shared value {id}, which is not defined yet"),
                    ));
                };
                if core::ptr::eq(ty, inner) || self.type_hash(ty) == self.type_hash(inner) {
                    Ok(Value::Reference(id))
                } else {
                    Err(r.error_at(
                        at,
                        ErrorKind::InvalidReference,
                        format!("shared value {id} is a `{ty}`, the reference wants a `{inner}`"),
                    ))
                }
            }
        }
    }
}

/// `values` in `n` sequences of `len` (a column of arrays).
fn chunks<L: crate::Layout>(
    r: &mut Reader<'_, L>,
    values: Vec<Value>,
    n: usize,
    len: usize,
) -> Result<Vec<Value>> {
    // The arrays' own vectors, besides the column's (given back below).
    r.charge_memory(n.saturating_mul(len).saturating_mul(VALUE_SIZE))?;
    let mut values = values.into_iter();
    let mut out = Vec::new();
    for _ in 0..n {
        r.room_for_one(&mut out, n)?;
        let chunk: Vec<Value> = values.by_ref().take(len).collect();
        if chunk.len() != len {
            return Err(crate::read::short_column(r));
        }
        out.push(Value::Seq(chunk));
    }
    r.refund_memory(n.saturating_mul(len).saturating_mul(VALUE_SIZE));
    Ok(out)
}

/// Runs `f` on a fresh stack segment if this one runs low (built-in
/// nesting is bounded by the schema's depth; only derived types, where
/// recursion happens, count toward `Options::max_depth`, so a value nests
/// as deep as its typed decoder allows).
#[inline]
fn deeper<'de, R, L: crate::Layout>(
    r: &mut Reader<'de, L>,
    f: impl FnOnce(&mut Reader<'de, L>) -> Result<R>,
) -> Result<R> {
    crate::stack::grow(|| f(r))
}

/// A built-in node, which names no derived type.
fn builtin<L: crate::Layout>(r: &mut Reader<'_, L>, node: &TypeRef) -> Result<Value> {
    Decoder {
        schema: &NO_TYPES,
        shared: Vec::new(),
        hashes: BTreeMap::new(),
        tags: BTreeMap::new(),
        dyn_tags: DynTags::default(),
        others: BTreeMap::new(),
        rows: super::builtin::Rows::remembering_nodes(),
    }
    .value(r, node)
}

#[cold]
fn bad_tag<L: crate::Layout>(r: &Reader<'_, L>, at: usize, tag: u8, what: &str) -> Error {
    r.error_at(
        at,
        ErrorKind::UnknownVariant,
        format!("{what} has no variant with tag {tag}"),
    )
}

/// One scalar, read as its Rust type reads it.
pub(super) fn scalar<L: crate::Layout>(r: &mut Reader<'_, L>, s: Scalar) -> Result<Value> {
    Ok(match s {
        Scalar::Unit => Value::Unit,
        Scalar::Bool => Value::Bool(bool::unpack(r)?),
        Scalar::Char => Value::Char(char::unpack(r)?),
        Scalar::F32 => Value::F32(f32::unpack(r)?),
        Scalar::F64 => Value::F64(f64::unpack(r)?),
        Scalar::U8 => Value::U8(u8::unpack(r)?),
        Scalar::U16 => Value::U16(u16::unpack(r)?),
        Scalar::U32 => Value::U32(u32::unpack(r)?),
        Scalar::U64 => Value::U64(u64::unpack(r)?),
        Scalar::U128 => Value::U128(u128::unpack(r)?),
        Scalar::I8 => Value::I8(i8::unpack(r)?),
        Scalar::I16 => Value::I16(i16::unpack(r)?),
        Scalar::I32 => Value::I32(i32::unpack(r)?),
        Scalar::I64 => Value::I64(i64::unpack(r)?),
        Scalar::I128 => Value::I128(i128::unpack(r)?),
    })
}

/// `len` packed integers (format.md §22), checked against the input (two
/// bytes a block) and charged before they are built.
fn packed<L: crate::Layout>(
    r: &mut Reader<'_, L>,
    s: Scalar,
    nonzero: bool,
    len: usize,
) -> Result<Value> {
    packed_values(r, s, nonzero, len).map(Value::Seq)
}

/// [`packed`]'s values.
fn packed_values<L: crate::Layout>(
    r: &mut Reader<'_, L>,
    s: Scalar,
    nonzero: bool,
    len: usize,
) -> Result<Vec<Value>> {
    // In the fixed layout the values take exactly their widths; packed
    // blocks (§22) take at least two bytes for each 256.
    let least = if L::FIXED {
        let width = match s {
            Scalar::U16 | Scalar::I16 => 2,
            Scalar::U32 | Scalar::I32 => 4,
            Scalar::U64 | Scalar::I64 => 8,
            _ => 16,
        };
        len.saturating_mul(width)
    } else {
        crate::packed::layout::min_size(len)
    };
    if least > r.remaining() {
        return Err(r.error(
            ErrorKind::UnexpectedEnd,
            format!(
                "declared length {len} needs at least {least} bytes, {} remain",
                r.remaining()
            ),
        ));
    }
    r.charge_memory(len.saturating_mul(VALUE_SIZE))?;
    let at = r.position();
    fn lift<'de, T: Unpack<'de>, L: crate::Layout>(
        r: &mut Reader<'de, L>,
        len: usize,
        f: fn(T) -> Value,
    ) -> Result<Vec<Value>> {
        Ok(T::unpack_vec(r, len)?.into_iter().map(f).collect())
    }
    let values = match s {
        Scalar::U16 => lift::<u16, _>(r, len, Value::U16)?,
        Scalar::U32 => lift::<u32, _>(r, len, Value::U32)?,
        Scalar::U64 => lift::<u64, _>(r, len, Value::U64)?,
        Scalar::U128 => lift::<u128, _>(r, len, Value::U128)?,
        Scalar::I16 => lift::<i16, _>(r, len, Value::I16)?,
        Scalar::I32 => lift::<i32, _>(r, len, Value::I32)?,
        Scalar::I64 => lift::<i64, _>(r, len, Value::I64)?,
        Scalar::I128 => lift::<i128, _>(r, len, Value::I128)?,
        _ => {
            return Err(r.error(
                ErrorKind::InvalidValue,
                "a packed sequence of a type that does not pack",
            ))
        }
    };
    if nonzero && values.iter().any(Value::is_zero_integer) {
        return Err(r.error_at(at, ErrorKind::InvalidValue, "a NonZero value of zero"));
    }
    Ok(values)
}
