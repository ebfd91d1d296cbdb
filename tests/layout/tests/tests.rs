//! The layout's tests, one binary: dependency direction, test targets, the one list of
//! binaries.

mod binaries;
mod dependencies;
mod targets;
mod workspace;
