//! Game names on the command line, and dispatch from a name to a game type.

/// Every game name the CLI knows: the kernel's registry, in id order.
pub const ALL: &[&str] = imcts::games::NAMES;

/// Runs `$body` with `$G` bound to the game type named by `$name` (the kernel's
/// `game_registry!`), or returns an error for an unknown game.
#[macro_export]
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {{ imcts::with_game_named!($name, $G => $body, other => Err($crate::games::unknown(other))) }};
}

/// The error for a game name that is unknown or not built yet.
pub fn unknown(name: &str) -> String {
    if ALL.contains(&name) {
        format!("game '{name}' is not built yet in this version of imcts")
    } else {
        format!("unknown game '{name}'; known games: {}", ALL.join(", "))
    }
}

/// Formats a position as its position string.
pub fn position_string<G: imcts::Game>(g: &G) -> String {
    let mut s = String::new();
    g.write_position(&mut s)
        .expect("writing to a String cannot fail");
    s
}

/// Formats a move (legal in `g`) in the game's notation.
pub fn move_string<G: imcts::Game>(g: &G, mv: G::Move) -> String {
    let mut s = String::new();
    g.write_move(mv, &mut s)
        .expect("writing to a String cannot fail");
    s
}

/// Parses `--position` or returns the initial position.
pub fn position_or_start<G: imcts::Game>(text: Option<&str>) -> Result<G, String> {
    match text {
        None => Ok(G::new()),
        Some(t) => G::parse_position(t).map_err(|e| format!("bad position: {e}")),
    }
}
