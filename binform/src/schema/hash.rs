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
//! within 16 derived types of the root changes it. Computed this way, each
//! (type, level) pair is a constant of its own, so the compiler evaluates
//! the whole fingerprint at compile time, mutually recursive types
//! included, and a lookup costs nothing when encoding.
//!
//! [`fingerprint`] computes the same value from a [`Schema`] at run time:
//! a second implementation of the specification, for tools and for tests.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::model::{Body, FieldDef, Schema, TypeDef, TypeRef};

/// The FNV-1a 64 offset basis: the hash of no bytes. This and
/// [`hash_bytes`], [`hash_str`] and [`mix`] are the hash of
/// `docs/format.md` §14, public so that a second implementation or a
/// hand-written impl's test can compute a fingerprint; they change only
/// with the format version.
///
/// ```
/// use binform::schema::{hash_str, HASH_START, hash_bytes};
/// assert_eq!(hash_str(""), HASH_START);
/// // FNV-1a 64 of "a", a published test vector.
/// assert_eq!(hash_bytes(HASH_START, b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub const HASH_START: u64 = 0xCBF2_9CE4_8422_2325;
/// The FNV-1a 64 prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

/// How many derived-type levels below the root a fingerprint covers.
pub const LEVELS: usize = 16;

/// FNV-1a over bytes, continuing from `h`; usable in `const` context, so
/// the fingerprint is the same on every platform and compiler run.
pub const fn hash_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

/// The hash of a text.
pub const fn hash_str(s: &str) -> u64 {
    hash_bytes(HASH_START, s.as_bytes())
}

/// Combines two hashes (order matters): `b`'s little-endian bytes hashed
/// after `a`.
pub const fn mix(a: u64, b: u64) -> u64 {
    hash_bytes(a, &b.to_le_bytes())
}

/// Continues `h` with the 16 lowercase hex digits of `v`: how a child's
/// value appears in its parent's text.
pub const fn hash_hex(mut h: u64, v: u64) -> u64 {
    let mut shift = 64;
    while shift > 0 {
        shift -= 4;
        let digit = ((v >> shift) & 0xF) as u8;
        let c = if digit < 10 {
            b'0' + digit
        } else {
            b'a' + digit - 10
        };
        h = hash_bytes(h, &[c]);
    }
    h
}

/// Continues `h` with the decimal digits of `n` (no sign, no leading zeros).
pub const fn hash_decimal(h: u64, n: u64) -> u64 {
    let mut digits = [0u8; 20];
    let mut len = 0;
    let mut rest = n;
    loop {
        digits[19 - len] = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut i = 20 - len;
    let mut out = h;
    while i < 20 {
        out = hash_bytes(out, &[digits[i]]);
        i += 1;
    }
    out
}

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
/// of the type are built; see `Encoding::MAY_HOLD_WEAK`), and what the
/// cheapest placeholder of it costs (which decides the variant a derived
/// enum's placeholder takes).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unrolled {
    /// The node's value.
    pub fingerprint: u64,
    /// Whether a `Weak` was found within this many levels.
    pub holds_weak: bool,
    /// How many values the cheapest placeholder builds, at most; [`NO_PLACEHOLDER`]
    /// if none is known within this many levels.
    pub placeholder_cost: u32,
}

/// The placeholder cost of a type without a known placeholder.
pub const NO_PLACEHOLDER: u32 = u32::MAX;

impl Unrolled {
    /// A hand-written impl's encoding, by its `Encoding::NAME`: nothing
    /// is known of its contents, so it may hold anything, a `Weak`
    /// included, and has no known placeholder.
    pub const fn named(name: &str) -> Unrolled {
        Unrolled {
            fingerprint: hash_str(name),
            holds_weak: true,
            placeholder_cost: NO_PLACEHOLDER,
        }
    }

    /// A built-in encoding: `name`, or `name<a,b>` with its arguments'
    /// values in hex. It holds a `Weak` if an argument does; its
    /// placeholder holds one of each argument's.
    pub const fn builtin(name: &str, args: &[Unrolled]) -> Unrolled {
        let mut h = hash_str(name);
        let mut holds_weak = false;
        let mut cost = 1u32;
        let mut i = 0;
        while i < args.len() {
            h = hash_bytes(h, if i == 0 { b"<" } else { b"," });
            h = hash_hex(h, args[i].fingerprint);
            holds_weak |= args[i].holds_weak;
            cost = cost.saturating_add(args[i].placeholder_cost);
            i += 1;
        }
        if !args.is_empty() {
            h = hash_bytes(h, b">");
        }
        Unrolled {
            fingerprint: h,
            holds_weak,
            placeholder_cost: cost,
        }
    }

    /// A number as a built-in argument (an array's length): its decimal
    /// digits as a name.
    pub const fn number(n: u64) -> Unrolled {
        Unrolled {
            fingerprint: hash_decimal(HASH_START, n),
            holds_weak: false,
            placeholder_cost: 0,
        }
    }

    /// A derived type at level 0: `ref Name`. Nothing is known below it:
    /// no `Weak` found, no placeholder known.
    pub const fn reference(name: &str) -> Unrolled {
        Unrolled {
            fingerprint: hash_str_after(hash_str("ref "), name),
            holds_weak: false,
            placeholder_cost: NO_PLACEHOLDER,
        }
    }

