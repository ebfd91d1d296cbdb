//! qa-mcp: the change and acceptance flows served over MCP (stdio) to coding agents, by
//! composing the stage binaries; capabilities come only from the server's own flags.

pub mod board;
pub mod cli;
pub mod flows;
pub mod framing;
pub mod observe;
pub mod pipeline;
pub mod results;
pub mod serve;
pub mod server;
pub mod stages;
