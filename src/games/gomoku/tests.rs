//! Gomoku: bitboards against the grid reference, make/undo, rules, candidates, notation.

extern crate std;

use super::reference::ReferenceGomoku;
use super::*;
use crate::game::perft;
use crate::games::conformance::play_random;
use crate::rng::{below, seeded};

type PosString = heapless::String<512>;

fn position_string(pos: &Gomoku) -> PosString {
    let mut s = PosString::new();
    pos.write_position(&mut s).unwrap();
    s
}

/// A seeded random game prefix of up to `plies` plies (it stops at the end of the game).
fn random_position(seed: u64, plies: u32, rules: GomokuRules) -> Gomoku {
    let mut rng = seeded(seed);
    let mut pos = Gomoku::with_rules(rules);
    play_random(&mut pos, &mut rng, plies);
    pos
}

/// A random game played to the end, backed off by `back` plies.
fn near_end_position(seed: u64, back: usize) -> Gomoku {
    let mut rng = seeded(seed);
    let mut pos = Gomoku::start();
    let mut list = MoveList::new();
    let mut played: heapless::Vec<Move, 225> = heapless::Vec::new();
    loop {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[below(&mut rng, list.len() as u32) as usize];
        pos.make(mv);
        played.push(mv).unwrap();
    }
    for _ in 0..back.min(played.len()) {
        let mv = played.pop().unwrap();
        pos.undo(mv, ());
    }
    pos
}

fn rules(exact: bool) -> GomokuRules {
    GomokuRules {
        exact_five: exact,
        free_opening: false,
    }
}

/// Prints data-file lines for positions near the end of random games (run with `--ignored`).
#[test]
#[ignore]
fn print_reference_perft() {
    for (seed, back, depth) in [(1u64, 3usize, 3u32), (2, 2, 2), (3, 4, 2), (5, 1, 3)] {
        let mut pos = near_end_position(seed, back);
        let r = ReferenceGomoku::from_position(&pos);
        let a = perft(&mut pos, depth);
        let b = r.perft(depth);
        std::println!("{}; {depth}; {a} (reference {b})", position_string(&pos));
    }
}

#[test]
fn perft_2_and_every_move_agree_with_reference_from_240_random_positions() {
    for seed in 0..240u64 {
        let exact = seed % 4 == 1;
        let mut pos = if seed.is_multiple_of(3) {
            near_end_position(seed, (seed % 5) as usize)
        } else {
            random_position(seed, (seed * 7919 % 150) as u32, rules(exact))
        };
        let r = ReferenceGomoku::from_position(&pos);
        assert_eq!(pos.outcome(), r.outcome(), "seed {seed}");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(list.as_slice(), r.moves().as_slice(), "seed {seed}");
        assert_eq!(pos.count_moves(), list.len() as u64);
        for &mv in &list {
            pos.make(mv);
            assert_eq!(ReferenceGomoku::from_position(&pos), r.play(mv));
            assert_eq!(pos.outcome(), r.play(mv).outcome(), "seed {seed} {mv:?}");
            pos.undo(mv, ());
        }
        assert_eq!(perft(&mut pos, 2), r.perft(2), "seed {seed}");
    }
}

#[test]
fn make_undo_restores_every_state_over_1000_games() {
    let mut rng = seeded(77);
    let mut list = MoveList::new();
    let mut wins = 0;
    for g in 0..1000u32 {
        let mut pos = Gomoku::with_rules(rules(g.is_multiple_of(5)));
        let mut history: heapless::Vec<(Gomoku, Move), 225> = heapless::Vec::new();
        loop {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                if matches!(pos.outcome(), Some(Outcome::Win(_))) {
                    wins += 1;
                }
                assert!(pos.outcome().is_some());
                break;
            }
            let mv = list[below(&mut rng, list.len() as u32) as usize];
            history.push((pos, mv)).unwrap();
            pos.make(mv);
        }
        while let Some((before, mv)) = history.pop() {
            pos.undo(mv, ());
            assert_eq!(pos, before);
        }
        assert_eq!(pos, Gomoku::with_rules(rules(g.is_multiple_of(5))));
    }
    assert!(
        wins > 900,
        "random games should mostly end with a row of five"
    );
}

#[test]
fn opening_must_be_on_the_outer_ring() {
    let start = Gomoku::start();
    let mut list = MoveList::new();
    start.legal_moves(&mut list);
    assert_eq!(list.len(), 104);
    assert_eq!(RING.count(), 104);
    assert_eq!(
        start.parse_move("h8").unwrap_err().problem,
        Problem::Illegal
    );
    assert_eq!(
        start.parse_move("c3").unwrap_err().problem,
        Problem::Illegal
    );
    for ok in ["a1", "b2", "o15", "n8", "h2", "h14", "B7"] {
        assert!(start.parse_move(ok).is_ok(), "{ok}");
    }
    let mut p = start;
    p.make(p.parse_move("a1").unwrap());
    assert!(p.parse_move("h8").is_ok());
    assert_eq!(p.count_moves(), 224);
}

