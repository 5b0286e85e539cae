//! `imcts match` end to end: bookkeeping, seats, determinism across thread counts, records.

use std::process::Command;

fn imcts(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(args)
        .output()
        .expect("run imcts");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

/// The record's lines in game order (they are written as games finish, which with several
/// threads need not be game order).
fn record_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    let mut lines: Vec<serde_json::Value> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(json)
        .collect();
    lines.sort_by_key(|l| l["index"].as_u64());
    lines
}

#[test]
fn a_short_match_keeps_its_books_and_repeats_with_one_or_two_threads() {
    let dir = std::env::temp_dir().join(format!("imcts-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec1 = dir.join("t1.jsonl");
    let rec2 = dir.join("t2.jsonl");
    let base = [
        "match",
        "breakthrough",
        "--a",
        "mcts(ipp,im0.4)",
        "--b",
        "mcts(ipp)",
        "--games",
        "6",
        "--sims",
        "300",
        "--seed",
        "11",
        "--json",
    ];
    let run = |threads: &str, rec: &std::path::Path| {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(["--threads", threads, "--record", rec.to_str().unwrap()]);
        let (ok, out, err) = imcts(&args);
        assert!(ok, "{err}");
        json(&out)
    };
    let s1 = run("1", &rec1);
    let s2 = run("2", &rec2);
    // Totals add up and the rate matches them.
    let (w, l, d) = (
        s1["a_wins"].as_u64().unwrap(),
        s1["b_wins"].as_u64().unwrap(),
        s1["draws"].as_u64().unwrap(),
    );
    assert_eq!(w + l + d, 6);
    assert_eq!(s1["games"], 6);
    let rate = s1["a_rate"].as_f64().unwrap();
    assert!((rate - (w as f64 + 0.5 * d as f64) / 6.0).abs() < 1e-12);
    // ci95 is half the 95% Wilson interval, which contains the rate.
    let ci = s1["ci95"].as_f64().unwrap();
    let (lo, hi) = (
        s1["ci95_low"].as_f64().unwrap(),
        s1["ci95_high"].as_f64().unwrap(),
    );
    assert!((ci - (hi - lo) / 2.0).abs() < 1e-12);
    assert!(0.0 <= lo && lo <= rate && rate <= hi && hi <= 1.0);
    for key in ["game", "a", "b"] {
        assert!(s1.get(key).is_some(), "{key}");
    }
    // The same seed gives the same games with 1 and 2 threads.
    assert_eq!(s1, s2);
    let r1 = record_lines(&rec1);
    let r2 = record_lines(&rec2);
    assert_eq!(r1, r2);
    assert_eq!(r1.len(), 6);
    // Seats alternate, and each record's result agrees with the tally.
    let mut wins = 0;
    for (i, r) in r1.iter().enumerate() {
        assert_eq!(r["index"], i);
        assert_eq!(r["a_seat"], if i % 2 == 0 { "first" } else { "second" });
        let a_result = r["a_result"].as_i64().unwrap();
        let expected = match (r["result"].as_str().unwrap(), r["a_seat"].as_str().unwrap()) {
            ("1-0", "first") | ("0-1", "second") => 1,
            ("1/2", _) => 0,
            _ => -1,
        };
        assert_eq!(a_result, expected);
        if a_result == 1 {
            wins += 1;
        }
        assert!(!r["moves"].as_array().unwrap().is_empty());
    }
    assert_eq!(wins, w);
    // A different seed gives different games.
    let mut args: Vec<&str> = base.to_vec();
    args[11] = "12";
    let rec3 = dir.join("t3.jsonl");
    args.extend(["--record", rec3.to_str().unwrap()]);
    assert!(imcts(&args).0);
    assert_ne!(record_lines(&rec3), r1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn kalah_plays_paired_random_boards() {
    let dir = std::env::temp_dir().join(format!("imcts-kalah-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("k.jsonl");
    let (ok, out, err) = imcts(&[
        "match",
        "kalah",
        "--a",
        "mcts(fet4,im0.3)",
        "--b",
        "mcts(fet4)",
        "--games",
        "6",
        "--sims",
        "200",
        "--threads",
        "2",
        "--json",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let s = json(&out);
    let counted = s["a_wins"].as_u64().unwrap()
        + s["b_wins"].as_u64().unwrap()
        + s["draws"].as_u64().unwrap();
    assert_eq!(counted + s["discarded"].as_u64().unwrap(), 3, "3 pairs");
    let r = record_lines(&rec);
    for pair in r.chunks(2) {
        // Both games of a pair start from the same random board, seats swapped.
        assert_eq!(pair[0]["start"], pair[1]["start"]);
        assert_ne!(pair[0]["a_seat"], pair[1]["a_seat"]);
        assert_ne!(
            pair[0]["start"].as_str().unwrap(),
            "4,4,4,4,4,4/4,4,4,4,4,4/0-0 s",
            "random boards, not the initial one"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_match_input_fails_clearly() {
    let (ok, _, err) = imcts(&[
        "match",
        "breakthrough",
        "--a",
        "mcts(zzz)",
        "--b",
        "mcts",
        "--sims",
        "10",
    ]);
    assert!(!ok);
    assert!(err.contains("zzz"), "{err}");
    let (ok, _, err) = imcts(&[
        "match", "chess", "--a", "mcts", "--b", "mcts", "--sims", "10",
    ]);
    assert!(!ok);
    assert!(err.contains("unknown game"), "{err}");
    let (ok, _, err) = imcts(&["match", "breakthrough", "--a", "mcts", "--b", "mcts"]);
    assert!(!ok, "a budget is required: {err}");
    let (ok, _, err) = imcts(&[
        "match",
        "breakthrough",
        "--a",
        "mcts",
        "--b",
        "mcts",
        "--sims",
        "10",
        "--openings",
        "/nonexistent/openings.txt",
    ]);
    assert!(!ok);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn a_tournament_prints_rounds_and_one_winner() {
    let (ok, out, err) = imcts(&[
        "tournament",
        "tictactoe",
        "--players",
        "mcts",
        "mcts(c0.2)",
        "mcts(nosolver)",
        "--games-per-match",
        "2",
        "--sims",
        "50",
        "--json",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<serde_json::Value> = out.lines().map(json).collect();
    // Three players: round 1 has one match (and a bye), round 2 the final.
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0]["round"], 1);
    assert_eq!(lines[1]["round"], 2);
    let champion = lines[2]["champion"].as_str().unwrap();
    assert_eq!(champion, lines[1]["winner"].as_str().unwrap());
    let (ok, _, err) = imcts(&[
        "tournament",
        "tictactoe",
        "--players",
        "mcts",
        "--sims",
        "5",
    ]);
    assert!(!ok, "one player is not a tournament: {err}");
}
