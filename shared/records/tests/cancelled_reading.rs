//! A stage reading a pipe whose writer stays open and silent stops on a real signal: the
//! shared read loop gives up after the grace period with the signal's exit, keeping what it
//! forwarded. (Its own process: the signal flag is process-wide; see tests.rs.)

use std::io::Write as _;
use std::time::{Duration, Instant};

use qa_records::exit::{exit_of, Exit};
use qa_records::ndjson::{forward, Input};
use qa_records::output::RecordWriter;

const RECORD: &str = r#"{"kind":"x-note","v":1,"id":"sha256:0000000000000000000000000000000000000000000000000000000000000000","by":"x","from":[],"src":{},"data":{}}"#;

#[test]
fn a_read_blocked_on_a_silent_pipe_ends_with_the_signals_exit() {
    crate::own_process(
        "cancelled_reading::a_read_blocked_on_a_silent_pipe_ends_with_the_signals_exit",
        || {
            qa_records::cancel::install().unwrap();
            let (reader, mut writer) = std::io::pipe().unwrap();
            writeln!(writer, "{RECORD}").unwrap();
            let input = Input::spawn(move || Ok(reader));
            let signaller = std::thread::spawn(|| {
                std::thread::sleep(Duration::from_millis(200));
                signal_hook::low_level::raise(signal_hook::consts::SIGTERM).unwrap();
            });
            let started = Instant::now();
            let mut out = Vec::new();
            let mut records = RecordWriter::new(&mut out);
            let err = forward("stdin", input, &mut records).unwrap_err();
            records.finish().unwrap();
            signaller.join().unwrap();
            assert_eq!(exit_of(&err), Exit::Terminated);
            assert_eq!(err.to_string(), "stdin: cancelled by SIGTERM after line 1");
            assert!(started.elapsed() < Duration::from_secs(5));
            assert_eq!(out, format!("{RECORD}\n").into_bytes());
            // The writer was never closed: only the signal ended the read.
            drop(writer);
        },
    );
}
