//! `--search-threads` end to end (issue 15): several threads search one tree in `search`,
//! `match` (per player), the protocols; one thread repeats the single-threaded search exactly;
//! bad counts exit with code 2.

use std::io::Write;
use std::process::{Command, Stdio};

fn imcts(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(args)
        .output()
        .expect("run imcts");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

fn search(game: &str, player: &str, threads: &str) -> serde_json::Value {
    let (code, out, err) = imcts(&[
        "search",
        game,
        "--player",
        player,
        "--sims",
        "4000",
        "--seed",
        "3",
        "--pool",
        "200000",
        "--search-threads",
        threads,
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    json(&out)
}

#[test]
fn search_on_several_threads_runs_the_whole_budget_over_one_tree() {
    for (game, player) in [
        ("breakthrough", "mcts(im0.4,efLH)"),
        ("kalah", "mcts(fet4)"),
        ("tictactoe", "mcts"),
    ] {
        let r = search(game, player, "3");
        // All 4000 simulations run, unless the root is proven first.
        if r["stop"] == "proven" {
            assert!(r["sims"].as_u64().unwrap() <= 4000, "{game}: {r}");
        } else {
            assert_eq!(r["sims"], 4000, "{game}: {r}");
        }
        let visits: u64 = r["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["visits"].as_u64().unwrap())
            .sum();
        assert_eq!(visits, r["sims"].as_u64().unwrap(), "{game}: {r}");
    }
}

#[test]
fn one_search_thread_is_the_single_threaded_search() {
    let a = search("breakthrough", "mcts(ipp)", "1");
    let (code, out, err) = imcts(&[
        "search",
        "breakthrough",
        "--player",
        "mcts(ipp)",
        "--sims",
        "4000",
        "--seed",
        "3",
        "--pool",
        "200000",
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let b = json(&out);
    for key in ["best", "value", "nodes", "children", "pv"] {
        assert_eq!(a[key], b[key], "{key}");
    }
}

#[test]
fn bad_thread_counts_exit_with_code_2() {
    for bad in ["0", "257", "x"] {
        let (code, _, err) = imcts(&[
            "search",
            "breakthrough",
            "--sims",
            "10",
            "--search-threads",
            bad,
        ]);
        assert_eq!(code, Some(2), "--search-threads {bad}: {err}");
        assert!(err.contains("search-threads"), "{err}");
    }
}

#[test]
fn a_match_gives_each_player_its_threads() {
    let (code, out, err) = imcts(&[
        "match",
        "breakthrough",
        "--a",
        "mcts(ipp)",
        "--b",
        "mcts(ipp)",
        "--games",
        "2",
        "--sims",
        "300",
        "--search-threads",
        "2",
        "--search-threads-b",
        "1",
        "--json",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let r = json(&out);
    assert_eq!(r["games"], 2, "{r}");
}

#[test]
fn the_protocols_search_on_their_threads() {
    // The line protocol with two search threads.
    let mut child = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(["engine", "--search-threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"game breakthrough\ngo sims 3000\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("ok bestmove") && text.contains("sims 3000"),
        "{text}"
    );
    // UCI: the Threads option is announced and accepted; a bad value is an error line.
    let mut child = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(["uci", "--search-threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"uci\nsetoption name Threads value 0\nsetoption name Threads value 3\n\
              position startpos\ngo nodes 2000\nquit\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("option name Threads type spin default 2 min 1 max 256"),
        "{text}"
    );
    assert!(text.contains("Threads: between 1 and 256"), "{text}");
    assert!(text.contains("bestmove "), "{text}");
}
