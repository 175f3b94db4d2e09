//! `ledgerctl andes board|score|match|level <match>` (and `level --player <name>` across every
//! match): an Andes match's board, points, match sheet and levels, online from ledgerd (the
//! Projections service) or offline from a JSON Lines file (`--file`, validated first with the
//! server's rules, then asked of the projections facade as ledgerd asks it). Both print the same
//! text, and the same JSON under `--json`: every number with the line saying how it was reached.

use super::common::{from_status, read_input, CliError};
use super::connection::connect_projections;
use super::offline::refused_line;
use super::{values, Cli};
use clap::Subcommand;
use ledger::andes::Side;
use ledger::check::{check_stream, parse_lines, Line};
use ledger::{StreamId, StreamKind};
use ledger_house::error::Error;
use ledger_house::facade::{At, Projections};
use ledger_house::projections::andes::WhichBoard;
use ledger_house::source::Records;
use ledger_proto::v1 as pb;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct AndesArgs {
    #[command(subcommand)]
    what: AndesCommand,
}

#[derive(Debug, Subcommand)]
enum AndesCommand {
    /// The board of a game: the position after the last move (or after event --at), from Sol's
    /// or Luna's side, with each side's points.
    Board(BoardArgs),
    /// Each game's points (5.1), winner (5.2, 9.2) and bonus (9.4).
    Score(MatchArgs),
    /// The whole match: every move and position, the totals and the winner (9.3).
    Match(MatchArgs),
    /// Each player's level from the match's two games, or with --player one player's level
    /// from their last two games won across every match (9.5).
    Level(LevelArgs),
}

#[derive(Debug, clap::Args)]
struct BoardArgs {
    /// `<id>` or `andes/<id>`.
    #[arg(value_name = "MATCH", value_parser = values::andes_match)]
    match_id: StreamId,
    /// Game 1 or 2 (default: the last one started).
    #[arg(long)]
    game: Option<u8>,
    /// As the match stood after this event (seq).
    #[arg(long)]
    at: Option<u64>,
    /// Whose view.
    #[arg(long, default_value = "sol", value_parser = values::side())]
    side: Side,
    /// A JSON Lines file (an export, or the match's lines) to compute from offline.
    #[arg(long)]
    file: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct MatchArgs {
    /// `<id>` or `andes/<id>`.
    #[arg(value_name = "MATCH", value_parser = values::andes_match)]
    match_id: StreamId,
    /// As the match stood after this event (seq).
    #[arg(long)]
    at: Option<u64>,
    /// A JSON Lines file (an export, or the match's lines) to compute from offline.
    #[arg(long)]
    file: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct LevelArgs {
    /// `<id>` or `andes/<id>` (not with --player).
    #[arg(
        value_name = "MATCH",
        value_parser = values::andes_match,
        required_unless_present = "player",
        conflicts_with = "player"
    )]
    match_id: Option<StreamId>,
    /// One player's level across all Andes matches, the last two games won, by log position.
    #[arg(long)]
    player: Option<String>,
    /// As the match stood after this event (seq; with MATCH only).
    #[arg(long, conflicts_with = "player")]
    at: Option<u64>,
    /// A JSON Lines file (an export, or the match's lines) to compute from offline.
    #[arg(long)]
    file: Option<PathBuf>,
}

