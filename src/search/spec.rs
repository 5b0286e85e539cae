//! Player specs: the papers' labels, parsed into search configurations.
//!
//! ```text
//! spec   := "mcts" [ "(" label { "," label } ")" ] | "ab" [ "(" ablabel { "," ablabel } ")" ]
//! ablabel := <evaluation label> | depth<N> | tt<entries>
//! label  := ipp | abp | im<α> | ege<ε> | det<x> | detk<k> | fet<x> | pd<x> | np[<N>] | pb[<W>]
//!         | pbim<α> | cb<α> | mb<T> | c<C> | one | nosolver | reuse | stopfull | seed<S>
//!         | bl | bl' | <evaluation label, e.g. efMS, efLH> | text-det | text-ipp
//!         | best | quick | big | depth<N> | dist<K> | playouts<N>
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
//! undefended captures 4× against every other move. `docs/reproduction.md` lists them all.
//!
//! Labels are case-insensitive and may be separated by spaces after commas. `bl` and `bl'` are
//! the paper's Breakthrough baselines, `(ipp,ege0.1,det0.5)` and `(ipp,fet20,np)`; labels written
//! explicitly override what a baseline sets (so `mcts(bl',im0.4,np50)` is allowed), but a label
//! given twice, or two labels that set the same thing differently (`im` with `cb`), is an error
//! naming the label.

use super::alphabeta::AlphaBetaConfig;
use super::config::{Expansion, MctsConfig, PlayoutPolicy, ValueMode};
use crate::game::Game;
use core::fmt;

/// Why a player spec was rejected: the offending label and what was wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecError<'a> {
    /// The label (or the whole spec, for syntax errors).
    pub label: &'a str,
    /// What was wrong.
    pub problem: &'static str,
}

impl fmt::Display for SpecError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", self.label, self.problem)
    }
}

impl core::error::Error for SpecError<'_> {}

/// Default virtual visits for a bare `np` (the paper used 10 at one second per move).
pub const DEFAULT_PRIOR_VISITS: u32 = 10;
/// Default progressive-bias weight for a bare `pb`.
pub const DEFAULT_PB_WEIGHT: f32 = 1.0;

/// What each label sets, so a second setting of the same thing is caught.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
enum Slot {
    Policy = 1,
    Value = 2,
    Ege = 4,
    Det = 8,
    DetK = 16,
    Fet = 32,
    Np = 64,
    Pb = 128,
    Mb = 256,
    C = 512,
    Expansion = 1024,
    Solver = 2048,
    Reuse = 4096,
    Eval = 8192,
    StopFull = 16384,
    Seed = 32768,
    Best = 1 << 16,
    Quick = 1 << 17,
    Big = 1 << 18,
    Depth = 1 << 19,
    Dist = 1 << 20,
    Playouts = 1 << 21,
    TextDet = 1 << 22,
    TextIpp = 1 << 23,
}

/// Which [`Slot`]s earlier labels of a spec have set.
struct Seen(u32);

impl Seen {
    /// Marks `slot` as set by `label`; an error naming `label` if an earlier label set it.
    fn claim<'a>(&mut self, slot: Slot, label: &'a str) -> Result<(), SpecError<'a>> {
        if self.0 & slot as u32 != 0 {
            return Err(SpecError {
                label,
                problem: "sets something an earlier label already set",
            });
        }
        self.0 |= slot as u32;
        Ok(())
    }
}

/// The trimmed labels of a spec's parenthesised list (none for `mcts` or `mcts()`); an empty
/// label in a non-empty list (`mcts(ipp,,im0.4)`) is an error naming the whole spec.
fn labels_of<'a>(
    spec: &'a str,
    labels: &'a str,
) -> Result<impl Iterator<Item = &'a str>, SpecError<'a>> {
    let empty_list = labels.trim().is_empty();
    if !empty_list && labels.split(',').any(|l| l.trim().is_empty()) {
        return Err(SpecError {
            label: spec,
            problem: "empty label",
        });
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
                return Err(SpecError {
                    label: spec,
                    problem: "missing ')' at the end",
                });
            };
            if inner.contains('(') || inner.contains(')') {
                return Err(SpecError {
                    label: spec,
                    problem: "nested or unbalanced parentheses",
                });
            }
            Ok((spec[..open].trim(), inner))
        }
    }
}

fn number<'a, T: core::str::FromStr>(label: &'a str, digits: &str) -> Result<T, SpecError<'a>> {
    digits.parse().map_err(|_| SpecError {
        label,
        problem: "expected a number after the label's name",
    })
}

/// A number after the label's name that must not be zero; `problem` says why.
fn positive<'a, T: core::str::FromStr + Default + PartialEq>(
    label: &'a str,
    digits: &str,
    problem: &'static str,
) -> Result<T, SpecError<'a>> {
    let x: T = number(label, digits)?;
    if x == T::default() {
        return Err(SpecError { label, problem });
    }
    Ok(x)
}

