//! Breakthrough: generator against the mailbox reference, make/undo, evaluations, notation.

use super::reference::ReferenceBoard;
use super::*;
use crate::game::{Problem, perft};
use crate::games::conformance::play_random;
use crate::rng::{below, seeded};

/// The bitboard generator's moves, sorted like the reference's.
fn sorted_moves(pos: &Breakthrough) -> heapless::Vec<Move, 64> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut v: heapless::Vec<Move, 64> = list.iter().copied().collect();
    v.sort_unstable_by_key(|m| (m.from, m.to));
    v
}

/// Plays a seeded random game prefix of up to `plies` plies and returns the position.
fn random_position(seed: u64, plies: u32) -> Breakthrough {
    let mut rng = seeded(seed);
    let mut pos = Breakthrough::start();
    play_random(&mut pos, &mut rng, plies);
    pos
}

#[test]
fn perft_depth_3_agrees_with_reference_from_1000_random_positions() {
    for seed in 0..1000u64 {
        let plies = (seed * 7919 % 70) as u32;
        let mut pos = random_position(seed, plies);
        let r = ReferenceBoard::from_position(&pos);
        assert_eq!(perft(&mut pos, 3), r.perft(3), "seed {seed}");
        assert_eq!(sorted_moves(&pos), r.moves(), "seed {seed}");
        assert_eq!(pos.outcome(), r.outcome(), "seed {seed}");
    }
}

#[test]
fn moves_agree_with_reference_and_is_legal_along_random_games() {
    let mut rng = seeded(42);
    let mut list = MoveList::new();
    for _ in 0..300 {
        let mut pos = Breakthrough::start();
        loop {
            let r = ReferenceBoard::from_position(&pos);
            let ours = sorted_moves(&pos);
            assert_eq!(ours, r.moves());
            assert_eq!(pos.count_moves(), ours.len() as u64);
            // is_legal agrees with generation for every from/to pair near the moves.
            for from in 0..64u8 {
                for d in [-9i8, -8, -7, 7, 8, 9] {
                    let to = from as i8 + d;
                    if (0..64).contains(&to) {
                        let mv = Move { from, to: to as u8 };
                        assert_eq!(pos.is_legal(mv), ours.contains(&mv), "{mv:?}");
                    }
                }
            }
            pos.legal_moves(&mut list);
            if list.is_empty() {
                assert!(pos.outcome().is_some());
                break;
            }
            let mv = list[below(&mut rng, list.len() as u32) as usize];
            pos.make(mv);
        }
    }
}

#[test]
fn make_undo_restores_every_state_over_thousands_of_games() {
    let mut rng = seeded(2024);
    let mut list = MoveList::new();
    for _ in 0..3000 {
        let mut pos = Breakthrough::start();
        let mut history: heapless::Vec<(Breakthrough, Move, Undo), 256> = heapless::Vec::new();
        loop {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[below(&mut rng, list.len() as u32) as usize];
            let before = pos.clone();
            let u = pos.make(mv);
            // Incremental evaluation equals a from-scratch rebuild of the same position.
            let rebuilt = Breakthrough::from_bitboards(
                pos.pieces(Player::First),
                pos.pieces(Player::Second),
                pos.side_to_move(),
            )
            .unwrap();
            assert_eq!(pos, rebuilt);
            history.push((before, mv, u)).unwrap();
        }
        while let Some((before, mv, u)) = history.pop() {
            pos.undo(mv, u);
            assert_eq!(pos, before);
        }
        assert_eq!(pos, Breakthrough::start());
    }
}

#[test]
fn games_end_within_the_ply_bound() {
    let mut rng = seeded(5);
    let mut list = MoveList::new();
    for _ in 0..500 {
        let mut pos = Breakthrough::start();
        let mut plies = 0;
        loop {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.make(list[below(&mut rng, list.len() as u32) as usize]);
            plies += 1;
        }
        assert!(plies <= Breakthrough::MAX_GAME_PLIES);
    }
}

