//! Types from other crates, each behind a feature named after its crate
//! (the default build depends on none of them).

#[cfg(feature = "uuid")]
mod uuid_impl {
    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// A UUID is its 16 bytes in RFC 9562 order (`Uuid::as_bytes`): every
    /// byte string is a valid UUID, so decoding cannot fail but by running
    /// out of input.
    impl Encoding for uuid::Uuid {
        encoding_builtin!("uuid");
    }

    impl Pack for uuid::Uuid {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            w.write_bytes(self.as_bytes());
            Ok(())
        }
    }

    impl<'de> Unpack<'de> for uuid::Uuid {
        const MIN_SIZE: usize = 16;

        #[inline]
        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            r.read_array::<16>().map(uuid::Uuid::from_bytes)
        }

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(uuid::Uuid::nil())
        }
    }
}

#[cfg(feature = "half")]
mod half_impl {
    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// Half-precision floats are their 16 bits, little-endian (bit-exact,
    /// NaN payloads included), as `f32`/`f64` are theirs.
    macro_rules! half_float {
        ($($ty:ty => $name:literal),*) => {$(
            impl Encoding for $ty {
                encoding_builtin!($name);
            }

            impl Pack for $ty {
                #[inline]
                fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
                    w.write_bytes(&self.to_bits().to_le_bytes());
                    Ok(())
                }
            }

            impl<'de> Unpack<'de> for $ty {
                const MIN_SIZE: usize = 2;

                #[inline]
                fn unpack(r: &mut Reader<'de>) -> Result<Self> {
                    r.read_array::<2>().map(|b| <$ty>::from_bits(u16::from_le_bytes(b)))
                }

                #[inline]
                fn placeholder(_: &mut u32) -> Option<Self> {
                    Some(<$ty>::ZERO)
                }
            }
        )*};
    }

    half_float!(half::f16 => "f16", half::bf16 => "bf16");
}

// `IndexMap`/`IndexSet` and hashbrown's maps are maps and sets (format.md
// §9), as std's are: the index types' iteration order is their order, so a
// round trip keeps it.
#[cfg(feature = "indexmap")]
mod indexmap_impl {
    use indexmap::{IndexMap, IndexSet};
    crate::impls::collections::hashed_collections!(IndexMap, IndexSet);
}

#[cfg(feature = "hashbrown")]
mod hashbrown_impl {
    use hashbrown::{HashMap, HashSet};
    crate::impls::collections::hashed_collections!(HashMap, HashSet);
}

#[cfg(feature = "smallvec")]
mod smallvec_impl {
    use smallvec::{Array, SmallVec};

    use crate::{Encoding, Pack, Reader, Result, Unpack, Writer};

    /// A `SmallVec` is a sequence, byte for byte a `Vec` of its items.
    impl<A: Array> Encoding for SmallVec<A>
    where
        A::Item: Encoding,
    {
        encoding_transparent!([A::Item]);
    }

    impl<A: Array> Pack for SmallVec<A>
    where
        A::Item: Pack,
    {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            self.as_slice().pack(w)
        }
    }

    impl<'de, A: Array> Unpack<'de> for SmallVec<A>
    where
        A::Item: Unpack<'de>,
    {
        const MIN_SIZE: usize = 1;

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(SmallVec::new())
        }

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            alloc::vec::Vec::<A::Item>::unpack(r).map(SmallVec::from_vec)
        }
    }
}

#[cfg(feature = "arrayvec")]
mod arrayvec_impl {
    use arrayvec::{ArrayString, ArrayVec};

    use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

    #[cold]
    #[inline(never)]
    fn over_capacity(r: &Reader<'_>, at: usize, len: usize, cap: usize) -> crate::Error {
        r.error_at(
            at,
            ErrorKind::InvalidValue,
            alloc::format!("{len} elements do not fit an ArrayVec/ArrayString of capacity {cap}"),
        )
    }

    /// An `ArrayVec` is a sequence, byte for byte a `Vec` of its items; a
    /// length above its capacity is an error before anything is decoded.
    impl<T: Encoding, const CAP: usize> Encoding for ArrayVec<T, CAP> {
        encoding_transparent!([T]);
    }

