//! A deliberately simple Kalah implementation, for tests and fuzzing only.
//!
//! It shares nothing with the pit-array code but the [`Move`] type: houses per side plus two
//! stores, sowing one stone at a time by walking "the next pit" rules, copy-make instead of
//! make/undo. Perft counts from it are the independent reference for [`Kalah`].

use super::{Kalah, KalahRules, Move};
use crate::game::{Outcome, Player};

/// Where a stone can be: a house of a side (`0..6` from that side's left) or a side's store.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Spot {
    House(usize, usize),
    Store(usize),
}

/// A Kalah board for the reference rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReferenceKalah {
    /// `houses[side][i]`: side 0 is South, 1 is North; `i` from that side's left.
    pub houses: [[u32; 6]; 2],
    /// The stores of South and North.
    pub stores: [u32; 2],
    /// The side to move (0 South, 1 North).
    pub side: usize,
    /// Whether the empty-capture variant is in force.
    pub empty_capture: bool,
    /// Whether the paper's code's end test is in force (North's house 6 left out).
    pub code_end: bool,
}

impl ReferenceKalah {
    /// Copies a position through its public accessors.
    pub fn from_position(pos: &Kalah) -> Self {
        let mut r = ReferenceKalah {
            houses: [[0; 6]; 2],
            stores: [0; 2],
            side: crate::Game::side_to_move(pos).index(),
            empty_capture: pos.rules() != KalahRules::Standard,
            code_end: pos.rules() == KalahRules::PaperCode,
        };
        for (s, p) in Player::BOTH.into_iter().enumerate() {
            for i in 0..6 {
                r.houses[s][i] = pos.house(p, i as u8) as u32;
            }
            r.stores[s] = pos.store(p) as u32;
        }
        r
    }

    fn side_empty(&self, s: usize) -> bool {
        self.houses[s].iter().all(|&n| n == 0)
    }

    /// Whether the game is over: one side has no stones in its houses (with the paper's code's
    /// end test, North's first five houses are enough).
    pub fn over(&self) -> bool {
        let north = if self.code_end {
            self.houses[1][..5].iter().all(|&n| n == 0)
        } else {
            self.side_empty(1)
        };
        self.side_empty(0) || north
    }

    /// Final scores: store plus remaining houses.
    pub fn scores(&self) -> [u32; 2] {
        [
            self.stores[0] + self.houses[0].iter().sum::<u32>(),
            self.stores[1] + self.houses[1].iter().sum::<u32>(),
        ]
    }

    /// How the game ended, if it did.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.over() {
            return None;
        }
        let [a, b] = self.scores();
        Some(if a > b {
            Outcome::Win(Player::First)
        } else if b > a {
            Outcome::Win(Player::Second)
        } else {
            Outcome::Draw
        })
    }

    /// Legal moves in house order.
    pub fn moves(&self) -> heapless::Vec<Move, 6> {
        let mut v = heapless::Vec::new();
        if self.over() {
            return v;
        }
        for i in 0..6 {
            if self.houses[self.side][i] > 0 {
                let _ = v.push(Move(i as u8));
            }
        }
        v
    }

    /// The spot after `s` when `mover` sows.
    fn next(s: Spot, mover: usize) -> Spot {
        match s {
            Spot::House(o, 5) if o == mover => Spot::Store(mover),
            Spot::House(_, 5) => Spot::House(mover, 0), // the opponent's store is skipped
            Spot::House(o, i) => Spot::House(o, i + 1),
            Spot::Store(o) => Spot::House(1 - o, 0),
        }
    }

    /// The board after `mv` (copy-make).
    pub fn play(&self, mv: Move) -> ReferenceKalah {
        let mut b = self.sown(mv);
        if b.over() {
            for s in 0..2 {
                b.stores[s] += b.houses[s].iter().sum::<u32>();
                b.houses[s] = [0; 6];
            }
        }
        b
    }

    /// The board after `mv` without the end's sweep of the houses into the stores: the board
    /// the paper's code evaluates when the move ends the game.
    pub fn sown(&self, mv: Move) -> ReferenceKalah {
        let mut b = *self;
        let me = self.side;
        let h = mv.0 as usize;
        let mut hand = b.houses[me][h];
        b.houses[me][h] = 0;
        let mut at = Spot::House(me, h);
        while hand > 0 {
            at = Self::next(at, me);
            match at {
                Spot::House(o, i) => b.houses[o][i] += 1,
                Spot::Store(o) => b.stores[o] += 1,
            }
            hand -= 1;
        }
        let mut again = false;
        match at {
            Spot::Store(_) => again = true,
            // The paper's code (empty-capture) asks whether the house was empty before sowing.
            Spot::House(o, i)
                if o == me
                    && b.houses[o][i] == 1
                    && (!b.empty_capture || self.houses[o][i] == 0) =>
            {
                let opp = b.houses[1 - me][5 - i];
                if opp > 0 || b.empty_capture {
                    b.stores[me] += opp + 1;
                    b.houses[1 - me][5 - i] = 0;
                    b.houses[me][i] = 0;
                }
            }
            Spot::House(..) => {}
        }
        if !again {
            b.side = 1 - me;
        }
        b
    }

    /// Perft by copy-make, without bulk counting.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|&mv| self.play(mv).perft(depth - 1))
            .sum()
    }
}

crate::games::reference::reference_game!(Kalah, ReferenceKalah);
