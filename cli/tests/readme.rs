//! The README's command table covers the command line: every subcommand `imcts --help` lists has
//! a row, and every flag its `--help` lists appears in that row.

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(args)
        .arg("--help")
        .output()
        .expect("run imcts --help");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn readme_table_lists_every_command_and_flag() {
    let readme = include_str!("../../README.md");
    let top = help(&[]);
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert!(commands.len() >= 10, "{commands:?}");
    for cmd in commands {
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| `imcts {cmd}")))
            .unwrap_or_else(|| panic!("README has no row for imcts {cmd}"));
        for line in help(&[cmd]).lines() {
            // Option lines look like `  -h, --help  …` or `      --sims <SIMS>  …`.
            if !line.trim_start().starts_with('-') {
                continue;
            }
            let Some(flag) = line.split_whitespace().find(|w| w.starts_with("--")) else {
                continue;
            };
            if flag == "--help" || flag == "--version" {
                continue;
            }
            let flag = flag.trim_end_matches(',');
            assert!(
                row.contains(flag),
                "README row of imcts {cmd} lacks {flag}: {row}"
            );
        }
    }
}
