//! `imcts gtp`: the Go Text Protocol (GTP v2) for the placement games, Gomoku and
//! Tic-Tac-Toe, so GoGui, twogtp, Sabaki and gomill-style controllers can run imcts.
//!
//! - Replies are `=[id] result` or `?[id] message`, each followed by a blank line; comments
//!   (`#…`) and empty lines are skipped, a leading number is the command's id.
//! - Colours: `b` (`black`) is the first player (Gomoku's Black, Tic-Tac-Toe's X), `w`
//!   (`white`) the second. `play` and `genmove` must name the side to move.
//! - Vertices are GTP's: columns `A`–`H`, `J`–`P` (no `I`) from the left, rows from 1 at the
//!   bottom; so imcts's Gomoku point `i8` is GTP's `J8`. Tic-Tac-Toe is `A1`–`C3` in both.
//! - A finished game: `genmove` answers `pass` and `play <colour> pass` is accepted (and
//!   nothing else is), so controllers that stop after two passes stop; `final_score` is `B+1`,
//!   `W+1` or `0` (a win counts one point), and an error while the game goes on.
//! - Time: `time_settings` and `time_left` are honoured with [`crate::uci::time_budget_ms`]
//!   (moves to go: the byo-yomi stones, else sudden death); without them each move gets
//!   `--ms` milliseconds, or `--sims` simulations.

use crate::uci::{DEFAULT_OVERHEAD_MS, Owned, memory_for, time_budget_ms};
use clap::Args;
use imcts::Game;
use imcts::search::Budget;
use imcts::search::spec;
use imcts::session::{Player, Session};
use imcts::{Outcome, Player as Side};
use std::io::{BufRead, Write};

/// Arguments of `imcts gtp`.
#[derive(Args)]
pub struct GtpArgs {
    /// The game: gomoku or tictactoe (`boardsize` 15 or 3 also switches).
    #[arg(long, default_value = "gomoku")]
    pub game: String,
    /// The player spec (changed later with `imcts-player <spec>`).
    #[arg(long, default_value = "mcts")]
    pub player: String,
    /// Milliseconds per move when the controller sends no time information.
    #[arg(long, default_value_t = 1000)]
    pub ms: u64,
    /// A fixed number of simulations per move instead of time (reproducible play).
    #[arg(long)]
    pub sims: Option<u64>,
    /// MCTS tree nodes (24 bytes each).
    #[arg(long, default_value_t = crate::uci::DEFAULT_POOL)]
    pub pool: usize,
    #[command(flatten)]
    pub threads: crate::search::SearchThreadsArgs,
}

/// The commands, in the order `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "imcts-player",
];

/// GTP's column letters (no `I`).
const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

/// The board side of a game GTP can play.
fn board_size(name: &str) -> Option<usize> {
    match name {
        "gomoku" => Some(15),
        "tictactoe" => Some(3),
        _ => None,
    }
}

/// One game's state, behind a trait so `boardsize` can switch between the two games.
trait GtpGame {
    fn clear(&mut self);
    fn set_player(&mut self, spec: &str) -> Result<(), String>;
    fn play(&mut self, side: Side, vertex: &str) -> Result<(), String>;
    fn genmove(&mut self, side: Side, budget: Budget) -> Result<String, String>;
    fn undo(&mut self) -> Result<(), String>;
    fn side_to_move(&self) -> Side;
    fn outcome(&self) -> Option<Outcome>;
    fn board(&self) -> String;
}

struct GtpSession<G: Game> {
    session: Session<G>,
    memory: Owned,
    pool: usize,
    size: usize,
}

impl<G: Game> GtpSession<G> {
    fn new(spec_text: &str, pool: usize, size: usize) -> Result<Self, String> {
        let spec = spec::parse::<G>(spec_text).map_err(|e| format!("bad player spec {e}"))?;
        Ok(GtpSession {
            session: Session::new(Player::new(spec)),
            memory: memory_for(&spec, pool),
            pool,
            size,
        })
    }

