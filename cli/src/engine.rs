//! `imcts engine`: a line protocol on stdin/stdout so GUIs, arenas and scripts can drive the
//! engine. Every command gets exactly one answer line: `ok [...]` or `error <reason>`; a
//! failed command changes nothing. See the README for the commands and a transcript.

use crate::player::{HeapMemory, default_pool};
use crate::search::wall_clock;
use imcts::search::{Budget, Proven};
use imcts::session::{Player, Session};
use imcts::{Game, MoveBuffer, Outcome, Player as Side};
use std::io::{BufRead, Write};

/// The commands, as `help` prints them.
pub const HELP: &str = "commands: game <name> | new | position <string> | startpos | play <move>... | \
undo [n] | moves | show | status | player <spec> | seed <n> | pool <nodes> | \
go (sims <n> | ms <t> | nodes <n>)... | help | quit";

/// One game's engine state; the trait hides the game type so `game` can switch it.
trait GameEngine {
    fn handle(&mut self, cmd: &str, rest: &str) -> Result<String, String>;
}

/// Moves the engine can take back with `undo`; older ones are forgotten.
pub const HISTORY: usize = 1024;

/// The kernel session plus what the protocol can change before the next search: the player is
/// rebuilt (with its memory) at the next `go` after `player`, `seed` or `pool`.
struct EngineState<G: Game> {
    session: Session<G, HISTORY>,
    /// The player's memory (empty until the first `go`).
    memory: HeapMemory,
    /// Whether the session's player was built from the current spec, seed and pool.
    built: bool,
    spec: String,
    seed: u64,
    /// The pool the `pool` command asked for; `None`: sized from each `go`'s budget.
    pool: Option<usize>,
    /// The capacity of the player's memory as built.
    capacity: usize,
}

impl<G: Game> EngineState<G> {
    fn new() -> Self {
        let spec = crate::player::parse::<G>("mcts", Some(1)).expect("the default spec parses");
        EngineState {
            session: Session::new(Player::new(spec)),
            memory: HeapMemory::empty(),
            built: false,
            spec: "mcts".into(),
            seed: 1,
            pool: None,
            capacity: 0,
        }
    }

    /// Builds the player and its memory if `player`, `seed` or `pool` changed them, or if an
    /// MCTS player's `budget` needs a larger pool than the one built (without a `pool`
    /// command: [`default_pool`]; a pool is never shrunk, and an αβ player's table is kept).
    fn ready(&mut self, budget: &Budget) -> Result<(), String> {
        let want = self.pool.unwrap_or_else(|| default_pool::<G>(budget));
        let grow = self.pool.is_none() && want > self.capacity && self.session.player().is_mcts();
        if !self.built || grow {
            let (player, memory) = crate::player::build::<G>(
                &self.spec,
                &Budget::default(),
                Some(want),
                Some(self.seed),
            )?;
            self.session.set_player(player);
            self.memory = memory;
            self.capacity = want;
            self.built = true;
        }
        Ok(())
    }

    fn status(&self) -> String {
        match self.session.outcome() {
            None => format!(
                "ongoing {} to move",
                if self.session.side_to_move() == Side::First {
                    "first"
                } else {
                    "second"
                }
            ),
            Some(Outcome::Win(Side::First)) => "over first wins".into(),
            Some(Outcome::Win(Side::Second)) => "over second wins".into(),
            Some(Outcome::Draw) => "over draw".into(),
        }
    }

    fn go(&mut self, rest: &str) -> Result<String, String> {
        let mut budget = Budget::default();
        let mut words = rest.split_whitespace();
        while let Some(kind) = words.next() {
            let value: u64 = words
                .next()
                .ok_or_else(|| format!("go {kind}: missing number"))?
                .parse()
                .map_err(|_| format!("go {kind}: expected a whole number"))?;
            if value == 0 {
                return Err(format!("go {kind}: must be at least 1"));
            }
            match kind {
                "sims" => budget.iterations = Some(value),
                "ms" => budget.time_us = Some(value.saturating_mul(1000)),
                "nodes" => budget.nodes = Some(value),
                other => return Err(format!("go: unknown budget '{other}' (sims, ms, nodes)")),
            }
        }
        if budget == Budget::default() {
            return Err("go: give a budget, e.g. go sims 10000".into());
        }
        if self.session.game().is_terminal() {
            return Err(format!("the game is over ({})", self.status()));
        }
        self.ready(&budget)?;
        let mut clock = wall_clock();
        let d = self.session.search_parallel(
            budget,
            &mut clock,
            &mut self.memory,
            &mut crate::search::protocol_threads(),
            crate::search::protocol_parallel_settings(),
        );
        let mv = d.best.ok_or("no move: the game is over")?;
        let mut out = format!(
            "ok bestmove {} value {:.4} sims {} size {} stop {}",
            crate::games::move_string(self.session.game(), mv),
            d.value,
            d.simulations,
            if self.session.player().is_mcts() {
                d.nodes
            } else {
                d.depth as u64
            },
            d.stop.name()
        );
        if d.proven != Proven::Unknown {
            out.push_str(&format!(" proven {}", d.proven.name()));
        }
        Ok(out)
    }
}