#[test]
fn five_wins_and_overlines_depend_on_the_rules() {
    // Black a1 b1 c1 e1 f1, White far away; Black to move.
    let text = "O1O1O1O1O6/15/15/15/15/15/15/15/15/15/15/15/15/15/XXX1XX9 b";
    for exact in [false, true] {
        let mut t: PosString = PosString::new();
        t.push_str(text).unwrap();
        if exact {
            t.push_str(" exact5").unwrap();
        }
        let mut pos = Gomoku::parse_position(&t).unwrap();
        assert_eq!(pos.outcome(), None);
        let mv = pos.parse_move("d1").unwrap();
        pos.make(mv);
        // a1..f1 is six in a row.
        let want = if exact {
            None
        } else {
            Some(Outcome::Win(Player::First))
        };
        assert_eq!(pos.outcome(), want, "exact {exact}");
        assert_eq!(
            pos.outcome(),
            ReferenceGomoku::from_position(&pos).outcome()
        );
        pos.undo(mv, ());
        // g1 does not make a five either way (e1 f1 g1 is three, a1-c1 separate).
        let mv = pos.parse_move("g1").unwrap();
        pos.make(mv);
        assert_eq!(pos.outcome(), None);
        pos.undo(mv, ());
    }
    // A diagonal five: Black c3 d4 e5 f6, plays g7 (or b2).
    let text = "O1O1O1O8/15/15/15/15/15/15/15/15/5X9/4X10/3X11/2X12/15/15 b exact5";
    let mut pos = Gomoku::parse_position(text).unwrap();
    pos.make(pos.parse_move("g7").unwrap());
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(pos.evaluate(GomokuEval::Windows, Player::Second), -1.0);
    // A built position: the winner must be the side that just moved.
    assert!(
        Gomoku::parse_position("O1O1O1O8/15/15/15/15/15/15/15/15/15/15/15/15/15/XXXXX10 w").is_ok()
    );
    assert!(matches!(
        Gomoku::parse_position("O1O1O1O1O6/15/15/15/15/15/15/15/15/15/15/15/15/15/XXXXX10 b")
            .unwrap_err()
            .problem,
        Problem::Inconsistent(_)
    ));
}

#[test]
fn a_full_board_without_five_is_a_draw() {
    // Rows of XXOO, shifted by two per row: no five in any direction.
    let (mut black, mut white) = (WideBitboard::EMPTY, WideBitboard::EMPTY);
    for r in 0..15u8 {
        for c in 0..15u8 {
            if (c + 2 * r) % 4 < 2 {
                black.toggle(r * 16 + c);
            } else {
                white.toggle(r * 16 + c);
            }
        }
    }
    // Balance to 113 Black / 112 White without creating a five.
    let mut sq = 0u8;
    while black.count() != 113 {
        if BOARD.contains(sq as usize) {
            let from_white = black.count() < 113 && white.contains(sq as usize);
            let from_black = black.count() > 113 && black.contains(sq as usize);
            if from_white || from_black {
                black.toggle(sq);
                white.toggle(sq);
                if has_five(black, false) || has_five(white, false) {
                    black.toggle(sq);
                    white.toggle(sq);
                }
            }
        }
        sq += 1;
    }
    // Take one Black stone back and let Black play it.
    let last = black.iter().next().unwrap();
    black.toggle(last);
    let mut pos = Gomoku::from_stones(black, white, GomokuRules::default()).unwrap();
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(pos.count_moves(), 1);
    pos.make(Move(last));
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(
        ReferenceGomoku::from_position(&pos).outcome(),
        Some(Outcome::Draw)
    );
    assert_eq!(pos.count_moves(), 0);
    assert_eq!(pos.evaluate(GomokuEval::Windows, Player::First), 0.0);
}

