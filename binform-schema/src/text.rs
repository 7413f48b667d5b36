//! The lock-file text: what `Display` for [`Schema`] writes and [`parse`]
//! reads back (`docs/versioning.md`, "Lock files").
//!
//! ```text
//! root seq<Point>
//! struct Point compact
//!   field 0 x i32
//!   field 1 label option<string>
//! enum Shape tolerant
//!   reserved 3
//!   variant 0 Circle
//!     field 0 r f64
//!   variant 1 Unknown other
//! ```
//!
//! A type is a derived type exactly when the file has a block for it
//! (`struct NAME ...` or `enum NAME ...`): every derived type a schema
//! reaches is written with its block, so the blocks say which names are
//! derived, whatever their case. A name with no block is a built-in
//! encoding (`u32`, `seq<T>`, or a hand-written impl's own name). A derived
//! type's name includes its generic arguments (`Wrapper<u32>`), written
//! without spaces.

use alloc::borrow::ToOwned;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::model::{Body, FieldDef, Schema, TypeDef, TypeRef, Types, VariantDef};
use crate::MAX_DEPTH;

impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeRef::Named(name) => f.write_str(name),
            TypeRef::Builtin { name, args } => {
                f.write_str(name)?;
                if !args.is_empty() {
                    f.write_str("<")?;
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{a}")?;
                    }
                    f.write_str(">")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "root {}", self.root)?;
        for def in self.types.values() {
            let kind = match def.body {
                Body::Struct(_) => "struct",
                Body::Enum(_) => "enum",
            };
            let mode = if def.tolerant { "tolerant" } else { "compact" };
            writeln!(f, "{kind} {} {mode}", def.name)?;
            if !def.reserved.is_empty() {
                let tags: Vec<String> = def.reserved.iter().map(u32::to_string).collect();
                writeln!(f, "  reserved {}", tags.join(" "))?;
            }
            match &def.body {
                Body::Struct(fields) => write_fields(f, fields, "  ")?,
                Body::Enum(variants) => {
                    for v in variants {
                        let other = if v.other { " other" } else { "" };
                        writeln!(f, "  variant {} {}{other}", v.tag, v.name)?;
                        write_fields(f, &v.fields, "    ")?;
                    }
                }
            }
        }
        Ok(())
    }
}

fn write_fields(f: &mut fmt::Formatter<'_>, fields: &[FieldDef], indent: &str) -> fmt::Result {
    for field in fields {
        writeln!(
            f,
            "{indent}field {} {} {}",
            field.tag, field.name, field.schema
        )?;
    }
    Ok(())
}

