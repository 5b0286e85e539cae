//! Issue 13, the command line under hostile input: sizes that cannot be allocated, zero budgets,
//! inputs that used to be accepted silently, records that survive Ctrl-C and resume, and the
//! Wilson interval. Every error exits with code 2 and a message, never an abort.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn imcts(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(args)
        .output()
        .expect("run imcts")
}

/// Runs a command that must fail with exit code 2; returns its stderr.
fn fails(args: &[&str]) -> String {
    let out = imcts(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{args:?}: {err}"
    );
    err
}

fn succeeds(args: &[&str]) -> String {
    let out = imcts(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hardening");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn sizes_that_cannot_be_allocated_are_errors() {
    let e = fails(&[
        "search",
        "breakthrough",
        "--sims",
        "100",
        "--pool",
        "99999999999",
    ]);
    assert!(e.contains("--pool must be between 1 and 4294967294"), "{e}");
    let e = fails(&[
        "search",
        "breakthrough",
        "--sims",
        "100",
        "--player",
        "ab(tt99999999999)",
    ]);
    assert!(
        e.contains("cannot allocate 99999999999 transposition-table entries"),
        "{e}"
    );
    let e = fails(&[
        "match",
        "breakthrough",
        "--a",
        "mcts",
        "--b",
        "ab(tt99999999999)",
        "--sims",
        "10",
    ]);
    assert!(e.contains("cannot allocate"), "{e}");
    let e = fails(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "10",
        "--games",
        "99999999999",
    ]);
    assert!(
        e.contains("cannot allocate 99999999999 game records"),
        "{e}"
    );
}

#[test]
fn zero_budgets_are_refused_and_a_spent_node_budget_is_reported() {
    for flag in ["--sims", "--ms", "--nodes"] {
        let e = fails(&["search", "breakthrough", flag, "0"]);
        assert!(e.contains(&format!("{flag} must be at least 1")), "{e}");
    }
    let e = fails(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "0",
    ]);
    assert!(e.contains("--sims must be at least 1"), "{e}");
    // The engine protocol: zero is refused; a node budget the root's expansion already spends
    // says so (it used to say pool-full).
    let mut child = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(b"game breakthrough\ngo sims 0\ngo nodes 0\ngo nodes 1\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines[1], "error go sims: must be at least 1");
    assert_eq!(lines[2], "error go nodes: must be at least 1");
    assert!(lines[3].starts_with("ok bestmove "), "{}", lines[3]);
    assert!(
        lines[3].contains(" sims 0 ") && lines[3].ends_with("stop nodes"),
        "{}",
        lines[3]
    );
}

#[test]
fn specs_that_cannot_search_fail_when_parsed() {
    for spec in ["mcts(pbnan)", "mcts(pbinf)", "mcts(pb-inf)", "mcts(pb1e39)"] {
        let e = fails(&["search", "breakthrough", "--sims", "10", "--player", spec]);
        assert!(e.contains("finite"), "{spec}: {e}");
    }
    for spec in ["ab(depth65)", "ab(depth100)", "ab(depth4294967295)"] {
        let e = fails(&["search", "breakthrough", "--sims", "10", "--player", spec]);
        assert!(e.contains("from 1 to 64"), "{spec}: {e}");
    }
}

#[test]
fn silently_accepted_inputs_are_refused_with_a_reason() {
    let m = [
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "10",
    ];
    let e = fails(&[&m[..], &["--threads", "0"]].concat());
    assert!(e.contains("--threads must be at least 1"), "{e}");
    let e = fails(&["experiment", "table2", "--games", "0"]);
    assert!(e.contains("--games must be at least 1"), "{e}");
    let e = fails(&["experiment", "table2", "--threads", "0"]);
    assert!(e.contains("--threads must be at least 1"), "{e}");
    let e = fails(&[
        "match", "kalah", "--a", "mcts", "--b", "mcts", "--sims", "10", "--games", "3",
    ]);
    assert!(e.contains("--games must be even (got 3)"), "{e}");
    let e = fails(&["experiment", "table4", "--sims", "100"]);
    assert!(e.contains("--sims has no effect on table4"), "{e}");
    // A bad spec in the last match of a later round is found before round 1 is played.
    let out = imcts(&[
        "tournament",
        "tictactoe",
        "--players",
        "mcts",
        "mcts(im0.5)",
        "mcts(c1)",
        "mcts(zzz)",
        "--sims",
        "10",
        "--games-per-match",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stdout).is_empty(),
        "a round was played"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("zzz"));
    // Numbers out of range name the range.
    for (spec, range) in [
        ("mcts(ipp,np99999999999)", "to 65535"),
        ("mcts(mb99999999999)", "to 4294967295"),
        ("mcts(fet-1)", "to 4294967295"),
        ("mcts(seed-1)", "to 18446744073709551615"),
    ] {
        let e = fails(&["search", "breakthrough", "--sims", "10", "--player", spec]);
        assert!(e.contains(range), "{spec}: {e}");
    }
    // An evaluation of another game: the message lists this game's.
    let e = fails(&["search", "kalah", "--sims", "10", "--player", "mcts(efMS)"]);
    assert!(
        e.contains("unknown label") && e.contains("kalah evaluations: store"),
        "{e}"
    );
}