#[test]
fn candidate_moves_are_the_points_near_stones() {
    let start = Gomoku::start();
    let mut list = MoveList::new();
    start.candidate_moves(1, &mut list);
    assert_eq!(list.len(), 104);
    let mut p = start;
    p.make(Move::at(0, 0)); // a1
    p.candidate_moves(1, &mut list);
    assert_eq!(
        list.as_slice(),
        &[Move::at(1, 0), Move::at(0, 1), Move::at(1, 1)]
    );
    p.candidate_moves(2, &mut list);
    assert_eq!(list.len(), 8);
    p.candidate_moves(0, &mut list);
    assert_eq!(list.len(), 224, "k = 0 falls back to every legal move");
    let mut p = start;
    p.make(Move::at(7, 1)); // h2
    p.make(Move::at(7, 7)); // h8
    p.candidate_moves(1, &mut list);
    assert_eq!(list.len(), 8 + 8);
    // Against a brute-force Chebyshev check.
    for seed in 0..100u64 {
        let pos = random_position(seed, (seed % 40) as u32, GomokuRules::default());
        if pos.stone_count() == 0 || pos.is_terminal() {
            continue;
        }
        let k = (seed % 3 + 1) as u8;
        pos.candidate_moves(k, &mut list);
        let stones = pos.stones(Player::First) | pos.stones(Player::Second);
        let mut want: heapless::Vec<Move, 225> = heapless::Vec::new();
        for sq in pos.legal_set().iter() {
            let m = Move(sq);
            let near = stones.iter().any(|s| {
                let s = Move(s);
                s.row().abs_diff(m.row()) <= k && s.column().abs_diff(m.column()) <= k
            });
            if near {
                want.push(m).unwrap();
            }
        }
        assert_eq!(list.as_slice(), want.as_slice(), "seed {seed} k {k}");
    }
}

#[test]
fn evaluation_prefers_threats_and_is_symmetric() {
    let start = Gomoku::start();
    assert_eq!(start.evaluate(GomokuEval::Windows, Player::First), 0.0);
    // Black has an open three in the centre, White scattered stones on the edge.
    let text = "O13O/15/15/15/15/15/15/5XXX7/15/15/15/15/15/15/O14 b";
    let pos = Gomoku::parse_position(text).unwrap();
    let v = pos.evaluate(GomokuEval::Windows, Player::First);
    assert!(v > 0.2, "{v}");
    assert_eq!(pos.evaluate(GomokuEval::Windows, Player::Second), -v);
    for seed in 0..100 {
        let p = random_position(seed, 60, GomokuRules::default());
        let v = p.evaluate(GomokuEval::Windows, Player::Second);
        assert!((-1.0..=1.0).contains(&v));
    }
    // A lone stone in the centre has 4·5 = 20 one-stone windows.
    let one = WideBitboard::square(Move::at(7, 7).0);
    assert_eq!(eval::window_score(one, WideBitboard::EMPTY), 20);
    // In the corner: 3 windows (one per direction that fits).
    assert_eq!(
        eval::window_score(WideBitboard::square(0), WideBitboard::EMPTY),
        3
    );
}

#[test]
fn points_moves_and_positions_round_trip() {
    assert_eq!(Gomoku::parse_point("h8"), Ok(Move::at(7, 7).0));
    assert_eq!(Gomoku::parse_point("O15"), Ok(Move::at(14, 14).0));
    let s = position_string(&Gomoku::start());
    assert_eq!(s.as_str(), "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b");
    for seed in 0..200u64 {
        let pos = random_position(seed, (seed % 120) as u32, rules(seed.is_multiple_of(2)));
        let s = position_string(&pos);
        assert_eq!(Gomoku::parse_position(&s), Ok(pos), "{s}");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for &mv in &list {
            let m = crate::game::move_string(&pos, mv);
            assert_eq!(pos.parse_move(&m), Ok(mv), "{m}");
            assert_eq!(Gomoku::decode_move(Gomoku::encode_move(mv)), Some(mv));
        }
    }
    assert_eq!(Gomoku::decode_move(15), None);
    assert_eq!(Gomoku::decode_move(240), None);
    assert_eq!(Gomoku::decode_move(1000), None);
}

