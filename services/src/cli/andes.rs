//! `ledgerctl andes board|score|match|level <match>` (and `level --player <name>` across every match): an Andes match's board, points, match
//! sheet and levels, online from ledgerd (the Projections service) or offline from a JSON Lines
//! file (`--file`, validated first with the server's rules). Both print the same text, and the
//! same JSON under `--json`: every number with the line saying how it was reached.

use super::{connect_projections, from_status, read_input, Cli, CliError};
use crate::projections::andes::{self, BoardView, Rendered};
use crate::projections::{ProjectionError, Streams};
use crate::status::rejection_code;
use clap::Subcommand;
use ledger::check::{check_stream, parse_lines, Line, LineError};
use ledger::{StreamId, StreamKind};
use ledger_proto::v1 as pb;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Subcommand)]
pub enum AndesCommand {
    /// The board of a game: the position after the last move (or after event --at), from Sol's
    /// or Luna's side, with each side's points.
    Board {
        /// `<id>` or `andes/<id>`.
        #[arg(value_name = "MATCH")]
        match_id: String,
        /// Game 1 or 2 (default: the last one started).
        #[arg(long)]
        game: Option<u8>,
        /// As the match stood after this event (seq).
        #[arg(long)]
        at: Option<u64>,
        /// Whose view: sol or luna.
        #[arg(long, default_value = "sol")]
        side: String,
        /// A JSON Lines file (an export, or the match's lines) to compute from offline.
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Each game's points (5.1), winner (5.2, 9.2) and bonus (9.4).
    Score(MatchArgs),
    /// The whole match: every move and position, the totals and the winner (9.3).
    Match(MatchArgs),
    /// Each player's level from the match's two games, or with --player one player's level
    /// from their last two ended games across every match (9.5).
    Level {
        /// `<id>` or `andes/<id>` (not with --player).
        #[arg(value_name = "MATCH", required_unless_present = "player", conflicts_with = "player")]
        match_id: Option<String>,
        /// One player's level across all Andes matches, the last two ended games by log position.
        #[arg(long)]
        player: Option<String>,
        /// As the match stood after this event (seq; with MATCH only).
        #[arg(long, conflicts_with = "player")]
        at: Option<u64>,
        /// A JSON Lines file (an export, or the match's lines) to compute from offline.
        #[arg(long)]
        file: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// `<id>` or `andes/<id>`.
    #[arg(value_name = "MATCH")]
    match_id: String,
    /// As the match stood after this event (seq).
    #[arg(long)]
    at: Option<u64>,
    /// A JSON Lines file (an export, or the match's lines) to compute from offline.
    #[arg(long)]
    file: Option<PathBuf>,
}

pub async fn run(cli: &Cli, command: &AndesCommand) -> Result<(), CliError> {
    let rendered = match command {
        AndesCommand::Board { match_id, game, at, side, file } => {
            let side = andes::parse_side(Some(side)).map_err(CliError::Failed)?;
            if let Some(file) = file {
                let (streams, id) = load_file(match_id, file)?;
                andes::board(&streams, &id, *at, BoardView { game: *game, side }).map_err(refused)?
            } else {
                let mut client = connect_projections(cli).await?;
                let request = pb::AndesBoardRequest {
                    match_id: match_id.clone(),
                    as_of_seq: *at,
                    game: game.map(u64::from),
                    side: side.as_str().to_owned(),
                };
                answered(client.get_andes_board(request).await)?
            }
        }
        AndesCommand::Score(args) => match &args.file {
            Some(file) => offline(args, file, andes::score)?,
            None => {
                let mut client = connect_projections(cli).await?;
                answered(client.get_andes_score(request(args)).await)?
            }
        },
        AndesCommand::Match(args) => match &args.file {
            Some(file) => offline(args, file, andes::whole_match)?,
            None => {
                let mut client = connect_projections(cli).await?;
                answered(client.get_andes_match(request(args)).await)?
            }
        },
        AndesCommand::Level { player: Some(player), file, .. } => match file {
            Some(file) => {
                let (streams, positions) = load_all(file)?;
                andes::player_level(&streams, player, |id, seq| positions.get(&(id.clone(), seq)).copied().unwrap_or(0))
                    .map_err(refused)?
            }
            None => {
                let mut client = connect_projections(cli).await?;
                answered(client.get_andes_player_level(pb::AndesPlayerRequest { player: player.clone() }).await)?
            }
        },
        AndesCommand::Level { match_id, at, file, .. } => {
            let args = MatchArgs { match_id: match_id.clone().unwrap_or_default(), at: *at, file: file.clone() };
            match &args.file {
                Some(file) => offline(&args, file, andes::level)?,
                None => {
                    let mut client = connect_projections(cli).await?;
                    answered(client.get_andes_level(request(&args)).await)?
                }
            }
        }
    };
    if cli.json {
        say!("{}", rendered.json);
    } else {
        say!("{}", rendered.text.strip_suffix('\n').unwrap_or(&rendered.text));
    }
    Ok(())
}

fn request(args: &MatchArgs) -> pb::AndesMatchRequest {
    pb::AndesMatchRequest { match_id: args.match_id.clone(), as_of_seq: args.at }
}

fn answered(answer: Result<tonic::Response<pb::Projection>, tonic::Status>) -> Result<Rendered, CliError> {
    let answer = answer.map_err(|s| from_status(&s))?.into_inner();
    Ok(Rendered { json: answer.json, text: answer.text })
}

fn offline(
    args: &MatchArgs,
    file: &Path,
    project: fn(&Streams, &StreamId, Option<u64>) -> Result<Rendered, ProjectionError>,
) -> Result<Rendered, CliError> {
    let (streams, id) = load_file(&args.match_id, file)?;
    project(&streams, &id, args.at).map_err(refused)
}

fn refused(error: ProjectionError) -> CliError {
    let code = match error {
        ProjectionError::NotFound(_) => "NOT_FOUND",
        _ => "FAILED_PRECONDITION",
    };
    CliError::Refused(format!("{code}: {error}"))
}

fn refused_line(e: LineError) -> CliError {
    CliError::Refused(format!("line {}: {}: {}", e.line, crate::status::code_name(rejection_code(e.kind)), e.message))
}

/// The match's lines of a file: the lines that name its stream (an export of the whole log
/// holds others too) or name none; validated with the server's rules, derived events included.
fn load_file(match_id: &str, file: &Path) -> Result<(Streams, StreamId), CliError> {
    let name =
        if match_id.contains('/') { match_id.to_owned() } else { format!("{}/{match_id}", StreamKind::Andes.prefix()) };
    let id = StreamId::parse(&name).map_err(|r| CliError::Failed(r.message))?;
    if id.kind() != StreamKind::Andes {
        return Err(CliError::Failed(format!("{id} is not an Andes match (`andes/<id>`)")));
    }
    let lines: Vec<Line> = parse_lines(&read_input(Some(file))?)
        .map_err(refused_line)?
        .into_iter()
        .filter(|line| line.stream.as_deref().is_none_or(|stream| stream == name))
        .collect();
    check_stream(&id, None, &lines).map_err(refused_line)?;
    let events = (1u64..).zip(lines.into_iter().map(|line| line.event)).collect();
    Ok((Streams::from([(id.clone(), events)]), id))
}

/// The line of each `(stream, seq)`.
type Positions = BTreeMap<(StreamId, u64), u64>;

/// Every Andes match of a file (lines naming an `andes/` stream), each validated with the
/// server's rules, and the place of each event: its line number stands for its log position.
fn load_all(file: &Path) -> Result<(Streams, Positions), CliError> {
    let mut by_stream: BTreeMap<StreamId, Vec<Line>> = BTreeMap::new();
    for line in parse_lines(&read_input(Some(file))?).map_err(refused_line)? {
        let Some(id) = line.stream.as_deref().and_then(|s| StreamId::parse(s).ok()) else { continue };
        if id.kind() == StreamKind::Andes {
            by_stream.entry(id).or_default().push(line);
        }
    }
    let mut streams = Streams::new();
    let mut positions = BTreeMap::new();
    for (id, lines) in by_stream {
        check_stream(&id, None, &lines).map_err(refused_line)?;
        let events = (1u64..)
            .zip(lines)
            .map(|(seq, line)| {
                positions.insert((id.clone(), seq), u64::try_from(line.number).unwrap_or(u64::MAX));
                (seq, line.event)
            })
            .collect();
        streams.insert(id, events);
    }
    Ok((streams, positions))
}
