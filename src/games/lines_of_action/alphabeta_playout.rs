//! Lines of Action's αβ-playout move (`abp`): MC-LOA's selective 2-ply search, on bitboards.
//!
//! **What it chooses** is defined by the generic reference
//! [`two_ply_move_selective`] with
//! [`FIRST_PLY_MOVES`] ply-1 moves, and a test checks that both choose the same move with the
//! same random draws along thousands of playout positions:
//! - ply 1: the moves ordered by category weight (the move categories of
//!   [`knowledge`](super::knowledge); equal weights in generation order); when there are more
//!   than [`FIRST_PLY_MOVES`], any move that wins at once is played (the first in that order),
//!   and only the first [`FIRST_PLY_MOVES`] are searched;
//! - ply 2: the opponent's [`SELECTIVE_REPLIES`] replies of highest category weight, best first,
//!   with an αβ cut as soon as the move cannot beat the best found; a leaf is the MIA-style
//!   evaluation (or the game's result: repetition and the ply cap included);
//! - equal values are broken at random, a win (+1) is played at once.
//!
//! **Why it is fast:** no `make`/`undo` and no move list per node, and in the playout's own
//! loop ([`LinesOfAction::alpha_beta_playout_loop`]) no full move generation after the first
//! move: both sides' targets are carried ([`Carry`]) and redone only on the lines the chosen
//! move changed, line type by line type ([`patch_targets`]). A node is two bitboards; its
//! terminal test uses Euler numbers updated from the eight neighbours of the changed squares
//! (a flood fill only when the Euler number allows a single group); its repetition test looks
//! up a 64-bit filter of the history's keys and scans the history only on a hit; the replies
//! sit in per-weight bit sets indexed by generation order and are taken best first by two bit
//! scans, the moves landing off the central 4×4 added only when the search reaches their
//! weights (the 6×6 ring first, then the rim), so a cut-off never orders the rest; the
//! opponent's targets are patched the same way for the two squares a ply-1 move changed; the
//! evaluation keeps each side's terms as running sums ([`RunningTerms`]: a move or a capture
//! updates them from the changed squares, the cheap evaluation deltas of MC-LOA, exactly,
//! since they are integers), reuses the terms of the side that did not move, and caches the
//! opponent's terms after a reply across the ply-1 nodes that did not capture; the win-in-one
//! test first checks that the landing square touches every other group of the mover. Leaves
//! compare the evaluation before `tanh` ([`eval::raw_score`]); `tanh` is increasing, so the
//! order is the same unless rounding ties two values, which the reference test would catch.
//!
//! Rule options other than the default, a side that must pass at ply 1 and games within two
//! plies of the ply cap go to the reference (the same definition through `make`/`undo`).

use super::eval::{self, RunningTerms, SidePoints, WEIGHTS};
use super::knowledge::{MAX_CATEGORY_WEIGHT, REGIONS, category_weight, square_weight};
use super::tables::{LINES, REGION_OF, ZOBRIST, ZOBRIST_SIDE, add_delta, neighbours};
use super::{HISTORY_CAPACITY, LinesOfAction, LinesOfActionRules, Move, connected};
use crate::SearchRng;
use crate::game::{Player, PlayoutCutoffs};
use crate::games::bitboard::Bitboard;
use crate::rng::below;
use crate::search::shallow::{SELECTIVE_REPLIES, two_ply_move_selective};

/// How many ply-1 moves (highest category weight first) the αβ playout searches.
pub const FIRST_PLY_MOVES: usize = 8;