#[test]
fn bad_input_gets_typed_errors_and_never_panics() {
    let mut p = Gomoku::start();
    p.make(Move::at(0, 0));
    let e = |s: &str| p.parse_move(s).unwrap_err();
    assert_eq!(e("").problem, Problem::Empty);
    assert_eq!(e("p1").problem, Problem::OutOfRange);
    assert_eq!(e("a16").problem, Problem::OutOfRange);
    assert_eq!(e("a0").problem, Problem::OutOfRange);
    assert_eq!(e("a01").problem, Problem::OutOfRange);
    assert_eq!(e("a100").problem, Problem::OutOfRange);
    assert_eq!(e("a").problem, Problem::Missing);
    assert_eq!(e("h8x").problem, Problem::UnexpectedChar('x'));
    assert_eq!(e("é8").problem, Problem::UnexpectedChar('é'));
    assert_eq!(e("a1").problem, Problem::Illegal);

    let q = |s: &str| Gomoku::parse_position(s).unwrap_err();
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    assert_eq!(q("").problem, Problem::Empty);
    assert_eq!(q(empty).field, "side to move");
    let mut t = PosString::new();
    t.push_str(empty).unwrap();
    t.push_str(" b exact5 more").unwrap();
    assert_eq!(q(&t).problem, Problem::Extra);
    assert_eq!(
        q("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 w").field,
        "side to move"
    );
    assert_eq!(
        q("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 q").problem,
        Problem::UnexpectedChar('q')
    );
    assert_eq!(
        q("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b x").field,
        "rules"
    );
    assert_eq!(
        q("15/15/15/15/15/15/15/15/15/15/15/15/15/15 b").field,
        "board"
    );
    let err = q("15/15/14/15/15/15/15/15/15/15/15/15/15/15/15 b");
    assert_eq!((err.field, err.index), ("row", Some(3)));
    assert_eq!(
        q("16/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b").index,
        Some(1)
    );
    assert_eq!(
        q("X15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b").index,
        Some(1)
    );
    assert_eq!(
        q("05/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b").index,
        Some(1)
    );
    assert_eq!(
        q("99999999999999999/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b").index,
        Some(1)
    );
    assert!(matches!(
        q("XX13/15/15/15/15/15/15/15/15/15/15/15/15/15/15 w").problem,
        Problem::Inconsistent(_)
    ));
    let mut rng = seeded(12);
    let chars: heapless::Vec<char, 24> = "XO/ 0123456789bwé15exact".chars().collect();
    for _ in 0..20_000 {
        let mut s: heapless::String<128> = heapless::String::new();
        for _ in 0..below(&mut rng, 100) {
            let _ = s.push(chars[below(&mut rng, chars.len() as u32) as usize]);
        }
        let _ = Gomoku::parse_position(&s);
        let _ = p.parse_move(&s);
    }
}

/// Times the two ways of detecting a win (run with `--ignored --nocapture`, ideally with
/// `--release`): the lines through the last stone versus shift-and over the whole board.
#[test]
#[ignore]
fn measure_win_detection() {
    use std::hint::black_box;
    use std::time::Instant;
    let positions: heapless::Vec<(Gomoku, Move), 64> = (0..64u64)
        .map(|s| {
            let mut p = random_position(s, 20 + (s % 60) as u32, GomokuRules::default());
            if p.is_terminal() {
                p = random_position(s, 10, GomokuRules::default());
            }
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            (p, list[0])
        })
        .collect();
    let rounds = 20_000;
    let t = Instant::now();
    let mut hits = 0u32;
    for _ in 0..rounds {
        for (p, mv) in &positions {
            let mut q = *p;
            q.stones[q.side.index()].toggle(mv.0);
            hits += black_box(&q).wins_at(q.side, black_box(mv.0)) as u32;
        }
    }
    let last = t.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
    let t = Instant::now();
    for _ in 0..rounds {
        for (p, mv) in &positions {
            let mut q = *p;
            q.stones[q.side.index()].toggle(mv.0);
            hits += has_five(black_box(q.stones[q.side.index()]), false) as u32;
        }
    }
    let whole = t.elapsed().as_nanos() as f64 / (rounds * positions.len()) as f64;
    std::println!("last stone: {last:.1} ns, whole board: {whole:.1} ns ({hits} wins)");
}

/// The Gomocup rules: freestyle and standard open anywhere, outer-open only on the ring; the
/// rule survives a position string and is part of the key.
#[test]
fn free_opening_rules_round_trip_and_open_anywhere() {
    let centre = Gomoku::parse_point("h8").unwrap();
    let outer = Gomoku::new();
    assert!(!outer.is_legal(Move(centre)));
    assert_eq!(outer.legal_set().count(), 104);
    for rules in [GomokuRules::FREESTYLE, GomokuRules::STANDARD] {
        let g = Gomoku::with_rules(rules);
        assert!(g.is_legal(Move(centre)));
        assert_eq!(g.legal_set().count(), POINTS as u32);
        let mut text = std::string::String::new();
        g.write_position(&mut text).unwrap();
        let back = Gomoku::parse_position(&text).unwrap();
        assert_eq!(back.rules(), rules, "{text}");
        assert_ne!(back.key(), outer.key());
    }
    assert_eq!(GomokuRules::STANDARD.name(), "standard");
    assert_eq!(GomokuRules::default(), GomokuRules::OUTER_OPEN);
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b";
    assert_eq!(
        Gomoku::parse_position(&std::format!("{empty} free"))
            .unwrap()
            .rules(),
        GomokuRules::FREESTYLE
    );
    for bad in ["free exact5", "exact5 exact5", "free free", "open"] {
        assert!(
            Gomoku::parse_position(&std::format!("{empty} {bad}")).is_err(),
            "{bad}"
        );
    }
}
