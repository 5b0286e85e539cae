//! Kalah: the pit array against the reference, make/undo, rules, evaluation, notation.

extern crate std;

use super::reference::ReferenceKalah;
use super::*;
use crate::game::perft;
use crate::games::conformance::play_random;
use crate::rng::{below, seeded};

/// A seeded random position: a random or initial board, then up to `plies` random moves.
fn random_position(seed: u64, plies: u32) -> Kalah {
    let mut rng = seeded(seed);
    let mut pos = if seed.is_multiple_of(3) {
        Kalah::start()
    } else {
        Kalah::random_board(&mut rng)
    };
    pos = pos.under_rules(match seed % 4 {
        1 => KalahRules::EmptyCapture,
        3 => KalahRules::PaperCode,
        _ => KalahRules::Standard,
    });
    play_random(&mut pos, &mut rng, plies);
    pos
}

fn position_string(pos: &Kalah) -> heapless::String<96> {
    let mut s = heapless::String::new();
    pos.write_position(&mut s).unwrap();
    s
}

/// Prints the counts of the data file's positions, by the reference (run with `--ignored`).
#[test]
#[ignore]
fn print_reference_perft() {
    for text in [
        "4,4,4,4,4,4/4,4,4,4,4,4/0-0 s",
        "4,4,4,4,4,4/4,4,4,4,4,4/0-0 s empty-capture",
    ] {
        let r = ReferenceKalah::from_position(&Kalah::parse_position(text).unwrap());
        for d in 1..=9 {
            std::println!("{text}; {d}; {}", r.perft(d));
        }
    }
    for seed in [1u64, 2, 4] {
        let mut rng = seeded(seed);
        let p = Kalah::random_board(&mut rng);
        let r = ReferenceKalah::from_position(&p);
        std::println!("{}; 7; {}", position_string(&p), r.perft(7));
    }
}

#[test]
fn every_move_agrees_with_reference_from_300_random_positions() {
    for seed in 0..300u64 {
        let mut pos = random_position(seed, (seed * 7919 % 40) as u32);
        let r = ReferenceKalah::from_position(&pos);
        assert_eq!(perft(&mut pos, 4), r.perft(4), "seed {seed}");
        assert_eq!(pos.outcome(), r.outcome(), "seed {seed}");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(list.as_slice(), r.moves().as_slice());
        assert_eq!(pos.count_moves(), list.len() as u64);
        for h in 0..8u8 {
            assert_eq!(pos.is_legal(Move(h)), list.contains(&Move(h)));
        }
        for &mv in &list {
            let before = pos;
            let u = pos.make(mv);
            assert_eq!(
                ReferenceKalah::from_position(&pos),
                r.play(mv),
                "seed {seed} {mv:?}"
            );
            pos.undo(mv, u);
            assert_eq!(pos, before);
        }
    }
}

#[test]
fn make_undo_restores_every_state_over_1000_games() {
    let mut rng = seeded(99);
    let mut list = MoveList::new();
    for g in 0..1000u64 {
        let mut pos = random_position(g, 0);
        let start = pos;
        let mut history: heapless::Vec<(Kalah, Move, Undo), 512> = heapless::Vec::new();
        loop {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                assert!(pos.outcome().is_some());
                // Everything is in the stores at the end.
                assert_eq!(pos.houses_total(Player::First), 0);
                assert_eq!(pos.houses_total(Player::Second), 0);
                assert_eq!(pos.store(Player::First) + pos.store(Player::Second), STONES);
                break;
            }
            let mv = list[below(&mut rng, list.len() as u32) as usize];
            let before = pos;
            let u = pos.make(mv);
            history.push((before, mv, u)).unwrap();
        }
        while let Some((before, mv, u)) = history.pop() {
            pos.undo(mv, u);
            assert_eq!(pos, before);
        }
        assert_eq!(pos, start);
    }
}

#[test]
fn extra_turn_keeps_the_side_to_move() {
    // South's house 3 holds 4 stones: 4, 5, 6, store → another turn.
    let mut pos = Kalah::start();
    let mv = pos.parse_move("3").unwrap();
    pos.make(mv);
    assert_eq!(pos.side_to_move(), Player::First);
    assert_eq!(
        position_string(&pos).as_str(),
        "4,4,0,5,5,5/4,4,4,4,4,4/1-0 s"
    );
    // House 1 ends in house 5: North's turn.
    pos.make(Move(0));
    assert_eq!(pos.side_to_move(), Player::Second);
}

