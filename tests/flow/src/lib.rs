//! No library: the flow tests live in tests/.