    /// GTP vertex → the game's own point name (`J8` → `i8`, `b2` → `B2`).
    fn to_imcts(&self, vertex: &str) -> Result<String, String> {
        let bad = || format!("invalid vertex '{vertex}'");
        let upper = vertex.to_ascii_uppercase();
        let mut chars = upper.chars();
        let letter = chars.next().ok_or_else(bad)?;
        let col = LETTERS
            .iter()
            .position(|&l| char::from(l) == letter)
            .ok_or_else(bad)?;
        let row: usize = chars.as_str().parse().map_err(|_| bad())?;
        if col >= self.size || !(1..=self.size).contains(&row) {
            return Err(bad());
        }
        let c = char::from(b'a' + col as u8);
        Ok(if self.size == 3 {
            format!("{}{row}", c.to_ascii_uppercase())
        } else {
            format!("{c}{row}")
        })
    }

    /// The game's point name → GTP vertex.
    fn to_gtp(name: &str) -> String {
        let mut chars = name.chars();
        let c = chars
            .next()
            .map_or(0, |c| c.to_ascii_lowercase() as u8 - b'a');
        format!("{}{}", char::from(LETTERS[c as usize]), chars.as_str())
    }

    fn check_turn(&self, side: Side) -> Result<(), String> {
        if side != self.session.side_to_move() {
            return Err(format!(
                "it is {}'s turn",
                colour(self.session.side_to_move())
            ));
        }
        Ok(())
    }
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "b",
        Side::Second => "w",
    }
}

impl<G: Game> GtpGame for GtpSession<G> {
    fn clear(&mut self) {
        self.session.reset(&mut self.memory);
    }

    fn set_player(&mut self, text: &str) -> Result<(), String> {
        let spec = spec::parse::<G>(text).map_err(|e| format!("bad player spec {e}"))?;
        self.memory = memory_for(&spec, self.pool);
        self.session.set_player(Player::new(spec));
        Ok(())
    }

    fn play(&mut self, side: Side, vertex: &str) -> Result<(), String> {
        if vertex.eq_ignore_ascii_case("pass") {
            return match self.session.outcome() {
                Some(_) => Ok(()),
                None => Err("illegal move: pass (only once the game is over)".into()),
            };
        }
        let name = self.to_imcts(vertex)?;
        self.check_turn(side)?;
        let mv = self
            .session
            .parse_move(&name)
            .map_err(|e| format!("illegal move: {vertex} ({e})"))?;
        self.session
            .play(mv, &mut self.memory)
            .map_err(|e| format!("illegal move: {vertex} ({e})"))
    }

    fn genmove(&mut self, side: Side, budget: Budget) -> Result<String, String> {
        if self.session.outcome().is_some() {
            return Ok("pass".into());
        }
        self.check_turn(side)?;
        let mut clock = crate::search::wall_clock();
        let d = self.session.search_parallel(
            budget,
            &mut clock,
            &mut self.memory,
            &mut crate::search::protocol_threads(),
            crate::search::protocol_parallel_settings(),
        );
        let mv = d.best.ok_or("no move")?;
        let name = crate::games::move_string(self.session.game(), mv);
        self.session
            .play(mv, &mut self.memory)
            .map_err(|e| format!("{e}"))?;
        Ok(Self::to_gtp(&name))
    }

    fn undo(&mut self) -> Result<(), String> {
        self.session
            .undo(&mut self.memory)
            .map(|_| ())
            .map_err(|_| "cannot undo".to_string())
    }

    fn side_to_move(&self) -> Side {
        self.session.side_to_move()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.session.outcome()
    }

