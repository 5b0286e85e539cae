//! `imcts uci` driven through stdin/stdout as a GUI would: the handshake, options, bad input,
//! `stop` during `go infinite`, and sudden-death games in every game where the engine must
//! never lose on time.

use imcts::Game;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_imcts"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start imcts uci");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&mut self) -> String {
        let mut s = String::new();
        assert!(self.stdout.read_line(&mut s).unwrap() > 0, "engine closed");
        s.trim_end().to_string()
    }

    /// Lines up to and including the first that starts with `last`.
    fn until(&mut self, last: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = self.line();
            let done = l.starts_with(last);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        assert!(self.child.wait().unwrap().success());
    }
}

#[test]
fn handshake_options_and_bad_input() {
    let mut e = Engine::start();
    e.send("uci");
    let hs = e.until("uciok");
    assert!(hs[0].starts_with("id name imcts"));
    assert!(hs.iter().any(|l| l.starts_with("id author")));
    for opt in ["Game type combo", "Player type string", "Pool type spin"] {
        assert!(hs.iter().any(|l| l.contains(opt)), "{opt} in {hs:?}");
    }
    e.send("setoption name Game value chess");
    e.send("setoption name Player value mcts(zz)");
    e.send("setoption name Pool value 0");
    e.send("position startpos moves a2-a3 a2-a3");
    e.send("isready");
    let errs = e.until("readyok");
    assert_eq!(errs.len(), 5, "{errs:?}");
    assert!(errs[0].contains("unknown game 'chess'"), "{errs:?}");
    assert!(errs[1].contains("bad player spec"), "{errs:?}");
    assert!(errs[2].contains("Pool"), "{errs:?}");
    assert!(errs[3].contains("move a2-a3"), "{errs:?}");
    // The failed position changed nothing: the start position is searched.
    e.send("setoption name Player value mcts(ipp,im0.4,seed3)");
    e.send("setoption name Pool value 100000");
    e.send("position startpos moves a2-a3");
    e.send("go nodes 500");
    let out = e.until("bestmove");
    let info = out.iter().find(|l| l.starts_with("info depth")).unwrap();
    for word in [" nodes ", " nps ", " score cp ", " pv ", "string value "] {
        assert!(info.contains(word), "{word} in {info}");
    }
    assert!(
        out.iter().rev().nth(1).unwrap().contains("nodes 500 "),
        "{out:?}"
    );
    let mv = out.last().unwrap().strip_prefix("bestmove ").unwrap();
    let mut g = imcts::games::breakthrough::Breakthrough::new();
    let first = g.parse_move("a2-a3").unwrap();
    g.make(first);
    assert!(g.parse_move(mv).is_ok(), "{mv} legal for Black");
    e.quit();
}

#[test]
fn position_strings_and_finished_games() {
    let mut e = Engine::start();
    e.send("setoption name Game value tictactoe");
    // X has three in a row: the game is over.
    e.send("position startpos moves a1 b1 a2 b2 a3");
    e.send("go nodes 100");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove (none)");
    let start = imcts::games::tictactoe::TicTacToe::new();
    let mut text = String::new();
    start.write_position(&mut text).unwrap();
    e.send(&format!("position pos {text} moves b2"));
    e.send("go nodes 2000");
    let out = e.until("bestmove");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    assert_ne!(out.last().unwrap(), "bestmove (none)");
    e.quit();
}

/// `go infinite` answers only after `stop`, and then at once (the reply is read with no
/// timing: a search that ignored the stop would hang the test).
#[test]
fn stop_ends_an_infinite_search() {
    let mut e = Engine::start();
    e.send("setoption name Pool value 200000");
    e.send("position startpos");
    e.send("go infinite");
    // An isready during the search is answered while it runs.
    e.send("isready");
    let before = e.until("readyok");
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("stop");
    let out = e.until("bestmove");
    assert!(out.last().unwrap().len() > "bestmove ".len());
    // Same for αβ.
    e.send("setoption name Player value ab(tt1000)");
    e.send("go infinite");
    e.send("stop");
    let out = e.until("bestmove");
    assert!(!out.last().unwrap().contains("(none)"), "{out:?}");
    e.quit();
}

/// One sudden-death game with `clock_ms` per side, the engine playing both sides: the time
/// from `go` to `bestmove` is taken off the mover's clock, which must never go below zero.
fn sudden_death<G: Game>(name: &str, player: &str, clock_ms: i64) {
    let mut e = Engine::start();
    e.send(&format!("setoption name Game value {name}"));
    e.send(&format!("setoption name Player value {player}"));
    e.send("setoption name Pool value 200000");
    e.send("ucinewgame");
    // As GUIs do: the clocks start once the engine is ready (the options built its memory).
    e.send("isready");
    e.until("readyok");
    let mut game = G::new();
    let mut moves: Vec<String> = Vec::new();
    let mut clock = [clock_ms, clock_ms];
    while !game.is_terminal() && moves.len() < 400 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let side = game.side_to_move().index();
        let t0 = Instant::now();
        e.send(&format!("go wtime {} btime {}", clock[0], clock[1]));
        let out = e.until("bestmove");
        clock[side] -= t0.elapsed().as_millis() as i64;
        assert!(
            clock[side] >= 0,
            "{name}: side {side} lost on time after {} plies",
            moves.len()
        );
        let mv = out.last().unwrap().strip_prefix("bestmove ").unwrap();
        let parsed = game.parse_move(mv).expect("a legal move");
        game.make(parsed);
        moves.push(mv.to_string());
    }
    eprintln!(
        "{name}: {} plies, clocks left {clock:?} ms of {clock_ms}",
        moves.len()
    );
    e.quit();
}

/// The 5-minute sudden-death games scaled down to 2 s per side so the test is quick; the
/// budget rule is the same at every scale (a twentieth of the clock, never half). The scaled
/// clock magnifies the cost of one simulation: in this unoptimised test binary a random LOA
/// playout to the end of the game can take 10–20 ms on a loaded machine, so LOA plays with
/// playouts cut at 10 plies (`fet10`).
#[test]
fn sudden_death_games_are_never_lost_on_time() {
    use imcts::games::*;
    sudden_death::<tictactoe::TicTacToe>("tictactoe", "mcts", 2000);
    sudden_death::<breakthrough::Breakthrough>("breakthrough", "mcts(ipp,im0.4)", 2000);
    sudden_death::<kalah::Kalah>("kalah", "ab", 2000);
    sudden_death::<lines_of_action::LinesOfAction>("loa", "mcts(fet10)", 2000);
    sudden_death::<gomoku::Gomoku>("gomoku", "mcts", 2000);
}
