//! Player specs: the papers' labels, parsed into search configurations.
//!
//! ```text
//! spec   := "mcts" [ "(" label { "," label } ")" ] | "ab" [ "(" ablabel { "," ablabel } ")" ]
//! ablabel := <evaluation label> | depth<N> | tt<entries>
//! label  := ipp | abp | im<α> | ege<ε> | det<x> | detk<k> | fet<x> | pd<x> | np[<N>] | ep[<N>]
//!         | pb[<W>] | pbim<α> | cb<α> | mb<T> | c<C> | one | nosolver | reuse | stopfull | seed<S>
//!         | best | quick | big | depth<N> | dist<K> | playouts<N> | text-det | text-ipp
//!         | text-solver | text-proven | code-proof-visits | code-end-eval
//!         | code-unproven-draws | code-ties | random-ties
//!         | <evaluation label, e.g. efMS, efLH> | <game preset, e.g. bl, bl'>
//! ```
//!
//! The last line is paper 003's BBQ framework ([`super::bbq`]): `best` backs up the best
//! child's value instead of the mean, `quick` discounts rewards by depth (`1 − d/D`), `big`
//! scales finished games' rewards by the score margin (scored games only), `depthN` makes
//! simulations deeper than `N` plies from the root draws (default 50 with `quick`), `distK`
//! restricts expansion and playouts to moves within distance `K` of a stone (Gomoku's Dist(k);
//! `K ≥ 1`, Dist(∞) is the default) and `playoutsN` runs `N ≥ 1` playouts per iteration. E.g.
//! `mcts(best,quick,depth50,dist1)`.
//!
//! Where the paper's text and its authors' code differ, the labels follow the code (it produced
//! the paper's numbers) and `text-…` labels switch one difference to the text's reading:
//! `text-det` stops `det` playouts at `|v| ≥ x` instead of `|v| > x`, `text-ipp` weights
//! undefended captures 4× against every other move, `text-solver` leaves out the code's expansion
//! of a lost child's siblings, `text-proven` gives a proven node its proven value as its implicit
//! value (the code keeps the heuristic value it had). `docs/reproduction.md` lists them all.
//!
//! Labels are case-insensitive and may be separated by spaces after commas. Every label, what it
//! sets and how its number is checked is one row of [`MCTS_LABELS`] or [`ALPHABETA_LABELS`]; the
//! README's grammar is checked against those tables by a test. A number outside its label's
//! range (`im1.5`, `pbnan`, `pb1e39`, `depth0`, `ab(depth65)`) is an error naming the label and
//! the range, so a spec that parses always searches: the parser returns configurations already
//! [validated](super::config::Valid).
//!
//! A game may name presets ([`Game::PRESETS`]): `bl` and `bl'` are the paper's Breakthrough
//! baselines, `(ipp,ege0.1,det0.5)` and `(ipp,fet20,np)`, as the paper's code builds them.
//! Breakthrough's searches break UCT's ties as that code does ([`Game::PAPER_CODE_TIES`]);
//! `random-ties` gives ours, and `code-ties` the code's in any game. Presets apply first,
//! wherever they stand; labels written explicitly override what a preset sets (so
//! `mcts(bl',im0.4,np50)` and `mcts(fet10,bl')` are allowed and both keep the explicit number),
//! but a label given twice, or two labels that set the same thing differently (`im` with `cb`),
//! is an error naming the label.

use super::alphabeta::AlphaBetaConfig;
use super::config::{Check, ConfigError, Expansion, MctsConfig, PlayoutPolicy, Valid, ValueMode};
use crate::game::Game;
use core::fmt;

/// Why a player spec was rejected: the offending label and what was wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecError<'a> {
    /// The label as written (or the whole spec, for syntax errors).
    pub label: &'a str,
    /// What was wrong; for a bad number, what the label takes ([`Check::allowed`]).
    pub problem: &'static str,
    /// For a bad number: the name of the label whose number it is (`pb` for `pbnan`).
    pub takes: Option<&'static str>,
}

impl<'a> SpecError<'a> {
    const fn new(label: &'a str, problem: &'static str) -> Self {
        SpecError {
            label,
            problem,
            takes: None,
        }
    }
}

impl fmt::Display for SpecError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.takes {
            Some(name) => write!(f, "'{}': {} takes {}", self.label, name, self.problem),
            None => write!(f, "'{}': {}", self.label, self.problem),
        }
    }
}

impl core::error::Error for SpecError<'_> {}

/// Default virtual visits for a bare `np` (the paper used 10 at one second per move).
pub const DEFAULT_PRIOR_VISITS: u32 = 10;
/// Default progressive-bias weight for a bare `pb`.
pub const DEFAULT_PB_WEIGHT: f32 = 1.0;

