//! Issue 15 item 4 and issue 17 item 5 end to end: `--shard i/N` runs merged by `imcts merge`
//! print exactly what the unsharded run prints (with `--sims` budgets), bad merges are refused
//! with exit code 2, and `--plot` writes the sweep as SVG.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn imcts(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(args)
        .output()
        .expect("run imcts")
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

/// Runs a command that must fail with exit code 2 and a message; returns the message.
fn fails(args: &[&str]) -> String {
    let out = imcts(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("shard");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Plays `base` unsharded and as `n` shards; returns (unsharded stdout, merged stdout, shard
/// records) for `json` or text output.
fn sharded_vs_whole(name: &str, base: &[&str], n: usize, json: bool) -> (String, String) {
    let mut whole_args = base.to_vec();
    let whole_rec = scratch(&format!("{name}-whole.jsonl"));
    whole_args.extend(["--record", s(&whole_rec)]);
    if json {
        whole_args.push("--json");
    }
    let whole = succeeds(&whole_args);
    let mut records = Vec::new();
    for i in 0..n {
        let rec = scratch(&format!("{name}-{i}.jsonl"));
        let shard = format!("{i}/{n}");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard, "--record", s(&rec)]);
        succeeds(&args);
        records.push(rec);
    }
    // Shards in reverse order: merge does not care.
    let mut merge_args = vec!["merge"];
    merge_args.extend(records.iter().rev().map(|p| s(p)));
    if json {
        merge_args.push("--json");
    }
    let merged = succeeds(&merge_args);
    // The unsharded record merges to the same summary too.
    let mut alone = vec!["merge", s(&whole_rec)];
    if json {
        alone.push("--json");
    }
    assert_eq!(
        succeeds(&alone),
        whole,
        "{name}: the unsharded record alone"
    );
    (whole, merged)
}

#[test]
fn sharded_matches_merge_to_the_unsharded_summary() {
    // Breakthrough: each game on its own; three shards of 5 games (2, 2 and 1 games).
    let breakthrough = [
        "match",
        "breakthrough",
        "--a",
        "mcts(ipp,im0.4)",
        "--b",
        "mcts(ipp)",
        "--games",
        "5",
        "--sims",
        "60",
        "--seed",
        "7",
        "--threads",
        "2",
    ];
    for json in [true, false] {
        let (whole, merged) = sharded_vs_whole("bt", &breakthrough, 3, json);
        assert_eq!(merged, whole, "json {json}");
        if json {
            let v: serde_json::Value = serde_json::from_str(whole.trim()).unwrap();
            assert_eq!(v["games"], 5);
            assert!(v.get("shard").is_none(), "{v}");
        }
    }
    // Kalah: paired random boards, so a shard holds whole pairs (pair p goes to shard p mod N).
    let kalah = [
        "match",
        "kalah",
        "--a",
        "mcts(fet4,im0.3)",
        "--b",
        "mcts(fet4)",
        "--games",
        "8",
        "--sims",
        "100",
        "--seed",
        "3",
    ];
    for json in [true, false] {
        let (whole, merged) = sharded_vs_whole("kalah", &kalah, 2, json);
        assert_eq!(merged, whole, "json {json}");
    }
    let r0 = std::fs::read_to_string(scratch_path("kalah-0.jsonl")).unwrap();
    let mut idx: Vec<u64> = r0
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    idx.sort_unstable();
    assert_eq!(idx, vec![0, 1, 4, 5], "shard 0/2 holds pairs 0 and 2");
}

/// A scratch file's path without deleting it.
fn scratch_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("shard")
        .join(name)
}

