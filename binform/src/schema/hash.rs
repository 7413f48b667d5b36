//! Fingerprints: the 64-bit hash of a type's canonical layout
//! (`docs/format.md` §14 specifies it; this file is its one home).
//!
//! A type is a tree of nodes: built-in encodings with their arguments
//! (`seq<u32>`), and derived types with their fields. Each node's value is
//! FNV-1a 64 over a short canonical text in which every child appears as
//! the 16 lowercase hex digits of its own value. Only encodings are
//! written, never spellings: `String`, `std::string::String` and an alias
//! of it are all `string`; `Vec<T>`, `VecDeque<T>` and `Box<[T]>` are all
//! `seq<T>`.
//!
//! Recursive types make the tree infinite, so it is cut: a derived type
//! expands its fields one *level* down, built-in encodings stay on their
//! level, and at level 0 a derived type enters by name only (`ref Name`).
//! The fingerprint is the root's value at level [`LEVELS`]: every change
//! within 16 derived types of the root changes it.
//!
//! The walk runs over a [`Schema`] at run time ([`fingerprint`], and
//! `schema::facts` for a type on first use), memoized by (type, level) so
//! that it is linear in types times levels. It used to be one constant per
//! type and level, which the compiler evaluated in every build of every
//! crate that derives (most of `cargo check`'s time, issue 36); only level
//! 0, the *shape* a `schema_lock` check compares, is still a constant
//! (`Encoding::SHAPE`), computed with the `const fn`s below.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::model::{Body, FieldDef, Schema, TypeDef, TypeRef};

pub use binform_schema::hash::{
    builtin_value, hash_bytes, hash_hex, hash_str, mix, number_value, reference_value, HASH_START,
};

/// How many derived-type levels below the root a fingerprint covers.
pub const LEVELS: usize = 16;

/// The schema name of a primitive: `usize`/`isize` travel as `u64`/`i64`.
pub(crate) const fn wire_name(rust_name: &'static str) -> &'static str {
    match rust_name.as_bytes() {
        b"usize" => "u64",
        b"isize" => "i64",
        _ => rust_name,
    }
}

/// What a type is at one level of the unrolled layout: its node value,
/// whether anything within it is a `Weak` (which decides how shared values
/// of the type are built), and what the cheapest placeholder of it costs
/// (which decides the variant a derived enum's placeholder tries first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    /// The node's value.
    pub fingerprint: u64,
    /// Whether a `Weak` was found within this many levels.
    pub holds_weak: bool,
    /// How many values the cheapest placeholder builds, at most;
    /// [`NO_PLACEHOLDER`] if none is known within this many levels.
    pub placeholder_cost: u32,
}

/// The placeholder cost of a type without a known placeholder.
pub(crate) const NO_PLACEHOLDER: u32 = u32::MAX;

/// What a built-in encoding's name says of its contents, beyond its
/// value: the one home of these facts, which the impls' `describe` names
/// reach.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Holds its arguments; its placeholder holds one of each.
    Plain,
    /// Its placeholder is empty (a collection, `None`, an unbounded
    /// `Bound`): it needs none of its arguments'.
    Emptiable,
    /// `weak<T>`: a `Weak` itself, and empty as a placeholder.
    Weak,
    /// `array<T,N>`: its placeholder holds `N` of its element's.
    Array,
    /// A number argument (an array's length, a trait object's tag).
    Number,
    /// Unknown contents: a `with` field, or a hand-written impl's own
    /// name. It may hold anything, a `Weak` included, and has no known
    /// placeholder.
    Opaque,
}

fn kind(name: &str) -> Kind {
    match name {
        "seq" | "packed" | "set" | "map" | "option" | "bound" => Kind::Emptiable,
        "weak" => Kind::Weak,
        "array" | "packed_array" => Kind::Array,
        "with" | "opaque" => Kind::Opaque,
        _ if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) => Kind::Number,
        _ if binform_schema::is_builtin_name(name) => Kind::Plain,
        _ => Kind::Opaque,
    }
}

