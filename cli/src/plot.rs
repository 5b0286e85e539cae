//! `--plot FILE.svg` (issue 17 item 5): an experiment's sweep drawn the way the paper's figures
//! are: A's win rate against α, one line per baseline B, each point with its 95% Wilson
//! interval, and the paper's points where the preset carries them. SVG only (plotters' SVG
//! backend, no system libraries, text as `<text>` elements).

use crate::experiment::{Preset, RowResult};
use plotters::prelude::*;

/// The α of an `im<α>` label in `spec`, if it has one.
pub fn alpha_of(spec: &str) -> Option<f64> {
    let inner = spec.split_once('(')?.1.strip_suffix(')')?;
    inner
        .split(',')
        .find_map(|l| l.trim().strip_prefix("im")?.parse::<f64>().ok())
}

/// Refuses `--plot` on an experiment whose rows are not a sweep over α: every A must carry
/// `im<α>`, and at least two values of α must appear.
pub fn check_sweep<'a>(name: &str, a_specs: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut alphas = Vec::new();
    for a in a_specs {
        let Some(x) = alpha_of(a) else {
            return Err(format!(
                "--plot draws win rate against α, and {name} is not a sweep over α \
                 (A = {a} has no im<α>); the sweeps: fig2, fig3, kalah-fig1, loa-fig4"
            ));
        };
        alphas.push(x);
    }
    alphas.sort_by(f64::total_cmp);
    alphas.dedup();
    if alphas.len() < 2 {
        return Err(format!(
            "--plot draws win rate against α, and {name} has fewer than two values of α"
        ));
    }
    Ok(())
}

/// Fails at once (before any game) if `path` cannot be written.
pub fn check_path(path: &str) -> Result<(), String> {
    std::fs::File::create(path)
        .map(drop)
        .map_err(|e| format!("cannot create {path}: {e}"))
}

/// One line of the plot: the rows against one baseline B, by α.
struct Series {
    label: String,
    points: Vec<(f64, f64, f64, f64)>,
    paper: Vec<(f64, f64)>,
}

/// The rows grouped by B (in order of first appearance), each sorted by α.
fn series(rows: &[RowResult]) -> Vec<Series> {
    let mut out: Vec<(String, Series)> = Vec::new();
    for r in rows {
        let Some(x) = alpha_of(&r.a) else { continue };
        let k = match out.iter().position(|(b, _)| *b == r.b) {
            Some(k) => k,
            None => {
                // "mcts(bl,im0.2)" vs "mcts(bl)" is labelled "mcts(bl,imα) vs mcts(bl)".
                let a_pattern = r.a.replacen(&format!("im{}", fmt_alpha(&r.a)), "imα", 1);
                let label = format!("{a_pattern} vs {}", r.b);
                out.push((
                    r.b.clone(),
                    Series {
                        label,
                        points: Vec::new(),
                        paper: Vec::new(),
                    },
                ));
                out.len() - 1
            }
        };
        let s = &mut out[k].1;
        if r.tally.counted() > 0 {
            let (lo, hi) = r.tally.wilson95();
            s.points
                .push((x, 100.0 * r.tally.a_rate(), 100.0 * lo, 100.0 * hi));
        }
        if let Some(p) = r.paper {
            s.paper.push((x, p));
        }
    }
    let mut out: Vec<Series> = out.into_iter().map(|(_, s)| s).collect();
    for s in &mut out {
        s.points.sort_by(|p, q| p.0.total_cmp(&q.0));
    }
    out
}

/// The α label's text as written in `spec` (`0.4` in `im0.4`).
fn fmt_alpha(spec: &str) -> String {
    spec.split_once('(')
        .and_then(|(_, inner)| inner.strip_suffix(')'))
        .and_then(|inner| {
            inner.split(',').find_map(|l| {
                l.trim()
                    .strip_prefix("im")
                    .filter(|a| a.parse::<f64>().is_ok())
            })
        })
        .unwrap_or("")
        .to_string()
}

