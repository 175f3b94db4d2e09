//! How much a table's code may record (issue 35): so many events and bytes a minute, per code.
//! A code is printed on a sheet lying on a table of a public hall; with it, a stranger's loop
//! could write megabytes a second into the permanent log. A real table records a few events a
//! minute, a tablet back online sends its queue at once: the allowance is a minute's worth,
//! spent in one burst or over the minute (GCRA, the `governor` crate). Organisers and the jury
//! (imports, corrections) and an open ledgerd are not limited.

use crate::error::Error;
use governor::clock::DefaultClock;
use governor::state::keyed::HashMapStateStore;
use governor::{Quota, RateLimiter};
use std::num::NonZeroU32;

type PerActor = RateLimiter<String, HashMapStateStore<String>, DefaultClock>;

/// The allowances of every table's code, kept per actor (bounded: actors are the auth file's).
#[derive(Debug)]
pub struct Quotas {
    events_per_minute: NonZeroU32,
    bytes_per_minute: NonZeroU32,
    events: PerActor,
    bytes: PerActor,
}

impl Quotas {
    /// A table's code may record `events_per_minute` events and `bytes_per_minute` bytes a
    /// minute, in one burst or spread over it.
    pub fn per_minute(events_per_minute: NonZeroU32, bytes_per_minute: NonZeroU32) -> Quotas {
        Quotas {
            events_per_minute,
            bytes_per_minute,
            events: RateLimiter::hashmap(Quota::per_minute(events_per_minute)),
            bytes: RateLimiter::hashmap(Quota::per_minute(bytes_per_minute)),
        }
    }

    /// Takes `events` and `bytes` from `actor`'s allowance.
    ///
    /// # Errors
    /// `RESOURCE_EXHAUSTED` with a sentence saying the allowance and when to try again.
    pub fn take(&self, actor: &str, events: usize, bytes: usize) -> Result<(), Error> {
        let key = actor.to_owned();
        let (events, bytes) = (clamp(events), clamp(bytes));
        let events_per_minute = self.events_per_minute;
        let refuse = |what: &str, most: NonZeroU32, wait: Option<std::time::Duration>| {
            let wait = wait.map_or_else(
                || "send less at once".to_owned(),
                |wait| format!("try again in {} s", wait.as_secs().max(1)),
            );
            Error::ResourceExhausted(format!(
                "{actor} may record at most {most} {what} a minute, as a table's code; {wait}"
            ))
        };
        let check = |limiter: &PerActor, n: NonZeroU32, what: &str, most: NonZeroU32| match limiter.check_key_n(&key, n)
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(refuse(
                what,
                most,
                Some(not_until.wait_time_from(governor::clock::Clock::now(&DefaultClock::default()))),
            )),
            Err(_) => Err(refuse(what, most, None)),
        };
        check(&self.events, events, "events", events_per_minute)?;
        check(&self.bytes, bytes, "bytes", self.bytes_per_minute)
    }
}

impl Default for Quotas {
    /// 1,200 events and 2 MiB a minute (ledgerd's defaults): a tablet's whole queue after an
    /// hour offline fits, a loop of appends does not get far.
    fn default() -> Self {
        Quotas::per_minute(NonZeroU32::new(1_200).expect("not 0"), NonZeroU32::new(2 << 20).expect("not 0"))
    }
}

fn clamp(n: usize) -> NonZeroU32 {
    NonZeroU32::new(u32::try_from(n).unwrap_or(u32::MAX).max(1)).expect("at least 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_codes_minute_is_spent_once_and_other_codes_keep_theirs() {
        let quotas = Quotas::per_minute(NonZeroU32::new(10).unwrap(), NonZeroU32::new(1_000).unwrap());
        for _ in 0..10 {
            quotas.take("wm26-table-1", 1, 10).unwrap();
        }
        let refused = quotas.take("wm26-table-1", 1, 10).unwrap_err();
        assert_eq!(refused.code(), crate::error::Code::ResourceExhausted);
        assert!(
            refused
                .message()
                .starts_with("wm26-table-1 may record at most 10 events a minute, as a table's code; try again in"),
            "{}",
            refused.message()
        );
        quotas.take("wm26-table-2", 10, 10).unwrap();
        let too_big = quotas.take("wm26-table-3", 1, 5_000).unwrap_err();
        assert_eq!(
            too_big.message(),
            "wm26-table-3 may record at most 1000 bytes a minute, as a table's code; send less at once"
        );
    }
}
