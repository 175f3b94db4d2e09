//! A player's level (Andes laws, article 9.5): each of the last two game scores without bonus
//! as a share of the maximum, × 360, averaged; 0–120 copper, 121–240 silver, 241–360 gold.
//!
//! Readings (docs/ANDES.md): the maximum is 42 points (all 14 pieces on the board as one's
//! own); the level is exact (a fraction) and the bands are read as "at most 120", "at most 240",
//! "above 240", so that a level such as 120 3/7 is silver; a player with fewer than two ended
//! games has no level yet.

use super::score::MAX_POINTS;
use crate::exact::Rational;

/// The three bands of 9.5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    Copper,
    Silver,
    Gold,
}

impl Band {
    pub fn as_str(self) -> &'static str {
        match self {
            Band::Copper => "copper",
            Band::Silver => "silver",
            Band::Gold => "gold",
        }
    }

    /// The band of a level 0–360.
    pub fn of(level: Rational) -> Band {
        if level <= Rational::int(120) {
            Band::Copper
        } else if level <= Rational::int(240) {
            Band::Silver
        } else {
            Band::Gold
        }
    }
}

/// A player's level and how it was reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// The two scores used, older first.
    pub scores: [u32; 2],
    pub value: Rational,
    pub band: Band,
    pub explain: String,
}

/// The level from a player's game scores without bonus, oldest first; the last two count.
/// `None` with fewer than two.
pub fn level(scores: &[u32]) -> Option<Level> {
    let [older, last] = scores.get(scores.len().checked_sub(2)?..)? else { return None };
    let share = |score: u32| Rational::new(i128::from(score) * 360, i128::from(MAX_POINTS));
    let value = (share(*older) + share(*last)) * Rational::new(1, 2);
    let band = Band::of(value);
    let explain = format!(
        "({older} / {MAX_POINTS} × 360 + {last} / {MAX_POINTS} × 360) / 2 = ({} + {}) / 2 = {} → {} (9.5)",
        share(*older).shown(2),
        share(*last).shown(2),
        value.shown(2),
        band.as_str()
    );
    Some(Level { scores: [*older, *last], value, band, explain })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_the_last_two_scores() {
        assert_eq!(level(&[14]), None);
        let copper = level(&[14, 14]).unwrap();
        assert_eq!((copper.value, copper.band), (Rational::int(120), Band::Copper));
        let silver = level(&[14, 15]).unwrap();
        assert_eq!((silver.value, silver.band), (Rational::new(870, 7), Band::Silver));
        assert_eq!(level(&[28, 28]).unwrap().band, Band::Silver);
        assert_eq!(level(&[28, 29]).unwrap().band, Band::Gold);
        assert_eq!(level(&[0, 42, 42]).unwrap().value, Rational::int(360));
        assert_eq!(level(&[0, 0]).unwrap().band, Band::Copper);
        assert_eq!(
            level(&[14, 15]).unwrap().explain,
            "(14 / 42 × 360 + 15 / 42 × 360) / 2 = (120 + 900/7 → 128.57) / 2 = 870/7 → 124.29 → silver (9.5)"
        );
    }
}
