//! Progress bars of `match`: on stderr only when it is a terminal, off with `--quiet`, and the
//! JSON output the same either way.

use std::process::Command;

const MATCH: &[&str] = &[
    "match",
    "tictactoe",
    "--a",
    "mcts",
    "--b",
    "mcts(seed3)",
    "--games",
    "40",
    "--sims",
    "300",
];

fn imcts(extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(MATCH)
        .args(extra)
        .output()
        .expect("run imcts")
}

#[test]
fn no_bar_on_a_pipe_and_json_unchanged_by_quiet() {
    let plain = imcts(&["--json"]);
    let quiet = imcts(&["--json", "--quiet"]);
    assert!(plain.status.success() && quiet.status.success());
    assert!(
        plain.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&plain.stderr)
    );
    assert!(quiet.stderr.is_empty());
    assert_eq!(plain.stdout, quiet.stdout);
    let v: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(v["games"], 40);
}

/// Under a pseudo-terminal (util-linux `script`) the bar shows games done, the score with its
/// Wilson interval (`A 50.0% [21.5, 78.5]`) and an ETA; `--quiet` removes it. Skipped where `script` is missing.
#[test]
fn bar_on_a_terminal_unless_quiet() {
    let bin = env!("CARGO_BIN_EXE_imcts");
    let run = |extra: &str| {
        let cmd = format!(
            "{bin} {} {extra}",
            MATCH.join(" ").replace("mcts(seed3)", "'mcts(seed3)'")
        );
        Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .output()
    };
    let Ok(shown) = run("") else {
        eprintln!("skipped: util-linux 'script' is not installed");
        return;
    };
    let shown = String::from_utf8_lossy(&shown.stdout).to_string();
    for part in ["match [", "/40", "A ", "% [", "ETA "] {
        assert!(shown.contains(part), "{part:?} in {shown:?}");
    }
    let quiet = String::from_utf8_lossy(&run("--quiet").unwrap().stdout).to_string();
    assert!(!quiet.contains("ETA"), "{quiet:?}");
    assert!(quiet.contains("40 games of tictactoe"), "{quiet:?}");
}