/// The label names, as configuration errors ([`ConfigError::label`]) name them.
pub mod label {
    #![allow(missing_docs)]
    pub const IPP: &str = "ipp";
    pub const ABP: &str = "abp";
    pub const IM: &str = "im";
    pub const CB: &str = "cb";
    pub const PBIM: &str = "pbim";
    pub const EGE: &str = "ege";
    pub const DET: &str = "det";
    pub const DETK: &str = "detk";
    pub const FET: &str = "fet";
    pub const PD: &str = "pd";
    pub const NP: &str = "np";
    pub const EP: &str = "ep";
    pub const PB: &str = "pb";
    pub const MB: &str = "mb";
    pub const C: &str = "c";
    pub const ONE: &str = "one";
    pub const NOSOLVER: &str = "nosolver";
    pub const REUSE: &str = "reuse";
    pub const STOPFULL: &str = "stopfull";
    pub const SEED: &str = "seed";
    pub const BEST: &str = "best";
    pub const QUICK: &str = "quick";
    pub const BIG: &str = "big";
    pub const DEPTH: &str = "depth";
    pub const DIST: &str = "dist";
    pub const PLAYOUTS: &str = "playouts";
    pub const TEXT_DET: &str = "text-det";
    pub const TEXT_IPP: &str = "text-ipp";
    pub const TEXT_SOLVER: &str = "text-solver";
    pub const TEXT_PROVEN: &str = "text-proven";
    pub const CODE_PROOF_VISITS: &str = "code-proof-visits";
    pub const CODE_END_EVAL: &str = "code-end-eval";
    pub const CODE_UNPROVEN_DRAWS: &str = "code-unproven-draws";
    pub const CODE_TIES: &str = "code-ties";
    pub const RANDOM_TIES: &str = "random-ties";
    pub const TT: &str = "tt";
}

/// What a label sets. Labels that write the same field (the playout policy, the value mode)
/// exclude each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The playout policy: the game's informed policy.
    InformedPlayouts,
    /// The playout policy: 2-ply αβ playouts.
    AlphaBetaPlayouts,
    /// The value mode Implicit with its `α`.
    Implicit,
    /// The value mode ConstantBias with its `α`.
    ConstantBias,
    /// The value mode ProgressiveImplicit with its `α`.
    ProgressiveImplicit,
    /// `ε` of ε-greedy playouts.
    EpsilonGreedy,
    /// The dynamic early-termination threshold.
    DynamicCutoff,
    /// How often `det` checks.
    DetInterval,
    /// The fixed early-termination length.
    FixedCutoff,
    /// Node-prior virtual visits.
    NodePriors,
    /// Evaluation-prior virtual visits.
    EvalPriors,
    /// The progressive-bias weight.
    ProgressiveBias,
    /// The max-backprop visit threshold.
    MaxBackprop,
    /// The UCT constant.
    UctC,
    /// One-child expansion.
    OneChild,
    /// MCTS-Solver off.
    NoSolver,
    /// Tree reuse between moves.
    Reuse,
    /// Stop when the pool is full.
    StopFull,
    /// The seed.
    Seed,
    /// BBQ best win.
    Best,
    /// BBQ quick win.
    Quick,
    /// BBQ big win.
    Big,
    /// BBQ depth cap.
    MaxDepth,
    /// BBQ Dist(k).
    Dist,
    /// BBQ playouts per iteration.
    Playouts,
    /// `det` as the paper's text writes it (`|v| ≥ x` instead of the code's `|v| > x`).
    TextDet,
    /// The informed policy as the paper's text gives it instead of as its code does.
    TextIpp,
    /// MCTS-Solver as published, without the paper's code's expansion of lost siblings.
    TextSolver,
    /// Implicit minimax as the paper's text has it: a proven node's `v` is its proven value.
    TextProven,
    /// The paper's code's visit counts: a simulation adds no visit to the nodes it proves.
    CodeProofVisits,
    /// The paper's code's value of a child that ends the game: its evaluation.
    CodeEndEval,
    /// The paper's code's solver: finished draws stay unproven.
    CodeUnprovenDraws,
    /// The paper's code's tie-breaks: its move order, the first of equal scores.
    CodeTies,
    /// Our tie-breaks (uniform among equal scores), undoing a game's default `code-ties`.
    RandomTies,
    /// αβ: the deepest iteration.
    AlphaBetaDepth,
    /// αβ: transposition-table entries.
    TableEntries,
}

impl Setting {
    /// Which configuration field the setting writes; two labels writing the same one conflict.
    fn slot(self) -> u32 {
        use Setting::*;
        match self {
            InformedPlayouts | AlphaBetaPlayouts => 0,
            Implicit | ConstantBias | ProgressiveImplicit => 1,
            // Both seed a new child's visits: one kind of prior at a time.
            EvalPriors => NodePriors as u32,
            // Both choose the tie-break.
            RandomTies => CodeTies as u32,
            other => other as u32,
        }
    }
}

