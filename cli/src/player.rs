//! Kernel players ([`imcts::session::Player`]) with memory the command line owns: what matches,
//! tournaments, the engine protocol and Gomocup run. The searching, tree reuse and the proven
//! value are the kernel's; this module only parses the spec and sizes the memory.

use imcts::Game;
use imcts::search::Budget;
use imcts::search::alphabeta::TtEntry;
use imcts::search::node::Node;
use imcts::search::spec::{self, PlayerSpec};
use imcts::session::{Memory, Player};

/// Default node capacity when the budget does not bound the tree: 2 Mi nodes (48 MiB).
pub const DEFAULT_NODES: usize = 1 << 21;

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
/// children, so `sims × MAX_MOVES` bounds the tree.
pub fn nodes_for<G: Game>(budget: &Budget) -> usize {
    let by_budget = budget.iterations.map(|s| {
        (s as usize)
            .saturating_mul(G::MAX_MOVES)
            .saturating_add(G::MAX_MOVES + 1)
    });
    let by_nodes = budget.nodes.map(|n| n as usize + G::MAX_MOVES + 1);
    [by_budget, by_nodes]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(DEFAULT_NODES)
        .min(DEFAULT_NODES)
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
/// ([`spec::MCTS_LABELS`], [`spec::ALPHABETA_LABELS`]) so that it cannot drift from the parser:
/// each label as it is written (`name`, `name<n>`, `name[<n>]`), what it means and, for a
/// number, what the number may be.
pub fn labels_help() -> String {
    let mut out = String::from(
        "Player spec labels: mcts(label,...) or ab(ablabel,...); also the game's evaluations \
         (efMS, efLH, ...) and presets (bl, bl'), see the README.\n",
    );
    for (title, table) in [
        ("mcts labels", spec::MCTS_LABELS),
        ("ab labels", spec::ALPHABETA_LABELS),
    ] {
        out += &format!("\n{title}:\n");
        for l in table {
            let (written, check) = match l.number {
                spec::Number::None => (l.name.to_string(), None),
                spec::Number::Required(c) => (format!("{}<n>", l.name), Some(c)),
                spec::Number::Optional(c, _) => (format!("{}[<n>]", l.name), Some(c)),
            };
            out += &format!("  {written:12} {}", l.meaning);
            if let Some(c) = check {
                out += &format!(" (n: {})", c.allowed());
            }
            out += "\n";
        }
    }
    out
}
