//! Where a token may record (issue 35): a table's printed code writes only the games its table
//! plays in its tournament, and an organiser's or a jury's code may be limited to a tournament.
//! The printed sign-in sheets lie on the tables of a public hall: a photo of one must not record
//! into every game. What may be read is the access table's ([`super::policy`]); this is only
//! about where events may be appended, and it is checked on every append, over gRPC and from
//! the pages alike.

use crate::error::Error;
use ledger::{StreamId, StreamKind};
use serde::{Deserialize, Serialize};

/// A token's scope as its auth-file entry says (`"scope": {"tournament": "wm26", "table": 3}`);
/// no scope (the default) records anywhere its role may.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    /// Only this tournament's stream and the games it schedules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// Only the games the tournament put on this table (a table's code); needs `tournament`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
    /// Streams named one by one (`game/friendly-1`, `andes/m1`): stand-alone games the token
    /// was made for, whatever else it may record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<String>,
}

/// Where each game is played, as the writer knows it (`ledger_store::Log::tables_of`).
pub trait Tables {
    /// Each tournament that scheduled `game`, with the table.
    fn tables_of(&self, game: &str) -> Vec<(StreamId, u32)>;
}

impl Tables for ledger_store::Log {
    fn tables_of(&self, game: &str) -> Vec<(StreamId, u32)> {
        ledger_store::Log::tables_of(self, game)
    }
}

impl Scope {
    /// Records anywhere its role may.
    pub fn is_everywhere(&self) -> bool {
        self.tournament.is_none() && self.streams.is_empty()
    }

    /// Checks the scope itself: a table needs its tournament, and every name must be a stream.
    ///
    /// # Errors
    /// A sentence saying what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if self.table.is_some() && self.tournament.is_none() {
            return Err("a scope with a table names its tournament too".into());
        }
        if let Some(tournament) = &self.tournament {
            StreamId::tournament(tournament).map_err(|r| r.message)?;
        }
        for stream in &self.streams {
            StreamId::parse(stream).map_err(|r| r.message)?;
        }
        Ok(())
    }

    /// May `actor`, holding this scope, append to `stream`?
    ///
    /// # Errors
    /// `PERMISSION_DENIED` with a sentence naming where the token records.
    pub fn permits(&self, actor: &str, stream: &StreamId, tables: &dyn Tables) -> Result<(), Error> {
        if self.is_everywhere() || self.streams.iter().any(|s| *s == stream.to_string()) {
            return Ok(());
        }
        let within = self.tournament.as_deref().is_some_and(|tournament| match stream.kind() {
            StreamKind::Tournament => self.table.is_none() && stream.id() == tournament,
            StreamKind::Game => tables
                .tables_of(stream.id())
                .into_iter()
                .any(|(t, table)| t.id() == tournament && self.table.is_none_or(|mine| mine == table)),
            StreamKind::Andes => false,
        });
        if within {
            return Ok(());
        }
        let records = match (&self.tournament, self.table) {
            (Some(tournament), Some(table)) => format!("the games of table {table} of tournament {tournament}"),
            (Some(tournament), None) => format!("tournament {tournament} and its games"),
            (None, _) => "only the streams it was made for".to_owned(),
        };
        let extra = match self.streams.is_empty() {
            true => String::new(),
            false => format!(" (and {})", self.streams.join(", ")),
        };
        Err(Error::PermissionDenied(format!("{actor} records {records}{extra}; {stream} is not one of them")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Hall(HashMap<&'static str, Vec<(StreamId, u32)>>);

    impl Tables for Hall {
        fn tables_of(&self, game: &str) -> Vec<(StreamId, u32)> {
            self.0.get(game).cloned().unwrap_or_default()
        }
    }

    fn hall() -> Hall {
        let (wm, cafe) = (StreamId::tournament("wm26").unwrap(), StreamId::tournament("cafe").unwrap());
        Hall(HashMap::from([
            ("wm26-q1-t1", vec![(wm.clone(), 1)]),
            ("wm26-q1-t2", vec![(wm.clone(), 2)]),
            ("wm26-q2-t1", vec![(wm, 1)]),
            ("cafe-q1-t1", vec![(cafe, 1)]),
        ]))
    }

    fn game(id: &str) -> StreamId {
        StreamId::game(id).unwrap()
    }

    #[test]
    fn a_tables_code_writes_its_tables_games_of_its_tournament_only() {
        let table_1 = Scope { tournament: Some("wm26".into()), table: Some(1), streams: vec![] };
        let hall = hall();
        assert!(table_1.permits("wm26-table-1", &game("wm26-q1-t1"), &hall).is_ok());
        assert!(table_1.permits("wm26-table-1", &game("wm26-q2-t1"), &hall).is_ok());
        for elsewhere in ["wm26-q1-t2", "cafe-q1-t1", "friendly"] {
            let refused = table_1.permits("wm26-table-1", &game(elsewhere), &hall).unwrap_err();
            assert_eq!(refused.code(), crate::error::Code::PermissionDenied);
            assert_eq!(
                refused.message(),
                format!(
                    "wm26-table-1 records the games of table 1 of tournament wm26; game/{elsewhere} is not one of them"
                )
            );
        }
        let tournament = StreamId::tournament("wm26").unwrap();
        assert!(table_1.permits("wm26-table-1", &tournament, &hall).is_err(), "a table records no tournament event");
        assert!(table_1.permits("wm26-table-1", &StreamId::andes("m1").unwrap(), &hall).is_err());
    }

    #[test]
    fn a_tournament_scope_and_named_streams() {
        let hall = hall();
        let organiser = Scope { tournament: Some("wm26".into()), table: None, streams: vec!["game/friendly".into()] };
        assert!(organiser.permits("olga", &StreamId::tournament("wm26").unwrap(), &hall).is_ok());
        assert!(organiser.permits("olga", &game("wm26-q1-t2"), &hall).is_ok());
        assert!(organiser.permits("olga", &game("friendly"), &hall).is_ok());
        let refused = organiser.permits("olga", &StreamId::tournament("cafe").unwrap(), &hall).unwrap_err();
        assert_eq!(
            refused.message(),
            "olga records tournament wm26 and its games (and game/friendly); tournament/cafe is not one of them"
        );
        assert!(Scope::default().permits("anyone", &game("cafe-q1-t1"), &hall).is_ok(), "no scope: everywhere");
        assert!(Scope { tournament: None, table: Some(1), streams: vec![] }.check().is_err());
        assert!(Scope { tournament: Some("..".into()), table: None, streams: vec![] }.check().is_err());
        assert!(Scope { tournament: None, table: None, streams: vec!["match/1".into()] }.check().is_err());
    }
}
