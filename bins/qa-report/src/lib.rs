//! qa-report: the last stage of every flow. Its first job, `--verify`, checks a stream's
//! envelopes, ids and provenance chain.

pub mod cli;
pub mod verify;
