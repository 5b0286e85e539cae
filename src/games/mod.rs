//! The games. One file per game; each implements [`crate::Game`].

pub mod bitboard;
pub mod breakthrough;
#[cfg(test)]
pub(crate) mod conformance;
pub mod gomoku;
pub mod kalah;
pub mod lines_of_action;
pub(crate) mod notation;
#[cfg(any(test, feature = "reference"))]
pub mod reference;
pub mod tictactoe;

#[cfg(test)]
mod parse_limits;

/// The game registry: every game built in, one line each (its variant name, its id, its name on
/// the command line, its type). Hosts generate what depends on the set of games from it by
/// passing a callback macro: `game_registry!([my_macro] {my args})` expands to
/// `my_macro! { {my args} Breakthrough = 0, "breakthrough" => …::Breakthrough; … }`. The C ABI's
/// `IMCTS_GAME_*` ids, the command line's game names and dispatch ([`with_game_named!`](crate::with_game_named)), and
/// the fuzz targets ([`with_game_id!`](crate::with_game_id)) all come from here. Adding a game: its folder under
/// `src/games/`, its `pub mod` above, one line here, and its `IMCTS_GAME_*` constant in
/// `ffi/src/engine.rs` (a compile-time check keeps it equal to the id here).
#[macro_export]
macro_rules! game_registry {
    ([$($callback:tt)*] $args:tt) => {
        $($callback)*! { $args
            Breakthrough = 0, "breakthrough" => $crate::games::breakthrough::Breakthrough;
            LinesOfAction = 1, "loa" => $crate::games::lines_of_action::LinesOfAction;
            Kalah = 2, "kalah" => $crate::games::kalah::Kalah;
            TicTacToe = 3, "tictactoe" => $crate::games::tictactoe::TicTacToe;
            Gomoku = 4, "gomoku" => $crate::games::gomoku::Gomoku;
        }
    };
}

/// Runs `$body` with the type alias `$G` bound to the game named `$name` in the
/// [`game_registry!`]; for any other name, `$other` with `$n` bound to it.
///
/// ```
/// let moves = imcts::with_game_named!("kalah", G => <G as imcts::Game>::MAX_MOVES, _n => 0);
/// assert_eq!(moves, 6);
/// ```
#[macro_export]
macro_rules! with_game_named {
    ($name:expr, $G:ident => $body:expr, $n:ident => $other:expr) => {
        $crate::game_registry!([$crate::__with_game_named_arms] {($name) $G ($body) $n ($other)})
    };
}

/// Runs `$body` with the type alias `$G` bound to the game with id `$id` (a `u32`) in the
/// [`game_registry!`]; for any other id, `$other` with `$n` bound to it.
#[macro_export]
macro_rules! with_game_id {
    ($id:expr, $G:ident => $body:expr, $n:ident => $other:expr) => {
        $crate::game_registry!([$crate::__with_game_id_arms] {($id) $G ($body) $n ($other)})
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_named_arms {
    ({($name:expr) $G:ident ($body:expr) $n:ident ($other:expr)}
     $($variant:ident = $id:literal, $gname:literal => $ty:ty;)*) => {
        match $name {
            $($gname => {
                type $G = $ty;
                $body
            })*
            $n => $other,
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __with_game_id_arms {
    ({($value:expr) $G:ident ($body:expr) $n:ident ($other:expr)}
     $($variant:ident = $id:literal, $gname:literal => $ty:ty;)*) => {
        match $value {
            $($id => {
                type $G = $ty;
                $body
            })*
            $n => $other,
        }
    };
}

macro_rules! registry_names {
    ({} $($variant:ident = $id:literal, $gname:literal => $ty:ty;)*) => {
        /// Every game's name, in id order (from the [`game_registry!`]).
        pub const NAMES: &[&str] = &[$($gname),*];
    };
}
game_registry!([registry_names] {});
