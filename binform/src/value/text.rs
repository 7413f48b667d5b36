//! The usual text forms of well-known built-ins, for people reading a
//! [`Value`] as JSON: a UUID as its hyphenated hex, dates and times in
//! RFC 3339, a decimal as its digits, IP and socket addresses as Rust
//! prints them. [`Value::text`] gives a value's form only when reading it
//! back ([`parse`]) gives the same value, so a text form never costs the
//! byte-exact round trip; a value with no faithful form (a leap second, a
//! year past 9999, a socket address with a flow label) keeps its record.
//!
//! | value (schema name) | text |
//! |---|---|
//! | `uuid` | `67e55044-10b1-426f-9247-bb680e5fe0c8` (also read: 32 hex digits) |
//! | `decimal` | `-12.3400` (the scale is the number of digits after the point) |
//! | `ipv4`, `ipv6`, `IpAddr` | `127.0.0.1`, `::1` |
//! | `socket_v4`, `socket_v6`, `SocketAddr` | `127.0.0.1:80`, `[::1%3]:80` |
//! | `chrono_utc` | `2024-02-29T13:45:00.125Z` (also read: any offset, converted) |
//! | `chrono_fixed_offset`, `time_offset_datetime` | `2024-02-29T13:45:00+05:30` |
//! | `chrono_naive_datetime`, `time_primitive_datetime` | `2024-02-29T13:45:00` |
//! | `chrono_date`, `time_date` | `2024-02-29` |
//! | `chrono_time`, `time_time` | `13:45:00.000001` |
//!
//! Fractions of a second print 3, 6 or 9 digits, as few as hold the
//! value; any 1 to 9 digits read back. Years are 0000 to 9999, offsets
//! whole minutes under a day.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::Write;
use core::net::{Ipv4Addr, Ipv6Addr, SocketAddrV4, SocketAddrV6};

use super::Value;

/// Days from 0001-01-01 (day 1, chrono's count) to 1970-01-01.
const CE_EPOCH: i64 = 719_163;
/// The Julian day number of 1970-01-01.
const JULIAN_EPOCH: i64 = 2_440_588;
const DAY: i64 = 86_400;
const NANOS: u64 = 1_000_000_000;

/// The names with a text form: records' schema names, and the Rust names
/// of the two address enums.
const NAMES: &[&str] = &[
    "uuid",
    "decimal",
    "ipv4",
    "ipv6",
    "IpAddr",
    "socket_v4",
    "socket_v6",
    "SocketAddr",
    "chrono_utc",
    "chrono_fixed_offset",
    "time_offset_datetime",
    "chrono_naive_datetime",
    "time_primitive_datetime",
    "chrono_date",
    "time_date",
    "chrono_time",
    "time_time",
];

/// Whether values of `name` may be written as text.
pub(super) fn has_text(name: &str) -> bool {
    NAMES.contains(&name)
}

impl Value {
    /// The usual text form of a well-known built-in (a UUID, a date or
    /// time of chrono or time, a decimal, an IP or socket address), if it
    /// has one that reads back to exactly this value. The CLI's `to-json`
    /// prints these, and [`conform`](super::conform) reads them back.
    ///
    /// ```
    /// use binform::Value;
    ///
    /// let ip = Value::Struct {
    ///     name: "ipv4".into(),
    ///     fields: vec![("octets".into(), Value::Bytes(vec![127, 0, 0, 1]))],
    /// };
    /// assert_eq!(ip.text().as_deref(), Some("127.0.0.1"));
    /// assert_eq!(Value::U8(1).text(), None);
    /// ```
    pub fn text(&self) -> Option<String> {
        let (name, text) = match self {
            Value::Struct { name, fields } => (name, record(name, fields)?),
            Value::Variant {
                name,
                variant,
                fields,
            } => (name, address(name, variant, fields)?),
            _ => return None,
        };
        (parse(name, &text).as_ref() == Some(self)).then_some(text)
    }
}

