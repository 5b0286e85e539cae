//! # imcts
//!
//! A `no_std`, allocation-free Monte Carlo Tree Search kernel for two-player, perfect-information
//! games, built around *implicit minimax backups* (Lanctot, Winands, Pepels & Sturtevant, 2014)
//! and *miniMax-MCTS with depth rewards* (ICGA Journal, 2018).
//!
//! - [`game`]: the [`Game`] contract every game implements (make/undo, fixed-capacity move
//!   lists, incremental evaluations, notation).
//! - [`games`]: the games, on bitboards.
//! - [`search`]: MCTS with implicit minimax backups, the αβ baseline, player specs.
//! - [`session`]: a [`session::Player`] (MCTS or αβ over caller memory) and a
//!   [`session::Session`] (position, undo history, player): what every host runs.
//!
//! The crate never allocates: move lists are fixed-capacity, and search trees live in memory the
//! caller provides. The optional `std` feature only adds conveniences.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

pub mod game;
pub mod games;
pub mod rng;
pub mod search;
pub mod session;

pub use game::{Game, MoveBuffer, Outcome, ParseError, Player, Problem, perft};

/// The random number generator of every search: xorshift128, seeded explicitly, identical on
/// every platform.
pub type SearchRng = rand_xorshift::XorShiftRng;
