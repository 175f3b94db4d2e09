//! `ledgerctl score`, `standings` and `stats roles`: the numbers of a game or a tournament,
//! online from ledgerd or offline from a file (validated first, exactly as `check` does).

use super::{connect_projections, from_status, read_input, Cli, CliError};
use crate::projections::{self, Streams};
use crate::status::rejection_code;
use ledger::check::{check_stream, parse_lines, Line, LineError};
use ledger::{Ruleset, Stage, StreamId, StreamKind};
use ledger_proto::v1 as pb;
use replay::stats::{year_of_unix_ms, Filter};
use std::collections::BTreeMap;
use std::path::Path;

fn refused(e: LineError) -> CliError {
    CliError::Refused(format!("line {}: {}: {}", e.line, crate::status::code_name(rejection_code(e.kind)), e.message))
}

fn parse_ruleset(text: Option<&str>) -> Result<Option<Ruleset>, CliError> {
    text.map(|r| {
        Ruleset::parse(r)
            .ok_or_else(|| CliError::Failed(format!("unknown ruleset `{r}`: use wm2015, cafe2019 or cafe2023")))
    })
    .transpose()
}

fn print_projection(cli: &Cli, json: &str, text: &str) {
    if cli.json {
        say!("{json}");
    } else {
        say!("{}", text.strip_suffix('\n').unwrap_or(text));
    }
}

/// `<id>` or `<kind>/<id>`.
fn stream_name(kind: StreamKind, text: &str) -> String {
    if text.contains('/') {
        text.to_owned()
    } else {
        format!("{}/{text}", kind.prefix())
    }
}

pub async fn score(
    cli: &Cli,
    ruleset: Option<&str>,
    file: Option<&Path>,
    game: Option<&str>,
    as_of: Option<u64>,
) -> Result<(), CliError> {
    let ruleset = parse_ruleset(ruleset)?;
    if let Some(game) = game {
        let mut client = connect_projections(cli).await?;
        let request = pb::ScoreSheetRequest { game: game.to_owned(), as_of_seq: as_of };
        let answer = client.get_score_sheet(request).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli, &answer.json, &answer.text);
        return Ok(());
    }
    let lines = parse_lines(&read_input(file)?).map_err(refused)?;
    let stream = StreamId::game("offline").expect("valid id");
    check_stream(&stream, ruleset, &lines).map_err(refused)?;
    let events: Vec<(u64, ledger::Event)> = (1u64..).zip(lines.into_iter().map(|l| l.event)).collect();
    let sheet = match as_of {
        Some(seq) => replay::score_game_as_of(ruleset, &events, seq),
        None => replay::score_game(ruleset, &events),
    }
    .map_err(|e| CliError::Refused(format!("FAILED_PRECONDITION: {e}")))?;
    print_projection(cli, &sheet.to_json_string(), &sheet.to_string());
    Ok(())
}

/// A multi-stream file: every line names its stream (an export, or lines with `stream`).
/// Each stream is validated with the server's rules, tournaments first so that games know their
/// ruleset.
fn load_file(text: &str) -> Result<(Streams, BTreeMap<StreamId, i32>), CliError> {
    let mut by_stream: BTreeMap<StreamId, Vec<Line>> = BTreeMap::new();
    for line in parse_lines(text).map_err(refused)? {
        let name = line.stream.clone().ok_or_else(|| {
            CliError::Refused(format!(
                "line {}: no `stream` field: use an export or lines that name their stream",
                line.number
            ))
        })?;
        let id = StreamId::parse(&name).map_err(|r| CliError::Refused(format!("line {}: {r}", line.number)))?;
        by_stream.entry(id).or_default().push(line);
    }
    let mut streams = Streams::new();
    let mut years = BTreeMap::new();
    let (tournaments, games): (Vec<_>, Vec<_>) =
        by_stream.into_iter().partition(|(id, _)| id.kind() == StreamKind::Tournament);
    for (id, lines) in tournaments.into_iter().chain(games) {
        let scheduled = projections::scheduled_ruleset(&streams, id.id());
        check_stream(&id, scheduled, &lines).map_err(refused)?;
        if let Some(ms) = lines.first().and_then(|l| l.recorded_at_ms) {
            years.insert(id.clone(), year_of_unix_ms(ms));
        }
        streams.insert(id, (1u64..).zip(lines.into_iter().map(|l| l.event)).collect());
    }
    Ok((streams, years))
}

