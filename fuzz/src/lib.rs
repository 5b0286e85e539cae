//! Shared code of the fuzz targets: each game with its independent reference implementation
//! (the `reference` feature of `imcts`), and a small byte reader that turns fuzz input into
//! choices.
//!
//! Every target takes its first byte to pick the game, so one target covers all five games and
//! libFuzzer's coverage feedback steers between them.

use imcts::games::breakthrough::Breakthrough;
use imcts::games::gomoku::{Gomoku, GomokuRules};
use imcts::games::kalah::{Kalah, KalahRules};
use imcts::games::lines_of_action::{LinesOfAction, LinesOfActionRules};
use imcts::games::reference::ReferenceGame;
use imcts::games::tictactoe::TicTacToe;
use imcts::{Game, MoveBuffer, Outcome};

/// Reads fuzz bytes as choices; past the end every read gives zero, so any input is usable.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte, or 0 at the end.
    pub fn u8(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// A string of up to `max` bytes (lossily decoded), length chosen by the input.
    pub fn text(&mut self, max: usize) -> String {
        let len = (self.u8() as usize).min(max).min(self.data.len());
        let (s, rest) = self.data.split_at(len);
        self.data = rest;
        String::from_utf8_lossy(s).into_owned()
    }

    /// All remaining bytes as a (lossily decoded) string.
    pub fn rest_text(&mut self) -> String {
        let s = String::from_utf8_lossy(self.data).into_owned();
        self.data = &[];
        s
    }
}

/// A game together with its reference implementation ([`ReferenceGame`], from the kernel's
/// `reference` feature) and the rule variants the fuzz input picks from.
pub trait Checked: ReferenceGame {
    /// The reference's legal moves, encoded and sorted.
    fn ref_moves(r: &Self::Reference) -> Vec<u16> {
        let mut list = Self::MoveList::default();
        Self::reference_moves(r, &mut list);
        let mut v: Vec<u16> = list.moves().iter().map(|&m| Self::encode_move(m)).collect();
        v.sort_unstable();
        v
    }
    /// The reference's outcome.
    fn ref_outcome(r: &Self::Reference) -> Option<Outcome> {
        Self::reference_outcome(r)
    }
    /// The reference state after `mv`.
    fn ref_play(r: &Self::Reference, mv: Self::Move) -> Self::Reference {
        Self::reference_play(r, mv)
    }
    /// The initial position under the rule variant `v` (any byte; reduced modulo the number of
    /// variants).
    fn start_variant(v: u8) -> Self;
    /// `self` under rule variant `v` where the position string does not carry the rules.
    fn with_variant(self, _v: u8) -> Self {
        self
    }
}

impl Checked for Breakthrough {
    fn start_variant(_: u8) -> Self {
        Breakthrough::start()
    }
}

const LINES_OF_ACTION_RULES: [LinesOfActionRules; 4] = [
    LinesOfActionRules {
        simultaneous_mover_wins: false,
        no_move_loses: false,
    },
    LinesOfActionRules {
        simultaneous_mover_wins: true,
        no_move_loses: false,
    },
    LinesOfActionRules {
        simultaneous_mover_wins: false,
        no_move_loses: true,
    },
    LinesOfActionRules {
        simultaneous_mover_wins: true,
        no_move_loses: true,
    },
];

impl Checked for LinesOfAction {
    fn start_variant(v: u8) -> Self {
        LinesOfAction::with_rules(LINES_OF_ACTION_RULES[v as usize % 4])
    }
    fn with_variant(self, v: u8) -> Self {
        LinesOfAction::from_bitboards(
            self.pieces(imcts::Player::First),
            self.pieces(imcts::Player::Second),
            self.side_to_move(),
            LINES_OF_ACTION_RULES[v as usize % 4],
        )
        .unwrap_or(self)
    }
}

impl Checked for Kalah {
    fn start_variant(v: u8) -> Self {
        Kalah::with_rules(if v.is_multiple_of(2) {
            KalahRules::Standard
        } else {
            KalahRules::EmptyCapture
        })
    }
}

