//! `ledgerctl tournament final choose|schedule`: the finalists choose their roles in rank order
//! (the ledger refuses anything else), then the final is seated as they chose.

use super::tournament_state;
use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
use clap::Subcommand;
use ledger::event::Seats;
use ledger::{Event, Role, Stage, StreamId};

#[derive(Debug, clap::Args)]
pub struct FinalArgs {
    #[command(subcommand)]
    what: FinalCommand,
}

#[derive(Debug, Subcommand)]
enum FinalCommand {
    /// A finalist chooses a role (in rank order; the ledger refuses anything else).
    Choose(ChooseArgs),
    /// Schedule the final from the four choices.
    Schedule(ScheduleArgs),
}

#[derive(Debug, clap::Args)]
struct ChooseArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    #[arg(long)]
    player: String,
    #[arg(long, value_parser = values::role())]
    role: Role,
}

#[derive(Debug, clap::Args)]
struct ScheduleArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// The final's name in the tournament, recorded as `<tournament>-final`; `game/<id>` names
    /// the stream exactly.
    #[arg(long, default_value = ledger::draw::FINAL)]
    game: String,
    #[arg(long, default_value_t = 1)]
    table: u32,
}

pub async fn run(cli: &Cli, args: &FinalArgs) -> Result<(), CliError> {
    match &args.what {
        FinalCommand::Choose(args) => choose(cli, args).await,
        FinalCommand::Schedule(args) => schedule(cli, args).await,
    }
}

async fn choose(cli: &Cli, args: &ChooseArgs) -> Result<(), CliError> {
    let event = Event::FinalRoleChosen { player: args.player.clone(), role: args.role };
    append_events(cli, &args.tournament, vec![event]).await
}

/// Schedules the final from the four choices.
async fn schedule(cli: &Cli, args: &ScheduleArgs) -> Result<(), CliError> {
    let id = &args.tournament;
    let state = tournament_state(cli, id).await?;
    let chosen = |role: Role| {
        state.final_roles.get(&role).cloned().ok_or_else(|| {
            CliError::Refused(format!("no finalist has chosen {role} yet: `ledgerctl tournament final choose` first"))
        })
    };
    let seats = Seats {
        frederick: chosen(Role::Frederick)?,
        elisabeth: chosen(Role::Elisabeth)?,
        maria_theresa: chosen(Role::MariaTheresa)?,
        pompadour: chosen(Role::Pompadour)?,
    };
    let round = state.games.values().map(|g| g.round).max().unwrap_or(0) + 1;
    let game = super::game_of(id, &args.game)?.id().to_owned();
    let event = Event::GameScheduled { game, stage: Stage::Final, round, table: args.table, seats };
    append_events(cli, id, vec![event]).await
}
