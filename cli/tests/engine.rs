//! `imcts engine` driven through a scripted session, bad input included: every command gets
//! exactly one answer line, and failed commands leave the state unchanged.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(script: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start imcts engine");
    {
        let stdin = child.stdin.as_mut().unwrap();
        for line in script {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn scripted_session_with_bad_input() {
    let script = [
        "game breakthrough",
        "show",
        "player mcts(ipp,im0.4)",
        "seed 7",
        "go sims 2000",
        "play e2-e3 d7-d6",
        "show",
        "play e3-e4 a1-a2", // second move illegal: nothing is played
        "show",
        "play b2xc3", // not a capture here
        "player mcts(nonsense)",
        "player",
        "undo 5",
        "undo",
        "show",
        "position 8/8/8/8 w",
        "show",
        "go",
        "go sims ten",
        "game chess",
        "game",
        // h7-g8 is the only move that wins at once (h8 is blocked).
        "position 7p/7P/8/8/8/8/P7/8 w",
        "go sims 1000",
        "play h7-g8",
        "status",
        "go sims 10",
        "play g8-g7",
        "frobnicate",
        "quit",
        "show", // after quit: not answered
    ];
    let answers = session(&script);
    assert_eq!(answers.len(), script.len() - 1, "{answers:#?}");
    let start = "ok pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w";
    let after = "ok pppppppp/ppp1pppp/3p4/8/8/4P3/PPPP1PPP/PPPPPPPP w";
    let expect_prefix = [
        "ok",
        start,
        "ok",
        "ok",
        "ok bestmove ",
        "ok",
        after,
        "error play a1-a2:",
        after,
        "error play b2xc3:",
        "error bad player spec 'nonsense'",
        "ok mcts(ipp,im0.4)",
        "error undo: only 2 moves",
        "ok",
        "ok pppppppp/pppppppp/8/8/8/4P3/PPPP1PPP/PPPPPPPP b",
        "error bad position:",
        "ok pppppppp/pppppppp/8/8/8/4P3/PPPP1PPP/PPPPPPPP b",
        "error go: give a budget",
        "error go sims: expected a whole number",
        "error unknown game 'chess'",
        "ok breakthrough",
        "ok",
        "ok bestmove h7-g8 value 1.0000",
        "ok",
        "ok over first wins",
        "error the game is over",
        "error play g8-g7:",
        "error unknown command 'frobnicate'",
        "ok bye",
    ];
    for (i, (a, want)) in answers.iter().zip(expect_prefix).enumerate() {
        assert!(
            a.starts_with(want),
            "line {i} ({}): got {a:?}, want {want:?}",
            script[i]
        );
    }
    assert!(answers[22].contains("proven win"), "{}", answers[22]);
}

#[test]
fn every_game_answers_moves_and_search() {
    for game in ["breakthrough", "kalah", "tictactoe", "gomoku"] {
        let answers = session(&[
            &format!("game {game}"),
            "moves",
            "go sims 200",
            "status",
            "quit",
        ]);
        assert_eq!(answers[0], "ok");
        assert!(
            answers[1].starts_with("ok ") && answers[1].len() > 3,
            "{game}: {}",
            answers[1]
        );
        let best = answers[2].split_whitespace().nth(2).unwrap().to_string();
        assert!(
            answers[1].split_whitespace().any(|m| m == best),
            "{game}: {best} not legal"
        );
        assert!(answers[3].starts_with("ok ongoing"));
    }
}
