//! `imcts engine`: a line protocol on stdin/stdout so GUIs, arenas and scripts can drive the
//! engine. Every command gets exactly one answer line: `ok [...]` or `error <reason>`; a
//! failed command changes nothing. See the README for the commands and a transcript.

use crate::agent::{Agent, DEFAULT_NODES};
use crate::search::wall_clock;
use imcts::search::Budget;
use imcts::{Game, MoveBuffer, Outcome, Player};
use std::io::{BufRead, Write};

/// The commands, as `help` prints them.
pub const HELP: &str = "commands: game <name> | new | position <string> | startpos | play <move>... | \
undo [n] | moves | show | status | player <spec> | seed <n> | pool <nodes> | \
go (sims <n> | ms <t> | nodes <n>)... | help | quit";

/// One game's engine state; the trait hides the game type so `game` can switch it.
trait Session {
    fn handle(&mut self, cmd: &str, rest: &str) -> Result<String, String>;
}

struct GameSession<G: Game> {
    game: G,
    history: Vec<(G::Move, G::Undo)>,
    spec: String,
    seed: u64,
    pool: usize,
    agent: Option<Agent<G>>,
}

impl<G: Game> GameSession<G> {
    fn new() -> Self {
        GameSession {
            game: G::new(),
            history: Vec::new(),
            spec: "mcts".into(),
            seed: 1,
            pool: DEFAULT_NODES,
            agent: None,
        }
    }

    /// The agent, built on first use so `player`, `seed` and `pool` can come in any order.
    fn agent(&mut self) -> Result<&mut Agent<G>, String> {
        if self.agent.is_none() {
            let a = Agent::<G>::new(
                &self.spec,
                &Budget::default(),
                Some(self.pool),
                Some(self.seed),
            )?;
            self.agent = Some(a);
        }
        Ok(self.agent.as_mut().expect("just built"))
    }

    fn status(&self) -> String {
        match self.game.outcome() {
            None => format!(
                "ongoing {} to move",
                if self.game.side_to_move() == Player::First {
                    "first"
                } else {
                    "second"
                }
            ),
            Some(Outcome::Win(Player::First)) => "over first wins".into(),
            Some(Outcome::Win(Player::Second)) => "over second wins".into(),
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
        if self.game.is_terminal() {
            return Err(format!("the game is over ({})", self.status()));
        }
        let mut clock = wall_clock();
        let mut game = self.game.clone();
        let t = self
            .agent()?
            .think(&mut game, budget, &mut clock)
            .ok_or("no move: the game is over")?;
        let mut out = format!(
            "ok bestmove {} value {:.4} sims {} size {} stop {}",
            crate::games::move_string(&self.game, t.mv),
            t.value,
            t.work,
            t.size,
            t.stop.name()
        );
        if !t.proven.is_empty() {
            out.push_str(&format!(" proven {}", t.proven));
        }
        Ok(out)
    }
}

impl<G: Game> Session for GameSession<G> {
    fn handle(&mut self, cmd: &str, rest: &str) -> Result<String, String> {
        match cmd {
            "new" | "startpos" => {
                self.game = G::new();
                self.history.clear();
                if let Some(a) = &mut self.agent {
                    a.reset();
                }
                Ok("ok".into())
            }
            "position" => {
                let g = G::parse_position(rest).map_err(|e| format!("bad position: {e}"))?;
                self.game = g;
                self.history.clear();
                if let Some(a) = &mut self.agent {
                    a.reset();
                }
                Ok("ok".into())
            }
            "play" => {
                let texts: Vec<&str> = rest.split_whitespace().collect();
                if texts.is_empty() {
                    return Err("play: give one or more moves".into());
                }
                // All or nothing: check the whole sequence on a copy first.
                let mut trial = self.game.clone();
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
                    if let Some(a) = &mut self.agent {
                        a.observe(mv);
                    }
                    let u = self.game.make(mv);
                    self.history.push((mv, u));
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
                if n > self.history.len() {
                    return Err(format!("undo: only {} moves to undo", self.history.len()));
                }
                for _ in 0..n {
                    let (mv, u) = self.history.pop().expect("checked above");
                    self.game.undo(mv, u);
                }
                if let Some(a) = &mut self.agent {
                    a.reset();
                }
                Ok("ok".into())
            }
            "moves" => {
                let mut list = G::MoveList::default();
                self.game.legal_moves(&mut list);
                let names: Vec<String> = list
                    .moves()
                    .iter()
                    .map(|&m| crate::games::move_string(&self.game, m))
                    .collect();
                Ok(format!("ok {}", names.join(" ")).trim_end().to_string())
            }
            "show" | "fen" => Ok(format!("ok {}", crate::games::position_string(&self.game))),
            "status" => Ok(format!("ok {}", self.status())),
            "player" => {
                if rest.is_empty() {
                    return Ok(format!("ok {}", self.spec));
                }
                // Validate before replacing the current player.
                Agent::<G>::new(rest, &Budget::iterations(1), Some(1), None)?;
                self.spec = rest.to_string();
                self.agent = None;
                Ok("ok".into())
            }
            "seed" => {
                self.seed = rest
                    .parse()
                    .map_err(|_| "seed: expected a whole number".to_string())?;
                self.agent = None;
                Ok("ok".into())
            }
            "pool" => {
                let n: usize = rest
                    .parse()
                    .map_err(|_| "pool: expected a whole number".to_string())?;
                if n == 0 || n > 1 << 28 {
                    return Err("pool: between 1 and 268435456 nodes".into());
                }
                self.pool = n;
                self.agent = None;
                Ok("ok".into())
            }
            "go" => self.go(rest),
            _ => Err(format!("unknown command '{cmd}'; {HELP}")),
        }
    }
}

fn session_for(name: &str) -> Result<Box<dyn Session>, String> {
    crate::with_game!(name, G => Ok(Box::new(GameSession::<G>::new()) as Box<dyn Session>))
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

pub fn run() -> Result<(), String> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(stdin.lock(), stdout.lock()).map_err(|e| format!("engine I/O: {e}"))
}
