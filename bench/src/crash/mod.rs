//! The crash-consistency program: `kill -9` of a real `ledgerd` at random moments under
//! concurrent unary and pipelined appends, a restart on the same data, and the proof that every
//! acknowledged event is there exactly once, in order, with its chain intact.
//! `ledger-crash` (`src/bin/ledger-crash.rs`) runs it; `tests/crash.rs` runs a short one in CI;
//! docs/RELIABILITY.md keeps the figures.
//!
//! One cycle:
//! 1. unary and pipelined writers append to their own streams and race on shared ones
//!    ([`writers`]), organisers write tournaments and their games together ([`tournament`]),
//!    each stream's events a fixed function of the seq ([`events`]), each append kept so that it
//!    can be sent again ([`append`]), every acknowledgement noted ([`model`]);
//! 2. after a delay drawn from the seed (and at least one acknowledgement), SIGKILL;
//! 3. a copy of the data directory, as the crash left it, is verified by the store's own
//!    verification, and must hold every acknowledged event ([`check::verify_on_disk`]);
//! 4. ledgerd restarts on the directory; the appends that were in flight are sent again by id
//!    and must come back `duplicate` or be stored once ([`check::resolve`]);
//! 5. every stream is read back and must be exactly what was acknowledged, and every tournament
//!    game must have been scheduled before it started ([`check::read_back`]);
//! 6. with `--fanout`, the JetStream stream ledgerd publishes to must hold every acknowledged
//!    event once, in order, and nothing else ([`fanout`]).
//!
//! What ledgerd's store said at each restart (indexing again what sled had lost, cutting a torn
//! tail) is reported with the cycle ([`daemon::said_at_start`]).
//!
//! With `--power-cut` the data directory is on the power-cut file system (`ledger-powercut`),
//! and each kill is also a power cut: after the SIGKILL a cut drawn from the seed drops what
//! no `fsync` covered (all of it, a seeded subset, or all but one torn write), and ledgerd
//! restarts on what the "disk" kept ([`PowerCutDisk`]).
//!
//! After the last cycle the daemon is stopped with SIGTERM, must exit cleanly, and its data
//! must verify with exactly the acknowledged events. Every random choice comes from one seed,
//! printed first; the timing of a kill against the load cannot be replayed exactly, so a seed
//! reproduces the schedule, not the interleaving.

pub mod append;
pub mod check;
pub mod daemon;
pub mod events;
pub mod fanout;
pub mod model;
pub mod report;
pub mod rng;
pub mod tournament;
pub mod writers;

use crate::workspace_root;
use anyhow::{bail, Context, Result};
use clap::Parser;
use daemon::{Daemon, Killed};
use events::{own_stream, shared_stream};
use fanout::Fanout;
use model::Model;
use report::{CrashReport, CycleReport};
use rng::Rng;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use writers::{Cycle, Outcome, OwnStreams, Shape, SharedStream};

