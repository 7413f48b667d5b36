//! Scalars in `Value`s: which encodings are scalars ([`Scalar`]), and one
//! conversion of a value into a scalar for the two walkers that need it:
//! [`conform`](super::conform) (a loosely written value, as from JSON) and
//! [`resolve`](super::resolve) (another schema's value, without loss).

use alloc::format;

use super::Value;
use crate::{Error, ErrorKind, Result};

/// A scalar's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scalar {
    Unit,
    Bool,
    Char,
    F32,
    F64,
    U8,
    U16,
    U32,
    U64,
    U128,
    I8,
    I16,
    I32,
    I64,
    I128,
}

impl Scalar {
    pub(super) fn by_name(name: &str) -> Option<Scalar> {
        Some(match name {
            "unit" => Scalar::Unit,
            "bool" => Scalar::Bool,
            "char" => Scalar::Char,
            "f32" => Scalar::F32,
            "f64" => Scalar::F64,
            "u8" => Scalar::U8,
            "u16" => Scalar::U16,
            "u32" => Scalar::U32,
            "u64" => Scalar::U64,
            "u128" => Scalar::U128,
            "i8" => Scalar::I8,
            "i16" => Scalar::I16,
            "i32" => Scalar::I32,
            "i64" => Scalar::I64,
            "i128" => Scalar::I128,
            _ => return None,
        })
    }

    /// Whether sequences of it are packed (format.md §22).
    pub(super) fn packs(self) -> bool {
        matches!(
            self,
            Scalar::U16
                | Scalar::U32
                | Scalar::U64
                | Scalar::U128
                | Scalar::I16
                | Scalar::I32
                | Scalar::I64
                | Scalar::I128
        )
    }
}

/// How [`convert`] reads a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lenience {
    /// Only what loses nothing: an integer of any width that fits, an
    /// `f32` as an `f64`, an `f64` as an `f32` where it round-trips (a
    /// writer's value read through a reader's schema).
    Exact,
    /// Also numbers written as strings (`"18446744073709551615"`, `"NaN"`,
    /// `"NaN:0x<bits>"`, `"inf"`), integers as floats, any float width, a
    /// one-character string as a `char` (a value read from JSON).
    Loose,
}

/// The error of a conversion: what was expected, as each walker words it.
#[cold]
pub(super) fn mismatch(how: Lenience, what: impl core::fmt::Display, got: &Value) -> Error {
    let got = super::show::kind(got);
    let message = match how {
        Lenience::Loose => format!("expected {what}, found {got}"),
        Lenience::Exact => {
            format!("{got} from the writer cannot be read as {what} without loss")
        }
    };
    Error::new(ErrorKind::InvalidValue, message)
}

/// `v` as the scalar `s`.
pub(super) fn convert(s: Scalar, v: &Value, how: Lenience) -> Result<Value> {
    let loose = how == Lenience::Loose;
    let wrong = |what: &str| mismatch(how, what, v);
    macro_rules! int {
        ($t:ty, $variant:ident) => {{
            let parts = int_parts(v).or_else(|| match v {
                Value::String(text) if loose => parse_int(text),
                _ => None,
            });
            let Some((negative, magnitude)) = parts else {
                return Err(wrong(if loose { "an integer" } else { stringify!($t) }));
            };
            match narrow::<$t>(negative, magnitude) {
                Some(x) => Value::$variant(x),
                None if loose => {
                    return Err(wrong(concat!("a ", stringify!($t), " (in its range)")))
                }
                None => {
                    return Err(Error::new(
                        ErrorKind::IntegerOverflow,
                        format!(
                            "{} from the writer does not fit the reader's {}",
                            super::show::kind(v),
                            stringify!($t)
                        ),
                    ))
                }
            }
        }};
    }
    Ok(match s {
        Scalar::Unit => match v {
            Value::Unit => Value::Unit,
            _ => return Err(wrong(if loose { "unit (null)" } else { "()" })),
        },
        Scalar::Bool => match v {
            Value::Bool(b) => Value::Bool(*b),
            _ => return Err(wrong(if loose { "a bool" } else { "bool" })),
        },
        Scalar::Char => match v {
            Value::Char(c) => Value::Char(*c),
            Value::String(text) if loose && text.chars().count() == 1 => {
                Value::Char(text.chars().next().unwrap_or_default())
            }
            _ => {
                return Err(wrong(if loose {
                    "a one-character string"
                } else {
                    "char"
                }))
            }
        },
        Scalar::F64 => match (v, how) {
            (Value::F64(x), _) => Value::F64(*x),
            (Value::F32(x), _) => Value::F64((*x).into()),
            (_, Lenience::Loose) => Value::F64(loose_float(v)?),
            (_, Lenience::Exact) => return Err(wrong("f64")),
        },
        Scalar::F32 => match (v, how) {
            (Value::F32(x), _) => Value::F32(*x),
            (Value::F64(x), Lenience::Exact) if (*x as f32) as f64 == *x || x.is_nan() => {
                Value::F32(*x as f32)
            }
            (_, Lenience::Loose) => match nan_bits(v) {
                Some(bits) => Value::F32(f32::from_bits(
                    u32::try_from(bits).map_err(|_| wrong("an f32 NaN's bits"))?,
                )),
                None => Value::F32(loose_float(v)? as f32),
            },
            (_, Lenience::Exact) => return Err(wrong("f32")),
        },
        Scalar::U8 => int!(u8, U8),
        Scalar::U16 => int!(u16, U16),
        Scalar::U32 => int!(u32, U32),
        Scalar::U64 => int!(u64, U64),
        Scalar::U128 => int!(u128, U128),
        Scalar::I8 => int!(i8, I8),
        Scalar::I16 => int!(i16, I16),
        Scalar::I32 => int!(i32, I32),
        Scalar::I64 => int!(i64, I64),
        Scalar::I128 => int!(i128, I128),
    })
}

