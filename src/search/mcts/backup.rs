//! Backup: after the playout, the path's nodes take the reward bottom up (visits and rewards,
//! max-backprop, BBQ's best value through the [`Rewards`] hook) and each parent recomputes its
//! implicit minimax value and solver proof from its children ([`Mcts::refresh`]).

use super::hooks::Rewards;
use super::{Mcts, PathStep, for_first};
use crate::game::{Game, Player};
#[cfg(not(feature = "compact-code"))]
use crate::search::config::MAX_ADDED_VISITS;
use crate::search::node::{NodeId, Proven, flag};
use crate::search::stats;

impl<G: Game> Mcts<'_, G> {
    /// Updates the path's nodes with the leaf's reward (first player's view), bottom up:
    /// [`Rewards::visits`] visits each with that mean reward (or, where [`Rewards::backed`]
    /// says so, BBQ's best value as the node's mean), max-backprop's switch to the best child's
    /// mean, then the parent's implicit value and proof.
    #[inline(always)]
    pub(super) fn backpropagate<H: Rewards<G>>(&mut self, path: &[PathStep<G>], reward_first: f32) {
        // No node has more visits than the root and a node prior's virtual ones (at most
        // `MAX_ADDED_VISITS`): while the root is that far below the count where a statistic
        // turns into a mean, every node on the path adds to its sum, and the copy of the loop
        // that knows it tests no node's count (one test a level was 2-4% of a simulation's
        // instructions). Small-code builds keep one copy.
        #[cfg(not(feature = "compact-code"))]
        if self.pool.get(NodeId::ROOT).visits < stats::MEAN_FROM - 2 * MAX_ADDED_VISITS {
            return self.backpropagate_with::<H, true>(path, reward_first);
        }
        self.backpropagate_with::<H, false>(path, reward_first)
    }

    /// [`backpropagate`](Self::backpropagate); `SUMS`: every node on the path is far enough
    /// below [`stats::MEAN_FROM`] visits to add to its sum. Each copy is a function of its own
    /// (inlined together, the two made the common one's loop about 6 instructions a level
    /// longer).
    #[inline(never)]
    fn backpropagate_with<H: Rewards<G>, const SUMS: bool>(
        &mut self,
        path: &[PathStep<G>],
        mut reward_first: f32,
    ) {
        let k = H::visits(&self.config);
        for i in (0..path.len()).rev() {
            let (id, _, _, before) = path[i];
            let parent = if i == 0 { NodeId::ROOT } else { path[i - 1].0 };
            let backed = H::backed(self, id);
            let c = self.pool.get_mut(id);
            c.flags |= flag::VISITED;
            // `code-proof-visits`: the paper's code returns at a proof before updating the node
            // (a proven leaf, or a node its child just proved), so it takes no visit.
            if !(self.config.code_proof_visits && c.proven != Proven::Unknown) {
                match backed {
                    Some(v) => {
                        c.visits += k;
                        c.stat = stats::with_mean(c.visits, v);
                    }
                    // With one visit per simulation (`k = 1`) this is exactly `+= reward`.
                    None => {
                        let r = k as f32 * for_first(reward_first, c.mover());
                        if SUMS {
                            c.visits += k;
                            c.stat += r;
                        } else {
                            c.add_stats(k, r);
                        }
                    }
                }
            }
            if let Some(t) = self.config.max_backprop {
                if c.visits >= t && c.is(flag::EXPANDED) {
                    if let Some(m) = self.best_mean(id) {
                        reward_first = m;
                    }
                }
            }
            // A parent's proof can only change when a child is proven; its implicit value
            // whenever a child's value may have changed.
            if self.config.backs_up_values() {
                self.refresh_after(parent, id, before);
            } else if self.pool.get(id).proven != Proven::Unknown {
                self.refresh(parent);
            }
        }
        let root = self.pool.get_mut(NodeId::ROOT);
        root.visits += k;
        root.flags |= flag::VISITED;
    }

    /// [`refresh`](Self::refresh) of `parent` after its child `child`, whose value was `before`
    /// when the parent was last refreshed, may have changed: an incremental max. Neither is
    /// proven, so the proof and the draw bounds cannot have changed (only a child's proof changes
    /// them); the value `±max_c v(c)` is then
    /// - the child's new value if that beats the old max: no other child can equal it;
    /// - unchanged if the child is below the old max now and was before: the children at the
    ///   max are untouched, and the max over the same values is the same to the bit (a fold of
    ///   `f32::max` takes its result from the values that attain it);
    /// - unchanged if the child's value is the same to the bit as before: every child is as it
    ///   was at the parent's last refresh (the common case of the best child whose subtree's
    ///   max did not move, which used to rescan);
    ///
    /// and otherwise (the best child got worse, or ties) the children are rescanned. The result
    /// is bit-identical to a rescan (`incremental_implicit_backup_equals_a_rescan_to_the_bit`).
    #[inline(always)]
    pub(super) fn refresh_after(&mut self, parent: NodeId, child: NodeId, before: f32) {
        let c = self.pool.get(child);
        let p = self.pool.get(parent);
        if c.proven == Proven::Unknown && p.proven == Proven::Unknown {
            let sign = if c.mover() == p.mover() { 1.0 } else { -1.0 };
            let max = sign * p.value;
            let after = c.value;
            if after > max {
                self.pool.get_mut(parent).value = sign * after;
                return;
            }
            // Below the max now and before, or not changed at all (often the best child,
            // whose subtree's max stayed where it was): the parent's max is the same.
            if (after < max && before < max) || after.to_bits() == before.to_bits() {
                return;
            }
        }
        self.refresh(parent);
    }

    /// Recomputes `node`'s implicit value and proof from its children (one-ply backup).
    pub(crate) fn refresh(&mut self, node: NodeId) {
        self.refresh_node(node, false);
    }

    /// [`refresh`](Self::refresh) of a node whose children were just made (`expanding`): the
    /// paper's code computes a node's implicit value when it expands it even if a child then
    /// proves it (a finished child counts its exact result, so a node won or lost in one ply
    /// gets its proven value either way), and otherwise leaves a proven node's value as it was.
    pub(super) fn refresh_node(&mut self, node: NodeId, expanding: bool) {
        let n = *self.pool.get(node);
        let children = self.pool.children(node);
        let Some(first) = children.first() else {
            return;
        };
        // Children are moved into by the side to move at `node`; `node` by its own mover.
        let same = first.mover() == n.mover();
        let sign = if same { 1.0 } else { -1.0 };
        let mut proven = Proven::Unknown;
        let mut bound = 0u8;
        if self.config.solver {
            let mut all_proven = n.added == n.children;
            let mut best = Proven::Loss;
            for c in children {
                match c.proven {
                    Proven::Win => {
                        best = Proven::Win;
                        all_proven = true;
                        break;
                    }
                    Proven::Unknown => all_proven = false,
                    Proven::Draw => best = Proven::Draw,
                    Proven::Loss => {}
                }
            }
            if all_proven {
                proven = if same { best } else { best.flipped() };
            } else if best == Proven::Draw {
                // The side to move here can at least draw (score-bounded MCTS, draws only).
                bound = if same {
                    flag::AT_LEAST_DRAW
                } else {
                    flag::AT_MOST_DRAW
                };
            }
        }
        let backs_up = self.config.backs_up_values();
        let value = match proven.reward() {
            // The paper's text (`text-proven`): proofs override approximations.
            Some(r) if self.config.text_proven || !backs_up => Some(r),
            // Its code (row B13 of docs/reproduction.md): the value from before the proof stays,
            // and the parent's max below takes it like any other child's.
            Some(_) if !expanding => None,
            _ if backs_up => {
                let max = children
                    .iter()
                    .map(|c| c.value)
                    .fold(f32::NEG_INFINITY, f32::max);
                Some(sign * max)
            }
            _ => None,
        };
        let n = self.pool.get_mut(node);
        n.proven = proven;
        n.flags = (n.flags & !(flag::AT_LEAST_DRAW | flag::AT_MOST_DRAW)) | bound;
        if let Some(v) = value {
            n.value = v;
        }
    }

    /// Best win: the value of `node` for its mover, the best of its visited children's values
    /// for the player to move there (a finished child's exact result, a proven child's proven
    /// reward, otherwise its mean, which is its own best value). `None` if no child is visited.
    pub(super) fn best_value(&self, node: NodeId) -> Option<f32> {
        let n = self.pool.get(node);
        let mut best = f32::NEG_INFINITY;
        let mut same = true;
        let mut any = false;
        for c in self.pool.children(node) {
            if c.visits == 0 {
                continue;
            }
            let v = if c.is(flag::TERMINAL) {
                c.mean()
            } else {
                c.proven.reward().unwrap_or_else(|| c.mean())
            };
            if v > best {
                best = v;
            }
            same = c.mover() == n.mover();
            any = true;
        }
        any.then_some(if same { best } else { -best })
    }

    /// Max-backprop: the best visited child's mean at `node`, as the first player's reward.
    pub(super) fn best_mean(&self, node: NodeId) -> Option<f32> {
        let mut best: Option<(f32, Player)> = None;
        for c in self.pool.children(node) {
            if c.visits == 0 {
                continue;
            }
            let m = c.proven.reward().unwrap_or_else(|| c.mean());
            if best.is_none_or(|(b, _)| m > b) {
                best = Some((m, c.mover()));
            }
        }
        best.map(|(m, mover)| for_first(m, mover))
    }
}