/// The moves of one side grouped by category weight: `bucket[w]` is the set of the moves of
/// weight `w` by their index in generation order, so the next move in weight order (equal
/// weights in generation order) is one leading-zero count and one trailing-zero count away,
/// and a cut-off never pays for ordering the rest.
struct Moves {
    mv: [Move; 128],
    bucket: [[u64; 2]; MAX_CATEGORY_WEIGHT as usize + 1],
    /// Bit `w` set when `bucket[w]` is not empty.
    nonempty: u64,
    len: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            mv: [Move::PASS; 128],
            bucket: [[0; 2]; MAX_CATEGORY_WEIGHT as usize + 1],
            nonempty: 0,
            len: 0,
        }
    }

    /// Empties the list (clearing only the buckets in use).
    #[inline(always)]
    fn clear(&mut self) {
        let mut ne = self.nonempty;
        while ne != 0 {
            self.bucket[ne.trailing_zeros() as usize] = [0; 2];
            ne &= ne - 1;
        }
        self.nonempty = 0;
        self.len = 0;
    }

    /// Adds `m` of weight `w` with generation-order index `idx` (< 128, unique).
    #[inline(always)]
    fn push_at(&mut self, idx: usize, m: Move, w: u8) {
        self.mv[idx & 127] = m;
        self.bucket[w as usize][idx >> 6 & 1] |= 1u64 << (idx & 63);
        self.nonempty |= 1u64 << w;
        self.len += 1;
    }

    /// Appends the moves of the piece on `from` to the squares of `targets`, in generation
    /// order; `enemy` tells captures.
    #[inline(always)]
    fn push_targets(&mut self, from: u8, mut targets: u64, enemy: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let w = square_weight(from, to, enemy >> to & 1 != 0);
            self.push_at(self.len, Move { from, to }, w);
        }
    }

    /// The index of the next move in weight order, taking it; `None` when all are taken.
    #[inline(always)]
    fn take_best(&mut self) -> Option<usize> {
        if self.nonempty == 0 {
            return None;
        }
        let w = 63 - self.nonempty.leading_zeros() as usize;
        let b = &mut self.bucket[w];
        let i = if b[0] != 0 {
            let i = b[0].trailing_zeros() as usize;
            b[0] &= b[0] - 1;
            i
        } else {
            let i = 64 + b[1].trailing_zeros() as usize;
            b[1] &= b[1] - 1;
            i
        };
        if b[0] | b[1] == 0 {
            self.nonempty &= !(1u64 << w);
        }
        Some(i)
    }

    /// The first move in weight order for which `pred` holds, without taking anything.
    #[inline(always)]
    fn first_where(&self, mut pred: impl FnMut(Move) -> bool) -> Option<Move> {
        let mut ne = self.nonempty;
        while ne != 0 {
            let w = 63 - ne.leading_zeros() as usize;
            ne &= !(1u64 << w);
            for (half, &bits) in self.bucket[w].iter().enumerate() {
                let mut b = bits;
                while b != 0 {
                    let m = self.mv[64 * half + b.trailing_zeros() as usize];
                    b &= b - 1;
                    if pred(m) {
                        return Some(m);
                    }
                }
            }
        }
        None
    }
}

/// The squares of regions `lo..=hi` (see [`REGION_OF`]).
const fn regions(lo: u8, hi: u8) -> u64 {
    let mut m = 0u64;
    let mut sq = 0;
    while sq < 64 {
        if REGION_OF[sq] >= lo && REGION_OF[sq] <= hi {
            m |= 1u64 << sq;
        }
        sq += 1;
    }
    m
}

/// The largest weight of a move landing in regions `lo..=hi`.
const fn max_weight_landing(lo: u8, hi: u8) -> u8 {
    let mut m = 0;
    let mut to = lo as usize;
    while to <= hi as usize {
        let mut from = 0;
        while from < 5 {
            let mut cap = 0;
            while cap < 2 {
                let w = category_weight(REGIONS[from], REGIONS[to], cap == 1);
                if w > m {
                    m = w;
                }
                cap += 1;
            }
            from += 1;
        }
        to += 1;
    }
    m
}

/// The central 4×4 squares (regions centre and inner), where landing weighs most.
const HIGH: u64 = regions(0, 1);

/// The replies landing outside [`HIGH`], in two tiers added to the list only when the search
/// gets down to weights their moves could have: the 6×6 ring (weights up to 10), then the rim
/// and the corners (up to 5). Moves of an earlier tier can weigh less than a later tier's
/// heaviest (a capture in [`HIGH`] weighs 8 to 10, one in the ring 3 to 5), so a tier is
/// added before any reply of its largest weight or less is taken.
const LATER_TIERS: [(u64, u8); 2] = [
    (regions(2, 2), max_weight_landing(2, 2)),
    (regions(3, 4), max_weight_landing(3, 4)),
];
const _: () = {
    assert!(HIGH | LATER_TIERS[0].0 | LATER_TIERS[1].0 == u64::MAX);
    assert!(HIGH & LATER_TIERS[0].0 == 0 && LATER_TIERS[0].0 & LATER_TIERS[1].0 == 0);
    assert!(LATER_TIERS[0].1 == 10 && LATER_TIERS[1].1 == 5);
};

