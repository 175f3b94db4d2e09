//! `ledgerctl score`: a game's score sheet, online from ledgerd or offline from a file
//! (validated first, exactly as `check` does, then scored by the projections facade).

use super::common::{from_status, read_input, CliError};
use super::connection::connect_projections;
use super::offline::{offline, refused_line};
use super::output::print_projection;
use super::{values, Cli};
use ledger::check::{check_stream, parse_lines};
use ledger::{Ruleset, StreamId};
use ledger_house::source::Records;
use ledger_proto::v1 as pb;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ScoreArgs {
    #[arg(long, value_parser = values::ruleset())]
    ruleset: Option<Ruleset>,
    /// A game's JSON Lines file; `-` for stdin.
    #[arg(long, conflicts_with = "game")]
    file: Option<PathBuf>,
    /// Ask ledgerd for this game's sheet (`<id>` or `game/<id>`).
    #[arg(long, value_parser = values::game)]
    game: Option<StreamId>,
    /// The sheet as it stood after this event (seq).
    #[arg(long)]
    as_of: Option<u64>,
}

pub async fn run(cli: &Cli, args: &ScoreArgs) -> Result<(), CliError> {
    let (ruleset, as_of) = (args.ruleset, args.as_of);
    if let Some(game) = &args.game {
        let mut client = connect_projections(cli).await?;
        let request = pb::ScoreSheetRequest { game: game.to_string(), as_of_seq: as_of };
        let answer = client.get_score_sheet(request).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli.json, &answer.json, &answer.text);
        return Ok(());
    }
    let lines = parse_lines(&read_input(args.file.as_deref())?).map_err(refused_line)?;
    let stream = StreamId::game("offline").expect("valid id");
    check_stream(&stream, ruleset, &lines).map_err(refused_line)?;
    let mut records = Records::of_lone_game(ruleset);
    for line in lines {
        records.push(stream.clone(), line.number as u64, line.recorded_at_ms, line.event);
    }
    let sheet = offline(records)
        .score_sheet(&stream, as_of)
        .map_err(|e| CliError::Refused(format!("FAILED_PRECONDITION: {e}")))?
        .value;
    print_projection(cli.json, &sheet.to_json_string(), &sheet.to_string());
    Ok(())
}
