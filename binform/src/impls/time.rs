//! `Duration` (seconds varint, nanoseconds varint) and `SystemTime`
//! (signed seconds since the Unix epoch, then nanoseconds 0..=999,999,999
//! counted forward from those seconds).

use core::time::Duration;

use crate::{Encoding, ErrorKind, Pack, Reader, Result, Unpack, Writer};

const NANOS_PER_SEC: u32 = 1_000_000_000;

/// Reads the nanosecond part shared by `Duration` and `SystemTime`.
fn read_nanos<L: crate::Layout>(r: &mut Reader<'_, L>) -> Result<u32> {
    let start = r.position();
    // A `u64`, as the built-in record says (in the compact layout the
    // varint is the same whatever its width).
    let nanos = r.read_u64()?;
    if nanos >= u64::from(NANOS_PER_SEC) {
        return Err(r.error_at(
            start,
            ErrorKind::InvalidValue,
            alloc::format!("{nanos} nanoseconds is not below one second"),
        ));
    }
    Ok(nanos as u32)
}

impl Encoding for Duration {
    encoding_builtin!("duration");
}

impl Pack for Duration {
    #[inline]
    fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
        w.write_u64(self.as_secs());
        w.write_u64(self.subsec_nanos() as u64);
        Ok(())
    }
}

impl<'de> Unpack<'de> for Duration {
    #[inline]
    fn placeholder(_: &mut u32) -> Option<Self> {
        Some(Duration::ZERO)
    }

    const MIN_SIZE: usize = 2;

    #[inline]
    fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
        let secs = u64::unpack(r)?;
        let nanos = read_nanos(r)?;
        Ok(Duration::new(secs, nanos))
    }
}

#[cfg(feature = "std")]
mod system_time {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use super::{read_nanos, NANOS_PER_SEC};
    use crate::{Encoding, Error, ErrorKind, Pack, Reader, Result, Unpack, Writer};

    impl Encoding for SystemTime {
        encoding_builtin!("system_time");
    }

    impl Pack for SystemTime {
        fn pack<L: crate::Layout>(&self, w: &mut Writer<'_, L>) -> Result<()> {
            let (secs, nanos) = match self.duration_since(UNIX_EPOCH) {
                Ok(after) => (i64::try_from(after.as_secs()), after.subsec_nanos()),
                Err(e) => {
                    // Before the epoch: floor the seconds so the nanoseconds
                    // stay positive, as Unix timestamps do.
                    let before = e.duration();
                    let secs = i64::try_from(before.as_secs()).map(|s| -s);
                    match before.subsec_nanos() {
                        0 => (secs, 0),
                        n => (secs.map(|s| s - 1), NANOS_PER_SEC - n),
                    }
                }
            };
            let secs = secs.map_err(|_| {
                Error::new(
                    ErrorKind::InvalidValue,
                    "SystemTime is beyond ±2^63 seconds",
                )
            })?;
            w.write_i64(secs);
            w.write_u64(nanos as u64);
            Ok(())
        }
    }

    impl<'de> Unpack<'de> for SystemTime {
        const MIN_SIZE: usize = 2;

        #[inline]
        fn placeholder(_: &mut u32) -> Option<Self> {
            Some(UNIX_EPOCH)
        }

        fn unpack<L: crate::Layout>(r: &mut Reader<'de, L>) -> Result<Self> {
            let start = r.position();
            let secs = i64::unpack(r)?;
            let nanos = read_nanos(r)?;
            let time = if secs >= 0 {
                UNIX_EPOCH.checked_add(Duration::new(secs as u64, nanos))
            } else {
                UNIX_EPOCH
                    .checked_sub(Duration::from_secs(secs.unsigned_abs()))
                    .and_then(|t| t.checked_add(Duration::from_nanos(nanos as u64)))
            };
            time.ok_or_else(|| {
                r.error_at(
                    start,
                    ErrorKind::InvalidValue,
                    "time is out of range for this platform's SystemTime",
                )
            })
        }
    }
}
