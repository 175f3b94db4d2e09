//! The vocabulary of Friedrich: nations, roles, rulesets and the small enums events use.
//! Their snake_case spellings are the canonical JSON names of docs/RULES.md.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! spelled {
    ($ty:ident { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in the order the rule book lists them.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The canonical (snake_case) spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }

            /// Parses the canonical spelling.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($name => Some($ty::$variant),)+ _ => None }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// A nation on the board, in action-stage order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Nation {
    Prussia,
    Hanover,
    Russia,
    Sweden,
    Austria,
    ImperialArmy,
    France,
}

spelled!(Nation {
    Prussia => "prussia",
    Hanover => "hanover",
    Russia => "russia",
    Sweden => "sweden",
    Austria => "austria",
    ImperialArmy => "imperial_army",
    France => "france",
});

impl Nation {
    /// The role that controls this nation when the game starts.
    pub fn starting_role(self) -> Role {
        match self {
            Nation::Prussia | Nation::Hanover => Role::Frederick,
            Nation::Russia | Nation::Sweden => Role::Elisabeth,
            Nation::Austria | Nation::ImperialArmy => Role::MariaTheresa,
            Nation::France => Role::Pompadour,
        }
    }

    /// Prussia and Hanover defend; every other nation attacks.
    pub fn is_attacking(self) -> bool {
        !matches!(self, Nation::Prussia | Nation::Hanover)
    }

    /// Only a Card of Fate takes a nation out, and only Russia, Sweden and France have one.
    pub fn can_drop_out(self) -> bool {
        matches!(self, Nation::Russia | Nation::Sweden | Nation::France)
    }

    /// The attacking nations, in action-stage order.
    pub fn attacking() -> impl Iterator<Item = Nation> {
        Nation::ALL.iter().copied().filter(|n| n.is_attacking())
    }

    /// The role that controls this nation, given the Imperial Army's controller now: the Imperial
    /// Army is the one nation that changes hands in a game (`imperial_army_switched`); every other
    /// nation stays with its starting role. The rules, the sheet and the clock all ask this.
    pub fn controller(self, imperial_army: Role) -> Role {
        if self == Nation::ImperialArmy {
            imperial_army
        } else {
            self.starting_role()
        }
    }
}

/// A player's role at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Frederick,
    Elisabeth,
    MariaTheresa,
    Pompadour,
}

spelled!(Role {
    Frederick => "frederick",
    Elisabeth => "elisabeth",
    MariaTheresa => "maria_theresa",
    Pompadour => "pompadour",
});

/// One of the three tournament rulesets of docs/RULES.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ruleset {
    Wm2015,
    Cafe2019,
    Cafe2023,
}

spelled!(Ruleset {
    Wm2015 => "wm2015",
    Cafe2019 => "cafe2019",
    Cafe2023 => "cafe2023",
});

impl Ruleset {
    /// The Spanish and British opens (CAFE) share most rules; the World Championship differs.
    pub fn is_cafe(self) -> bool {
        matches!(self, Ruleset::Cafe2019 | Ruleset::Cafe2023)
    }
}

/// The two sides of the chess clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockSide {
    Prussia,
    Attackers,
}

spelled!(ClockSide {
    Prussia => "prussia",
    Attackers => "attackers",
});

impl ClockSide {
    /// The side a `clock_pressed` hands the time to: a chess clock has two.
    pub fn other(self) -> ClockSide {
        match self {
            ClockSide::Prussia => ClockSide::Attackers,
            ClockSide::Attackers => ClockSide::Prussia,
        }
    }
}

/// Why the chess clock was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Combat,
    Jury,
    Discussion,
    Break,
    TurnEnd,
}

spelled!(StopReason {
    Combat => "combat",
    Jury => "jury",
    Discussion => "discussion",
    Break => "break",
    TurnEnd => "turn_end",
});

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    PrussianDefensiveVictory,
    PrussianOffensiveVictory,
    AlliedVictory,
}

spelled!(Outcome {
    PrussianDefensiveVictory => "prussian_defensive_victory",
    PrussianOffensiveVictory => "prussian_offensive_victory",
    AlliedVictory => "allied_victory",
});

impl Outcome {
    pub fn is_prussian(self) -> bool {
        !matches!(self, Outcome::AlliedVictory)
    }
}

/// The stage of a tournament a game belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    Qualifying,
    Final,
}

spelled!(Stage {
    Qualifying => "qualifying",
    Final => "final",
});
