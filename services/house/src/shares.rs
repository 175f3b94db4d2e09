//! Fair shares of what ledgerd holds open for long (issue 42): live streams, the web pages' SSE
//! and gRPC's `Subscribe`. One global pool let one client take it all: 1,030 anonymous viewers of
//! the board took every live page's slot, and one table's code every subscription. Here each
//! kind of caller has a share of its own — the public, the tables, and the staff (organisers, the
//! jury, analysts) —, so an anonymous flood refuses only the anonymous and a table's flood only
//! that table's device; and within its share each client (a token's device, or for the public an
//! address) holds at most so many at once.
//!
//! A slot may also name the connection carrying it ([`Carrier`]): while a connection carries a
//! live stream, its port's gate does not evict it for a newcomer, so a flood of new connections
//! evicts the flooders and never an established stream (ledgerd's `server/connections.rs`).

use crate::auth::Role;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Who a slot is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Anyone, without a token: one client per address.
    Public,
    /// A table's device.
    Table,
    /// An organiser, the jury, an analyst.
    Staff,
}

impl Class {
    pub fn of(role: Role) -> Class {
        match role {
            Role::Public => Class::Public,
            Role::Table => Class::Table,
            Role::Analyst | Role::Organiser | Role::Jury => Class::Staff,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Class::Public => "public",
            Class::Table => "tables",
            Class::Staff => "organisers, jury and analysts",
        }
    }
}

/// How much one class may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// The class's slots in all.
    pub total: usize,
    /// One client's at most.
    pub per_client: usize,
}

/// Why a slot was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// This client holds its share already.
    Client { class: Class, most: usize },
    /// Its class holds every slot of its share.
    Class { class: Class, most: usize },
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Client { class, most } => {
                write!(f, "one client of the {} holds at most {most} at once", class.as_str())
            }
            Refused::Class { class, most } => write!(f, "the {} hold their {most} already", class.as_str()),
        }
    }
}

/// The slots of one resource, shared out by class and client.
#[derive(Debug, Clone)]
pub struct Shares {
    shares: [Share; 3],
    held: Arc<Mutex<Held>>,
}

#[derive(Debug, Default)]
struct Held {
    by_class: [usize; 3],
    by_client: HashMap<(Class, String), usize>,
}

impl Shares {
    /// `total` slots: half for the public (a quarter of that per address), an eighth for the
    /// staff (64 per person) and the rest, three eighths, for the tables (16 per device); at
    /// least one each.
    pub fn split(total: usize) -> Shares {
        let public = (total / 2).max(1);
        let staff = (total / 8).max(1);
        let tables = total.saturating_sub(public + staff).max(1);
        Shares::new(
            Share { total: public, per_client: (public / 4).max(1) },
            Share { total: tables, per_client: 16.min(tables) },
            Share { total: staff, per_client: 64.min(staff) },
        )
    }

    /// The public's, the tables' and the staff's share in words, for a refusal.
    pub fn describe(&self) -> String {
        let [public, tables, staff] = self.shares;
        format!(
            "{} for the public ({} per address), {} for the tables ({} per device), {} for organisers, jury and \
             analysts ({} each)",
            public.total, public.per_client, tables.total, tables.per_client, staff.total, staff.per_client
        )
    }

    pub fn new(public: Share, tables: Share, staff: Share) -> Shares {
        Shares { shares: [public, tables, staff], held: Arc::default() }
    }

    /// The share of `class`.
    pub fn share(&self, class: Class) -> Share {
        self.shares[class.index()]
    }

    /// All slots, every class's together.
    pub fn total(&self) -> usize {
        self.shares.iter().map(|s| s.total).sum()
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for `client` of `class`, carried by `carrier`'s connection if named; freed when
    /// dropped.
    ///
    /// # Errors
    /// The client or its class holds its share already.
    pub fn take(&self, class: Class, client: &str, carrier: Option<&Carrier>) -> Result<Slot, Refused> {
        let share = self.share(class);
        let mut held = self.held();
        if held.by_class[class.index()] >= share.total {
            return Err(Refused::Class { class, most: share.total });
        }
        let key = (class, client.to_owned());
        let theirs = held.by_client.get(&key).copied().unwrap_or(0);
        if theirs >= share.per_client {
            return Err(Refused::Client { class, most: share.per_client });
        }
        held.by_class[class.index()] += 1;
        held.by_client.insert(key.clone(), theirs + 1);
        Ok(Slot { held: Arc::clone(&self.held), key, carrying: carrier.map(Carrier::carrying) })
    }

    /// Slots held now by `class`.
    pub fn held_by(&self, class: Class) -> usize {
        self.held().by_class[class.index()]
    }
}

/// One slot; given back when dropped.
#[derive(Debug)]
pub struct Slot {
    held: Arc<Mutex<Held>>,
    key: (Class, String),
    carrying: Option<Carrying>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.by_class[self.key.0.index()] -= 1;
        if let Some(theirs) = held.by_client.get_mut(&self.key) {
            *theirs -= 1;
            if *theirs == 0 {
                held.by_client.remove(&self.key);
            }
        }
        drop(self.carrying.take());
    }
}