/// The number after a label's name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// None: the label is its name alone.
    None,
    /// Required, checked by the [`Check`].
    Required(Check),
    /// Optional, checked by the [`Check`]; a bare label means the given default.
    Optional(Check, Value),
}

/// A label's number once parsed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// The label has no number.
    None,
    /// A real number ([`Check::is_real`]).
    Real(f32),
    /// A whole number.
    Whole(u64),
}

/// One row of the label tables: label → what it sets → how its number is checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    /// The name, lower case (matched without regard to ASCII case).
    pub name: &'static str,
    /// The number after the name.
    pub number: Number,
    /// What the label sets.
    pub sets: Setting,
}

/// A label with one line on what it means, for `--help` and the documentation: the rows as
/// written ([`MCTS_LABEL_ROWS`], [`ALPHABETA_LABEL_ROWS`]). The parser's tables
/// ([`MCTS_LABELS`], [`ALPHABETA_LABELS`]) are the same labels without the prose, which a
/// program that only parses then does not carry (2,634 bytes of the browser's module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Documented {
    /// The label.
    pub label: Label,
    /// What it means.
    pub meaning: &'static str,
}

const fn row(
    name: &'static str,
    number: Number,
    sets: Setting,
    meaning: &'static str,
) -> Documented {
    Documented {
        label: Label { name, number, sets },
        meaning,
    }
}

/// The labels of `rows`, in order (`N` is their number).
const fn without_meanings<const N: usize>(rows: &[Documented]) -> [Label; N] {
    let mut out = [rows[0].label; N];
    let mut i = 0;
    while i < N {
        out[i] = rows[i].label;
        i += 1;
    }
    out
}

/// Every `mcts(...)` label (besides the game's evaluations and presets), as the parser reads
/// them: [`MCTS_LABEL_ROWS`] without the meanings.
pub const MCTS_LABELS: &[Label] = &without_meanings::<{ MCTS_LABEL_ROWS.len() }>(MCTS_LABEL_ROWS);

/// Every `ab(...)` label besides the evaluations, as the parser reads them.
pub const ALPHABETA_LABELS: &[Label] =
    &without_meanings::<{ ALPHABETA_LABEL_ROWS.len() }>(ALPHABETA_LABEL_ROWS);

