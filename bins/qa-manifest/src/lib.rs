//! qa-manifest: reviewer corrections from a saved stream, written into `.qa/manifest.yaml`.

pub mod accept;
pub mod cli;
pub mod edit;
pub mod explain;
pub mod init;
pub mod lock;
pub mod manifest_file;
pub mod proposal;
pub mod reject;
pub mod stream;
pub mod validate;