    /// The board from the position string: rows top first, `X` Black, `O` White.
    fn board(&self) -> String {
        let text = crate::games::position_string(self.session.game());
        let rows = text.split_whitespace().next().unwrap_or("");
        let mut out = String::from("\n   ");
        for &l in &LETTERS[..self.size] {
            out.push(' ');
            out.push(char::from(l));
        }
        for (i, row) in rows.split('/').enumerate() {
            let mut cells = String::new();
            let mut digits = String::new();
            for ch in row.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if let Ok(n) = digits.parse::<usize>() {
                    cells.push_str(&".".repeat(n));
                }
                digits.clear();
                cells.push(ch.to_ascii_uppercase());
            }
            if let Ok(n) = digits.parse::<usize>() {
                cells.push_str(&".".repeat(n));
            }
            let n = self.size - i;
            out.push_str(&format!("\n{n:>2} "));
            for ch in cells.chars() {
                out.push(' ');
                out.push(ch);
            }
            out.push_str(&format!(" {n}"));
        }
        out.push_str(&format!(
            "\n{}to move: {}",
            " ".repeat(3),
            colour(self.side_to_move())
        ));
        out
    }
}

fn game_for(name: &str, spec: &str, pool: usize) -> Result<Box<dyn GtpGame>, String> {
    let size = board_size(name)
        .ok_or_else(|| format!("imcts gtp plays gomoku and tictactoe, not '{name}'"))?;
    crate::with_game!(name, G => GtpSession::<G>::new(spec, pool, size).map(|s| Box::new(s) as Box<dyn GtpGame>))
}

fn parse_colour(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Side::First),
        "w" | "white" => Ok(Side::Second),
        _ => Err(format!("invalid color '{text}'")),
    }
}

/// The controller's clock: `time_settings` and the last `time_left` per colour.
#[derive(Default)]
struct Clocks {
    /// Byo-yomi seconds and stones (`None`: no time settings; `Some((0, 0))`: no limit).
    byo_yomi: Option<(u64, u64)>,
    main_s: u64,
    /// Seconds and stones left, per colour.
    left: [Option<(u64, u64)>; 2],
}

struct Gtp {
    game_name: String,
    spec: String,
    pool: usize,
    game: Box<dyn GtpGame>,
    clocks: Clocks,
    ms: u64,
    sims: Option<u64>,
}

impl Gtp {
    fn budget(&self, side: Side) -> Budget {
        if let Some(n) = self.sims {
            return Budget::iterations(n);
        }
        let left = self.clocks.left[side.index()]
            .or(self.clocks.byo_yomi.map(|_| (self.clocks.main_s, 0)));
        match (self.clocks.byo_yomi, left) {
            // `time_settings 0 0 0` or one with no main time and no byo-yomi: no limit.
            (Some((0, 0)), _) if self.clocks.main_s == 0 => Budget::millis(self.ms),
            (Some((byo_s, byo_stones)), Some((s, stones))) => {
                let ms = if stones > 0 {
                    time_budget_ms(s * 1000, 0, Some(stones), DEFAULT_OVERHEAD_MS)
                } else {
                    // Main time: byo-yomi time per stone counts as an increment.
                    let inc = (byo_s * 1000).checked_div(byo_stones).unwrap_or(0);
                    time_budget_ms(s * 1000, inc, None, DEFAULT_OVERHEAD_MS)
                };
                Budget::millis(ms)
            }
            _ => Budget::millis(self.ms),
        }
    }

