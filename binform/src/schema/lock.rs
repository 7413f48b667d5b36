//! Schema lock files: compare a locked schema with the current one and
//! report what would break a peer, for a test in CI.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::model::{Body, FieldDef, Schema, TypeDef, TypeRef, Types, VariantDef};
#[cfg(feature = "std")]
use crate::encoding::{schema_of, Encoding};

/// What makes a schema change breaking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incompatibility {
    /// The type (or `root`) where the problem is.
    pub place: String,
    /// What is wrong, in words.
    pub problem: String,
}

impl fmt::Display for Incompatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.problem)
    }
}

/// Compares a locked description with the current one. Empty when data
/// written by either can be read by the other:
/// - compact types must not change at all (their layout is positional);
/// - tolerant types may add fields, rename fields and remove fields whose
///   tags are then reserved; a tag must keep its type;
/// - tolerant enums may add variants only if the locked enum has an
///   `other` catch-all, and may remove variants whose tags are reserved.
pub fn compare(locked: &Schema, current: &Schema) -> Vec<Incompatibility> {
    let mut out = Vec::new();
    if !same_shape(&locked.root, &current.root) {
        out.push(Incompatibility {
            place: "root".into(),
            problem: format!(
                "the root type changed from `{}` to `{}`",
                locked.root, current.root
            ),
        });
    }
    for (name, old) in &locked.types {
        let Some(new) = current.types.get(name) else {
            // Renamed or no longer reachable: reachable types are compared
            // through the fields that use them.
            continue;
        };
        compare_type(old, new, &mut out);
    }
    out
}

/// Schemas name derived types; compare those by name.
fn same_shape(a: &TypeRef, b: &TypeRef) -> bool {
    a == b
}

fn compare_type(old: &TypeDef, new: &TypeDef, out: &mut Vec<Incompatibility>) {
    let place = old.name.clone();
    let mut push = |problem: String| {
        out.push(Incompatibility {
            place: place.clone(),
            problem,
        })
    };
    if old.tolerant != new.tolerant {
        push("changed between compact and version_tolerant".into());
        return;
    }
    if !old.tolerant {
        if old.body != new.body {
            push(format!(
                "a compact type's layout changed (compact types are positional: any change breaks readers)\n  was: {}\n  now: {}",
                body_line(&old.body),
                body_line(&new.body)
            ));
        }
        return;
    }
    match (&old.body, &new.body) {
        (Body::Struct(a), Body::Struct(b)) => {
            compare_fields(a, b, &new.reserved, "field", &mut push)
        }
        (Body::Enum(a), Body::Enum(b)) => {
            for v in a {
                match b.iter().find(|w| w.tag == v.tag) {
                    Some(w) => compare_fields(&v.fields, &w.fields, &[], "field", &mut push),
                    None if new.reserved.contains(&v.tag) => {}
                    None => push(format!(
                        "variant {} `{}` was removed without reserving its tag",
                        v.tag, v.name
                    )),
                }
            }
            let has_other = a.iter().any(|v| v.other);
            for w in b {
                if !a.iter().any(|v| v.tag == w.tag) && !has_other {
                    push(format!(
                        "variant {} `{}` is new, and the locked enum has no `other` variant to read it as",
                        w.tag, w.name
                    ));
                }
            }
        }
        _ => push("changed between struct and enum".into()),
    }
}

fn compare_fields(
    old: &[FieldDef],
    new: &[FieldDef],
    reserved: &[u32],
    what: &str,
    push: &mut impl FnMut(String),
) {
    for f in old {
        match new.iter().find(|g| g.tag == f.tag) {
            Some(g) if g.schema != f.schema => push(format!(
                "{what} {} `{}` changed type from `{}` to `{}`",
                f.tag, f.name, f.schema, g.schema
            )),
            Some(_) => {}
            None if reserved.contains(&f.tag) => {}
            None => push(format!(
                "{what} {} `{}` was removed without reserving its tag",
                f.tag, f.name
            )),
        }
    }
}

fn body_line(body: &Body) -> String {
    match body {
        Body::Struct(fields) => fields
            .iter()
            .map(|f| format!("{} {}", f.name, f.schema))
            .collect::<Vec<_>>()
            .join(", "),
        Body::Enum(variants) => variants
            .iter()
            .map(|v| {
                let fields: Vec<String> = v
                    .fields
                    .iter()
                    .map(|f| format!("{} {}", f.name, f.schema))
                    .collect();
                format!("{}({})", v.name, fields.join(", "))
            })
            .collect::<Vec<_>>()
            .join(" | "),
    }
}

