//! Expansion: a node's children are allocated in the pool (all legal moves, or the Dist(k)
//! candidates) and, as they enter the tree, get their node prior, terminal status, solver proof
//! and static evaluation.

use super::Mcts;
use crate::game::{Game, MoveBuffer, Player};
use crate::rng::below;
use crate::search::config::{Expansion, MctsConfig};
use crate::search::node::{Node, NodeId, Proven, flag};

/// The most children `code-ties` puts in the paper's code's order (more than any game here
/// has: Gomoku's 225 is the largest).
const MAX_SORTED: usize = 256;

/// The order of `moves` in the paper's code's generation order ([`Game::paper_code_order`];
/// stable, so moves with equal keys keep ours), for `code-ties`: the `i`-th child is
/// `moves[order[i]]`. `None` (our order) if there are more than [`MAX_SORTED`]. The one-thread
/// and the parallel expansion both use it, once per expansion.
pub(crate) fn in_paper_code_order<G: Game>(
    game: &G,
    moves: &[G::Move],
) -> Option<[u8; MAX_SORTED]> {
    if moves.len() > MAX_SORTED {
        return None;
    }
    let mut keys = [0u16; MAX_SORTED];
    for (k, &mv) in keys.iter_mut().zip(moves) {
        *k = game.paper_code_order(mv);
    }
    Some(order_by_keys(&keys[..moves.len()]))
}

/// The stable order of `keys` (at most [`MAX_SORTED`]): `order[i]` is the index of the `i`-th
/// smallest. Not generic: one copy for every game (the browser's module counts its bytes).
/// One 256-byte array besides the set, so that the firmware's stack holds little more than the
/// order itself (its `mcts(ipp,im0.4)` on Breakthrough sorts at every expansion).
#[cfg_attr(feature = "compact-code", inline(never))]
fn order_by_keys(keys: &[u16]) -> [u8; MAX_SORTED] {
    // Distinct keys below 256 (Breakthrough's: a square and a direction each) sort through a
    // 256-bit set: mark each key, then read the set out in key order. Linear, where an
    // insertion sort of 20-50 children cost 12% of a `bl'` simulation. `order` first holds
    // each key's index at the key's slot, then the order itself: the `n`-th key read out is
    // written to slot `n`, never past the key's own slot, and slots are read in key order, so
    // no slot is written before it is read.
    let mut order = [0u8; MAX_SORTED];
    let mut set = [0u64; 4];
    let mut distinct = true;
    for (i, &k) in keys.iter().enumerate() {
        let k = usize::from(k);
        let bit = 1u64 << (k % 64);
        if k >= 256 || set[k / 64] & bit != 0 {
            distinct = false;
            break;
        }
        set[k / 64] |= bit;
        order[k] = i as u8;
    }
    if distinct {
        let mut n = 0;
        for (w, &word) in set.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                order[n] = order[w * 64 + rest.trailing_zeros() as usize];
                n += 1;
                rest &= rest - 1;
            }
        }
        return order;
    }
    // Otherwise (equal keys, as Kalah's and Lines of Action's, which are all 0) an insertion
    // sort of the indices by key: it moves an index only past strictly larger keys, so equal
    // keys keep our order (with all keys equal nothing moves).
    for (i, o) in order.iter_mut().enumerate().take(keys.len()) {
        *o = i as u8;
    }
    for i in 1..keys.len() {
        let idx = order[i];
        let k = keys[usize::from(idx)];
        let mut j = i;
        while j > 0 && keys[usize::from(order[j - 1])] > k {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = idx;
    }
    order
}