/// The scalar's zero: what a field the writer lacked starts as.
pub(super) fn zero(s: Scalar) -> Value {
    match s {
        Scalar::Unit => Value::Unit,
        Scalar::Bool => Value::Bool(false),
        Scalar::Char => Value::Char('\0'),
        Scalar::F32 => Value::F32(0.0),
        Scalar::F64 => Value::F64(0.0),
        Scalar::U8 => Value::U8(0),
        Scalar::U16 => Value::U16(0),
        Scalar::U32 => Value::U32(0),
        Scalar::U64 => Value::U64(0),
        Scalar::U128 => Value::U128(0),
        Scalar::I8 => Value::I8(0),
        Scalar::I16 => Value::I16(0),
        Scalar::I32 => Value::I32(0),
        Scalar::I64 => Value::I64(0),
        Scalar::I128 => Value::I128(0),
    }
}

/// An integer as (negative?, magnitude), or `None` if `v` is no integer.
pub(super) fn int_parts(v: &Value) -> Option<(bool, u128)> {
    let signed = |x: i128| (x < 0, x.unsigned_abs());
    Some(match v {
        Value::U8(x) => (false, (*x).into()),
        Value::U16(x) => (false, (*x).into()),
        Value::U32(x) => (false, (*x).into()),
        Value::U64(x) => (false, (*x).into()),
        Value::U128(x) => (false, *x),
        Value::I8(x) => signed((*x).into()),
        Value::I16(x) => signed((*x).into()),
        Value::I32(x) => signed((*x).into()),
        Value::I64(x) => signed((*x).into()),
        Value::I128(x) => signed(*x),
        _ => return None,
    })
}

/// A decimal integer's text as (negative?, magnitude): any `i128` or
/// `u128`.
fn parse_int(text: &str) -> Option<(bool, u128)> {
    match text.strip_prefix('-') {
        Some(digits) if !digits.starts_with(['-', '+']) => {
            let magnitude: u128 = digits.parse().ok()?;
            (magnitude <= 1 << 127).then_some((magnitude != 0, magnitude))
        }
        Some(_) => None,
        None => text.parse().ok().map(|m| (false, m)),
    }
}

/// (negative?, magnitude) as a `T`, if it fits.
fn narrow<T: TryFrom<i128> + TryFrom<u128>>(negative: bool, magnitude: u128) -> Option<T> {
    if !negative {
        return T::try_from(magnitude).ok();
    }
    let x = match i128::try_from(magnitude) {
        Ok(m) => -m,
        Err(_) if magnitude == 1 << 127 => i128::MIN,
        Err(_) => return None,
    };
    T::try_from(x).ok()
}

/// Any integer, as the widest signed type; a string of digits too (the
/// ids of shared values and the bytes of a loosely written value).
pub(super) fn loose_integer(v: &Value) -> Result<i128> {
    let wrong = || mismatch(Lenience::Loose, "an integer", v);
    let (negative, magnitude) = int_parts(v)
        .or_else(|| match v {
            Value::String(text) => parse_int(text),
            _ => None,
        })
        .ok_or_else(wrong)?;
    narrow(negative, magnitude).ok_or_else(|| mismatch(Lenience::Loose, "an integer in range", v))
}

/// A NaN written with its bits (`"NaN:0x7ff8000000000001"`), which keep
/// its sign and payload.
fn nan_bits(v: &Value) -> Option<u64> {
    match v {
        Value::String(text) => u64::from_str_radix(text.strip_prefix("NaN:0x")?, 16).ok(),
        _ => None,
    }
}

