//! `imcts gomocup` through a scripted manager session.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(script: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_imcts"))
        .args(["gomocup", "--sims", "3000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start imcts gomocup");
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn xy(s: &str) -> (u8, u8) {
    let (x, y) = s.split_once(',').unwrap_or_else(|| panic!("not x,y: {s}"));
    (x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn a_manager_session() {
    let a = session(
        "ABOUT\nSTART 20\nSTART 15\nINFO timeout_turn 100\nBEGIN\nTURN 7,7\nTURN 7,7\nTURN 99,1\n\
         TAKEBACK 3,3\nBOARD\n0,0,2\n7,7,1\n8,8,2\nDONE\nFOO\nEND\nBEGIN\n",
    );
    assert!(a[0].starts_with("name=\"imcts\""));
    assert!(a[1].starts_with("ERROR"));
    assert_eq!(a[2], "OK");
    // Our opening stone as Black is on the outer ring (two outermost rows or columns).
    let (x, y) = xy(&a[3]);
    assert!(!(2..=12).contains(&x) || !(2..=12).contains(&y), "{x},{y}");
    let (x, y) = xy(&a[4]);
    assert!(x < 15 && y < 15 && (x, y) != (7, 7));
    assert!(a[5].starts_with("ERROR illegal move 7,7"), "{}", a[5]);
    assert!(!a[5].contains("outer-open"), "not an opening: {}", a[5]);
    assert!(a[6].starts_with("ERROR bad coordinates"));
    assert!(a[7].starts_with("ERROR TAKEBACK"));
    let (x, y) = xy(&a[8]);
    assert!(![(7, 7), (0, 0), (8, 8)].contains(&(x, y)));
    assert_eq!(a[9], "UNKNOWN FOO");
    assert_eq!(a.len(), 10, "nothing after END: {a:?}");
}

#[test]
fn blocks_an_open_four() {
    // White (the manager) has four in a row on row y=7 from x=3 to x=6, closed at 2,7 by one of
    // our (Black's) stones: every move but 7,7 loses at once.
    let a = session(
        "START 15\nINFO timeout_turn 500\nBOARD\n14,0,1\n3,7,2\n2,7,1\n4,7,2\n0,14,1\n5,7,2\n14,14,1\n6,7,2\nDONE\nEND\n",
    );
    assert_eq!(a[0], "OK");
    assert_eq!(xy(&a[1]), (7, 7));
}

/// `TURN 7,7` on an empty board and a `BOARD` whose first stone is 7,7 agree: both refused
/// naming the rule under outer-open, both accepted under freestyle (`INFO rule 0`) and
/// standard (`INFO rule 1`); renju is refused and the rule stays.
#[test]
fn opening_rules_agree_between_turn_and_board() {
    let a = session("START 15\nTURN 7,7\nBOARD\n7,7,2\nDONE\nEND\n");
    assert_eq!(a[0], "OK");
    for line in &a[1..3] {
        assert!(line.starts_with("ERROR"), "{line}");
        assert!(
            line.contains("illegal move 7,7: under the outer-open rule"),
            "{line}"
        );
    }
    assert_eq!(a.len(), 3, "{a:?}");
    for rule in ["0", "1", "3"] {
        let b = session(&format!(
            "INFO rule {rule}\nSTART 15\nTURN 7,7\nRESTART\nBOARD\n7,7,2\nDONE\nEND\n"
        ));
        assert_eq!(b.len(), 4, "rule {rule}: {b:?}");
        assert_eq!(b[0], "OK");
        for reply in [&b[1], &b[3]] {
            let (x, y) = xy(reply);
            assert!(x < 15 && y < 15 && (x, y) != (7, 7), "{reply}");
        }
    }
    let c = session("INFO rule 4\nSTART 15\nTURN 7,7\nEND\n");
    assert!(c[0].starts_with("ERROR rule 4: renju"), "{c:?}");
    assert!(c[0].ends_with("playing outer-open"), "{c:?}");
    assert!(c[2].contains("outer-open rule"), "{c:?}");
}

/// Standard: an overline does not win. The manager has six in a row on y=0 and we are to
/// move: under standard the game goes on and we answer a move; under freestyle it is over.
#[test]
fn standard_rule_overline_does_not_win() {
    let board = "BOARD\n14,14,1\n0,0,2\n14,12,1\n1,0,2\n14,10,1\n2,0,2\n12,14,1\n3,0,2\n\
                 10,14,1\n4,0,2\n7,7,1\n5,0,2\nDONE\n";
    let standard = session(&format!("INFO rule 1\nSTART 15\n{board}END\n"));
    assert_eq!(standard[0], "OK");
    let (x, y) = xy(&standard[1]);
    assert!(
        x < 15 && y < 15,
        "the game goes on under standard: {standard:?}"
    );
    let free = session(&format!("INFO rule 0\nSTART 15\n{board}END\n"));
    assert!(free[1].starts_with("ERROR the game is over"), "{free:?}");
}
