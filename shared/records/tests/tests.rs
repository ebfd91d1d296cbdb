//! The crate's integration tests, one binary (one link, one process per run); one
//! module per behaviour area. Run one area with `cargo test -p qa-records --test integration AREA::`.

mod cancelled_reading;
mod reading_grace;