#[test]
fn evaluations_are_symmetric_bounded_and_exact_at_terminals() {
    let start = Breakthrough::start();
    for &(_, e) in Breakthrough::EVALS {
        assert_eq!(start.evaluate(e, Player::First), 0.0);
    }
    // White is a piece up: efMS Δ = 10 → tanh(10/60).
    let pos =
        Breakthrough::parse_position("pppppppp/ppppppp1/8/8/8/8/PPPPPPPP/PPPPPPPP w").unwrap();
    let v = pos.evaluate(BreakthroughEval::Schadd, Player::First);
    assert!((v - libm::tanhf(10.0 / 60.0)).abs() < 1e-6);
    assert_eq!(pos.evaluate(BreakthroughEval::Schadd, Player::Second), -v);
    // efLH: Black lost a row-1 h-file piece worth 2 → tanh(2/100).
    let v = pos.evaluate(BreakthroughEval::LorentzHorey, Player::First);
    assert!((v - libm::tanhf(2.0 / 100.0)).abs() < 1e-6);
    // Progress: a White piece on rank 5 gives progress 4 (2 more than the start's 2).
    let pos =
        Breakthrough::parse_position("pppppppp/pppppppp/8/8/P7/8/1PPPPPPP/PPPPPPPP b").unwrap();
    let v = pos.evaluate(BreakthroughEval::Schadd, Player::First);
    assert!((v - libm::tanhf(5.0 / 60.0)).abs() < 1e-6);
    // Terminal: White on rank 8.
    let won = Breakthrough::parse_position("P7/8/8/8/8/8/7p/8 b").unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(
        won.evaluate(BreakthroughEval::LorentzHorey, Player::First),
        1.0
    );
    assert_eq!(won.evaluate(BreakthroughEval::Schadd, Player::Second), -1.0);
    let mut list = MoveList::new();
    won.legal_moves(&mut list);
    assert!(list.is_empty());
    // Random positions stay in [-1, 1].
    for seed in 0..200 {
        let p = random_position(seed, 40);
        for &(_, e) in Breakthrough::EVALS {
            let v = p.evaluate(e, Player::First);
            assert!((-1.0..=1.0).contains(&v));
        }
    }
}

#[test]
fn efms_clamps_at_100() {
    // White: 16 pieces, Black: 2 → Δ = 140 + progress terms, clamped to 100.
    let pos = Breakthrough::parse_position("8/p7/8/8/8/p7/PPPPPPPP/PPPPPPPP w").unwrap();
    let v = pos.evaluate(BreakthroughEval::Schadd, Player::First);
    assert!((v - libm::tanhf(100.0 / 60.0)).abs() < 1e-6);
}

#[test]
fn position_strings_round_trip() {
    let mut s: heapless::String<128> = heapless::String::new();
    Breakthrough::start().write_position(&mut s).unwrap();
    assert_eq!(s.as_str(), "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w");
    for seed in 0..300 {
        let pos = random_position(seed, (seed % 60) as u32);
        let mut s: heapless::String<128> = heapless::String::new();
        pos.write_position(&mut s).unwrap();
        assert_eq!(Breakthrough::parse_position(&s).unwrap(), pos, "{s}");
    }
}

#[test]
fn moves_round_trip_through_notation() {
    for seed in 0..100 {
        let pos = random_position(seed, 30);
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for &mv in &list {
            let s = crate::game::move_string(&pos, mv);
            assert_eq!(pos.parse_move(&s), Ok(mv), "{s}");
            assert_eq!(
                Breakthrough::decode_move(Breakthrough::encode_move(mv)),
                Some(mv)
            );
        }
    }
}

