//! `binform::Value` as JSON and back. Writing needs no schema: each value
//! says what it is. Well-known types print in their usual text forms
//! (`Value::text`: UUIDs, RFC 3339 dates and times, decimals, addresses),
//! and maps with string keys as objects. Reading JSON gives a loose value (numbers of any
//! width, objects as maps) that `binform::value::conform` fits to the
//! schema, so that `to-json` then `from-json` writes the same bytes.

use binform::Value;
use serde::{Serialize, Serializer};
use serde_json::{Number, Value as JsonValue};

/// The text of `v` as indented JSON, in the forms
/// `binform::value::conform` reads back.
///
/// Its cost is bounded by what was read, whatever the document's shape:
/// it is written straight from the value (no JSON tree to build, drop or
/// print by recursion), each level on a grown stack; indentation stops
/// growing past [`MAX_INDENT`] levels (at 2 spaces a level a document
/// nested 10,000 deep indented each line by 20 KB: 11 KB of input wrote
/// 269 MB); and past `limit` bytes of output it stops with an error.
pub fn write(v: &Value, limit: usize) -> Result<Vec<u8>, String> {
    let mut out = Capped {
        out: Vec::new(),
        limit,
        hit: false,
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Indent::default());
    match Json(v).serialize(&mut ser) {
        Ok(()) => Ok(out.out),
        Err(_) if out.hit => Err(format!(
            "the JSON would be over {limit} bytes; the document is too large or too deep to print"
        )),
        Err(e) => Err(format!("cannot print JSON: {e}")),
    }
}

/// Levels of indentation at most: deeper lines are indented as much.
pub const MAX_INDENT: usize = 16;

/// The stack left below which a level moves to a new segment, and the
/// segment's size (a level here is a few small frames).
const RED_ZONE: usize = 256 * 1024;
const SEGMENT: usize = 2 * 1024 * 1024;

/// A buffer that refuses to grow past `limit` bytes.
struct Capped {
    out: Vec<u8>,
    limit: usize,
    /// Whether a write was refused for the limit.
    hit: bool,
}

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.out.len() + buf.len() > self.limit {
            self.hit = true;
            return Err(std::io::Error::other("output limit"));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// serde_json's pretty layout (two spaces a level), with the indentation
/// capped at [`MAX_INDENT`] levels.
#[derive(Default)]
struct Indent {
    depth: usize,
    has_value: bool,
}

impl Indent {
    fn indent<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        for _ in 0..self.depth.min(MAX_INDENT) {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(c)
    }

    fn close<W: ?Sized + std::io::Write>(&mut self, w: &mut W, c: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(c)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }
}

impl serde_json::ser::Formatter for Indent {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// A value, serialized in the CLI's JSON forms.
struct Json<'a>(&'a Value);

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        stacker::maybe_grow(RED_ZONE, SEGMENT, || json(self.0, s))
    }
}

fn json<S: Serializer>(v: &Value, s: S) -> Result<S::Ok, S::Error> {
    if let Some(text) = v.text() {
        return s.serialize_str(&text);
    }
    match v {
        Value::Unit => s.serialize_unit(),
        Value::Bool(b) => s.serialize_bool(*b),
        Value::U8(x) => s.serialize_u8(*x),
        Value::U16(x) => s.serialize_u16(*x),
        Value::U32(x) => s.serialize_u32(*x),
        Value::U64(x) => s.serialize_u64(*x),
        Value::I8(x) => s.serialize_i8(*x),
        Value::I16(x) => s.serialize_i16(*x),
        Value::I32(x) => s.serialize_i32(*x),
        Value::I64(x) => s.serialize_i64(*x),
        // Beyond what JSON numbers hold exactly: decimal strings.
        Value::U128(x) => s.serialize_str(&x.to_string()),
        Value::I128(x) => s.serialize_str(&x.to_string()),
        Value::F32(x) if x.is_nan() => {
            s.serialize_str(&nan(u64::from(x.to_bits()), u64::from(f32::NAN.to_bits())))
        }
        Value::F64(x) if x.is_nan() => s.serialize_str(&nan(x.to_bits(), f64::NAN.to_bits())),
        Value::F32(x) => float(f64::from(*x)).serialize(s),
        Value::F64(x) => float(*x).serialize(s),
        Value::Char(c) => s.serialize_char(*c),
        Value::String(text) => s.serialize_str(text),
        Value::Bytes(b) => s.collect_seq(b.iter()),
        Value::Seq(items) => s.collect_seq(items.iter().map(Json)),
        Value::Map(entries) => match object_keys(entries) {
            Some(keys) => s.collect_map(keys.into_iter().zip(entries.iter().map(|(_, v)| Json(v)))),
            None => s.collect_seq(entries.iter().map(|(k, v)| (Json(k), Json(v)))),
        },
        Value::Optional(None) => s.serialize_unit(),
        Value::Optional(Some(inner)) => match **inner {
            // `null` would read back as `None`: say `Some`.
            Value::Optional(_) | Value::Unit => s.collect_map([("Some", Json(inner))]),
            _ => json(inner, s),
        },
        Value::Struct { fields, .. } => Fields(fields).serialize(s),
        Value::Variant {
            variant, fields, ..
        } => match fields.as_slice() {
            [] => s.serialize_str(variant),
            [(name, only)] if name == "0" => s.collect_map([(variant, Json(only))]),
            fields => s.collect_map([(variant, Fields(fields))]),
        },
        Value::Shared { id, value } => s.collect_map([
            ("$shared", Either::Id(*id)),
            ("value", Either::Value(Json(value))),
        ]),
        Value::Reference(id) => s.collect_map([("$ref", *id)]),
        Value::Dangling => s.collect_map([("$dangling", true)]),
        Value::Document { value, .. } => json(value, s),
        // `Value` may gain kinds; show them as their Display text.
        #[allow(unreachable_patterns)]
        other => s.serialize_str(&other.to_string()),
    }
}

