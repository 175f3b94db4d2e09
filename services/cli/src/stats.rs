//! `ledgerctl stats roles`: games, wins, win rates and average scores per role and nation;
//! `ledgerctl stats ratings`: the players' Weng-Lin ratings (`--role-aware`: with a term per
//! role; `--role-only`: the roles alone, the baseline). Online from ledgerd or offline from an
//! export (validated first with the server's rules).

use super::common::{from_status, read_input, CliError};
use super::connection::connect_projections;
use super::offline::{load_records, offline};
use super::output::print_projection;
use super::{values, Cli};
use clap::Subcommand;
use ledger::{Ruleset, Stage, StreamId};
use ledger_house::projections;
use ledger_house::ratings::Model;
use ledger_proto::v1 as pb;
use replay::stats::Filter;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    #[command(subcommand)]
    what: StatsCommand,
}

#[derive(Debug, Subcommand)]
enum StatsCommand {
    /// Games, wins, win rate with a 95% Wilson interval, and average score per role and nation.
    Roles(RolesArgs),
    /// Weng-Lin ratings (Bradley-Terry, full pairing) of every player over the ended games.
    Ratings(RatingsArgs),
}

#[derive(Debug, clap::Args)]
struct RatingsArgs {
    /// An export to compute from offline; without it, ask ledgerd.
    #[arg(long)]
    file: Option<PathBuf>,
    /// The role-aware model: each seat the player's rating and the role's.
    #[arg(long, conflicts_with = "role_only")]
    role_aware: bool,
    /// The roles alone (the baseline a player rating must beat).
    #[arg(long)]
    role_only: bool,
    /// One year's players, each as after their last game of that year, with that year's games.
    #[arg(long)]
    year: Option<i32>,
}

async fn ratings(cli: &Cli, args: &RatingsArgs) -> Result<(), CliError> {
    let model = match (args.role_aware, args.role_only) {
        (true, _) => Model::RoleAware,
        (_, true) => Model::RoleOnly,
        _ => Model::Plain,
    };
    let Some(file) = &args.file else {
        let mut client = connect_projections(cli).await?;
        let request = pb::RatingsRequest { model: model.as_str().to_owned(), year: args.year.unwrap_or(0) };
        let answer = client.get_ratings(request).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli.json, &answer.json, &answer.text);
        return Ok(());
    };
    let facade = offline(load_records(&read_input(Some(file.as_path()))?)?);
    // A file is its holder's: names as it records them.
    let view = facade.ratings(model, false, args.year).map_err(|e| CliError::Refused(e.to_string()))?.value;
    print_projection(cli.json, &view.to_json_string(), &view.text());
    Ok(())
}

#[derive(Debug, clap::Args)]
struct RolesArgs {
    /// An export to compute from offline; without it, ask ledgerd.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Only this tournament (`<id>` or `tournament/<id>`).
    #[arg(long, value_parser = values::tournament)]
    tournament: Option<StreamId>,
    #[arg(long, value_parser = values::ruleset())]
    ruleset: Option<Ruleset>,
    #[arg(long, value_parser = values::stage())]
    stage: Option<Stage>,
    /// The year the tournament was recorded.
    #[arg(long)]
    year: Option<i32>,
}

pub async fn run(cli: &Cli, args: &StatsArgs) -> Result<(), CliError> {
    let args = match &args.what {
        StatsCommand::Roles(args) => args,
        StatsCommand::Ratings(args) => return ratings(cli, args).await,
    };
    let tournament = args.tournament.as_ref().map(|t| t.id().to_owned());
    let Some(file) = &args.file else {
        let mut client = connect_projections(cli).await?;
        let request = pb::RoleStatsRequest {
            tournament,
            ruleset: args.ruleset.map(|r| r.as_str().to_owned()),
            stage: args.stage.map(|s| s.as_str().to_owned()),
            year: args.year,
            as_of_position: None,
        };
        let answer = client.get_role_stats(request).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli.json, &answer.json, &answer.text);
        return Ok(());
    };
    let filter = Filter { tournament, ruleset: args.ruleset, stage: args.stage, year: args.year };
    let facade = offline(load_records(&read_input(Some(file.as_path()))?)?);
    let stats = facade.role_stats(&filter, None).map_err(|e| CliError::Refused(e.to_string()))?.value;
    print_projection(
        cli.json,
        &serde_json::to_string(&stats.to_json()).expect("stats serialise"),
        &projections::stats_text(&stats),
    );
    Ok(())
}