    /// A derived type's definition: `pieces[0] hex(fields[0]) pieces[1] …
    /// hex(fields[n-1]) pieces[n]`, the canonical text with its field types'
    /// values (one level down) filled in. It holds a `Weak` if a field does.
    /// `variants` counts the fields of each variant of an enum, in the
    /// order of the text (empty for a struct): its placeholder is the
    /// cheapest variant's.
    pub const fn derived(pieces: &[&str], fields: &[Unrolled], variants: &[usize]) -> Unrolled {
        let mut h = HASH_START;
        let mut holds_weak = false;
        let mut i = 0;
        while i < pieces.len() {
            h = hash_str_after(h, pieces[i]);
            if i < fields.len() {
                h = hash_hex(h, fields[i].fingerprint);
                holds_weak |= fields[i].holds_weak;
            }
            i += 1;
        }
        let cost = if variants.is_empty() {
            sum_cost(fields, 0, fields.len())
        } else {
            let (_, cost) = cheapest(fields, variants);
            cost
        };
        Unrolled {
            fingerprint: h,
            holds_weak,
            placeholder_cost: cost.saturating_add(1),
        }
    }

    /// The variant (by its position in the text) whose placeholder costs
    /// least, the first of equals; `0` if none has one.
    pub const fn cheapest_variant(fields: &[Unrolled], variants: &[usize]) -> usize {
        cheapest(fields, variants).0
    }

    /// The same node, holding a `Weak` also if `weak` (`weak<T>` itself).
    pub const fn or_weak(self, weak: bool) -> Unrolled {
        Unrolled {
            holds_weak: self.holds_weak || weak,
            ..self
        }
    }

    /// The same node, with no placeholder (a `with` field's).
    pub const fn no_placeholder(self) -> Unrolled {
        Unrolled {
            placeholder_cost: NO_PLACEHOLDER,
            ..self
        }
    }

    /// The same node, with a placeholder that needs none of its arguments'
    /// (an empty collection, `None`, a dangling `Weak`).
    pub const fn emptiable(self) -> Unrolled {
        Unrolled {
            placeholder_cost: 1,
            ..self
        }
    }

    /// The same node, whose placeholder holds `n` of its argument's (an
    /// array): `1 + n * cost`.
    pub const fn repeated(self, element: Unrolled, n: u64) -> Unrolled {
        let n = if n > u32::MAX as u64 {
            u32::MAX
        } else {
            n as u32
        };
        Unrolled {
            placeholder_cost: element.placeholder_cost.saturating_mul(n).saturating_add(1),
            ..self
        }
    }
}

/// The placeholder cost of `fields[from..to]` together.
const fn sum_cost(fields: &[Unrolled], from: usize, to: usize) -> u32 {
    let mut cost = 0u32;
    let mut i = from;
    while i < to && i < fields.len() {
        cost = cost.saturating_add(fields[i].placeholder_cost);
        i += 1;
    }
    cost
}

/// The cheapest variant and its cost.
const fn cheapest(fields: &[Unrolled], variants: &[usize]) -> (usize, u32) {
    let (mut best, mut best_cost) = (0, NO_PLACEHOLDER);
    let mut start = 0;
    let mut v = 0;
    while v < variants.len() {
        let cost = sum_cost(fields, start, start + variants[v]);
        if cost < best_cost {
            best = v;
            best_cost = cost;
        }
        start += variants[v];
        v += 1;
    }
    (best, best_cost)
}

const fn hash_str_after(h: u64, s: &str) -> u64 {
    hash_bytes(h, s.as_bytes())
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

/// The fingerprint of a schema, computed from its description at run time:
/// the same value as the type's `FINGERPRINT` constant.
///
/// ```
/// #[derive(binform::Packable)]
/// struct Node { value: u32, children: Vec<Node> }
///
/// let schema = binform::schema_of::<Node>();
/// assert_eq!(binform::schema::fingerprint(&schema), <Node as binform::Encoding>::FINGERPRINT);
/// ```
pub fn fingerprint(schema: &Schema) -> u64 {
    let mut memo = BTreeMap::new();
    value(schema, &schema.root, LEVELS, &mut memo)
}

/// A node's value at `level`; `memo` holds derived types' values by
/// (name, level), which keeps the work linear in types times levels.
fn value<'s>(
    schema: &'s Schema,
    node: &'s TypeRef,
    level: usize,
    memo: &mut BTreeMap<(&'s str, usize), u64>,
) -> u64 {
    match node {
        TypeRef::Builtin { name, args } => {
            let mut h = hash_str(name);
            for (i, arg) in args.iter().enumerate() {
                h = hash_bytes(h, if i == 0 { b"<" } else { b"," });
                h = hash_hex(h, value(schema, arg, level, memo));
            }
            if !args.is_empty() {
                h = hash_bytes(h, b">");
            }
            h
        }
        TypeRef::Named(name) => {
            if level == 0 {
                return Unrolled::reference(type_ident(name)).fingerprint;
            }
            if let Some(&v) = memo.get(&(name.as_str(), level)) {
                return v;
            }
            let Some(def) = schema.types.get(name) else {
                // A name without a definition (a hand-edited lock file):
                // only its name is known.
                return Unrolled::reference(type_ident(name)).fingerprint;
            };
            let (pieces, fields) = definition_pieces(def);
            let mut h = HASH_START;
            for (i, piece) in pieces.iter().enumerate() {
                h = hash_bytes(h, piece.as_bytes());
                if let Some(field) = fields.get(i) {
                    h = hash_hex(h, value(schema, field, level - 1, memo));
                }
            }
            memo.insert((name.as_str(), level), h);
            h
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
