//! The `#[binform(...)]` keywords, one constant each: the parser matches
//! them, its errors name them, and the lists of known keys are made of
//! them, so a keyword is spelled once.

use std::fmt;

use syn::Path;

/// One attribute keyword.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Symbol(&'static str);

/// The attribute itself: `#[binform(...)]`.
pub const BINFORM: Symbol = Symbol("binform");

// On the type.
pub const BOUND: Symbol = Symbol("bound");
pub const CRATE: Symbol = Symbol("crate");
pub const REMOTE: Symbol = Symbol("remote");
pub const RESERVED: Symbol = Symbol("reserved");
pub const SCHEMA_LOCK: Symbol = Symbol("schema_lock");
pub const VERSION_TOLERANT: Symbol = Symbol("version_tolerant");

// Inside `bound(...)`.
pub const ENCODING: Symbol = Symbol("encoding");
pub const PACK: Symbol = Symbol("pack");
pub const UNPACK: Symbol = Symbol("unpack");

// On a field.
pub const DEFAULT: Symbol = Symbol("default");
pub const REQUIRED: Symbol = Symbol("required");
pub const SERDE: Symbol = Symbol("serde");
pub const SKIP: Symbol = Symbol("skip");
pub const WITH: Symbol = Symbol("with");

// On a field or a variant.
pub const OTHER: Symbol = Symbol("other");
pub const TAG: Symbol = Symbol("tag");

/// The keys each place accepts, in the order errors list them.
pub const CONTAINER_KEYS: &[Symbol] = &[
    CRATE,
    BOUND,
    VERSION_TOLERANT,
    RESERVED,
    SCHEMA_LOCK,
    REMOTE,
];
pub const BOUND_KEYS: &[Symbol] = &[PACK, UNPACK, ENCODING];
pub const FIELD_KEYS: &[Symbol] = &[SKIP, DEFAULT, WITH, SERDE, TAG, REQUIRED];
pub const VARIANT_KEYS: &[Symbol] = &[TAG, OTHER];

impl Symbol {
    /// The keyword as written.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// `a, b, c`: a list of keys for an error message.
pub fn list(keys: &[Symbol]) -> String {
    keys.iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
