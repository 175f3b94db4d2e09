//! `ledgerctl tournament list`: the season — every tournament on the ledger with its name,
//! ruleset, year, players and where it stands, and the Andes matches, newest first; online
//! from ledgerd (`GetSeason`) or offline from an export. Both ask the house's facade
//! (`Projections::season`), so they print the same table and the same JSON.

use crate::common::{from_status, read_input, CliError};
use crate::connection::connect_projections;
use crate::offline::{load_records, offline};
use crate::output::print_projection;
use crate::Cli;
use ledger_house::facade::season::SeasonScope;
use ledger_proto::v1 as pb;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// An export (or JSON Lines whose lines carry `stream`) to list offline.
    #[arg(long)]
    file: Option<PathBuf>,
}

pub async fn run(cli: &Cli, args: &ListArgs) -> Result<(), CliError> {
    let Some(file) = &args.file else {
        let mut client = connect_projections(cli).await?;
        let answer = client.get_season(pb::SeasonRequest {}).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli.json, &answer.json, &answer.text);
        return Ok(());
    };
    let facade = offline(load_records(&read_input(Some(file.as_path()))?)?);
    // Whoever holds the file reads every stream of it: the Andes matches are listed too.
    let season = facade.season(SeasonScope { andes: true }).map_err(|e| CliError::Refused(e.to_string()))?.value;
    print_projection(cli.json, &season.to_json_string(), &season.to_string());
    Ok(())
}
