//! Clap's parsers for the ledger's names and stream ids: a typo is refused before anything
//! runs, with exit code 2 and the list of valid values. The spellings are the owning crate's
//! own (`ALL`, `as_str`, `parse`), never a list kept here.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::{Error, ErrorKind};
use ledger::andes::Side;
use ledger::{Role, Ruleset, Stage, StreamId, StreamKind};
use ledger_house::projections::andes::parse_side;
use std::ffi::OsStr;

/// One of a set of named values: read with its type's own `parse` (aliases included), offered
/// (and listed on a typo) with the spellings of its `as_str`.
#[derive(Clone)]
pub struct Named<T: 'static> {
    values: Vec<T>,
    name: fn(T) -> &'static str,
    parse: fn(&str) -> Option<T>,
}

impl<T: Copy + PartialEq> Named<T> {
    fn new(values: impl IntoIterator<Item = T>, name: fn(T) -> &'static str, parse: fn(&str) -> Option<T>) -> Self {
        Named { values: values.into_iter().collect(), name, parse }
    }

    fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.values.iter().map(|value| (self.name)(*value))
    }
}

impl<T: Copy + PartialEq + Send + Sync + 'static> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, Error> {
        if let Some(parsed) = value.to_str().and_then(self.parse).filter(|parsed| self.values.contains(parsed)) {
            return Ok(parsed);
        }
        // Clap's own refusal: the value, the argument and every valid spelling.
        PossibleValuesParser::new(self.names().collect::<Vec<_>>()).parse_ref(cmd, arg, value).and_then(|text| {
            Err(Error::raw(ErrorKind::InvalidValue, format!("`{text}` is not understood\n")).with_cmd(cmd))
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.names().map(PossibleValue::new)))
    }
}

/// A ruleset of docs/RULES.md.
pub fn ruleset() -> Named<Ruleset> {
    Named::new(Ruleset::ALL.iter().copied(), Ruleset::as_str, Ruleset::parse)
}

/// A tournament stage.
pub fn stage() -> Named<Stage> {
    Named::new(Stage::ALL.iter().copied(), Stage::as_str, Stage::parse)
}

/// A player's role at the table.
pub fn role() -> Named<Role> {
    Named::new(Role::ALL.iter().copied(), Role::as_str, Role::parse)
}

/// A clearance an open ledgerd takes as claimed: any of its roles.
pub fn clearance() -> Named<ledger_house::auth::Role> {
    Named::new(ledger_house::auth::Role::ALL, ledger_house::auth::Role::as_str, ledger_house::auth::Role::parse)
}

/// A clearance a token may carry: any role but the public's.
pub fn token_clearance() -> Named<ledger_house::auth::Role> {
    let roles = ledger_house::auth::Role::ALL.into_iter().filter(|role| *role != ledger_house::auth::Role::Public);
    Named::new(roles, ledger_house::auth::Role::as_str, ledger_house::auth::Role::parse)
}

/// A side of an Andes board.
pub fn side() -> Named<Side> {
    Named::new(Side::BOTH, Side::as_str, |text| parse_side(Some(text)).ok())
}

/// A whole stream name: `game/<id>`, `tournament/<id>` or `andes/<id>`.
pub fn stream(text: &str) -> Result<StreamId, String> {
    StreamId::parse(text).map_err(|r| r.message)
}

/// `<id>` or `game/<id>`.
pub fn game(text: &str) -> Result<StreamId, String> {
    of_kind(StreamKind::Game, text)
}

/// `<id>` or `tournament/<id>`.
pub fn tournament(text: &str) -> Result<StreamId, String> {
    of_kind(StreamKind::Tournament, text)
}

/// `<id>` or `andes/<id>`.
pub fn andes_match(text: &str) -> Result<StreamId, String> {
    of_kind(StreamKind::Andes, text)
}

/// `<id>` or `<kind>/<id>`, as the Projections service reads them.
fn of_kind(kind: StreamKind, text: &str) -> Result<StreamId, String> {
    let id = if text.contains('/') { StreamId::parse(text) } else { StreamId::new(kind, text) };
    let id = id.map_err(|r| r.message)?;
    if id.kind() != kind {
        let prefix = kind.prefix();
        return Err(format!("{id} is not a {prefix} stream: use `<id>` or `{prefix}/<id>`"));
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_round_trips_and_aliases_are_read() {
        let cmd = clap::Command::new("t");
        let parse =
            |parser: &Named<ledger_house::auth::Role>, text: &str| parser.parse_ref(&cmd, None, OsStr::new(text));
        for role in ledger_house::auth::Role::ALL {
            assert_eq!(parse(&clearance(), role.as_str()).unwrap(), role);
        }
        assert_eq!(parse(&clearance(), "organizer").unwrap(), ledger_house::auth::Role::Organiser);
        assert_eq!(parse(&token_clearance(), "public").unwrap_err().kind(), ErrorKind::InvalidValue);
        for ruleset in Ruleset::ALL {
            assert_eq!(self::ruleset().parse_ref(&cmd, None, OsStr::new(ruleset.as_str())).unwrap(), *ruleset);
        }
        let typo = self::ruleset().parse_ref(&cmd, None, OsStr::new("wm2051")).unwrap_err();
        assert_eq!(typo.kind(), ErrorKind::InvalidValue);
        assert!(typo.to_string().contains("[possible values: wm2015, cafe2019, cafe2023]"), "{typo}");
    }

    #[test]
    fn streams_of_a_kind_take_a_bare_id_or_their_prefix() {
        assert_eq!(game("q1-t1").unwrap(), StreamId::game("q1-t1").unwrap());
        assert_eq!(game("game/q1-t1").unwrap(), StreamId::game("q1-t1").unwrap());
        assert_eq!(tournament("tournament/wm26").unwrap(), StreamId::tournament("wm26").unwrap());
        assert!(game("tournament/wm26").unwrap_err().contains("is not a game stream"));
        assert!(andes_match("m 1").is_err());
        assert!(stream("wm26").is_err());
    }
}
