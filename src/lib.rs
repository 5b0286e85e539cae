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
//!
//! ## Quick start
//!
//! Parse a player spec (the papers' labels, see [`search::spec`]) with [`search::spec::parse`]
//! (or [`search::spec::parse_mcts`] for MCTS only), give it node memory, and search:
//!
//! ```
//! use imcts::games::breakthrough::Breakthrough;
//! use imcts::search::{Budget, NoClock, node::Node, spec};
//! use imcts::session::{Player, Session, SplitMemory};
//! use imcts::Game;
//!
//! let mut nodes = vec![Node::EMPTY; 100_000]; // or a static buffer on `no_std`
//! let mut memory = SplitMemory { nodes: &mut nodes, table: &mut [] };
//! let player = Player::new(spec::parse::<Breakthrough>("mcts(ipp,im0.4,seed7)").unwrap());
//! let mut session: Session<Breakthrough> = Session::new(player);
//! let opening = session.parse_move("e2-e3").unwrap();
//! session.play(opening, &mut memory).unwrap();
//! let decision = session.search(Budget::iterations(2_000), &mut NoClock, &mut memory);
//! let reply = decision.best.unwrap();
//! assert!(session.game().is_legal(reply));
//! session.play(reply, &mut memory).unwrap();
//! ```
//!
//! For a wall-clock budget pass [`search::Budget::millis`] and any `FnMut() -> u64` that
//! returns microseconds as the clock. The lower-level [`search::mcts::Mcts`] and
//! [`search::alphabeta::search`] take the same validated configurations.
#![no_std]
// Audited `unsafe`, each block with a `// SAFETY:` comment: the parallel search's view of the
// caller's node memory as atomics (src/search/parallel/atomic_node.rs); the SSE square root
// (`search::math::sqrtf`); and BMI2's `pdep` for drawing the n-th set bit
// (`games::bitboard::Bitboard::nth_pdep`, its `cpuid` check `fast_pdep`, and the Breakthrough
// playout and ipp calls behind that check). The last three are measured gains. Everything
// else stays safe code.
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

pub mod game;
pub mod games;
pub mod rng;
pub mod search;
pub mod session;

pub use game::{
    Game, GreedyPlayout, MoveBuffer, Outcome, ParseError, Player, PlayoutCutoffs, Problem, perft,
};
// The old name stays importable from the crate root; its own deprecation warns its users.
#[allow(deprecated)]
pub use game::AlphaBetaPlayout;

/// The random number generator of every search: xorshift128, seeded explicitly, identical on
/// every platform.
pub type SearchRng = rand_xorshift::XorShiftRng;
