//! `imcts gomocup`: the Gomocup (piskvork) protocol, so Gomoku managers can run imcts.
//!
//! Coordinates are `x,y` from 0, `x` the column from the left and `y` the row from the top, as
//! the protocol has it; imcts's `a1` is the bottom-left point, so `y = 14 − (row − 1)`. Only the
//! 15×15 board is supported.
//!
//! Rules: `--rule outer-open` (the default: five or more win, Black's first stone on the outer
//! ring), `freestyle` (five or more, any opening point) or `standard` (exactly five, any
//! opening point). A manager's `INFO rule N` switches them: bit 1 set is `standard`, otherwise
//! `freestyle` (bit 2, continuous play, changes nothing); renju (4) and caro (8) are refused
//! with `ERROR` and the rule stays. Under outer-open an opening stone off the ring is refused
//! with an `ERROR` naming the rule, whether it comes by `TURN` or as the first stone of a
//! `BOARD` (stones are listed in the order they were played).

use crate::player::{DEFAULT_NODES, HeapMemory};
use crate::search::wall_clock;
use clap::Args;
use imcts::Game;
use imcts::games::gomoku::{Gomoku, GomokuRules, Move, RING};
use imcts::search::Budget;
use imcts::session::{DEFAULT_HISTORY, Session};
use std::io::{BufRead, Write};

/// Arguments of `imcts gomocup`.
#[derive(Args)]
pub struct GomocupArgs {
    /// The player spec.
    #[arg(long, default_value = "mcts")]
    pub player: String,
    /// Milliseconds per move when the manager sends no time information.
    #[arg(long, default_value_t = 1000)]
    pub ms: u64,
    /// A fixed number of simulations per move instead of time (reproducible play).
    #[arg(long)]
    pub sims: Option<u64>,
    /// The rules until a manager's `INFO rule`: outer-open, freestyle or standard.
    #[arg(long, default_value = "outer-open", value_parser = ["outer-open", "freestyle", "standard"])]
    pub rule: String,
    #[command(flatten)]
    pub threads: crate::search::SearchThreadsArgs,
}

/// The rules named on the command line.
fn rules_named(name: &str) -> GomokuRules {
    match name {
        "freestyle" => GomokuRules::FREESTYLE,
        "standard" => GomokuRules::STANDARD,
        _ => GomokuRules::OUTER_OPEN,
    }
}

/// The rules of a Gomocup `INFO rule` bit mask, or why they are refused.
fn rules_of_info(mask: u64) -> Result<GomokuRules, String> {
    if mask & (4 | 8) != 0 {
        return Err(format!(
            "rule {mask}: renju and caro are not supported (freestyle: 0, standard: 1)"
        ));
    }
    Ok(if mask & 1 != 0 {
        GomokuRules::STANDARD
    } else {
        GomokuRules::FREESTYLE
    })
}

/// The error for an opening stone off the ring under outer-open.
fn outer_open_error(mv: Move) -> String {
    format!(
        "illegal move {}: under the outer-open rule Black's first stone goes on the outer ring \
         (x or y in 0-1 or 13-14)",
        write_xy(mv)
    )
}

/// Parses `x,y` into a move.
fn parse_xy(text: &str) -> Option<Move> {
    let (x, y) = text.trim().split_once(',')?;
    let (x, y): (u8, u8) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < 15 && y < 15).then(|| Move::at(x, 14 - y))
}

fn write_xy(mv: Move) -> String {
    format!("{},{}", mv.column(), 14 - mv.row())
}

struct Manager {
    session: Session<Gomoku, DEFAULT_HISTORY>,
    memory: HeapMemory,
    turn_ms: u64,
    time_left_ms: Option<u64>,
    sims: Option<u64>,
    rules: GomokuRules,
}

impl Manager {
    /// A new game under the current rules.
    fn restart(&mut self) {
        self.session
            .set_position(Gomoku::with_rules(self.rules), &mut self.memory);
    }

    /// `INFO rule`: the new rules apply to the game in progress too.
    fn set_rules(&mut self, rules: GomokuRules) -> Result<(), String> {
        let g = self.session.game();
        let game = Gomoku::from_stones(
            g.stones(imcts::Player::First),
            g.stones(imcts::Player::Second),
            rules,
        )
        .map_err(|e| format!("rule {}: {e}", rules.name()))?;
        self.rules = rules;
        self.session.set_position(game, &mut self.memory);
        Ok(())
    }

    fn budget(&self) -> Budget {
        if let Some(n) = self.sims {
            return Budget::iterations(n);
        }
        let mut ms = self.turn_ms.saturating_mul(8) / 10;
        if let Some(left) = self.time_left_ms {
            ms = ms.min(left / 10);
        }
        Budget::millis(ms.max(1))
    }

    fn play(&mut self, mv: Move) -> Result<(), String> {
        let game = self.session.game();
        if game.stone_count() == 0 && !self.rules.free_opening && !RING.contains(mv.0 as usize) {
            return Err(outer_open_error(mv));
        }
        self.session
            .play(mv, &mut self.memory)
            .map_err(|_| format!("illegal move {}", write_xy(mv)))
    }

    /// Thinks, plays and returns our move.
    fn respond(&mut self) -> Result<String, String> {
        if self.session.game().is_terminal() {
            return Err("the game is over".into());
        }
        let mut clock = wall_clock();
        let budget = self.budget();
        let d = self.session.search_parallel(
            budget,
            &mut clock,
            &mut self.memory,
            &mut crate::search::protocol_threads(),
            crate::search::protocol_parallel_settings(),
        );
        let mv = d.best.ok_or("no move")?;
        self.play(mv)?;
        Ok(write_xy(mv))
    }