#[test]
fn a_sharded_experiment_merges_and_plots_like_the_unsharded_one() {
    let base = [
        "experiment",
        "kalah-fig1",
        "--games",
        "4",
        "--sims",
        "80",
        "--seed",
        "5",
        "--quiet",
    ];
    for json in [true, false] {
        let (whole, merged) = sharded_vs_whole("fig1", &base, 2, json);
        assert_eq!(merged, whole, "json {json}");
        if json {
            assert_eq!(whole.lines().count(), 6, "{whole}");
        }
    }
    // --plot on the run and on the merge: the same SVG, with our series and the paper's point.
    let svg_run = scratch("fig1-run.svg");
    let mut args = base.to_vec();
    args.extend(["--json", "--plot", s(&svg_run)]);
    succeeds(&args);
    let svg_merge = scratch("fig1-merge.svg");
    succeeds(&[
        "merge",
        s(&scratch_path("fig1-0.jsonl")),
        s(&scratch_path("fig1-1.jsonl")),
        "--plot",
        s(&svg_merge),
    ]);
    let a = std::fs::read_to_string(&svg_run).unwrap();
    let b = std::fs::read_to_string(&svg_merge).unwrap();
    assert_eq!(a, b);
    assert!(a.starts_with("<svg"), "{}", &a[..80.min(a.len())]);
    assert!(
        a.contains("ours: mcts(fet4,imα) vs mcts(fet4)"),
        "no series label"
    );
    assert!(
        a.contains("paper: mcts(fet4,imα) vs mcts(fet4)"),
        "no paper point"
    );
    assert!(
        a.contains("kalah-fig1: 4 games a point, 80 sims"),
        "no caption"
    );
    assert!(a.matches("<circle").count() >= 1, "no data points");
    // The same sweep played as six resumable matches (one record each, as docs/results.md runs
    // the paper-budget points): merged, the experiment's rows and the same SVG.
    let mut records = Vec::new();
    for alpha in ["0.1", "0.2", "0.3", "0.4", "0.5", "0.7"] {
        let path = scratch(&format!("fig1-match-{alpha}.jsonl"));
        let a_spec = format!("mcts(fet4,im{alpha})");
        succeeds(&[
            "match",
            "kalah",
            "--a",
            &a_spec,
            "--b",
            "mcts(fet4)",
            "--games",
            "4",
            "--sims",
            "80",
            "--seed",
            "5",
            "--quiet",
            "--record",
            s(&path),
        ]);
        records.push(path);
    }
    let mut merge: Vec<&str> = vec!["merge"];
    merge.extend(records.iter().rev().map(|p| s(p)));
    let mut whole_args = base.to_vec();
    whole_args.push("--json");
    let mut rows: Vec<String> = succeeds(&whole_args).lines().map(String::from).collect();
    let mut merged: Vec<String> = succeeds(&[&merge[..], &["--json"]].concat())
        .lines()
        .map(String::from)
        .collect();
    rows.sort();
    merged.sort();
    assert_eq!(merged, rows);
    let svg_matches = scratch("fig1-matches.svg");
    succeeds(&[&merge[..], &["--plot", s(&svg_matches)]].concat());
    assert_eq!(std::fs::read_to_string(&svg_matches).unwrap(), a);
    // One match alone is no sweep.
    let e = fails(&["merge", s(&records[0]), "--plot", s(&scratch("one.svg"))]);
    assert!(e.contains("records of one match"), "{e}");
    // Not a sweep over α: refused before any game.
    let e = fails(&[
        "experiment",
        "table2",
        "--games",
        "2",
        "--plot",
        s(&scratch("t2.svg")),
    ]);
    assert!(e.contains("not a sweep over α"), "{e}");
}

