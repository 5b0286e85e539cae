//! The search configuration, budget and result structs, and player-spec parsing.

use crate::engine::{GameId, dispatch_game, imcts_game};
use crate::{boundary, imcts_status, text};
use core::ffi::{c_char, c_void};
use imcts::Game;
use imcts::search::alphabeta::AlphaBetaConfig;
use imcts::search::config::{Expansion, MctsConfig, PlayoutConfig, PlayoutPolicy, ValueMode};
use imcts::search::spec::{self, DEFAULT_TT_ENTRIES, PlayerSpec};

/// A search algorithm (`imcts_config.algorithm`).
pub type imcts_algorithm = u32;
/// MCTS with the options of `imcts_config` (`mcts(...)` specs).
pub const IMCTS_ALGORITHM_MCTS: imcts_algorithm = 0;
/// The αβ baseline (`ab(...)` specs): uses `eval`, `ab_max_depth` and `ab_tt_entries` only.
pub const IMCTS_ALGORITHM_ALPHABETA: imcts_algorithm = 1;

/// How MCTS selection mixes in heuristic values (`imcts_config.value_mode`).
pub type imcts_value_mode = u32;
/// Plain UCT: `Q = r/n`.
pub const IMCTS_VALUE_MODE_MEAN: imcts_value_mode = 0;
/// Implicit minimax backups (`im<α>`): `Q = (1-α) r/n + α v`.
pub const IMCTS_VALUE_MODE_IMPLICIT: imcts_value_mode = 1;
/// Constant bias ablation (`cb<α>`): `Q = (1-α) r/n + α v0`.
pub const IMCTS_VALUE_MODE_CONSTANT_BIAS: imcts_value_mode = 2;
/// Progressive bias of implicit values (`pbim<α>`): `Q = (1-α) r/n + α v/(n+1)`.
pub const IMCTS_VALUE_MODE_PROGRESSIVE_IMPLICIT: imcts_value_mode = 3;

/// The playout move policy (`imcts_config.playout`).
pub type imcts_playout = u32;
/// Uniformly random legal moves.
pub const IMCTS_PLAYOUT_RANDOM: imcts_playout = 0;
/// The game's informed policy (`ipp`); only for games that have one (Breakthrough and Lines
/// of Action; `IMCTS_STATUS_BAD_CONFIG` for the others).
pub const IMCTS_PLAYOUT_INFORMED: imcts_playout = 1;
/// αβ playouts: each move chosen by a 2-ply selective αβ search on the evaluation (`abp`).
pub const IMCTS_PLAYOUT_ALPHA_BETA: imcts_playout = 2;

/// When children enter the tree (`imcts_config.expansion`).
pub type imcts_expansion = u32;
/// All children at once, each evaluated (the default).
pub const IMCTS_EXPANSION_ALL_CHILDREN: imcts_expansion = 0;
/// One new child per simulation through a node (`one`).
pub const IMCTS_EXPANSION_ONE_CHILD: imcts_expansion = 1;

/// Why a search stopped (`imcts_result.stop`).
pub type imcts_stop = u32;
/// The simulation budget (αβ: node budget) was spent.
pub const IMCTS_STOP_ITERATIONS: imcts_stop = 0;
/// The node budget was reached.
pub const IMCTS_STOP_NODES: imcts_stop = 1;
/// The time budget was spent.
pub const IMCTS_STOP_TIME: imcts_stop = 2;
/// The root was proven won, lost or drawn.
pub const IMCTS_STOP_PROVEN: imcts_stop = 3;
/// The root has a single legal move.
pub const IMCTS_STOP_SINGLE_MOVE: imcts_stop = 4;
/// The node pool is full and the configuration says to stop then (or there was no room for a
/// tree at all: the move is then the best one-ply evaluation).
pub const IMCTS_STOP_POOL_FULL: imcts_stop = 5;
/// The position is already finished: there is no move.
pub const IMCTS_STOP_GAME_OVER: imcts_stop = 6;
/// αβ searched to its maximum depth or resolved the whole game tree.
pub const IMCTS_STOP_MAX_DEPTH: imcts_stop = 7;
/// MCTS: the root reached its visit limit (some 4.2 billion simulations), past which a visit
/// count could wrap.
pub const IMCTS_STOP_VISIT_LIMIT: imcts_stop = 8;