impl Checked for TicTacToe {
    fn start_variant(_: u8) -> Self {
        TicTacToe::start()
    }
}

impl Checked for Gomoku {
    fn start_variant(v: u8) -> Self {
        Gomoku::with_rules(GomokuRules {
            exact_five: v % 2 == 1,
            free_opening: false,
        })
    }
}

/// Runs `$body` with `$G` bound to the game picked by the byte `$pick`, modulo the number of
/// games in the kernel's `game_registry!` (so a new game is fuzzed once it is registered and
/// implements [`Checked`]).
#[macro_export]
macro_rules! with_game {
    ($pick:expr, $G:ident => $body:expr) => {{
        let id = u32::from($pick) % imcts::games::NAMES.len() as u32;
        imcts::with_game_id!(id, $G => $body, _other => unreachable!("id is below the game count"))
    }};
}

/// A starting position chosen by the input: the initial position under a rule variant, or a
/// position string read from the input when it parses (else the initial position).
pub fn start_position<G: Checked>(b: &mut Bytes) -> G {
    let how = b.u8();
    let variant = b.u8();
    if how % 4 == 3 {
        let text = b.text(255);
        match G::parse_position(&text) {
            Ok(g) => g.with_variant(variant),
            Err(_) => G::start_variant(variant),
        }
    } else {
        G::start_variant(variant)
    }
}

/// The legal moves of `g`.
pub fn legal_moves<G: Game>(g: &G) -> Vec<G::Move> {
    let mut list = G::MoveList::default();
    g.legal_moves(&mut list);
    list.moves().to_vec()
}

/// Plays up to `plies` moves chosen by the input (one byte each) and returns the position.
pub fn walk<G: Game>(mut g: G, b: &mut Bytes, plies: usize) -> G {
    for _ in 0..plies {
        let moves = legal_moves(&g);
        if moves.is_empty() || b.is_empty() {
            break;
        }
        g.make(moves[b.u8() as usize % moves.len()]);
    }
    g
}

/// Every evaluation of `g` for both players, as bits (so NaN compares equal to itself).
pub fn evaluations<G: Game>(g: &G) -> Vec<u32> {
    let mut v = Vec::new();
    for &(_, e) in G::EVALS {
        for p in imcts::Player::BOTH {
            v.push(g.evaluate(e, p).to_bits());
        }
    }
    v
}

/// Everything a make must restore on undo and keep equal to a from-scratch computation.
#[derive(PartialEq, Debug)]
pub struct Snapshot {
    /// The Zobrist or mixed key.
    pub key: u64,
    /// Evaluations (bits).
    pub evals: Vec<u32>,
    /// The outcome.
    pub outcome: Option<Outcome>,
    /// The side to move.
    pub side: imcts::Player,
    /// The bulk move count.
    pub count: u64,
    /// The generated moves, encoded, in generation order.
    pub moves: Vec<u16>,
    /// Score margins of both players.
    pub margins: [i32; 2],
}

/// Takes a [`Snapshot`] of `g`.
pub fn snapshot<G: Game>(g: &G) -> Snapshot {
    Snapshot {
        key: g.key(),
        evals: evaluations(g),
        outcome: g.outcome(),
        side: g.side_to_move(),
        count: g.count_moves(),
        moves: legal_moves(g).into_iter().map(G::encode_move).collect(),
        margins: [
            g.score_margin(imcts::Player::First),
            g.score_margin(imcts::Player::Second),
        ],
    }
}

/// The position string of `g`.
pub fn position_string<G: Game>(g: &G) -> String {
    let mut s = String::new();
    g.write_position(&mut s).expect("String never fails");
    s
}

/// The notation of `mv` in `g`.
pub fn move_string<G: Game>(g: &G, mv: G::Move) -> String {
    let mut s = String::new();
    g.write_move(mv, &mut s).expect("String never fails");
    s
}
