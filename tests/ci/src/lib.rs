//! No library: the CI tests live in tests/.
