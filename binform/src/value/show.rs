//! `Display` for [`Value`]: an indented tree, one field or element a
//! line, integers with their width (`36u8`), shared values numbered
//! (`#0 = …`) and references to them as `-> #0`.

use alloc::format;
use alloc::string::{String, ToString};
use core::fmt::{self, Write};

use super::Value;

/// Deeper than this, a subtree prints as `…`: decoding never builds one
/// this deep, and a tree built by hand cannot overflow the stack here.
const MAX_DEPTH: usize = 512;

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        show(f, self.root(), 0)
    }
}

/// Levels of indentation at most: deeper lines are indented as much, so
/// that a deep document's text grows with its size, not its depth times
/// its size.
const MAX_INDENT: usize = 16;

fn indent(f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
    for _ in 0..depth.min(MAX_INDENT) {
        f.write_str("  ")?;
    }
    Ok(())
}

/// Children one a line, between `open` and `close`.
fn block<'v, I>(
    f: &mut fmt::Formatter<'_>,
    depth: usize,
    open: &str,
    close: &str,
    items: I,
) -> fmt::Result
where
    I: IntoIterator<Item = (Option<&'v str>, Option<&'v Value>, &'v Value)>,
{
    let mut items = items.into_iter().peekable();
    if items.peek().is_none() {
        return write!(f, "{open}{close}");
    }
    writeln!(f, "{open}")?;
    for (name, key, value) in items {
        indent(f, depth + 1)?;
        if let Some(name) = name {
            write!(f, "{}: ", Name(name))?;
        }
        if let Some(key) = key {
            show(f, key, depth + 1)?;
            f.write_str(" => ")?;
        }
        show(f, value, depth + 1)?;
        f.write_char('\n')?;
    }
    indent(f, depth)?;
    f.write_str(close)
}

fn show(f: &mut fmt::Formatter<'_>, v: &Value, depth: usize) -> fmt::Result {
    if depth > MAX_DEPTH {
        return f.write_str("…");
    }
    // On a fresh stack segment when this one runs low: formatting frames
    // are large in debug builds.
    crate::stack::grow(|| show_here(f, v, depth))
}

fn show_here(f: &mut fmt::Formatter<'_>, v: &Value, depth: usize) -> fmt::Result {
    match v {
        Value::Unit => f.write_str("()"),
        Value::Bool(x) => write!(f, "{x}"),
        Value::U8(x) => write!(f, "{x}u8"),
        Value::U16(x) => write!(f, "{x}u16"),
        Value::U32(x) => write!(f, "{x}u32"),
        Value::U64(x) => write!(f, "{x}u64"),
        Value::U128(x) => write!(f, "{x}u128"),
        Value::I8(x) => write!(f, "{x}i8"),
        Value::I16(x) => write!(f, "{x}i16"),
        Value::I32(x) => write!(f, "{x}i32"),
        Value::I64(x) => write!(f, "{x}i64"),
        Value::I128(x) => write!(f, "{x}i128"),
        Value::F32(x) => write!(f, "{x:?}f32"),
        Value::F64(x) => write!(f, "{x:?}f64"),
        Value::Char(x) => write!(f, "{x:?}"),
        Value::String(x) => write!(f, "{x:?}"),
        Value::Bytes(bytes) => {
            write!(f, "bytes[{}]", bytes.len())?;
            for b in bytes.iter().take(64) {
                write!(f, " {b:02x}")?;
            }
            if bytes.len() > 64 {
                f.write_str(" …")?;
            }
            Ok(())
        }
        Value::Seq(items) => block(f, depth, "[", "]", items.iter().map(|v| (None, None, v))),
        Value::Map(entries) => block(
            f,
            depth,
            "{",
            "}",
            entries.iter().map(|(k, v)| (None, Some(k), v)),
        ),
        Value::Optional(None) => f.write_str("None"),
        Value::Optional(Some(inner)) => {
            f.write_str("Some(")?;
            show(f, inner, depth + 1)?;
            f.write_char(')')
        }
        Value::Struct { name, fields } => {
            write!(f, "{name} ")?;
            block(
                f,
                depth,
                "{",
                "}",
                fields.iter().map(|(n, v)| (Some(n.as_str()), None, v)),
            )
        }
        Value::Variant {
            name,
            variant,
            fields,
        } => {
            write!(f, "{}::{}", Name(name), Name(variant))?;
            if fields.is_empty() {
                return Ok(());
            }
            f.write_char(' ')?;
            block(
                f,
                depth,
                "{",
                "}",
                fields.iter().map(|(n, v)| (Some(n.as_str()), None, v)),
            )
        }
        Value::Shared { id, value } => {
            write!(f, "#{id} = ")?;
            show(f, value, depth + 1)
        }
        Value::Reference(id) => write!(f, "-> #{id}"),
        Value::Dangling => f.write_str("(dangling weak)"),
        Value::Document { value, .. } => show(f, value, depth + 1),
    }
}

/// A name from a schema, which a payload may fill with anything: control
/// characters are escaped, so printing a hostile payload cannot drive the
/// terminal.
struct Name<'a>(&'a str);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

/// A value's kind, for errors (without walking its contents).
pub(super) fn kind(v: &Value) -> String {
    let simple = match v {
        Value::Struct { name, .. } => return format!("a `{name}` struct"),
        Value::Variant { name, variant, .. } => return format!("`{name}::{variant}`"),
        Value::Unit => "unit",
        Value::Bool(_) => "a bool",
        Value::U8(_) => "a u8",
        Value::U16(_) => "a u16",
        Value::U32(_) => "a u32",
        Value::U64(_) => "a u64",
        Value::U128(_) => "a u128",
        Value::I8(_) => "an i8",
        Value::I16(_) => "an i16",
        Value::I32(_) => "an i32",
        Value::I64(_) => "an i64",
        Value::I128(_) => "an i128",
        Value::F32(_) => "an f32",
        Value::F64(_) => "an f64",
        Value::Char(_) => "a char",
        Value::String(_) => "a string",
        Value::Bytes(_) => "bytes",
        Value::Seq(_) => "a sequence",
        Value::Map(_) => "a map",
        Value::Optional(_) => "an option",
        Value::Shared { .. } => "a shared value",
        Value::Reference(_) => "a reference",
        Value::Dangling => "a dangling weak",
        Value::Document { .. } => "a document",
    };
    simple.to_string()
}
