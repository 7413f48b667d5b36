//! The self-describing header (`docs/format.md` §25): the magic `BFS` and
//! the format version, the root type's fingerprint, then its schema in
//! binary form (the schema model encoded by binform itself, a length
//! first so that a reader with the type skips it unread).

use alloc::format;
use alloc::vec::Vec;

use super::model::Schema;
use crate::{Error, ErrorKind, Options, Pack, Reader, Result, Writer};

use crate::header::{HEADER_LEN, SELF_DESCRIBING_MAGIC as MAGIC};

/// How deeply a schema's type arguments may nest (`seq<seq<…>>`), in a
/// header read or written: what a lock file may hold too.
pub(crate) const MAX_SCHEMA_DEPTH: u32 = binform_schema::MAX_DEPTH as u32;

/// The nesting the model's own encoding may reach: the schema's depth and
/// a few levels of the model around it (a schema, its types, a type's
/// body, a field).
const MODEL_DEPTH: u32 = MAX_SCHEMA_DEPTH + 8;

/// Appends the header for a root type with `fingerprint` and `schema`.
/// The schema itself is in the compact layout whatever the value's (the
/// version byte says which that is).
pub(crate) fn write_header<L: crate::Layout>(
    buf: &mut Vec<u8>,
    fingerprint: u64,
    schema: &Schema,
) -> Result<()> {
    buf.extend_from_slice(&crate::header::magic_in::<L>(MAGIC));
    buf.extend_from_slice(&fingerprint.to_le_bytes());
    let mut w = Writer::<crate::layout::Compact>::with_depth(buf, MODEL_DEPTH);
    w.write_len_prefixed(|w| schema.pack(w))
}

/// A self-describing payload cut in its parts.
pub(crate) struct Parts<'a> {
    /// Whether the value is in the fixed layout.
    pub(crate) fixed: bool,
    /// The fingerprint the header states.
    pub(crate) fingerprint: u64,
    /// The schema's bytes, not decoded.
    pub(crate) schema: &'a [u8],
    /// Where the schema's bytes start in the payload.
    pub(crate) schema_at: usize,
    /// The value's bytes.
    pub(crate) body: &'a [u8],
}

/// Cuts `bytes` at the header's boundaries, checking its magic, version
/// and the schema's length, decoding nothing.
pub(crate) fn split(bytes: &[u8]) -> Result<Parts<'_>> {
    let crate::header::Opened {
        fixed,
        fingerprint,
        rest,
    } = crate::header::open(bytes, MAGIC, "self-describing header")?;
    let mut r = Reader::new(rest, &Options::new());
    let len = r.read_len()?;
    let start = r.position();
    let schema = rest
        .get(start..)
        .and_then(|s| s.get(..len))
        .ok_or_else(|| {
            Error::new(
                ErrorKind::UnexpectedEnd,
                format!(
                    "the schema is declared as {len} bytes, {} remain",
                    rest.len() - start
                ),
            )
            .at(HEADER_LEN)
        })?;
    Ok(Parts {
        fixed,
        fingerprint,
        schema,
        schema_at: HEADER_LEN + start,
        body: &rest[start + len..],
    })
}

/// The body of a self-describing payload for a reader whose type has
/// fingerprint `ours`: one comparison, the schema left unread.
pub(crate) fn body_for<L: crate::Layout>(bytes: &[u8], ours: u64) -> Result<&[u8]> {
    let parts = split(bytes)?;
    if parts.fixed != L::FIXED {
        return Err(crate::header::layout_mismatch(parts.fixed));
    }
    if parts.fingerprint != ours {
        return Err(crate::header::mismatch(parts.fingerprint, ours));
    }
    Ok(parts.body)
}

/// Decodes the schema of a self-describing payload (its parts from
/// [`split`]) under `options`' limits, and checks that it hashes to the
/// fingerprint the header states.
pub(crate) fn decode_schema(parts: &Parts<'_>, options: &Options) -> Result<Schema> {
    decode_schema_within(parts, options).map(|(schema, _)| schema)
}

/// [`decode_schema`], and what its memory budget has left, for a caller
/// whose next phase (the body) shares the budget.
pub(crate) fn decode_schema_within(
    parts: &Parts<'_>,
    options: &Options,
) -> Result<(Schema, usize)> {
    let at = parts.schema_at;
    // The schema's bytes are a plain payload: no header of their own.
    let limits = options.max_depth(options.depth_limit().min(MODEL_DEPTH) as usize);
    let mut r = crate::Reader::new(parts.schema, &limits);
    let schema = <Schema as crate::Unpack>::unpack(&mut r)
        .and_then(|schema| r.finish().map(|()| schema))
        .map_err(|e| e.shifted(at))?;
    let left = r.memory_left();
    if let Err(problem) = schema.validate() {
        return Err(Error::new(ErrorKind::InvalidValue, problem).at(at));
    }
    for (name, def) in &schema.types {
        if *name != def.name {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "the schema files type `{}` under the name `{name}`",
                    def.name
                ),
            )
            .at(at));
        }
    }
    let computed = super::fingerprint(&schema);
    if computed != parts.fingerprint {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "the header's fingerprint {:#018x} is not its schema's ({computed:#018x}): \
                 the header is damaged",
                parts.fingerprint
            ),
        )
        .at(4));
    }
    Ok((schema, left))
}

/// Reads the schema a self-describing payload
/// ([`Options::self_describing`](crate::Options::self_describing)) carries,
/// without its Rust type: equal (`==`) to `schema_of::<T>()` of the type
/// that wrote it. The header is checked (magic, version, lengths) and the
/// schema must hash to the fingerprint it states; decoding it is bounded
/// by the default [`Options`].
///
/// ```
/// use binform::{Options, Packable};
///
/// #[derive(Packable)]
/// enum Shape { Circle { r: f64 }, Square(f64) }
///
/// let bytes = Options::new().self_describing(true).to_vec(&vec![Shape::Square(2.0)])?;
/// let schema = binform::schema::read_schema(&bytes)?;
/// assert_eq!(schema, binform::schema_of::<Vec<Shape>>());
/// assert!(schema.to_string().starts_with("root seq<Shape>"));
/// # Ok::<(), binform::Error>(())
/// ```
pub fn read_schema(bytes: &[u8]) -> Result<Schema> {
    let parts = split(bytes)?;
    decode_schema(&parts, &Options::new())
}