/// The opponent's replies at a ply-1 node, generated in tiers: first the moves landing in
/// [`HIGH`], then — only when the search gets down to weights the others could have — those of
/// [`LATER_TIERS`]. A move's index is `8 · (rank of its piece) + (rank of its destination among
/// the piece's targets)`, its place in generation order whichever tier adds it.
struct Replies {
    moves: Moves,
    targets: [u64; 12],
    from: [u8; 12],
    pieces: usize,
    /// The squares the pieces to move can reach.
    any: u64,
    /// The enemy of the side to move, to tell captures.
    enemy: u64,
    /// How many of [`LATER_TIERS`] are in the list.
    tiers_added: usize,
}

impl Replies {
    fn new() -> Replies {
        Replies {
            moves: Moves::new(),
            targets: [0; 12],
            from: [0; 12],
            pieces: 0,
            any: 0,
            enemy: 0,
            tiers_added: 0,
        }
    }

    /// Starts a new node: the side to move owns the pieces added next with [`Self::piece`].
    #[inline(always)]
    fn start(&mut self, enemy: u64) {
        self.moves.clear();
        self.pieces = 0;
        self.any = 0;
        self.enemy = enemy;
        self.tiers_added = 0;
    }

    /// The next piece (in ascending square order) with its targets; adds its moves into
    /// [`HIGH`].
    #[inline(always)]
    fn piece(&mut self, from: u8, targets: u64) {
        let k = self.pieces.min(11);
        self.targets[k] = targets;
        self.from[k] = from;
        self.pieces += 1;
        self.any |= targets;
        self.add(k, targets & HIGH);
    }

    #[inline(always)]
    fn add(&mut self, k: usize, mut set: u64) {
        let from = self.from[k];
        let all = self.targets[k];
        while set != 0 {
            let to = set.trailing_zeros() as u8;
            set &= set - 1;
            let idx = 8 * k + (all & ((1u64 << to) - 1)).count_ones() as usize;
            let w = square_weight(from, to, self.enemy >> to & 1 != 0);
            self.moves.push_at(idx, Move { from, to }, w);
        }
    }

    /// The next reply in weight order.
    #[inline(always)]
    fn take_best(&mut self) -> Option<Move> {
        while self.tiers_added < LATER_TIERS.len() {
            let (squares, max_weight) = LATER_TIERS[self.tiers_added];
            if self.moves.nonempty >> (max_weight + 1) != 0 {
                break;
            }
            self.tiers_added += 1;
            for k in 0..self.pieces.min(12) {
                self.add(k, self.targets[k] & squares);
            }
        }
        self.moves.take_best().map(|i| self.moves.mv[i])
    }
}

/// For each square of `own` (a side not connected), the squares a piece moving from it must land
/// on to connect the side: next to every group of `own` but the piece's own. (A group that does
/// not hold the moving piece keeps all its pieces and has no other neighbour among them, so it
/// joins the rest only through the landing square.) A necessary condition, tested before the
/// Euler numbers and the flood fill of the exact test. Entries off `own` are 0.
#[inline(always)]
fn win_destinations(own: u64) -> [u64; 64] {
    let mut groups = [0u64; 12];
    let mut m = 0;
    let mut rest = own;
    while rest != 0 {
        let mut g = rest & rest.wrapping_neg();
        loop {
            let next = Bitboard(g).grow().0 & own;
            if next == g {
                break;
            }
            g = next;
        }
        groups[m.min(11)] = Bitboard(g).grow().0;
        rest &= !g;
        m += 1;
    }
    let m = m.min(12);
    let mut reach = [0u64; 64];
    for i in 0..m {
        let mut need = !own;
        for (j, &near) in groups[..m].iter().enumerate() {
            if j != i {
                need &= near;
            }
        }
        // The pieces of `own` in a group's grown set are the group's own (a piece next to a
        // group belongs to it).
        let mut pieces = groups[i] & own;
        while pieces != 0 {
            reach[pieces.trailing_zeros() as usize] = need;
            pieces &= pieces - 1;
        }
    }
    reach
}