impl Node {
    /// A built-in encoding with its arguments (`args` their nodes, `refs`
    /// their descriptions, for an array's length).
    fn builtin(name: &str, args: &[Node], refs: &[TypeRef]) -> Node {
        let values: Vec<u64> = args.iter().map(|a| a.fingerprint).collect();
        let fingerprint = builtin_value(name, &values);
        let holds_weak = args.iter().any(|a| a.holds_weak);
        let all = args
            .iter()
            .fold(1u32, |cost, a| cost.saturating_add(a.placeholder_cost));
        let (holds_weak, placeholder_cost) = match kind(name) {
            Kind::Plain => (holds_weak, all),
            Kind::Emptiable => (holds_weak, 1),
            Kind::Weak => (true, 1),
            Kind::Number => (false, 0),
            Kind::Opaque => (true, NO_PLACEHOLDER),
            Kind::Array => {
                let element = args.first().map_or(NO_PLACEHOLDER, |a| a.placeholder_cost);
                let n = match refs.get(1) {
                    Some(TypeRef::Builtin { name, .. }) => name.parse::<u32>().unwrap_or(u32::MAX),
                    _ => u32::MAX,
                };
                (holds_weak, element.saturating_mul(n).saturating_add(1))
            }
        };
        Node {
            fingerprint,
            holds_weak,
            placeholder_cost,
        }
    }

    /// The same node, with no known placeholder.
    fn no_placeholder(self) -> Node {
        Node {
            placeholder_cost: NO_PLACEHOLDER,
            ..self
        }
    }

    /// A derived type at level 0: `ref Name`. Nothing is known below it:
    /// no `Weak` found, no placeholder known.
    fn reference(name: &str) -> Node {
        Node {
            fingerprint: reference_value(name),
            holds_weak: false,
            placeholder_cost: NO_PLACEHOLDER,
        }
    }
}

/// The placeholder cost of `fields` together.
fn sum_cost(fields: &[Node]) -> u32 {
    fields
        .iter()
        .fold(0u32, |cost, f| cost.saturating_add(f.placeholder_cost))
}

/// The variant (by its position in tag order) whose placeholder costs
/// least, the first of equals, and its cost; `(0, NO_PLACEHOLDER)` if none
/// has one. `fields` are all the variants' fields in that order, and
/// `counts` how many each variant has.
fn cheapest(fields: &[Node], counts: &[usize]) -> (usize, u32) {
    let (mut best, mut best_cost) = (0, NO_PLACEHOLDER);
    let mut start = 0;
    for (v, &n) in counts.iter().enumerate() {
        let cost = sum_cost(fields.get(start..start + n).unwrap_or(&[]));
        if cost < best_cost {
            best = v;
            best_cost = cost;
        }
        start += n;
    }
    (best, best_cost)
}

pub use binform_schema::type_ident;

/// The canonical text of a derived type's definition, split around its
/// field types: `pieces` has one more entry than `fields`. The derive
/// produces the same pieces at compile time.
pub fn definition_pieces(def: &TypeDef) -> (Vec<String>, Vec<&TypeRef>) {
    let mode = if def.tolerant { "tolerant" } else { "compact" };
    let kind = match def.body {
        Body::Struct(_) => "struct",
        Body::Enum(_) => "enum",
    };
    let mut out = Pieces {
        pieces: Vec::new(),
        fields: Vec::new(),
        text: alloc::format!("{kind} {} {mode} {{", type_ident(&def.name)),
    };
    match &def.body {
        Body::Struct(list) => out.push_fields(list),
        Body::Enum(variants) => {
            let mut sorted: Vec<_> = variants.iter().collect();
            sorted.sort_by_key(|v| v.tag);
            for v in sorted {
                let other = if v.other { " other" } else { "" };
                out.text
                    .push_str(&alloc::format!("{} {}{other} {{", v.tag, v.name));
                out.push_fields(&v.fields);
                out.text.push_str("};");
            }
        }
    }
    out.text.push('}');
    let mut reserved = def.reserved.clone();
    reserved.sort_unstable();
    reserved.dedup();
    for (i, tag) in reserved.iter().enumerate() {
        out.text.push_str(if i == 0 { " reserved " } else { "," });
        out.text.push_str(&alloc::format!("{tag}"));
    }
    out.pieces.push(out.text);
    (out.pieces, out.fields)
}

/// The canonical text being built: finished pieces, the field types
/// between them, and the piece in progress.
struct Pieces<'s> {
    pieces: Vec<String>,
    fields: Vec<&'s TypeRef>,
    text: String,
}

impl<'s> Pieces<'s> {
    /// `tag name <hex>;` for each field, in ascending tag order.
    fn push_fields(&mut self, list: &'s [FieldDef]) {
        let mut sorted: Vec<&FieldDef> = list.iter().collect();
        sorted.sort_by_key(|f| f.tag);
        for f in sorted {
            self.text.push_str(&alloc::format!("{} {} ", f.tag, f.name));
            self.pieces.push(core::mem::take(&mut self.text));
            self.fields.push(&f.schema);
            self.text.push(';');
        }
    }
}

