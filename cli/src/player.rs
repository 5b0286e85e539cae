//! Kernel players ([`imcts::session::Player`]) with memory the command line owns: what matches,
//! tournaments, the engine protocol and Gomocup run. The searching, tree reuse and the proven
//! value are the kernel's; this module only parses the spec and sizes the memory.

use imcts::Game;
use imcts::search::Budget;
use imcts::search::alphabeta::TtEntry;
use imcts::search::node::Node;
use imcts::search::spec::{self, PlayerSpec};
use imcts::session::{Memory, Player};

/// Default node capacity when no budget bounds the tree: 2 Mi nodes (48 MiB).
pub const DEFAULT_NODES: usize = 1 << 21;

/// Nodes a second of search can add, with room to spare, for sizing a pool from a time
/// budget: Breakthrough's `mcts(efLH,bl',im0.6)` added about 8 million a second on a 2026 Xeon
/// core (1.99 M nodes in 250 ms from the middle game), Lines of Action's `mcts(fet0,im0.6,c0.3)`
/// about 6.6 million; since the scan cache (session 30), `mcts(efLH,bl')` adds 14.9 million on
/// a 2026 AMD EPYC core (3.72 M nodes in 250 ms from the middle game). A pool this size does
/// not fill before the time is up, so the tree keeps growing to the end of the search.
pub const NODES_PER_SECOND: u64 = 24_000_000;

/// The most nodes a pool sized from a budget gets: 8 Mi nodes (192 MiB). Longer searches fill
/// it and go on with the tree they have (`pool_full`); `--pool` (or the engine's `pool`) sizes
/// the pool by hand.
pub const MAX_BUDGET_NODES: usize = 1 << 23;

/// A node pool and a transposition table on the heap, sized for one player.
pub struct HeapMemory {
    nodes: Vec<Node>,
    table: Vec<TtEntry>,
}

impl HeapMemory {
    /// No memory at all: for a player that has not been given its memory yet (it has no tree,
    /// so playing and undoing moves need none).
    pub fn empty() -> Self {
        HeapMemory {
            nodes: Vec::new(),
            table: Vec::new(),
        }
    }
}

impl Memory for HeapMemory {
    fn nodes(&mut self) -> &mut [Node] {
        &mut self.nodes
    }
    fn table(&mut self) -> &mut [TtEntry] {
        &mut self.table
    }
}

/// Node capacity that fits a budget: every simulation adds at most one expanded node's
/// children and their block's header slot, so `sims × (MAX_MOVES + 1)` bounds the tree of a
/// simulation budget (the solver step's expansions aside); a time budget gets
/// [`NODES_PER_SECOND`] for its time and never less than [`DEFAULT_NODES`]; with several
/// budgets the smallest; without one [`DEFAULT_NODES`]; never more than [`MAX_BUDGET_NODES`].
///
/// Before time budgets were sized, every budget was capped at [`DEFAULT_NODES`]: on a machine
/// of 2026, a `mcts(efLH,bl',im0.6)` player at 250 ms a move filled it in 32 of its 38 moves of a
/// game, so its tree stopped growing before the time was up.
pub fn nodes_for<G: Game>(budget: &Budget) -> usize {
    let by_budget = budget.iterations.map(|s| {
        (s as usize)
            .saturating_mul(G::MAX_MOVES + 1)
            .saturating_add(G::MAX_MOVES + 2)
    });
    let by_nodes = budget.nodes.map(|n| n as usize + G::MAX_MOVES + 2);
    let by_time = budget.time_us.map(|us| {
        let n = u128::from(us) * u128::from(NODES_PER_SECOND) / 1_000_000;
        usize::try_from(n).unwrap_or(usize::MAX).max(DEFAULT_NODES)
    });
    [by_budget, by_nodes, by_time]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(DEFAULT_NODES)
        .min(MAX_BUDGET_NODES)
}

/// The pool a search front end takes when it is not given one: [`nodes_for`] its budget, but
/// never below [`DEFAULT_NODES`] (what `search` and `imcts engine` always had before time
/// budgets were sized, so a simulation budget's search is unchanged).
pub fn default_pool<G: Game>(budget: &Budget) -> usize {
    nodes_for::<G>(budget).max(DEFAULT_NODES)
}

/// A spec error as the command line prints it; an unknown label also lists the game's
/// evaluation labels (`mcts(efMS)` in Kalah names no evaluation of Kalah's).
pub fn spec_error<G: Game>(e: spec::SpecError<'_>) -> String {
    let mut msg = format!("bad player spec {e}");
    if e.problem.starts_with("unknown label") {
        let evals: Vec<&str> = G::EVALS.iter().map(|(name, _)| *name).collect();
        msg.push_str(&format!(" ({} evaluations: {})", G::NAME, evals.join(", ")));
    }
    msg
}

