//! The AFL++ driver: `qa-fuzz-afl TARGET` fuzzes one entry point of the qa-fuzz library
//! (built with `cargo afl build --features afl`; run by `make fuzz`).

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let Some(target) = qa_fuzz::target(&name) else {
        let names: Vec<&str> = qa_fuzz::TARGETS.iter().map(|t| t.name).collect();
        eprintln!("usage: qa-fuzz-afl TARGET (one of: {})", names.join(", "));
        std::process::exit(64);
    };
    afl::fuzz!(|data: &[u8]| (target.run)(data));
}
