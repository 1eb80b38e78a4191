//! The solver against a plain minimax oracle (testkit) and the endgame
//! tables against the solver: one test binary, a module per concern.

mod minimax;
mod retro;
mod tables;
