//! `ledgerctl check`: validate a JSON Lines file offline with exactly the server's rules.

use super::common::{read_input, CliError};
use super::{values, Cli};
use ledger::check::{check_stream, parse_lines, LineError};
use ledger::rules::Rules;
use ledger::{Ruleset, StreamId};
use ledger_house::error::Code;
use serde_json::json;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The ruleset of the game (needed unless game_started names it).
    #[arg(long, value_parser = values::ruleset())]
    ruleset: Option<Ruleset>,
    /// The stream the file is for; default `game/check`.
    #[arg(long, default_value = "game/check", value_parser = values::stream)]
    stream: StreamId,
    #[arg(long)]
    file: Option<PathBuf>,
}

pub fn run(cli: &Cli, args: &CheckArgs) -> Result<(), CliError> {
    let (json, ruleset, stream) = (cli.json, args.ruleset, &args.stream);
    let refused = |e: LineError| {
        let code = Code::of_rejection(e.kind).name();
        if json {
            say!("{}", json!({"ok": false, "line": e.line, "code": code, "message": e.message}));
        }
        CliError::Refused(format!("line {}: {code}: {}", e.line, e.message))
    };
    let lines = parse_lines(&read_input(args.file.as_deref())?).map_err(refused)?;
    let state = check_stream(stream, ruleset, &lines).map_err(refused)?;
    let status = match state.rules() {
        Rules::Game(game) => match game.ended {
            Some((outcome, turn)) => format!("the game ended in turn {turn} ({outcome})"),
            None => format!("the game is in turn {}", game.turn),
        },
        Rules::Tournament(t) => format!("{} players, {} games scheduled", t.players.len(), t.games.len()),
        Rules::Andes(andes) => match &andes.game {
            None => "no game has started".to_owned(),
            Some(_) if andes.is_over() => "the match is over".to_owned(),
            Some(game) => match game.ended {
                Some((reason, side)) => format!("game {} ended ({}, {side})", game.number, reason.as_str()),
                None => format!("game {} is being played, {} to move", game.number, game.position.to_move()),
            },
        },
    };
    if json {
        say!("{}", json!({"ok": true, "events": lines.len(), "status": status}));
    } else {
        say!("ok: {} events, {status}", lines.len());
    }
    Ok(())
}