/// The value of the built-in `name` (a record's schema name, or `IpAddr`,
/// `SocketAddr`) that `text` spells, if `name` has a text form and `text`
/// is one.
pub(super) fn parse(name: &str, text: &str) -> Option<Value> {
    let fields = match name {
        "uuid" => vec![("bytes", Value::Bytes(uuid(text)?))],
        "decimal" => {
            let (mantissa, scale) = decimal(text)?;
            vec![
                ("mantissa", Value::I128(mantissa)),
                ("scale", Value::U8(scale)),
            ]
        }
        "ipv4" => return Some(ipv4(text.parse().ok()?)),
        "ipv6" => return Some(ipv6(text.parse().ok()?)),
        "socket_v4" => return Some(socket_v4(text.parse().ok()?)),
        "socket_v6" => return Some(socket_v6(text.parse().ok()?)),
        "IpAddr" => {
            return Some(match text.parse().ok()? {
                core::net::IpAddr::V4(ip) => variant(name, "V4", ipv4(ip)),
                core::net::IpAddr::V6(ip) => variant(name, "V6", ipv6(ip)),
            })
        }
        "SocketAddr" => {
            return Some(match text.parse().ok()? {
                core::net::SocketAddr::V4(a) => variant(name, "V4", socket_v4(a)),
                core::net::SocketAddr::V6(a) => variant(name, "V6", socket_v6(a)),
            })
        }
        "chrono_utc" => {
            let (local, nanos, offset) = zoned(text)?;
            instant(local.checked_sub(offset)?, nanos)
        }
        "chrono_fixed_offset" => {
            let (local, nanos, offset) = zoned(text)?;
            let mut fields = instant(local.checked_sub(offset)?, nanos);
            fields.push(("offset", Value::I64(offset)));
            fields
        }
        "time_offset_datetime" => {
            let (local, nanos, offset) = zoned(text)?;
            let mut fields = instant(local, nanos);
            fields.push(("offset", Value::I64(offset)));
            fields
        }
        "chrono_naive_datetime" | "time_primitive_datetime" => {
            let (local, nanos, rest) = stamp(text)?;
            if !rest.is_empty() {
                return None;
            }
            instant(local, nanos)
        }
        "chrono_date" => vec![("day", Value::I64(whole_date(text)? + CE_EPOCH))],
        "time_date" => vec![("julian_day", Value::I64(whole_date(text)? + JULIAN_EPOCH))],
        "chrono_time" | "time_time" => {
            let (secs, nanos, rest) = time_of_day(text)?;
            if !rest.is_empty() {
                return None;
            }
            vec![
                ("secs", Value::U64(secs as u64)),
                ("nanos", Value::U64(nanos)),
            ]
        }
        _ => return None,
    };
    Some(record_of(name, fields))
}

/// `parsed` (what [`parse`] gives) as the loose value a reader of JSON
/// would have written for it: a record as an object of its fields, a
/// variant as `{"Name": value}`. For a derived type that has the shape of
/// a built-in (a user's own `IpAddr` enum), so its text reads back too.
pub(super) fn loosen(mut parsed: Value) -> Value {
    let object = |fields: Vec<(String, Value)>| {
        Value::Map(
            fields
                .into_iter()
                .map(|(n, v)| (Value::String(n), loosen(v)))
                .collect(),
        )
    };
    // `Value` has a `Drop` of its own: its parts are taken, not moved out.
    match &mut parsed {
        Value::Struct { fields, .. } => object(core::mem::take(fields)),
        Value::Variant {
            variant, fields, ..
        } => match fields.pop() {
            Some((_, only)) => object(vec![(core::mem::take(variant), only)]),
            None => Value::String(core::mem::take(variant)),
        },
        _ => parsed,
    }
}

// ---- Writing ----------------------------------------------------------

