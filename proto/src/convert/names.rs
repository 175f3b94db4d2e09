//! The small enums, domain ↔ protobuf. An unspecified or unknown protobuf value is malformed
//! input and says which field it was.

use crate::v1 as pb;
use ledger::andes::{EndReason, PieceKind, Side};
use ledger::{ClockSide, Nation, Outcome, Rejection, Role, Ruleset, Stage, StopReason};

macro_rules! enum_map {
    ($domain:ident, $proto:ident, $field:literal { $($d:ident <=> $p:ident),+ $(,)? }) => {
        impl super::ToProto for $domain {
            type Proto = i32;
            fn to_proto(&self) -> i32 {
                match self { $($domain::$d => pb::$proto::$p as i32),+ }
            }
        }

        impl super::FromProto<i32> for $domain {
            fn from_proto(value: i32) -> Result<Self, Rejection> {
                match pb::$proto::try_from(value) {
                    $(Ok(pb::$proto::$p) => Ok($domain::$d),)+
                    _ => Err(Rejection::malformed(format!("{} is missing or unknown ({value})", $field))),
                }
            }
        }
    };
}

enum_map!(Nation, Nation, "nation" {
    Prussia <=> Prussia, Hanover <=> Hanover, Russia <=> Russia, Sweden <=> Sweden,
    Austria <=> Austria, ImperialArmy <=> ImperialArmy, France <=> France,
});
enum_map!(Role, Role, "role" {
    Frederick <=> Frederick, Elisabeth <=> Elisabeth, MariaTheresa <=> MariaTheresa, Pompadour <=> Pompadour,
});
enum_map!(Ruleset, Ruleset, "ruleset" { Wm2015 <=> Wm2015, Cafe2019 <=> Cafe2019, Cafe2023 <=> Cafe2023 });
enum_map!(ClockSide, ClockSide, "clock side" { Prussia <=> Prussia, Attackers <=> Attackers });
enum_map!(StopReason, StopReason, "stop reason" {
    Combat <=> Combat, Jury <=> Jury, Discussion <=> Discussion, Break <=> Break, TurnEnd <=> TurnEnd,
});
enum_map!(Outcome, Outcome, "outcome" {
    PrussianDefensiveVictory <=> PrussianDefensiveVictory,
    PrussianOffensiveVictory <=> PrussianOffensiveVictory,
    AlliedVictory <=> AlliedVictory,
});
enum_map!(Stage, Stage, "stage" { Qualifying <=> Qualifying, Final <=> Final });
enum_map!(Side, AndesSide, "andes side" { Sol <=> Sol, Luna <=> Luna });
enum_map!(PieceKind, AndesPieceKind, "andes piece kind" {
    Persona <=> Persona, EstatalLeft <=> EstatalLeft, Militar <=> Militar, EstatalRight <=> EstatalRight,
});
enum_map!(EndReason, AndesEndReason, "andes end reason" {
    ContinentEmptied <=> ContinentEmptied, NoLegalMove <=> NoLegalMove, FlagFell <=> FlagFell, Resigned <=> Resigned,
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::{FromProto, ToProto};

    /// `value` maps to the protobuf value named `<PREFIX>_<AS_STR>` and back.
    fn one_spelling<T, P>(value: T, as_str: &str, prefix: &str)
    where
        T: ToProto<Proto = i32> + FromProto<i32> + PartialEq + std::fmt::Debug + Copy,
        P: TryFrom<i32> + AsStrName,
    {
        let proto = value.to_proto();
        let name = P::try_from(proto).ok().map(|p| p.name().to_owned());
        assert_eq!(name.as_deref(), Some(format!("{prefix}_{}", as_str.to_uppercase()).as_str()), "{value:?}");
        assert_eq!(T::from_proto(proto).ok(), Some(value), "{value:?} reads back");
    }

    trait AsStrName {
        fn name(&self) -> &'static str;
    }

    macro_rules! named {
        ($($p:ident),+) => {$(impl AsStrName for pb::$p { fn name(&self) -> &'static str { self.as_str_name() } })+};
    }
    named!(Nation, Role, Ruleset, ClockSide, StopReason, Outcome, Stage, AndesSide, AndesPieceKind, AndesEndReason);

    #[test]
    fn every_name_has_the_same_spelling_in_protobuf_as_in_json() {
        macro_rules! each {
            ($ty:ident, $p:ident, $prefix:literal) => {
                for &value in $ty::ALL.iter() {
                    one_spelling::<_, pb::$p>(value, value.as_str(), $prefix);
                }
            };
        }
        each!(Nation, Nation, "NATION");
        each!(Role, Role, "ROLE");
        each!(Ruleset, Ruleset, "RULESET");
        each!(ClockSide, ClockSide, "CLOCK_SIDE");
        each!(StopReason, StopReason, "STOP_REASON");
        each!(Outcome, Outcome, "OUTCOME");
        each!(Stage, Stage, "STAGE");
        each!(PieceKind, AndesPieceKind, "ANDES_PIECE_KIND");
        for side in Side::BOTH {
            one_spelling::<_, pb::AndesSide>(side, side.as_str(), "ANDES_SIDE");
        }
        for reason in [EndReason::ContinentEmptied, EndReason::NoLegalMove, EndReason::FlagFell, EndReason::Resigned] {
            one_spelling::<_, pb::AndesEndReason>(reason, reason.as_str(), "ANDES_END_REASON");
        }
    }
}