/// Parses `spec_text` for game `G`, with `seed` overriding the spec's seed.
pub fn parse<G: Game>(spec_text: &str, seed: Option<u64>) -> Result<PlayerSpec<G>, String> {
    let parsed = spec::parse::<G>(spec_text).map_err(spec_error::<G>)?;
    Ok(match (parsed, seed) {
        (PlayerSpec::Mcts(cfg), Some(s)) => PlayerSpec::Mcts(cfg.with_seed(s)),
        (p, _) => p,
    })
}

/// The memory for a player: a node pool sized for `budget` (or `pool` nodes if given) for
/// MCTS, the spec's table for αβ. Allocated fallibly: a size the machine cannot provide is an
/// error naming it, never an allocation abort.
pub fn memory_for<G: Game>(
    spec: &PlayerSpec<G>,
    budget: &Budget,
    pool: Option<usize>,
) -> Result<HeapMemory, String> {
    Ok(match spec {
        PlayerSpec::Mcts(_) => {
            let n = pool.unwrap_or_else(|| nodes_for::<G>(budget)).max(1);
            let what = if pool.is_some() {
                "search nodes (--pool)"
            } else {
                "search nodes"
            };
            HeapMemory {
                nodes: crate::memory::filled(n, Node::EMPTY, what)?,
                table: Vec::new(),
            }
        }
        PlayerSpec::AlphaBeta(_, tt) => HeapMemory {
            nodes: Vec::new(),
            table: crate::memory::filled(*tt, TtEntry::EMPTY, "transposition-table entries")?,
        },
    })
}

/// A player from a spec string and its memory (see [`parse`] and [`memory_for`]).
pub fn build<G: Game>(
    spec_text: &str,
    budget: &Budget,
    pool: Option<usize>,
    seed: Option<u64>,
) -> Result<(Player<G>, HeapMemory), String> {
    let spec = parse::<G>(spec_text, seed)?;
    let memory = memory_for(&spec, budget, pool)?;
    Ok((Player::new(spec), memory))
}

/// The label list of `imcts search --help`, written from the kernel's label tables
/// ([`spec::MCTS_LABEL_ROWS`], [`spec::ALPHABETA_LABEL_ROWS`]) so that it cannot drift from the
/// parser: each label as it is written (`name`, `name<n>`, `name[<n>]`), what it means and,
/// for a number, what the number may be.
pub fn labels_help() -> String {
    let mut out = String::from(
        "Player spec labels: mcts(label,...) or ab(ablabel,...); also the game's evaluations \
         (efMS, efLH, ...) and presets (bl, bl'), see the README.\n",
    );
    for (title, table) in [
        ("mcts labels", spec::MCTS_LABEL_ROWS),
        ("ab labels", spec::ALPHABETA_LABEL_ROWS),
    ] {
        out += &format!("\n{title}:\n");
        for &spec::Documented { label: l, meaning } in table {
            let (written, check) = match l.number {
                spec::Number::None => (l.name.to_string(), None),
                spec::Number::Required(c) => (format!("{}<n>", l.name), Some(c)),
                spec::Number::Optional(c, _) => (format!("{}[<n>]", l.name), Some(c)),
            };
            out += &format!("  {written:12} {meaning}");
            if let Some(c) = check {
                out += &format!(" (n: {})", c.allowed());
            }
            out += "\n";
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use imcts::games::breakthrough::Breakthrough;

    #[test]
    fn pools_are_sized_from_each_kind_of_budget() {
        let bt = |b: Budget| nodes_for::<Breakthrough>(&b);
        let m = Breakthrough::MAX_MOVES;
        // A simulation budget: one expansion a simulation at most, with its block's header.
        assert_eq!(bt(Budget::iterations(1_000)), 1_000 * (m + 1) + m + 2);
        // Larger ones than the old cap of DEFAULT_NODES get their room, up to the cap.
        assert_eq!(bt(Budget::iterations(100_000)), 100_000 * (m + 1) + m + 2);
        assert_eq!(bt(Budget::iterations(10_000_000)), MAX_BUDGET_NODES);
        // A time budget: never less than the old default, then NODES_PER_SECOND.
        assert_eq!(bt(Budget::millis(10)), DEFAULT_NODES);
        assert_eq!(bt(Budget::millis(250)), 6_000_000);
        assert_eq!(bt(Budget::millis(60_000)), MAX_BUDGET_NODES);
        // Several budgets: the smallest bound.
        let both = Budget {
            iterations: Some(1_000),
            ..Budget::millis(250)
        };
        assert_eq!(bt(both), 1_000 * (m + 1) + m + 2);
        assert_eq!(bt(Budget::default()), DEFAULT_NODES);
    }
}
