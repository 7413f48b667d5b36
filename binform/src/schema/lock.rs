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

/// Parses the text that `Display` for [`Schema`] writes.
pub fn parse(text: &str) -> Result<Schema, String> {
    let mut root = None;
    let mut types = Types::new();
    let mut current: Option<TypeDef> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let err = |what: &str| format!("line {}: {what}: `{line}`", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["root", rest @ ..] => root = Some(parse_schema(&rest.join(" ")).map_err(|e| err(&e))?),
            [kind @ ("struct" | "enum"), name, mode] => {
                if let Some(def) = current.take() {
                    types.insert(def.name.clone(), def);
                }
                current = Some(TypeDef {
                    name: (*name).to_owned(),
                    tolerant: *mode == "tolerant",
                    body: if *kind == "struct" {
                        Body::Struct(Vec::new())
                    } else {
                        Body::Enum(Vec::new())
                    },
                    reserved: Vec::new(),
                });
            }
            ["reserved", tags @ ..] => {
                let def = current
                    .as_mut()
                    .ok_or_else(|| err("reserved outside a type"))?;
                for t in tags {
                    def.reserved.push(t.parse().map_err(|_| err("bad tag"))?);
                }
            }
            ["variant", tag, name, rest @ ..] => {
                let def = current
                    .as_mut()
                    .ok_or_else(|| err("variant outside a type"))?;
                let Body::Enum(variants) = &mut def.body else {
                    return Err(err("variant in a struct"));
                };
                variants.push(VariantDef {
                    tag: tag.parse().map_err(|_| err("bad tag"))?,
                    name: (*name).to_owned(),
                    other: rest == ["other"],
                    fields: Vec::new(),
                });
            }
            ["field", tag, name, rest @ ..] => {
                let def = current
                    .as_mut()
                    .ok_or_else(|| err("field outside a type"))?;
                let field = FieldDef {
                    tag: tag.parse().map_err(|_| err("bad tag"))?,
                    name: (*name).to_owned(),
                    schema: parse_schema(&rest.join(" ")).map_err(|e| err(&e))?,
                };
                match &mut def.body {
                    Body::Struct(fields) => fields.push(field),
                    Body::Enum(variants) => variants
                        .last_mut()
                        .ok_or_else(|| err("field before any variant"))?
                        .fields
                        .push(field),
                }
            }
            _ => return Err(err("unrecognized line")),
        }
    }
    if let Some(def) = current.take() {
        types.insert(def.name.clone(), def);
    }
    let root = root.ok_or("no `root` line")?;
    Ok(Schema { root, types })
}

/// Parses `name` or `name<arg, arg>`; a name that starts with an uppercase
/// letter is a derived type.
fn parse_schema(text: &str) -> Result<TypeRef, String> {
    let text = text.trim();
    if text.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Ok(TypeRef::Named(text.to_owned()));
    }
    let Some(open) = text.find('<') else {
        return Ok(if text.starts_with(|c: char| c.is_ascii_uppercase()) {
            TypeRef::Named(text.to_owned())
        } else {
            TypeRef::builtin(text)
        });
    };
    let inner = text[open + 1..]
        .strip_suffix('>')
        .ok_or_else(|| format!("unbalanced `<` in `{text}`"))?;
    let mut args = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| format!("unbalanced `>` in `{text}`"))?
            }
            ',' if depth == 0 => {
                args.push(parse_schema(&inner[start..i])?);
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(parse_schema(&inner[start..])?);
    Ok(TypeRef::builtin_of(&text[..open], args))
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