/// Parses the text that `Display` for [`Schema`] writes. Lock files are
/// input (they arrive in pull requests), so the parser is strict, linear in
/// the text and bounded in depth ([`MAX_DEPTH`]), and every error names its
/// line and column: `line 3, column 14: expected a type, found `,``.
///
/// ```
/// let err = binform_schema::parse("root seq<,>").unwrap_err();
/// assert!(err.starts_with("line 1, column 10: expected a type"), "{err}");
/// ```
pub fn parse(text: &str) -> Result<Schema, String> {
    let derived = block_names(text);
    let mut root = None;
    let mut types = Types::new();
    let mut current: Option<TypeDef> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let at =
            |column: usize, what: &str| format!("line {}, column {}: {what}", n + 1, column + 1);
        let words = Words::new(line);
        let Some((keyword, _)) = words.word(0) else {
            continue;
        };
        if keyword.starts_with('#') {
            continue;
        }
        let ty = |i: usize| -> Result<TypeRef, String> {
            let (text, offset) = words
                .rest(i)
                .ok_or_else(|| at(line.len(), "expected a type"))?;
            parse_type(text, &derived).map_err(|(c, e)| at(offset + c, &e))
        };
        let tag = |i: usize| -> Result<u32, String> {
            let (tag, column) = words
                .word(i)
                .ok_or_else(|| at(line.len(), "expected a tag"))?;
            tag.parse()
                .map_err(|_| at(column, "expected a tag (a number)"))
        };
        let name = |i: usize, what: &str| -> Result<String, String> {
            let (name, _) = words
                .word(i)
                .ok_or_else(|| at(line.len(), &format!("expected {what}")))?;
            Ok(name.to_owned())
        };
        match keyword {
            "root" => {
                if root.is_some() {
                    return Err(at(0, "a second `root` line"));
                }
                root = Some(ty(1)?);
            }
            "struct" | "enum" => {
                let name = name(1, "a type name")?;
                let (mode, column) = words
                    .word(2)
                    .ok_or_else(|| at(line.len(), "expected `compact` or `tolerant`"))?;
                let tolerant = match mode {
                    "compact" => false,
                    "tolerant" => true,
                    _ => {
                        let what = format!("expected `compact` or `tolerant`, found `{mode}`");
                        return Err(at(column, &what));
                    }
                };
                words
                    .end(3)
                    .map_err(|c| at(c, "unexpected text after the mode"))?;
                if let Some(def) = current.take() {
                    types.insert(def.name.clone(), def);
                }
                if types.contains_key(&name) {
                    return Err(at(0, &format!("type `{name}` is defined twice")));
                }
                let body = if keyword == "struct" {
                    Body::Struct(Vec::new())
                } else {
                    Body::Enum(Vec::new())
                };
                current = Some(TypeDef {
                    name,
                    tolerant,
                    body,
                    reserved: Vec::new(),
                });
            }
            "reserved" => {
                let def = current
                    .as_mut()
                    .ok_or_else(|| at(0, "`reserved` outside a type"))?;
                let mut i = 1;
                while words.word(i).is_some() {
                    def.reserved.push(tag(i)?);
                    i += 1;
                }
            }
            "variant" => {
                let def = current
                    .as_mut()
                    .ok_or_else(|| at(0, "`variant` outside a type"))?;
                let Body::Enum(variants) = &mut def.body else {
                    return Err(at(0, "`variant` in a struct"));
                };
                let other = match words.word(3) {
                    None => false,
                    Some(("other", _)) => {
                        words
                            .end(4)
                            .map_err(|c| at(c, "unexpected text after `other`"))?;
                        true
                    }
                    Some((_, c)) => return Err(at(c, "expected `other` or the end of the line")),
                };
                variants.push(VariantDef {
                    tag: tag(1)?,
                    name: name(2, "a variant name")?,
                    other,
                    fields: Vec::new(),
                });
            }
            "field" => {
                let def = current
                    .as_mut()
                    .ok_or_else(|| at(0, "`field` outside a type"))?;
                let field = FieldDef {
                    tag: tag(1)?,
                    name: name(2, "a field name")?,
                    schema: ty(3)?,
                };
                match &mut def.body {
                    Body::Struct(fields) => fields.push(field),
                    Body::Enum(variants) => variants
                        .last_mut()
                        .ok_or_else(|| at(0, "`field` before any variant"))?
                        .fields
                        .push(field),
                }
            }
            other => {
                let what = format!(
                    "unknown line `{other}` (expected root, struct, enum, reserved, variant or field)"
                );
                return Err(at(0, &what));
            }
        }
    }
    if let Some(def) = current.take() {
        types.insert(def.name.clone(), def);
    }
    let root = root.ok_or("no `root` line")?;
    let schema = Schema { root, types };
    schema.validate()?;
    Ok(schema)
}

/// The names of the types the text has a block for: its derived types.
/// (A first pass, so that a field may name a type whose block comes later.)
fn block_names(text: &str) -> BTreeSet<&str> {
    text.lines()
        .filter_map(|line| {
            let words = Words::new(line);
            match (words.word(0), words.word(1)) {
                (Some(("struct" | "enum", _)), Some((name, _))) => Some(name),
                _ => None,
            }
        })
        .collect()
}

/// The words of one line, with their byte columns.
struct Words<'l> {
    line: &'l str,
    words: Vec<(&'l str, usize)>,
}