#[test]
fn captures_under_both_rules() {
    // South's house 1 has one stone; house 2 is empty; North's house 5 (opposite South's 2) has 3.
    let text = "1,0,1,1,1,1/1,1,1,1,3,1/0-0 s";
    let mut std_pos = Kalah::parse_position(text).unwrap();
    std_pos.make(Move(0));
    assert_eq!(
        position_string(&std_pos).as_str(),
        "0,0,1,1,1,1/1,1,1,1,0,1/4-0 n"
    );
    // Opposite house empty: no capture under the standard rules, a 1-stone capture otherwise.
    let text = "1,0,1,1,1,1/1,1,1,1,0,1/0-0 s";
    let mut std_pos = Kalah::parse_position(text).unwrap();
    std_pos.make(Move(0));
    assert_eq!(
        position_string(&std_pos).as_str(),
        "0,1,1,1,1,1/1,1,1,1,0,1/0-0 n"
    );
    let mut ec = Kalah::parse_position(text)
        .unwrap()
        .under_rules(KalahRules::EmptyCapture);
    ec.make(Move(0));
    assert_eq!(
        position_string(&ec).as_str(),
        "0,0,1,1,1,1/1,1,1,1,0,1/1-0 n empty-capture"
    );
}

#[test]
fn thirteen_stones_lap_and_capture_in_the_start_house() {
    // 13 stones from South's house 1 go round once and the last lands back in house 1.
    let mut pos = Kalah::parse_position("13,0,0,0,0,0/2,0,0,0,0,3/0-0 s").unwrap();
    pos.make(Move(0));
    // Every house got one, South's store one, North's store none; house 1 (now 1 stone) captures
    // the opposite North house 6 (3 + 1 = 4) plus itself.
    assert_eq!(
        position_string(&pos).as_str(),
        "0,1,1,1,1,1/3,1,1,1,1,0/6-0 n"
    );
}

#[test]
fn thirteen_stones_do_not_capture_under_the_paper_codes_rules() {
    // The paper's code tests the landing house for emptiness before sowing, so the lap back into
    // the emptied start house is a plain move there (found by scripts/compare_paper_java.py's
    // rule check): North's 13 stones from house 6 end in house 6 with no capture.
    let mut pos = Kalah::parse_position("2,0,0,0,0,0/0,0,2,3,0,13/18-10 n empty-capture").unwrap();
    pos.make(Move(5));
    assert_eq!(
        position_string(&pos).as_str(),
        "3,1,1,1,1,1/1,1,3,4,1,1/18-11 s empty-capture"
    );
    let mut std_pos = Kalah::parse_position("2,0,0,0,0,0/0,0,2,3,0,13/18-10 n").unwrap();
    std_pos.make(Move(5));
    assert_eq!(
        position_string(&std_pos).as_str(),
        "0,1,1,1,1,1/1,1,3,4,1,0/18-15 s"
    );
}

#[test]
fn game_ends_when_one_side_is_empty_and_the_rest_is_swept() {
    // South's last stone goes into its store: South's houses are empty, North keeps 5 stones.
    let mut pos = Kalah::parse_position("0,0,0,0,0,1/1,1,1,1,1,0/20-22 s").unwrap();
    assert!(pos.outcome().is_none());
    pos.make(Move(5));
    assert_eq!(
        position_string(&pos).as_str(),
        "0,0,0,0,0,0/0,0,0,0,0,0/21-27 s"
    );
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(pos.score_margin(Player::Second), 6);
    assert_eq!(pos.score_margin(Player::First), -6);
    assert_eq!(pos.evaluate(KalahEval::StoreDiff, Player::First), -1.0);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    assert!(list.is_empty());
    // A built position with one side empty is over too; houses count for their owner.
    let p = Kalah::parse_position("0,0,0,0,0,0/1,1,1,1,1,0/24-19 n").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert_eq!(p.score_margin(Player::First), 0);
}

