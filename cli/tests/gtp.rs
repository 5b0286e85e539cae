//! `imcts gtp` driven by a small GTP v2 controller written here from the specification (gomill
//! is Python 2 only): two engine processes play a full game of Gomoku and of Tic-Tac-Toe, as
//! twogtp would run them, and every reply's framing (`=`/`?`, the id, the blank line) is checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// One engine under the controller.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u32,
}

impl Engine {
    fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_imcts"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start imcts gtp");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    /// Sends `cmd` with a fresh id; returns `Ok(text)` for `=` and `Err(text)` for `?`,
    /// checking the id and the terminating blank line.
    fn ask(&mut self, cmd: &str) -> Result<String, String> {
        let id = self.next_id;
        self.next_id += 1;
        writeln!(self.stdin, "{id} {cmd}").unwrap();
        self.stdin.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            assert!(self.stdout.read_line(&mut l).unwrap() > 0, "engine closed");
            let l = l.trim_end_matches(['\n', '\r']).to_string();
            if l.is_empty() {
                break;
            }
            lines.push(l);
        }
        let first = lines.first().expect("a reply before the blank line");
        let (ok, rest) = match first.as_bytes()[0] {
            b'=' => (true, &first[1..]),
            b'?' => (false, &first[1..]),
            _ => panic!("reply must start with = or ?: {first:?}"),
        };
        let rest = rest
            .strip_prefix(&id.to_string())
            .unwrap_or_else(|| panic!("reply to {id} carries its id: {first:?}"));
        let mut text = rest.trim_start().to_string();
        for l in &lines[1..] {
            text.push('\n');
            text.push_str(l);
        }
        if ok { Ok(text) } else { Err(text) }
    }

    fn ok(&mut self, cmd: &str) -> String {
        self.ask(cmd)
            .unwrap_or_else(|e| panic!("{cmd} failed: {e}"))
    }

    fn quit(mut self) {
        assert_eq!(self.ok("quit"), "");
        assert!(self.child.wait().unwrap().success());
    }
}

/// A full game between two engines; returns the final score and the moves.
fn play_game(size: u32, black: &[&str], white: &[&str]) -> (String, Vec<String>) {
    let mut engines = [Engine::start(black), Engine::start(white)];
    for e in &mut engines {
        assert_eq!(e.ok("protocol_version"), "2");
        e.ok(&format!("boardsize {size}"));
        e.ok("clear_board");
        e.ok("komi 0");
        e.ok("time_settings 0 1 1");
    }
    let colours = ["b", "w"];
    let mut moves = Vec::new();
    let mut passes = 0;
    let mut turn = 0;
    while passes < 2 && moves.len() < 300 {
        let mv = engines[turn].ok(&format!("genmove {}", colours[turn]));
        if mv.eq_ignore_ascii_case("pass") {
            passes += 1;
        } else {
            passes = 0;
        }
        engines[1 - turn].ok(&format!("play {} {mv}", colours[turn]));
        moves.push(mv);
        turn = 1 - turn;
    }
    assert_eq!(passes, 2, "the game ended: {moves:?}");
    let scores: Vec<String> = engines.iter_mut().map(|e| e.ok("final_score")).collect();
    assert_eq!(scores[0], scores[1], "both engines agree on the result");
    for e in engines {
        e.quit();
    }
    (scores[0].clone(), moves)
}

#[test]
fn full_tictactoe_game_between_two_engines() {
    let (score, moves) = play_game(
        3,
        &["--game", "tictactoe", "--sims", "3000"],
        &["--game", "tictactoe", "--sims", "3000"],
    );
    // Perfect play draws; both solvers find it with 3000 simulations.
    assert_eq!(score, "0", "{moves:?}");
    assert_eq!(moves.len(), 9 + 2, "{moves:?}");
}

#[test]
fn full_gomoku_game_between_two_engines() {
    let (score, moves) = play_game(
        15,
        &["--sims", "300", "--pool", "200000"],
        &[
            "--player",
            "mcts(seed5)",
            "--sims",
            "300",
            "--pool",
            "200000",
        ],
    );
    assert!(["B+1", "W+1", "0"].contains(&score.as_str()), "{score}");
    // The opening stone is on the outer ring (outer-open: the two outer lines), in GTP letters.
    let first = &moves[0];
    let col = first.chars().next().unwrap();
    let row: u32 = first[1..].parse().unwrap();
    assert!(
        "ABOP".contains(col) || [1, 2, 14, 15].contains(&row),
        "{first} is on the outer ring"
    );
}

#[test]
fn commands_errors_undo_and_showboard() {
    let mut e = Engine::start(&["--game", "tictactoe", "--sims", "200"]);
    let list = e.ok("list_commands");
    for c in [
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
    ] {
        assert!(list.lines().any(|l| l == c), "{c} listed");
        assert_eq!(e.ok(&format!("known_command {c}")), "true");
    }
    assert_eq!(e.ok("known_command frobnicate"), "false");
    assert_eq!(e.ok("name"), "imcts");
    assert_eq!(e.ask("frobnicate"), Err("unknown command".into()));
    assert_eq!(e.ask("boardsize 19"), Err("unacceptable size".into()));
    // White may not move first; a bad vertex and an occupied point are refused.
    assert!(e.ask("play w b2").unwrap_err().contains("b's turn"));
    assert!(e.ask("play b z9").unwrap_err().contains("invalid vertex"));
    e.ok("play b b2");
    assert!(e.ask("play w B2").unwrap_err().contains("illegal move"));
    assert!(e.ask("final_score").is_err());
    let board = e.ok("showboard");
    assert!(board.contains(" 2  . X . 2"), "{board}");
    e.ok("undo");
    assert!(e.ok("showboard").contains(" 2  . . . 2"));
    assert!(e.ask("undo").is_err());
    assert!(
        e.ask("imcts-player mcts(zz)")
            .unwrap_err()
            .contains("bad player spec")
    );
    e.ok("imcts-player ab");
    assert_eq!(e.ok("imcts-player"), "ab");
    let mv = e.ok("genmove b");
    assert!(mv.len() == 2, "{mv}");
    e.ok("time_left w 10 0");
    assert!(e.ok("genmove w").len() == 2);
    // Comments, an empty line and a command without id.
    writeln!(e.stdin, "# a comment\n\nname").unwrap();
    e.stdin.flush().unwrap();
    let mut l = String::new();
    e.stdout.read_line(&mut l).unwrap();
    assert_eq!(l, "= imcts\n");
    l.clear();
    e.stdout.read_line(&mut l).unwrap();
    assert_eq!(l, "\n");
    e.quit();
}

#[test]
fn gomoku_vertices_skip_the_letter_i() {
    let mut e = Engine::start(&["--sims", "50", "--pool", "100000"]);
    // J15 is imcts's i15 (outer ring): the stone shows in the J column of row 15.
    e.ok("play black J15");
    let board = e.ok("showboard");
    let row15 = board.lines().find(|l| l.starts_with("15")).unwrap();
    let header = board.lines().find(|l| l.contains(" A B")).unwrap();
    let col = header.find('J').unwrap();
    assert_eq!(&row15[col..col + 1], "X", "{board}");
    assert!(e.ask("play w I8").unwrap_err().contains("invalid vertex"));
    e.quit();
}
