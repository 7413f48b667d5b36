//! The hash of `docs/format.md` §14, in `const fn`s: FNV-1a 64 over a
//! node's canonical text, in which each child appears as the 16 hex digits
//! of its own value. One home for the runtime, which walks schemas with
//! it, and the derive, which computes a type's shape (its value at level
//! 0) while it expands, so the compiler has a literal to compare, not a
//! hash to evaluate.

/// The FNV-1a 64 offset basis: the hash of no bytes. This and
/// [`hash_bytes`], [`hash_str`] and [`mix`] are the hash of
/// `docs/format.md` §14, public so that a second implementation or a
/// hand-written impl's test can compute a fingerprint; they change only
/// with the format version.
///
/// ```
/// use binform_schema::hash::{hash_bytes, hash_str, HASH_START};
/// assert_eq!(hash_str(""), HASH_START);
/// // FNV-1a 64 of "a", a published test vector.
/// assert_eq!(hash_bytes(HASH_START, b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub const HASH_START: u64 = 0xCBF2_9CE4_8422_2325;
/// The FNV-1a 64 prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

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

/// A built-in node's value from its name and its arguments' values:
/// `name`, or `name<a,b>` with the arguments in hex.
pub const fn builtin_value(name: &str, args: &[u64]) -> u64 {
    let mut h = hash_str(name);
    let mut i = 0;
    while i < args.len() {
        h = hash_bytes(h, if i == 0 { b"<" } else { b"," });
        h = hash_hex(h, args[i]);
        i += 1;
    }
    if !args.is_empty() {
        h = hash_bytes(h, b">");
    }
    h
}

/// A number's value as a built-in argument (an array's length, a trait
/// object's tag): its decimal digits as a name.
pub const fn number_value(n: u64) -> u64 {
    hash_decimal(HASH_START, n)
}

/// A derived type's value at level 0: `ref Name`.
pub const fn reference_value(name: &str) -> u64 {
    hash_bytes(hash_str("ref "), name.as_bytes())
}
