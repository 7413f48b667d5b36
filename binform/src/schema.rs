//! Schemas: a description of a type's wire layout, its 64-bit fingerprint,
//! and lock files that catch breaking changes in CI.
//!
//! [`schema_of::<T>()`](schema_of) describes `T` as its encoding sees it:
//! `Vec<T>`, `VecDeque<T>` and `[T]` are all `seq<T>`, `Box<T>` and
//! `RefCell<T>` are `T`, because each pair is the same bytes. Derived types
//! appear by name, with their fields (name, tag, type) or variants.
//!
//! ```
//! use binform::Packable;
//!
//! #[derive(Packable)]
//! struct Point { x: i32, y: i32, label: Option<String> }
//!
//! let text = binform::schema_of::<Vec<Point>>().to_string();
//! assert!(text.starts_with("root seq<Point>"));
//! assert!(text.contains("field 2 label option<string>"));
//! ```

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::Pack;

/// The wire layout of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeRef {
    /// A built-in encoding with type arguments: `u32`, `string`,
    /// `seq<T>`, `map<K, V>`, `option<T>`, `shared<T>`, `array<T, N>`, ...
    Builtin {
        /// The encoding's name.
        name: String,
        /// Its type arguments.
        args: Vec<TypeRef>,
    },
    /// A derived type, described in full in the schema's [`Types`] table
    /// under this name.
    Named(String),
}

/// One derived type's layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeDef {
    /// The type's name (without module path).
    pub name: String,
    /// Whether it is `#[binform(version_tolerant)]`.
    pub tolerant: bool,
    /// A struct's fields, or an enum's variants.
    pub body: Body,
    /// Reserved tags (tolerant types).
    pub reserved: Vec<u32>,
}

/// Fields or variants.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// A struct's encoded fields, in wire order.
    Struct(Vec<FieldDef>),
    /// An enum's variants.
    Enum(Vec<VariantDef>),
}

/// One encoded field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldDef {
    /// Its tag: the position for compact types, the stable tag for
    /// tolerant ones.
    pub tag: u32,
    /// Its name (`0`, `1`, ... for tuple fields).
    pub name: String,
    /// Its layout.
    pub schema: TypeRef,
}

/// One enum variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VariantDef {
    /// Its tag.
    pub tag: u32,
    /// Its name.
    pub name: String,
    /// Whether it is the `other` catch-all.
    pub other: bool,
    /// Its fields.
    pub fields: Vec<FieldDef>,
}

/// Every derived type a schema mentions, by name.
pub type Types = BTreeMap<String, TypeDef>;

/// A complete description: the root layout and every derived type it
/// reaches. `Display` prints the lock-file text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schema {
    /// The root type's layout.
    pub root: TypeRef,
    /// The derived types, by name.
    pub types: Types,
}

/// Collects the derived types while a schema is built; a type already
/// being described is referred to by name, which ends recursion.
#[derive(Default)]
pub struct Builder {
    types: Types,
}

impl Builder {
    /// Describes `T` (recording derived types in the table).
    pub fn describe<T: Pack + ?Sized>(&mut self) -> TypeRef {
        T::describe(self)
    }

    /// Records a derived type unless it is already known, then returns a
    /// reference to it by name. `define` describes the fields; it runs at
    /// most once per name, after the name is registered.
    pub fn named(&mut self, name: &str, define: impl FnOnce(&mut Self) -> TypeDef) -> TypeRef {
        if !self.types.contains_key(name) {
            // Register first, so a field that mentions this type again stops.
            self.types.insert(
                name.to_owned(),
                TypeDef {
                    name: name.to_owned(),
                    tolerant: false,
                    body: Body::Struct(Vec::new()),
                    reserved: Vec::new(),
                },
            );
            let def = define(self);
            self.types.insert(name.to_owned(), def);
        }
        TypeRef::Named(name.to_owned())
    }
}

impl TypeRef {
    /// A built-in encoding with no arguments.
    pub fn builtin(name: &str) -> Self {
        TypeRef::Builtin {
            name: name.to_owned(),
            args: Vec::new(),
        }
    }

    /// A built-in encoding with arguments.
    pub fn builtin_of(name: &str, args: Vec<TypeRef>) -> Self {
        TypeRef::Builtin {
            name: name.to_owned(),
            args,
        }
    }
}

/// A type name without module paths or spaces (`a::b::W<c::D, u8>` becomes
/// `W<D,u8>`), so lock files survive moving types between modules.
pub fn short_type_name(full: &str) -> String {
    let mut out = String::new();
    let mut segment = String::new();
    for c in full.chars() {
        match c {
            ':' => segment.clear(),
            '<' | '>' | ',' | '[' | ']' | ';' | '(' | ')' | '&' => {
                out.push_str(&segment);
                segment.clear();
                out.push(c);
            }
            ' ' => {}
            _ => segment.push(c),
        }
    }
    out.push_str(&segment);
    out
}

/// Describes `T`: its layout and every derived type it uses.
pub fn schema_of<T: Pack + ?Sized>() -> Schema {
    let mut builder = Builder::default();
    let root = builder.describe::<T>();
    Schema {
        root,
        types: builder.types,
    }
}

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

// ---------------------------------------------------------------- fingerprints

/// FNV-1a over bytes, usable in `const` context: the fingerprint must be
/// the same on every platform and compiler run.
pub const fn hash_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
        i += 1;
    }
    h
}

/// The schema name of a primitive: `usize`/`isize` travel as `u64`/`i64`.
pub const fn wire_name(rust_name: &'static str) -> &'static str {
    match rust_name.as_bytes() {
        b"usize" => "u64",
        b"isize" => "i64",
        _ => rust_name,
    }
}

/// The FNV offset basis.
pub const HASH_START: u64 = 0xCBF2_9CE4_8422_2325;

/// The hash of a name.
pub const fn hash_str(s: &str) -> u64 {
    hash_bytes(HASH_START, s.as_bytes())
}

/// Combines two hashes (order matters).
pub const fn mix(a: u64, b: u64) -> u64 {
    hash_bytes(a, &b.to_le_bytes())
}

/// The fingerprint of `T`: a stable 64-bit hash of its layout, the same
/// value as the `FINGERPRINT` constant the derive puts on each type.
pub const fn fingerprint_of<T: Pack + ?Sized>() -> u64 {
    T::FINGERPRINT
}

// ---------------------------------------------------------------- lock files

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
pub fn assert_compatible<T: Pack + ?Sized>(path: impl AsRef<std::path::Path>) {
    if let Err(message) = check_compatible::<T>(path) {
        panic!("{message}");
    }
}

/// [`assert_compatible`] without the panic: `Err` holds the readable report.
#[cfg(feature = "std")]
pub fn check_compatible<T: Pack + ?Sized>(path: impl AsRef<std::path::Path>) -> Result<(), String> {
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