#[test]
fn the_paper_codes_end_test_leaves_norths_sixth_house_out() {
    // North sows its house-5 stone into house 6: North's houses 1-5 are then empty but house 6
    // holds 4 stones. Under the paper's code's end test the game is over and each side gets its
    // remaining stones (the code's getEndScore); under the other rules South moves on.
    let text = "1,1,1,1,1,1/0,0,0,0,1,3/20-18 n";
    let start = Kalah::parse_position(&std::format!("{text} paper-code")).unwrap();
    assert_eq!(start.rules(), KalahRules::PaperCode);
    assert!(start.outcome().is_none());
    let mut code = start;
    code.make(Move(4));
    assert_eq!(
        position_string(&code).as_str(),
        "0,0,0,0,0,0/0,0,0,0,0,0/26-22 s paper-code"
    );
    assert_eq!(code.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(code.score_margin(Player::First), 4);
    assert_eq!(code.count_moves(), 0);
    let reference = ReferenceKalah::from_position(&start).play(Move(4));
    assert_eq!(reference.outcome(), Some(Outcome::Win(Player::First)));
    // A built position with stones only in North's house 6 is over under the code's test only.
    let p = Kalah::parse_position("1,0,0,0,0,0/0,0,0,0,0,2/20-25 s paper-code").unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::Second)));
    for rules in ["", " empty-capture"] {
        let mut pos = Kalah::parse_position(&std::format!("{text}{rules}")).unwrap();
        pos.make(Move(4));
        assert!(pos.outcome().is_none(), "{rules}");
        assert_eq!(pos.count_moves(), 6, "{rules}");
    }
    // Captures follow the code's empty-capture rule.
    let mut pc = Kalah::parse_position("1,0,1,1,1,1/1,1,1,1,0,1/0-0 s paper-code").unwrap();
    pc.make(Move(0));
    assert_eq!(
        position_string(&pc).as_str(),
        "0,0,1,1,1,1/1,1,1,1,0,1/1-0 n paper-code"
    );
}

#[test]
fn the_paper_codes_value_of_a_finished_child_leaves_the_houses_unswept() {
    // South's last stone ends the game: North's five stones are swept into its store (21-27,
    // a loss for South), but the code evaluates the board before that, at 21-22.
    let mut pos = Kalah::parse_position("0,0,0,0,0,1/1,1,1,1,1,0/20-22 s").unwrap();
    let before = pos;
    let (outcome, value) = pos.evaluate_after(Move(5), KalahEval::StoreDiff, Player::First);
    assert_eq!((outcome, value), (Some(Outcome::Win(Player::Second)), -1.0));
    let code = pos
        .paper_code_end_value(Move(5), KalahEval::StoreDiff, Player::First)
        .unwrap();
    assert_eq!(code.to_bits(), (-libm::tanhf(1.0 / EVAL_SCALE)).to_bits());
    assert_eq!(
        pos.paper_code_end_value(Move(5), KalahEval::StoreDiff, Player::Second),
        Some(-code)
    );
    assert_eq!(pos, before);
    // Along random games, against the reference's board before the sweep: every move that
    // ends the game, and the evaluation itself for every other.
    let mut finished = 0;
    for seed in 0..100 {
        let mut pos = random_position(seed, 0);
        let mut rng = seeded(seed);
        let mut moves = MoveList::new();
        loop {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in moves.iter() {
                for p in Player::BOTH {
                    let code = pos
                        .paper_code_end_value(mv, KalahEval::StoreDiff, p)
                        .unwrap();
                    let (outcome, value) = pos.evaluate_after(mv, KalahEval::StoreDiff, p);
                    if outcome.is_none() {
                        assert_eq!(code.to_bits(), value.to_bits(), "{seed} {mv:?}");
                        continue;
                    }
                    finished += 1;
                    let r = ReferenceKalah::from_position(&pos).sown(mv);
                    let d = r.stores[p.index()] as i32 - r.stores[p.opponent().index()] as i32;
                    assert_eq!(code.to_bits(), eval::squash(d).to_bits(), "{seed} {mv:?}");
                }
            }
            pos.make(moves[below(&mut rng, moves.len() as u32) as usize]);
        }
    }
    assert!(finished > 200, "{finished} finishing moves");
}

