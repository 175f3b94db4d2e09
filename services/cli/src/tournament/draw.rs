//! `ledgerctl tournament draw`: the four qualifying rounds drawn from a seed, with the
//! stand-ins the field needs, shown, and recorded unless `--dry-run`. The games are named after
//! the tournament (`<tournament>-q1-t1`, …), so no other tournament on the ledger has them.

use super::tournament;
use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::draw::QualifyingDraw;
use ledger::StreamId;
use ledger_house::commands::{self, Command, Shows};
use serde_json::json;

#[derive(Debug, clap::Args)]
pub struct DrawArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    #[arg(long)]
    seed: u64,
    /// Show the draw without recording it.
    #[arg(long)]
    dry_run: bool,
}

pub async fn run(cli: &Cli, args: &DrawArgs) -> Result<(), CliError> {
    let id = &args.tournament;
    let plan = commands::plan(&tournament(cli, id).await?, Command::Draw { seed: args.seed })?;
    if let Shows::Draw(draw) = &plan.shows {
        print_draw(cli, draw);
    }
    if args.dry_run {
        return Ok(());
    }
    append_events(cli, id, plan.events).await
}

fn print_draw(cli: &Cli, draw: &QualifyingDraw) {
    if cli.json {
        let repeats: Vec<_> =
            draw.repeats.iter().map(|r| json!({"players": r.players, "times_met": r.times_met})).collect();
        let event = ledger::event::to_canonical_json(&draw.to_event());
        say!("{}", json!({"event": event, "stand_ins": draw.stand_ins, "repeats": repeats}));
        return;
    }
    match draw.stand_ins.len() {
        0 => say!("no stand-ins needed"),
        n => say!(
            "{n} stand-in{} needed to fill the tables: {}",
            if n == 1 { "" } else { "s" },
            draw.stand_ins.join(", ")
        ),
    }
    let mut round = 0;
    for g in &draw.games {
        if g.round != round {
            round = g.round;
            say!("round {round}");
        }
        let s = &g.seats;
        say!(
            "  table {:<3} {:<8} frederick {} · elisabeth {} · maria_theresa {} · pompadour {}",
            g.table,
            g.game,
            s.frederick,
            s.elisabeth,
            s.maria_theresa,
            s.pompadour
        );
    }
    if draw.repeats.is_empty() {
        say!("no two players share a table twice");
    } else {
        say!("{} pairs meet more than once (unavoidable with {} players):", draw.repeats.len(), draw.games.len());
        for r in &draw.repeats {
            say!("  {} and {}: {} times", r.players[0], r.players[1], r.times_met);
        }
    }
}
