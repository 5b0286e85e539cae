//! The pieces of a simulation that paper 003's options change, chosen once per search: the
//! searcher runs [`Mcts::simulate`] with [`Plain`] or with [`Bbq`], each a separate compiled
//! instance, so the default search carries no trace of the options.
//!
//! [`Bbq`] shapes the rewards of leaves and playouts ([`BbqConfig::shape`]: depth cap, quick and
//! big win), runs [`BbqConfig::playouts`] playouts per simulation within the depth cap, and backs
//! up the best child's value instead of the mean (best win). Dist(k) needs no hook: expansion
//! and playouts read [`BbqConfig::dist`] themselves.

use super::Mcts;
use crate::game::{Game, Player};
use crate::search::bbq::BbqConfig;
use crate::search::config::MctsConfig;
use crate::search::node::{NodeId, flag};
use crate::search::playout;

/// What a simulation does at its leaf and on the way back up.
pub(super) trait Rewards<G: Game> {
    /// Visits one simulation adds to each node of its path.
    fn visits(cfg: &MctsConfig<G>) -> u32;

    /// The first player's reward of a leaf the solver has proven (`reward`: the proven value
    /// for the first player), `depth` plies below the root.
    fn proven(cfg: &MctsConfig<G>, reward: f32, depth: u32) -> f32;

    /// The first player's reward of a finished game `game` (`reward`: its result for the first
    /// player), `depth` plies below the root.
    fn finished(cfg: &MctsConfig<G>, game: &G, reward: f32, depth: u32) -> f32;

    /// The first player's reward of playing out from `game`, `depth` plies below the root.
    /// `time_up` says whether the search's time budget is spent.
    fn playout(m: &mut Mcts<'_, G>, game: &G, depth: u32, time_up: &mut dyn FnMut() -> bool)
    -> f32;

    /// A mean that replaces node `id`'s accumulated reward in the backup, if any.
    fn backed(m: &Mcts<'_, G>, id: NodeId) -> Option<f32>;
}

/// Plain MCTS: one playout, rewards as they are, means backed up.
pub(super) struct Plain;

impl<G: Game> Rewards<G> for Plain {
    #[inline(always)]
    fn visits(_: &MctsConfig<G>) -> u32 {
        1
    }

    #[inline(always)]
    fn proven(_: &MctsConfig<G>, reward: f32, _: u32) -> f32 {
        reward
    }

    #[inline(always)]
    fn finished(_: &MctsConfig<G>, _: &G, reward: f32, _: u32) -> f32 {
        reward
    }

    #[inline(always)]
    fn playout(m: &mut Mcts<'_, G>, game: &G, _: u32, _: &mut dyn FnMut() -> bool) -> f32 {
        let mut scratch = game.clone();
        playout::run(&mut scratch, &m.config, &mut m.rng).0
    }

    #[inline(always)]
    fn backed(_: &Mcts<'_, G>, _: NodeId) -> Option<f32> {
        None
    }
}

/// How many of an iteration's playouts run between two readings of the clock
/// ([`Bbq::playout`]), as between iterations of one playout ([`super::CLOCK_INTERVAL`]).
const PLAYOUTS_BETWEEN_READS: u32 = super::CLOCK_INTERVAL as u32;

/// Paper 003's options ([`crate::search::bbq`]).
pub(super) struct Bbq;

impl<G: Game> Rewards<G> for Bbq {
    #[inline(always)]
    fn visits(cfg: &MctsConfig<G>) -> u32 {
        // Finished and proven leaves count their result once per playout too.
        cfg.bbq.playouts
    }

    #[inline(always)]
    fn proven(cfg: &MctsConfig<G>, reward: f32, depth: u32) -> f32 {
        cfg.bbq.shape::<G>(reward, depth, None)
    }

    #[inline(always)]
    fn finished(cfg: &MctsConfig<G>, game: &G, reward: f32, depth: u32) -> f32 {
        let margin = Some(game.score_margin(Player::First));
        cfg.bbq.shape::<G>(reward, depth, margin)
    }

    /// The mean first-player reward of [`BbqConfig::playouts`] playouts, each stopped at the
    /// depth cap and shaped. With a time budget the clock is read every
    /// [`PLAYOUTS_BETWEEN_READS`] playouts, and once the time is up the mean is of the playouts
    /// run so far (the iteration still counts its `N` visits): an iteration of 65,535 Gomoku
    /// playouts took 4.5 s on a 100 ms budget. Not in `compact-code` builds: the check took
    /// 967 bytes of the browser's module, which had 973 to spare.
    fn playout(
        m: &mut Mcts<'_, G>,
        game: &G,
        depth: u32,
        time_up: &mut dyn FnMut() -> bool,
    ) -> f32 {
        let bbq: BbqConfig = m.config.bbq;
        let room = match bbq.depth_cap() {
            Some(d) => d.saturating_sub(depth),
            None => u32::MAX,
        };
        let k = bbq.playouts;
        let mut sum = 0.0;
        let mut ran = 0;
        for i in 0..k {
            // Not in `compact-code` builds (see above).
            if !cfg!(feature = "compact-code")
                && i > 0
                && i % PLAYOUTS_BETWEEN_READS == 0
                && time_up()
            {
                break;
            }
            ran += 1;
            let mut scratch = game.clone();
            let (r, plies) = playout::run_within(&mut scratch, &m.config, &mut m.rng, room);
            let margin = scratch
                .is_terminal()
                .then(|| scratch.score_margin(Player::First));
            sum += bbq.shape::<G>(r, depth + plies, margin);
        }
        sum / ran as f32
    }

    /// Best win: an expanded node's mean becomes its best visited child's value.
    #[inline(always)]
    fn backed(m: &Mcts<'_, G>, id: NodeId) -> Option<f32> {
        if m.config.bbq.best && m.pool.get(id).is(flag::EXPANDED) {
            m.best_value(id)
        } else {
            None
        }
    }
}
