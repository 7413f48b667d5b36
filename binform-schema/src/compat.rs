//! The compatibility rules: which changes between a locked schema and the
//! current one break a peer (`docs/versioning.md`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::model::{Body, FieldDef, Schema, TypeDef, TypeRef};

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