impl<G: Game> Mcts<'_, G> {
    /// Allocates `node`'s children (the position is `game`). With all-children expansion each
    /// child is evaluated and `v` gets its one-ply backup. Returns `false` if the pool is full.
    pub(crate) fn expand(&mut self, node: NodeId, game: &mut G) -> bool {
        let mut moves = G::MoveList::default();
        // With `code-ties` the children go in the paper's code's order: generated so where the
        // game can, sorted below otherwise.
        let sorted = self.config.code_ties
            && self.config.bbq.dist.is_none()
            && game.legal_moves_in_paper_code_order(&mut moves);
        match self.config.bbq.dist {
            _ if sorted => {}
            None => game.legal_moves(&mut moves),
            Some(k) => game.candidate_moves(k, &mut moves),
        }
        let moves = moves.moves();
        let count = moves.len() as u32;
        if count == 0 {
            // Finished games are flagged terminal when created; nothing to expand.
            self.pool.get_mut(node).flags |= flag::TERMINAL;
            return true;
        }
        let mover_flag = if game.side_to_move() == Player::Second {
            flag::MOVER_SECOND
        } else {
            0
        };
        let order = if self.config.code_ties && !sorted {
            in_paper_code_order(game, moves)
        } else {
            None
        };
        // With all-children expansion each child is written once, its start included.
        let all = self.config.expansion == Expansion::AllChildren;
        let rules = child_rules(&self.config);
        let Some(first) = self.pool.alloc_children(count, |i| {
            let i = i as usize;
            // `code-ties` reorders the children.
            let m = moves[order.as_ref().map_or(i, |o| usize::from(o[i]))];
            let mut c = Node {
                mv: G::encode_move(m),
                flags: mover_flag,
                ..Node::EMPTY
            };
            if all {
                start_child(&rules, game, m, &mut c);
            }
            c
        }) else {
            return false;
        };
        let n = self.pool.get_mut(node);
        n.first_child = first.0;
        n.children = count as u16;
        n.flags |= flag::EXPANDED;
        if all {
            self.pool.get_mut(node).added = count as u16;
            self.refresh_node(node, true);
        }
        true
    }

    /// Enters one more child of `node` (one-child-per-simulation expansion), chosen at random
    /// among those not yet added, and returns it.
    pub(super) fn add_child(&mut self, node: NodeId, game: &mut G) -> NodeId {
        let n = *self.pool.get(node);
        let slot = n.first_child + n.added as u32;
        let remaining = (n.children - n.added) as u32;
        let pick = slot + below(&mut self.rng, remaining);
        if pick != slot {
            let a = self.pool.get(NodeId(slot)).mv;
            let b = self.pool.get(NodeId(pick)).mv;
            self.pool.get_mut(NodeId(slot)).mv = b;
            self.pool.get_mut(NodeId(pick)).mv = a;
        }
        self.init_child(NodeId(slot), game);
        self.pool.get_mut(node).added += 1;
        self.refresh_node(node, true);
        NodeId(slot)
    }

    /// Fills in a new child: node prior, terminal status (and proof), static evaluation.
    fn init_child(&mut self, id: NodeId, game: &mut G) {
        let code = self.pool.get(id).mv;
        let Some(mv) = G::decode_move(code) else {
            return;
        };
        let rules = child_rules(&self.config);
        start_child(&rules, game, mv, self.pool.get_mut(id));
    }
}

/// What [`start_child`] reads a child's start from: the rules, read once an expansion.
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn child_rules<G: Game>(cfg: &MctsConfig<G>) -> StartRules<G> {
    StartRules::of(cfg)
}

/// What [`start_child`] reads a child's start from: small-code builds read the configuration
/// in the one shared copy of `start_child`.
#[cfg(feature = "compact-code")]
#[inline(always)]
fn child_rules<G: Game>(cfg: &MctsConfig<G>) -> &MctsConfig<G> {
    cfg
}

/// [`StartRules::start`] of `mv` written into the new child `c`, with the rules read once an
/// expansion.
#[cfg(not(feature = "compact-code"))]
#[inline(always)]
fn start_child<G: Game>(rules: &StartRules<G>, game: &mut G, mv: G::Move, c: &mut Node) {
    rules.start(game, mv).apply(c);
}

/// [`child_start`] of `mv` written into the new child `c`: out of line in `compact-code`
/// builds, so that both expansions share one copy of it (2.4 KB of the browser's module),
/// which reads the configuration itself (the page's module is smaller so).
#[cfg(feature = "compact-code")]
#[inline(never)]
fn start_child<G: Game>(cfg: &&MctsConfig<G>, game: &mut G, mv: G::Move, c: &mut Node) {
    child_start(cfg, game, mv).apply(c);
}

/// What a new child starts with ([`child_start`]).
pub(crate) struct ChildStart {
    /// Its static value from the parent's mover's view: the reward of a finished position,
    /// the evaluation when the search uses one at the children, 0 otherwise.
    pub value: f32,
    /// Whether the game is over after the move.
    pub terminal: bool,
    /// Its proof when the game is over and the solver is on; unknown otherwise.
    pub proven: Proven,
    /// Node priors' virtual visits and reward, for an unfinished position.
    pub prior: Option<(u32, f32)>,
}

impl ChildStart {
    /// Writes this start into the new child `c`.
    #[inline(always)]
    pub(crate) fn apply(self, c: &mut Node) {
        c.value = self.value;
        if self.terminal {
            c.flags |= flag::TERMINAL;
        }
        if self.proven != Proven::Unknown {
            c.proven = self.proven;
        }
        if let Some((visits, reward)) = self.prior {
            c.set_stats(visits, reward);
        }
    }
}

