//! The NATS subjects committed events are published on:
//! `ledger.v1.<kind>.<id>.<event type>`, e.g. `ledger.v1.game.q1-t3.turn_started`.
//!
//! Stream ids are `[A-Za-z0-9._-]`; a `.` would split the id into two subject tokens, so it is
//! written `%2E` (and a `%`, which ids never hold, would be `%25`): `game/wm.2026` publishes on
//! `ledger.v1.game.wm%2E2026.<type>`. A consumer follows one game with
//! `ledger.v1.game.<id>.>`, every drop-out with `ledger.v1.*.*.nation_dropped_out`.

use ledger::Recorded;

/// Every subject the ledger publishes on, for the JetStream stream's configuration.
pub const ALL: &str = "ledger.v1.>";

/// The subject of one committed event.
pub fn of(record: &Recorded) -> String {
    let stream = &record.envelope.stream;
    format!("ledger.v1.{}.{}.{}", stream.kind().prefix(), escape(stream.id()), record.event.type_name())
}

pub use ledger_store::subject::escape;

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::envelope::{Draft, GENESIS};
    use ledger::{Event, StreamId};

    #[test]
    fn dots_in_ids_stay_inside_one_token() {
        let draft = Draft {
            stream: StreamId::game("wm.2026-q1").unwrap(),
            seq: 1,
            position: 1,
            event_id: "e".into(),
            recorded_at_ms: 0,
            actor: "t".into(),
        };
        let record = Recorded::seal(draft, GENESIS, Event::TurnStarted { turn: 1, at_ms: None });
        assert_eq!(of(&record), "ledger.v1.game.wm%2E2026-q1.turn_started");
        assert_eq!(of(&record).split('.').count(), 5);
        assert_eq!(escape("a%b"), "a%25b");
    }
}
