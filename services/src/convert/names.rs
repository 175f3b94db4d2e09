//! The small enums, domain ↔ protobuf. An unspecified or unknown protobuf value is malformed
//! input and says which field it was.

use ledger::andes::{EndReason, PieceKind, Side};
use ledger::{ClockSide, Nation, Outcome, Rejection, Role, Ruleset, Stage, StopReason};
use ledger_proto::v1 as pb;

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
