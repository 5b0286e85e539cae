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
         TAKEBACK 3,3\nBOARD\n7,7,2\n0,0,1\n8,8,2\nDONE\nFOO\nEND\nBEGIN\n",
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
        "START 15\nINFO timeout_turn 500\nBOARD\n3,7,2\n4,7,2\n5,7,2\n6,7,2\n2,7,1\n14,0,1\n0,14,1\n14,14,1\nDONE\nEND\n",
    );
    assert_eq!(a[0], "OK");
    assert_eq!(xy(&a[1]), (7, 7));
}
