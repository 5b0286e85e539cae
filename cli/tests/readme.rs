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

/// `imcts search --help` lists exactly the kernel's spec labels, each written with its number's
/// form (`name`, `name<n>`, `name[<n>]`) and the range its check allows, in the tables' order:
/// the parser, the README grammar (checked in `src/search/spec.rs`) and `--help` agree.
#[test]
fn search_help_lists_the_label_tables() {
    use imcts::search::spec::{ALPHABETA_LABEL_ROWS, MCTS_LABEL_ROWS, Number};
    let text = help(&["search"]);
    let labels = text
        .split("Player spec labels:")
        .nth(1)
        .expect("imcts search --help has a label list");
    for (title, table) in [
        ("mcts labels:", MCTS_LABEL_ROWS),
        ("ab labels:", ALPHABETA_LABEL_ROWS),
    ] {
        let section = labels
            .split(title)
            .nth(1)
            .unwrap_or_else(|| panic!("no '{title}' in --help"));
        let rows: Vec<&str> = section
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect();
        assert_eq!(rows.len(), table.len(), "{title} {rows:?}");
        for (row, d) in rows.iter().zip(table) {
            let l = d.label;
            let (written, check) = match l.number {
                Number::None => (l.name.to_string(), None),
                Number::Required(c) => (format!("{}<n>", l.name), Some(c)),
                Number::Optional(c, _) => (format!("{}[<n>]", l.name), Some(c)),
            };
            let first = row.split_whitespace().next().unwrap();
            assert_eq!(first, written, "{title} row {row}");
            assert!(row.contains(d.meaning), "{row} lacks '{}'", d.meaning);
            if let Some(c) = check {
                assert!(row.contains(c.allowed()), "{row} lacks '{}'", c.allowed());
            }
        }
    }
}
