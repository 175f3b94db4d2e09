//! How much a table's device may record (issues 35 and 42): so many events and bytes a minute,
//! per device. A code is printed on a sheet lying on a table of a public hall; with it, a
//! stranger's loop could write megabytes a second into the permanent log. A real table records a
//! few events a minute, a tablet back online sends its queue at once: the allowance is a minute's
//! worth, spent in one burst or over the minute (GCRA: each device's theoretical arrival time).
//!
//! Issue 42: the allowance belongs to a device — a browser's sign-in, or a code used as it is
//! (gRPC) —, not to the table, so a flood from one device never holds back another device of the
//! same table; and only what is recorded spends it: an append the ledger refuses gives its
//! events and bytes back ([`Quotas::give_back`]). Organisers and the jury (imports, corrections)
//! and an open ledgerd are not limited.

use crate::error::Error;
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window an allowance covers.
const MINUTE: Duration = Duration::from_secs(60);

/// Devices remembered before the ones whose allowance is whole again are forgotten.
const FORGET_PAST: usize = 8_192;

/// The allowances of every table's device, kept per device (bounded: forgotten once whole).
#[derive(Debug)]
pub struct Quotas {
    events_per_minute: NonZeroU32,
    bytes_per_minute: NonZeroU32,
    epoch: Instant,
    /// Per device: when its events' and its bytes' allowances are whole again, in nanoseconds
    /// since `epoch` (GCRA's theoretical arrival times).
    devices: Mutex<HashMap<String, [u64; 2]>>,
}

/// One of a device's two allowances.
#[derive(Clone, Copy)]
enum Kind {
    Events = 0,
    Bytes = 1,
}

impl Quotas {
    /// A table's device may record `events_per_minute` events and `bytes_per_minute` bytes a
    /// minute, in one burst or spread over it.
    pub fn per_minute(events_per_minute: NonZeroU32, bytes_per_minute: NonZeroU32) -> Quotas {
        Quotas { events_per_minute, bytes_per_minute, epoch: Instant::now(), devices: Mutex::default() }
    }

    fn now_ns(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    /// Nanoseconds of the minute one unit of `kind` takes.
    fn cost_ns(&self, kind: Kind, n: usize) -> u64 {
        let per_minute = match kind {
            Kind::Events => self.events_per_minute,
            Kind::Bytes => self.bytes_per_minute,
        };
        let minute = u128::from(u64::try_from(MINUTE.as_nanos()).unwrap_or(u64::MAX));
        let cost = minute * n as u128 / u128::from(per_minute.get());
        u64::try_from(cost).unwrap_or(u64::MAX)
    }

    fn devices(&self) -> std::sync::MutexGuard<'_, HashMap<String, [u64; 2]>> {
        self.devices.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes `events` and `bytes` from the allowance of `device` (`actor`'s, who the refusal
    /// names); both or neither.
    ///
    /// # Errors
    /// `RESOURCE_EXHAUSTED` with a sentence saying the allowance and when to try again.
    pub fn take(&self, device: &str, actor: &str, events: usize, bytes: usize) -> Result<(), Error> {
        let now = self.now_ns();
        let minute = u64::try_from(MINUTE.as_nanos()).unwrap_or(u64::MAX);
        let mut devices = self.devices();
        if devices.len() > FORGET_PAST {
            devices.retain(|_, whole_at| whole_at.iter().any(|&at| at > now));
        }
        let whole_at = devices.get(device).copied().unwrap_or([0, 0]);
        let mut after = whole_at;
        for (kind, n, what, most) in [
            (Kind::Events, events, "events", self.events_per_minute),
            (Kind::Bytes, bytes, "bytes", self.bytes_per_minute),
        ] {
            let cost = self.cost_ns(kind, n.max(1));
            let refuse = |wait: Option<Duration>| {
                let wait = wait.map_or_else(
                    || "send less at once".to_owned(),
                    |wait| format!("try again in {} s", wait.as_secs().max(1)),
                );
                Error::ResourceExhausted(format!(
                    "{actor} may record at most {most} {what} a minute, as a table's code; {wait}"
                ))
            };
            if cost > minute {
                return Err(refuse(None));
            }
            let next = whole_at[kind as usize].max(now).saturating_add(cost);
            if next - now > minute {
                return Err(refuse(Some(Duration::from_nanos(next - now - minute))));
            }
            after[kind as usize] = next;
        }
        devices.insert(device.to_owned(), after);
        Ok(())
    }

    /// Gives back what an append took and the ledger refused: only what is recorded spends a
    /// device's allowance.
    pub fn give_back(&self, device: &str, events: usize, bytes: usize) {
        let now = self.now_ns();
        let (events, bytes) = (self.cost_ns(Kind::Events, events), self.cost_ns(Kind::Bytes, bytes));
        if let Some(whole_at) = self.devices().get_mut(device) {
            for (kind, cost) in [(Kind::Events, events), (Kind::Bytes, bytes)] {
                let at = &mut whole_at[kind as usize];
                *at = at.saturating_sub(cost).max(now);
            }
        }
    }
}

impl Default for Quotas {
    /// 1,200 events and 2 MiB a minute (ledgerd's defaults): a tablet's whole queue after an
    /// hour offline fits, a loop of appends does not get far.
    fn default() -> Self {
        Quotas::per_minute(NonZeroU32::new(1_200).expect("not 0"), NonZeroU32::new(2 << 20).expect("not 0"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quotas(events: u32, bytes: u32) -> Quotas {
        Quotas::per_minute(NonZeroU32::new(events).unwrap(), NonZeroU32::new(bytes).unwrap())
    }

    #[test]
    fn a_devices_minute_is_spent_once_and_other_devices_keep_theirs() {
        let quotas = quotas(10, 1_000);
        for _ in 0..10 {
            quotas.take("tablet", "wm26-table-1", 1, 10).unwrap();
        }
        let refused = quotas.take("tablet", "wm26-table-1", 1, 10).unwrap_err();
        assert_eq!(refused.code(), crate::error::Code::ResourceExhausted);
        assert!(
            refused
                .message()
                .starts_with("wm26-table-1 may record at most 10 events a minute, as a table's code; try again in"),
            "{}",
            refused.message()
        );
        // Another device of the same table, and another table, record on.
        quotas.take("phone", "wm26-table-1", 10, 10).unwrap();
        quotas.take("table-2", "wm26-table-2", 10, 10).unwrap();
        let too_big = quotas.take("table-3", "wm26-table-3", 1, 5_000).unwrap_err();
        assert_eq!(
            too_big.message(),
            "wm26-table-3 may record at most 1000 bytes a minute, as a table's code; send less at once"
        );
    }

    #[test]
    fn what_the_ledger_refused_is_given_back() {
        let quotas = quotas(10, 1_000);
        for _ in 0..1_000 {
            quotas.take("flood", "wm26-table-1", 1, 10).unwrap();
            quotas.give_back("flood", 1, 10);
        }
        // A thousand refused appends later, the whole minute is still there.
        quotas.take("flood", "wm26-table-1", 10, 100).unwrap();
        assert!(quotas.take("flood", "wm26-table-1", 1, 1).is_err());
        // Refused: nothing taken, of either allowance.
        let quotas = super::tests::quotas(10, 100);
        assert!(quotas.take("d", "a", 1, 101).is_err());
        quotas.take("d", "a", 10, 100).unwrap();
    }
}
