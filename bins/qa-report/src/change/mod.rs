//! The change report's own formats (JSON, SARIF, GitHub annotations, GitLab Code Quality,
//! the agent line) and what the behavior graph says each scenario reaches; the formats
//! both flows share (text, markdown, html) stay beside `acceptance/`.

pub mod agent;
pub mod codequality;
pub mod github;
pub mod json;
pub mod reach;
pub mod sarif;