/// The neighbour blocks ([`neighbours`]) of a move of a piece of `bb` from `from` to `to`: of
/// `from` among `bb`, and of `to` among `bb` without `from`. The Euler number and the running
/// evaluation terms both follow from them.
#[inline(always)]
fn move_neighbours(bb: u64, from: u8, to: u8) -> (usize, usize) {
    (neighbours(bb, from), neighbours(bb & !(1u64 << from), to))
}

/// Four times the Euler number of a side after one of its pieces moves, from four times the
/// number before and the move's [`move_neighbours`].
#[inline(always)]
fn euler_after_move(euler4: i16, near: (usize, usize)) -> i16 {
    euler4 - add_delta(near.0) + add_delta(near.1)
}

/// Four times the Euler number of a side after its piece with neighbour block `near` is
/// removed.
#[inline(always)]
fn euler_after_removal(euler4: i16, near: usize) -> i16 {
    euler4 - add_delta(near)
}

/// A value for the side choosing at ply 1: a win is [`WIN`], a loss [`LOSS`], a draw 0,
/// otherwise the evaluation before `tanh` from its point of view (always strictly between).
type Value = f32;
/// The value of a win; larger than any evaluation.
const WIN: Value = 1e30;
/// The value of a loss.
const LOSS: Value = -WIN;

/// The game's history as the 2-ply search sees it, with a filter that answers most repetition
/// questions without a scan.
struct History<'a> {
    pos: &'a LinesOfAction,
    /// Bit `key >> 58` set for every key that may be compared (history since the last capture,
    /// and the current position).
    filter: u64,
}

impl<'a> History<'a> {
    fn new(pos: &'a LinesOfAction) -> Self {
        let mut filter = 1u64 << (pos.key >> 58);
        for &k in &pos.history[pos.reversible_from as usize..pos.plies as usize] {
            filter |= 1u64 << (k >> 58);
        }
        History { pos, filter }
    }

    /// Whether the position with key `key`, `ahead` plies (1 or 2, no capture on the way) after
    /// the current one, occurs for the third time. The earlier positions are the history, then
    /// the current position (and the ply-1 position, which never has the same side to move as a
    /// ply-2 one).
    #[inline(always)]
    fn third_time(&self, key: u64, ahead: usize) -> bool {
        if self.filter >> (key >> 58) & 1 == 0 {
            return false;
        }
        let pos = self.pos;
        let now = pos.plies as usize;
        let from = pos.reversible_from as usize;
        let mut i = now + ahead;
        let mut count = 0;
        while i >= from + 2 {
            i -= 2;
            let k = if i < now { pos.history[i] } else { pos.key };
            count += (k == key) as u32;
        }
        count >= 2
    }
}

/// The opponent's evaluation terms after its replies, by reply, for the ply-1 nodes whose
/// move did not capture: there the opponent's pieces before the reply are the same at every
/// node, so a reply searched at several nodes has its terms computed once. Direct-mapped, 64
/// slots; a slot holds the last reply that mapped to it.
struct TermsCache {
    /// The reply in each slot as `64 · from + to`, or `u16::MAX` for an empty slot.
    tag: [u16; 64],
    terms: [SidePoints; 64],
}

impl TermsCache {
    fn new() -> TermsCache {
        TermsCache {
            tag: [u16::MAX; 64],
            terms: [SidePoints {
                empty: true,
                head: 0.0,
                pairs: 0.0,
                area: 0.0,
            }; 64],
        }
    }

    /// The terms of the opponent's pieces after reply `r` from the pieces shared by every
    /// non-capture ply-1 node (`before`); `near` is the reply's [`move_neighbours`].
    #[inline(always)]
    fn get(&mut self, r: Move, before: &RunningTerms, near: (usize, usize)) -> SidePoints {
        let tag = (r.from as u16 & 63) << 6 | r.to as u16 & 63;
        let slot = (tag as u32).wrapping_mul(0x9E37_79B9) >> 26;
        let slot = slot as usize & 63;
        if self.tag[slot] != tag {
            self.tag[slot] = tag;
            self.terms[slot] = points(&before.after_move(r.from, r.to, near));
        }
        debug_assert_eq!(
            self.terms[slot],
            points(&RunningTerms::new(
                before.pieces() ^ (1u64 << r.from) ^ (1u64 << r.to)
            ))
        );
        self.terms[slot]
    }
}