    impl<T: Pack, const CAP: usize> Pack for ArrayVec<T, CAP> {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            self.as_slice().pack(w)
        }
    }

    impl<'de, T: Unpack<'de>, const CAP: usize> Unpack<'de> for ArrayVec<T, CAP> {
        const MIN_SIZE: usize = 1;

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(ArrayVec::new())
        }

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            let at = r.position();
            let len = r.read_seq_len::<T>()?;
            if len > CAP {
                return Err(over_capacity(r, at, len, CAP));
            }
            if T::PACKED {
                // Packed integers read their blocks through the vector path.
                return Ok(T::unpack_vec(r, len)?.into_iter().collect());
            }
            // Anything else straight into the array: no heap vector.
            r.nested(|r| {
                let mut out = ArrayVec::new();
                for _ in 0..len {
                    out.push(T::unpack(r)?);
                }
                Ok(out)
            })
        }
    }

    /// An `ArrayString` is a string (format.md §5).
    impl<const CAP: usize> Encoding for ArrayString<CAP> {
        encoding_transparent!(str);
    }

    impl<const CAP: usize> Pack for ArrayString<CAP> {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            self.as_str().pack(w)
        }
    }

    impl<'de, const CAP: usize> Unpack<'de> for ArrayString<CAP> {
        const MIN_SIZE: usize = 1;

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(ArrayString::new())
        }

        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            let at = r.position();
            let text = <&str>::unpack(r)?;
            ArrayString::from(text).map_err(|_| over_capacity(r, at, text.len(), CAP))
        }
    }
}

/// The impls of a date or time type (chrono's or the time crate's, all
/// `Copy`): its schema name, least encoded size, encoder, decoder and
/// placeholder.
#[cfg(any(feature = "chrono", feature = "time"))]
macro_rules! date_time {
    ($ty:ty, $name:literal, $min:expr, |$v:ident, $w:ident| $pack:expr, |$r:ident| $unpack:expr, $placeholder:expr) => {
        impl crate::Encoding for $ty {
            encoding_builtin!($name);
        }

        impl crate::Pack for $ty {
            #[inline]
            fn pack(&self, $w: &mut crate::Writer<'_>) -> crate::Result<()> {
                let $v = *self;
                $pack;
                Ok(())
            }
        }

        impl<'de> crate::Unpack<'de> for $ty {
            const MIN_SIZE: usize = $min;

            #[inline]
            fn unpack($r: &mut crate::Reader<'de>) -> crate::Result<Self> {
                $unpack
            }

            #[inline]
            fn placeholder(_: &mut u32) -> Option<Self> {
                Some($placeholder)
            }
        }
    };
}

/// A date or time value the target crate cannot hold.
#[cfg(any(feature = "chrono", feature = "time"))]
#[cold]
#[inline(never)]
fn invalid(r: &crate::Reader<'_>, at: usize, what: &str) -> crate::Error {
    r.error_at(
        at,
        crate::ErrorKind::InvalidValue,
        alloc::format!("not a valid {what}"),
    )
}

/// Reads a zig-zag varint that must fit an `i32` from which `make` builds
/// a value (a day number, an offset in seconds); anything else is
/// `InvalidValue` naming `what`.
#[cfg(any(feature = "chrono", feature = "time"))]
fn read_i32_as<T>(
    r: &mut crate::Reader<'_>,
    what: &str,
    make: impl FnOnce(i32) -> Option<T>,
) -> crate::Result<T> {
    let at = r.position();
    let v = r.read_varint_signed()?;
    i32::try_from(v)
        .ok()
        .and_then(make)
        .ok_or_else(|| invalid(r, at, what))
}

/// chrono's dates and times (feature `chrono`), as `SystemTime` and
/// `Duration` are written (format.md §16, §23): an instant is its Unix
/// seconds (zig-zag varint) and nanoseconds (varint); a value chrono
/// cannot represent is `InvalidValue`.
#[cfg(feature = "chrono")]
mod chrono_impl {
    use chrono::{
        DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Timelike,
        Utc,
    };

    use super::{invalid, read_i32_as};
    use crate::{Reader, Result, Writer};

    /// Unix seconds and nanoseconds (the nanoseconds of a leap second
    /// count past 10^9, as chrono keeps them).
    fn write_instant(w: &mut Writer<'_>, utc: &DateTime<Utc>) {
        w.write_varint_signed(utc.timestamp());
        w.write_varint(u64::from(utc.timestamp_subsec_nanos()));
    }

    fn read_instant(r: &mut Reader<'_>) -> Result<DateTime<Utc>> {
        let at = r.position();
        let secs = r.read_varint_signed()?;
        let nanos =
            u32::try_from(r.read_varint()?).map_err(|_| invalid(r, at, "chrono instant"))?;
        DateTime::from_timestamp(secs, nanos).ok_or_else(|| invalid(r, at, "chrono instant"))
    }

