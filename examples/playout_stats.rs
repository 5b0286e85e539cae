//! The outcome distribution of one player's playouts from one Breakthrough position: N
//! playouts, each on a fresh copy, printing the share won by the side to move, the share cut
//! short (`fet`, `det`) and the mean reward and length. `scripts/compare_root_stats.py
//! --playouts` sets it beside the paper's Java code's playouts from the same position
//! (`scripts/java/PaperPlayoutStats.java`): two implementations of one playout policy must give
//! the same distribution, and a playout is a far sharper test of a policy than a game.
//!
//! ```sh
//! cargo run --release --example playout_stats -- "mcts(ipp)" 'pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w' 100000 1
//! ```
//!
//! Arguments: player spec (only its playout options matter), position, playouts, seed. Output,
//! one line: `playouts N mean_reward R wins W cut C mean_plies L` (reward and wins for the side
//! to move at the position).

use imcts::games::breakthrough::Breakthrough;
use imcts::search::{playout, spec::parse_mcts};
use imcts::{Game, Player};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [spec, pos, n, seed] = args.as_slice() else {
        return Err("usage: playout_stats SPEC POSITION PLAYOUTS SEED".into());
    };
    let n: u64 = n.parse().map_err(|e| format!("playouts: {e}"))?;
    let seed: u64 = seed.parse().map_err(|e| format!("seed: {e}"))?;
    let config = parse_mcts::<Breakthrough>(spec).map_err(|e| e.to_string())?;
    let start = Breakthrough::parse_position(pos).map_err(|e| format!("{e:?}"))?;
    let mover = start.side_to_move();
    let mut rng = imcts::rng::seeded(seed);
    let (mut sum, mut wins, mut cut, mut plies) = (0.0f64, 0u64, 0u64, 0u64);
    for _ in 0..n {
        let mut g = start.clone();
        let (r, p) = playout::run(&mut g, &config, &mut rng);
        let r = if mover == Player::First { r } else { -r } as f64;
        sum += r;
        wins += u64::from(r > 0.0);
        cut += u64::from(g.outcome().is_none());
        plies += u64::from(p);
    }
    println!(
        "playouts {n} mean_reward {:.5} wins {wins} cut {cut} mean_plies {:.3}",
        sum / n as f64,
        plies as f64 / n as f64
    );
    Ok(())
}
