//! Wall-clock time for `event` records and run ids: the only place qapipe reads the clock.

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds and milliseconds since the Unix epoch (0 if the clock is before it).
fn now() -> (u64, u32) {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    (d.as_secs(), d.subsec_millis())
}

/// The civil date and time of `secs` since the epoch, UTC (proleptic Gregorian).
fn civil(secs: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (rem / 3600) as u32,
        (rem % 3600 / 60) as u32,
        (rem % 60) as u32,
    )
}

/// `secs` as RFC 3339 UTC with milliseconds: `2026-11-29T17:36:00.123Z`.
pub fn rfc3339(secs: u64, millis: u32) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{millis:03}Z")
}

/// The current time as RFC 3339 UTC.
pub fn timestamp() -> String {
    let (secs, millis) = now();
    rfc3339(secs, millis)
}

/// A compact UTC stamp for run ids and file names: `20261129T173600Z`.
pub fn compact() -> String {
    let (y, mo, d, h, mi, s) = civil(now().0);
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants_format_as_rfc3339() {
        assert_eq!(rfc3339(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(rfc3339(1_796_059_230, 999), "2026-11-30T17:20:30.999Z");
    }
}