    date_time!(
        DateTime<Utc>,
        "chrono_utc",
        2,
        |v, w| write_instant(w, &v),
        |r| read_instant(r),
        DateTime::<Utc>::UNIX_EPOCH
    );

    date_time!(
        NaiveDateTime,
        "chrono_naive_datetime",
        2,
        |v, w| write_instant(w, &v.and_utc()),
        |r| read_instant(r).map(|utc| utc.naive_utc()),
        DateTime::<Utc>::UNIX_EPOCH.naive_utc()
    );

    // The instant in UTC, then the offset in seconds east of UTC.
    date_time!(
        DateTime<FixedOffset>,
        "chrono_fixed_offset",
        3,
        |v, w| {
            write_instant(w, &v.to_utc());
            w.write_varint_signed(i64::from(v.offset().local_minus_utc()));
        },
        |r| {
            let utc = read_instant(r)?;
            let at = r.position();
            let offset = read_i32_as(r, "chrono offset", FixedOffset::east_opt)?;
            // The local time must exist too: chrono panics on one past its
            // range (`naive_local`, `date_naive`, formatting).
            utc.naive_utc()
                .checked_add_signed(TimeDelta::seconds(i64::from(offset.local_minus_utc())))
                .ok_or_else(|| invalid(r, at, "chrono local date-time"))?;
            Ok(utc.with_timezone(&offset))
        },
        DateTime::<Utc>::UNIX_EPOCH.fixed_offset()
    );

    // Days since 0001-01-01 (day 1), zig-zag.
    date_time!(
        NaiveDate,
        "chrono_date",
        1,
        |v, w| w.write_varint_signed(i64::from(v.num_days_from_ce())),
        |r| read_i32_as(r, "chrono date", NaiveDate::from_num_days_from_ce_opt),
        NaiveDate::MIN
    );

    // Seconds since midnight, then nanoseconds.
    date_time!(
        NaiveTime,
        "chrono_time",
        2,
        |v, w| {
            w.write_varint(u64::from(v.num_seconds_from_midnight()));
            w.write_varint(u64::from(v.nanosecond()));
        },
        |r| {
            let at = r.position();
            let secs = u32::try_from(r.read_varint()?).ok();
            let nanos = u32::try_from(r.read_varint()?).ok();
            secs.zip(nanos)
                .and_then(|(s, n)| NaiveTime::from_num_seconds_from_midnight_opt(s, n))
                .ok_or_else(|| invalid(r, at, "chrono time"))
        },
        NaiveTime::MIN
    );

    // Whole seconds rounded down (zig-zag), then nanoseconds 0 ..= 999,999,999:
    // one form for every value, as `SystemTime` before the epoch.
    date_time!(
        TimeDelta,
        "chrono_delta",
        2,
        |v, w| {
            let (mut secs, mut nanos) = (v.num_seconds(), v.subsec_nanos());
            if nanos < 0 {
                secs -= 1;
                nanos += 1_000_000_000;
            }
            w.write_varint_signed(secs);
            w.write_varint(nanos as u64);
        },
        |r| {
            let at = r.position();
            let secs = r.read_varint_signed()?;
            let nanos = u32::try_from(r.read_varint()?).ok();
            nanos
                .and_then(|n| TimeDelta::new(secs, n))
                .ok_or_else(|| invalid(r, at, "chrono time delta"))
        },
        TimeDelta::zero()
    );
}

/// `rust_decimal::Decimal` (feature `rust_decimal`): the mantissa as a
/// zig-zag `i128` varint, then the scale (0 to 28) as a byte. Negative
/// zero keeps no sign (it equals zero).
#[cfg(feature = "rust_decimal")]
mod decimal_impl {
    use rust_decimal::Decimal;

    use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

    impl Encoding for Decimal {
        encoding_builtin!("decimal");
    }

    impl Pack for Decimal {
        #[inline]
        fn pack(&self, w: &mut Writer<'_>) -> Result<()> {
            w.write_varint_u128(crate::varint::zigzag_i128(self.mantissa()));
            w.write_u8(self.scale() as u8);
            Ok(())
        }
    }

    impl<'de> Unpack<'de> for Decimal {
        const MIN_SIZE: usize = 2;

        #[inline]
        fn unpack(r: &mut Reader<'de>) -> Result<Self> {
            let at = r.position();
            let mantissa = crate::varint::unzigzag_i128(r.read_varint_u128()?);
            let scale = r.read_u8()?;
            Decimal::try_from_i128_with_scale(mantissa, u32::from(scale)).map_err(|_| {
                r.error_at(
                    at,
                    ErrorKind::InvalidValue,
                    alloc::format!(
                        "mantissa {mantissa} with scale {scale} is not a Decimal (96 bits, scale 0 to 28)"
                    ),
                )
            })
        }

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(Decimal::ZERO)
        }
    }
}

