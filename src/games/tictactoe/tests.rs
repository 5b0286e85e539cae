//! Tic-Tac-Toe: bitboards against the reference, paper 003's Fig. 5, full solve, notation.

use super::reference::ReferenceTicTacToe;
use super::*;
use crate::game::perft;
use crate::games::conformance::play_random;
use crate::rng::{below, seeded};

/// Exhaustive negamax, depth-aware: a win in `n` plies scores `100 - n`, a loss in `n` plies
/// `n - 100`, a draw 0, from the side to move's point of view (so it wins fast, loses slowly).
fn negamax(pos: &mut TicTacToe, ply: i32) -> i32 {
    if let Some(o) = pos.outcome() {
        // The side to move can only have lost or drawn: the last mover made the line.
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(_) => ply - 100,
        };
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut best = i32::MIN;
    for &mv in &list {
        pos.make(mv);
        best = best.max(-negamax(pos, ply + 1));
        pos.undo(mv, ());
    }
    best
}

/// The value of playing `mv` from `pos`, for the mover, and the total plies to the end.
fn value_of(pos: &TicTacToe, text: &str) -> i32 {
    let mut p = *pos;
    let mv = p.parse_move(text).unwrap();
    p.make(mv);
    -negamax(&mut p, 1)
}

fn random_position(seed: u64) -> TicTacToe {
    let mut rng = seeded(seed);
    let mut pos = TicTacToe::start();
    let plies = below(&mut rng, 9);
    play_random(&mut pos, &mut rng, plies);
    pos
}

#[test]
fn perft_matches_the_published_game_count() {
    // The perft file itself is checked by the conformance suite (src/games/conformance.rs).
    // The published number of complete games.
    assert_eq!(
        ReferenceTicTacToe::from_position(&TicTacToe::start()).games(),
        255_168
    );
    let total: u64 = (1..=9)
        .map(|d| {
            let mut p = TicTacToe::start();
            let n = perft(&mut p, d);
            let continuing = if d < 9 {
                perft(&mut p, d + 1) / (9 - d as u64)
            } else {
                0
            };
            n - continuing // sequences of length d that ended the game
        })
        .sum();
    assert_eq!(total, 255_168);
}

#[test]
fn agrees_with_reference_from_300_random_positions() {
    for seed in 0..300u64 {
        let mut pos = random_position(seed);
        let r = ReferenceTicTacToe::from_position(&pos);
        for d in 1..=4 {
            assert_eq!(perft(&mut pos, d), r.perft(d), "seed {seed}");
        }
        assert_eq!(pos.outcome(), r.outcome());
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(list.as_slice(), r.moves().as_slice());
        for sq in 0..12 {
            assert_eq!(pos.is_legal(Move(sq)), list.contains(&Move(sq)));
        }
    }
}

#[test]
fn make_undo_restores_every_state_over_1000_games() {
    let mut rng = seeded(11);
    let mut list = MoveList::new();
    for _ in 0..1000 {
        let mut pos = TicTacToe::start();
        let mut history: heapless::Vec<(TicTacToe, Move), 9> = heapless::Vec::new();
        loop {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                assert!(pos.outcome().is_some());
                break;
            }
            let mv = list[below(&mut rng, list.len() as u32) as usize];
            history.push((pos, mv)).unwrap();
            pos.make(mv);
            assert_eq!(
                TicTacToe::from_marks(pos.marks(Player::First), pos.marks(Player::Second)),
                Ok(pos)
            );
        }
        while let Some((before, mv)) = history.pop() {
            pos.undo(mv, ());
            assert_eq!(pos, before);
        }
        assert_eq!(pos, TicTacToe::start());
    }
}

#[test]
fn fig5a_o_loses_everywhere_and_only_c2_delays_to_four_plies() {
    let pos = FIG5A;
    let mut s: heapless::String<32> = heapless::String::new();
    pos.write_position(&mut s).unwrap();
    assert_eq!(s.as_str(), ".OX/.../..X o");
    assert_eq!(TicTacToe::parse_position(&s), Ok(pos));
    assert_eq!(pos.side_to_move(), Player::Second);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    assert_eq!(list.len(), 6);
    for &mv in &list {
        let name = crate::game::move_string(&pos, mv);
        let v = value_of(&pos, &name);
        if name.as_str() == "C2" {
            assert_eq!(v, 4 - 100, "C2 loses at ply 4");
        } else {
            assert_eq!(v, 2 - 100, "{name} loses at ply 2");
        }
    }
    assert_eq!(negamax(&mut FIG5A.clone(), 0), 4 - 100);
}

#[test]
fn fig5b_x_wins_unless_it_plays_b2() {
    let pos = FIG5B;
    let mut s: heapless::String<32> = heapless::String::new();
    pos.write_position(&mut s).unwrap();
    assert_eq!(s.as_str(), "XOO/.../.X. x");
    assert_eq!(TicTacToe::parse_position(&s), Ok(pos));
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut names: heapless::Vec<crate::game::MoveString, 9> = heapless::Vec::new();
    for &mv in &list {
        let name = crate::game::move_string(&pos, mv);
        let v = value_of(&pos, &name);
        if name.as_str() == "B2" {
            assert_eq!(v, 0, "B2 draws");
        } else {
            assert!(v > 0, "{name} wins");
        }
        names.push(name).unwrap();
    }
    assert_eq!(names.len(), 5);
    for want in ["A1", "C1", "A2", "B2", "C2"] {
        assert!(names.iter().any(|n| n.as_str() == want));
    }
}