/// Every `mcts(...)` label (besides the game's evaluations and presets) with its meaning.
pub const MCTS_LABEL_ROWS: &[Documented] = {
    use Check::*;
    use Number::{None as Bare, Optional, Required};
    use Setting::*;
    &[
        row(
            label::IPP,
            Bare,
            InformedPlayouts,
            "the game's informed playout policy",
        ),
        row(
            label::ABP,
            Bare,
            AlphaBetaPlayouts,
            "αβ playouts: each move by a 2-ply αβ search",
        ),
        row(
            label::IM,
            Required(Unit),
            Implicit,
            "implicit minimax backups with weight α",
        ),
        row(
            label::CB,
            Required(Unit),
            ConstantBias,
            "ablation: constant bias of v0, weight α",
        ),
        row(
            label::PBIM,
            Required(Unit),
            ProgressiveImplicit,
            "ablation: progressive bias of v",
        ),
        row(
            label::EGE,
            Required(Unit),
            EpsilonGreedy,
            "ε-greedy playouts on the evaluation",
        ),
        row(
            label::DET,
            Required(Unit),
            DynamicCutoff,
            "dynamic early termination at ±x",
        ),
        row(
            label::DETK,
            Required(Positive),
            DetInterval,
            "det checks every k moves (default 5)",
        ),
        row(
            label::FET,
            Required(Count),
            FixedCutoff,
            "fixed early termination after x moves",
        ),
        row(
            label::PD,
            Required(Count),
            FixedCutoff,
            "the paper's name for fet",
        ),
        row(
            label::NP,
            Optional(Visits, Value::Whole(DEFAULT_PRIOR_VISITS as u64)),
            NodePriors,
            "node priors with N virtual visits (default 10)",
        ),
        row(
            label::EP,
            Optional(Visits, Value::Whole(DEFAULT_PRIOR_VISITS as u64)),
            EvalPriors,
            "evaluation priors: N virtual visits at v0 (default 10)",
        ),
        row(
            label::PB,
            Optional(NonNegative, Value::Real(DEFAULT_PB_WEIGHT)),
            ProgressiveBias,
            "progressive bias W·H/(n+1) (default W = 1)",
        ),
        row(
            label::MB,
            Required(Positive),
            MaxBackprop,
            "max-backprop from T visits",
        ),
        row(label::C, Required(NonNegative), UctC, "the UCT constant"),
        row(label::ONE, Bare, OneChild, "one new child per simulation"),
        row(label::NOSOLVER, Bare, NoSolver, "MCTS-Solver off"),
        row(label::REUSE, Bare, Reuse, "keep the subtree between moves"),
        row(
            label::STOPFULL,
            Bare,
            StopFull,
            "stop when the node pool is full",
        ),
        row(
            label::SEED,
            Required(Any),
            Seed,
            "seed of the search's generator",
        ),
        row(
            label::BEST,
            Bare,
            Best,
            "BBQ best win: back up the best child's value",
        ),
        row(
            label::QUICK,
            Bare,
            Quick,
            "BBQ quick win: discount rewards by depth",
        ),
        row(
            label::BIG,
            Bare,
            Big,
            "BBQ big win: scale wins by the margin (scored games)",
        ),
        row(
            label::DEPTH,
            Required(Positive),
            MaxDepth,
            "simulations deeper than N are draws",
        ),
        row(
            label::DIST,
            Required(Distance),
            Dist,
            "Dist(k): moves near the stones only",
        ),
        row(
            label::PLAYOUTS,
            Required(Visits),
            Playouts,
            "playouts per iteration",
        ),
        row(
            label::TEXT_DET,
            Bare,
            TextDet,
            "det stops at |v| >= x, as the paper's text writes it (its code: >)",
        ),
        row(
            label::TEXT_IPP,
            Bare,
            TextIpp,
            "the informed policy as the paper's text gives it (see docs/reproduction.md)",
        ),
        row(
            label::TEXT_SOLVER,
            Bare,
            TextSolver,
            "MCTS-Solver as published: no expansion of a lost child's siblings (see docs/reproduction.md)",
        ),
        row(
            label::TEXT_PROVEN,
            Bare,
            TextProven,
            "a proven node's implicit value is its proven value, as the paper's text says (its code keeps the heuristic one)",
        ),
        row(
            label::CODE_PROOF_VISITS,
            Bare,
            CodeProofVisits,
            "as the paper's code: a simulation adds no visit to the nodes it proves (see docs/reproduction.md)",
        ),
        row(
            label::CODE_END_EVAL,
            Bare,
            CodeEndEval,
            "as the paper's code: a child that ends the game is valued by the evaluation (K4)",
        ),
        row(
            label::CODE_UNPROVEN_DRAWS,
            Bare,
            CodeUnprovenDraws,
            "as the paper's code: finished draws stay unproven (K5)",
        ),
        row(
            label::CODE_TIES,
            Bare,
            CodeTies,
            "as the paper's code: children in its move order, ties to the first (Breakthrough's default; see docs/reproduction.md)",
        ),
        row(
            label::RANDOM_TIES,
            Bare,
            RandomTies,
            "ties broken uniformly at random, in our move order: turns off Breakthrough's default code-ties",
        ),
    ]
};

/// Every `ab(...)` label (besides the game's evaluations) with its meaning.
pub const ALPHABETA_LABEL_ROWS: &[Documented] = &[
    row(
        label::DEPTH,
        Number::Required(Check::AlphaBetaDepth),
        Setting::AlphaBetaDepth,
        "the deepest iteration",
    ),
    row(
        label::TT,
        Number::Required(Check::Any),
        Setting::TableEntries,
        "transposition-table entries (0: none)",
    ),
];

/// The row of `table` for `text` and the digits after its name: the longest name `text`
/// starts with (ASCII case ignored), so `pbim0.2` is `pbim` and `cb0.5` is `cb`.
fn find<'t>(table: &'t [Label], text: &str) -> Option<(&'t Label, usize)> {
    table
        .iter()
        .filter(|l| {
            text.len() >= l.name.len()
                && text.as_bytes()[..l.name.len()].eq_ignore_ascii_case(l.name.as_bytes())
        })
        .max_by_key(|l| l.name.len())
        .map(|l| (l, l.name.len()))
}

/// Reads the number of `row` from `digits` (what follows the name in `text`).
fn value_of<'a>(row: &Label, text: &'a str, digits: &str) -> Result<Value, SpecError<'a>> {
    let check = match row.number {
        Number::None if digits.is_empty() => return Ok(Value::None),
        Number::None => return Err(SpecError::new(text, "unknown label")),
        Number::Optional(_, default) if digits.is_empty() => return Ok(default),
        Number::Optional(check, _) | Number::Required(check) => check,
    };
    let bad = SpecError {
        label: text,
        problem: check.allowed(),
        takes: Some(row.name),
    };
    if check.is_real() {
        match super::decimal::parse_f32(digits) {
            Some(x) if check.accepts_real(x) => Ok(Value::Real(x)),
            _ => Err(bad),
        }
    } else {
        match digits.parse::<u64>() {
            Ok(n) if check.accepts_whole(n) => Ok(Value::Whole(n)),
            _ => Err(bad),
        }
    }
}

fn real(v: Value) -> f32 {
    match v {
        Value::Real(x) => x,
        _ => 0.0,
    }
}

