//! A reader with a grace period of its own (`LineReader::cancellable_after`) keeps reading
//! what arrives after a signal for that long; one with the default (`cancel::GRACE`) has
//! stopped by then. (Its own process: the signal flag is process-wide; see tests.rs.)

use std::io::Write as _;
use std::time::Duration;

use qa_records::exit::Exit;
use qa_records::ndjson::{cancelled, Input, LineReader, ReadError};

/// Later than `cancel::GRACE` after the signal, well before the longer grace ends.
const LATE: Duration = Duration::from_millis(1500);
const LONGER: Duration = Duration::from_secs(10);

/// Reads a pipe whose writer sends one line `LATE` after the signal, then closes: the
/// lines read, and how reading ended (None: the input ended).
fn read_late_line(grace: Option<Duration>) -> std::thread::JoinHandle<(Vec<u64>, Option<Exit>)> {
    let (reader, mut writer) = std::io::pipe().unwrap();
    std::thread::spawn(move || {
        let input = Input::spawn(move || Ok(reader));
        let lines = LineReader::new(input);
        let mut lines = match grace {
            Some(grace) => lines.cancellable_after(grace),
            None => lines.cancellable(),
        };
        let writing = std::thread::spawn(move || {
            std::thread::sleep(LATE);
            let _ = writeln!(writer, "late");
        });
        let mut read = Vec::new();
        let mut ended = None;
        while let Some(item) = lines.next_line() {
            match item {
                Ok((n, _)) => read.push(n),
                Err(ReadError::Io(e)) => {
                    ended = Some(cancelled(&e).expect("a cancelled read"));
                    break;
                }
                Err(e) => panic!("{e}"),
            }
        }
        writing.join().unwrap();
        (read, ended)
    })
}

#[test]
fn a_longer_grace_reads_what_arrives_after_the_default_grace() {
    crate::own_process(
        "reading_grace::a_longer_grace_reads_what_arrives_after_the_default_grace",
        || {
            qa_records::cancel::install().unwrap();
            signal_hook::low_level::raise(signal_hook::consts::SIGINT).unwrap();
            assert_eq!(qa_records::cancel::requested(), Some(Exit::Interrupted));
            let longer = read_late_line(Some(LONGER));
            let default = read_late_line(None);
            assert_eq!(longer.join().unwrap(), (vec![1], None));
            assert_eq!(default.join().unwrap(), (vec![], Some(Exit::Interrupted)));
        },
    );
}
