//! `binform::Value` as JSON and back. Writing needs no schema: each value
//! says what it is. Well-known types print in their usual text forms
//! (`Value::text`: UUIDs, RFC 3339 dates and times, decimals, addresses),
//! and maps with string keys as objects. Reading JSON gives a loose value (numbers of any
//! width, objects as maps) that `binform::value::conform` fits to the
//! schema, so that `to-json` then `from-json` writes the same bytes.

use binform::Value;
use serde_json::{Map, Number, Value as Json};

/// A value as JSON (the forms `binform::value::conform` reads back).
pub fn to_json(v: &Value) -> Json {
    if let Some(text) = v.text() {
        return Json::String(text);
    }
    match v {
        Value::Unit => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::U8(x) => (*x).into(),
        Value::U16(x) => (*x).into(),
        Value::U32(x) => (*x).into(),
        Value::U64(x) => (*x).into(),
        Value::I8(x) => (*x).into(),
        Value::I16(x) => (*x).into(),
        Value::I32(x) => (*x).into(),
        Value::I64(x) => (*x).into(),
        // Beyond what JSON numbers hold exactly: decimal strings.
        Value::U128(x) => Json::String(x.to_string()),
        Value::I128(x) => Json::String(x.to_string()),
        Value::F32(x) if x.is_nan() => nan(u64::from(x.to_bits()), u64::from(f32::NAN.to_bits())),
        Value::F64(x) if x.is_nan() => nan(x.to_bits(), f64::NAN.to_bits()),
        Value::F32(x) => float(f64::from(*x)),
        Value::F64(x) => float(*x),
        Value::Char(c) => Json::String(c.to_string()),
        Value::String(s) => Json::String(s.clone()),
        Value::Bytes(b) => Json::Array(b.iter().map(|x| (*x).into()).collect()),
        Value::Seq(items) => Json::Array(items.iter().map(to_json).collect()),
        Value::Map(entries) => match object(entries) {
            Some(object) => Json::Object(object),
            None => Json::Array(
                entries
                    .iter()
                    .map(|(k, v)| Json::Array(vec![to_json(k), to_json(v)]))
                    .collect(),
            ),
        },
        Value::Optional(None) => Json::Null,
        Value::Optional(Some(inner)) => match **inner {
            // `null` would read back as `None`: say `Some`.
            Value::Optional(_) | Value::Unit => one("Some", to_json(inner)),
            _ => to_json(inner),
        },
        Value::Struct { fields, .. } => fields_json(fields),
        Value::Variant {
            variant, fields, ..
        } => match fields.as_slice() {
            [] => Json::String(variant.clone()),
            [(name, only)] if name == "0" => one(variant, to_json(only)),
            fields => one(variant, fields_json(fields)),
        },
        Value::Shared { id, value } => {
            let mut m = Map::new();
            m.insert("$shared".into(), (*id).into());
            m.insert("value".into(), to_json(value));
            Json::Object(m)
        }
        Value::Reference(id) => one("$ref", (*id).into()),
        Value::Dangling => one("$dangling", Json::Bool(true)),
        Value::Document { value, .. } => to_json(value),
        // `Value` may gain kinds; show them as their Display text.
        #[allow(unreachable_patterns)]
        other => Json::String(other.to_string()),
    }
}

fn float(x: f64) -> Json {
    match Number::from_f64(x) {
        Some(n) => Json::Number(n),
        None if x > 0.0 => Json::String("inf".into()),
        None => Json::String("-inf".into()),
    }
}

/// A NaN: `"NaN"` if it is the usual one, else its bits, so that the sign
/// and payload survive a round trip.
fn nan(bits: u64, canonical: u64) -> Json {
    if bits == canonical {
        Json::String("NaN".into())
    } else {
        Json::String(format!("NaN:0x{bits:x}"))
    }
}

/// A map whose keys are all strings (or have a text form, as a UUID),
/// each once, as a JSON object in the payload's order; else `None` (it
/// prints as `[key, value]` pairs).
fn object(entries: &[(Value, Value)]) -> Option<Map<String, Json>> {
    // The keys first, so that a map that falls back to pairs has not
    // converted its values already (nested, that would double the work
    // at each level).
    let mut keys = Vec::with_capacity(entries.len());
    let mut seen = std::collections::HashSet::with_capacity(entries.len());
    for (k, _) in entries {
        let key = match k {
            Value::String(s) => s.clone(),
            other => other.text()?,
        };
        if !seen.insert(key.clone()) {
            return None;
        }
        keys.push(key);
    }
    Some(
        keys.into_iter()
            .zip(entries)
            .map(|(key, (_, v))| (key, to_json(v)))
            .collect(),
    )
}

fn one(key: &str, value: Json) -> Json {
    let mut m = Map::new();
    m.insert(key.into(), value);
    Json::Object(m)
}

fn fields_json(fields: &[(String, Value)]) -> Json {
    Json::Object(
        fields
            .iter()
            .map(|(n, v)| (n.clone(), to_json(v)))
            .collect(),
    )
}

/// JSON as a loose value, for `binform::value::conform`.
pub fn from_json(j: &Json) -> Value {
    match j {
        Json::Null => Value::Unit,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Value::U64(u),
            (_, Some(i), _) => Value::I64(i),
            (_, _, Some(f)) => Value::F64(f),
            _ => Value::String(n.to_string()),
        },
        Json::String(s) => Value::String(s.clone()),
        Json::Array(items) => Value::Seq(items.iter().map(from_json).collect()),
        Json::Object(m) => Value::Map(
            m.iter()
                .map(|(k, v)| (Value::String(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}