/// `kill -9` a running ledgerd under load, again and again, and check that every acknowledged
/// event survives exactly once.
#[derive(Debug, Clone, Parser)]
#[command(name = "ledger-crash", version)]
pub struct CrashArgs {
    /// The ledgerd binary to start [default: <workspace>/target/release/ledgerd].
    #[arg(long)]
    pub ledgerd: Option<PathBuf>,
    /// Kill-and-restart cycles.
    #[arg(long, default_value_t = 10)]
    pub cycles: u32,
    /// Seed of every random choice [default: from the clock]; printed first, so a failing run
    /// can be rerun with the same schedule.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Writers using `Append`, one answer awaited at a time.
    #[arg(long, default_value_t = 16)]
    pub unary_writers: usize,
    /// Writers using `AppendStream` with many appends in flight.
    #[arg(long, default_value_t = 2)]
    pub pipelined_writers: usize,
    /// Unanswered appends each pipelined writer keeps in flight.
    #[arg(long, default_value_t = 256)]
    pub in_flight: usize,
    /// Streams each writer owns.
    #[arg(long, default_value_t = 4)]
    pub streams_per_writer: usize,
    /// Streams all unary writers race on with expected versions (0: none).
    #[arg(long, default_value_t = 4)]
    pub shared_streams: usize,
    /// One unary append in this many goes to a shared stream.
    #[arg(long, default_value_t = 4)]
    pub shared_one_in: u64,
    /// Events in one append: 1 three times in four, else 2 up to this many (atomic).
    #[arg(long, default_value_t = 5)]
    pub max_batch: u64,
    /// When the kill comes after the load starts, drawn uniformly from `MIN..MAX` milliseconds.
    #[arg(long, default_value = "200..3000")]
    pub kill_after_ms: Window,
    /// Where the run's data directory and ledgerd's logs go [default: the system's temp dir].
    #[arg(long)]
    pub work_dir: Option<PathBuf>,
    /// Keep the data and the logs even when the run passes (a failed run always keeps them).
    #[arg(long)]
    pub keep: bool,
    /// Also write the figures as JSON here.
    #[arg(long)]
    pub json_out: Option<PathBuf>,
    /// Put the data directory on the power-cut file system (FUSE: needs /dev/fuse, and
    /// fusermount3 when not root) and cut the power at each kill: what no fsync covered is
    /// lost (all of it, a seeded subset, or a torn write, drawn from the seed).
    #[arg(long)]
    pub power_cut: bool,
    /// The kinds of cut `--power-cut` draws from.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "all,subset,torn")]
    pub cuts: Vec<CutKind>,
    /// Tournaments, each written by one organiser: the tournament stream and its games.
    #[arg(long, default_value_t = 2)]
    pub tournaments: usize,
    /// Start a nats-server and have ledgerd publish every event to JetStream; after each
    /// restart JetStream must hold every acknowledged event once, in order, and nothing else.
    #[arg(long)]
    pub fanout: bool,
    /// The nats-server for `--fanout` (2.11 or newer) [default: .ci/venv/bin, then PATH].
    #[arg(long, env = "NATS_SERVER_BIN")]
    pub nats_server: Option<PathBuf>,
}

/// What a power cut drops of the changes no fsync covered (see `ledger_powercut::Cut`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CutKind {
    /// All of them.
    All,
    /// A seeded subset of the data changes and a prefix of each directory's entry changes.
    Subset,
    /// All of them but a byte prefix of one write.
    Torn,
}

impl CutKind {
    pub fn name(self) -> &'static str {
        match self {
            CutKind::All => "all",
            CutKind::Subset => "subset",
            CutKind::Torn => "torn",
        }
    }
}

/// A range of milliseconds, `MIN..MAX` (or one number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub min_ms: u64,
    pub max_ms: u64,
}

impl FromStr for Window {
    type Err = String;
    fn from_str(text: &str) -> Result<Window, String> {
        let number = |t: &str| t.trim().parse::<u64>().map_err(|e| format!("`{text}`: {e} (want MIN..MAX)"));
        let (min_ms, max_ms) = match text.split_once("..") {
            Some((min, max)) => (number(min)?, number(max)?),
            None => (number(text)?, number(text)?),
        };
        if min_ms > max_ms {
            return Err(format!("`{text}`: the minimum is above the maximum"));
        }
        Ok(Window { min_ms, max_ms })
    }
}

impl CrashArgs {
    fn validate(&self) -> Result<()> {
        if self.cycles == 0 || self.streams_per_writer == 0 || self.in_flight == 0 {
            bail!("--cycles, --streams-per-writer and --in-flight must be at least 1");
        }
        if self.unary_writers + self.pipelined_writers == 0 {
            bail!("no writers: give --unary-writers or --pipelined-writers");
        }
        if self.cuts.is_empty() {
            bail!("--cuts needs at least one of all, subset, torn");
        }
        if !(1..=100).contains(&self.max_batch) {
            bail!("--max-batch must be 1 to 100");
        }
        Ok(())
    }
}