/// The parts of a side's evaluation that depend on its own pieces only (one copy in
/// `compact-code` builds).
#[cfg_attr(not(feature = "compact-code"), inline(always))]
#[cfg_attr(feature = "compact-code", inline(never))]
fn points(terms: &RunningTerms) -> SidePoints {
    eval::side_parts(&terms.terms(), &WEIGHTS)
}

/// The working memory of the ply-1 nodes: the replies and the cache of the opponent's terms.
struct Scratch {
    replies: Replies,
    terms: TermsCache,
}

/// The ply-1 position after one of the chooser's moves, as the replies need it.
struct Node {
    /// The chooser's pieces.
    mine: u64,
    /// The opponent's pieces.
    theirs: u64,
    mine_euler: i16,
    theirs_euler: i16,
    /// The running evaluation sums of the chooser's and the opponent's pieces.
    mine_terms: RunningTerms,
    theirs_terms: RunningTerms,
    key: u64,
    /// Whether the ply-1 move captured (then no ply-2 position can repeat an earlier one).
    captured: bool,
}

/// Both sides' move targets, carried by the αβ playout's loop from one move to the next: the
/// position after the chosen move differs from the searched one on the lines through two
/// squares, so the next move's generation redoes only the pieces on those lines, along them
/// (as a ply-1 node does for the replies), instead of every piece along all four lines.
pub(super) struct Carry {
    /// The pieces (by player) of the position the targets belong to; `[0, 0]`, which no
    /// position has, until the first move.
    pieces: [u64; 2],
    /// `targets[p][sq]`: the destinations of player `p`'s piece on `sq` (stale off `p`'s
    /// pieces).
    targets: [[u64; 64]; 2],
}

impl Carry {
    /// A carry that fits no position.
    pub(super) fn new() -> Carry {
        Carry {
            pieces: [0; 2],
            targets: [[0; 64]; 2],
        }
    }
}

/// Redoes `dst`'s entries for the pieces of `own` on the lines `changed_lines` that a move
/// changed, along those lines only (the other lines through a piece keep their moves), against
/// `enemy`. An entry not yet redone is read from `base` (`None`: from `dst` itself), so that a
/// ply-1 node patches a copy of the current position's targets without copying them first.
/// Line type by line type, a loop over the pieces on the changed lines: a test per piece and
/// per line type went either way about as often (a third of the αβ playout's mispredictions).
/// One copy in `compact-code` builds (the browser's module counts its bytes).
#[cfg_attr(not(feature = "compact-code"), inline(always))]
#[cfg_attr(feature = "compact-code", inline(never))]
fn patch_targets(
    pos: &LinesOfAction,
    base: Option<&[u64; 64]>,
    dst: &mut [u64; 64],
    changed_lines: &[u64; 4],
    own: u64,
    enemy: u64,
) {
    let mut touched = 0u64;
    patch_line::<0>(pos, base, dst, &mut touched, changed_lines, own, enemy);
    patch_line::<1>(pos, base, dst, &mut touched, changed_lines, own, enemy);
    patch_line::<2>(pos, base, dst, &mut touched, changed_lines, own, enemy);
    patch_line::<3>(pos, base, dst, &mut touched, changed_lines, own, enemy);
    // Against the branching form: the two generators check each other.
    #[cfg(debug_assertions)]
    for sq in Bitboard(touched) {
        let sq = sq as usize;
        debug_assert_eq!(
            dst[sq],
            pos.targets_from(sq, Bitboard(own), Bitboard(enemy)).0
        );
    }
}

/// [`patch_targets`] along the lines of type `LINE`.
#[inline(always)]
fn patch_line<const LINE: usize>(
    pos: &LinesOfAction,
    base: Option<&[u64; 64]>,
    dst: &mut [u64; 64],
    touched: &mut u64,
    changed_lines: &[u64; 4],
    own: u64,
    enemy: u64,
) {
    let mut rest = own & changed_lines[LINE];
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize & 63;
        rest &= rest - 1;
        let old = match base {
            // Without a branch: whether an earlier line type redid the entry is as good as
            // random.
            Some(base) => {
                let redone = (*touched >> sq & 1).wrapping_neg();
                dst[sq] & redone | base[sq] & !redone
            }
            None => dst[sq],
        };
        *touched |= 1u64 << sq;
        dst[sq] = old & !LINES[LINE][sq] | pos.targets_along_branchless(LINE, sq, own, enemy);
    }
}

