//! The `time` crate's dates and times (feature `time`, format.md §23):
//! date-times as a local date-time in Unix seconds and nanoseconds (and
//! an offset), dates as the Julian day, durations as signed seconds and
//! nanoseconds in the crate's own normal form.

use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};

use super::date_time::{invalid, read_i32_as};
use crate::{Reader, Result, Writer};

fn write_instant<L: crate::Layout>(w: &mut Writer<'_, L>, t: OffsetDateTime) {
    w.write_i64(t.unix_timestamp());
    w.write_u64(u64::from(t.nanosecond()));
}

fn read_instant<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<OffsetDateTime> {
    let at = r.position();
    let secs = r.read_i64()?;
    let nanos = u32::try_from(r.read_u64()?).ok();
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
        w.write_i64(i64::from(v.offset().whole_seconds()));
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
    |v, w| w.write_i64(i64::from(v.to_julian_day())),
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
        w.write_u64(u64::from(h) * 3600 + u64::from(m) * 60 + u64::from(s));
        w.write_u64(u64::from(n));
    },
    |r| {
        let at = r.position();
        let secs = r.read_u64()?;
        let nanos = u32::try_from(r.read_u64()?).ok();
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
        w.write_i64(v.whole_seconds());
        w.write_i64(i64::from(v.subsec_nanoseconds()));
    },
    |r| {
        let at = r.position();
        let secs = r.read_i64()?;
        let nanos = r.read_i64()?;
        let normal = nanos.unsigned_abs() < 1_000_000_000
            && (nanos == 0 || secs == 0 || (nanos < 0) == (secs < 0));
        if !normal {
            return Err(invalid(r, at, "time-crate duration"));
        }
        Ok(Duration::new(secs, nanos as i32))
    },
    Duration::ZERO
);