/// A struct's or variant's fields, as an object.
struct Fields<'a>(&'a [(String, Value)]);

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(n, v)| (n, Json(v))))
    }
}

/// An id or a value, for `{"$shared": id, "value": v}`.
enum Either<'a> {
    Id(u64),
    Value(Json<'a>),
}

impl Serialize for Either<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Either::Id(id) => s.serialize_u64(*id),
            Either::Value(v) => v.serialize(s),
        }
    }
}

/// The keys of a map whose keys are all strings (or have a text form, as
/// a UUID), each once, to print it as a JSON object in the payload's
/// order; else `None` (it prints as `[key, value]` pairs).
fn object_keys(entries: &[(Value, Value)]) -> Option<Vec<String>> {
    let mut keys = Vec::with_capacity(entries.len());
    for (k, _) in entries {
        keys.push(match k {
            Value::String(s) => s.clone(),
            other => other.text()?,
        });
    }
    let mut seen = std::collections::HashSet::with_capacity(keys.len());
    keys.iter().all(|k| seen.insert(k.as_str())).then_some(keys)
}

fn float(x: f64) -> JsonValue {
    match Number::from_f64(x) {
        Some(n) => JsonValue::Number(n),
        None if x > 0.0 => JsonValue::String("inf".into()),
        None => JsonValue::String("-inf".into()),
    }
}

/// A NaN: `"NaN"` if it is the usual one, else its bits, so that the sign
/// and payload survive a round trip.
fn nan(bits: u64, canonical: u64) -> String {
    if bits == canonical {
        "NaN".into()
    } else {
        format!("NaN:0x{bits:x}")
    }
}

/// JSON as a loose value, for `binform::value::conform`.
pub fn from_json(j: &JsonValue) -> Value {
    match j {
        JsonValue::Null => Value::Unit,
        JsonValue::Bool(b) => Value::Bool(*b),
        JsonValue::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Value::U64(u),
            (_, Some(i), _) => Value::I64(i),
            (_, _, Some(f)) => Value::F64(f),
            _ => Value::String(n.to_string()),
        },
        JsonValue::String(s) => Value::String(s.clone()),
        JsonValue::Array(items) => Value::Seq(items.iter().map(from_json).collect()),
        JsonValue::Object(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (Value::String(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use binform::Value;

    #[test]
    fn output_past_the_limit_is_an_error() {
        let v = Value::Seq(vec![Value::Bool(true); 1000]);
        let text = super::write(&v, 1 << 20).unwrap();
        assert!(text.starts_with(b"[\n  true,\n  true"));
        let err = super::write(&v, 100).unwrap_err();
        assert!(err.contains("over 100 bytes"), "{err}");
    }

    #[test]
    fn indentation_stops_growing() {
        let mut v = Value::Bool(true);
        for _ in 0..100 {
            v = Value::Seq(vec![v]);
        }
        let text = String::from_utf8(super::write(&v, 1 << 20).unwrap()).unwrap();
        let widest = text.lines().map(|l| l.len() - l.trim_start().len()).max();
        assert_eq!(widest, Some(2 * super::MAX_INDENT));
    }
}