#[test]
fn full_negamax_from_the_empty_board_is_a_draw() {
    assert_eq!(negamax(&mut TicTacToe::start(), 0), 0);
}

#[test]
fn evaluation_is_symmetric_bounded_and_exact_at_terminals() {
    let start = TicTacToe::start();
    assert_eq!(start.evaluate(TicTacToeEval::OpenLines, Player::First), 0.0);
    // X in the centre: 4 open lines with one X → Δ = 4.
    let p = TicTacToe::parse_position(".../.X./... o").unwrap();
    let v = p.evaluate(TicTacToeEval::OpenLines, Player::First);
    assert!((v - libm::tanhf(1.0)).abs() < 1e-6);
    assert_eq!(p.evaluate(TicTacToeEval::OpenLines, Player::Second), -v);
    let won = TicTacToe::parse_position("XXX/OO./... o").unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(won.evaluate(TicTacToeEval::OpenLines, Player::Second), -1.0);
    let draw = TicTacToe::parse_position("XOX/XOO/OXX o").unwrap();
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
    assert_eq!(draw.evaluate(TicTacToeEval::OpenLines, Player::First), 0.0);
    for seed in 0..200 {
        let v = random_position(seed).evaluate(TicTacToeEval::OpenLines, Player::First);
        assert!((-1.0..=1.0).contains(&v));
    }
}

#[test]
fn squares_moves_and_positions_round_trip() {
    let start = TicTacToe::start();
    assert_eq!(start.parse_move("b2"), Ok(Move(4)));
    assert_eq!(start.parse_move("A1"), Ok(Move(0)));
    assert_eq!(start.parse_move("C3"), Ok(Move(8)));
    assert_eq!(start.parse_move("c1"), Ok(Move(2)));
    for seed in 0..300 {
        let pos = random_position(seed);
        let mut s: heapless::String<32> = heapless::String::new();
        pos.write_position(&mut s).unwrap();
        assert_eq!(TicTacToe::parse_position(&s), Ok(pos), "{s}");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for &mv in &list {
            let m = crate::game::move_string(&pos, mv);
            assert_eq!(pos.parse_move(&m), Ok(mv));
            assert_eq!(TicTacToe::decode_move(TicTacToe::encode_move(mv)), Some(mv));
        }
    }
    assert_eq!(TicTacToe::decode_move(9), None);
}

#[test]
fn bad_input_gets_typed_errors_and_never_panics() {
    let start = TicTacToe::start();
    let e = |s: &str| start.parse_move(s).unwrap_err();
    assert_eq!(e("").problem, Problem::Empty);
    assert_eq!(e("D1").problem, Problem::OutOfRange);
    assert_eq!(e("A4").problem, Problem::OutOfRange);
    assert_eq!(
        e("A").problem,
        Problem::BadLength {
            expected: 2,
            found: 1
        }
    );
    assert_eq!(
        e("A11").problem,
        Problem::BadLength {
            expected: 2,
            found: 3
        }
    );
    assert_eq!(e("é1").problem, Problem::UnexpectedChar('é'));
    let p = TicTacToe::parse_position(".../.X./... o").unwrap();
    assert_eq!(p.parse_move("B2").unwrap_err().problem, Problem::Illegal);

    let q = |s: &str| TicTacToe::parse_position(s).unwrap_err();
    assert_eq!(q("").problem, Problem::Empty);
    assert_eq!(q(".../.../...").field, "side to move");
    assert_eq!(q(".../.../... x y").problem, Problem::Extra);
    assert_eq!(q(".../.../... z").problem, Problem::UnexpectedChar('z'));
    assert!(matches!(
        q(".../.../... o").problem,
        Problem::Inconsistent(_)
    ));
    assert!(matches!(
        q("XX./.../... o").problem,
        Problem::Inconsistent(_)
    ));
    assert!(matches!(
        q("XXX/OOO/X.. o").problem,
        Problem::Inconsistent(_)
    ));
    // O has a line but X moved last.
    assert!(matches!(
        q("OOO/XX./XX. o").problem,
        Problem::Inconsistent(_)
    ));
    // O's line with X to move is a finished game.
    let o_won = TicTacToe::parse_position("OOO/XX./X.. x").unwrap();
    assert_eq!(o_won.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(q(".../.../.. x").index, Some(3));
    assert_eq!(q(".../..?/... x").problem, Problem::UnexpectedChar('?'));
    assert_eq!(q(".../... x").field, "board");
    assert_eq!(q(".../.../.../... x").field, "board");
    let mut rng = seeded(4);
    let chars: heapless::Vec<char, 16> = "XxOo./ é1Bb".chars().collect();
    for _ in 0..20_000 {
        let mut s: heapless::String<64> = heapless::String::new();
        for _ in 0..below(&mut rng, 20) {
            let _ = s.push(chars[below(&mut rng, chars.len() as u32) as usize]);
        }
        let _ = TicTacToe::parse_position(&s);
        let _ = start.parse_move(&s);
    }
}
