//! `ledgerctl tournament withdraw`: a player leaves. Their games played keep counting; their
//! qualifying games from `--from-round` on seat a stand-in (the one named, or the first
//! registered stand-in free in those rounds); the ledger checks and records the re-seating.

use super::tournament_state;
use crate::appending::append_events;
use crate::common::CliError;
use crate::{values, Cli};
use ledger::{Event, StreamId};

#[derive(Debug, clap::Args)]
pub struct WithdrawArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    #[arg(long)]
    player: String,
    /// The first round the player no longer plays (5: after the qualifying, before the final).
    #[arg(long)]
    from_round: u32,
    /// The stand-in who takes the player's seats; default: the first registered stand-in free
    /// in every round concerned.
    #[arg(long)]
    stand_in: Option<String>,
}

pub async fn run(cli: &Cli, args: &WithdrawArgs) -> Result<(), CliError> {
    let state = tournament_state(cli, &args.tournament).await?;
    let games = state.reseated(&args.player, args.from_round);
    let stand_in = match (&args.stand_in, games.is_empty()) {
        (Some(named), _) => Some(named.clone()),
        (None, true) => None,
        (None, false) => Some(state.free_stand_in(&args.player, args.from_round).ok_or_else(|| {
            CliError::Refused(format!(
                "{} still has qualifying games from round {} on ({}), and no registered stand-in is free in those \
                 rounds: register one with `tournament register --stand-in`",
                args.player,
                args.from_round,
                games.join(", ")
            ))
        })?),
    };
    if let Some(stand_in) = &stand_in {
        say!("{stand_in} takes {}'s seat in {}", args.player, games.join(", "));
    }
    let event = Event::PlayerWithdrew { player: args.player.clone(), from_round: args.from_round, stand_in };
    append_events(cli, &args.tournament, vec![event]).await
}
