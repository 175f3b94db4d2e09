//! `ledgerctl draw verify`: the recorded qualifying draw recomputed from its seed and the
//! registered players, online or offline from an export.

use super::state_of;
use crate::common::{read_input, CliError};
use crate::connection::{connect, read_stream};
use crate::{values, Cli};
use clap::Subcommand;
use ledger::check::{check_stream, parse_lines};
use ledger::draw::verify_with_stand_ins;
use ledger::rules::Rules;
use ledger::{Event, StreamId};
use serde_json::json;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct DrawArgs {
    #[command(subcommand)]
    what: DrawCommand,
}

#[derive(Debug, Subcommand)]
enum DrawCommand {
    /// Recompute the recorded qualifying draw from its seed and compare.
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// An export to verify offline.
    #[arg(long)]
    file: Option<PathBuf>,
}

/// Recomputes the recorded draw from its seed and the registered players.
pub async fn run(cli: &Cli, args: &DrawArgs) -> Result<(), CliError> {
    let DrawCommand::Verify(args) = &args.what;
    let id = &args.tournament;
    let state_and_events = match &args.file {
        Some(path) => {
            let lines =
                parse_lines(&read_input(Some(path.as_path()))?).map_err(|e| CliError::Refused(e.to_string()))?;
            let name = id.to_string();
            let lines: Vec<_> = lines.into_iter().filter(|l| l.stream.as_deref().is_none_or(|s| s == name)).collect();
            let state = check_stream(id, None, &lines).map_err(|e| CliError::Refused(e.to_string()))?;
            let Rules::Tournament(t) = state.rules() else { unreachable!("a tournament stream") };
            (t.clone(), lines.into_iter().map(|l| l.event).collect::<Vec<_>>())
        }
        None => {
            // Read once: the state and the recorded draw come from the same records.
            let records = read_stream(&mut connect(cli).await?, &id.to_string()).await.map_err(CliError::from)?;
            (state_of(id, &records)?, records.into_iter().map(|r| r.event).collect::<Vec<_>>())
        }
    };
    let (state, events) = state_and_events;
    let Some((seed, games)) = events.iter().find_map(|e| match e {
        Event::QualifyingDrawn { seed, games } => Some((*seed, games.clone())),
        _ => None,
    }) else {
        return Err(CliError::Refused(format!("{id} has no recorded qualifying draw")));
    };
    let stand_ins = state.stand_in_ids();
    verify_with_stand_ins(id.id(), &state.registration_order, &stand_ins, seed, &games).map_err(|difference| {
        CliError::Refused(format!("the recorded draw is not the draw of seed {seed}: {difference}"))
    })?;
    if cli.json {
        let seated = ledger::draw::stand_ins_needed(state.registration_order.len());
        say!(
            "{}",
            json!({"ok": true, "seed": seed, "games": games.len(), "players": state.registration_order.len(), "stand_ins": &stand_ins[..seated]})
        );
    } else {
        let stand_ins = match ledger::draw::stand_ins_needed(state.registration_order.len()) {
            0 => String::new(),
            n => format!(" and {n} stand-in{}", if n == 1 { "" } else { "s" }),
        };
        say!(
            "ok: the recorded draw is the draw of seed {seed} for the {} registered players{stand_ins} ({} games)",
            state.registration_order.len(),
            games.len()
        );
    }
    Ok(())
}
