//! The paper's two Breakthrough evaluations.
//!
//! - **efMS** (Schadd 2011): `Δ = (10·pieces + 2.5·progress)` of White minus the same of Black,
//!   where progress is how many ranks a side's most advanced piece stands from its own back rank
//!   (0..7); Δ is clamped to ±100 and the value is `tanh(Δ/60)`.
//! - **efLH** (Lorentz & Horey 2013): the sum of a piece-square table over a side's pieces minus
//!   the opponent's; the value is `tanh(Δ/100)`.
//!
//! efLH's sums are kept incrementally by make/undo. efMS needs piece counts and the most advanced
//! piece, which are one popcount and one bit scan of a bitboard: cheaper to read on demand than
//! to track. Both are checked against the square-by-square definitions below in debug builds.
//!
//! Both squash an integer: efMS's Δ is a multiple of 2.5 points clamped to ±100 (81 values),
//! efLH's a sum of integers. So `tanh` is read from tables holding `libm::tanhf` of exactly the
//! argument the definition computes, bit for bit (a test recomputes every entry): the same
//! values as calling `tanhf`, on every platform, without its software `expm1f` (which took 44%
//! of a `bl` search).

use super::Breakthrough;
use crate::game::Player;

/// Which evaluation function to use.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum BreakthroughEval {
    /// efMS: piece count and progress of the most advanced piece (Schadd).
    #[default]
    Schadd,
    /// efLH: Lorentz & Horey's piece-square table.
    LorentzHorey,
}

/// Lorentz & Horey's piece-square values, indexed `[row][file]` where row 0 is the side's own
/// back rank and row 7 its goal rank.
pub const LH_TABLE: [[i16; 8]; 8] = [
    [5, 15, 15, 5, 5, 15, 15, 5],
    [2, 3, 3, 3, 3, 3, 3, 2],
    [4, 6, 6, 6, 6, 6, 6, 4],
    [7, 10, 10, 10, 10, 10, 10, 7],
    [11, 15, 15, 15, 15, 15, 15, 11],
    [16, 21, 21, 21, 21, 21, 21, 16],
    [20, 28, 28, 28, 28, 28, 28, 20],
    [36, 36, 36, 36, 36, 36, 36, 36],
];