#[test]
fn openings_files_allow_comments_and_errors_give_line_numbers() {
    let path = scratch("openings.txt");
    std::fs::write(
        &path,
        "# two openings\n\n.../.X./... o   # centre\n.../.../X.. o\nX../.../... q\n",
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let e = fails(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "10",
        "--openings",
        p,
    ]);
    assert!(e.contains(&format!("{p}:5: bad tictactoe opening")), "{e}");
    std::fs::write(
        &path,
        "# two openings\n.../.X./... o   # centre\n.../.../X.. o\n",
    )
    .unwrap();
    let out = succeeds(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "10",
        "--games",
        "4",
        "--openings",
        p,
        "--json",
    ]);
    assert_eq!(json(&out)["games"], 4);
}

#[test]
fn a_bad_record_path_fails_before_any_game() {
    let e = fails(&[
        "match",
        "breakthrough",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "100000",
        "--games",
        "1000",
        "--record",
        "/nonexistent-dir/record.jsonl",
    ]);
    assert!(
        e.contains("cannot create /nonexistent-dir/record.jsonl"),
        "{e}"
    );
}

fn lines_by_index(path: &PathBuf) -> Vec<serde_json::Value> {
    let mut v: Vec<serde_json::Value> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(json)
        .collect();
    v.sort_by_key(|l| l["index"].as_u64().unwrap());
    v
}

#[test]
fn a_resumed_match_equals_one_uninterrupted_run() {
    let base = [
        "match",
        "tictactoe",
        "--a",
        "mcts(im0.4)",
        "--b",
        "mcts",
        "--sims",
        "30",
        "--seed",
        "5",
        "--json",
    ];
    let full = scratch("full.jsonl");
    let whole = succeeds(
        &[
            &base[..],
            &[
                "--games",
                "8",
                "--threads",
                "2",
                "--record",
                full.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    // Three games first (as if cut short), then resumed up to eight on another thread count.
    let part = scratch("part.jsonl");
    let p = part.to_str().unwrap();
    succeeds(&[&base[..], &["--games", "3", "--record", p]].concat());
    assert_eq!(std::fs::read_to_string(&part).unwrap().lines().count(), 3);
    let resumed = succeeds(&[&base[..], &["--games", "8", "--resume", p]].concat());
    assert_eq!(json(&whole), json(&resumed));
    // The same games; the part's first three lines say `games` 3, the run that wrote them.
    let without_count = |p: &PathBuf| {
        let mut v = lines_by_index(p);
        for l in &mut v {
            l.as_object_mut().unwrap().remove("games");
        }
        v
    };
    assert_eq!(without_count(&full), without_count(&part));
    // And `imcts merge` of the resumed record prints the uninterrupted run's summary.
    assert_eq!(json(&whole), json(&succeeds(&["merge", p, "--json"])));
    // A record of another match is refused, with its line.
    let e = fails(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "30",
        "--seed",
        "5",
        "--games",
        "8",
        "--resume",
        p,
    ]);
    assert!(
        e.contains(&format!("{p}:1: a game of another match")),
        "{e}"
    );
}

#[test]
fn sims_b_gives_player_b_its_own_budget_and_resume_keeps_it() {
    let base = [
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "20",
        "--seed",
        "3",
        "--json",
    ];
    let path = scratch("sims-b.jsonl");
    let p = path.to_str().unwrap();
    let with_b = [&base[..], &["--sims-b", "200"]].concat();
    let s = json(&succeeds(
        &[&with_b[..], &["--games", "2", "--record", p]].concat(),
    ));
    let (a, b) = (
        s["a_sims_per_move"].as_f64().unwrap(),
        s["b_sims_per_move"].as_f64().unwrap(),
    );
    // Tic-tac-toe searches stop early only at a proven root, so B ran more than 20 a move.
    assert!(a <= 20.0 && b > 20.0, "A {a}, B {b}");
    for l in lines_by_index(&path) {
        assert_eq!(
            (l["budget"].as_str(), l["b_budget"].as_str()),
            (Some("20 sims"), Some("200 sims"))
        );
    }
    // Resumed without --sims-b, the record's games are another match's: refused, with its line.
    let e = fails(&[&base[..], &["--games", "4", "--resume", p]].concat());
    assert!(
        e.contains(&format!(
            "{p}:1: a game played with budgets A 20 sims, B 200 sims"
        )),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
    // With it, the match continues.
    succeeds(&[&with_b[..], &["--games", "4", "--resume", p]].concat());
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 4);
    // --sims-b needs --sims, and zero is refused.
    fails(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--ms",
        "5",
        "--sims-b",
        "9",
    ]);
    let e = fails(&[&base[..], &["--sims-b", "0"]].concat());
    assert!(e.contains("--sims-b must be at least 1"), "{e}");
}

/// Runs `command` (which records games to `path`), sends it SIGINT once two games are in the
/// record (found by polling the file, not by a timer) and returns its output.
fn interrupt_after_two_recorded_games(mut command: Command, path: &PathBuf) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        let n = std::fs::read_to_string(path).map_or(0, |t| t.lines().count());
        if n >= 2 {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::yield_now();
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}

#[test]
fn ctrl_c_keeps_finished_games_and_prints_the_partial_summary() {
    let path = scratch("interrupted.jsonl");
    let p = path.to_str().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_imcts"));
    command.args([
        "match",
        "breakthrough",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "100",
        "--games",
        "100000",
        "--json",
        "--record",
        p,
    ]);
    let out = interrupt_after_two_recorded_games(command, &path);
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("interrupted:") && err.contains("--resume"),
        "{err}"
    );
    let summary = json(&String::from_utf8_lossy(&out.stdout));
    let recorded = lines_by_index(&path);
    assert!(recorded.len() >= 2);
    assert_eq!(summary["games"], recorded.len());
    let counted = ["a_wins", "b_wins", "draws"]
        .iter()
        .map(|k| summary[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(counted as usize, recorded.len());
    // One thread: the finished games are the first ones, each recorded once.
    for (i, l) in recorded.iter().enumerate() {
        assert_eq!(l["index"], i);
    }
}

#[test]
fn two_draws_give_a_wilson_interval_inside_zero_and_one() {
    // Strong players draw Tic-Tac-Toe.
    let out = succeeds(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "3000",
        "--games",
        "2",
        "--json",
    ]);
    let s = json(&out);
    assert_eq!(s["draws"], 2, "{s}");
    let (lo, hi) = (
        s["ci95_low"].as_f64().unwrap(),
        s["ci95_high"].as_f64().unwrap(),
    );
    assert!(
        (lo - 0.0945).abs() < 1e-3 && (hi - 0.9055).abs() < 1e-3,
        "{s}"
    );
    let text = succeeds(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "3000",
        "--games",
        "2",
    ]);
    assert!(
        text.contains("rate 50.0% (95% interval 9.5-90.5%)"),
        "{text}"
    );
}

