//! The schema model: a type's wire layout as data ([`TypeRef`], [`TypeDef`],
//! [`Schema`]), and the checks a schema from outside must pass.

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

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

impl Schema {
    /// Checks what a schema from outside (a payload's header, a lock file)
    /// must hold for a reader to trust its lookups: within each type, no
    /// two fields or variants share a name or a tag.
    pub fn validate(&self) -> Result<(), String> {
        fn unique<'a>(
            what: &str,
            place: &str,
            items: impl Iterator<Item = (u32, &'a str)>,
        ) -> Result<(), String> {
            let mut tags = alloc::collections::BTreeSet::new();
            let mut names = alloc::collections::BTreeSet::new();
            for (tag, name) in items {
                if !tags.insert(tag) {
                    return Err(alloc::format!("{place} has two {what}s with tag {tag}"));
                }
                if !names.insert(name) {
                    return Err(alloc::format!("{place} has two {what}s named `{name}`"));
                }
            }
            Ok(())
        }
        for def in self.types.values() {
            match &def.body {
                Body::Struct(fields) => unique(
                    "field",
                    &def.name,
                    fields.iter().map(|f| (f.tag, f.name.as_str())),
                )?,
                Body::Enum(variants) => {
                    unique(
                        "variant",
                        &def.name,
                        variants.iter().map(|v| (v.tag, v.name.as_str())),
                    )?;
                    for v in variants {
                        let place = alloc::format!("{}::{}", def.name, v.name);
                        unique(
                            "field",
                            &place,
                            v.fields.iter().map(|f| (f.tag, f.name.as_str())),
                        )?;
                    }
                }
            }
        }
        Ok(())
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

/// The name a derived type's text uses: its identifier, without module
/// path, generic arguments (those enter through the fields) or the `#2`
/// that tells apart types of different modules in one schema.
pub fn type_ident(name: &str) -> &str {
    name.split(['<', '#']).next().unwrap_or(name)
}

/// The schema names of binform's built-in encodings. A derived type must
/// not take one (the derive refuses it): in a lock file a name with a
/// block is the derived type, so a field of the built-in of the same name
/// would read as the derived type.
pub const BUILTIN_NAMES: &[&str] = &[
    // Scalars.
    "unit",
    "bool",
    "char",
    "f32",
    "f64",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    // Strings and sequences.
    "string",
    "cstring",
    "seq",
    "set",
    "map",
    "array",
    "packed",
    "packed_array",
    "tuple",
    // Wrappers.
    "option",
    "shared",
    "weak",
    "nonzero",
    "dyn",
    "with",
    "opaque",
    // Byte-tagged enums.
    "result",
    "bound",
    "ip",
    "socket",
    // Records.
    "duration",
    "system_time",
    "ipv4",
    "ipv6",
    "socket_v4",
    "socket_v6",
    "uuid",
    "f16",
    "bf16",
    "decimal",
    "ordering",
    "range",
    "range_inclusive",
    "chrono_utc",
    "chrono_naive_datetime",
    "chrono_delta",
    "chrono_fixed_offset",
    "chrono_date",
    "chrono_time",
    "time_primitive_datetime",
    "time_offset_datetime",
    "time_date",
    "time_time",
    "time_duration",
];

/// Whether `name` is a built-in encoding's schema name.
pub fn is_builtin_name(name: &str) -> bool {
    BUILTIN_NAMES.contains(&name)
}