/// The table as seen by each side, indexed by square (a1 = 0).
const LH_BY_SQUARE: [[i16; 64]; 2] = {
    let mut t = [[0i16; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (rank, file) = (sq / 8, sq % 8);
        t[0][sq] = LH_TABLE[rank][file];
        t[1][sq] = LH_TABLE[7 - rank][file];
        sq += 1;
    }
    t
};

/// The sum for a side in the start position (rows 0 and 1 full).
pub(super) const START_LH: i16 = {
    let mut s = 0;
    let mut f = 0;
    while f < 8 {
        s += LH_TABLE[0][f] + LH_TABLE[1][f];
        f += 1;
    }
    s
};

/// The table value of a piece of `player` on `square`.
#[inline(always)]
pub(super) fn lh_value(square: u8, player: Player) -> i16 {
    LH_BY_SQUARE[player.index()][square as usize & 63]
}

/// The table as bit planes: `LH_PLANES[side][b]` holds the squares whose value has bit `b` set
/// (the values are below 64).
const LH_PLANES: [[u64; 6]; 2] = {
    let mut t = [[0u64; 6]; 2];
    let mut v = 0;
    while v < 64 {
        assert!(LH_BY_SQUARE[0][v] >= 0 && LH_BY_SQUARE[0][v] < 64);
        v += 1;
    }
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < 64 {
            let mut b = 0;
            while b < 6 {
                if (LH_BY_SQUARE[side][sq] >> b) & 1 != 0 {
                    t[side][b] |= 1 << sq;
                }
                b += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    t
};

/// The efLH sum of `pieces` belonging to `player`: six popcounts of the bit planes, without a
/// loop over the pieces (whose exit the predictor misses at the end of every playout).
pub(super) fn lh_from_scratch(pieces: u64, player: Player) -> i16 {
    let planes = &LH_PLANES[player.index()];
    let mut sum = 0;
    for (b, &plane) in planes.iter().enumerate() {
        sum += ((pieces & plane).count_ones() as i16) << b;
    }
    sum
}

/// `libm::tanhf(d as f32 / 100.0)` for `d` in `0..=400`: efLH's squashing of a difference
/// `d`. A non-terminal position's difference is at most 366 in size (16 pieces on the two
/// rows below the goal rank); [`lh_squash`] falls back to `tanhf` beyond the table.
static LH_TANH: [f32; 401] = [
    0.0,
    0.009999666,
    0.019997334,
    0.029991003,
    0.03997868,
    0.049958378,
    0.059928104,
    0.06988589,
    0.07982977,
    0.089757785,
    0.099667996,
    0.10955846,
    0.1194273,
    0.12927258,
    0.13909245,
    0.14888504,
    0.15864849,
    0.16838105,
    0.17808089,
    0.18774621,
    0.19737533,
    0.2069665,
    0.21651807,
    0.22602835,
    0.23549572,
    0.24491866,
    0.2542955,
    0.26362485,
    0.27290508,
    0.2821348,
    0.29131263,
    0.3004371,
    0.30950692,
    0.31852078,
    0.3274774,
    0.33637553,
    0.345214,
    0.35399172,
    0.3627075,
    0.37136018,
    0.37994897,
    0.3884727,
    0.39693043,
    0.40532133,
    0.41364443,
    0.421899,
    0.43008423,
    0.4381993,
    0.4462436,
    0.45421645,
    0.46211714,
    0.4699452,
    0.4777,
    0.48538107,
    0.492988,
    0.5005202,
    0.5079774,
    0.5153593,
    0.52266544,
    0.52989554,
    0.53704953,
    0.5441271,
    0.55112803,
    0.5580522,
    0.56489956,
    0.57166994,
    0.5783634,
    0.5849799,
    0.5915194,
    0.59798205,
    0.60436773,
    0.6106768,
    0.6169093,
    0.62306535,
    0.62914515,
    0.63514894,
    0.6410769,
    0.6469294,
    0.6527067,
    0.65840906,
    0.66403675,
    0.66959023,
    0.67506987,
    0.680476,
    0.685809,
    0.6910695,
    0.6962577,
    0.7013741,
    0.70641935,
    0.7113937,
    0.71629786,
    0.7211323,
    0.72589743,
    0.7305939,
    0.7352222,
    0.73978305,
    0.7442769,
    0.7487043,
    0.7530659,
    0.7573623,
    0.7615942,
    0.765762,
    0.7698665,
    0.7739083,
    0.77788806,
    0.78180635,
    0.78566384,
    0.78946126,
    0.7931991,
    0.79687816,
    0.800499,
    0.80406237,
    0.8075689,
    0.81101924,
    0.8144141,
    0.8177541,
    0.82103986,
    0.82427216,
    0.8274516,
    0.83057886,
    0.83365464,
    0.8366795,
    0.8396542,
    0.84257936,
    0.8454556,
    0.84828365,
    0.8510641,
    0.8537977,
    0.8564849,
    0.8591265,
    0.8617231,
    0.8642754,
    0.8667839,
    0.86924934,
    0.8716723,
    0.8740533,
    0.8763931,
    0.8786922,
    0.8809513,
    0.8831709,
    0.88535166,
    0.88749415,
    0.8895989,
    0.8916666,
    0.89369774,
    0.8956929,
    0.8976526,
    0.89957744,
    0.901468,
    0.9033247,
    0.90514827,
    0.906939,
    0.90869766,
    0.9104246,
    0.91212034,
    0.91378546,
    0.9154205,
    0.9170258,
    0.9186019,
    0.9201493,
    0.9216685,
    0.92316,
    0.9246242,
    0.9260616,
    0.9274726,
    0.9288576,
    0.93021715,
    0.9315517,
    0.93286157,
    0.93414724,
    0.93540907,
    0.93664753,
    0.93786305,
    0.9390559,
    0.9402267,
    0.94137555,
    0.942503,
    0.9436094,
    0.9446952,
    0.94576055,
    0.946806,
    0.94783187,
    0.9488384,
    0.94982606,
    0.9507952,
    0.951746,
    0.95267886,
    0.95359415,
    0.9544921,
    0.9553731,
    0.95623744,
    0.95708543,
    0.95791733,
    0.9587334,
    0.959534,
    0.9603194,
    0.96108985,
    0.96184564,
    0.962587,
    0.96331424,
    0.9640276,
    0.96472734,
    0.9654137,
    0.9660869,
    0.9667473,
    0.967395,
    0.9680303,
    0.96865344,
    0.96926457,
    0.969864,
    0.97045195,
    0.97102857,
    0.9715941,
    0.9721487,
    0.97269267,
    0.9732262,
    0.9737494,
    0.9742625,
    0.97476566,
    0.9752592,
    0.9757431,
    0.97621775,
    0.97668314,
    0.9771396,
    0.97758716,
    0.9780261,
    0.97845656,
    0.9788786,
    0.9792925,
    0.9796984,
    0.9800964,
    0.9804867,
    0.98086935,
    0.9812446,
    0.98161256,
    0.9819734,
    0.9823272,
    0.9826741,
    0.9830143,
    0.98334783,
    0.9836749,
    0.98399556,
    0.98431,
    0.98461825,
    0.98492056,
    0.9852169,
    0.98550755,
    0.98579246,
    0.9860718,
    0.9863457,
    0.9866143,
    0.9868776,
    0.98713577,
    0.9873889,
    0.9876371,
    0.9878804,
    0.98811895,
    0.98835284,
    0.98858213,
    0.98880696,
    0.9890274,
    0.9892435,
    0.9894554,
    0.9896631,
    0.98986673,
    0.9900664,
    0.99026215,
    0.990454,
    0.9906422,
    0.9908266,
    0.99100745,
    0.9911847,
    0.9913585,
    0.9915289,
    0.99169594,
    0.99185973,
    0.99202025,
    0.99217767,
    0.992332,
    0.9924832,
    0.9926315,
    0.9927769,
    0.99291945,
    0.99305916,
    0.9931961,
    0.99333036,
    0.993462,
    0.99359107,
    0.99371755,
    0.9938416,
    0.9939632,
    0.99408233,
    0.9941992,
    0.9943137,
    0.994426,
    0.9945361,
    0.994644,
    0.9947498,
    0.99485344,
    0.9949551,
    0.9950548,
    0.9951524,
    0.9952482,
    0.9953421,
    0.9954341,
    0.9955243,
    0.99561274,
    0.9956994,
    0.9957844,
    0.9958677,
    0.9959494,
    0.99602944,
    0.9961079,
    0.9961848,
    0.9962602,
    0.99633414,
    0.99640656,
    0.9964776,
    0.9965472,
    0.99661547,
    0.9966824,
    0.996748,
    0.9968123,
    0.9968753,
    0.9969371,
    0.99699765,
    0.997057,
    0.9971152,
    0.99717224,
    0.99722815,
    0.997283,
    0.9973367,
    0.9973894,
    0.997441,
    0.9974916,
    0.9975412,
    0.9975898,
    0.9976375,
    0.99768424,
    0.99773,
    0.9977749,
    0.99781895,
    0.9978621,
    0.99790436,
    0.99794585,
    0.99798644,
    0.9980263,
    0.99806535,
    0.9981036,
    0.9981411,
    0.9981779,
    0.99821395,
    0.9982493,
    0.9982839,
    0.9983179,
    0.99835116,
    0.99838376,
    0.99841577,
    0.9984471,
    0.9984778,
    0.9985079,
    0.9985375,
    0.9985664,
    0.99859476,
    0.9986226,
    0.99864984,
    0.99867654,
    0.99870276,
    0.9987284,
    0.99875355,
    0.9987782,
    0.9988024,
    0.99882615,
    0.99884933,
    0.9988721,
    0.99889445,
    0.9989163,
    0.9989378,
    0.99895877,
    0.9989794,
    0.9989996,
    0.9990194,
    0.9990388,
    0.9990578,
    0.9990765,
    0.9990948,
    0.99911267,
    0.99913025,
    0.9991475,
    0.99916434,
    0.99918085,
    0.99919707,
    0.999213,
    0.99922854,
    0.9992438,
    0.9992588,
    0.9992735,
    0.99928784,
    0.9993019,
    0.99931574,
    0.9993293,
];

/// `libm::tanhf(2.5 * d / 60.0)` for `d` in `0..=40`: efMS's squashing of a difference of
/// `d` steps of 2.5 points (the clamp at ±100 is `d = ±40`).
static MS_TANH: [f32; 41] = [
    0.0, 0.04164257, 0.08314097, 0.12435301, 0.16514042, 0.20537068, 0.24491866, 0.28366807,
    0.32151273, 0.35835737, 0.39411855, 0.42872488, 0.46211714, 0.49424854, 0.5250839, 0.55459976,
    0.5827829, 0.60963064, 0.63514894, 0.6593522, 0.6822618, 0.7039056, 0.7243167, 0.74353254,
    0.7615942, 0.7785454, 0.794432, 0.8093011, 0.82320064, 0.8361789, 0.84828365, 0.8595624,
    0.87006164, 0.87982666, 0.8889015, 0.89732844, 0.90514827, 0.9124, 0.9191209, 0.92534626,
    0.9311096,
];

/// efLH's `tanh(d / 100)`, equal to `libm::tanhf(d as f32 / 100.0)` bit for bit.
#[inline(always)]
pub(super) fn lh_squash(d: i32) -> f32 {
    match LH_TANH.get(d.unsigned_abs() as usize) {
        // tanh is odd, and so is libm's tanhf except at 0 (where `d` is never negative).
        Some(&t) if d < 0 => -t,
        Some(&t) => t,
        None => libm::tanhf(d as f32 / 100.0),
    }
}

/// efMS's `tanh(clamp(2.5·d, ±100) / 60)` for a difference of `d` steps of 2.5 points, equal to
/// the definition computed with `libm::tanhf` bit for bit.
#[inline(always)]
pub(super) fn ms_squash(d: i32) -> f32 {
    let t = MS_TANH[(d.unsigned_abs() as usize).min(40)];
    if d < 0 { -t } else { t }
}

/// efLH from White's point of view (non-terminal positions).
#[inline]
pub(super) fn lorentz_horey(b: &Breakthrough) -> f32 {
    lorentz_horey_of(b.lh)
}

/// efLH from White's point of view, from the two sides' sums.
#[inline(always)]
pub(super) fn lorentz_horey_of(lh: [i16; 2]) -> f32 {
    lh_squash((lh[0] - lh[1]) as i32)
}

/// The efMS material-and-progress score of one side, in quarter points (exact integers).
#[inline(always)]
pub(super) fn schadd_side(pieces: u64, player: Player) -> i32 {
    if pieces == 0 {
        return 0;
    }
    let progress = match player {
        Player::First => 7 - pieces.leading_zeros() as i32 / 8,
        Player::Second => 7 - pieces.trailing_zeros() as i32 / 8,
    };
    40 * pieces.count_ones() as i32 + 10 * progress
}

/// The same score, square by square, for the debug check.
fn schadd_side_from_scratch(pieces: u64, player: Player) -> i32 {
    let mut count = 0;
    let mut progress = 0;
    for sq in 0..64 {
        if pieces >> sq & 1 != 0 {
            count += 1;
            let row = match player {
                Player::First => sq / 8,
                Player::Second => 7 - sq / 8,
            };
            progress = progress.max(row);
        }
    }
    if count == 0 {
        0
    } else {
        40 * count + 10 * progress
    }
}

/// efMS from White's point of view (non-terminal positions).
#[inline]
pub(super) fn schadd(b: &Breakthrough) -> f32 {
    schadd_of(b.pieces[0].0, b.pieces[1].0)
}

/// efMS from White's point of view, from White's and Black's pieces (non-terminal positions).
#[inline(always)]
pub(super) fn schadd_of(white: u64, black: u64) -> f32 {
    let w = schadd_side(white, Player::First);
    let k = schadd_side(black, Player::Second);
    debug_assert_eq!(w, schadd_side_from_scratch(white, Player::First));
    debug_assert_eq!(k, schadd_side_from_scratch(black, Player::Second));
    // Both scores are multiples of 10 quarter points (2.5 points); clamp to ±100 and squash.
    debug_assert!((w - k) % 10 == 0);
    ms_squash((w - k) / 10)
}

/// efMS as the definition computes it with `libm::tanhf`, for the tests of the tables.
#[cfg(test)]
pub(super) fn schadd_by_tanhf(d: i32) -> f32 {
    let delta = ((d * 10) as f32 * 0.25).clamp(-100.0, 100.0);
    libm::tanhf(delta / 60.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{next_u64, seeded};

    /// The bit planes' sums equal the table's, square by square, for both sides, on random
    /// sets of squares (and the empty and the full board).
    #[test]
    fn lh_sums_by_bit_planes_equal_the_table() {
        let by_squares = |mut pieces: u64, player: Player| {
            let mut sum = 0;
            while pieces != 0 {
                sum += lh_value(pieces.trailing_zeros() as u8, player);
                pieces &= pieces - 1;
            }
            sum
        };
        let mut rng = seeded(5);
        let sets = [0, u64::MAX].into_iter().chain((0..10_000).map(|i| {
            // Sparse and dense sets alike.
            let (a, b) = (next_u64(&mut rng), next_u64(&mut rng));
            if i % 2 == 0 { a & b } else { a | b }
        }));
        for pieces in sets {
            for player in [Player::First, Player::Second] {
                assert_eq!(
                    lh_from_scratch(pieces, player),
                    by_squares(pieces, player),
                    "{pieces:#x} {player:?}"
                );
            }
        }
    }

    #[test]
    fn squash_tables_equal_tanhf_bit_for_bit() {
        for d in -1000..=1000 {
            let want = libm::tanhf(d as f32 / 100.0);
            assert_eq!(lh_squash(d).to_bits(), want.to_bits(), "efLH {d}");
        }
        for d in -100..=100 {
            assert_eq!(
                ms_squash(d).to_bits(),
                schadd_by_tanhf(d).to_bits(),
                "efMS {d}"
            );
        }
    }
}