/// A proven game-theoretic value, for the side to move (`imcts_result.proven`).
pub type imcts_proven = u32;
/// Not proven.
pub const IMCTS_PROVEN_UNKNOWN: imcts_proven = 0;
/// The side to move wins with best play.
pub const IMCTS_PROVEN_WIN: imcts_proven = 1;
/// The side to move loses with best play.
pub const IMCTS_PROVEN_LOSS: imcts_proven = 2;
/// Best play draws.
pub const IMCTS_PROVEN_DRAW: imcts_proven = 3;

/// Capacity of `imcts_result.best_move`, NUL included. Every game's move notation is shorter.
pub const IMCTS_MOVE_CAPACITY: usize = 32;

/// A search configuration: everything a player spec (`mcts(ipp,im0.4)`, `ab(efLH)`) can say.
///
/// Fill it with [`imcts_config_default`] or [`imcts_config_parse`], then change fields. Options
/// that can be off use a sentinel, noted per field. Flags are `0` (off) or any other value (on).
/// UCT's ties are broken as the game's default (Breakthrough: as the paper's code); a spec with
/// another tie-break searches through `imcts_engine_search_spec`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct imcts_config {
    /// `IMCTS_ALGORITHM_MCTS` or `IMCTS_ALGORITHM_ALPHABETA`.
    pub algorithm: imcts_algorithm,
    /// UCT exploration constant `C` (`c<C>`), finite and `>= 0`.
    pub uct_c: f32,
    /// `α` of the value mode, in `[0, 1]`.
    pub alpha: f32,
    /// An `IMCTS_VALUE_MODE_*`.
    pub value_mode: imcts_value_mode,
    /// An `IMCTS_PLAYOUT_*`.
    pub playout: imcts_playout,
    /// ε-greedy playouts (`ege<ε>`), in `[0, 1]`; negative: off.
    pub epsilon_greedy: f32,
    /// Fixed early termination after this many playout moves (`fet<x>`); negative: off.
    pub fixed_cutoff: i32,
    /// Dynamic early termination threshold (`det<x>`), in `[0, 1]`; negative: off.
    pub dynamic_cutoff: f32,
    /// How often, in playout moves, `det` checks the evaluation (`detk<k>`), `>= 1`.
    pub det_interval: u32,
    /// Playouts longer than this many moves end as a draw, `>= 1`.
    pub max_playout_plies: u32,
    /// Node priors (`np<N>`): virtual visits of a new child, `1..=65535`; `0`: off.
    /// Breakthrough only.
    pub node_priors: u32,
    /// Progressive-bias weight (`pb<W>`), finite; negative: off.
    pub progressive_bias: f32,
    /// Max-backprop visit threshold (`mb<T>`); `0`: off.
    pub max_backprop: u32,
    /// An `IMCTS_EXPANSION_*`.
    pub expansion: imcts_expansion,
    /// MCTS-Solver (on unless `nosolver`).
    pub solver: u8,
    /// Keep the subtree of played moves between searches (`reuse`).
    pub reuse_tree: u8,
    /// Stop the search when the node pool is full (`stopfull`).
    pub stop_when_full: u8,
    /// Seed of the search's random generator (`seed<S>`).
    pub seed: u64,
    /// The evaluation function, as an index into the game's list (Breakthrough: 0 = efMS,
    /// 1 = efLH; other games have one, index 0).
    pub eval: u32,
    /// αβ: the deepest iteration in plies, `1..=64` (`depth<N>`).
    pub ab_max_depth: u32,
    /// αβ: transposition-table entries asked for (`tt<N>`); `0`: no table. The table is carved
    /// from the engine's node memory (16 bytes an entry), so at most `node_capacity * 24 / 16`
    /// entries are used.
    pub ab_tt_entries: u64,
    /// Seed 003's best win (`best`): back up the best child's value instead of the mean.
    pub bbq_best: u8,
    /// Seed 003's quick win (`quick`): discount rewards by the depth of the simulation.
    pub bbq_quick: u8,
    /// Seed 003's big win (`big`): scale wins by the score margin; scored games (Kalah) only.
    pub bbq_big: u8,
    /// Maximum simulation depth from the root (`depth<N>`); deeper simulations are draws;
    /// `0`: no cap (50 with `bbq_quick`).
    pub bbq_max_depth: u32,
    /// Dist(k) candidate restriction (`dist<K>`), `1..=255`; `0`: all legal moves.
    pub bbq_dist: u32,
    /// Playouts per iteration (`playouts<N>`), `1..=65535`.
    pub bbq_playouts: u32,
}