/// A whole number the label's [`Check`] bounded to `u32` (or `u8` for Dist).
fn whole(v: Value) -> u32 {
    match v {
        Value::Whole(n) => n as u32,
        _ => 0,
    }
}

/// Writes `setting` with `value` into `cfg`. The value passed the label's check.
fn apply<G: Game>(cfg: &mut MctsConfig<G>, setting: Setting, value: Value) {
    use Setting::*;
    match setting {
        InformedPlayouts => cfg.playout.policy = PlayoutPolicy::Informed,
        AlphaBetaPlayouts => cfg.playout.policy = PlayoutPolicy::AlphaBeta,
        Implicit | ConstantBias | ProgressiveImplicit => {
            cfg.value_mode = match setting {
                Implicit => ValueMode::Implicit,
                ConstantBias => ValueMode::ConstantBias,
                _ => ValueMode::ProgressiveImplicit,
            };
            cfg.alpha = real(value);
        }
        EpsilonGreedy => cfg.playout.epsilon_greedy = Some(real(value)),
        DynamicCutoff => cfg.playout.dynamic_cutoff = Some(real(value)),
        DetInterval => cfg.playout.det_interval = whole(value),
        FixedCutoff => cfg.playout.fixed_cutoff = Some(whole(value)),
        NodePriors => cfg.node_priors = Some(whole(value)),
        EvalPriors => cfg.eval_priors = Some(whole(value)),
        ProgressiveBias => cfg.progressive_bias = Some(real(value)),
        MaxBackprop => cfg.max_backprop = Some(whole(value)),
        UctC => cfg.uct_c = real(value),
        OneChild => cfg.expansion = Expansion::OneChild,
        NoSolver => cfg.solver = false,
        Reuse => cfg.reuse_tree = true,
        StopFull => cfg.stop_when_full = true,
        Seed => {
            if let Value::Whole(n) = value {
                cfg.seed = n;
            }
        }
        Best => cfg.bbq.best = true,
        Quick => cfg.bbq.quick = true,
        Big => cfg.bbq.big = true,
        MaxDepth => cfg.bbq.max_depth = Some(whole(value)),
        Dist => cfg.bbq.dist = Some(whole(value) as u8),
        Playouts => cfg.bbq.playouts = whole(value),
        TextDet => cfg.playout.text_det = true,
        TextIpp => cfg.playout.text_ipp = true,
        TextSolver => cfg.text_solver = true,
        TextProven => cfg.text_proven = true,
        CodeProofVisits => cfg.code_proof_visits = true,
        CodeEndEval => cfg.code_end_eval = true,
        CodeUnprovenDraws => cfg.code_unproven_draws = true,
        CodeTies => cfg.code_ties = true,
        RandomTies => cfg.code_ties = false,
        AlphaBetaDepth | TableEntries => {}
    }
}

/// The slots earlier labels of a spec have set, so a second setting of one is caught.
struct Seen(u64);

/// The slot of the evaluation, which no table row sets.
const EVAL_SLOT: u32 = 63;

impl Seen {
    /// Marks `setting`'s slot as set by `label`; an error naming `label` if it was set before.
    fn claim<'a>(&mut self, setting: Setting, label: &'a str) -> Result<(), SpecError<'a>> {
        self.claim_slot(setting.slot(), label)
    }

    fn claim_slot<'a>(&mut self, slot: u32, label: &'a str) -> Result<(), SpecError<'a>> {
        let bit = 1u64 << slot;
        if self.0 & bit != 0 {
            return Err(SpecError::new(
                label,
                "sets something an earlier label already set",
            ));
        }
        self.0 |= bit;
        Ok(())
    }
}

/// The trimmed labels of a spec's parenthesised list (none for `mcts` or `mcts()`); an empty
/// label in a non-empty list (`mcts(ipp,,im0.4)`) is an error naming the whole spec.
fn labels_of<'a>(
    spec: &'a str,
    labels: &'a str,
) -> Result<impl Iterator<Item = &'a str> + Clone, SpecError<'a>> {
    let empty_list = labels.trim().is_empty();
    if !empty_list && labels.split(',').any(|l| l.trim().is_empty()) {
        return Err(SpecError::new(spec, "empty label"));
    }
    Ok(labels
        .split(',')
        .map(str::trim)
        .filter(move |_| !empty_list))
}

/// Splits `name(l1,l2,…)` into the name and the label list (empty if no parentheses).
pub fn split_spec(spec: &str) -> Result<(&str, &str), SpecError<'_>> {
    let spec = spec.trim();
    match spec.find('(') {
        None => Ok((spec, "")),
        Some(open) => {
            let Some(inner) = spec[open + 1..].strip_suffix(')') else {
                return Err(SpecError::new(spec, "missing ')' at the end"));
            };
            // A byte scan rather than `str::contains`, whose pattern searcher is 1.5 KB of the
            // browser's module.
            if inner.bytes().any(|b| b == b'(' || b == b')') {
                return Err(SpecError::new(spec, "nested or unbalanced parentheses"));
            }
            Ok((spec[..open].trim(), inner))
        }
    }
}