fn unit<'a>(label: &'a str, digits: &str) -> Result<f32, SpecError<'a>> {
    let x: f32 = number(label, digits)?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(SpecError {
            label,
            problem: "must be between 0 and 1",
        })
    }
}

/// Parses an MCTS spec such as `mcts(ipp,im0.4)` into a configuration for game `G`.
pub fn parse_mcts<G: Game>(spec: &str) -> Result<MctsConfig<G>, SpecError<'_>> {
    let (name, labels) = split_spec(spec)?;
    if !name.eq_ignore_ascii_case("mcts") {
        return Err(SpecError {
            label: name,
            problem: "unknown player: expected mcts(...) or ab(...)",
        });
    }
    let mut cfg = MctsConfig::<G>::default();
    let mut seen = Seen(0);
    for label in labels_of(spec, labels)? {
        let lower = Lower::new(label);
        let l = lower.as_str();
        if let Some(e) = G::parse_eval(label) {
            seen.claim(Slot::Eval, label)?;
            cfg.eval = e;
        } else if l == "bl" || l == "bl'" {
            if G::NAME != "breakthrough" {
                return Err(SpecError {
                    label,
                    problem: "the paper's baselines bl and bl' are defined for breakthrough only",
                });
            }
            // Baselines set defaults without claiming slots: explicit labels override them.
            if l == "bl" {
                // The paper turns ipp on "by default from this point on", before defining bl;
                // its code's bl player (`mcts_s_h_ege0.1_det0.5`) draws from ipp's list.
                cfg.playout.policy = PlayoutPolicy::Informed;
                cfg.playout.epsilon_greedy = Some(0.1);
                cfg.playout.dynamic_cutoff = Some(0.5);
            } else {
                cfg.playout.policy = PlayoutPolicy::Informed;
                cfg.playout.fixed_cutoff = Some(20);
                cfg.node_priors = Some(DEFAULT_PRIOR_VISITS);
            }
        } else if l == "text-det" {
            seen.claim(Slot::TextDet, label)?;
            cfg.playout.text_det = true;
        } else if l == "text-ipp" {
            seen.claim(Slot::TextIpp, label)?;
            if !G::HAS_INFORMED_PLAYOUTS {
                return Err(SpecError {
                    label,
                    problem: "this game has no informed playout policy",
                });
            }
            cfg.playout.text_ipp = true;
        } else if l == "best" {
            seen.claim(Slot::Best, label)?;
            cfg.bbq.best = true;
        } else if l == "quick" {
            seen.claim(Slot::Quick, label)?;
            cfg.bbq.quick = true;
        } else if l == "big" {
            seen.claim(Slot::Big, label)?;
            if G::MAX_MARGIN <= 0 {
                return Err(SpecError {
                    label,
                    problem: "big win needs a scored game (this game has no score margin)",
                });
            }
            cfg.bbq.big = true;
        } else if let Some(d) = l.strip_prefix("depth") {
            seen.claim(Slot::Depth, label)?;
            let depth: u32 = positive(label, d, "the maximum depth must be at least 1")?;
            cfg.bbq.max_depth = Some(depth);
        } else if let Some(d) = l.strip_prefix("dist") {
            seen.claim(Slot::Dist, label)?;
            let k: u8 = positive(
                label,
                d,
                "the distance must be at least 1 (leave dist out for Dist(∞))",
            )?;
            cfg.bbq.dist = Some(k);
        } else if let Some(d) = l.strip_prefix("playouts") {
            seen.claim(Slot::Playouts, label)?;
            let n: u32 = positive(label, d, "at least one playout per iteration")?;
            cfg.bbq.playouts = n;
        } else if l == "ipp" {
            seen.claim(Slot::Policy, label)?;
            if !G::HAS_INFORMED_PLAYOUTS {
                return Err(SpecError {
                    label,
                    problem: "this game has no informed playout policy",
                });
            }
            cfg.playout.policy = PlayoutPolicy::Informed;
        } else if l == "abp" {
            seen.claim(Slot::Policy, label)?;
            cfg.playout.policy = PlayoutPolicy::AlphaBeta;
        } else if l == "one" {
            seen.claim(Slot::Expansion, label)?;
            cfg.expansion = Expansion::OneChild;
        } else if l == "nosolver" {
            seen.claim(Slot::Solver, label)?;
            cfg.solver = false;
        } else if l == "reuse" {
            seen.claim(Slot::Reuse, label)?;
            cfg.reuse_tree = true;
        } else if l == "stopfull" {
            seen.claim(Slot::StopFull, label)?;
            cfg.stop_when_full = true;
        } else if let Some(d) = l.strip_prefix("seed") {
            seen.claim(Slot::Seed, label)?;
            cfg.seed = number(label, d)?;
        } else if let Some(d) = l.strip_prefix("pbim") {
            seen.claim(Slot::Value, label)?;
            cfg.value_mode = ValueMode::ProgressiveImplicit;
            cfg.alpha = unit(label, d)?;
        } else if let Some(d) = l.strip_prefix("pb") {
            seen.claim(Slot::Pb, label)?;
            cfg.progressive_bias = Some(if d.is_empty() {
                DEFAULT_PB_WEIGHT
            } else {
                number(label, d)?
            });
        } else if let Some(d) = l.strip_prefix("im") {
            seen.claim(Slot::Value, label)?;
            cfg.value_mode = ValueMode::Implicit;
            cfg.alpha = unit(label, d)?;
        } else if let Some(d) = l.strip_prefix("cb") {
            seen.claim(Slot::Value, label)?;
            cfg.value_mode = ValueMode::ConstantBias;
            cfg.alpha = unit(label, d)?;
        } else if let Some(d) = l.strip_prefix("ege") {
            seen.claim(Slot::Ege, label)?;
            cfg.playout.epsilon_greedy = Some(unit(label, d)?);
        } else if let Some(d) = l.strip_prefix("detk") {
            seen.claim(Slot::DetK, label)?;
            let k: u32 = positive(label, d, "the det check interval must be at least 1")?;
            cfg.playout.det_interval = k;
        } else if let Some(d) = l.strip_prefix("det") {
            seen.claim(Slot::Det, label)?;
            cfg.playout.dynamic_cutoff = Some(unit(label, d)?);
        } else if let Some(d) = l.strip_prefix("fet").or_else(|| l.strip_prefix("pd")) {
            seen.claim(Slot::Fet, label)?;
            cfg.playout.fixed_cutoff = Some(number(label, d)?);
        } else if let Some(d) = l.strip_prefix("np") {
            seen.claim(Slot::Np, label)?;
            if !G::HAS_NODE_PRIORS {
                return Err(SpecError {
                    label,
                    problem: "this game has no node priors",
                });
            }
            cfg.node_priors = Some(if d.is_empty() {
                DEFAULT_PRIOR_VISITS
            } else {
                number(label, d)?
            });
        } else if let Some(d) = l.strip_prefix("mb") {
            seen.claim(Slot::Mb, label)?;
            let t: u32 = number(label, d)?;
            cfg.max_backprop = Some(t.max(1));
        } else if let Some(d) = l.strip_prefix('c') {
            seen.claim(Slot::C, label)?;
            let c: f32 = number(label, d)?;
            if !(c >= 0.0 && c.is_finite()) {
                return Err(SpecError {
                    label,
                    problem: "the UCT constant must be a non-negative number",
                });
            }
            cfg.uct_c = c;
        } else {
            return Err(SpecError {
                label,
                problem: "unknown label",
            });
        }
    }
    Ok(cfg)
}