/// Runs the cycles and returns the figures. A broken promise (a lost or doubled event, a broken
/// chain, a daemon that does not come back) is not an `Err`: it ends the run and is listed in
/// [`CrashReport::failures`], with the data kept for a post-mortem.
///
/// # Errors
/// The run could not be set up: no ledgerd binary, bad flags, no work directory.
pub async fn run(args: CrashArgs) -> Result<CrashReport> {
    args.validate()?;
    let binary = args.ledgerd.clone().unwrap_or_else(|| workspace_root().join("target/release/ledgerd"));
    if !binary.is_file() {
        bail!("no ledgerd at {} (cargo build --release --bin ledgerd, or --ledgerd PATH)", binary.display());
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let base = args.work_dir.clone().unwrap_or_else(std::env::temp_dir);
    std::fs::create_dir_all(&base)?;
    let work = tempfile::Builder::new().prefix("ledger-crash-").tempdir_in(&base)?;
    println!(
        "ledger-crash: seed {seed}, {} cycles, {} unary + {} pipelined writers, {} tournaments, kill after {}..{} ms{}{}, {} in {}",
        args.cycles,
        args.unary_writers,
        args.pipelined_writers,
        args.tournaments,
        args.kill_after_ms.min_ms,
        args.kill_after_ms.max_ms,
        if args.power_cut { ", power cuts" } else { "" },
        if args.fanout { ", NATS fan-out" } else { "" },
        binary.display(),
        work.path().display()
    );
    let started = Instant::now();
    let report = CrashReport {
        seed,
        ledgerd: binary.display().to_string(),
        unary_writers: args.unary_writers,
        pipelined_writers: args.pipelined_writers,
        tournaments: args.tournaments,
        in_flight: args.in_flight,
        cycles_planned: args.cycles,
        ..CrashReport::default()
    };
    let power = if args.power_cut { Some(PowerCutDisk::mount(work.path())?) } else { None };
    let fanout = match args.fanout {
        true => Some(Fanout::start(args.nats_server.as_deref(), work.path()).await?),
        false => None,
    };
    let dir = work.path().to_owned();
    let mut crash = Crash { args: &args, seed, binary, dir, model: Model::default(), report, power, fanout };
    if let Err(e) = crash.cycles().await {
        crash.report.failures.push(format!("{e:#}"));
    }
    // An orderly unmount: the backing directory keeps the data (when the run keeps it).
    drop(crash.power.take());
    if let Some(fanout) = crash.fanout.take() {
        fanout.stop().await?;
    }
    let mut report = crash.report;
    report.wall_secs = started.elapsed().as_secs_f64();
    if !report.passed() || args.keep {
        report.kept = Some(work.keep());
    }
    if let Some(path) = &args.json_out {
        std::fs::write(path, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(report)
}

fn clock_seed() -> u64 {
    let now = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    now.as_secs() ^ (u64::from(now.subsec_nanos()) << 20)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// One run in progress.
struct Crash<'a> {
    args: &'a CrashArgs,
    seed: u64,
    binary: PathBuf,
    /// The run's directory: `data/`, one `ledgerd-N.log` per start, the verification copy.
    dir: PathBuf,
    model: Model,
    report: CrashReport,
    /// `--power-cut`: the file system `data/` is mounted from.
    power: Option<PowerCutDisk>,
    /// `--fanout`: the nats-server ledgerd publishes to.
    fanout: Option<Fanout>,
}

/// `--power-cut`: `data/` is the power-cut file system over `disk/`.
struct PowerCutDisk {
    fs: ledger_powercut::PowerCut,
}

impl PowerCutDisk {
    fn mount(work: &Path) -> Result<PowerCutDisk> {
        if let Some(why) = ledger_powercut::unavailable() {
            bail!("--power-cut needs FUSE: {why}");
        }
        let (disk, data) = (work.join("disk"), work.join("data"));
        std::fs::create_dir_all(&disk)?;
        std::fs::create_dir_all(&data)?;
        let fs = ledger_powercut::PowerCut::mount(&disk, &data)
            .with_context(|| format!("mounting the power-cut file system at {}", data.display()))?;
        Ok(PowerCutDisk { fs })
    }

    /// Cuts the power with a cut drawn from `rng`, then boots on what the disk kept; returns
    /// the kind of cut and what it did.
    fn cut(&mut self, kinds: &[CutKind], rng: &mut Rng) -> Result<(CutKind, String)> {
        let seed = rng.next_u64();
        let last = u64::try_from(kinds.len()).unwrap_or(1).saturating_sub(1);
        let kind = usize::try_from(rng.between(0, last)).ok().and_then(|k| kinds.get(k)).copied();
        let kind = kind.unwrap_or(CutKind::All);
        let cut = match kind {
            CutKind::All => ledger_powercut::Cut::All,
            CutKind::Subset => ledger_powercut::Cut::Subset { seed },
            CutKind::Torn => ledger_powercut::Cut::Torn { seed },
        };
        let done = self.fs.cut(cut).context("cutting the power")?;
        self.fs.remount().context("mounting the power-cut file system again")?;
        let what = match cut {
            ledger_powercut::Cut::All => "all unsynced lost",
            ledger_powercut::Cut::Subset { .. } => "a subset kept",
            ledger_powercut::Cut::Torn { .. } => "one write torn",
        };
        let text = format!(
            "{what}: {} data changes{} lost, {} kept, {} entry changes lost{}",
            done.data_changes_lost,
            if done.files.is_empty() { String::new() } else { format!(" (in {})", done.files.join(" ")) },
            done.data_changes_kept,
            done.entry_changes_lost,
            done.torn
                .map(|t| format!(", {} of {} bytes of a write at {} in {} kept", t.kept, t.of, t.offset, t.path))
                .unwrap_or_default()
        );
        Ok((kind, text))
    }
}

impl Crash<'_> {
    fn data_dir(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// ledgerd's output of its `n`-th start (0: the first).
    fn log(&self, n: u32) -> PathBuf {
        self.dir.join(format!("ledgerd-{n}.log"))
    }

    async fn start(&self, n: u32) -> Result<Daemon> {
        let extra = self.fanout.as_ref().map(Fanout::ledgerd_args).unwrap_or_default();
        Daemon::start_with(&self.binary, &self.data_dir(), self.log(n), &extra).await
    }

    async fn cycles(&mut self) -> Result<()> {
        let mut daemon = self.start(0).await.context("starting ledgerd")?;
        for n in 1..=self.args.cycles {
            let mut cycle = CycleReport { cycle: n, ..CycleReport::default() };
            let outcome = self.cycle(daemon, &mut cycle).await;
            println!("{}", cycle.line());
            self.report.cycles.push(cycle);
            daemon = outcome.with_context(|| format!("cycle {n}"))?;
        }
        self.finish(daemon).await
    }

    /// Load, kill, check the disk, restart, resolve, read back: one cycle.
    async fn cycle(&mut self, daemon: Daemon, report: &mut CycleReport) -> Result<Daemon> {
        let (outcomes, killed) = self.load_and_kill(daemon, report).await?;
        report.killed_running = killed.was_running;
        report.kill_signal = killed.signal;
        if let Some(power) = &mut self.power {
            let mut rng = Rng::derive(self.seed, &[u64::from(report.cycle), 3]);
            let (kind, what) = power.cut(&self.args.cuts, &mut rng)?;
            report.cut_kind = Some(kind.name().to_owned());
            report.power_cut = Some(what);
        }
        if !killed.was_running {
            bail!("ledgerd had exited before the kill; its log:\n{}", tail(&self.log(report.cycle - 1)));
        }
        let mut in_flight = Vec::new();
        let mut failures = Vec::new();
        for outcome in outcomes {
            report.appends += outcome.appends;
            report.events += outcome.acks.len() as u64;
            report.races_lost += outcome.races_lost;
            for ack in &outcome.acks {
                self.model.record(ack).map_err(anyhow::Error::msg)?;
            }
            in_flight.extend(outcome.unknown);
            failures.extend(outcome.failure);
        }
        if !failures.is_empty() {
            bail!("{}", failures.join("\n"));
        }
        if report.events == 0 {
            bail!("no event was acknowledged before the kill");
        }
        report.in_flight = in_flight.len() as u64;

        let checks_started = Instant::now();
        report.disk = self.verify_on_disk().await?;
        if !report.disk.passed() {
            bail!("the data directory as the kill left it:\n{}", report.disk.problems.join("\n"));
        }

        let checking_disk = checks_started.elapsed();
        let daemon = self.start(report.cycle).await.context("restarting ledgerd after the kill")?;
        report.restart_ms = millis(daemon.start_took);
        let checks_started = Instant::now();
        let mut client = daemon.client().await?;
        report.resolved = check::resolve(&mut client, &in_flight, &mut self.model).await.map_err(anyhow::Error::msg)?;
        report.read = check::read_back(&mut client, &self.model).await.context("reading back after the restart")?;
        report.ledgerd_said = daemon::said_at_start(&std::fs::read_to_string(self.log(report.cycle))?);
        if !report.read.passed() {
            report.checks_ms = millis(checking_disk + checks_started.elapsed());
            bail!("read back after the restart:\n{}", report.read.problems.join("\n"));
        }
        if let Some(fanout) = &mut self.fanout {
            let checked = fanout.check(&self.model).await?;
            let passed = checked.passed();
            let problems = checked.problems.join("\n");
            report.fanout = Some(checked);
            if !passed {
                bail!("the NATS fan-out after the restart:\n{problems}\nledgerd's log:\n{}", daemon.log_tail());
            }
        }
        report.checks_ms = millis(checking_disk + checks_started.elapsed());
        report.passed = true; // every check above ran and passed
        Ok(daemon)
    }

    /// Starts every writer, kills the daemon after the drawn delay, and collects what each did.
    async fn load_and_kill(&mut self, daemon: Daemon, report: &mut CycleReport) -> Result<(Vec<Outcome>, Killed)> {
        let args = self.args;
        let cycle = Cycle {
            url: daemon.url.clone(),
            cycle: report.cycle,
            killed: Arc::new(AtomicBool::new(false)),
            acked_events: Arc::new(AtomicU64::new(0)),
        };
        let shape = Shape { max_batch: args.max_batch, shared_one_in: args.shared_one_in, in_flight: args.in_flight };
        let shared: Vec<SharedStream> = (0..args.shared_streams)
            .map(|idx| {
                let name = shared_stream(idx);
                SharedStream { version: self.model.len(&name), name }
            })
            .collect();
        let number = u64::from(report.cycle);
        let mut tasks = Vec::new();
        for w in 0..args.unary_writers {
            let name = format!("u{w}");
            let (own, rng) = (self.own_streams(&name), Rng::derive(self.seed, &[number, 1, w as u64]));
            tasks.push(tokio::spawn(writers::unary(name, cycle.clone(), own, shared.clone(), shape, rng)));
        }
        for p in 0..args.pipelined_writers {
            let name = format!("p{p}");
            let (own, rng) = (self.own_streams(&name), Rng::derive(self.seed, &[number, 2, p as u64]));
            tasks.push(tokio::spawn(writers::pipelined(name, cycle.clone(), own, shape, rng)));
        }
        for t in 0..args.tournaments {
            let (name, plan) = (format!("organiser-t{t}"), tournament::Plan::from_model(t, &self.model));
            let rng = Rng::derive(self.seed, &[number, 4, t as u64]);
            tasks.push(tokio::spawn(tournament::organiser(name, cycle.clone(), plan, args.max_batch, rng)));
        }
        let load_started = Instant::now();
        let window = args.kill_after_ms;
        report.kill_after_ms = Rng::derive(self.seed, &[number, 0]).between(window.min_ms, window.max_ms);
        tokio::time::sleep(Duration::from_millis(report.kill_after_ms)).await;
        // Every cycle kills a daemon that has acknowledged something in it.
        let deadline = Instant::now() + Duration::from_secs(60);
        while cycle.acked_events.load(Ordering::Relaxed) == 0
            && !tasks.iter().all(tokio::task::JoinHandle::is_finished)
            && Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        cycle.killed.store(true, Ordering::SeqCst);
        let killed = daemon.kill9().await?;
        report.load_ms = millis(load_started.elapsed());
        let mut outcomes = Vec::with_capacity(tasks.len());
        for task in tasks {
            match tokio::time::timeout(Duration::from_secs(60), task).await {
                Ok(Ok(outcome)) => outcomes.push(outcome),
                Ok(Err(e)) => bail!("a writer panicked: {e}"),
                Err(_) => bail!("a writer did not notice the kill within 60 s"),
            }
        }
        Ok((outcomes, killed))
    }

    /// A writer's own streams, each continuing where the model says it stands: after the
    /// retries every append a writer made is either stored and known, or was never stored.
    fn own_streams(&self, writer: &str) -> OwnStreams {
        let names: Vec<String> = (0..self.args.streams_per_writer).map(|idx| own_stream(writer, idx)).collect();
        let next_seq = names.iter().map(|name| self.model.len(name) + 1).collect();
        OwnStreams { names, next_seq }
    }

    /// [`check::verify_on_disk`] off the async threads; the model goes along and comes back.
    async fn verify_on_disk(&mut self) -> Result<check::DiskCheck> {
        let (data, scratch) = (self.data_dir(), self.dir.join("verify-copy"));
        let model = std::mem::take(&mut self.model);
        let (checked, model) = tokio::task::spawn_blocking(move || {
            let checked = check::verify_on_disk(&data, &scratch, &model);
            (checked, model)
        })
        .await?;
        self.model = model;
        checked.map_err(anyhow::Error::msg)
    }

    /// SIGTERM to the last daemon: it must exit cleanly, and its data must verify with exactly
    /// the acknowledged events.
    async fn finish(&mut self, daemon: Daemon) -> Result<()> {
        if let Some(fanout) = &mut self.fanout {
            let checked = fanout.check(&self.model).await?;
            self.report.fanout_messages = Some(checked.messages);
            if !checked.passed() {
                bail!("the NATS fan-out at the end:\n{}", checked.problems.join("\n"));
            }
        }
        let listed = daemon.client().await?.list_streams(ledger_proto::v1::ListStreamsRequest::default()).await?;
        self.report.streams = listed.into_inner().streams.len();
        self.report.events_stored = self.model.total();
        let status = daemon.stop().await?;
        self.report.data_bytes = crate::procs::disk_usage(&self.data_dir());
        self.report.final_exit = Some(status.to_string());
        if !status.success() {
            bail!("ledgerd exited with {status} on SIGTERM; its log:\n{}", tail(&self.log(self.args.cycles)));
        }
        let disk = self.verify_on_disk().await?;
        if !disk.passed() || disk.events != self.model.total() {
            bail!(
                "after the clean stop {} events verify on disk, {} were acknowledged: {}",
                disk.events,
                self.model.total(),
                disk.problems.join("; ")
            );
        }
        Ok(())
    }
}

/// The last lines of a log file, for error messages.
fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_parse() {
        assert_eq!("200..3000".parse::<Window>(), Ok(Window { min_ms: 200, max_ms: 3000 }));
        assert_eq!("500".parse::<Window>(), Ok(Window { min_ms: 500, max_ms: 500 }));
        assert!("3000..200".parse::<Window>().is_err());
        assert!("soon".parse::<Window>().is_err());
    }
}
