//! `ledgerctl tournament …` and `ledgerctl draw verify`: organisers run the tournament on the
//! ledger — create it, register players, draw the qualifying rounds, schedule games, draw lots
//! and let the finalists choose their roles, print the tablets' sign-in sheet — anyone can
//! recompute the recorded draw, and anyone list the season's tournaments.

mod create;
mod draw;
mod finals;
mod list;
mod lot;
mod register;
mod schedule;
mod tables;
mod unregister;
pub mod verify;
mod withdraw;

use super::appending::append_events;
use super::common::CliError;
use super::connection::{connect, read_stream};
use super::Cli;
use clap::Subcommand;
use ledger::rules::TournamentState;
use ledger::{Recorded, StreamId};
use ledger_house::commands::{self, Command, Plan, Tournament};
use ledger_house::projections::NoTournament;

#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    #[command(subcommand)]
    what: TournamentCommand,
}

#[derive(Debug, Subcommand)]
enum TournamentCommand {
    /// Create a tournament stream.
    Create(create::CreateArgs),
    /// The season: every tournament (name, ruleset, year, players, state) and Andes match, newest first.
    List(list::ListArgs),
    /// Register a player.
    Register(register::RegisterArgs),
    /// Take back a registration made in error, before the draw.
    Unregister(unregister::UnregisterArgs),
    /// Draw the four qualifying rounds from a seed and record them.
    Draw(draw::DrawArgs),
    /// Put a game on a table by hand.
    Schedule(schedule::ScheduleArgs),
    /// Draw a lot among tied players: the order follows from the seed, and anyone can check it.
    Lot(lot::LotArgs),
    /// The final: role choices in rank order, then the game.
    Final(finals::FinalArgs),
    /// The tablets' sign-in sheet: a fresh table token per table, added to the auth file, and
    /// a printable page with a QR code per table (then SIGHUP ledgerd to admit the tokens).
    Tables(tables::TablesArgs),
    /// A player leaves: a stand-in takes their remaining qualifying games; never a finalist.
    Withdraw(withdraw::WithdrawArgs),
}

pub async fn run(cli: &Cli, args: &TournamentArgs) -> Result<(), CliError> {
    match &args.what {
        TournamentCommand::Create(args) => create::run(cli, args).await,
        TournamentCommand::List(args) => list::run(cli, args).await,
        TournamentCommand::Register(args) => register::run(cli, args).await,
        TournamentCommand::Unregister(args) => unregister::run(cli, args).await,
        TournamentCommand::Draw(args) => draw::run(cli, args).await,
        TournamentCommand::Schedule(args) => schedule::run(cli, args).await,
        TournamentCommand::Lot(args) => lot::run(cli, args).await,
        TournamentCommand::Final(args) => finals::run(cli, args).await,
        TournamentCommand::Tables(args) => tables::run(cli, args).await,
        TournamentCommand::Withdraw(args) => withdraw::run(cli, args).await,
    }
}

/// The tournament as ledgerd holds it now (voided events left out), to plan a command on.
async fn tournament(cli: &Cli, id: &StreamId) -> Result<Tournament, CliError> {
    let records = read_stream(&mut connect(cli).await?, &id.to_string()).await.map_err(CliError::from)?;
    Ok(Tournament::read(id, &records))
}

/// Plans `command` on the tournament as ledgerd holds it (`ledger_house::commands`, the layer
/// the organiser's console calls too) and appends what it records.
async fn record(cli: &Cli, id: &StreamId, command: Command) -> Result<Plan, CliError> {
    let tournament = tournament(cli, id).await?;
    let plan = commands::plan(&tournament, command)?;
    append_events(cli, id, plan.events.clone()).await?;
    Ok(plan)
}

/// The tournament's rules state after `records` (voided events left out).
fn state_of(id: &StreamId, records: &[Recorded]) -> Result<TournamentState, CliError> {
    Ok(Tournament::read(id, records).state()?.clone())
}

/// `NOT_FOUND: there is no tournament <id>`, refused as ledgerd refuses a stream it lacks.
fn not_found(missing: NoTournament) -> CliError {
    CliError::Refused(format!("NOT_FOUND: {missing}"))
}