/// The text of the built-in record `name` with `fields`, unchecked.
fn record(name: &str, fields: &[(String, Value)]) -> Option<String> {
    let get = |field: &str| fields.iter().find(|(n, _)| n == field).map(|(_, v)| v);
    let int = |field: &str| match get(field)? {
        Value::I64(x) => Some(*x),
        Value::U64(x) => i64::try_from(*x).ok(),
        _ => None,
    };
    let bytes = |field: &str, n: usize| match get(field)? {
        Value::Bytes(b) if b.len() == n => Some(b.as_slice()),
        _ => None,
    };
    Some(match name {
        "uuid" => {
            let b = bytes("bytes", 16)?;
            let mut hex = String::with_capacity(32);
            for x in b {
                let _ = write!(hex, "{x:02x}");
            }
            format!(
                "{}-{}-{}-{}-{}",
                &hex[..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..]
            )
        }
        "decimal" => match (get("mantissa")?, get("scale")?) {
            (Value::I128(m), Value::U8(s)) => show_decimal(*m, *s),
            _ => return None,
        },
        "ipv4" => Ipv4Addr::from(<[u8; 4]>::try_from(bytes("octets", 4)?).ok()?).to_string(),
        "ipv6" => Ipv6Addr::from(<[u8; 16]>::try_from(bytes("octets", 16)?).ok()?).to_string(),
        "socket_v4" | "socket_v6" => {
            // Only the matching address record: a hand-built value nesting
            // sockets in sockets must not make this recurse.
            let want = if name == "socket_v4" { "ipv4" } else { "ipv6" };
            let ip = match get("ip")? {
                Value::Struct { name: ip, fields } if ip == want => record(ip, fields)?,
                _ => return None,
            };
            let port = int("port")?;
            if name == "socket_v4" {
                format!("{ip}:{port}")
            } else {
                // The flow label has no text form: a value with one fails
                // the read-back check and keeps its record.
                match int("scope_id")? {
                    0 => format!("[{ip}]:{port}"),
                    scope => format!("[{ip}%{scope}]:{port}"),
                }
            }
        }
        "chrono_utc" => format!("{}Z", show_stamp(int("secs")?, int("nanos")?)?),
        "chrono_fixed_offset" => {
            let offset = int("offset")?;
            let local = int("secs")?.checked_add(offset)?;
            format!(
                "{}{}",
                show_stamp(local, int("nanos")?)?,
                show_offset(offset)?
            )
        }
        "time_offset_datetime" => {
            let offset = int("offset")?;
            format!(
                "{}{}",
                show_stamp(int("secs")?, int("nanos")?)?,
                show_offset(offset)?
            )
        }
        "chrono_naive_datetime" | "time_primitive_datetime" => {
            show_stamp(int("secs")?, int("nanos")?)?
        }
        "chrono_date" => show_date(int("day")?.checked_sub(CE_EPOCH)?)?,
        "time_date" => show_date(int("julian_day")?.checked_sub(JULIAN_EPOCH)?)?,
        "chrono_time" | "time_time" => {
            let secs = int("secs")?;
            if !(0..DAY).contains(&secs) {
                return None;
            }
            show_time(secs, int("nanos")?)?
        }
        _ => return None,
    })
}

/// The text of `IpAddr::V4(…)` and the like: its one field's.
fn address(name: &str, variant: &str, fields: &[(String, Value)]) -> Option<String> {
    if !matches!((name, variant), ("IpAddr" | "SocketAddr", "V4" | "V6")) {
        return None;
    }
    match fields {
        [(field, Value::Struct { name, fields })] if field == "0" => record(name, fields),
        _ => None,
    }
}

