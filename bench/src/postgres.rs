//! PostgreSQL as an event store: one table, one row per event, the log order a `bigserial`.
//!
//! Unary appends are one autocommitted `INSERT` each, so each waits for its own commit (with
//! `synchronous_commit = on`, the WAL flush). A batch is one multi-row `INSERT`, one
//! statement and so one transaction. The table is the bench's own, created per instance and
//! dropped at the end.

use crate::payload::{body, event_id};
use anyhow::{bail, Context, Result};
use ledger_proto::v1 as pb;
use prost::Message as _;
use serde::Serialize;
use std::pin::pin;
use std::sync::atomic::{AtomicU32, Ordering};
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, NoTls, Statement};

/// Where the server is (trust auth: no password).
#[derive(Debug, Clone)]
pub struct PgConfig {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub dbname: String,
}

impl PgConfig {
    fn conninfo(&self) -> String {
        format!("host={} port={} user={} dbname={} connect_timeout=5", self.host, self.port, self.user, self.dbname)
    }

    pub async fn connect(&self) -> Result<Client> {
        let (client, connection) = tokio_postgres::connect(&self.conninfo(), NoTls)
            .await
            .with_context(|| format!("connecting to PostgreSQL at {}:{}", self.host, self.port))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                eprintln!("PostgreSQL connection: {e}");
            }
        });
        Ok(client)
    }
}

/// What PostgreSQL promised about durability during the run, as it reported it.
#[derive(Debug, Clone, Serialize)]
pub struct PgDurability {
    pub synchronous_commit: String,
    pub fsync: String,
    pub wal_sync_method: String,
    pub full_page_writes: String,
}

static TABLES: AtomicU32 = AtomicU32::new(0);

/// One fresh table.
pub struct PgInstance {
    pub config: PgConfig,
    pub table: String,
    admin: Client,
}

impl PgInstance {
    pub async fn start(config: &PgConfig) -> Result<PgInstance> {
        let admin = config.connect().await?;
        let table = format!("ledger_bench_{}_{}", std::process::id(), TABLES.fetch_add(1, Ordering::Relaxed));
        admin
            .batch_execute(&format!(
                "DROP TABLE IF EXISTS {table};
                 CREATE TABLE {table} (
                     position bigserial PRIMARY KEY,
                     stream text NOT NULL,
                     seq bigint NOT NULL,
                     event_id text NOT NULL UNIQUE,
                     body bytea NOT NULL,
                     UNIQUE (stream, seq))"
            ))
            .await?;
        Ok(PgInstance { config: config.clone(), table, admin })
    }

    async fn show(&self, setting: &str) -> Result<String> {
        Ok(self.admin.query_one(&format!("SHOW {setting}"), &[]).await?.get(0))
    }

    pub async fn version(&self) -> Result<String> {
        self.show("server_version").await
    }

    pub async fn durability(&self) -> Result<PgDurability> {
        Ok(PgDurability {
            synchronous_commit: self.show("synchronous_commit").await?,
            fsync: self.show("fsync").await?,
            wal_sync_method: self.show("wal_sync_method").await?,
            full_page_writes: self.show("full_page_writes").await?,
        })
    }

    /// Table + indexes + TOAST, in bytes (the WAL, shared with the whole server, not counted).
    pub async fn disk_usage(&self) -> Result<u64> {
        let row = self.admin.query_one("SELECT pg_total_relation_size($1::text::regclass)", &[&self.table]).await?;
        Ok(u64::try_from(row.get::<_, i64>(0))?)
    }

    pub async fn stored(&self) -> Result<u64> {
        let row = self.admin.query_one(&format!("SELECT count(*) FROM {}", self.table), &[]).await?;
        Ok(u64::try_from(row.get::<_, i64>(0))?)
    }