    fn handle(&mut self, cmd: &str, args: &[&str]) -> Result<String, String> {
        let arg = |i: usize| -> Result<&str, String> {
            args.get(i)
                .copied()
                .ok_or_else(|| format!("syntax error: {cmd} needs more arguments"))
        };
        let number = |i: usize| -> Result<u64, String> {
            arg(i)?
                .parse::<u64>()
                .map_err(|_| format!("syntax error: {cmd} expects whole numbers"))
        };
        match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("imcts".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&arg(0)?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => {
                let n = number(0)? as usize;
                let name = match n {
                    15 => "gomoku",
                    3 => "tictactoe",
                    _ => return Err("unacceptable size".into()),
                };
                if name != self.game_name {
                    self.game = game_for(name, &self.spec, self.pool)?;
                    self.game_name = name.into();
                } else {
                    self.game.clear();
                }
                Ok(String::new())
            }
            "clear_board" => {
                self.game.clear();
                Ok(String::new())
            }
            "komi" => {
                arg(0)?
                    .parse::<f64>()
                    .map_err(|_| "syntax error: komi expects a number".to_string())?;
                Ok(String::new())
            }
            "play" => {
                let side = parse_colour(arg(0)?)?;
                self.game.play(side, arg(1)?).map(|_| String::new())
            }
            "genmove" => {
                let side = parse_colour(arg(0)?)?;
                let budget = self.budget(side);
                self.game.genmove(side, budget)
            }
            "undo" => self.game.undo().map(|_| String::new()),
            "showboard" => Ok(self.game.board()),
            "final_score" => match self.game.outcome() {
                Some(Outcome::Win(Side::First)) => Ok("B+1".into()),
                Some(Outcome::Win(Side::Second)) => Ok("W+1".into()),
                Some(Outcome::Draw) => Ok("0".into()),
                None => Err("the game is not over".into()),
            },
            "time_settings" => {
                let (main, byo, stones) = (number(0)?, number(1)?, number(2)?);
                self.clocks = Clocks {
                    byo_yomi: Some((byo, stones)),
                    main_s: main,
                    left: [None, None],
                };
                Ok(String::new())
            }
            "time_left" => {
                let side = parse_colour(arg(0)?)?;
                let (s, stones) = (number(1)?, number(2)?);
                self.clocks.left[side.index()] = Some((s, stones));
                Ok(String::new())
            }
            "imcts-player" => {
                let spec = args.join(" ");
                if spec.is_empty() {
                    return Ok(self.spec.clone());
                }
                self.game.set_player(&spec)?;
                self.spec = spec;
                Ok(String::new())
            }
            _ => Err("unknown command".into()),
        }
    }
}

/// Runs the protocol over `input` and `output` until `quit` or end of input.
pub fn serve(args: &GtpArgs, input: impl BufRead, mut out: impl Write) -> Result<(), String> {
    if args.pool == 0 || args.pool > crate::uci::MAX_POOL {
        return Err(format!(
            "--pool: between 1 and {} nodes",
            crate::uci::MAX_POOL
        ));
    }
    let mut gtp = Gtp {
        game: game_for(&args.game, &args.player, args.pool)?,
        game_name: args.game.clone(),
        spec: args.player.clone(),
        pool: args.pool,
        clocks: Clocks::default(),
        ms: args.ms,
        sims: args.sims,
    };
    let io = |e: std::io::Error| format!("gtp I/O: {e}");
    for line in input.lines() {
        let line = line.map_err(io)?;
        // GTP preprocessing: drop comments, control characters become spaces.
        let line: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let id = match words[0].parse::<u64>() {
            Ok(id) => {
                words.remove(0);
                id.to_string()
            }
            Err(_) => String::new(),
        };
        let Some((&cmd, args)) = words.split_first() else {
            write!(out, "?{id} syntax error: no command\n\n").map_err(io)?;
            continue;
        };
        if cmd == "quit" {
            write!(out, "={id}\n\n").map_err(io)?;
            out.flush().map_err(io)?;
            return Ok(());
        }
        match gtp.handle(cmd, args) {
            Ok(r) if r.is_empty() => write!(out, "={id}\n\n"),
            Ok(r) => write!(out, "={id} {r}\n\n"),
            Err(e) => write!(out, "?{id} {}\n\n", e.replace('\n', " ")),
        }
        .map_err(io)?;
        out.flush().map_err(io)?;
    }
    Ok(())
}

/// `imcts gtp` on stdin and stdout.
pub fn run(args: &GtpArgs) -> Result<(), String> {
    crate::search::set_protocol_search(&args.threads);
    let stdin = std::io::stdin();
    serve(args, stdin.lock(), std::io::stdout().lock())
}