pub async fn standings(cli: &Cli, tournament: &str, file: Option<&Path>, public: bool) -> Result<(), CliError> {
    let Some(file) = file else {
        let mut client = connect_projections(cli).await?;
        let request = pb::StandingsRequest { tournament: tournament.to_owned(), as_of_position: None, public };
        let answer = client.get_standings(request).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli, &answer.json, &answer.text);
        return Ok(());
    };
    let (streams, _) = load_file(&read_input(Some(file))?)?;
    let id =
        StreamId::parse(&stream_name(StreamKind::Tournament, tournament)).map_err(|r| CliError::Failed(r.message))?;
    let standings =
        if public { projections::public_standings(&streams, &id) } else { projections::standings(&streams, &id) }
            .map_err(|e| CliError::Refused(e.to_string()))?;
    print_projection(cli, &standings.to_json_string(), &standings.to_string());
    Ok(())
}

/// `ledgerctl clock`: a game's chess clock, once, or following the game live.
pub async fn clock(cli: &Cli, game: &str, as_of: Option<u64>, follow: bool) -> Result<(), CliError> {
    use tokio_stream::StreamExt;
    let mut client = connect_projections(cli).await?;
    let show = |answer: pb::Projection, clear: bool| {
        if cli.json {
            say!("{}", answer.json);
        } else {
            if clear {
                // Redraw in place on a terminal.
                print!("\x1b[2J\x1b[H");
            }
            say!("{}", answer.text.trim_end());
        }
    };
    let request = pb::ClockRequest { game: game.to_owned(), as_of_seq: as_of, now_at_ms: None };
    let first = client.get_clock(request).await.map_err(|s| from_status(&s))?.into_inner();
    show(first, follow && !cli.json);
    if !follow {
        return Ok(());
    }
    let stream = stream_name(StreamKind::Game, game);
    let mut ledger = super::connect(cli).await?;
    let listed = ledger
        .list_streams(pb::ListStreamsRequest { prefix: stream.clone() })
        .await
        .map_err(|s| from_status(&s))?
        .into_inner();
    let from = listed.streams.iter().find(|s| s.stream == stream).map_or(1, |s| s.version + 1);
    let mut events =
        ledger.subscribe(pb::SubscribeRequest { stream, from }).await.map_err(|s| from_status(&s))?.into_inner();
    while let Some(item) = events.next().await {
        item.map_err(|s| from_status(&s))?;
        let request = pb::ClockRequest { game: game.to_owned(), as_of_seq: None, now_at_ms: None };
        let answer = client.get_clock(request).await.map_err(|s| from_status(&s))?.into_inner();
        show(answer, !cli.json);
    }
    Ok(())
}

/// Filters of `stats roles`.
pub struct StatsArgs<'a> {
    pub file: Option<&'a Path>,
    pub tournament: Option<&'a str>,
    pub ruleset: Option<&'a str>,
    pub stage: Option<&'a str>,
    pub year: Option<i32>,
}

pub async fn stats(cli: &Cli, args: StatsArgs<'_>) -> Result<(), CliError> {
    let tournament = args.tournament.map(|t| t.strip_prefix("tournament/").unwrap_or(t).to_owned());
    let stage = args
        .stage
        .map(|s| {
            Stage::parse(s).ok_or_else(|| CliError::Failed(format!("unknown stage `{s}`: use qualifying or final")))
        })
        .transpose()?;
    let Some(file) = args.file else {
        let mut client = connect_projections(cli).await?;
        let request = pb::RoleStatsRequest {
            tournament,
            ruleset: args.ruleset.map(str::to_owned),
            stage: args.stage.map(str::to_owned),
            year: args.year,
            as_of_position: None,
        };
        let answer = client.get_role_stats(request).await.map_err(|s| from_status(&s))?.into_inner();
        print_projection(cli, &answer.json, &answer.text);
        return Ok(());
    };
    let filter = Filter { tournament, ruleset: parse_ruleset(args.ruleset)?, stage, year: args.year };
    let (streams, years) = load_file(&read_input(Some(file))?)?;
    let stats = projections::role_stats(&streams, &years, &filter).map_err(|e| CliError::Refused(e.to_string()))?;
    print_projection(
        cli,
        &serde_json::to_string(&stats.to_json()).expect("stats serialise"),
        &projections::stats_text(&stats),
    );
    Ok(())
}