/// After this many consecutive equal readings of a budget's clock, `imcts_engine_search` takes
/// the clock as frozen and ends the search as if its time were up (`IMCTS_STOP_TIME`;
/// `elapsed_us` counts only the time the clock really advanced): a clock that never advances cannot hang the host. The clock is read every
/// 64 MCTS simulations and every 1,024 αβ nodes, so a working clock, even one that ticks only
/// every few milliseconds, never repeats this often.
pub const IMCTS_FROZEN_CLOCK_READS: u32 = 65_536;

/// A host clock: the current time in microseconds from any fixed origin, never decreasing.
/// Called with the budget's `clock_ctx`. Must not unwind (no C++ exceptions).
pub type imcts_clock_fn = Option<unsafe extern "C" fn(ctx: *mut c_void) -> u64>;

/// Limits on a search. Every non-zero limit applies; the first one reached stops the search.
/// With no limit at all, MCTS runs one simulation and αβ one iteration.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct imcts_budget {
    /// MCTS simulations (αβ: nodes searched); `0`: no limit.
    pub simulations: u64,
    /// MCTS tree nodes in use (αβ: nodes searched); `0`: no limit.
    pub nodes: u64,
    /// Microseconds by `clock`; `0`: no limit. Needs `clock`.
    pub time_us: u64,
    /// The clock for `time_us`; may be NULL when `time_us` is 0.
    pub clock: imcts_clock_fn,
    /// Passed to `clock`.
    pub clock_ctx: *mut c_void,
}

/// What a search found.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct imcts_result {
    /// The chosen move in the game's notation, NUL-terminated; empty when the game is over.
    pub best_move: [c_char; IMCTS_MOVE_CAPACITY],
    /// The length of `best_move` without the NUL.
    pub best_move_len: u32,
    /// MCTS: the root value for the side to move in `[-1, 1]` (proven value, else the chosen
    /// child's mean reward). αβ: the root score (proven wins are `>= 0.984375`).
    pub value: f32,
    /// MCTS: simulations run. αβ: nodes searched.
    pub simulations: u64,
    /// MCTS: tree nodes in use when the search stopped. αβ: nodes searched.
    pub nodes: u64,
    /// Microseconds spent by the host clock (`0` without a clock).
    pub elapsed_us: u64,
    /// An `IMCTS_STOP_*`.
    pub stop: imcts_stop,
    /// An `IMCTS_PROVEN_*`, for the side to move.
    pub proven: imcts_proven,
    /// αβ: the last completed depth; MCTS: `0`.
    pub depth: u32,
    /// MCTS: `1` if the node pool ran out of room during the search (the move is still legal).
    pub pool_full: u8,
}

impl imcts_result {
    pub(crate) const EMPTY: imcts_result = imcts_result {
        best_move: [0; IMCTS_MOVE_CAPACITY],
        best_move_len: 0,
        value: 0.0,
        simulations: 0,
        nodes: 0,
        elapsed_us: 0,
        stop: IMCTS_STOP_GAME_OVER,
        proven: IMCTS_PROVEN_UNKNOWN,
        depth: 0,
        pool_full: 0,
    };
}

/// A validated configuration for game `G`: the kernel's player spec, whose configurations
/// passed the kernel's `validate` (the one check every number goes through).
pub(crate) type Validated<G> = PlayerSpec<G>;

fn eval_index<G: Game>(eval: G::Eval) -> u32 {
    G::EVALS.iter().position(|&(_, e)| e == eval).unwrap_or(0) as u32
}

fn opt_f32(x: Option<f32>) -> f32 {
    x.unwrap_or(-1.0)
}