impl<'l> Words<'l> {
    fn new(line: &'l str) -> Self {
        let mut words = Vec::new();
        let mut start = None;
        for (i, c) in line
            .char_indices()
            .chain(core::iter::once((line.len(), ' ')))
        {
            match (c.is_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    words.push((&line[s..i], s));
                    start = None;
                }
                _ => {}
            }
        }
        Words { line, words }
    }

    /// The `i`-th word and its column.
    fn word(&self, i: usize) -> Option<(&'l str, usize)> {
        self.words.get(i).copied()
    }

    /// Everything from the `i`-th word on, and its column.
    fn rest(&self, i: usize) -> Option<(&'l str, usize)> {
        let (_, column) = self.word(i)?;
        Some((&self.line[column..], column))
    }

    /// `Ok` if there is no `i`-th word, else its column.
    fn end(&self, i: usize) -> Result<(), usize> {
        match self.word(i) {
            None => Ok(()),
            Some((_, column)) => Err(column),
        }
    }
}

/// A type whose argument list is open: its name, where its text starts,
/// and the arguments read so far.
struct Open<'t> {
    name: &'t str,
    start: usize,
    args: Vec<TypeRef>,
}

/// Whether `b` separates the parts of a type's text (a name never holds
/// one: block names are single words).
fn is_gap(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Parses `name` or `name<arg, arg>` in one pass with an explicit stack
/// (at most [`MAX_DEPTH`] levels). A complete type whose text is a block
/// name in `derived` is that derived type (so `Wrapper<u32>` or
/// `Wrapper<Point>#2` with a block of its own is one name); any other is a
/// built-in. Looking each complete type up compares at most its own text,
/// so a line costs at most [`MAX_DEPTH`] times its length. Errors carry
/// the column.
fn parse_type(text: &str, derived: &BTreeSet<&str>) -> Result<TypeRef, (usize, String)> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let mut open: Vec<Open<'_>> = Vec::new();
    let found = |pos: usize| match text[pos..].chars().next() {
        Some(c) => format!("found `{c}`"),
        None => "found the end of the line".into(),
    };
    let skip_gaps = |pos: &mut usize| {
        while bytes.get(*pos).copied().is_some_and(is_gap) {
            *pos += 1;
        }
    };
    // Past a name (or a `#2` suffix): up to `<`, `>`, `,` or a gap.
    let skip_name = |pos: &mut usize| {
        while let Some(&b) = bytes.get(*pos) {
            if matches!(b, b'<' | b'>' | b',') || is_gap(b) {
                break;
            }
            *pos += 1;
        }
    };
    // The derived type spelled by `text[start..end]`, if it has a block.
    let derived_at = |start: usize, end: usize| {
        let spelled = &text[start..end];
        derived
            .contains(spelled)
            .then(|| TypeRef::Named(spelled.to_owned()))
    };
    loop {
        skip_gaps(&mut pos);
        let start = pos;
        skip_name(&mut pos);
        let name = &text[start..pos];
        if name.is_empty() {
            return Err((start, format!("expected a type, {}", found(start))));
        }
        if bytes.get(pos) == Some(&b'<') {
            if open.len() >= MAX_DEPTH {
                return Err((pos, format!("types nest deeper than {MAX_DEPTH} levels")));
            }
            open.push(Open {
                name,
                start,
                args: Vec::new(),
            });
            pos += 1;
            continue;
        }
        let mut value = derived_at(start, pos).unwrap_or_else(|| TypeRef::builtin(name));
        let mut value_start = start;
        // After a complete type: close argument lists or start the next.
        loop {
            // A derived type's `#2` after its generic arguments
            // (`Wrapper<Point>#2`): part of its name.
            if bytes.get(pos) == Some(&b'#') {
                skip_name(&mut pos);
                value = derived_at(value_start, pos).ok_or_else(|| {
                    let spelled = &text[value_start..pos];
                    (
                        value_start,
                        format!("`{spelled}` names no type of this file"),
                    )
                })?;
            }
            skip_gaps(&mut pos);
            let Some(top) = open.last_mut() else {
                if pos == text.len() {
                    return Ok(value);
                }
                return Err((pos, format!("expected the end of the line, {}", found(pos))));
            };
            match bytes.get(pos) {
                Some(b',') => {
                    top.args.push(value);
                    pos += 1;
                    break;
                }
                Some(b'>') => {
                    top.args.push(value);
                    pos += 1;
                    let Some(done) = open.pop() else {
                        unreachable!("`top` is the last open type")
                    };
                    value = derived_at(done.start, pos)
                        .unwrap_or_else(|| TypeRef::builtin_of(done.name, done.args));
                    value_start = done.start;
                }
                _ => return Err((pos, format!("expected `,` or `>`, {}", found(pos)))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn named(name: &str) -> TypeRef {
        TypeRef::Named(name.into())
    }

    /// A name is derived exactly when the file has its block: lower case
    /// (`point`) and generic (`Wrapper<u32>`) names too, while an
    /// upper-case name with no block (a hand-written impl's) is built in.
    #[test]
    fn blocks_say_which_names_are_derived() {
        let text = "root map<point, Wrapper<u32>>\n\
                    struct point compact\n  field 0 c Celsius\n  field 1 w Wrapper<u32>\n\
                    struct Wrapper<u32> compact\n  field 0 0 seq<u32>\n";
        let schema = parse(text).unwrap();
        // Two types of one short name, told apart by `#2`, after generic
        // arguments too.
        let twins = "root seq<Wrapper<Point>#2>\n\
                     struct Point compact\n\
                     struct Wrapper<Point>#2 compact\n  field 0 p Point\n";
        let parsed = parse(twins).unwrap();
        assert_eq!(
            parsed.root,
            TypeRef::builtin_of("seq", vec![named("Wrapper<Point>#2")])
        );
        assert_eq!(parse(&parsed.to_string()).unwrap(), parsed);
        // A tab is a gap, never part of a name.
        let tabbed = parse("root map<u8,\tseq<u8>>").unwrap();
        assert_eq!(
            tabbed.root,
            TypeRef::builtin_of(
                "map",
                vec![
                    TypeRef::builtin("u8"),
                    TypeRef::builtin_of("seq", vec![TypeRef::builtin("u8")])
                ]
            )
        );
        assert!(parse("root Wrapper<Point>#3\nstruct Point compact\n")
            .unwrap_err()
            .contains("`Wrapper<Point>#3` names no type of this file"));
        assert_eq!(
            schema.root,
            TypeRef::builtin_of("map", vec![named("point"), named("Wrapper<u32>")])
        );
        let Body::Struct(fields) = &schema.types["point"].body else {
            panic!("a struct")
        };
        assert_eq!(fields[0].schema, TypeRef::builtin("Celsius"));
        assert_eq!(fields[1].schema, named("Wrapper<u32>"));
        assert_eq!(parse(&schema.to_string()).unwrap(), schema);
    }

    /// Nesting is bounded: `MAX_DEPTH` levels read, one more is an error
    /// with its column, and the parse of a long line is one pass.
    #[test]
    fn nesting_is_bounded() {
        let deep = |n: usize| format!("root {}u8{}", "seq<".repeat(n), ">".repeat(n));
        assert!(parse(&deep(MAX_DEPTH)).is_ok());
        let err = parse(&deep(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(
            err,
            format!(
                "line 1, column {}: types nest deeper than 256 levels",
                5 + 4 * MAX_DEPTH + 4
            )
        );
        assert!(parse(&deep(100_000)).is_err());
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases = [
            (
                "root u8 u8",
                "line 1, column 9: expected the end of the line, found `u",
            ),
            (
                "root seq<u8",
                "line 1, column 12: expected `,` or `>`, found the end",
            ),
            (
                "root u8\nstruct A wobbly",
                "line 2, column 10: expected `compact` or `tolerant`, found `wobbly`",
            ),
            (
                "root u8\nfield 0 x u8",
                "line 2, column 1: `field` outside a type",
            ),
            (
                "root u8\nstruct A compact\n  field x y u8",
                "line 3, column 9: expected a tag (a number)",
            ),
            (
                "root u8\nstruct A compact\nstruct A compact",
                "line 3, column 1: type `A` is defined twice",
            ),
            ("struct A compact", "no `root` line"),
            (
                "root u8\nstruct A compact\n  field 0 x u8\n  field 1 x u8",
                "A has two fields named `x`",
            ),
        ];
        for (text, expected) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.starts_with(expected), "{text:?}: {err}");
        }
    }
}
