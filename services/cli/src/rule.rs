//! `ledgerctl rule`: the jury rules on a game — the ruling, and with it, if said, an event voided
//! and the event that should have been recorded instead, all in one append or none. Planned by
//! `ledger_house::commands::jury`, the layer the jury's desk in the browser calls too.

use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::StreamId;
use ledger_house::commands::jury::{self, Game, Ruling};

#[derive(Debug, clap::Args)]
pub struct RuleArgs {
    /// The game (`q1-t1` or `game/q1-t1`).
    #[arg(long, value_parser = values::game)]
    game: StreamId,
    /// What the jury decided (also the void's reason).
    #[arg(long)]
    ruling: String,
    /// The seq of an event recorded in error.
    #[arg(long)]
    void: Option<u64>,
    /// The event to record instead, as canonical JSON (`ledgerctl read --json` shows them).
    #[arg(long)]
    corrected: Option<String>,
}

pub async fn run(cli: &Cli, args: &RuleArgs) -> Result<(), CliError> {
    let corrected = match &args.corrected {
        Some(text) => {
            let json: serde_json::Value = serde_json::from_str(text)
                .map_err(|e| CliError::Refused(format!("INVALID_ARGUMENT: --corrected is not JSON: {e}")))?;
            Some(
                ledger::event::from_canonical_json(&json)
                    .map_err(|e| CliError::Refused(format!("INVALID_ARGUMENT: --corrected: {e}")))?,
            )
        }
        None => None,
    };
    // The game and the tournaments around it: a void is decided on the game as scheduled.
    let loaded = crate::audit::load(cli, args.game.clone(), None).await?;
    let (ruleset, _) = ledger_house::projections::game_settings(&loaded.streams, &loaded.game);
    let game = Game::read(&args.game, &loaded.records, ruleset);
    let events = jury::plan(&game, Ruling { text: args.ruling.clone(), void: args.void, corrected })?;
    append_events(cli, &args.game, events).await
}
