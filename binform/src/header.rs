//! The 12 bytes both headers start with (format.md §13 and §25): a
//! 3-byte magic, the format version, and the root type's fingerprint.

use alloc::format;

use crate::{Error, ErrorKind, Result};

/// The format version both headers carry in their fourth byte
/// (`docs/format.md` §13): 3 since sequences of strings, options and
/// derived types are columns (§27; 2 packed integer sequences, §22), with
/// [`FIXED_LAYOUT_BIT`] set in the fixed layout. A reader refuses any
/// other version with a clear error instead of misreading, and the other
/// layout's with `SchemaMismatch`.
pub const FORMAT_VERSION: u8 = 3;

/// The fingerprint header's first 4 bytes ([`Options::fingerprint`](crate::Options::fingerprint)):
/// `BFM` and [`FORMAT_VERSION`]; the root type's fingerprint follows.
pub const FINGERPRINT_MAGIC: [u8; 4] = [b'B', b'F', b'M', FORMAT_VERSION];

/// The self-describing header's first 4 bytes
/// ([`Options::self_describing`](crate::Options::self_describing)): `BFS`
/// and [`FORMAT_VERSION`]; the fingerprint and the schema follow.
pub const SELF_DESCRIBING_MAGIC: [u8; 4] = [b'B', b'F', b'S', FORMAT_VERSION];

/// The bit of the version byte that says the payload is in the fixed
/// layout ([`Options::fixed_width`](crate::Options::fixed_width)): its
/// version byte is `FORMAT_VERSION | FIXED_LAYOUT_BIT` (`0x83`).
pub const FIXED_LAYOUT_BIT: u8 = 0x80;

/// The bytes both headers start with: the magic and the fingerprint.
pub(crate) const HEADER_LEN: usize = 12;

/// `magic` (one of the two above) with the version byte of the layout `L`.
pub(crate) const fn magic_in<L: crate::Layout>(magic: [u8; 4]) -> [u8; 4] {
    let [a, b, c, v] = magic;
    [a, b, c, if L::FIXED { v | FIXED_LAYOUT_BIT } else { v }]
}

/// The name of the layout a header's version byte states.
pub(crate) const fn layout_name(fixed: bool) -> &'static str {
    use crate::layout::{Compact, Fixed, Layout};
    if fixed {
        Fixed::NAME
    } else {
        Compact::NAME
    }
}

/// The error for a payload written in the other layout than the reader's.
#[cold]
pub(crate) fn layout_mismatch(theirs_fixed: bool) -> Error {
    let (theirs, ours) = (layout_name(theirs_fixed), layout_name(!theirs_fixed));
    let hint = if theirs_fixed {
        "read it with Options::new().fixed_width()"
    } else {
        "read it with Options::new(), without fixed_width()"
    };
    Error::new(
        ErrorKind::SchemaMismatch,
        format!("the payload was written in the {theirs} layout, this reader uses the {ours} layout ({hint})"),
    )
    .at(3)
}

/// What a header states: its layout, its fingerprint, and what follows.
pub(crate) struct Opened<'a> {
    /// Whether the payload is in the fixed layout.
    pub(crate) fixed: bool,
    /// The root type's fingerprint.
    pub(crate) fingerprint: u64,
    /// The bytes after the 12.
    pub(crate) rest: &'a [u8],
}

/// Checks `bytes`' magic and version against `magic` (`what` names the
/// header in errors; either layout's version is accepted) and returns
/// what it states.
pub(crate) fn open<'a>(bytes: &'a [u8], magic: [u8; 4], what: &str) -> Result<Opened<'a>> {
    let (Some(head), Some(fp), Some(rest)) = (
        bytes.get(..4),
        bytes.get(4..HEADER_LEN),
        bytes.get(HEADER_LEN..),
    ) else {
        // What there is of the magic already tells another payload apart.
        let seen = bytes.len().min(3);
        let kind = if bytes.get(..seen) != magic.get(..seen) {
            ErrorKind::InvalidValue
        } else {
            ErrorKind::UnexpectedEnd
        };
        return Err(Error::new(
            kind,
            format!("input is shorter than the {HEADER_LEN}-byte {what}"),
        )
        .at(seen));
    };
    if head.get(..3) != magic.get(..3) {
        let name = core::str::from_utf8(magic.get(..3).unwrap_or_default()).unwrap_or("?");
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!("no binform {what} (magic `{name}`)"),
        )
        .at(0));
    }
    let version = head.get(3).copied().unwrap_or_default();
    if version & !FIXED_LAYOUT_BIT != magic[3] {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "unsupported format version {}",
                head.get(3).copied().unwrap_or_default()
            ),
        )
        .at(3));
    }
    let mut raw = [0u8; 8];
    raw.copy_from_slice(fp);
    Ok(Opened {
        fixed: version & FIXED_LAYOUT_BIT != 0,
        fingerprint: u64::from_le_bytes(raw),
        rest,
    })
}

/// [`open`] for a reader in the layout `L`: a payload in the other
/// layout is a [`ErrorKind::SchemaMismatch`].
pub(crate) fn open_in<'a, L: crate::Layout>(
    bytes: &'a [u8],
    magic: [u8; 4],
    what: &str,
) -> Result<(u64, &'a [u8])> {
    let opened = open(bytes, magic, what)?;
    if opened.fixed != L::FIXED {
        return Err(layout_mismatch(opened.fixed));
    }
    Ok((opened.fingerprint, opened.rest))
}

/// The error for a payload written for another type than the reader's.
#[cold]
pub(crate) fn mismatch(theirs: u64, ours: u64) -> Error {
    Error::new(
        ErrorKind::SchemaMismatch,
        format!("the payload was written for schema {theirs:#018x}, this reader's type has {ours:#018x}"),
    )
    .at(4)
}
