//! `ledgerctl standings`: a tournament's standings with every tie-breaker used, online from
//! ledgerd or offline from an export (validated first with the server's rules).

use super::common::{from_status, read_input, CliError};
use super::connection::connect_projections;
use super::offline::{load_records, offline};
use super::output::print_projection;
use super::{values, Cli};
use ledger::StreamId;
use ledger_proto::v1 as pb;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct StandingsArgs {
    /// `<id>` or `tournament/<id>`.
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// An export (or JSON Lines whose lines carry `stream`) to compute from offline.
    #[arg(long)]
    file: Option<PathBuf>,
    /// Show players only by their pseudonyms, as published standings do.
    #[arg(long)]
    public: bool,
}

pub async fn run(cli: &Cli, args: &StandingsArgs) -> Result<(), CliError> {
    let (id, public) = (&args.tournament, args.public);
    let Some(file) = &args.file else {
        let mut client = connect_projections(cli).await?;
        let request = pb::StandingsRequest { tournament: id.to_string(), as_of_position: None, public };
        let answer = client.get_standings(request).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli.json, &answer.json, &answer.text);
        return Ok(());
    };
    let facade = offline(load_records(&read_input(Some(file.as_path()))?)?);
    let standings = facade.standings(id, None, public).map_err(|e| CliError::Refused(e.to_string()))?.value;
    print_projection(cli.json, &standings.to_json_string(), &standings.to_string());
    Ok(())
}