fn show_decimal(mantissa: i128, scale: u8) -> String {
    let digits = mantissa.unsigned_abs().to_string();
    let scale = usize::from(scale);
    let sign = if mantissa < 0 { "-" } else { "" };
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (whole, fraction) = padded.split_at(padded.len() - scale);
    format!("{sign}{whole}.{fraction}")
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]` of Unix seconds and nanoseconds.
fn show_stamp(secs: i64, nanos: i64) -> Option<String> {
    let (days, time) = (secs.div_euclid(DAY), secs.rem_euclid(DAY));
    Some(format!("{}T{}", show_date(days)?, show_time(time, nanos)?))
}

/// `YYYY-MM-DD` of days since 1970-01-01, for years 0 to 9999.
fn show_date(days: i64) -> Option<String> {
    let (y, m, d) = civil(days)?;
    (0..=9999)
        .contains(&y)
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// `HH:MM:SS[.fff]` of seconds into a day; no leap second.
fn show_time(secs: i64, nanos: i64) -> Option<String> {
    let nanos = u64::try_from(nanos).ok().filter(|&n| n < NANOS)?;
    let mut text = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if nanos > 0 {
        let digits = if nanos % 1_000_000 == 0 {
            3
        } else if nanos % 1_000 == 0 {
            6
        } else {
            9
        };
        let fraction = format!("{nanos:09}");
        text.push('.');
        text.push_str(&fraction[..digits]);
    }
    Some(text)
}

/// `+HH:MM` of seconds east of UTC, in whole minutes under a day.
fn show_offset(offset: i64) -> Option<String> {
    if offset % 60 != 0 || offset.unsigned_abs() >= DAY as u64 {
        return None;
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let minutes = offset.unsigned_abs() / 60;
    Some(format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60))
}

/// Year, month and day of days since 1970-01-01 (the proleptic Gregorian
/// calendar, by eras of 400 years).
fn civil(days: i64) -> Option<(i64, i64, i64)> {
    let z = days.checked_add(719_468)?;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era.checked_mul(400)? + i64::from(m <= 2);
    Some((y, m, d))
}

/// Days since 1970-01-01 of a valid date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

// ---- Reading ----------------------------------------------------------

fn variant(name: &str, variant: &str, value: Value) -> Value {
    Value::Variant {
        name: name.to_string(),
        variant: variant.to_string(),
        fields: vec![("0".to_string(), value)],
    }
}

fn record_of(name: &str, fields: Vec<(&str, Value)>) -> Value {
    Value::Struct {
        name: name.to_string(),
        fields: fields
            .into_iter()
            .map(|(n, v)| (n.to_string(), v))
            .collect(),
    }
}

fn ipv4(ip: Ipv4Addr) -> Value {
    record_of("ipv4", vec![("octets", Value::Bytes(ip.octets().to_vec()))])
}

fn ipv6(ip: Ipv6Addr) -> Value {
    record_of("ipv6", vec![("octets", Value::Bytes(ip.octets().to_vec()))])
}

fn socket_v4(a: SocketAddrV4) -> Value {
    record_of(
        "socket_v4",
        vec![("ip", ipv4(*a.ip())), ("port", Value::U64(a.port().into()))],
    )
}

fn socket_v6(a: SocketAddrV6) -> Value {
    record_of(
        "socket_v6",
        vec![
            ("ip", ipv6(*a.ip())),
            ("port", Value::U64(a.port().into())),
            ("flowinfo", Value::U64(a.flowinfo().into())),
            ("scope_id", Value::U64(a.scope_id().into())),
        ],
    )
}

fn instant(secs: i64, nanos: u64) -> Vec<(&'static str, Value)> {
    vec![("secs", Value::I64(secs)), ("nanos", Value::U64(nanos))]
}

/// The 16 bytes of a hyphenated (8-4-4-4-12) or plain UUID in hex.
fn uuid(text: &str) -> Option<Vec<u8>> {
    let hex: Vec<u8> = match text.len() {
        36 => {
            let b = text.as_bytes();
            if [8, 13, 18, 23].iter().any(|&i| b[i] != b'-') {
                return None;
            }
            b.iter().copied().filter(|&c| c != b'-').collect()
        }
        32 => text.as_bytes().to_vec(),
        _ => return None,
    };
    if hex.len() != 32 {
        return None;
    }
    hex.chunks(2)
        .map(|pair| Some((nibble(pair[0])? << 4) | nibble(pair[1])?))
        .collect()
}

fn nibble(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// The mantissa and scale of `[-]digits[.digits]`.
fn decimal(text: &str) -> Option<(i128, u8)> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if whole.is_empty() || (unsigned.contains('.') && fraction.is_empty()) {
        return None;
    }
    let scale = u8::try_from(fraction.len()).ok()?;
    let mut magnitude: u128 = 0;
    for c in whole.bytes().chain(fraction.bytes()) {
        let d = u128::from(digit(c)?);
        magnitude = magnitude.checked_mul(10)?.checked_add(d)?;
    }
    // Through the magnitude, so that `i128::MIN` reads too.
    let mantissa = if negative {
        0i128.checked_sub_unsigned(magnitude)?
    } else {
        i128::try_from(magnitude).ok()?
    };
    Some((mantissa, scale))
}

fn digit(c: u8) -> Option<u8> {
    c.is_ascii_digit().then(|| c - b'0')
}

/// The number spelled by exactly `n` digits at the front of `text`, and
/// what follows.
fn number(text: &str, n: usize) -> Option<(i64, &str)> {
    let head = text.get(..n)?;
    let mut x = 0i64;
    for c in head.bytes() {
        x = x * 10 + i64::from(digit(c)?);
    }
    Some((x, &text[n..]))
}

/// Days since 1970-01-01 of `YYYY-MM-DD` at the front of `text`, and what
/// follows.
fn date(text: &str) -> Option<(i64, &str)> {
    let (y, rest) = number(text, 4)?;
    let (m, rest) = number(rest.strip_prefix('-')?, 2)?;
    let (d, rest) = number(rest.strip_prefix('-')?, 2)?;
    if !(1..=12).contains(&m) || d < 1 || d > month_length(y, m) {
        return None;
    }
    Some((days_from_civil(y, m, d), rest))
}

fn whole_date(text: &str) -> Option<i64> {
    match date(text)? {
        (days, "") => Some(days),
        _ => None,
    }
}

fn month_length(y: i64, m: i64) -> i64 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Seconds into the day and nanoseconds of `HH:MM:SS[.f…]` at the front
/// of `text`, and what follows.
fn time_of_day(text: &str) -> Option<(i64, u64, &str)> {
    let (h, rest) = number(text, 2)?;
    let (m, rest) = number(rest.strip_prefix(':')?, 2)?;
    let (s, mut rest) = number(rest.strip_prefix(':')?, 2)?;
    if h > 23 || m > 59 || s > 59 {
        return None;
    }
    let mut nanos = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let n = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if !(1..=9).contains(&n) {
            return None;
        }
        let (x, after) = number(fraction, n)?;
        nanos = x as u64 * 10u64.pow(9 - n as u32);
        rest = after;
    }
    Some((h * 3600 + m * 60 + s, nanos, rest))
}

/// A local date-time's seconds since 1970-01-01T00:00:00 as if in UTC,
/// nanoseconds, and what follows.
fn stamp(text: &str) -> Option<(i64, u64, &str)> {
    let (days, rest) = date(text)?;
    let (secs, nanos, rest) = time_of_day(rest.strip_prefix('T')?)?;
    Some((days * DAY + secs, nanos, rest))
}

/// A date-time with its offset (`Z` or `±HH:MM`): local seconds,
/// nanoseconds, and the offset in seconds east of UTC.
fn zoned(text: &str) -> Option<(i64, u64, i64)> {
    let (local, nanos, rest) = stamp(text)?;
    let offset = match rest {
        "Z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (h, after) = number(&rest[1..], 2)?;
            let (m, after) = number(after.strip_prefix(':')?, 2)?;
            if !after.is_empty() || h > 23 || m > 59 {
                return None;
            }
            sign * (h * 3600 + m * 60)
        }
    };
    Some((local, nanos, offset))
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use crate::value::{conform, from_slice_with, to_vec_with};
    use crate::{Encoding, Pack, Value};

    /// `value`'s text form is `expected`, and the text read back through
    /// the schema writes `value`'s own bytes.
    fn text<T: Pack + Encoding>(value: &T, expected: &str) {
        let schema = crate::schema_of::<T>();
        let bytes = crate::to_vec(value).unwrap();
        let seen = from_slice_with(&schema, &bytes).unwrap();
        assert_eq!(seen.root().text().as_deref(), Some(expected), "{seen}");
        let back = conform(&schema, &Value::String(expected.to_string())).unwrap();
        assert_eq!(to_vec_with(&schema, &back).unwrap(), bytes, "{expected}");
    }

    /// `value` has no faithful text form: it keeps its record.
    fn no_text<T: Pack + Encoding>(value: &T) {
        let schema = crate::schema_of::<T>();
        let seen = from_slice_with(&schema, &crate::to_vec(value).unwrap()).unwrap();
        assert_eq!(seen.root().text(), None, "{seen}");
    }

    /// `text` is refused as the built-in `T`, naming what was wanted.
    fn refused<T: Encoding>(text: &str) {
        let schema = crate::schema_of::<T>();
        let err = conform(&schema, &Value::String(text.into())).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::InvalidValue, "{err}");
        assert!(err.to_string().contains("text form"), "{err}");
    }

    #[test]
    fn addresses_print_as_rust_does() {
        use core::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
        let v4 = Ipv4Addr::new(192, 168, 0, 1);
        let v6: Ipv6Addr = "2001:db8::8a2e:370:7334".parse().unwrap();
        text(&v4, "192.168.0.1");
        text(&v6, "2001:db8::8a2e:370:7334");
        text(&IpAddr::V4(v4), "192.168.0.1");
        text(&IpAddr::V6(Ipv6Addr::LOCALHOST), "::1");
        text(&SocketAddrV4::new(v4, 8080), "192.168.0.1:8080");
        text(
            &SocketAddrV6::new(v6, 443, 0, 0),
            "[2001:db8::8a2e:370:7334]:443",
        );
        text(
            &SocketAddrV6::new(v6, 443, 0, 3),
            "[2001:db8::8a2e:370:7334%3]:443",
        );
        text(&SocketAddr::V4(SocketAddrV4::new(v4, 1)), "192.168.0.1:1");
        // The flow label has no text: the record stays.
        no_text(&SocketAddrV6::new(v6, 443, 7, 0));
        refused::<Ipv4Addr>("192.168.0.256");
        refused::<SocketAddr>("192.168.0.1");
    }

    #[cfg(feature = "uuid")]
    #[test]
    fn a_uuid_prints_hyphenated() {
        let id = uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8);
        text(&id, &id.hyphenated().to_string());
        // The simple form reads too.
        let schema = crate::schema_of::<uuid::Uuid>();
        let simple = conform(&schema, &Value::String(id.simple().to_string())).unwrap();
        assert_eq!(
            to_vec_with(&schema, &simple).unwrap(),
            crate::to_vec(&id).unwrap()
        );
        refused::<uuid::Uuid>("67e55044-10b1-426f-9247-bb680e5fe0c");
        refused::<uuid::Uuid>("67e55044+10b1-426f-9247-bb680e5fe0c8");
    }

    #[cfg(feature = "rust_decimal")]
    #[test]
    fn a_decimal_prints_its_digits() {
        use rust_decimal::Decimal;
        for d in [
            Decimal::new(-314, 2),
            Decimal::new(5, 4),
            Decimal::new(12_300, 2),
            Decimal::new(0, 3),
            Decimal::new(7, 0),
            Decimal::MAX,
            Decimal::MIN,
        ] {
            text(&d, &d.to_string());
        }
        refused::<Decimal>("1.");
        refused::<Decimal>("1e5");
    }

    #[cfg(feature = "chrono")]
    #[test]
    fn chrono_values_print_in_rfc_3339() {
        use chrono::{FixedOffset, SecondsFormat, TimeZone, Utc};
        for nanos in [0, 5, 125_000_000, 123_456_000] {
            let at = Utc.timestamp_opt(1_700_000_000, nanos).unwrap();
            text(&at, &at.to_rfc3339_opts(SecondsFormat::AutoSi, true));
            let east = at.with_timezone(&FixedOffset::east_opt(5 * 3600 + 1800).unwrap());
            text(&east, &east.to_rfc3339_opts(SecondsFormat::AutoSi, false));
            let west = at.with_timezone(&FixedOffset::west_opt(8 * 3600).unwrap());
            text(&west, &west.to_rfc3339_opts(SecondsFormat::AutoSi, false));
            text(&at.naive_utc(), &format!("{:?}", at.naive_utc()));
            text(&at.time(), &format!("{:?}", at.time()));
        }
        text(
            &Utc.timestamp_opt(1_700_000_000, 0).unwrap(),
            "2023-11-14T22:13:20Z",
        );
        text(
            &chrono::NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
            "2024-02-29",
        );
        text(
            &chrono::NaiveDate::from_ymd_opt(1, 1, 1).unwrap(),
            "0001-01-01",
        );
        text(&Utc.timestamp_opt(-1, 0).unwrap(), "1969-12-31T23:59:59Z");
        // Any offset reads into UTC.
        let schema = crate::schema_of::<chrono::DateTime<Utc>>();
        let shifted = conform(&schema, &Value::String("2023-11-15T00:13:20+02:00".into())).unwrap();
        assert_eq!(
            to_vec_with(&schema, &shifted).unwrap(),
            crate::to_vec(&Utc.timestamp_opt(1_700_000_000, 0).unwrap()).unwrap()
        );
        // A leap second and a year past 9999 keep their records; an
        // offset of seconds too.
        no_text(&Utc.timestamp_opt(1_700_000_039, 1_500_000_000).unwrap());
        no_text(&chrono::NaiveDate::from_ymd_opt(10_000, 1, 1).unwrap());
        no_text(&chrono::NaiveDate::from_ymd_opt(-1, 1, 1).unwrap());
        no_text(
            &Utc.timestamp_opt(0, 0)
                .unwrap()
                .with_timezone(&FixedOffset::east_opt(30).unwrap()),
        );
        refused::<chrono::NaiveDate>("2023-02-29");
        refused::<chrono::NaiveDateTime>("2023-11-14T22:13:20Z");
        refused::<chrono::DateTime<Utc>>("2023-11-14T22:13:60Z");
        refused::<chrono::NaiveTime>("24:00:00");
        refused::<chrono::NaiveTime>("12:00:00.1234567890");
    }

    #[cfg(feature = "time")]
    #[test]
    fn time_values_print_in_rfc_3339() {
        use time::{Date, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};
        let at = OffsetDateTime::from_unix_timestamp_nanos(1_700_000_000_250_000_000).unwrap();
        text(&at, "2023-11-14T22:13:20.250+00:00");
        let east = at.to_offset(UtcOffset::from_hms(5, 30, 0).unwrap());
        text(&east, "2023-11-15T03:43:20.250+05:30");
        text(
            &PrimitiveDateTime::new(at.date(), at.time()),
            "2023-11-14T22:13:20.250",
        );
        text(
            &Date::from_calendar_date(2024, Month::February, 29).unwrap(),
            "2024-02-29",
        );
        text(
            &Time::from_hms_nano(1, 2, 3, 4_000).unwrap(),
            "01:02:03.000004",
        );
        no_text(&Date::from_calendar_date(-5, Month::March, 1).unwrap());
    }

    #[test]
    fn other_values_have_no_text_form() {
        assert_eq!(Value::String("x".into()).text(), None);
        let user = Value::Struct {
            name: "Point".into(),
            fields: alloc::vec![("x".to_string(), Value::U8(1))],
        };
        assert_eq!(user.text(), None);
    }
}