#[test]
fn evaluation_is_a_squashed_store_difference() {
    let start = Kalah::start();
    assert_eq!(start.evaluate(KalahEval::StoreDiff, Player::First), 0.0);
    let p = Kalah::parse_position("4,4,4,4,4,4/4,4,4,4,0,0/5-3 n").unwrap();
    let v = p.evaluate(KalahEval::StoreDiff, Player::First);
    assert!((v - libm::tanhf(2.0 / EVAL_SCALE)).abs() < 1e-6);
    assert_eq!(p.evaluate(KalahEval::StoreDiff, Player::Second), -v);
    assert_eq!(p.score_margin(Player::First), 2);
    for seed in 0..200 {
        let p = random_position(seed, 30);
        let v = p.evaluate(KalahEval::default(), Player::Second);
        assert!((-1.0..=1.0).contains(&v));
        assert!(p.score_margin(Player::First).abs() <= Kalah::MAX_MARGIN);
    }
}

#[test]
fn random_board_has_48_stones_in_houses() {
    let mut rng = seeded(3);
    for _ in 0..100 {
        let p = Kalah::random_board(&mut rng);
        assert_eq!(
            p.rules(),
            KalahRules::EmptyCapture,
            "the paper's code's rules"
        );
        assert_eq!(p.store(Player::First), 0);
        assert_eq!(p.store(Player::Second), 0);
        assert_eq!(
            p.houses_total(Player::First) + p.houses_total(Player::Second),
            STONES
        );
    }
}

#[test]
fn position_strings_and_moves_round_trip() {
    assert_eq!(
        position_string(&Kalah::start()).as_str(),
        "4,4,4,4,4,4/4,4,4,4,4,4/0-0 s"
    );
    for seed in 0..300 {
        let pos = random_position(seed, (seed % 50) as u32);
        let s = position_string(&pos);
        assert_eq!(Kalah::parse_position(&s).unwrap(), pos, "{s}");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for &mv in &list {
            let m = crate::game::move_string(&pos, mv);
            assert_eq!(pos.parse_move(&m), Ok(mv));
            assert_eq!(Kalah::decode_move(Kalah::encode_move(mv)), Some(mv));
        }
    }
    assert_eq!(Kalah::decode_move(6), None);
}

#[test]
fn bad_input_gets_typed_errors_and_never_panics() {
    let start = Kalah::start();
    let e = |s: &str| start.parse_move(s).unwrap_err();
    assert_eq!(e("").problem, Problem::Empty);
    assert_eq!(e("7").problem, Problem::OutOfRange);
    assert_eq!(e("0").problem, Problem::OutOfRange);
    assert_eq!(e("a").problem, Problem::UnexpectedChar('a'));
    assert_eq!(e("é").problem, Problem::UnexpectedChar('é'));
    assert!(matches!(e("12").problem, Problem::BadLength { .. }));
    let empty_house = Kalah::parse_position("0,4,4,4,4,4/4,4,4,4,4,4/4-0 s").unwrap();
    assert_eq!(
        empty_house.parse_move("1").unwrap_err().problem,
        Problem::Illegal
    );

    let p = |s: &str| Kalah::parse_position(s).unwrap_err();
    assert_eq!(p("").problem, Problem::Empty);
    assert_eq!(p("4,4,4,4,4,4/4,4,4,4,4,4/0-0").field, "side to move");
    assert_eq!(
        p("4,4,4,4,4,4/4,4,4,4,4,4/0-0 x").problem,
        Problem::UnexpectedChar('x')
    );
    assert_eq!(
        p("4,4,4,4,4,4/4,4,4,4,4,4/0-0 s standard x").problem,
        Problem::Extra
    );
    assert_eq!(p("4,4,4,4,4,4/4,4,4,4,4,4/0-0 s weird").field, "rules");
    let err = p("4,4,4,4,4/4,4,4,4,4,4/0-0 s");
    assert_eq!(err.field, "south houses");
    assert!(matches!(err.problem, Problem::BadLength { .. }));
    let err = p("4,4,4,4,4,4/4,4,x,4,4,4/0-0 s");
    assert_eq!((err.field, err.index), ("north houses", Some(3)));
    assert_eq!(p("4,4,4,4,4,4/4,4,4,4,4,4 s").field, "stores");
    assert_eq!(p("4,4,4,4,4,4/4,4,4,4,4,4/0 s").field, "stores");
    assert_eq!(
        p("4,4,4,4,4,4/4,4,4,4,4,4/0-99 s").problem,
        Problem::OutOfRange
    );
    assert_eq!(p("4,4,4,4,4,4/4,4,4,4,4,4/0-0/1 s").problem, Problem::Extra);
    assert!(matches!(
        p("4,4,4,4,4,4/4,4,4,4,4,4/1-0 s").problem,
        Problem::Inconsistent(_)
    ));
    // Junk never panics.
    let mut rng = seeded(8);
    let alphabet = "0123456789,/- snxé4";
    let chars: heapless::Vec<char, 32> = alphabet.chars().collect();
    for _ in 0..20_000 {
        let mut s: heapless::String<64> = heapless::String::new();
        let len = below(&mut rng, 40);
        for _ in 0..len {
            let _ = s.push(chars[below(&mut rng, chars.len() as u32) as usize]);
        }
        let _ = Kalah::parse_position(&s);
        let _ = start.parse_move(&s);
    }
}