/// The game preset named `text` (ASCII case ignored) and the labels it stands for.
fn preset<G: Game>(text: &str) -> Option<&'static str> {
    G::PRESETS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, labels)| labels)
}

/// Which label of the spec set which table name, to name it when validation refuses the
/// configuration (`ipp` in a game without an informed policy).
type Setters<'a> = heapless::Vec<(&'static str, &'a str), 64>;

/// Applies one non-preset label to `cfg`, claiming its slot in `seen`.
#[cfg_attr(feature = "compact-code", inline(never))]
fn apply_label<'a, G: Game>(
    cfg: &mut MctsConfig<G>,
    seen: &mut Seen,
    text: &'a str,
    setters: &mut Setters<'a>,
) -> Result<(), SpecError<'a>> {
    if let Some(e) = G::parse_eval(text) {
        seen.claim_slot(EVAL_SLOT, text)?;
        cfg.eval = e;
        return Ok(());
    }
    let (row, n) = find(MCTS_LABELS, text).ok_or(SpecError::new(text, "unknown label"))?;
    let value = value_of(row, text, &text[n..])?;
    seen.claim(row.sets, text)?;
    apply(cfg, row.sets, value);
    // Full only past 64 labels, each of which must claim a distinct slot: cannot happen.
    let _ = setters.push((row.name, text));
    Ok(())
}

/// Parses an MCTS spec such as `mcts(ipp,im0.4)` into a validated configuration for game `G`.
pub fn parse_mcts<G: Game>(spec: &str) -> Result<Valid<MctsConfig<G>>, SpecError<'_>> {
    let (name, labels) = split_spec(spec)?;
    if !name.eq_ignore_ascii_case("mcts") {
        return Err(SpecError::new(
            name,
            "unknown player: expected mcts(...) or ab(...)",
        ));
    }
    let labels = labels_of(spec, labels)?;
    let mut cfg = MctsConfig::<G>::default();
    let mut setters = Setters::new();
    // Presets first, wherever they stand: they set defaults without claiming slots, so the
    // labels written explicitly override them.
    for text in labels.clone() {
        if let Some(preset_labels) = preset::<G>(text) {
            let mut preset_seen = Seen(0);
            for inner in preset_labels.split(',').map(str::trim) {
                // A preset's own labels are checked by the game's tests; an error in one is
                // reported against the preset's name as written.
                apply_label(&mut cfg, &mut preset_seen, inner, &mut Setters::new())
                    .map_err(|e| SpecError { label: text, ..e })?;
            }
            let _ = setters.push(("", text));
        }
    }
    let mut seen = Seen(0);
    for text in labels {
        if preset::<G>(text).is_none() {
            apply_label(&mut cfg, &mut seen, text, &mut setters)?;
        }
    }
    cfg.validate().map_err(|e| refused(spec, &setters, e))
}

/// A validation error as a spec error naming the label (as written) that set the refused
/// value; a value a preset set is named by the preset.
fn refused<'a>(spec: &'a str, setters: &Setters<'a>, e: ConfigError) -> SpecError<'a> {
    let by_label = setters.iter().rev().find(|(name, _)| *name == e.label);
    let by_preset = setters.iter().find(|(name, _)| name.is_empty());
    let label = by_label.or(by_preset).map_or(spec, |&(_, text)| text);
    SpecError::new(label, e.allowed)
}

/// A parsed player: an MCTS configuration or an αβ configuration.
#[derive(Debug)]
pub enum PlayerSpec<G: Game> {
    /// `mcts(...)`.
    Mcts(Valid<MctsConfig<G>>),
    /// `ab(...)`, with the transposition-table size asked for (entries, `0` for none).
    AlphaBeta(Valid<AlphaBetaConfig<G>>, usize),
}

impl<G: Game> Clone for PlayerSpec<G> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Game> Copy for PlayerSpec<G> {}

/// Default αβ transposition-table entries for a bare `ab` (16 bytes each: 16 MiB).
pub const DEFAULT_TT_ENTRIES: usize = 1 << 20;

/// Parses any player spec: `mcts(...)` or `ab(...)`.
pub fn parse<G: Game>(spec: &str) -> Result<PlayerSpec<G>, SpecError<'_>> {
    let (name, _) = split_spec(spec)?;
    if name.eq_ignore_ascii_case("ab") {
        let (cfg, tt) = parse_alphabeta::<G>(spec)?;
        Ok(PlayerSpec::AlphaBeta(cfg, tt))
    } else {
        parse_mcts::<G>(spec).map(PlayerSpec::Mcts)
    }
}