/// The lines of each type through the two squares move `m` changes: a piece on one of them
/// has new moves along that line only.
#[inline(always)]
fn changed_lines(m: Move) -> [u64; 4] {
    [0, 1, 2, 3].map(|t| LINES[t][m.from as usize & 63] | LINES[t][m.to as usize & 63])
}

impl LinesOfAction {
    /// The αβ playout in its own loop ([`crate::Game::alpha_beta_playout`]): the general playout
    /// loop's tests in its order (the end of the game, the fixed cutoff, `det` after every
    /// `interval`-th move, the ply cap), then [`Self::two_ply_playout_move`] with the targets
    /// carried from the move before, and the move made with the repetition test filtered
    /// ([`Self::filtered_playout_with_cutoffs`]).
    pub(super) fn alpha_beta_playout_loop(
        &mut self,
        rng: &mut SearchRng,
        settings: &PlayoutCutoffs<eval::LinesOfActionEval>,
        max_plies: u32,
    ) -> (f32, u32) {
        let mut carry = Carry::new();
        self.filtered_playout_with_cutoffs(settings, max_plies, |pos| {
            pos.two_ply_playout_move(settings.eval, rng, &mut carry)
        })
    }

    /// The αβ-playout move (see the module documentation); `self` is not changed. `carry`
    /// holds both sides' targets if it fits this position (they are worked out otherwise), and
    /// is left fitting the position after the returned move unless that move ends the game or
    /// the search went to the reference.
    pub(super) fn two_ply_playout_move(
        &mut self,
        eval: eval::LinesOfActionEval,
        rng: &mut SearchRng,
        carry: &mut Carry,
    ) -> Move {
        // The evaluation is the only one Lines of Action has.
        let eval::LinesOfActionEval::Mia = eval;
        let me = self.side;
        let us = me.index();
        // This search works on the raw words (weight buckets and reply tables index by bits).
        let own = self.pieces[us].0;
        let enemy = self.pieces[us ^ 1].0;
        let pieces = [self.pieces[0].0, self.pieces[1].0];
        if carry.pieces != pieces {
            for (p, targets) in carry.targets.iter_mut().enumerate() {
                let mut rest = pieces[p];
                while rest != 0 {
                    let from = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    targets[from] = self
                        .targets_from_branchless(from, self.pieces[p], self.pieces[p ^ 1])
                        .0;
                }
            }
            carry.pieces = pieces;
        }
        let [own_targets, reply_targets] = if us == 0 {
            [&carry.targets[0], &carry.targets[1]]
        } else {
            [&carry.targets[1], &carry.targets[0]]
        };
        let mut first = Moves::new();
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let targets = own_targets[from as usize];
            debug_assert_eq!(
                targets,
                self.targets_from(from as usize, Bitboard(own), Bitboard(enemy))
                    .0
            );
            first.push_targets(from, targets, enemy);
        }
        if self.rules != LinesOfActionRules::default()
            || first.len == 0
            || self.plies as usize + 2 >= HISTORY_CAPACITY
        {
            return two_ply_move_selective(self, eval, rng, FIRST_PLY_MOVES);
        }
        let own_euler = self.euler4[us];
        let enemy_euler = self.euler4[us ^ 1];

        // A move that wins at once, when the cut could hide it: the first in weight order.
        if first.len > FIRST_PLY_MOVES {
            let reach = win_destinations(own);
            let win = first.first_where(|m| {
                let to = 1u64 << m.to;
                if reach[m.from as usize & 63] & to == 0 {
                    return false;
                }
                let mine = own ^ (1u64 << m.from) ^ to;
                // Both sides connected (after a capture) is a draw under these rules.
                connected(
                    Bitboard(mine),
                    euler_after_move(own_euler, move_neighbours(own, m.from, m.to)),
                ) && (enemy & to == 0 || !connected(Bitboard(enemy & !to), 0))
            });
            if let Some(m) = win {
                return m;
            }
        }

