//! `ledgerctl rule`: the jury rules on a game — the ruling, and with it what it voids and what it
//! records instead, all in one append or none, judged as a whole (the game after the ruling must
//! be valid). `--correct N` proposes what the desk's form proposes: event N voided and recorded
//! again with every field, and the game's end after it voided and recorded again. Planned by
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
    /// The seq of an event recorded in error; repeat it to void several together.
    #[arg(long)]
    void: Vec<u64>,
    /// An event to record after the voids, as canonical JSON (`ledgerctl read --json` shows
    /// them); repeat it for several, in order.
    #[arg(long)]
    corrected: Vec<String>,
    /// Correct event N as the jury's desk proposes: void it (and the game's end after it) and
    /// record it again with every field it had, the turn it counted in included (and the end
    /// after it). `--corrected` then replaces the re-recorded event N.
    #[arg(long, conflicts_with = "void")]
    correct: Option<u64>,
}

pub async fn run(cli: &Cli, args: &RuleArgs) -> Result<(), CliError> {
    let mut corrected = Vec::with_capacity(args.corrected.len());
    for text in &args.corrected {
        let json: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| CliError::Refused(format!("INVALID_ARGUMENT: --corrected is not JSON: {e}")))?;
        corrected.push(
            ledger::event::from_canonical_json(&json)
                .map_err(|e| CliError::Refused(format!("INVALID_ARGUMENT: --corrected: {e}")))?,
        );
    }
    // The game and the tournaments around it: a void is decided on the game as scheduled.
    let loaded = crate::audit::load(cli, args.game.clone(), None).await?;
    let (ruleset, _) = ledger_house::projections::game_settings(&loaded.streams, &loaded.game);
    let game = Game::read(&args.game, &loaded.records, ruleset);
    let ruling = match args.correct {
        Some(seq) => {
            let mut proposed = jury::correction(&loaded.records, seq)?;
            if !corrected.is_empty() {
                // The jury's own version of event N, then whatever the proposal records after it.
                let rest = proposed.records.split_off(1);
                proposed.records = corrected.into_iter().chain(rest).collect();
            }
            Ruling { text: args.ruling.clone(), ..proposed }
        }
        None => Ruling { text: args.ruling.clone(), voids: args.void.clone(), records: corrected },
    };
    let events = jury::plan(&game, ruling)?;
    append_events(cli, &args.game, events).await
}