#[test]
fn an_experiment_records_every_game_and_checks_the_path_first() {
    let e = fails(&[
        "experiment",
        "kalah-fig1",
        "--games",
        "2",
        "--sims",
        "20",
        "--record",
        "/nonexistent-dir/experiment.jsonl",
    ]);
    assert!(
        e.contains("cannot create /nonexistent-dir/experiment.jsonl"),
        "{e}"
    );
    let path = scratch("experiment.jsonl");
    let out = succeeds(&[
        "experiment",
        "kalah-fig1",
        "--games",
        "2",
        "--sims",
        "20",
        "--json",
        "--record",
        path.to_str().unwrap(),
    ]);
    let rows = out.lines().count();
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(json)
        .collect();
    assert_eq!(lines.len(), 2 * rows);
    for row in out.lines().map(json) {
        let of_row = lines
            .iter()
            .filter(|l| l["a"] == row["a"] && l["b"] == row["b"]);
        assert_eq!(of_row.count(), 2, "{row}");
    }
}

#[test]
fn ctrl_c_stops_a_tournament_with_its_games_in_the_record() {
    let path = scratch("tournament-interrupted.jsonl");
    let p = path.to_str().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_imcts"));
    command.args([
        "tournament",
        "breakthrough",
        "--players",
        "mcts",
        "mcts(c0.2)",
        "--games-per-match",
        "100000",
        "--sims",
        "100",
        "--record",
        p,
    ]);
    let out = interrupt_after_two_recorded_games(command, &path);
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("interrupted: round 1 match 0") && err.contains(&format!("--known {p}")),
        "{err}"
    );
    let recorded = lines_by_index(&path);
    assert!(recorded.len() >= 2);
    for (i, l) in recorded.iter().enumerate() {
        assert_eq!(l["index"], i);
    }
}

#[test]
fn a_tournament_resumed_into_its_own_record_keeps_the_earlier_games() {
    let args = [
        "tournament",
        "tictactoe",
        "--players",
        "mcts",
        "mcts(c0.2)",
        "mcts(nosolver)",
        "--games-per-match",
        "4",
        "--sims",
        "50",
        "--json",
    ];
    let whole = succeeds(&args);
    let path = scratch("tournament-resumed.jsonl");
    let p = path.to_str().unwrap();
    let mut with_record = args.to_vec();
    with_record.extend(["--record", p]);
    assert_eq!(succeeds(&with_record), whole);
    let all = std::fs::read_to_string(&path).unwrap();
    assert_eq!(all.lines().count(), 8);
    // As if the run had stopped after three games: resume with the record as --known and as
    // --record. The record is appended to, not truncated, and the result is the same.
    let first: String = all.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, &first).unwrap();
    let mut resumed = with_record.clone();
    resumed.extend(["--known", p]);
    assert_eq!(succeeds(&resumed), whole);
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.starts_with(&first));
    assert_eq!(after.lines().count(), 8);
}
