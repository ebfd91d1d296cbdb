//! Acceptance plans as qa-intent reads them (`--plan`).

use qa_intent::plan::{self, Root};
use qa_records::output::RecordWriter;
use std::path::Path;
use std::sync::OnceLock;

/// The example shop (examples/shop-site): real ticket and spec files for sources to name.
fn root() -> &'static Root {
    static ROOT: OnceLock<Root> = OnceLock::new();
    ROOT.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop-site");
        Root::open(&dir).expect("examples/shop-site is there")
    })
}

/// A plan checked and its sources resolved; a valid one is written as records.
pub fn plan(data: &[u8]) {
    let Ok(mut plan) = plan::from_bytes("plan.json", data, root()) else {
        return;
    };
    if plan.resolve_target(None).is_err() {
        return;
    }
    let mut out = RecordWriter::new(std::io::sink());
    let _ = plan.write(&mut out);
}
