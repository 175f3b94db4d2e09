//! The final's role choices follow the standings (RULES.md section 7: "The top four choose
//! roles in rank order"). The rule needs every game of the tournament, so it runs as the
//! sequencer's cross-stream check rather than inside the tournament stream's own rules.

use ledger::rules::Rules;
use ledger::{Event, Rejection, StreamId, StreamState};
use ledger_store::{AppendError, CrossCheck, StreamLookup};
use replay::standings::Decider;
use std::collections::BTreeMap;

/// Refuses a `final_role_chosen` by anyone but the next finalist in rank order.
pub struct FinalOrder;

impl CrossCheck for FinalOrder {
    fn check(
        &self,
        stream: &StreamId,
        state: &StreamState,
        event: &Event,
        streams: &dyn StreamLookup,
    ) -> Result<(), AppendError> {
        let (Event::FinalRoleChosen { player, .. }, Rules::Tournament(tournament)) = (event, state.rules()) else {
            return Ok(());
        };
        let events = streams.events(stream)?;
        let mut games = BTreeMap::new();
        for game in crate::projections::tournament_games(&events) {
            // A game not started yet has no stream: standings list it as pending.
            let events = match StreamId::game(&game) {
                Ok(id) => streams.events(&id)?,
                Err(_) => continue,
            };
            if !events.is_empty() {
                games.insert(game, events);
            }
        }
        let standings = replay::standings(&events, &games)
            .map_err(|e| Rejection::precondition(format!("the standings cannot be computed: {e}")))?;
        if !standings.finalists_settled {
            let why = if standings.pending_games.is_empty() {
                "fourth and fifth place are tied; record a lot".to_owned()
            } else {
                format!("qualifying games still open: {}", standings.pending_games.join(", "))
            };
            return Err(Rejection::precondition(format!("the finalists are not settled yet: {why}")).into());
        }
        let finalists = &standings.finalists;
        if !finalists.contains(player) {
            return Err(Rejection::precondition(format!(
                "{player} is not a finalist: the final is played by {}",
                finalists.join(", ")
            ))
            .into());
        }
        let n_chosen = tournament.final_roles.len();
        if let Some(tied) =
            standings.rows.iter().take(finalists.len()).skip(1).find(|r| r.decided_by == Some(Decider::Unresolved))
        {
            return Err(Rejection::precondition(format!(
                "{} shares rank {} with the player above: record a lot before the finalists choose",
                tied.player, tied.rank
            ))
            .into());
        }
        match finalists.get(n_chosen) {
            Some(next) if next == player => Ok(()),
            Some(next) => Err(Rejection::precondition(format!(
                "the finalists choose in rank order: {next} (rank {}) chooses next, not {player}",
                n_chosen + 1
            ))
            .into()),
            None => Err(Rejection::precondition("all finalists have chosen their roles").into()),
        }
    }
}