/// The corner of the plot where the legend covers the fewest points and interval ends.
fn legend_corner(all: &[Series]) -> SeriesLabelPosition {
    let corners = [
        (SeriesLabelPosition::LowerRight, true, false),
        (SeriesLabelPosition::UpperRight, true, true),
        (SeriesLabelPosition::LowerLeft, false, false),
        (SeriesLabelPosition::UpperLeft, false, true),
    ];
    let covered = |right: bool, upper: bool| {
        let mut ys = Vec::new();
        for s in all {
            for &(x, y, lo, hi) in &s.points {
                ys.extend([(x, y), (x, lo), (x, hi)]);
            }
            ys.extend(s.paper.iter().copied());
        }
        ys.iter()
            .filter(|&&(x, y)| (x >= 0.45) == right && if upper { y > 70.0 } else { y < 30.0 })
            .count()
    };
    corners
        .into_iter()
        .min_by_key(|&(_, right, upper)| covered(right, upper))
        .map_or(SeriesLabelPosition::LowerRight, |(p, _, _)| p)
}

/// Draws the sweep of `preset` from its rows' results into the SVG file `path`.
pub fn sweep(path: &str, preset: &Preset, rows: &[RowResult]) -> Result<(), String> {
    check_sweep(preset.name, rows.iter().map(|r| r.a.as_str()))?;
    let failed = |e: String| format!("cannot draw {path}: {e}");
    let budgets: Vec<&str> = {
        let mut b: Vec<&str> = rows.iter().map(|r| r.budget.as_str()).collect();
        b.dedup();
        b
    };
    let games = rows.iter().map(|r| r.games).max().unwrap_or(0);
    let caption = format!(
        "{}: {} games a point, {}",
        preset.name,
        games,
        if budgets.len() == 1 {
            budgets[0]
        } else {
            "budgets per row"
        }
    );
    let all = series(rows);
    let root = SVGBackend::new(path, (800, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| failed(e.to_string()))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(&caption, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..1f64, 0f64..100f64)
        .map_err(|e| failed(e.to_string()))?;
    chart
        .configure_mesh()
        .x_desc("α (weight of the implicit minimax value)")
        .y_desc("A's win rate (%), 95% Wilson interval")
        .draw()
        .map_err(|e| failed(e.to_string()))?;
    // 50%: as strong as the baseline.
    chart
        .draw_series(LineSeries::new(
            [(0.0, 50.0), (1.0, 50.0)],
            RGBColor(160, 160, 160),
        ))
        .map_err(|e| failed(e.to_string()))?;
    let colors = [BLUE, RED, RGBColor(0, 140, 0), MAGENTA, CYAN, BLACK];
    for (k, s) in all.iter().enumerate() {
        let color = colors[k % colors.len()];
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|p| (p.0, p.1)),
                color.stroke_width(2),
            ))
            .map_err(|e| failed(e.to_string()))?
            .label(format!("ours: {}", s.label))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        chart
            .draw_series(s.points.iter().map(|&(x, y, lo, hi)| {
                ErrorBar::new_vertical(x, lo, y, hi, color.stroke_width(1), 8)
            }))
            .map_err(|e| failed(e.to_string()))?;
        chart
            .draw_series(
                s.points
                    .iter()
                    .map(|&(x, y, _, _)| Circle::new((x, y), 3, color.filled())),
            )
            .map_err(|e| failed(e.to_string()))?;
        if !s.paper.is_empty() {
            chart
                .draw_series(
                    s.paper
                        .iter()
                        .map(|&(x, p)| Cross::new((x, p), 7, color.stroke_width(3))),
                )
                .map_err(|e| failed(e.to_string()))?
                .label(format!("paper: {}", s.label))
                .legend(move |(x, y)| Cross::new((x + 10, y), 5, color.stroke_width(2)));
        }
    }
    chart
        .configure_series_labels()
        .position(legend_corner(&all))
        .border_style(BLACK)
        .background_style(WHITE.mix(0.85))
        .draw()
        .map_err(|e| failed(e.to_string()))?;
    root.present().map_err(|e| failed(e.to_string()))?;
    eprintln!("plot written to {path}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alpha_comes_from_the_im_label() {
        assert_eq!(alpha_of("mcts(bl,im0.4)"), Some(0.4));
        assert_eq!(alpha_of("mcts(one,det0.7,abp,pb,im0.2)"), Some(0.2));
        assert_eq!(alpha_of("mcts(bl)"), None);
        assert_eq!(alpha_of("mcts"), None);
        assert!(check_sweep("x", ["mcts(bl,im0.2)", "mcts(bl,im0.4)"].into_iter()).is_ok());
        assert!(check_sweep("x", ["mcts(bl,im0.2)", "mcts(bl,im0.2)"].into_iter()).is_err());
        assert!(check_sweep("x", ["mcts(ipp)", "mcts(bl,im0.2)"].into_iter()).is_err());
    }
}
