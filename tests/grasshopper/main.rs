//! The `grasshopper` binary, spawned as users and scripts run it: the
//! protocol daemon (transcripts, protocol.md's examples, fuzzing), the match
//! runner with fake and real engines (backgammon with GNU Backgammon too),
//! perft, and the solver's commands. One
//! test binary, a module per concern.

mod backgammon_cli;
mod backgammon_match;
mod backgammon_nets;
mod compliance;
mod compliance_foreign;
mod compliance_ubgi;
mod docs_examples;
mod gnubg_external;
mod match_engine;
mod match_faults;
mod match_runner;
mod perft;
mod protocol_daemon;
mod protocol_doc;
mod protocol_fuzz;
mod protocol_sessions;
mod solver_cli;
mod solver_protocol;
mod strict_client;
mod support;
mod ubgi_rollout;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_grasshopper");