/// The fingerprint of a schema: its root's value at level [`LEVELS`]
/// (`docs/format.md` §14). It is the value `fingerprint_of` gives the
/// type the schema describes.
///
/// ```
/// #[derive(binform::Packable)]
/// struct Node { value: u32, children: Vec<Node> }
///
/// let schema = binform::schema_of::<Node>();
/// assert_eq!(
///     binform::schema::fingerprint(&schema),
///     binform::schema::fingerprint_of::<Node>(),
/// );
/// ```
pub fn fingerprint(schema: &Schema) -> u64 {
    Walk::new(schema).node(&schema.root, LEVELS).fingerprint
}

/// The unrolled walk over a schema.
pub(crate) struct Walk<'s> {
    schema: &'s Schema,
    /// Derived types' nodes by (name, level), which keeps the work linear
    /// in types times levels.
    memo: BTreeMap<(&'s str, usize), Node>,
}

impl<'s> Walk<'s> {
    pub(crate) fn new(schema: &'s Schema) -> Self {
        Walk {
            schema,
            memo: BTreeMap::new(),
        }
    }

    /// A node's value at `level`, on a grown stack when this one runs low:
    /// a schema read from a payload nests as deep as its decoder allowed,
    /// and each derived level walks its fields' nesting again.
    pub(crate) fn node(&mut self, node: &'s TypeRef, level: usize) -> Node {
        crate::stack::grow(|| self.node_here(node, level))
    }

    fn node_here(&mut self, node: &'s TypeRef, level: usize) -> Node {
        match node {
            TypeRef::Builtin { name, args } => {
                let nodes: Vec<Node> = args.iter().map(|a| self.node(a, level)).collect();
                Node::builtin(name, &nodes, args)
            }
            TypeRef::Named(name) => {
                if level == 0 {
                    return Node::reference(type_ident(name));
                }
                if let Some(&v) = self.memo.get(&(name.as_str(), level)) {
                    return v;
                }
                let Some(def) = self.schema.types.get(name) else {
                    // A name without a definition (a hand-edited lock
                    // file, a hand-written `describe` naming a type it
                    // does not define): only its name is known, so it may
                    // hold anything and has no known placeholder.
                    return Node {
                        holds_weak: true,
                        ..Node::reference(type_ident(name))
                    }
                    .no_placeholder();
                };
                let v = self.definition(def, level).0;
                self.memo.insert((name.as_str(), level), v);
                v
            }
        }
    }

    /// A derived type's definition at `level` (> 0): the canonical text
    /// with its field types' values one level down filled in. It holds a
    /// `Weak` if a field does; its placeholder is its fields' (an enum's:
    /// its cheapest variant's), returned too (by position in tag order).
    pub(crate) fn definition(&mut self, def: &'s TypeDef, level: usize) -> (Node, usize) {
        let (pieces, fields) = definition_pieces(def);
        let mut h = HASH_START;
        let mut nodes = Vec::with_capacity(fields.len());
        for (i, piece) in pieces.iter().enumerate() {
            h = hash_bytes(h, piece.as_bytes());
            if let Some(field) = fields.get(i) {
                let node = self.node(field, level.saturating_sub(1));
                h = hash_hex(h, node.fingerprint);
                nodes.push(node);
            }
        }
        let (variant, cost) = match &def.body {
            Body::Struct(_) => (0, sum_cost(&nodes)),
            Body::Enum(variants) => {
                let mut sorted: Vec<_> = variants.iter().collect();
                sorted.sort_by_key(|v| v.tag);
                let counts: Vec<usize> = sorted.iter().map(|v| v.fields.len()).collect();
                cheapest(&nodes, &counts)
            }
        };
        let node = Node {
            fingerprint: h,
            holds_weak: nodes.iter().any(|n| n.holds_weak),
            placeholder_cost: cost.saturating_add(1),
        };
        (node, variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use binform_schema::hash::hash_decimal;

    #[test]
    fn hex_and_decimal_digits_hash_as_text() {
        assert_eq!(
            hash_hex(HASH_START, 0x0123_4567_89ab_cdef),
            hash_str("0123456789abcdef")
        );
        assert_eq!(hash_decimal(HASH_START, 0), hash_str("0"));
        assert_eq!(hash_decimal(HASH_START, 1024), hash_str("1024"));
        assert_eq!(
            hash_decimal(HASH_START, u64::MAX),
            hash_str("18446744073709551615")
        );
    }

    #[test]
    fn fnv_matches_its_published_vectors() {
        // From the FNV reference test suite.
        assert_eq!(hash_str(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash_str("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash_str("foobar"), 0x8594_4171_f739_67e8);
    }
}
