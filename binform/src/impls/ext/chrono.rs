//! chrono's dates and times (feature `chrono`), as `SystemTime` and
//! `Duration` are written (format.md §16, §23): an instant is its Unix
//! seconds (zig-zag varint) and nanoseconds (varint); a value chrono
//! cannot represent is `InvalidValue`.

use chrono::{
    DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Timelike, Utc,
};

use super::date_time::{invalid, read_i32_as};
use crate::{Reader, Result, Writer};

/// Unix seconds and nanoseconds (the nanoseconds of a leap second
/// count past 10^9, as chrono keeps them).
fn write_instant<L: crate::Layout>(w: &mut Writer<'_, L>, utc: &DateTime<Utc>) {
    w.write_i64(utc.timestamp());
    w.write_u64(u64::from(utc.timestamp_subsec_nanos()));
}

fn read_instant<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<DateTime<Utc>> {
    let at = r.position();
    let secs = r.read_i64()?;
    let nanos = u32::try_from(r.read_u64()?).map_err(|_| invalid(r, at, "chrono instant"))?;
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
        w.write_i64(i64::from(v.offset().local_minus_utc()));
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
    |v, w| w.write_i64(i64::from(v.num_days_from_ce())),
    |r| read_i32_as(r, "chrono date", NaiveDate::from_num_days_from_ce_opt),
    NaiveDate::MIN
);

// Seconds since midnight, then nanoseconds.
date_time!(
    NaiveTime,
    "chrono_time",
    2,
    |v, w| {
        w.write_u64(u64::from(v.num_seconds_from_midnight()));
        w.write_u64(u64::from(v.nanosecond()));
    },
    |r| {
        let at = r.position();
        let secs = u32::try_from(r.read_u64()?).ok();
        let nanos = u32::try_from(r.read_u64()?).ok();
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
        w.write_i64(secs);
        w.write_u64(nanos as u64);
    },
    |r| {
        let at = r.position();
        let secs = r.read_i64()?;
        let nanos = u32::try_from(r.read_u64()?).ok();
        nanos
            .and_then(|n| TimeDelta::new(secs, n))
            .ok_or_else(|| invalid(r, at, "chrono time delta"))
    },
    TimeDelta::zero()
);