pub async fn run(cli: &Cli, args: &AndesArgs) -> Result<(), CliError> {
    let printed = match &args.what {
        AndesCommand::Board(BoardArgs { match_id, game, at, side, file }) => {
            let side = *side;
            if let Some(file) = file {
                let which = WhichBoard { game: *game, side };
                offline(load_file(match_id, file)?.andes_board(match_id, *at, which))?
            } else {
                let mut client = connect_projections(cli).await?;
                let request = pb::AndesBoardRequest {
                    match_id: match_id.to_string(),
                    as_of_seq: *at,
                    game: game.map(u64::from),
                    side: side.as_str().to_owned(),
                };
                answered(client.get_andes_board(request).await)?
            }
        }
        AndesCommand::Score(args) => match &args.file {
            Some(file) => offline(load_file(&args.match_id, file)?.andes_score(&args.match_id, args.at))?,
            None => {
                let mut client = connect_projections(cli).await?;
                answered(client.get_andes_score(request(args)).await)?
            }
        },
        AndesCommand::Match(args) => match &args.file {
            Some(file) => offline(load_file(&args.match_id, file)?.andes_match(&args.match_id, args.at))?,
            None => {
                let mut client = connect_projections(cli).await?;
                answered(client.get_andes_match(request(args)).await)?
            }
        },
        AndesCommand::Level(LevelArgs { player: Some(player), file, .. }) => match file {
            Some(file) => offline(load_all(file)?.andes_player_level(player))?,
            None => {
                let mut client = connect_projections(cli).await?;
                answered(client.get_andes_player_level(pb::AndesPlayerRequest { player: player.clone() }).await)?
            }
        },
        AndesCommand::Level(LevelArgs { match_id, at, file, .. }) => {
            let match_id = match_id.clone().ok_or_else(|| CliError::Failed("give a MATCH or --player".into()))?;
            let args = MatchArgs { match_id, at: *at, file: file.clone() };
            match &args.file {
                Some(file) => offline(load_file(&args.match_id, file)?.andes_level(&args.match_id, args.at))?,
                None => {
                    let mut client = connect_projections(cli).await?;
                    answered(client.get_andes_level(request(&args)).await)?
                }
            }
        }
    };
    if cli.json {
        say!("{}", printed.json);
    } else {
        say!("{}", printed.text.strip_suffix('\n').unwrap_or(&printed.text));
    }
    Ok(())
}

/// A projection as `ledgerctl` prints it: its JSON under `--json`, else its text.
struct Printed {
    json: String,
    text: String,
}

fn request(args: &MatchArgs) -> pb::AndesMatchRequest {
    pb::AndesMatchRequest { match_id: args.match_id.to_string(), as_of_seq: args.at }
}

fn answered(answer: Result<tonic::Response<pb::Projection>, tonic::Status>) -> Result<Printed, CliError> {
    let answer = answer.map_err(|s| from_status(&s))?.into_inner();
    Ok(Printed { json: answer.json, text: answer.text })
}

/// A view the facade made from a file, printed as ledgerd's answer is: its JSON and its text.
/// Every failure is a refusal (`CODE: message`): a file has no server to fail.
fn offline<T: Serialize + Display>(view: Result<At<T>, Error>) -> Result<Printed, CliError> {
    let view = view.map_err(|error| CliError::Refused(error.text()))?.value;
    Ok(Printed { json: serde_json::to_string(&view).expect("Andes views serialise"), text: view.to_string() })
}

/// The match's lines of a file: the lines that name its stream (an export of the whole log
/// holds others too) or name none; validated with the server's rules, derived events included.
/// Each event's line number stands for its log position.
fn load_file(id: &StreamId, file: &Path) -> Result<Projections<Records>, CliError> {
    let name = id.to_string();
    let lines: Vec<Line> = parse_lines(&read_input(Some(file))?)
        .map_err(refused_line)?
        .into_iter()
        .filter(|line| line.stream.as_deref().is_none_or(|stream| stream == name))
        .collect();
    check_stream(id, None, &lines).map_err(refused_line)?;
    let mut records = Records::new();
    for line in lines {
        records.push(id.clone(), line_position(&line), None, line.event);
    }
    Ok(Projections::new(records))
}

/// A line's number, standing for its log position.
fn line_position(line: &Line) -> u64 {
    u64::try_from(line.number).unwrap_or(u64::MAX)
}

/// Every Andes match of a file (lines naming an `andes/` stream), each validated with the
/// server's rules; each event's line number stands for its log position.
fn load_all(file: &Path) -> Result<Projections<Records>, CliError> {
    let mut by_stream: BTreeMap<StreamId, Vec<Line>> = BTreeMap::new();
    for line in parse_lines(&read_input(Some(file))?).map_err(refused_line)? {
        let Some(id) = line.stream.as_deref().and_then(|s| StreamId::parse(s).ok()) else { continue };
        if id.kind() == StreamKind::Andes {
            by_stream.entry(id).or_default().push(line);
        }
    }
    let mut records = Records::new();
    for (id, lines) in by_stream {
        check_stream(&id, None, &lines).map_err(refused_line)?;
        for line in lines {
            records.push(id.clone(), line_position(&line), None, line.event);
        }
    }
    Ok(Projections::new(records))
}