        // The opponent's moves from the current position are `reply_targets`, piece by piece:
        // a ply-1 node recomputes only the pieces on the lines of the squares its move changed.
        // A ply-1 node's patched reply targets (entries off the pieces on changed lines stale).
        let mut patched = [0u64; 64];
        let mut scratch = Scratch {
            replies: Replies::new(),
            terms: TermsCache::new(),
        };
        let sides = [RunningTerms::new(own), RunningTerms::new(enemy)];
        let history = History::new(self);
        let me_black = me == Player::First;
        let mut best = Move::PASS;
        let mut best_v = f32::NEG_INFINITY;
        let mut ties = 0u32;
        for n in 0..FIRST_PLY_MOVES {
            let Some(i) = first.take_best() else { break };
            let m = first.mv[i];
            if n == 0 {
                best = m;
            }
            let node = self.node_after(m, &sides, own_euler, enemy_euler);
            let changed_lines = changed_lines(m);
            let changed = changed_lines[0] | changed_lines[1] | changed_lines[2] | changed_lines[3];
            let v = self.move_value(
                &node,
                me_black,
                best_v,
                &history,
                |replies: &mut Replies| {
                    replies.start(node.mine);
                    let (theirs, mine) = (node.theirs, node.mine);
                    let base = Some(reply_targets);
                    patch_targets(self, base, &mut patched, &changed_lines, theirs, mine);
                    let mut rest = theirs;
                    while rest != 0 {
                        let from = rest.trailing_zeros() as usize & 63;
                        rest &= rest - 1;
                        // The patched entry for a piece on a changed line, without a branch.
                        let on = (changed >> from & 1).wrapping_neg();
                        let targets = patched[from] & on | reply_targets[from] & !on;
                        replies.piece(from as u8, targets);
                    }
                },
                &mut scratch,
            );
            if v == WIN {
                return m;
            }
            if v > best_v {
                best_v = v;
                best = m;
                ties = 1;
            } else if v == best_v {
                ties += 1;
                if below(rng, ties) == 0 {
                    best = m;
                }
            }
        }
        // The targets after the chosen move, for the next playout move: the pieces on the
        // lines it changed, along those lines. (`compact-code` builds play αβ playouts in the
        // general loop, which carries nothing from one move to the next.)
        if cfg!(feature = "compact-code") {
            return best;
        }
        let changed_lines = changed_lines(best);
        let (from, to) = (best.from as usize & 63, best.to as usize & 63);
        let own2 = own ^ (1u64 << from) ^ (1u64 << to);
        let enemy2 = enemy & !(1u64 << to);
        patch_targets(
            self,
            None,
            &mut carry.targets[us ^ 1],
            &changed_lines,
            enemy2,
            own2,
        );
        // All four lines through the moved piece's square changed, so its entry is redone
        // whole (whatever it held before).
        patch_targets(
            self,
            None,
            &mut carry.targets[us],
            &changed_lines,
            own2,
            enemy2,
        );
        carry.pieces[us] = own2;
        carry.pieces[us ^ 1] = enemy2;
        best
    }

    /// The position after the chooser's move `m`; `sides` are the chooser's and the
    /// opponent's running terms before it.
    #[inline(always)]
    fn node_after(
        &self,
        m: Move,
        sides: &[RunningTerms; 2],
        own_euler: i16,
        enemy_euler: i16,
    ) -> Node {
        let (own, enemy) = (sides[0].pieces(), sides[1].pieces());
        let us = self.side.index();
        let (from, to) = (m.from, m.to);
        let to_bit = 1u64 << to;
        let captured = enemy & to_bit != 0;
        let mut key =
            self.key ^ ZOBRIST[us][from as usize] ^ ZOBRIST[us][to as usize] ^ ZOBRIST_SIDE;
        let mut theirs_euler = enemy_euler;
        let mut theirs_terms = sides[1];
        if captured {
            key ^= ZOBRIST[us ^ 1][to as usize];
            let near = neighbours(enemy, to);
            theirs_euler = euler_after_removal(enemy_euler, near);
            theirs_terms = theirs_terms.after_removal(to, near);
        }
        let near = move_neighbours(own, from, to);
        Node {
            mine: own ^ (1u64 << from) ^ to_bit,
            theirs: enemy & !to_bit,
            mine_euler: euler_after_move(own_euler, near),
            theirs_euler,
            mine_terms: sides[0].after_move(from, to, near),
            theirs_terms,
            key,
            captured,
        }
    }

    /// The value (see [`Value`]) of the ply-1 position `node`: its result if the game is over,
    /// else the worst over the selected replies, which stop once it is below `bound` (it cannot
    /// beat the best move found).
    #[inline(always)]
    fn move_value(
        &self,
        node: &Node,
        me_black: bool,
        bound: Value,
        history: &History<'_>,
        generate_replies: impl FnOnce(&mut Replies),
        scratch: &mut Scratch,
    ) -> Value {
        let Scratch {
            replies,
            terms: terms_cache,
        } = scratch;
        let us = self.side.index();
        let (mine, theirs) = (node.mine, node.theirs);
        // The chooser just moved: its group may have connected; the opponent's only on a capture.
        let mine_conn = connected(Bitboard(mine), node.mine_euler);
        let theirs_conn = node.captured && connected(Bitboard(theirs), node.theirs_euler);
        match (mine_conn, theirs_conn) {
            (true, true) => return 0.0,
            (true, false) => return WIN,
            (false, true) => return LOSS,
            (false, false) => {}
        }
        if !node.captured && history.third_time(node.key, 1) {
            return 0.0;
        }
        let mine_terms = points(&node.mine_terms);
        let leaf =
            |mine: u64, theirs: u64, mine_terms: &SidePoints, theirs_terms: SidePoints| -> Value {
                let (wm, wt) = (eval::walls(mine, theirs), eval::walls(theirs, mine));
                // The chooser is to move at a leaf.
                if me_black {
                    eval::raw_score(mine_terms, &theirs_terms, wm, wt, true, &WEIGHTS)
                } else {
                    -eval::raw_score(&theirs_terms, mine_terms, wt, wm, false, &WEIGHTS)
                }
            };
        generate_replies(replies);
        if replies.any == 0 {
            // The opponent must pass: nothing changes but the side to move.
            let key = node.key ^ ZOBRIST_SIDE;
            if !node.captured && history.third_time(key, 2) {
                return 0.0;
            }
            return leaf(mine, theirs, &mine_terms, points(&node.theirs_terms));
        }
        let mut worst = f32::INFINITY;
        for _ in 0..SELECTIVE_REPLIES {
            let Some(r) = replies.take_best() else { break };
            let (from, to) = (r.from, r.to);
            let to_bit = 1u64 << to;
            let rcap = mine & to_bit != 0;
            let theirs2 = theirs ^ (1u64 << from) ^ to_bit;
            let mine2 = mine & !to_bit;
            let near = move_neighbours(theirs, from, to);
            let theirs_conn =
                connected(Bitboard(theirs2), euler_after_move(node.theirs_euler, near));
            let mine_conn = rcap
                && connected(
                    Bitboard(mine2),
                    euler_after_removal(node.mine_euler, neighbours(mine, to)),
                );
            let e = match (theirs_conn, mine_conn) {
                (true, true) => 0.0,
                (true, false) => LOSS,
                (false, true) => WIN,
                (false, false) => {
                    let repeated = !node.captured && !rcap && {
                        let key = node.key
                            ^ ZOBRIST[us ^ 1][from as usize]
                            ^ ZOBRIST[us ^ 1][to as usize]
                            ^ ZOBRIST_SIDE;
                        history.third_time(key, 2)
                    };
                    if repeated {
                        0.0
                    } else {
                        // The opponent's pieces after its reply depend only on the reply
                        // when the ply-1 move did not capture.
                        let theirs_terms = if node.captured {
                            points(&node.theirs_terms.after_move(from, to, near))
                        } else {
                            terms_cache.get(r, &node.theirs_terms, near)
                        };
                        if rcap {
                            let near = neighbours(mine, to);
                            let mine2_terms = points(&node.mine_terms.after_removal(to, near));
                            leaf(mine2, theirs2, &mine2_terms, theirs_terms)
                        } else {
                            leaf(mine2, theirs2, &mine_terms, theirs_terms)
                        }
                    }
                }
            };
            if e < worst {
                worst = e;
                if worst < bound {
                    break;
                }
            }
        }
        worst
    }
}
