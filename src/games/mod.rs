//! The games. One file per game; each implements [`crate::Game`].

pub mod breakthrough;
pub mod gomoku;
pub mod kalah;
pub mod lines_of_action;
pub mod tictactoe;