/// Parses an αβ spec such as `ab(efLH)` or `ab(efMS,depth6,tt0)` into a validated
/// configuration and a transposition-table size in entries.
pub fn parse_alphabeta<G: Game>(
    spec: &str,
) -> Result<(Valid<AlphaBetaConfig<G>>, usize), SpecError<'_>> {
    let (name, labels) = split_spec(spec)?;
    if !name.eq_ignore_ascii_case("ab") {
        return Err(SpecError::new(
            name,
            "unknown player: expected mcts(...) or ab(...)",
        ));
    }
    let mut cfg = AlphaBetaConfig::<G>::default();
    let mut tt = DEFAULT_TT_ENTRIES;
    let mut seen = Seen(0);
    for text in labels_of(spec, labels)? {
        if let Some(e) = G::parse_eval(text) {
            seen.claim_slot(EVAL_SLOT, text)?;
            cfg.eval = e;
            continue;
        }
        let unknown = SpecError::new(
            text,
            "unknown label for ab (expected an evaluation, depthN or ttN)",
        );
        let (row, n) = find(ALPHABETA_LABELS, text).ok_or(unknown)?;
        let value = value_of(row, text, &text[n..])?;
        seen.claim(row.sets, text)?;
        if let Value::Whole(n) = value {
            match row.sets {
                Setting::AlphaBetaDepth => cfg.max_depth = n as u32,
                _ => tt = usize::try_from(n).unwrap_or(usize::MAX),
            }
        }
    }
    let valid = cfg
        .validate()
        .map_err(|e| SpecError::new(spec, e.allowed))?;
    Ok((valid, tt))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::Breakthrough;
    use crate::games::kalah::Kalah;
    use std::vec::Vec;

    /// Numbers a search cannot use are refused at parse time, naming the label and the range.
    #[test]
    fn out_of_range_numbers_are_refused_naming_label_and_range() {
        for (spec, label, name, range) in [
            ("mcts(pbnan)", "pbnan", "pb", Check::NonNegative),
            ("mcts(pbinf)", "pbinf", "pb", Check::NonNegative),
            ("mcts(pb-inf)", "pb-inf", "pb", Check::NonNegative),
            ("mcts(pb1e39)", "pb1e39", "pb", Check::NonNegative),
            ("mcts(pb-1)", "pb-1", "pb", Check::NonNegative),
            ("mcts(cNaN)", "cNaN", "c", Check::NonNegative),
            ("mcts(im1.5)", "im1.5", "im", Check::Unit),
            ("mcts(imnan)", "imnan", "im", Check::Unit),
            ("mcts(ege-0.1)", "ege-0.1", "ege", Check::Unit),
            ("mcts(np0)", "np0", "np", Check::Visits),
            ("mcts(np99999999999)", "np99999999999", "np", Check::Visits),
            // Counts that would let visit counts wrap (`MAX_ADDED_VISITS`).
            ("mcts(np65536)", "np65536", "np", Check::Visits),
            ("mcts(ep4294967295)", "ep4294967295", "ep", Check::Visits),
            (
                "mcts(playouts65536)",
                "playouts65536",
                "playouts",
                Check::Visits,
            ),
            ("mcts(fet-1)", "fet-1", "fet", Check::Count),
            ("mcts(seed-1)", "seed-1", "seed", Check::Any),
            ("mcts(mb0)", "mb0", "mb", Check::Positive),
            ("mcts(dist256)", "dist256", "dist", Check::Distance),
            ("ab(depth0)", "depth0", "depth", Check::AlphaBetaDepth),
            ("ab(depth65)", "depth65", "depth", Check::AlphaBetaDepth),
            ("ab(depth100)", "depth100", "depth", Check::AlphaBetaDepth),
            (
                "ab(depth4294967295)",
                "depth4294967295",
                "depth",
                Check::AlphaBetaDepth,
            ),
        ] {
            let e = parse::<Breakthrough>(spec).unwrap_err();
            assert_eq!(
                (e.label, e.takes, e.problem),
                (label, Some(name), range.allowed()),
                "{spec}"
            );
            let shown = std::format!("{e}");
            assert!(
                shown.contains(name) && shown.contains(range.allowed()),
                "{shown}"
            );
        }
        assert!(parse::<Breakthrough>("ab(depth64)").is_ok());
        assert!(parse::<Breakthrough>("mcts(pb0,c0,im1,fet0,seed18446744073709551615)").is_ok());
    }

    /// Options a game lacks are refused naming the label as written.
    #[test]
    fn options_the_game_lacks_name_the_label() {
        for spec in ["mcts(ipp)", "mcts(np)", "mcts(NP5)", "mcts(bl)"] {
            let e = parse_mcts::<Kalah>(spec).unwrap_err();
            assert_eq!(e.label, &spec[5..spec.len() - 1], "{spec}: {e}");
        }
        assert_eq!(
            parse_mcts::<Breakthrough>("mcts(big)").unwrap_err().label,
            "big"
        );
    }

    /// Explicit labels override a preset wherever the preset stands.
    #[test]
    fn explicit_labels_override_presets_in_any_order() {
        for spec in ["mcts(fet10,bl')", "mcts(bl',fet10)"] {
            let c = parse_mcts::<Breakthrough>(spec).unwrap();
            assert_eq!(c.playout.fixed_cutoff, Some(10), "{spec}");
            assert_eq!(c.playout.policy, PlayoutPolicy::Informed, "{spec}");
            assert_eq!(c.node_priors, Some(DEFAULT_PRIOR_VISITS), "{spec}");
        }
        // Every preset of every game parses on its own.
        for (name, _) in Breakthrough::PRESETS {
            parse_mcts::<Breakthrough>(&std::format!("mcts({name})")).unwrap();
        }
    }

    /// Breakthrough's searches, the presets among them, break ties as the paper's code does;
    /// `random-ties` undoes that, in either order, and conflicts with an explicit `code-ties`.
    /// Other games keep ours unless `code-ties` is written.
    #[test]
    fn breakthrough_takes_the_codes_ties_and_random_ties_undoes_them() {
        for spec in [
            "mcts",
            "mcts(ipp,im0.4)",
            "mcts(bl)",
            "mcts(bl')",
            "mcts(efLH,bl',im0.6)",
            "mcts(bl,code-ties)",
        ] {
            assert!(
                parse_mcts::<Breakthrough>(spec).unwrap().code_ties,
                "{spec}"
            );
        }
        for spec in [
            "mcts(bl,random-ties)",
            "mcts(random-ties,bl')",
            "mcts(random-ties)",
        ] {
            assert!(
                !parse_mcts::<Breakthrough>(spec).unwrap().code_ties,
                "{spec}"
            );
        }
        assert!(!parse_mcts::<Kalah>("mcts(fet4,im0.3)").unwrap().code_ties);
        assert!(
            parse_mcts::<Kalah>("mcts(fet4,code-ties)")
                .unwrap()
                .code_ties
        );
        let e = parse_mcts::<Breakthrough>("mcts(code-ties,random-ties)").unwrap_err();
        assert_eq!(e.label, "random-ties");
        // Otherwise the preset is what it was.
        let (a, b) = (
            parse_mcts::<Breakthrough>("mcts(bl',random-ties)").unwrap(),
            parse_mcts::<Breakthrough>("mcts(ipp,fet20,np,random-ties)").unwrap(),
        );
        assert_eq!(std::format!("{:?}", *a), std::format!("{:?}", *b));
    }

    /// How the README writes a row: `name`, `name<…>` or `name[<…>]`.
    fn written(l: &Label) -> &'static str {
        match l.number {
            Number::None => "",
            Number::Required(_) => "<",
            Number::Optional(..) => "[<",
        }
    }

    /// The grammar block of the README's "Player specs" section lists exactly the table's labels,
    /// each written with its number's form.
    #[test]
    fn readme_grammar_matches_the_label_tables() {
        let readme = include_str!("../../README.md");
        let section = readme.split("## Player specs").nth(1).expect("section");
        let block = section.split("```text").nth(1).unwrap().split("```").next();
        let block = block.unwrap();
        let mut rules: Vec<(&str, Vec<&str>)> = Vec::new();
        for line in block.lines().filter(|l| !l.trim().is_empty()) {
            let (rule, body) = match line.split_once(":=") {
                Some((r, b)) => (r.trim(), b),
                None => ("", line),
            };
            if !rule.is_empty() {
                rules.push((rule, Vec::new()));
            }
            let alts = body.split('|').map(str::trim).filter(|a| !a.is_empty());
            rules.last_mut().expect("a rule").1.extend(alts);
        }
        let tokens = |rule: &str| rules.iter().find(|r| r.0 == rule).unwrap().1.clone();
        for (rule, table) in [("label", MCTS_LABELS), ("ablabel", ALPHABETA_LABELS)] {
            let alts = tokens(rule);
            for l in table {
                let shape = written(l);
                assert!(
                    alts.iter()
                        .any(|a| a.strip_prefix(l.name).is_some_and(|rest| {
                            rest.starts_with(shape) && (shape.is_empty() == rest.is_empty())
                        })),
                    "README grammar rule {rule} lacks {}{shape}…",
                    l.name
                );
            }
            for a in alts.iter().filter(|a| !a.starts_with('<')) {
                let name = a.split(['<', '[']).next().unwrap();
                assert!(
                    table.iter().any(|l| l.name == name),
                    "README grammar rule {rule} has {a}, which no table row defines"
                );
            }
        }
    }
}
