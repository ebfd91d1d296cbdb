//! The oracle of a change: the tests it touches are read by qa-syntax ([`qa_syntax::suite`]);
//! here the assertion helpers those tests call are found in the repository's test-support
//! files at the change's head ([`support`]).

pub mod support;