fn to_c<G: Game>(cfg: &MctsConfig<G>) -> imcts_config {
    imcts_config {
        algorithm: IMCTS_ALGORITHM_MCTS,
        uct_c: cfg.uct_c,
        alpha: cfg.alpha,
        value_mode: match cfg.value_mode {
            ValueMode::Mean => IMCTS_VALUE_MODE_MEAN,
            ValueMode::Implicit => IMCTS_VALUE_MODE_IMPLICIT,
            ValueMode::ConstantBias => IMCTS_VALUE_MODE_CONSTANT_BIAS,
            ValueMode::ProgressiveImplicit => IMCTS_VALUE_MODE_PROGRESSIVE_IMPLICIT,
        },
        playout: match cfg.playout.policy {
            PlayoutPolicy::Random => IMCTS_PLAYOUT_RANDOM,
            PlayoutPolicy::Informed => IMCTS_PLAYOUT_INFORMED,
            PlayoutPolicy::AlphaBeta => IMCTS_PLAYOUT_ALPHA_BETA,
        },
        epsilon_greedy: opt_f32(cfg.playout.epsilon_greedy),
        fixed_cutoff: cfg
            .playout
            .fixed_cutoff
            .map_or(-1, |x| x.min(i32::MAX as u32) as i32),
        dynamic_cutoff: opt_f32(cfg.playout.dynamic_cutoff),
        det_interval: cfg.playout.det_interval,
        max_playout_plies: cfg.playout.max_plies,
        node_priors: cfg.node_priors.unwrap_or(0),
        progressive_bias: opt_f32(cfg.progressive_bias),
        max_backprop: cfg.max_backprop.unwrap_or(0),
        expansion: match cfg.expansion {
            Expansion::AllChildren => IMCTS_EXPANSION_ALL_CHILDREN,
            Expansion::OneChild => IMCTS_EXPANSION_ONE_CHILD,
        },
        solver: cfg.solver as u8,
        reuse_tree: cfg.reuse_tree as u8,
        stop_when_full: cfg.stop_when_full as u8,
        seed: cfg.seed,
        eval: eval_index::<G>(cfg.eval),
        ab_max_depth: AlphaBetaConfig::<G>::default().max_depth,
        ab_tt_entries: DEFAULT_TT_ENTRIES as u64,
        bbq_best: cfg.bbq.best as u8,
        bbq_quick: cfg.bbq.quick as u8,
        bbq_big: cfg.bbq.big as u8,
        bbq_max_depth: cfg.bbq.max_depth.unwrap_or(0),
        bbq_dist: cfg.bbq.dist.map_or(0, u32::from),
        bbq_playouts: cfg.bbq.playouts,
    }
}

/// An optional value with a negative "off" sentinel: negative is off, anything else (NaN
/// included) is the value, for the kernel's validation to check.
fn opt_f32_in(x: f32) -> Option<f32> {
    if x < 0.0 { None } else { Some(x) }
}