/// The deepest nesting of type arguments a lock file may have
/// (`seq<seq<…>>`); honest schemas stay far below it.
const MAX_TYPE_DEPTH: usize = super::embedded::MAX_SCHEMA_DEPTH as usize;

/// Parses the text that `Display` for [`Schema`] writes. Lock files are
/// input (they arrive in pull requests), so the parser is strict, linear in
/// the text and bounded in depth, and every error names its line and
/// column: `line 3, column 14: expected a type, found `,``.
///
/// ```
/// let err = binform::schema::parse("root seq<,>").unwrap_err();
/// assert!(err.starts_with("line 1, column 10: expected a type"), "{err}");
/// ```
pub fn parse(text: &str) -> Result<Schema, String> {
    let mut root = None;
    let mut types = Types::new();
    let mut current: Option<TypeDef> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let at =
            |column: usize, what: &str| format!("line {}, column {}: {what}", n + 1, column + 1);
        let words = Words::new(line);
        let Some((keyword, _)) = words.word(0) else {
            continue;
        };
        match keyword {
            "root" => {
                if root.is_some() {
                    return Err(at(0, "a second `root` line"));
                }
                let (ty, offset) = words.rest(1).ok_or_else(|| at(line.len(), "expected a type"))?;
                root = Some(parse_type(ty).map_err(|(c, e)| at(offset + c, &e))?);
            }
            "struct" | "enum" => {
                let (name, _) = words.word(1).ok_or_else(|| at(line.len(), "expected a type name"))?;
                let (mode, column) = words.word(2).ok_or_else(|| at(line.len(), "expected `compact` or `tolerant`"))?;
                let tolerant = match mode {
                    "compact" => false,
                    "tolerant" => true,
                    _ => return Err(at(column, &format!("expected `compact` or `tolerant`, found `{mode}`"))),
                };
                words.end(3).map_err(|c| at(c, "unexpected text after the mode"))?;
                if let Some(def) = current.take() {
                    types.insert(def.name.clone(), def);
                }
                if types.contains_key(name) {
                    return Err(at(0, &format!("type `{name}` is defined twice")));
                }
                current = Some(TypeDef {
                    name: name.to_owned(),
                    tolerant,
                    body: if keyword == "struct" {
                        Body::Struct(Vec::new())
                    } else {
                        Body::Enum(Vec::new())
                    },
                    reserved: Vec::new(),
                });
            }
            "reserved" => {
                let def = current.as_mut().ok_or_else(|| at(0, "`reserved` outside a type"))?;
                let mut i = 1;
                while let Some((tag, column)) = words.word(i) {
                    def.reserved.push(tag.parse().map_err(|_| at(column, "expected a tag (a number)"))?);
                    i += 1;
                }
            }
            "variant" => {
                let def = current.as_mut().ok_or_else(|| at(0, "`variant` outside a type"))?;
                let Body::Enum(variants) = &mut def.body else {
                    return Err(at(0, "`variant` in a struct"));
                };
                let (tag, column) = words.word(1).ok_or_else(|| at(line.len(), "expected a tag"))?;
                let tag = tag.parse().map_err(|_| at(column, "expected a tag (a number)"))?;
                let (name, _) = words.word(2).ok_or_else(|| at(line.len(), "expected a variant name"))?;
                let other = match words.word(3) {
                    None => false,
                    Some(("other", _)) => {
                        words.end(4).map_err(|c| at(c, "unexpected text after `other`"))?;
                        true
                    }
                    Some((_, c)) => return Err(at(c, "expected `other` or the end of the line")),
                };
                variants.push(VariantDef {
                    tag,
                    name: name.to_owned(),
                    other,
                    fields: Vec::new(),
                });
            }
            "field" => {
                let def = current.as_mut().ok_or_else(|| at(0, "`field` outside a type"))?;
                let (tag, column) = words.word(1).ok_or_else(|| at(line.len(), "expected a tag"))?;
                let tag = tag.parse().map_err(|_| at(column, "expected a tag (a number)"))?;
                let (name, _) = words.word(2).ok_or_else(|| at(line.len(), "expected a field name"))?;
                let (ty, offset) = words.rest(3).ok_or_else(|| at(line.len(), "expected a type"))?;
                let field = FieldDef {
                    tag,
                    name: name.to_owned(),
                    schema: parse_type(ty).map_err(|(c, e)| at(offset + c, &e))?,
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
                return Err(at(
                    0,
                    &format!("unknown line `{other}` (expected root, struct, enum, reserved, variant or field)"),
                ))
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

/// Parses `name` or `name<arg, arg>` in one pass with an explicit stack;
/// a name that starts with an uppercase letter is a derived type (its own
/// generic arguments, `Wrapper<u32>`, are part of its name). Errors carry
/// the column.
fn parse_type(text: &str) -> Result<TypeRef, (usize, String)> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    // Built-in types whose arguments are being read: name and arguments.
    let mut open: Vec<(&str, Vec<TypeRef>)> = Vec::new();
    let found = |pos: usize| match text[pos..].chars().next() {
        Some(c) => format!("found `{c}`"),
        None => "found the end of the line".into(),
    };
    loop {
        while bytes.get(pos) == Some(&b' ') {
            pos += 1;
        }
        let start = pos;
        let derived = bytes.get(pos).is_some_and(u8::is_ascii_uppercase);
        let mut depth = 0usize;
        while let Some(&b) = bytes.get(pos) {
            match b {
                b'<' if derived => depth += 1,
                b'>' if derived && depth > 0 => depth -= 1,
                b'<' | b'>' | b',' if depth == 0 => break,
                b' ' if !derived => break,
                _ => {}
            }
            pos += 1;
        }
        let name = text[start..pos].trim_end();
        if name.is_empty() {
            return Err((start, format!("expected a type, {}", found(start))));
        }
        if derived && depth > 0 {
            return Err((text.len(), format!("unbalanced `<` in `{name}`")));
        }
        let mut value = if !derived && bytes.get(pos) == Some(&b'<') {
            if open.len() >= MAX_TYPE_DEPTH {
                return Err((
                    pos,
                    format!("types nest deeper than {MAX_TYPE_DEPTH} levels"),
                ));
            }
            open.push((name, Vec::new()));
            pos += 1;
            continue;
        } else if derived {
            TypeRef::Named(name.to_owned())
        } else {
            TypeRef::builtin(name)
        };
        // After a complete type: close argument lists or start the next.
        loop {
            while bytes.get(pos) == Some(&b' ') {
                pos += 1;
            }
            let Some((_, args)) = open.last_mut() else {
                if pos == text.len() {
                    return Ok(value);
                }
                return Err((pos, format!("expected the end of the line, {}", found(pos))));
            };
            match bytes.get(pos) {
                Some(b',') => {
                    args.push(value);
                    pos += 1;
                    break;
                }
                Some(b'>') => {
                    args.push(value);
                    pos += 1;
                    let (name, args) = open.pop().unwrap_or_default();
                    value = TypeRef::builtin_of(name, args);
                }
                _ => return Err((pos, format!("expected `,` or `>`, {}", found(pos)))),
            }
        }
    }
}

/// Checks `T` against the schema locked in the file at `path`, for a test:
/// writes the file when it is missing (or when the environment variable
/// `BINFORM_UPDATE_SCHEMAS` is set), and otherwise panics with a readable
/// list of breaking changes when data written by one side could not be
/// read by the other.
///
/// ```no_run
/// #[derive(binform::Packable, Default)]
/// #[binform(version_tolerant)]
/// struct Order { id: u64, note: String }
///
/// #[test]
/// fn order_schema_is_compatible() {
///     binform::schema::assert_compatible::<Order>("schemas/Order.binform-schema");
/// }
/// ```
#[cfg(feature = "std")]
#[track_caller]
pub fn assert_compatible<T: Encoding + ?Sized>(path: impl AsRef<std::path::Path>) {
    if let Err(message) = check_compatible::<T>(path) {
        panic!("{message}");
    }
}

/// [`assert_compatible`] without the panic: `Err` holds the readable report.
#[cfg(feature = "std")]
pub fn check_compatible<T: Encoding + ?Sized>(
    path: impl AsRef<std::path::Path>,
) -> Result<(), String> {
    let path = path.as_ref();
    let current = schema_of::<T>();
    let text = current.to_string();
    let update = std::env::var_os("BINFORM_UPDATE_SCHEMAS").is_some();
    if update || !path.exists() {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        return std::fs::write(path, text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()));
    }
    let locked_text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let locked = parse(&locked_text).map_err(|e| format!("{}: {e}", path.display()))?;
    let problems = compare(&locked, &current);
    if problems.is_empty() {
        return Ok(());
    }
    let mut report = format!(
        "the schema of `{}` is not compatible with the one locked in {}:\n",
        core::any::type_name::<T>(),
        path.display()
    );
    for p in &problems {
        report.push_str(&format!("  - {p}\n"));
    }
    report.push_str("\nlocked:\n");
    for line in locked_text.lines() {
        report.push_str(&format!("    {line}\n"));
    }
    report.push_str("current:\n");
    for line in text.lines() {
        report.push_str(&format!("    {line}\n"));
    }
    report.push_str(
        "\nIf the change is intended and every peer upgrades at once, rerun with \
         BINFORM_UPDATE_SCHEMAS=1 to lock the new schema.\n",
    );
    Err(report)
}
