//! The systems under test behind one face, so every workload runs the same code against each.

use crate::jetstream::{self, JsInstance, JsWriter, NatsBinary};
use crate::ledger::{self, LedgerInstance, LedgerMode, LedgerWriter};
use crate::postgres::{PgConfig, PgInstance, PgWriter};
use crate::stats::Latencies;
use anyhow::Result;
use ledger_proto::v1 as pb;
use std::path::Path;
use std::time::Duration;

/// How one system is started.
#[derive(Debug, Clone)]
pub enum Kind {
    Ledger(LedgerMode),
    Postgres(PgConfig),
    JetStream { binary: NatsBinary, fsync_always: bool },
}

/// A fresh, empty copy of a system: its own process and directory, or its own table.
pub enum Instance {
    Ledger(LedgerInstance),
    Postgres(PgInstance),
    JetStream(JsInstance),
}

/// What a client needs to reach an instance; cheap to clone into writer tasks.
#[derive(Debug, Clone)]
pub enum Target {
    Ledger(String),
    Postgres(PgConfig, String),
    JetStream(String),
}

/// One table's client with its own connection.
pub enum Writer {
    Ledger(LedgerWriter),
    Postgres(PgWriter),
    JetStream(JsWriter),
}

impl Kind {
    pub async fn start(&self, work_dir: &Path) -> Result<Instance> {
        Ok(match self {
            Kind::Ledger(mode) => Instance::Ledger(LedgerInstance::start(mode, work_dir).await?),
            Kind::Postgres(config) => Instance::Postgres(PgInstance::start(config).await?),
            Kind::JetStream { binary, fsync_always } => {
                Instance::JetStream(JsInstance::start(binary, *fsync_always, work_dir).await?)
            }
        })
    }
}

impl Instance {
    pub fn target(&self) -> Target {
        match self {
            Instance::Ledger(i) => Target::Ledger(i.url.clone()),
            Instance::Postgres(i) => Target::Postgres(i.config.clone(), i.table.clone()),
            Instance::JetStream(i) => Target::JetStream(i.url.clone()),
        }
    }

    /// What the server itself says about how it syncs, where it says anything.
    pub fn reported_durability(&self) -> Option<serde_json::Value> {
        match self {
            Instance::JetStream(i) => Some(i.reported.clone()),
            _ => None,
        }
    }

    /// Events stored, as the system itself counts them.
    pub async fn stored(&self) -> Result<u64> {
        match self {
            Instance::Ledger(i) => i.stored().await,
            Instance::Postgres(i) => i.stored().await,
            Instance::JetStream(i) => i.stored().await,
        }
    }

    pub async fn disk_usage(&self) -> Result<u64> {
        match self {
            Instance::Ledger(i) => Ok(i.disk_usage()),
            Instance::Postgres(i) => i.disk_usage().await,
            Instance::JetStream(i) => Ok(i.disk_usage()),
        }
    }

    /// Peak RSS of a server process the bench started; `None` for the others.
    pub fn peak_rss(&self) -> Option<u64> {
        match self {
            Instance::Ledger(i) => i.peak_rss(),
            Instance::Postgres(_) => None,
            Instance::JetStream(i) => i.peak_rss(),
        }
    }

    /// Many appends in flight on one connection; `None` where the system has no such mode here.
    pub async fn pipelined(
        &self,
        prefix: &str,
        streams: u64,
        skip: u64,
        requests: u64,
        in_flight: usize,
    ) -> Option<Result<(Latencies, Duration)>> {
        match self {
            Instance::Ledger(i) => Some(ledger::pipelined(&i.url, prefix, streams, skip, requests, 1, in_flight).await),
            Instance::Postgres(_) => None,
            Instance::JetStream(i) => {
                Some(jetstream::pipelined(&i.url, prefix, streams, skip, requests, in_flight).await)
            }
        }
    }

    /// Stores events `from_seq ..from_seq + count` (`from_seq - 1` and `count` multiples of
    /// 100) of the stream `{prefix}-s0` as fast as the system takes them in: the setup of the
    /// replay and preload workloads, not a measurement.
    pub async fn fill(&self, prefix: &str, from_seq: u64, count: u64) -> Result<()> {
        match self {
            Instance::Ledger(i) => {
                ledger::pipelined(&i.url, prefix, 1, (from_seq - 1) / 100, count / 100, 100, 64).await.map(drop)
            }
            Instance::Postgres(i) => i.fill(&format!("{prefix}-s0"), from_seq, count).await,
            Instance::JetStream(i) => {
                jetstream::pipelined(&i.url, prefix, 1, from_seq - 1, count, 4096).await.map(drop)
            }
        }
    }

    /// Reads `count` events of `stream` back in order; returns how many arrived.
    pub async fn replay(&self, stream: &str, count: u64) -> Result<u64> {
        match self {
            Instance::Ledger(i) => ledger::replay(&i.url, stream, count, pb::PageEncoding::StoredV1).await,
            Instance::Postgres(i) => i.replay(stream, count).await,
            Instance::JetStream(i) => jetstream::replay(&i.url, stream, count).await,
        }
    }

    pub async fn stop(self) -> Result<()> {
        match self {
            Instance::Ledger(i) => i.stop().await,
            Instance::Postgres(i) => i.stop().await,
            Instance::JetStream(i) => i.stop().await,
        }
    }
}

impl Target {
    pub async fn writer(&self, n: usize) -> Result<Writer> {
        Ok(match self {
            Target::Ledger(url) => Writer::Ledger(LedgerWriter::connect(url, n).await?),
            Target::Postgres(config, table) => Writer::Postgres(PgWriter::connect(config, table).await?),
            Target::JetStream(url) => Writer::JetStream(JsWriter::connect(url).await?),
        })
    }
}

impl Writer {
    /// Appends events `first_seq ..first_seq + count` of `stream` and waits until the system
    /// acknowledges them.
    pub async fn append(&mut self, stream: &str, first_seq: u64, count: u64) -> Result<()> {
        match self {
            Writer::Ledger(w) => w.append(stream, first_seq, count).await,
            Writer::Postgres(w) => w.append(stream, first_seq, count).await,
            Writer::JetStream(w) => w.append(stream, first_seq, count).await,
        }
    }
}