/// A loosely written float: a number of any kind, or its text.
fn loose_float(v: &Value) -> Result<f64> {
    Ok(match v {
        Value::F64(x) => *x,
        Value::F32(x) => (*x).into(),
        Value::String(text) => match text.as_str() {
            "NaN" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => match nan_bits(v) {
                Some(bits) => f64::from_bits(bits),
                None => other
                    .parse()
                    .map_err(|_| mismatch(Lenience::Loose, "a number", v))?,
            },
        },
        other => loose_integer(other)? as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn text(s: &str) -> Value {
        Value::String(s.to_string())
    }

    /// Both leniences take every integer that fits, at the edges of each
    /// width; only the loose one reads digits, and each words its own
    /// errors (the exact one's overflow is `IntegerOverflow`).
    #[test]
    fn integers_convert_at_every_edge() {
        let loose = |s, v: &Value| convert(s, v, Lenience::Loose);
        let exact = |s, v: &Value| convert(s, v, Lenience::Exact);
        assert_eq!(exact(Scalar::U8, &Value::U64(255)).unwrap(), Value::U8(255));
        assert_eq!(
            exact(Scalar::I8, &Value::I64(-128)).unwrap(),
            Value::I8(-128)
        );
        assert_eq!(
            exact(Scalar::I128, &Value::I128(i128::MIN)).unwrap(),
            Value::I128(i128::MIN)
        );
        assert_eq!(
            exact(Scalar::U128, &Value::U128(u128::MAX)).unwrap(),
            Value::U128(u128::MAX)
        );
        let overflow = exact(Scalar::U8, &Value::U16(256)).unwrap_err();
        assert_eq!(overflow.kind(), ErrorKind::IntegerOverflow);
        assert_eq!(
            exact(Scalar::I64, &Value::U128(1 << 63))
                .unwrap_err()
                .kind(),
            ErrorKind::IntegerOverflow
        );
        assert_eq!(
            exact(Scalar::U32, &Value::I8(-1)).unwrap_err().kind(),
            ErrorKind::IntegerOverflow
        );
        assert_eq!(
            exact(Scalar::U8, &text("1")).unwrap_err().kind(),
            ErrorKind::InvalidValue
        );

        let min = "-170141183460469231731687303715884105728";
        assert_eq!(
            loose(Scalar::I128, &text(min)).unwrap(),
            Value::I128(i128::MIN)
        );
        assert!(loose(
            Scalar::I128,
            &text("-170141183460469231731687303715884105729")
        )
        .is_err());
        let max = u128::MAX.to_string();
        assert_eq!(
            loose(Scalar::U128, &text(&max)).unwrap(),
            Value::U128(u128::MAX)
        );
        assert_eq!(loose(Scalar::U8, &text("+7")).unwrap(), Value::U8(7));
        assert_eq!(loose(Scalar::I8, &text("-0")).unwrap(), Value::I8(0));
        for bad in ["", "-", "--1", "-+1", "1.5", "x"] {
            let err = loose(Scalar::I32, &text(bad)).unwrap_err();
            assert!(
                err.to_string().contains("expected an integer"),
                "{bad}: {err}"
            );
        }
        let err = loose(Scalar::U8, &Value::U16(256)).unwrap_err();
        assert!(
            err.to_string().contains("expected a u8 (in its range)"),
            "{err}"
        );
        assert_eq!(loose_integer(&text("-5")).unwrap(), -5);
    }

    /// Floats: the exact reader takes an `f64` as an `f32` only where it
    /// round-trips (or is NaN); the loose one reads any number and the
    /// texts of NaN (with its bits) and the infinities.
    #[test]
    fn floats_convert_as_each_leniency_allows() {
        let exact = |s, v: &Value| convert(s, v, Lenience::Exact);
        let loose = |s, v: &Value| convert(s, v, Lenience::Loose);
        assert_eq!(
            exact(Scalar::F32, &Value::F64(0.5)).unwrap(),
            Value::F32(0.5)
        );
        assert!(exact(Scalar::F32, &Value::F64(0.1)).is_err());
        assert!(
            matches!(exact(Scalar::F32, &Value::F64(f64::NAN)).unwrap(), Value::F32(x) if x.is_nan())
        );
        assert_eq!(
            exact(Scalar::F64, &Value::F32(1.5)).unwrap(),
            Value::F64(1.5)
        );
        assert!(exact(Scalar::F64, &Value::U8(1)).is_err());
        assert_eq!(loose(Scalar::F64, &Value::U8(3)).unwrap(), Value::F64(3.0));
        assert_eq!(
            loose(Scalar::F32, &Value::F64(0.1)).unwrap(),
            Value::F32(0.1)
        );
        assert_eq!(
            loose(Scalar::F64, &text("-inf")).unwrap(),
            Value::F64(f64::NEG_INFINITY)
        );
        let bits = 0x7ff8_0000_0000_0001u64;
        match loose(Scalar::F64, &text("NaN:0x7ff8000000000001")).unwrap() {
            Value::F64(x) => assert_eq!(x.to_bits(), bits),
            other => panic!("{other:?}"),
        }
        match loose(Scalar::F32, &text("NaN:0x7fc00001")).unwrap() {
            Value::F32(x) => assert_eq!(x.to_bits(), 0x7fc0_0001),
            other => panic!("{other:?}"),
        }
        assert!(loose(Scalar::F32, &text("NaN:0x7ff8000000000001")).is_err());
        assert_eq!(loose(Scalar::Char, &text("é")).unwrap(), Value::Char('é'));
        assert!(exact(Scalar::Char, &text("é")).is_err());
    }
}