#[test]
fn bad_shards_and_bad_merges_are_refused() {
    for bad in ["2/2", "1/0", "x", "1", "-1/3", "1/2/3", " /2"] {
        let flag = format!("--shard={bad}");
        let e = fails(&[
            "match",
            "tictactoe",
            "--a",
            "mcts",
            "--b",
            "mcts",
            "--sims",
            "10",
            &flag,
        ]);
        assert!(e.contains("is not a shard"), "{bad}: {e}");
    }
    let e = fails(&["experiment", "fig3", "--shard", "3/2"]);
    assert!(e.contains("is not a shard"), "{e}");
    let play = play_ttt;
    let s0 = play("ttt-0.jsonl", "0/2", "1");
    let s1 = play("ttt-1.jsonl", "1/2", "1");
    let s1_other_seed = play("ttt-1-seed2.jsonl", "1/2", "2");
    let s1_of_3 = play("ttt-1-of-3.jsonl", "1/3", "1");
    succeeds(&["merge", s(&s0), s(&s1)]);
    let e = fails(&["merge", s(&s0)]);
    assert!(
        e.contains("missing games") && e.contains("games 1, 3, 5") && e.contains("1/2"),
        "{e}"
    );
    let e = fails(&["merge", s(&s0), s(&s1), s(&s1)]);
    assert!(e.contains("overlapping shards"), "{e}");
    let copy = scratch("ttt-1-copy.jsonl");
    std::fs::copy(&s1, &copy).unwrap();
    let e = fails(&["merge", s(&s0), s(&s1), s(&copy)]);
    assert!(e.contains("overlapping shards"), "{e}");
    let e = fails(&["merge", s(&s0), s(&s1_other_seed)]);
    assert!(
        e.contains("mismatched configurations") && e.contains("seed"),
        "{e}"
    );
    let e = fails(&["merge", s(&s0), s(&s1_of_3)]);
    assert!(e.contains("mismatched configurations"), "{e}");
    // A result that its moves do not give.
    let text = std::fs::read_to_string(&s1).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let r = v["a_result"].as_i64().unwrap();
    v["a_result"] = (if r == 1 { 0 } else { 1 }).into();
    let forged = scratch("ttt-forged.jsonl");
    let rest: Vec<&str> = text.lines().skip(1).collect();
    std::fs::write(&forged, format!("{v}\n{}\n", rest.join("\n"))).unwrap();
    let e = fails(&["merge", s(&s0), s(&forged)]);
    assert!(e.contains("not what its moves give"), "{e}");
    let e = fails(&["merge", s(&s0), s(&s1), "--plot", s(&scratch("m.svg"))]);
    assert!(e.contains("--plot"), "{e}");
    let empty = scratch("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let e = fails(&["merge", s(&empty)]);
    assert!(e.contains("no games"), "{e}");
    let e = fails(&["merge", "/nonexistent/records.jsonl"]);
    assert!(e.contains("cannot read"), "{e}");
    // --resume checks the shard as well.
    let e = fails(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts(im0.4)",
        "--games",
        "6",
        "--sims",
        "50",
        "--seed",
        "1",
        "--shard",
        "0/2",
        "--resume",
        s(&s1),
    ]);
    assert!(e.contains("shard 1/2"), "{e}");
}

#[test]
fn a_sharded_tournament_runs_round_by_round_and_merges_to_the_unsharded_one() {
    let base = [
        "tournament",
        "kalah",
        "--players",
        "mcts(fet4)",
        "mcts(fet4,im0.3)",
        "mcts(fet4,im0.5)",
        "mcts",
        "--games-per-match",
        "4",
        "--sims",
        "60",
        "--seed",
        "9",
    ];
    for json in [false, true] {
        let mut whole_args = base.to_vec();
        if json {
            whole_args.push("--json");
        }
        let whole = succeeds(&whole_args);
        // Two rounds: each shard plays its share of round 1 and stops; then, given every
        // record so far, its share of round 2.
        let mut records: Vec<PathBuf> = Vec::new();
        for round in 1..=2 {
            let mut new = Vec::new();
            for i in 0..2 {
                let rec = scratch(&format!("tour-{json}-r{round}-{i}.jsonl"));
                let shard = format!("{i}/2");
                let mut args = base.to_vec();
                args.extend(["--shard", &shard, "--record", s(&rec)]);
                if !records.is_empty() {
                    args.push("--known");
                    args.extend(records.iter().map(|p| s(p)));
                }
                let out = succeeds(&args);
                assert!(!out.contains("Winner"), "{out}");
                new.push(rec);
            }
            records.extend(new);
        }
        let mut merge_args = vec!["merge"];
        merge_args.extend(records.iter().map(|p| s(p)));
        if json {
            merge_args.push("--json");
        }
        assert_eq!(succeeds(&merge_args), whole, "json {json}");
        // Without round 2's games the bracket cannot be finished.
        let e = fails(&merge_args[..3]);
        assert!(e.contains("missing games") && e.contains("round 2"), "{e}");
    }
    // Records of another tournament (another seed) are refused as --known.
    let mut args = base.to_vec();
    args[base.len() - 1] = "10";
    let known = scratch_path("tour-false-r1-0.jsonl");
    args.extend(["--shard", "1/2", "--known", s(&known)]);
    let e = fails(&args);
    assert!(e.contains("mismatched configurations"), "{e}");
}