/// A label lower-cased into a small buffer (labels are short; longer ones are cut, which can
/// only make them unknown).
struct Lower {
    buf: [u8; 32],
    len: usize,
}

impl Lower {
    fn new(s: &str) -> Self {
        let mut buf = [0u8; 32];
        let mut len = 0;
        for &b in s.as_bytes().iter().take(32) {
            buf[len] = b.to_ascii_lowercase();
            len += 1;
        }
        Lower { buf, len }
    }

    fn as_str(&self) -> &str {
        // Lower-casing ASCII bytes keeps UTF-8 valid, but a cut may split a character: then the
        // label is simply unknown.
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("\u{0}")
    }
}

/// A parsed player: an MCTS configuration or an αβ configuration.
#[derive(Debug)]
pub enum PlayerSpec<G: Game> {
    /// `mcts(...)`.
    Mcts(MctsConfig<G>),
    /// `ab(...)`, with the transposition-table size asked for (entries, `0` for none).
    AlphaBeta(AlphaBetaConfig<G>, usize),
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

/// Parses an αβ spec such as `ab(efLH)` or `ab(efMS,depth6,tt0)` into a configuration and a
/// transposition-table size in entries.
pub fn parse_alphabeta<G: Game>(spec: &str) -> Result<(AlphaBetaConfig<G>, usize), SpecError<'_>> {
    let (name, labels) = split_spec(spec)?;
    if !name.eq_ignore_ascii_case("ab") {
        return Err(SpecError {
            label: name,
            problem: "unknown player: expected mcts(...) or ab(...)",
        });
    }
    let mut cfg = AlphaBetaConfig::<G>::default();
    let mut tt = DEFAULT_TT_ENTRIES;
    let mut seen = Seen(0);
    for label in labels_of(spec, labels)? {
        let lower = Lower::new(label);
        let l = lower.as_str();
        if let Some(e) = G::parse_eval(label) {
            seen.claim(Slot::Eval, label)?;
            cfg.eval = e;
        } else if let Some(d) = l.strip_prefix("depth") {
            seen.claim(Slot::Fet, label)?;
            let depth: u32 = positive(label, d, "the depth must be at least 1")?;
            cfg.max_depth = depth;
        } else if let Some(d) = l.strip_prefix("tt") {
            seen.claim(Slot::Np, label)?;
            tt = number(label, d)?;
        } else {
            return Err(SpecError {
                label,
                problem: "unknown label for ab (expected an evaluation, depthN or ttN)",
            });
        }
    }
    Ok((cfg, tt))
}
