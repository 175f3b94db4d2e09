//! The players' clocks (Andes laws, articles 6.2 and 8.3): each player's time counts down in
//! milliseconds, only while it is that player's turn (1.3). Times come from the table's clock
//! readings (`at_ms`) in the events; the ledger reads no clock of its own.
//!
//! A move, or a resignation, is in time when it comes strictly before the mover's time is
//! used up; from the instant the time is used up (remaining 0) the flag has fallen.

use super::board::Side;
use super::rejection::AndesRejection;
use serde::{Deserialize, Serialize};

/// The competitive time per player and game: 12 minutes (8.3).
pub const COMPETITIVE_CLOCK_MS: u64 = 12 * 60 * 1000;

/// Both clocks of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Time left per side at the start of its current or last turn, by [`Side::index`].
    remaining_ms: [u64; 2],
    /// The table time at which the side to move's turn began.
    turn_began_at_ms: u64,
}

impl Clocks {
    /// Both players with `clock_ms`, the game (and Sol's turn) starting at `at_ms`.
    pub fn start(clock_ms: u64, at_ms: u64) -> Clocks {
        Clocks { remaining_ms: [clock_ms; 2], turn_began_at_ms: at_ms }
    }

    /// The time a side had left when its current or last turn began.
    pub fn remaining_ms(&self, side: Side) -> u64 {
        self.remaining_ms[side.index()]
    }

    /// When the current turn began.
    pub fn turn_began_at_ms(&self) -> u64 {
        self.turn_began_at_ms
    }

    /// The table time at which `side`'s flag falls if it does not move.
    pub fn deadline_ms(&self, side: Side) -> u64 {
        self.turn_began_at_ms.saturating_add(self.remaining_ms(side))
    }

    /// What `side`, to move, shows at `at_ms`.
    pub fn showing_ms(&self, side: Side, at_ms: u64) -> u64 {
        self.remaining_ms(side).saturating_sub(at_ms.saturating_sub(self.turn_began_at_ms))
    }

    /// `side`, to move, acts at `at_ms` in time.
    ///
    /// # Errors
    /// A precondition naming article 8.3 when the flag fell at or before `at_ms`.
    pub fn check_in_time(&self, side: Side, at_ms: u64, what: &str) -> Result<(), AndesRejection> {
        let deadline = self.deadline_ms(side);
        if at_ms >= deadline {
            return Err(AndesRejection::precondition(
                "8.3",
                format!(
                    "{side}'s time ran out at {deadline} ms, and {what} comes at {at_ms} ms: record flag_fell instead"
                ),
            )
            .said("law-time-ran-out", [("side", crate::rejection::Arg::name("record-side", side))]));
        }
        Ok(())
    }

    /// `side`'s flag has fallen by `at_ms`.
    ///
    /// # Errors
    /// A precondition naming article 6.2 while time is left.
    pub fn check_fallen(&self, side: Side, at_ms: u64) -> Result<(), AndesRejection> {
        let left = self.showing_ms(side, at_ms);
        if left > 0 {
            return Err(AndesRejection::precondition(
                "6.2",
                format!(
                    "{side}'s flag has not fallen: {left} ms are left at {at_ms} ms (it falls at {} ms)",
                    self.deadline_ms(side)
                ),
            )
            .said(
                "law-flag-standing",
                [("side", crate::rejection::Arg::name("record-side", side)), ("left", left.into())],
            ));
        }
        Ok(())
    }

    /// `side` ends its turn at `at_ms`: its time is charged and the other side's turn begins.
    pub fn press(&mut self, side: Side, at_ms: u64) {
        self.remaining_ms[side.index()] = self.showing_ms(side, at_ms);
        self.turn_began_at_ms = at_ms;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_down_only_the_side_to_move() {
        let mut clocks = Clocks::start(COMPETITIVE_CLOCK_MS, 1_000);
        assert_eq!(clocks.deadline_ms(Side::Sol), 721_000);
        clocks.press(Side::Sol, 6_000);
        assert_eq!(clocks.remaining_ms(Side::Sol), 715_000);
        assert_eq!(clocks.remaining_ms(Side::Luna), 720_000);
        assert_eq!(clocks.showing_ms(Side::Luna, 16_000), 710_000);
        assert!(clocks.check_in_time(Side::Luna, 725_999, "a move").is_ok());
        let late = clocks.check_in_time(Side::Luna, 726_000, "a move").unwrap_err().to_string();
        assert_eq!(
            late,
            "article 8.3: luna's time ran out at 726000 ms, and a move comes at 726000 ms: record flag_fell instead"
        );
        assert!(clocks.check_fallen(Side::Luna, 725_999).unwrap_err().to_string().starts_with("article 6.2:"));
        assert!(clocks.check_fallen(Side::Luna, 726_000).is_ok());
    }
}