#[test]
fn the_paper_budget_refuses_presets_without_java_rates() {
    // Table 4 plays αβ in every row, and the Java table has MCTS rates only.
    let e = fails(&["experiment", "table4", "--budget", "paper", "--games", "2"]);
    assert!(e.contains("no row of table4 has Java rates"), "{e}");
    let e = fails(&["experiment", "fig3", "--budget", "paper", "--sims", "10"]);
    assert!(e.contains("cannot be used with"), "{e}");
}

/// `merge --pool-seeds`: complete runs of one match with other seeds add up (each run checked
/// as a whole, sharded or not); without the flag they are refused, naming the flag.
#[test]
fn runs_of_other_seeds_pool_with_pool_seeds() {
    let play = play_ttt;
    let whole1 = play("pool-1.jsonl", "0/1", "1");
    let whole2 = play("pool-2.jsonl", "0/1", "2");
    let half1 = [
        play("pool-1-0.jsonl", "0/2", "1"),
        play("pool-1-1.jsonl", "1/2", "1"),
    ];
    let summary = |args: &[&str]| -> serde_json::Value {
        serde_json::from_str(succeeds(args).trim()).unwrap()
    };
    let one = summary(&["merge", s(&whole1), "--json"]);
    let two = summary(&["merge", s(&whole2), "--json"]);
    let pooled = summary(&["merge", s(&whole2), s(&whole1), "--pool-seeds", "--json"]);
    for f in ["a_wins", "b_wins", "draws", "games"] {
        assert_eq!(
            pooled[f].as_u64().unwrap(),
            one[f].as_u64().unwrap() + two[f].as_u64().unwrap(),
            "{f}: {pooled}"
        );
    }
    assert_eq!(pooled["seeds"], serde_json::json!([1, 2]), "{pooled}");
    assert_eq!(pooled["seed"], 1, "{pooled}");
    // A run given as its shards pools the same.
    let sharded = summary(&[
        "merge",
        s(&half1[1]),
        s(&whole2),
        s(&half1[0]),
        "--pool-seeds",
        "--json",
    ]);
    assert_eq!(sharded, pooled);
    // One run alone: the plain summary.
    assert_eq!(
        summary(&["merge", s(&whole1), "--pool-seeds", "--json"]),
        one
    );
    let text = succeeds(&["merge", s(&whole1), s(&whole2), "--pool-seeds"]);
    assert!(text.contains("pooled runs with seeds 1, 2"), "{text}");
    // Refused: without the flag; an incomplete run; another configuration.
    let e = fails(&["merge", s(&whole1), s(&whole2)]);
    assert!(e.contains("seed") && e.contains("--pool-seeds"), "{e}");
    let e = fails(&["merge", s(&whole2), s(&half1[0]), "--pool-seeds"]);
    assert!(e.contains("missing games") && e.contains("seed 1"), "{e}");
    let other = scratch("pool-other.jsonl");
    succeeds(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts(im0.4)",
        "--games",
        "6",
        "--sims",
        "60",
        "--seed",
        "3",
        "--record",
        s(&other),
    ]);
    let e = fails(&["merge", s(&whole1), s(&other), "--pool-seeds"]);
    assert!(
        e.contains("mismatched configurations") && e.contains("budget"),
        "{e}"
    );
}

/// Six games of Tic-Tac-Toe, `mcts` against `mcts(im0.4)` at 50 simulations, as shard `shard`
/// with seed `seed`, recorded to the scratch file `name`.
fn play_ttt(name: &str, shard: &str, seed: &str) -> PathBuf {
    let rec = scratch(name);
    succeeds(&[
        "match",
        "tictactoe",
        "--a",
        "mcts",
        "--b",
        "mcts(im0.4)",
        "--games",
        "6",
        "--sims",
        "50",
        "--seed",
        seed,
        "--shard",
        shard,
        "--record",
        s(&rec),
    ]);
    rec
}