#[test]
fn evaluation_table_equals_tanhf_bit_for_bit() {
    for d in -60..=60 {
        let want = libm::tanhf(d as f32 / EVAL_SCALE);
        assert_eq!(super::eval::squash(d).to_bits(), want.to_bits(), "{d}");
    }
}

/// The list-free random move is the move the list-based default picks with the same number.
#[test]
fn random_playout_move_matches_the_list_draw() {
    let mut rng = crate::rng::seeded(5);
    let mut list = MoveList::new();
    let mut positions = 0;
    for _ in 0..300 {
        let mut g = Kalah::random_board(&mut rng);
        while !g.is_terminal() {
            g.legal_moves(&mut list);
            let mut a = rng.clone();
            let want = list[crate::rng::below(&mut a, list.len() as u32) as usize];
            assert_eq!(g.random_playout_move(&mut rng), want, "{g:?}");
            assert_eq!(a, rng);
            g.make(want);
            positions += 1;
        }
    }
    assert!(positions > 1000);
}

/// The branch-free sowing puts every stone where sowing them one by one does: every house of
/// either side, every count from 1 to 48 (whole laps included), on random boards.
#[test]
fn branch_free_sowing_equals_sowing_stone_by_stone() {
    let mut rng = seeded(31);
    let mut checked = 0;
    for _ in 0..40 {
        let mut base = [0u8; 16];
        for _ in 0..below(&mut rng, 30) {
            base[below(&mut rng, 14) as usize] += 1;
        }
        for side in Player::BOTH {
            let skip = super::store(side.opponent());
            for house in 0..HOUSES as u8 {
                let start = super::pit(side, house);
                for stones in 1..=48u8 {
                    let mut pits = base;
                    pits[start] = stones;
                    let mut want = pits;
                    want[start] = 0;
                    let (mut i, mut left) = (start, stones);
                    while left > 0 {
                        i = (i + 1) % 14;
                        if i != skip {
                            want[i] += 1;
                            left -= 1;
                        }
                    }
                    let (w, last, laps) = super::sow(u128::from_le_bytes(pits), side, start);
                    assert_eq!((w.to_le_bytes(), last, laps), (want, i, stones as u32 / 13));
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 40 * 2 * 6 * 48);
}

/// The sowing tables hold what the branch-free sowing computes: every house of either side,
/// every count from 0 to 48 stones, on random boards (so the start pit's own bytes and the rest
/// of the board are checked too).
#[test]
#[cfg(not(feature = "compact-code"))]
fn sowing_tables_equal_the_branch_free_sowing() {
    let mut rng = seeded(32);
    for _ in 0..20 {
        let mut base = [0u8; 16];
        for _ in 0..below(&mut rng, 30) {
            base[below(&mut rng, 14) as usize] += 1;
        }
        for side in Player::BOTH {
            for house in 0..HOUSES {
                let start = super::pit(side, house as u8);
                for stones in 0..=48u8 {
                    let mut pits = base;
                    pits[start] = stones;
                    let w = u128::from_le_bytes(pits);
                    let want = if stones == 0 {
                        (w, start, 0)
                    } else {
                        super::sow(w, side, start)
                    };
                    assert_eq!(
                        super::sow_move(w, side, house, start, stones),
                        want,
                        "{side:?} {house} {stones}"
                    );
                }
            }
        }
    }
}
