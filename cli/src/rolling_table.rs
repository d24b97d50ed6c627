//! The rolling-update sections of the table: the budget, every round with the controller's counts,
//! what moved and why, the available-cluster line as text, and the stall. Layout only: the core
//! computed every number.

use std::io::{self, Write};

use fleetplan::rolling::{Action, RollingDetail};

use crate::grid::Grid;

/// Widest the text availability bar gets; larger fleets are scaled down to it.
const BAR: usize = 40;

pub fn write_rolling(w: &mut dyn Write, r: &RollingDetail) -> io::Result<()> {
    writeln!(w, "rolling update")?;
    let mut g = Grid::headless(2);
    g.row(vec!["placement".into(), r.placement.clone()]);
    g.row(vec!["target N".into(), r.target.to_string()]);
    g.row(vec![
        "maxUnavailable".into(),
        format!("{} (from {})", r.max_unavailable, r.max_unavailable_setting),
    ]);
    g.row(vec![
        "maxSurge".into(),
        format!("{} (from {})", r.max_surge, r.max_surge_setting),
    ]);
    g.row(vec![
        "min available".into(),
        format!("{} = N − maxUnavailable", r.min_available),
    ]);
    g.row(vec![
        "availability".into(),
        if r.trackable {
            "tracked (unavailablePeriodSeconds not used)".into()
        } else {
            format!(
                "not trackable: ready {} after apply (unavailablePeriodSeconds)",
                r.unavailable_period
            )
        },
    ]);
    g.write(w, "  ")?;
    writeln!(w)?;

    writeln!(w, "rounds")?;
    if r.rounds.is_empty() {
        writeln!(w, "  none: nothing moved")?;
    } else {
        let mut g = Grid::new(&[
            "AT",
            "READY",
            "DELETING",
            "CAN BE READY",
            "MAX REMOVE",
            "MAX ADD",
            "MOVED",
        ]);
        for c in 1..6 {
            g = g.right(c);
        }
        for round in &r.rounds {
            let moved: Vec<String> = round
                .moved
                .iter()
                .map(|m| format!("{} {}", action(m.action), m.cluster))
                .collect();
            g.row(vec![
                round.at.to_string(),
                round.counts.ready.to_string(),
                round.counts.can_be_unavailable.to_string(),
                round.counts.can_be_ready.to_string(),
                round.max_to_remove.to_string(),
                round.max_to_add.to_string(),
                moved.join(", "),
            ]);
        }
        g.write(w, "  ")?;
        writeln!(w)?;
        writeln!(w, "moves")?;
        let mut g = Grid::new(&["AT", "CLUSTER", "ACTION", "WHY"]);
        for round in &r.rounds {
            for m in &round.moved {
                g.row(vec![
                    round.at.to_string(),
                    m.cluster.to_string(),
                    action(m.action).into(),
                    m.why.to_string(),
                ]);
            }
        }
        g.write(w, "  ")?;
    }
    writeln!(w)?;

    writeln!(
        w,
        "available clusters (before the rollout: {}; never below {} by the budget)",
        r.available_before, r.min_available
    )?;
    let top = r
        .availability
        .iter()
        .map(|p| p.placed.max(p.available))
        .max()
        .unwrap_or(0)
        .max(r.target)
        .max(1);
    let scale = |n: usize| (n * BAR).div_ceil(top).min(BAR);
    let mut g = Grid::new(&["FROM", "AVAILABLE", "PLACED", ""])
        .right(1)
        .right(2);
    for p in &r.availability {
        let mut bar: Vec<char> = std::iter::repeat_n('#', scale(p.available)).collect();
        bar.resize(scale(p.placed.max(p.available)), '+');
        let floor = scale(r.min_available);
        if floor > 0 {
            if bar.len() < floor {
                bar.resize(floor, ' ');
            }
            bar.insert(floor, '|');
        }
        g.row(vec![
            p.at.to_string(),
            p.available.to_string(),
            p.placed.to_string(),
            bar.into_iter().collect::<String>().trim_end().to_string(),
        ]);
    }
    g.write(w, "  ")?;
    writeln!(
        w,
        "  (# available, + placed but not available, | the floor N − maxUnavailable)"
    )?;
    if let Some(s) = &r.stall {
        writeln!(w)?;
        writeln!(w, "stall")?;
        let mut g = Grid::headless(2);
        g.row(vec!["since".into(), s.at.to_string()]);
        g.row(vec!["waiting forever".into(), s.waiting.join(", ")]);
        g.row(vec!["why".into(), s.reason.clone()]);
        g.write(w, "  ")?;
    }
    Ok(())
}

fn action(a: Action) -> &'static str {
    match a {
        Action::Remove => "remove",
        Action::Update => "update",
        Action::Add => "add",
    }
}
