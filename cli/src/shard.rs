//! `--shard i/N`: one machine's share of a match, so that a cluster scheduler (a Slurm array, GNU
//! parallel) can spread a paper table over many machines and `imcts merge` can put it together.
//!
//! Game `g` goes to shard `g mod N`. In paired protocols (Kalah's random boards) the unit is the
//! pair: pair `p` (games `2p` and `2p + 1`) goes to shard `p mod N`, so that every shard counts
//! whole pairs. Seeds do not depend on the shard: game `g` plays exactly as in the unsharded run.

use std::fmt;

/// Shard `index` of `count` (0-based: `0/2` and `1/2` are the two halves). The default, `0/1`,
/// is the whole match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which shard, `0..count`.
    pub index: usize,
    /// How many shards the match is split into.
    pub count: usize,
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl Shard {
    /// The unsharded match.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Parses `i/N` with `0 <= i < N` (the `--shard` value parser).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "'{text}' is not a shard: give i/N with 0 <= i < N, e.g. 0/4 \
                 (game g goes to shard g mod N)"
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game `game` is this shard's (in paired protocols, by its pair).
    pub fn owns(&self, game: usize, paired: bool) -> bool {
        let unit = if paired { game / 2 } else { game };
        unit % self.count == self.index
    }

    /// How many of the games `0..games` are this shard's (counted, not enumerated: `--games`
    /// may be huge and is refused later, when its records cannot be allocated).
    pub fn games_of(&self, games: usize, paired: bool) -> usize {
        // Units u in 0..n with u mod count = index.
        let units = |n: usize| {
            if self.index < n {
                (n - 1 - self.index) / self.count + 1
            } else {
                0
            }
        };
        if !paired {
            return units(games);
        }
        let full = games / 2;
        let half = usize::from(games % 2 == 1 && full % self.count == self.index);
        2 * units(full) + half
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn parses_i_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert_eq!(Shard::parse("0/1"), Ok(Shard::WHOLE));
        for bad in ["4/4", "1/0", "-1/2", "1", "a/b", "1/2/3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_game_goes_to_exactly_one_shard() {
        for paired in [false, true] {
            for n in 1..5 {
                for g in 0..40 {
                    let owners = (0..n)
                        .filter(|&i| Shard { index: i, count: n }.owns(g, paired))
                        .count();
                    assert_eq!(owners, 1);
                }
            }
        }
        let s = Shard { index: 1, count: 3 };
        assert!(s.owns(4, false) && !s.owns(5, false));
        // Paired: games 2 and 3 are pair 1.
        assert!(s.owns(2, true) && s.owns(3, true) && !s.owns(4, true));
        assert_eq!(s.games_of(10, false), 3);
        assert_eq!(s.games_of(10, true), 4);
        for paired in [false, true] {
            for count in 1..5 {
                for index in 0..count {
                    let s = Shard { index, count };
                    for games in 0..30 {
                        let brute = (0..games).filter(|&g| s.owns(g, paired)).count();
                        assert_eq!(s.games_of(games, paired), brute, "{s} {games} {paired}");
                    }
                }
            }
        }
        assert_eq!(Shard::WHOLE.games_of(99_999_999_999, false), 99_999_999_999);
    }
}