/// The node prior, terminal status (and proof) and static value of the child reached by `mv`
/// from `game`, which is left as it was ([`StartRules::start`]). The parallel expansion uses
/// it; the one-thread expansion reads the rules once for all of a node's children.
#[inline(always)]
#[cfg_attr(
    not(all(
        target_has_atomic = "8",
        target_has_atomic = "16",
        target_has_atomic = "32"
    )),
    allow(dead_code)
)]
pub(crate) fn child_start<G: Game>(cfg: &MctsConfig<G>, game: &mut G, mv: G::Move) -> ChildStart {
    StartRules::of(cfg).start(game, mv)
}

/// What of the configuration decides a new child's start, read once an expansion: read at
/// every child, through the configuration, its tests were some 10 instructions a child of a
/// `bl'` expansion (callgrind), which the compiler did not take out of the loop.
pub(crate) struct StartRules<G: Game> {
    /// Node priors' virtual visits, when the game has node priors.
    node_priors: Option<u32>,
    /// Evaluation priors' virtual visits.
    eval_priors: Option<u32>,
    /// Whether the child's evaluation is needed ([`MctsConfig::needs_child_eval`]).
    child_eval: bool,
    /// The evaluation function.
    eval: G::Eval,
    /// Whether finished children are proven.
    solver: bool,
    /// `code-end-eval`: a finished child's value is the paper's code's evaluation of it.
    code_end_eval: bool,
    /// `code-unproven-draws`: finished draws are not proven.
    code_unproven_draws: bool,
}

impl<G: Game> StartRules<G> {
    /// The rules of `cfg`.
    #[inline(always)]
    pub(crate) fn of(cfg: &MctsConfig<G>) -> Self {
        StartRules {
            node_priors: cfg.node_priors.filter(|_| G::HAS_NODE_PRIORS),
            eval_priors: cfg.eval_priors,
            child_eval: cfg.needs_child_eval(),
            eval: cfg.eval,
            solver: cfg.solver,
            code_end_eval: cfg.code_end_eval,
            code_unproven_draws: cfg.code_unproven_draws,
        }
    }

    /// The node prior, terminal status (and proof) and static value of the child reached by
    /// `mv` from `game`, which is left as it was. The end test alone goes through
    /// [`Game::outcome_after`], with the evaluation through [`Game::evaluate_after`];
    /// Breakthrough answers both without make and undo.
    #[inline(always)]
    pub(crate) fn start(&self, game: &mut G, mv: G::Move) -> ChildStart {
        let me = game.side_to_move();
        let prior = match self.node_priors {
            Some(virtual_visits) => game
                .node_prior(mv)
                .map(|rate| (virtual_visits, rate.clamp(0.0, 1.0))),
            None => None,
        };
        let (outcome, mut value) = if self.child_eval {
            game.evaluate_after(mv, self.eval, me)
        } else {
            let outcome = game.outcome_after(mv);
            (outcome, outcome.map_or(0.0, |o| o.reward(me)))
        };
        // `code-end-eval`: the code's `expand` evaluates every child, a finished one too.
        if self.code_end_eval && self.child_eval && outcome.is_some() {
            if let Some(v) = game.paper_code_end_value(mv, self.eval, me) {
                value = v;
            }
        }
        let proven = match outcome {
            Some(o) if self.solver => match o.reward(me) {
                r if r > 0.0 => Proven::Win,
                r if r < 0.0 => Proven::Loss,
                // `code-unproven-draws`: the code's solver knows wins and losses only.
                _ if self.code_unproven_draws => Proven::Unknown,
                _ => Proven::Draw,
            },
            _ => Proven::Unknown,
        };
        ChildStart {
            value,
            terminal: outcome.is_some(),
            proven,
            // As in the paper's code, finished positions get no prior: the solver values them.
            // `rate * nv` is finite and not negative (the rate is clamped), so the conversion's
            // truncation is `floor`.
            prior: match (prior, outcome) {
                (Some((nv, rate)), None) => {
                    let wins = (rate * nv as f32) as u32;
                    Some((nv, wins as f32 - (nv - wins) as f32))
                }
                // Evaluation priors: `nv` visits at the mean `value` (in [-1, 1]).
                (None, None) => self.eval_priors.map(|nv| (nv, value * nv as f32)),
                _ => None,
            },
        }
    }
}