/// Decodes the C struct into the kernel's configuration and validates it there: this function
/// only maps ids and sentinels; every range is the kernel's ([`MctsConfig::validate`]).
pub(crate) fn validate<G: Game>(c: &imcts_config) -> Result<Validated<G>, imcts_status> {
    let bad = imcts_status::BadConfig;
    let eval = G::EVALS.get(c.eval as usize).ok_or(bad)?.1;
    match c.algorithm {
        IMCTS_ALGORITHM_MCTS => {}
        IMCTS_ALGORITHM_ALPHABETA => {
            let mut ab = AlphaBetaConfig::<G>::new(eval);
            ab.max_depth = c.ab_max_depth;
            let tt = usize::try_from(c.ab_tt_entries).unwrap_or(usize::MAX);
            return Ok(Validated::AlphaBeta(ab.validate().map_err(|_| bad)?, tt));
        }
        _ => return Err(bad),
    }
    let value_mode = match c.value_mode {
        IMCTS_VALUE_MODE_MEAN => ValueMode::Mean,
        IMCTS_VALUE_MODE_IMPLICIT => ValueMode::Implicit,
        IMCTS_VALUE_MODE_CONSTANT_BIAS => ValueMode::ConstantBias,
        IMCTS_VALUE_MODE_PROGRESSIVE_IMPLICIT => ValueMode::ProgressiveImplicit,
        _ => return Err(bad),
    };
    let policy = match c.playout {
        IMCTS_PLAYOUT_RANDOM => PlayoutPolicy::Random,
        IMCTS_PLAYOUT_INFORMED => PlayoutPolicy::Informed,
        IMCTS_PLAYOUT_ALPHA_BETA => PlayoutPolicy::AlphaBeta,
        _ => return Err(bad),
    };
    let expansion = match c.expansion {
        IMCTS_EXPANSION_ALL_CHILDREN => Expansion::AllChildren,
        IMCTS_EXPANSION_ONE_CHILD => Expansion::OneChild,
        _ => return Err(bad),
    };
    let bbq = imcts::search::bbq::BbqConfig {
        best: c.bbq_best != 0,
        quick: c.bbq_quick != 0,
        big: c.bbq_big != 0,
        max_depth: (c.bbq_max_depth != 0).then_some(c.bbq_max_depth),
        dist: match c.bbq_dist {
            0 => None,
            k => Some(u8::try_from(k).map_err(|_| bad)?),
        },
        playouts: c.bbq_playouts,
    };
    let cfg = MctsConfig {
        uct_c: c.uct_c,
        solver: c.solver != 0,
        // The C ABI offers the presets, which follow the paper's code.
        text_solver: false,
        text_proven: false,
        // The experiments' labels (`code-proof-visits`, `code-end-eval`,
        // `code-unproven-draws`), off in every preset.
        code_proof_visits: false,
        code_end_eval: false,
        code_unproven_draws: false,
        // The game's tie-break (the paper's code's for Breakthrough): the struct has no field
        // for it, and `imcts_config_parse` refuses `code-ties` or `random-ties` where they would
        // change it.
        code_ties: G::PAPER_CODE_TIES,
        value_mode,
        alpha: c.alpha,
        eval,
        expansion,
        playout: PlayoutConfig {
            policy,
            epsilon_greedy: opt_f32_in(c.epsilon_greedy),
            fixed_cutoff: u32::try_from(c.fixed_cutoff).ok(),
            dynamic_cutoff: opt_f32_in(c.dynamic_cutoff),
            det_interval: c.det_interval,
            // The C ABI offers the presets, which follow the paper's code.
            text_det: false,
            text_ipp: false,
            max_plies: c.max_playout_plies,
        },
        node_priors: (c.node_priors != 0).then_some(c.node_priors),
        // Evaluation priors (`ep`) are a spec label the struct does not carry (its layout is
        // fixed within an ABI version); `imcts_config_parse` refuses specs that use them.
        eval_priors: None,
        progressive_bias: opt_f32_in(c.progressive_bias),
        max_backprop: (c.max_backprop != 0).then_some(c.max_backprop),
        stop_when_full: c.stop_when_full != 0,
        reuse_tree: c.reuse_tree != 0,
        seed: c.seed,
        bbq,
    };
    Ok(Validated::Mcts(cfg.validate().map_err(|_| bad)?))
}

fn default_for<G: Game>() -> imcts_config {
    to_c(&MctsConfig::<G>::default())
}

fn parse_for<G: Game>(text: &str) -> Result<imcts_config, imcts_status> {
    let c = match spec::parse::<G>(text).map_err(|_| imcts_status::BadSpec)? {
        PlayerSpec::Mcts(cfg) => {
            if uncarried(&cfg).is_some() {
                return Err(imcts_status::BadSpec);
            }
            to_c(&cfg)
        }
        PlayerSpec::AlphaBeta(ab, tt) => {
            let mut c = default_for::<G>();
            c.algorithm = IMCTS_ALGORITHM_ALPHABETA;
            c.eval = eval_index::<G>(ab.eval);
            c.ab_max_depth = ab.max_depth;
            c.ab_tt_entries = tt as u64;
            c
        }
    };
    // A spec that parses must also search: the same check `imcts_engine_search` makes.
    validate::<G>(&c).map_err(|_| imcts_status::BadSpec)?;
    Ok(c)
}

/// The first label of `cfg` that [`imcts_config`] cannot carry (the paper's-text and
/// paper's-code experiment labels, evaluation priors, a tie-break other than the game's), so
/// that `imcts_config_parse` refuses the spec instead of dropping the option without a word.
fn uncarried<G: Game>(cfg: &MctsConfig<G>) -> Option<&'static str> {
    first_set([
        cfg.text_solver,
        cfg.text_proven,
        cfg.code_proof_visits,
        cfg.code_end_eval,
        cfg.code_unproven_draws,
        cfg.code_ties && !G::PAPER_CODE_TIES,
        !cfg.code_ties && G::PAPER_CODE_TIES,
        cfg.playout.text_det,
        cfg.playout.text_ipp,
        cfg.eval_priors.is_some(),
    ])
}