    /// Bulk load with `COPY … FROM STDIN BINARY`, 100,000 rows per transaction: the fastest way
    /// in, used only to fill the table before a measurement.
    pub async fn fill(&self, stream: &str, from_seq: u64, count: u64) -> Result<()> {
        let mut seq = from_seq;
        let end = from_seq + count;
        while seq < end {
            let chunk_end = (seq + 100_000).min(end);
            let sink = self
                .admin
                .copy_in(&format!("COPY {} (stream, seq, event_id, body) FROM STDIN BINARY", self.table))
                .await?;
            let mut writer = pin!(BinaryCopyInWriter::new(sink, &[Type::TEXT, Type::INT8, Type::TEXT, Type::BYTEA]));
            for s in seq..chunk_end {
                let (n, id, b) = (i64::try_from(s)?, event_id(stream, s), body(stream, s));
                writer.as_mut().write(&[&stream, &n, &id, &b]).await?;
            }
            writer.as_mut().finish().await?;
            seq = chunk_end;
        }
        Ok(())
    }

    /// Reads `count` rows of `stream` back in seq order through a portal (a cursor), 10,000
    /// rows per fetch, checking every seq.
    pub async fn replay(&self, stream: &str, count: u64) -> Result<u64> {
        let mut client = self.config.connect().await?;
        let tx = client.transaction().await?;
        let statement = tx
            .prepare(&format!("SELECT seq, body FROM {} WHERE stream = $1 ORDER BY seq LIMIT $2", self.table))
            .await?;
        let portal = tx.bind(&statement, &[&stream, &i64::try_from(count)?]).await?;
        let mut read = 0u64;
        loop {
            let rows = tx.query_portal(&portal, 10_000).await?;
            if rows.is_empty() {
                break;
            }
            for row in rows {
                let (seq, body): (i64, &[u8]) = (row.get(0), row.get(1));
                let event = pb::ProposedEvent::decode(body)?;
                if u64::try_from(seq)? != read + 1 || event.event_id != event_id(stream, read + 1) {
                    bail!("{stream}: read seq {seq} ({}) where {} was due", event.event_id, read + 1);
                }
                read += 1;
            }
        }
        tx.commit().await?;
        Ok(read)
    }

    pub async fn stop(self) -> Result<()> {
        self.admin.batch_execute(&format!("DROP TABLE IF EXISTS {}", self.table)).await?;
        Ok(())
    }
}

/// One table's client: its own connection, its statements prepared once.
pub struct PgWriter {
    client: Client,
    table: String,
    single: Statement,
    multi: Option<(u64, Statement)>,
}

impl PgWriter {
    pub async fn connect(config: &PgConfig, table: &str) -> Result<PgWriter> {
        let client = config.connect().await?;
        let single = client
            .prepare(&format!("INSERT INTO {table} (stream, seq, event_id, body) VALUES ($1, $2, $3, $4)"))
            .await?;
        Ok(PgWriter { client, table: table.to_owned(), single, multi: None })
    }

    /// Inserts events `first_seq ..first_seq + count` of `stream` in one statement.
    pub async fn append(&mut self, stream: &str, first_seq: u64, count: u64) -> Result<()> {
        let seqs: Vec<i64> = (first_seq..first_seq + count).map(i64::try_from).collect::<Result<_, _>>()?;
        let ids: Vec<String> = (first_seq..first_seq + count).map(|s| event_id(stream, s)).collect();
        let bodies: Vec<Vec<u8>> = (first_seq..first_seq + count).map(|s| body(stream, s)).collect();
        let mut params: Vec<&(dyn ToSql + Sync)> = Vec::with_capacity(ids.len() * 4);
        for i in 0..ids.len() {
            params.extend([&stream as &(dyn ToSql + Sync), &seqs[i], &ids[i], &bodies[i]]);
        }
        let statement = if count == 1 {
            &self.single
        } else {
            if self.multi.as_ref().map(|(n, _)| *n) != Some(count) {
                let values: Vec<String> = (0..count)
                    .map(|r| format!("(${}, ${}, ${}, ${})", 4 * r + 1, 4 * r + 2, 4 * r + 3, 4 * r + 4))
                    .collect();
                let sql =
                    format!("INSERT INTO {} (stream, seq, event_id, body) VALUES {}", self.table, values.join(", "));
                self.multi = Some((count, self.client.prepare(&sql).await?));
            }
            &self.multi.as_ref().context("prepared above")?.1
        };
        let inserted = self.client.execute(statement, &params).await?;
        if inserted != count {
            bail!("{stream}: inserted {inserted} of {count} rows");
        }
        Ok(())
    }
}