#[test]
fn bad_input_gets_typed_errors() {
    let start = Breakthrough::start();
    let e = |s: &str| start.parse_move(s).unwrap_err();
    assert_eq!(e("").problem, Problem::Empty);
    assert_eq!(
        e("a2a3").problem,
        Problem::BadLength {
            expected: 5,
            found: 4
        }
    );
    assert_eq!(e("i2-a3").field, "from square");
    assert_eq!(e("a2?a3").field, "separator");
    assert_eq!(e("a2-a4").problem, Problem::Illegal);
    assert_eq!(e("a7-a6").problem, Problem::Illegal);
    assert_eq!(e("a2xa3").field, "separator");
    assert_eq!(e("a2-é3").problem, Problem::UnexpectedChar('é'));

    let p = |s: &str| Breakthrough::parse_position(s).unwrap_err();
    assert_eq!(p("").problem, Problem::Empty);
    assert_eq!(p("8/8/8/8/8/8/8/8").field, "side to move");
    assert_eq!(p("8/8/8/8/8/8/8/8 x").problem, Problem::UnexpectedChar('x'));
    assert_eq!(p("8/8/8/8/8/8/8/8 w extra").problem, Problem::Extra);
    assert_eq!(p("9/8/8/8/8/8/8/8 w").problem, Problem::UnexpectedChar('9'));
    let err = p("pppppppp/ppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w");
    assert_eq!((err.field, err.index), ("rank", Some(2)));
    assert_eq!(p("8/8/8/8/8/8/8 w").field, "board");
    assert_eq!(p("8/8/8/8/8/8/8/8/8 w").field, "board");
    assert!(matches!(
        p("P7/8/8/8/8/8/8/p7 w").problem,
        Problem::Inconsistent(_)
    ));
    assert!(matches!(
        p("pppppppp/pppppppp/pppppppp/8/8/8/PPPPPPPP/PPPPPPPP w").problem,
        Problem::Inconsistent(_)
    ));
}

#[test]
fn random_playout_move_is_uniform_over_legal_moves() {
    let pos = random_position(3, 20);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut counts = [0u32; MAX_MOVES];
    let mut rng = seeded(9);
    let draws = 200 * list.len() as u32;
    for _ in 0..draws {
        let mv = pos.random_playout_move(&mut rng);
        let i = list.iter().position(|&m| m == mv).expect("legal move");
        counts[i] += 1;
    }
    for &c in &counts[..list.len()] {
        assert!((120..=280).contains(&c), "{c} of {draws}");
    }
}

#[test]
fn the_fast_random_playout_leaves_a_valid_state_and_ends_games_by_the_rules() {
    let mut rng = seeded(77);
    for seed in 0..500 {
        let mut pos = random_position(seed, (seed % 40) as u32);
        let (outcome, plies) = pos.random_playout(&mut rng, 1000);
        // The state is a real position: rebuilt from its bitboards it is identical, and its
        // outcome is the one reported.
        let rebuilt = Breakthrough::from_bitboards(
            pos.pieces(Player::First),
            pos.pieces(Player::Second),
            pos.side_to_move(),
        )
        .unwrap();
        assert_eq!(pos, rebuilt);
        assert_eq!(pos.outcome(), outcome);
        assert!(outcome.is_some() && plies <= Breakthrough::MAX_GAME_PLIES);
        // A cut-off playout reports no outcome.
        let mut short = random_position(seed, 2);
        let (o, n) = short.random_playout(&mut rng, 3);
        assert_eq!((o, n), (None, 3));
    }
}

/// The tight random playout (unrolled by side, `pdep` where the CPU runs it fast) plays the
/// moves of the move-by-move loop with the same numbers: same final position, outcome and
/// length, from either side to move and with odd and even cut-offs.
#[test]
fn the_fast_random_playout_plays_the_move_by_move_playout() {
    for seed in 0..400u64 {
        let start = random_position(seed, (seed % 30) as u32);
        for max_plies in [1, 2, 7, 1000] {
            let (mut fast, mut slow) = (start.clone(), start.clone());
            let (mut a, mut b) = (seeded(seed), seeded(seed));
            let got = fast.random_playout(&mut a, max_plies);
            let mut plies = 0;
            let want = loop {
                if let Some(o) = slow.outcome() {
                    break (Some(o), plies);
                }
                if plies >= max_plies {
                    break (None, plies);
                }
                let mv = slow.random_playout_move(&mut b);
                slow.make(mv);
                plies += 1;
            };
            assert_eq!((got, &fast), (want, &slow), "seed {seed} max {max_plies}");
        }
    }
}

/// The portable and the `pdep` forms of the tight playout play the same moves (run where the
/// CPU has BMI2).
#[cfg(target_arch = "x86_64")]
#[test]
#[allow(unsafe_code)]
fn the_pdep_playout_plays_the_portable_playout() {
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return;
    }
    for seed in 0..400u64 {
        let start = random_position(seed, (seed % 30) as u32);
        if start.is_terminal() {
            continue;
        }
        let (mut fast, mut slow) = (start.clone(), start.clone());
        // SAFETY: the CPU has BMI2 (checked above).
        let got = unsafe { fast.random_moves_pdep(&mut seeded(seed), 1000) };
        let want = slow.random_moves(&mut seeded(seed), 1000, Bitboard::nth);
        assert_eq!((got, &fast), (want, &slow), "seed {seed}");
    }
}