/// The label of the first flag set, in [`uncarried`]'s order. Not generic: one copy for every
/// game (the browser's module counts its bytes).
#[inline(never)]
fn first_set(flags: [bool; 10]) -> Option<&'static str> {
    use imcts::search::spec::label as l;
    const LABELS: [&str; 10] = [
        l::TEXT_SOLVER,
        l::TEXT_PROVEN,
        l::CODE_PROOF_VISITS,
        l::CODE_END_EVAL,
        l::CODE_UNPROVEN_DRAWS,
        l::CODE_TIES,
        l::RANDOM_TIES,
        l::TEXT_DET,
        l::TEXT_IPP,
        l::EP,
    ];
    flags.iter().position(|&f| f).map(|i| LABELS[i])
}

/// Writes why `text` fails [`parse_for`] (nothing if it parses) for `imcts_config_parse_error`.
pub(crate) fn parse_detail<G: Game>(text: &str, w: &mut dyn core::fmt::Write) -> core::fmt::Result {
    let uncarried_label = match spec::parse::<G>(text) {
        Err(e) => return write!(w, "{e}"),
        Ok(PlayerSpec::Mcts(cfg)) => uncarried(&cfg),
        Ok(PlayerSpec::AlphaBeta(..)) => None,
    };
    match uncarried_label {
        Some(label) => write!(
            w,
            "'{label}': the C configuration struct cannot carry this label; search with \
             imcts_engine_search_spec"
        ),
        None if parse_for::<G>(text).is_err() => {
            w.write_str("the spec parses, but its configuration is out of range for this game")
        }
        None => Ok(()),
    }
}

/// Checks a player spec for `game` as `imcts_engine_search_spec` reads it: `IMCTS_STATUS_OK` if
/// it parses (every label, also those `imcts_config` cannot carry), `IMCTS_STATUS_BAD_SPEC` if
/// not. For a host that keeps a spec to search with and wants its error at once.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, INVALID_UTF8, UNKNOWN_GAME, BAD_SPEC, PANIC (hosted builds).
///
/// # Safety
/// `spec` must be NULL or point to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_spec_check(
    game: imcts_game,
    spec: *const c_char,
    len: usize,
) -> imcts_status {
    boundary(|| {
        // SAFETY: forwarded from the caller.
        let text = unsafe { text::input(spec, len) }?;
        let id = GameId::from_u32(game)?;
        dispatch_game!(id, G => spec::parse::<G>(text).map(|_| ()).map_err(|_| imcts_status::BadSpec))
    })
}

/// Writes the default configuration of `game` to `*out`: MCTS, plain UCT with MCTS-Solver, the
/// game's UCT constant, random playouts, the default seed; αβ fields at depth 64 and 2^20
/// table entries (as the spec `ab` would give). UCT's ties are always broken as the game's
/// default (Breakthrough: as the paper's code, row B21 of `docs/reproduction.md`; other games:
/// at random), which the struct has no field for.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, UNKNOWN_GAME, PANIC (hosted builds).
///
/// # Safety
/// `out` must be NULL or valid for writing an `imcts_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_config_default(
    game: imcts_game,
    out: *mut imcts_config,
) -> imcts_status {
    boundary(|| {
        if out.is_null() {
            return Err(imcts_status::NullPointer);
        }
        let id = GameId::from_u32(game)?;
        let cfg = dispatch_game!(id, G => default_for::<G>());
        // SAFETY: `out` is non-NULL and valid for writes (caller's guarantee).
        unsafe { out.write(cfg) };
        Ok(())
    })
}