/// The `time` crate's dates and times (feature `time`, format.md §23):
/// date-times as a local date-time in Unix seconds and nanoseconds (and
/// an offset), dates as the Julian day, durations as signed seconds and
/// nanoseconds in the crate's own normal form.
#[cfg(feature = "time")]
mod time_impl {
    use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

    use super::{invalid, read_i32_as};
    use crate::{Reader, Result, Writer};

    fn write_instant(w: &mut Writer<'_>, t: OffsetDateTime) {
        w.write_varint_signed(t.unix_timestamp());
        w.write_varint(u64::from(t.nanosecond()));
    }

    fn read_instant(r: &mut Reader<'_>) -> Result<OffsetDateTime> {
        let at = r.position();
        let secs = r.read_varint_signed()?;
        let nanos = u32::try_from(r.read_varint()?).ok();
        nanos
            .and_then(|n| {
                OffsetDateTime::from_unix_timestamp(secs)
                    .ok()?
                    .replace_nanosecond(n)
                    .ok()
            })
            .ok_or_else(|| invalid(r, at, "time-crate instant"))
    }

    // The local date-time as if in UTC, then the offset in seconds east of
    // UTC: the crate keeps the local date-time, whose range every value
    // has (its instant in UTC can fall outside it).
    date_time!(
        OffsetDateTime,
        "time_offset_datetime",
        3,
        |v, w| {
            write_instant(w, PrimitiveDateTime::new(v.date(), v.time()).assume_utc());
            w.write_varint_signed(i64::from(v.offset().whole_seconds()));
        },
        |r| {
            let local = read_instant(r)?;
            let offset = read_i32_as(r, "time-crate offset", |s| {
                UtcOffset::from_whole_seconds(s).ok()
            })?;
            Ok(PrimitiveDateTime::new(local.date(), local.time()).assume_offset(offset))
        },
        OffsetDateTime::UNIX_EPOCH
    );

    // As if in UTC.
    date_time!(
        PrimitiveDateTime,
        "time_primitive_datetime",
        2,
        |v, w| write_instant(w, v.assume_utc()),
        |r| read_instant(r).map(|t| PrimitiveDateTime::new(t.date(), t.time())),
        PrimitiveDateTime::new(Date::MIN, Time::MIDNIGHT)
    );

    // The Julian day number, zig-zag.
    date_time!(
        Date,
        "time_date",
        1,
        |v, w| w.write_varint_signed(i64::from(v.to_julian_day())),
        |r| read_i32_as(r, "time-crate date", |d| Date::from_julian_day(d).ok()),
        Date::MIN
    );

    // Seconds since midnight, then nanoseconds.
    date_time!(
        Time,
        "time_time",
        2,
        |v, w| {
            let (h, m, s, n) = v.as_hms_nano();
            w.write_varint(u64::from(h) * 3600 + u64::from(m) * 60 + u64::from(s));
            w.write_varint(u64::from(n));
        },
        |r| {
            let at = r.position();
            let secs = r.read_varint()?;
            let nanos = u32::try_from(r.read_varint()?).ok();
            nanos
                .filter(|_| secs < 86_400)
                .and_then(|n| {
                    Time::from_hms_nano(
                        (secs / 3600) as u8,
                        (secs / 60 % 60) as u8,
                        (secs % 60) as u8,
                        n,
                    )
                    .ok()
                })
                .ok_or_else(|| invalid(r, at, "time-crate time"))
        },
        Time::MIDNIGHT
    );

    // Whole seconds and the nanoseconds that go with them, both of the
    // duration's sign (zig-zag varints), as `Duration` keeps them.
    date_time!(
        Duration,
        "time_duration",
        2,
        |v, w| {
            w.write_varint_signed(v.whole_seconds());
            w.write_varint_signed(i64::from(v.subsec_nanoseconds()));
        },
        |r| {
            let at = r.position();
            let secs = r.read_varint_signed()?;
            let nanos = r.read_varint_signed()?;
            let normal = nanos.unsigned_abs() < 1_000_000_000
                && (nanos == 0 || secs == 0 || (nanos < 0) == (secs < 0));
            if !normal {
                return Err(invalid(r, at, "time-crate duration"));
            }
            Ok(Duration::new(secs, nanos as i32))
        },
        Duration::ZERO
    );
}