/// `outcome_after` sees each way a move ends the game (the goal rank, the last enemy piece
/// captured, for either side) and a move that does not, and leaves the position unchanged.
#[test]
fn outcome_after_sees_goal_ranks_and_last_captures() {
    let cases = [
        // White steps onto rank 8; a capture that leaves a piece; each side captures the
        // other's last piece; Black steps onto rank 1, quietly and by a capture.
        (
            "8/1P6/8/8/8/8/p7/8 w",
            "b7-b8",
            Some(Outcome::Win(Player::First)),
        ),
        ("8/8/8/8/8/8/p1p5/1P6 w", "b1xa2", None),
        (
            "8/8/8/4p3/3P4/8/8/8 w",
            "d4xe5",
            Some(Outcome::Win(Player::First)),
        ),
        (
            "8/8/8/4p3/3P4/8/8/8 b",
            "e5xd4",
            Some(Outcome::Win(Player::Second)),
        ),
        (
            "8/P7/8/8/8/8/1p6/8 b",
            "b2-b1",
            Some(Outcome::Win(Player::Second)),
        ),
        (
            "8/8/8/8/8/8/1pp5/P7 b",
            "b2xa1",
            Some(Outcome::Win(Player::Second)),
        ),
    ];
    for (position, mv, expected) in cases {
        let mut pos = Breakthrough::parse_position(position).unwrap();
        let before = pos.clone();
        let mv = pos.parse_move(mv).unwrap();
        assert_eq!(pos.outcome_after(mv), expected, "{position} {mv:?}");
        assert_eq!(pos, before);
        let undo = pos.make(mv);
        assert_eq!(pos.outcome(), expected, "{position} {mv:?}");
        pos.undo(mv, undo);
    }
}

/// The informed playout's tight loop plays the moves that stepping with
/// `informed_playout_step` and `make` plays from the same random numbers, stops at the same
/// ply with the same outcome (or at the ply cap), and leaves the same state, efLH included.
#[test]
fn the_fast_informed_playout_plays_the_steps_moves() {
    let mut list = MoveList::new();
    for seed in 0..400u64 {
        let start = random_position(seed, (seed % 50) as u32);
        if start.outcome().is_some() {
            continue;
        }
        for cap in [0, 1, 5, 20, 1000] {
            let mut fast = start.clone();
            let mut fast_rng = seeded(seed ^ 0x1BB);
            let got = fast.informed_playout(&mut fast_rng, cap);
            let mut slow = start.clone();
            let mut slow_rng = seeded(seed ^ 0x1BB);
            let mut plies = 0;
            let expected = loop {
                if let Some(o) = slow.outcome() {
                    break (Some(o), plies);
                }
                if plies >= cap {
                    break (None, plies);
                }
                let mv = slow.informed_playout_step(&mut list, &mut slow_rng);
                slow.make(mv);
                plies += 1;
            };
            assert_eq!(got, expected, "seed {seed}, cap {cap}");
            assert_eq!(fast, slow, "seed {seed}, cap {cap}");
            assert_eq!(fast_rng, slow_rng, "seed {seed}, cap {cap}");
        }
    }
}

/// The moves generated in the paper's code's order are the legal moves sorted by
/// `paper_code_order`, over positions from random games (both sides to move, finished games
/// included).
#[test]
fn moves_in_the_paper_codes_order_are_the_sorted_legal_moves() {
    let mut checked = 0;
    for seed in 0..2000u64 {
        let pos = random_position(seed, (seed * 7919 % 90) as u32);
        let mut want = MoveList::new();
        pos.legal_moves(&mut want);
        want.sort_by_key(|&m| pos.paper_code_order(m));
        let mut got = MoveList::new();
        assert!(pos.legal_moves_in_paper_code_order(&mut got));
        assert_eq!(got, want, "seed {seed}: {pos:?}");
        checked += got.len();
    }
    assert!(checked > 20_000, "{checked}");
}