impl<G: Game> GameEngine for EngineState<G> {
    fn handle(&mut self, cmd: &str, rest: &str) -> Result<String, String> {
        match cmd {
            "new" | "startpos" => {
                self.session.reset(&mut self.memory);
                Ok("ok".into())
            }
            "position" => {
                let g = G::parse_position(rest).map_err(|e| format!("bad position: {e}"))?;
                self.session.set_position(g, &mut self.memory);
                Ok("ok".into())
            }
            "play" => {
                let texts: Vec<&str> = rest.split_whitespace().collect();
                if texts.is_empty() {
                    return Err("play: give one or more moves".into());
                }
                // All or nothing: check the whole sequence on a copy first.
                let mut trial = self.session.game().clone();
                let mut moves = Vec::new();
                for t in &texts {
                    if trial.is_terminal() {
                        return Err(format!("play {t}: the game is already over"));
                    }
                    let mv = trial.parse_move(t).map_err(|e| format!("play {t}: {e}"))?;
                    trial.make(mv);
                    moves.push(mv);
                }
                for mv in moves {
                    self.session
                        .play(mv, &mut self.memory)
                        .map_err(|e| format!("play: {e}"))?;
                }
                Ok("ok".into())
            }
            "undo" => {
                let n: usize = if rest.is_empty() {
                    1
                } else {
                    rest.parse()
                        .map_err(|_| "undo: expected a whole number".to_string())?
                };
                if n > self.session.undo_depth() {
                    return Err(format!(
                        "undo: only {} moves to undo",
                        self.session.undo_depth()
                    ));
                }
                for _ in 0..n {
                    self.session
                        .undo(&mut self.memory)
                        .map_err(|e| format!("undo: {e}"))?;
                }
                Ok("ok".into())
            }
            "moves" => {
                let mut list = G::MoveList::default();
                let game = self.session.game();
                game.legal_moves(&mut list);
                let names: Vec<String> = list
                    .moves()
                    .iter()
                    .map(|&m| crate::games::move_string(game, m))
                    .collect();
                Ok(format!("ok {}", names.join(" ")).trim_end().to_string())
            }
            "show" | "fen" => Ok(format!(
                "ok {}",
                crate::games::position_string(self.session.game())
            )),
            "status" => Ok(format!("ok {}", self.status())),
            "player" => {
                if rest.is_empty() {
                    return Ok(format!("ok {}", self.spec));
                }
                // Validate before replacing the current player.
                crate::player::parse::<G>(rest, None)?;
                self.spec = rest.to_string();
                self.built = false;
                Ok("ok".into())
            }
            "seed" => {
                self.seed = rest
                    .parse()
                    .map_err(|_| "seed: expected a whole number".to_string())?;
                self.built = false;
                Ok("ok".into())
            }
            "pool" => {
                let n: usize = rest
                    .parse()
                    .map_err(|_| "pool: expected a whole number".to_string())?;
                if n == 0 || n > 1 << 28 {
                    return Err("pool: between 1 and 268435456 nodes".into());
                }
                self.pool = Some(n);
                self.built = false;
                Ok("ok".into())
            }
            "go" => self.go(rest),
            _ => Err(format!("unknown command '{cmd}'; {HELP}")),
        }
    }
}

fn session_for(name: &str) -> Result<Box<dyn GameEngine>, String> {
    crate::with_game!(name, G => Ok(Box::new(EngineState::<G>::new()) as Box<dyn GameEngine>))
}

/// Runs the protocol over `input` and `output` until `quit` or end of input.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut name = "breakthrough".to_string();
    let mut session = session_for(&name).expect("breakthrough is built");
    for line in input.lines() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        let answer = match cmd {
            "quit" => {
                writeln!(output, "ok bye")?;
                output.flush()?;
                return Ok(());
            }
            "help" => Ok(format!("ok {HELP}")),
            "game" if rest.is_empty() => Ok(format!("ok {name}")),
            "game" => session_for(rest).map(|s| {
                session = s;
                name = rest.to_string();
                "ok".to_string()
            }),
            _ => session.handle(cmd, rest),
        };
        match answer {
            Ok(a) => writeln!(output, "{a}")?,
            Err(e) => writeln!(output, "error {}", e.replace('\n', " "))?,
        }
        output.flush()?;
    }
    Ok(())
}

pub fn run(args: &crate::search::SearchThreadsArgs) -> Result<(), String> {
    crate::search::set_protocol_search(args);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(stdin.lock(), stdout.lock()).map_err(|e| format!("engine I/O: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{DEFAULT_NODES, nodes_for};
    use imcts::games::tictactoe::TicTacToe;
    use imcts::session::Memory;

    #[test]
    fn the_pool_grows_with_the_budget_unless_set_by_hand() {
        let mut e = EngineState::<TicTacToe>::new();
        e.handle("go", "sims 10").unwrap();
        assert_eq!(e.capacity, DEFAULT_NODES, "never below the old default");
        e.handle("go", "ms 300").unwrap();
        assert_eq!(e.capacity, nodes_for::<TicTacToe>(&Budget::millis(300)));
        assert!(e.capacity > DEFAULT_NODES);
        let grown = e.capacity;
        e.handle("go", "sims 10").unwrap();
        assert_eq!(e.capacity, grown, "a pool is never shrunk");
        e.handle("pool", "1000").unwrap();
        e.handle("go", "ms 300").unwrap();
        assert_eq!(e.capacity, 1000, "the pool command decides");
        assert_eq!(e.memory.nodes().len(), 1000);
    }
}
