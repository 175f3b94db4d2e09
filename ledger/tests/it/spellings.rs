//! One spelling per name: every enum that has a text name (`as_str`, `Display`, `parse`) spells
//! each value exactly as its JSON does. serde's derive stays the source of the JSON and of the
//! postcard encoding (a variant's position, which stored events depend on); `as_str` is the
//! table for text, and this test keeps the two equal for every value. The rule book's names list
//! their values in `ALL`, made from the same table as `as_str`; the Andes lists below sit beside
//! an exhaustive match, so a new variant fails to compile right where it must join the list.

use ledger::andes::{EndReason, PieceKind, Region, Side};
use ledger::{ClockSide, Nation, Outcome, Role, Ruleset, Stage, StopReason};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// `value`'s JSON is its `as_str`, and that text reads back as the same value.
fn one_spelling<T>(value: T, as_str: &str)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Copy,
{
    let json = serde_json::to_value(value).unwrap();
    assert_eq!(json, serde_json::Value::String(as_str.to_owned()), "{value:?}: JSON and text differ");
    assert_eq!(serde_json::from_value::<T>(json).unwrap(), value, "{value:?}: JSON does not read back");
}

macro_rules! check_spelled {
    ($($ty:ident),+) => {$(
        for &value in $ty::ALL {
            one_spelling(value, value.as_str());
            assert_eq!($ty::parse(value.as_str()), Some(value), "{value:?}: its text does not parse back");
            assert_eq!(value.to_string(), value.as_str(), "{value:?}: Display and as_str differ");
        }
    )+};
}

#[test]
fn every_rule_book_name_has_one_spelling_in_json_text_and_parse() {
    check_spelled!(Nation, Role, Ruleset, ClockSide, StopReason, Outcome, Stage);
}

#[test]
fn every_rule_book_list_names_every_value_once() {
    // `ALL` is generated from the same table as `as_str`, so it is complete; a value listed
    // twice would give two values one spelling.
    fn distinct(names: Vec<&str>) {
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "{names:?}");
    }
    distinct(Nation::ALL.iter().map(|v| v.as_str()).collect());
    distinct(Role::ALL.iter().map(|v| v.as_str()).collect());
    distinct(Ruleset::ALL.iter().map(|v| v.as_str()).collect());
    distinct(ClockSide::ALL.iter().map(|v| v.as_str()).collect());
    distinct(StopReason::ALL.iter().map(|v| v.as_str()).collect());
    distinct(Outcome::ALL.iter().map(|v| v.as_str()).collect());
    distinct(Stage::ALL.iter().map(|v| v.as_str()).collect());
}

#[test]
fn every_andes_name_has_one_spelling_in_json_and_text() {
    for side in Side::BOTH {
        match side {
            Side::Sol | Side::Luna => one_spelling(side, side.as_str()),
        }
        assert_eq!(side.to_string(), side.as_str());
    }
    for kind in PieceKind::ALL {
        match kind {
            PieceKind::Persona | PieceKind::EstatalLeft | PieceKind::Militar | PieceKind::EstatalRight => {
                one_spelling(kind, kind.as_str());
            }
        }
    }
    let regions = [Region::Centre, Region::Sierra, Region::Jungle, Region::Coast, Region::Island, Region::Ocean];
    for region in regions {
        match region {
            Region::Centre | Region::Sierra | Region::Jungle | Region::Coast | Region::Island | Region::Ocean => {
                one_spelling(region, region.as_str());
            }
        }
    }
    let reasons = [EndReason::ContinentEmptied, EndReason::NoLegalMove, EndReason::FlagFell, EndReason::Resigned];
    for reason in reasons {
        match reason {
            EndReason::ContinentEmptied | EndReason::NoLegalMove | EndReason::FlagFell | EndReason::Resigned => {
                one_spelling(reason, reason.as_str());
            }
        }
    }
}