/// Parses a player spec (`mcts(ipp,im0.4)`, `mcts(bl',reuse,seed7)`, `ab(efLH,depth6,tt4096)`,
/// …: the grammar of the kernel's `search::spec` module) for `game` into `*out`.
/// `IMCTS_STATUS_BAD_SPEC` for a spec the kernel rejects (unknown or repeated labels, values
/// out of range, non-finite numbers, options the game lacks) and for one whose configuration
/// `imcts_engine_search` would refuse (the same check runs here, so a parsed spec searches),
/// and for a spec using a label the struct has no field for (`text-det`, `text-ipp`,
/// `text-solver`, `text-proven`, `code-proof-visits`, `code-end-eval`, `code-unproven-draws`,
/// `ep`, and a tie-break other than the game's: `random-ties` in Breakthrough, `code-ties`
/// elsewhere): such a label is refused, never dropped; `imcts_config_parse_error` says which
/// label is wrong and why. Search such specs with `imcts_engine_search_spec` or
/// `imcts_engine_search_parallel_spec`.
///
/// Statuses (`IMCTS_STATUS_*`): OK, NULL_POINTER, INVALID_UTF8, UNKNOWN_GAME, BAD_SPEC, PANIC (hosted builds).
///
/// # Safety
/// `spec` must be NULL or point to `len` readable bytes; `out` must be NULL or valid for
/// writing an `imcts_config`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn imcts_config_parse(
    game: imcts_game,
    spec: *const c_char,
    len: usize,
    out: *mut imcts_config,
) -> imcts_status {
    boundary(|| {
        if out.is_null() {
            return Err(imcts_status::NullPointer);
        }
        // SAFETY: the caller guarantees `len` readable bytes at `spec` (or NULL, checked).
        let text = unsafe { text::input(spec, len) }?;
        let id = GameId::from_u32(game)?;
        let cfg = dispatch_game!(id, G => parse_for::<G>(text))?;
        // SAFETY: `out` is non-NULL and valid for writes (caller's guarantee).
        unsafe { out.write(cfg) };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use imcts::games::breakthrough::Breakthrough;
    use imcts::games::kalah::Kalah;

    /// Kernel config -> C struct -> kernel config gives back the same configuration.
    fn round_trip<G: Game>(specs: &[&str]) {
        for s in specs {
            let cfg = spec::parse_mcts::<G>(s).unwrap();
            match validate::<G>(&to_c(&cfg)) {
                Ok(Validated::Mcts(back)) => assert_eq!(back, cfg, "{s}"),
                _ => panic!("{s} did not validate"),
            }
        }
    }

    #[test]
    fn configs_round_trip_through_the_c_struct() {
        round_trip::<Breakthrough>(&[
            "mcts",
            "mcts(ipp,im0.4)",
            "mcts(bl)",
            "mcts(bl',reuse,seed9,efLH)",
            "mcts(ipp,code-ties)",
            "mcts(pbim0.2,pb3,mb7,one,nosolver,stopfull,c0.3,detk2,det0.7,ege0,fet0)",
            "mcts(cb0.5,np25)",
        ]);
        round_trip::<Kalah>(&["mcts", "mcts(im0.3,fet10)", "mcts(fet4,random-ties)"]);
    }

    #[test]
    fn alphabeta_specs_validate() {
        let c = parse_for::<Breakthrough>("ab(efLH,depth5,tt0)").unwrap();
        match validate::<Breakthrough>(&c) {
            Ok(Validated::AlphaBeta(ab, tt)) => {
                assert_eq!((ab.max_depth, tt), (5, 0));
                assert_eq!(ab.eval, Breakthrough::EVALS[1].1);
            }
            _ => panic!("ab spec did not validate"),
        }
    }

    /// Specs the search could not use are refused by the parser (issue 13 item 3), and the
    /// same numbers written into the C struct are refused by `validate`: one check for both.
    #[test]
    fn unusable_numbers_fail_at_parse_time_and_in_the_struct() {
        for bad in [
            "mcts(pbnan)",
            "mcts(pbinf)",
            "mcts(pb-inf)",
            "mcts(pb1e39)",
            "ab(depth65)",
            "ab(depth100)",
            "ab(depth4294967295)",
        ] {
            assert_eq!(
                parse_for::<Breakthrough>(bad),
                Err(imcts_status::BadSpec),
                "{bad}"
            );
        }
        let mut c = default_for::<Breakthrough>();
        c.progressive_bias = f32::NAN;
        assert!(validate::<Breakthrough>(&c).is_err());
        c.progressive_bias = f32::INFINITY;
        assert!(validate::<Breakthrough>(&c).is_err());
        let mut c = default_for::<Breakthrough>();
        c.algorithm = IMCTS_ALGORITHM_ALPHABETA;
        c.ab_max_depth = 65;
        assert!(validate::<Breakthrough>(&c).is_err());
        c.ab_max_depth = 64;
        assert!(validate::<Breakthrough>(&c).is_ok());
    }
}