/// The connection a request came on, as its port's gate lends it to the handlers (a request
/// extension): the peer's address, and the count of live streams it carries, which the gate
/// reads before evicting it.
#[derive(Debug, Clone, Default)]
pub struct Carrier {
    pub peer: Option<IpAddr>,
    streams: Arc<AtomicU32>,
}

impl Carrier {
    pub fn new(peer: Option<IpAddr>, streams: Arc<AtomicU32>) -> Carrier {
        Carrier { peer, streams }
    }

    /// Marks the connection as carrying one more live stream, until the guard is dropped.
    pub fn carrying(&self) -> Carrying {
        self.streams.fetch_add(1, Ordering::Relaxed);
        Carrying { streams: Arc::clone(&self.streams) }
    }
}

/// One live stream on a connection.
#[derive(Debug)]
pub struct Carrying {
    streams: Arc<AtomicU32>,
}

impl Drop for Carrying {
    fn drop(&mut self) {
        self.streams.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Whose share a caller's live stream takes: the class of its role and the client within it.
/// `who` is `None` for a token ledgerd does not know (the public). On an open ledgerd a caller
/// naming no actor is the public too, whatever role it is taken for.
pub fn claim_of(
    open: bool,
    metadata: &tonic::metadata::MetadataMap,
    who: Option<&crate::auth::Identity>,
    peer: Option<IpAddr>,
) -> (Class, String) {
    let anonymous = open && metadata.get(crate::auth::ACTOR_HEADER).is_none();
    let class = match who {
        Some(who) if !anonymous => Class::of(who.role),
        _ => Class::Public,
    };
    let key = match class {
        Class::Public => client_key(None, None, peer),
        Class::Table | Class::Staff => {
            client_key(metadata.get("authorization").map(|v| v.as_bytes()), who.map(|who| who.actor.as_str()), peer)
        }
    };
    (class, key)
}

/// The client a share is kept for: a token's device (the digest of what authenticates it), else
/// an open ledgerd's actor, else the peer's address.
pub fn client_key(bearer: Option<&[u8]>, open_actor: Option<&str>, peer: Option<IpAddr>) -> String {
    use sha2::Digest;
    match (bearer, open_actor, peer) {
        (Some(bearer), _, _) => hex::encode(&sha2::Sha256::digest(bearer)[..16]),
        (None, Some(actor), _) => format!("actor:{actor}"),
        (None, None, Some(peer)) => format!("address:{peer}"),
        (None, None, None) => "unknown".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_of_one_class_or_one_client_leaves_the_others_their_share() {
        let shares = Shares::split(1_024);
        assert_eq!(shares.share(Class::Public), Share { total: 512, per_client: 128 });
        assert_eq!(shares.share(Class::Table), Share { total: 384, per_client: 16 });
        assert_eq!(shares.share(Class::Staff), Share { total: 128, per_client: 64 });
        assert_eq!(Shares::split(2).total(), 3, "one each at least");
        let mut held = Vec::new();
        // A thousand anonymous viewers from eight addresses: the public's share, no more.
        for n in 0..1_000 {
            if let Ok(slot) = shares.take(Class::Public, &format!("address:10.0.0.{}", n % 8), None) {
                held.push(slot);
            }
        }
        assert_eq!(held.len(), 512);
        // One address holds its quarter at most.
        let mut one = Vec::new();
        let small = Shares::split(64);
        for _ in 0..40 {
            if let Ok(slot) = small.take(Class::Public, "address:10.0.0.9", None) {
                one.push(slot);
            }
        }
        assert_eq!(one.len(), 8);
        assert_eq!(
            small.take(Class::Public, "address:10.0.0.9", None).unwrap_err(),
            Refused::Client { class: Class::Public, most: 8 }
        );
        // One table's device: its 16; another device of the table and the jury still find one.
        let flood: Vec<Slot> = (0..2_100).filter_map(|_| shares.take(Class::Table, "photo", None).ok()).collect();
        assert_eq!(flood.len(), 16);
        let tablet = shares.take(Class::Table, "tablet", None).unwrap();
        let jury = shares.take(Class::Staff, "jury", None).unwrap();
        drop((tablet, jury, flood));
        assert_eq!(shares.held_by(Class::Table), 0);
        drop(held);
        assert_eq!(shares.held_by(Class::Public), 0);
    }

    #[test]
    fn a_carried_slot_marks_its_connection_until_it_is_dropped() {
        let streams = Arc::new(AtomicU32::new(0));
        let carrier = Carrier::new(None, Arc::clone(&streams));
        let shares = Shares::split(64);
        let slot = shares.take(Class::Table, "tablet", Some(&carrier)).unwrap();
        assert_eq!(streams.load(Ordering::Relaxed), 1);
        drop(slot);
        assert_eq!(streams.load(Ordering::Relaxed), 0);
    }
}
