//! The built-in encodings whose layout is more than a name, as data: the
//! fixed records (`duration` is `secs` and `nanos`, ...) and the enums
//! whose tag is one byte (format.md §8, §17). The schema walkers of
//! [`Value`](crate::Value) read their shapes from here, and the serde
//! bridge its list of byte-tagged enums, so each layout has one home; the
//! impls that write these bytes are tested against it (`value::builtin`'s
//! tests round-trip every type through its `Value`).

/// A field's type in a built-in record: another built-in by name, `N`
/// raw bytes (`array<u8, N>`), or the record's `i`-th type argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldType {
    Named(&'static str),
    Bytes(usize),
    Arg(usize),
}

use FieldType::{Arg, Bytes, Named};

/// A built-in written as a fixed list of fields.
pub(crate) struct Record {
    /// Its schema name.
    pub(crate) name: &'static str,
    /// Its fields, in order.
    pub(crate) fields: &'static [(&'static str, FieldType)],
}

/// The built-in records (format.md §15 to §17 and §23).
pub(crate) const RECORDS: &[Record] = &[
    record(
        "duration",
        &[("secs", Named("u64")), ("nanos", Named("u64"))],
    ),
    record(
        "system_time",
        &[("secs", Named("i64")), ("nanos", Named("u64"))],
    ),
    record("ipv4", &[("octets", Bytes(4))]),
    record("ipv6", &[("octets", Bytes(16))]),
    record(
        "socket_v4",
        &[("ip", Named("ipv4")), ("port", Named("u64"))],
    ),
    record(
        "socket_v6",
        &[
            ("ip", Named("ipv6")),
            ("port", Named("u64")),
            ("flowinfo", Named("u64")),
            ("scope_id", Named("u64")),
        ],
    ),
    record("uuid", &[("bytes", Bytes(16))]),
    record("f16", &[("bits", Bytes(2))]),
    record("bf16", &[("bits", Bytes(2))]),
    record(
        "decimal",
        &[("mantissa", Named("i128")), ("scale", Named("u8"))],
    ),
    record("ordering", &[("sign", Named("i8"))]),
    record("chrono_utc", INSTANT),
    record("chrono_naive_datetime", INSTANT),
    record("time_primitive_datetime", INSTANT),
    record("chrono_delta", INSTANT),
    record("chrono_fixed_offset", OFFSET_INSTANT),
    record("time_offset_datetime", OFFSET_INSTANT),
    record("chrono_date", &[("day", Named("i64"))]),
    record("time_date", &[("julian_day", Named("i64"))]),
    record(
        "chrono_time",
        &[("secs", Named("u64")), ("nanos", Named("u64"))],
    ),
    record(
        "time_time",
        &[("secs", Named("u64")), ("nanos", Named("u64"))],
    ),
    record(
        "time_duration",
        &[("secs", Named("i64")), ("nanos", Named("i64"))],
    ),
    record("range", &[("start", Arg(0)), ("end", Arg(0))]),
    record("range_inclusive", &[("start", Arg(0)), ("end", Arg(0))]),
];

/// Seconds and nanoseconds of an instant or a signed span.
const INSTANT: &[(&str, FieldType)] = &[("secs", Named("i64")), ("nanos", Named("u64"))];

/// An instant and its offset from UTC in seconds.
const OFFSET_INSTANT: &[(&str, FieldType)] = &[
    ("secs", Named("i64")),
    ("nanos", Named("u64")),
    ("offset", Named("i64")),
];

const fn record(name: &'static str, fields: &'static [(&'static str, FieldType)]) -> Record {
    Record { name, fields }
}

impl Record {
    /// How many type arguments the record takes.
    pub(crate) fn arity(&self) -> usize {
        self.fields
            .iter()
            .map(|(_, t)| match t {
                Arg(i) => i + 1,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }
}

impl ByteEnum {
    /// How many type arguments the enum takes.
    pub(crate) fn arity(&self) -> usize {
        self.variants
            .iter()
            .map(|(_, p)| match p {
                Payload::Arg(i) => i + 1,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }
}

/// The record layout of the built-in `name`, if it is a record.
pub(crate) fn record_of(name: &str) -> Option<&'static Record> {
    RECORDS.iter().find(|r| r.name == name)
}

/// What a variant of a byte-tagged enum holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Payload {
    /// Nothing.
    None,
    /// A value of the enum's `i`-th type argument (`result<T, E>`).
    Arg(usize),
    /// A built-in by name.
    Named(&'static str),
}

/// An enum whose tag the format writes as one byte.
pub(crate) struct ByteEnum {
    /// Its schema name.
    pub(crate) name: &'static str,
    /// The Rust type's name (as serde and `Value` name it).
    pub(crate) rust_name: &'static str,
    /// Its variants by tag: their names and payloads.
    pub(crate) variants: &'static [(&'static str, Payload)],
    /// Whether serde's form of the std type is the same (its variants in
    /// this order), so the serde bridge writes an enum of that name with
    /// this byte tag too. `Bound`'s is not: serde numbers its variants
    /// Unbounded, Included, Excluded.
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) serde_agrees: bool,
}

/// The byte-tagged enums (format.md §8, §17, §21).
pub(crate) const BYTE_ENUMS: &[ByteEnum] = &[
    ByteEnum {
        name: "result",
        rust_name: "Result",
        variants: &[("Ok", Payload::Arg(0)), ("Err", Payload::Arg(1))],
        serde_agrees: true,
    },
    ByteEnum {
        name: "bound",
        rust_name: "Bound",
        variants: &[
            ("Included", Payload::Arg(0)),
            ("Excluded", Payload::Arg(0)),
            ("Unbounded", Payload::None),
        ],
        serde_agrees: false,
    },
    ByteEnum {
        name: "ip",
        rust_name: "IpAddr",
        variants: &[
            ("V4", Payload::Named("ipv4")),
            ("V6", Payload::Named("ipv6")),
        ],
        serde_agrees: true,
    },
    ByteEnum {
        name: "socket",
        rust_name: "SocketAddr",
        variants: &[
            ("V4", Payload::Named("socket_v4")),
            ("V6", Payload::Named("socket_v6")),
        ],
        serde_agrees: true,
    },
];

/// The byte-tagged enum of schema name `name`, if it is one.
pub(crate) fn byte_enum_of(name: &str) -> Option<&'static ByteEnum> {
    BYTE_ENUMS.iter().find(|e| e.name == name)
}