    /// Builds the position of a BOARD block: `(x, y, field)` with field 1 ours, 2 theirs.
    fn set_board(&mut self, stones: &[(Move, u8)]) -> Result<(), String> {
        if let Some(&(first, _)) = stones.first() {
            if !self.rules.free_opening && !RING.contains(first.0 as usize) {
                return Err(format!("BOARD: {}", outer_open_error(first)));
            }
        }
        let ours = stones.iter().filter(|s| s.1 == 1).count();
        let theirs = stones.len() - ours;
        // We move next: with equal counts we are Black, with one fewer we are White.
        let (own, other, side) = match ours.cmp(&theirs) {
            std::cmp::Ordering::Equal => ('X', 'O', 'b'),
            std::cmp::Ordering::Less if theirs == ours + 1 => ('O', 'X', 'w'),
            _ => return Err("BOARD: stone counts do not fit alternate moves".into()),
        };
        let mut grid = [['.'; 15]; 15];
        for &(mv, field) in stones {
            let cell = &mut grid[mv.row() as usize][mv.column() as usize];
            if *cell != '.' {
                return Err("BOARD: a point is given twice".into());
            }
            *cell = if field == 1 { own } else { other };
        }
        let mut text = String::new();
        for row in (0..15).rev() {
            let mut empty = 0;
            for &c in &grid[row] {
                if c == '.' {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(c);
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            if row > 0 {
                text.push('/');
            }
        }
        text.push(' ');
        text.push(side);
        if self.rules.exact_five {
            text.push_str(" exact5");
        }
        if self.rules.free_opening {
            text.push_str(" free");
        }
        let game = Gomoku::parse_position(&text).map_err(|e| format!("BOARD: {e}"))?;
        self.session.set_position(game, &mut self.memory);
        Ok(())
    }
}

/// Runs the protocol until `END` or end of input.
pub fn serve(args: &GomocupArgs, input: impl BufRead, mut out: impl Write) -> Result<(), String> {
    let (player, memory) = crate::player::build::<Gomoku>(
        &args.player,
        &Budget::default(),
        Some(DEFAULT_NODES),
        None,
    )?;
    let mut m = Manager {
        session: Session::new(player),
        memory,
        turn_ms: args.ms,
        time_left_ms: None,
        sims: args.sims,
        rules: rules_named(&args.rule),
    };
    m.restart();
    let mut lines = input.lines();
    let io = |e: std::io::Error| format!("gomocup I/O: {e}");
    while let Some(line) = lines.next() {
        let line = line.map_err(io)?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let answer: Option<Result<String, String>> = match cmd.to_ascii_uppercase().as_str() {
            "START" => Some(if rest.trim() == "15" {
                m.restart();
                Ok("OK".into())
            } else {
                Err("unsupported size: imcts plays Outer-Open Gomoku on 15x15".into())
            }),
            "RESTART" => {
                m.restart();
                Some(Ok("OK".into()))
            }
            "BEGIN" => Some(m.respond()),
            "TURN" => Some(match parse_xy(rest) {
                None => Err(format!("bad coordinates '{rest}'")),
                Some(mv) => m.play(mv).and_then(|_| m.respond()),
            }),
            "BOARD" => {
                let mut stones = Vec::new();
                let mut bad = None;
                for l in lines.by_ref() {
                    let l = l.map_err(io)?;
                    let l = l.trim().to_string();
                    if l.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    let mut parts = l.split(',');
                    let xy = (parts.next(), parts.next(), parts.next());
                    match xy {
                        (Some(x), Some(y), Some(f)) => {
                            match (parse_xy(&format!("{x},{y}")), f.trim()) {
                                (Some(mv), "1") => stones.push((mv, 1)),
                                (Some(mv), "2") | (Some(mv), "3") => stones.push((mv, 2)),
                                _ => bad = Some(l.clone()),
                            }
                        }
                        _ => bad = Some(l.clone()),
                    }
                }
                Some(match bad {
                    Some(l) => Err(format!("BOARD: bad line '{l}'")),
                    None => m.set_board(&stones).and_then(|_| m.respond()),
                })
            }
            "TAKEBACK" => Some(match (parse_xy(rest), m.session.last_move()) {
                (Some(mv), Some(last)) if mv == last => m
                    .session
                    .undo(&mut m.memory)
                    .map_err(|e| format!("TAKEBACK: {e}"))
                    .map(|_| "OK".to_string()),
                _ => Err(format!("TAKEBACK {rest}: not the last move")),
            }),
            "INFO" => {
                let mut kv = rest.split_whitespace();
                match (kv.next(), kv.next().and_then(|v| v.parse::<u64>().ok())) {
                    (Some("timeout_turn"), Some(v)) if v > 0 => m.turn_ms = v,
                    (Some("time_left"), Some(v)) => m.time_left_ms = Some(v),
                    (Some("rule"), Some(v)) => {
                        if let Err(e) = rules_of_info(v).and_then(|r| m.set_rules(r)) {
                            writeln!(out, "ERROR {e}; playing {}", m.rules.name()).map_err(io)?;
                        }
                    }
                    _ => {}
                }
                None
            }
            "ABOUT" => Some(Ok(format!(
                "name=\"imcts\", version=\"{}\", author=\"imcts developers\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            ))),
            "END" => return Ok(()),
            _ => {
                writeln!(out, "UNKNOWN {cmd}").map_err(io)?;
                None
            }
        };
        match answer {
            Some(Ok(a)) => writeln!(out, "{a}").map_err(io)?,
            Some(Err(e)) => writeln!(out, "ERROR {e}").map_err(io)?,
            None => {}
        }
        out.flush().map_err(io)?;
    }
    Ok(())
}

pub fn run(args: &GomocupArgs) -> Result<(), String> {
    crate::search::set_protocol_search(&args.threads);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(args, stdin.lock(), stdout.lock())
}
