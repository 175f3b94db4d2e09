//! A season on one ledger (issue 32): a tournament's standings, its board's first render and
//! its printed standings, on a log that holds that tournament alone and on one that holds 50
//! finished tournaments. They read that tournament's streams only, so the second should cost what
//! the first does. `cargo bench -p ledger-web --bench season`; `SEASON_ROUNDS=N` calls of each
//! (default 300), `SEASON_TOURNAMENTS=N` for the larger log (default 50), `SEASON_ONLY=text` the
//! rows whose name holds it.
//!
//! Each tournament `t{i}` is the example `examples/tournament-open26.jsonl` (cafe2023, 8 players,
//! 8 qualifying games scheduled by hand, every game played to its end) under its own stream ids
//! and game names (`t{i}-q1-t1`, …), appended through `Log` directly, one append per run of a
//! stream's lines. The log is closed and opened again before anything is measured, as a ledger
//! is after a season: its index in sled, nothing gathering in memory. The two logs are measured
//! in the same run, call after call in alternation (the order swapped every round), so that the
//! machine's drift weighs on both alike. Prints the median and p90 of a call on each, and the
//! ratio of the medians (larger log ÷ one tournament).
//!
//! The season's questions (issue 44) are measured the same way: `/jury`, `GetRoleStats`
//! (`Projections::role_stats`), `/analyst`, the ratings page and the front page, answered from the
//! read models (built once by `Kept::rebuild`, as ledgerd's keeper holds them after following
//! the log), and `role_stats` replayed (no read models) for comparison. The process's resident
//! memory is printed before and after the analysts' calls on the larger log.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use ledger::access::Clearance;
use ledger::{Event, StreamId, StreamKind};
use ledger_house::auth::Auth;
use ledger_house::facade::Projections;
use ledger_house::readmodels::{Kept, ReadModels};
use ledger_store::{AppendRequest, Log, ProposedEvent};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tower::ServiceExt;

const OPEN26: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tournament-open26.jsonl"));

/// The example's runs of lines (a stream's consecutive lines, in file order) as tournament
/// `t{index}`'s: `tournament/open26` becomes `tournament/t{index}`, `game/q1-t1` becomes
/// `game/t{index}-q1-t1`, and so does the game each `game_scheduled` names.
fn tournament_runs(index: usize) -> Vec<(StreamId, Vec<Event>)> {
    let own = |game: &str| format!("t{index}-{game}");
    let mut runs: Vec<(StreamId, Vec<Event>)> = Vec::new();
    for line in ledger::check::parse_lines(OPEN26).expect("the example parses") {
        let stream = StreamId::parse(line.stream.as_deref().expect("every line names its stream")).unwrap();
        let stream = match stream.kind() {
            StreamKind::Tournament => StreamId::tournament(&format!("t{index}")).unwrap(),
            StreamKind::Game => StreamId::game(&own(stream.id())).unwrap(),
            StreamKind::Andes => unreachable!("the example holds no Andes match"),
        };
        let event = match line.event {
            Event::GameScheduled { game, stage, round, table, seats } => {
                Event::GameScheduled { game: own(&game), stage, round, table, seats }
            }
            other => other,
        };
        match runs.last_mut() {
            Some((last, events)) if *last == stream => events.push(event),
            _ => runs.push((stream, vec![event])),
        }
    }
    runs
}

/// A log in `dir` holding `tournaments` finished tournaments, closed and opened again.
async fn season(dir: &Path, tournaments: usize) -> Arc<Log> {
    let log = Log::open_sled(dir).unwrap();
    let mut answers = Vec::new();
    for index in 0..tournaments {
        for (stream, events) in tournament_runs(index) {
            let kind = stream.kind();
            let events = events.into_iter().map(|event| ProposedEvent { event_id: String::new(), event }).collect();
            let request = AppendRequest {
                stream,
                events,
                expected_version: None,
                actor: "season".into(),
                clearance: Clearance::Jury,
            };
            let answer = log.submit(request).unwrap();
            // A game starts under the ruleset of the tournament that scheduled it: the
            // tournament's schedule is stored first, its games' appends are then pipelined.
            match kind {
                StreamKind::Tournament => {
                    answer.await.expect("the tournament is stored");
                }
                _ => answers.push(answer),
            }
        }
    }
    for answer in answers {
        answer.await.expect("every game of the season is stored");
    }
    drop(log);
    Arc::new(Log::open_sled(dir).unwrap())
}

/// One ledger under measurement.
struct Ledger {
    tournaments: usize,
    log: Arc<Log>,
    facade: Projections<Arc<Log>>,
    /// The same over the read models.
    kept: Projections<Arc<Log>>,
    pages: axum::Router,
    /// `tournament/t0` and its games.
    streams_of_t0: Vec<StreamId>,
    _dir: tempfile::TempDir,
    _stop: tokio::sync::watch::Sender<bool>,
}

impl Ledger {
    async fn new(tournaments: usize) -> Ledger {
        let dir = tempfile::tempdir().unwrap();
        let log = season(dir.path(), tournaments).await;
        let (stop, stopping) = tokio::sync::watch::channel(false);
        let models = Arc::new(ReadModels::new(Kept::rebuild(&log).unwrap()));
        let state = ledger_web::WebState::new(Arc::clone(&log), Arc::new(Auth::Open), stopping)
            .with_read_models(Arc::clone(&models));
        let facade = Projections::new(Arc::clone(&log));
        let kept = Projections::new(Arc::clone(&log)).with_read_models(models);
        let t0 = StreamId::tournament("t0").unwrap();
        let games = facade.tournament(&t0).unwrap().games.into_iter().map(|g| StreamId::game(&g.game).unwrap());
        let streams_of_t0 = std::iter::once(t0).chain(games).collect();
        let pages = ledger_web::router(state);
        Ledger { tournaments, log, facade, kept, pages, streams_of_t0, _dir: dir, _stop: stop }
    }

    /// A page's HTML, as a browser gets it (an open ledgerd: the jury's cookie, who may read all).
    async fn get(&self, path: &str) -> String {
        let request = Request::get(path)
            .header("accept-language", "en")
            .header("cookie", "ledger_clearance=jury")
            .body(Body::empty())
            .unwrap();
        let response = self.pages.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        String::from_utf8(body.to_vec()).unwrap()
    }
}

/// What one call measures.
#[derive(Clone, Copy)]
enum Measured {
    Reads,
    Standings,
    PublicStandings,
    Board,
    PaperStandings,
    Desk,
    RoleStats,
    RoleStatsReplayed,
    Analyst,
    Ratings,
    Home,
}

impl Measured {
    const ALL: [Measured; 11] = [
        Measured::Reads,
        Measured::Standings,
        Measured::PublicStandings,
        Measured::Board,
        Measured::PaperStandings,
        Measured::Desk,
        Measured::RoleStats,
        Measured::RoleStatsReplayed,
        Measured::Analyst,
        Measured::Ratings,
        Measured::Home,
    ];

    fn name(self) -> &'static str {
        match self {
            Measured::Reads => "Log::read_stream, t0 and its games",
            Measured::Standings => "Projections::standings (names)",
            Measured::PublicStandings => "Projections::standings (public)",
            Measured::Board => "GET /board/t0 (first render)",
            Measured::PaperStandings => "GET /paper/t0/standings",
            Measured::Desk => "GET /jury",
            Measured::RoleStats => "GetRoleStats (read models)",
            Measured::RoleStatsReplayed => "GetRoleStats (replayed)",
            Measured::Analyst => "GET /analyst",
            Measured::Ratings => "GET /analyst/ratings",
            Measured::Home => "GET / (the season)",
        }
    }

    /// One call on `ledger`; a number from its answer (records, rows, bytes), so that the work is
    /// not optimised away.
    async fn call(self, ledger: &Ledger) -> usize {
        let t0 = StreamId::tournament("t0").unwrap();
        match self {
            // What the standings read, and nothing else: the store's share of their cost.
            Measured::Reads => {
                ledger.streams_of_t0.iter().map(|id| ledger.log.read_stream(id, 1, usize::MAX).unwrap().len()).sum()
            }
            Measured::Standings => ledger.facade.standings(&t0, None, false).unwrap().value.rows.len(),
            Measured::PublicStandings => ledger.facade.standings(&t0, None, true).unwrap().value.rows.len(),
            Measured::Board => ledger.get("/board/t0").await.len(),
            Measured::PaperStandings => ledger.get("/paper/t0/standings").await.len(),
            Measured::Desk => ledger.get("/jury").await.len(),
            Measured::RoleStats => {
                let stats = ledger.kept.role_stats(&replay::stats::Filter::default(), None).unwrap().value;
                usize::try_from(stats.games).unwrap()
            }
            Measured::RoleStatsReplayed => {
                let stats = ledger.facade.role_stats(&replay::stats::Filter::default(), None).unwrap().value;
                usize::try_from(stats.games).unwrap()
            }
            Measured::Analyst => ledger.get("/analyst").await.len(),
            Measured::Ratings => ledger.get("/analyst/ratings").await.len(),
            Measured::Home => ledger.get("/").await.len(),
        }
    }
}

/// The median and p90 of `samples`.
fn median_p90(samples: &mut [Duration]) -> (Duration, Duration) {
    samples.sort();
    let at = |percent: usize| samples[(samples.len() - 1) * percent / 100];
    (at(50), at(90))
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// This process's resident memory (Linux: `VmRSS` of /proc/self/status), in MiB.
fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok());
    kib.unwrap_or(0.0) / 1024.0
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let rounds = env_usize("SEASON_ROUNDS", 300);
    let many = env_usize("SEASON_TOURNAMENTS", 50);
    let built = Instant::now();
    let ledgers = [Ledger::new(1).await, Ledger::new(many).await];
    println!("two logs built in {:.1} s", built.elapsed().as_secs_f64());
    for ledger in &ledgers {
        println!(
            "{:>3} tournament(s): {} events, {} streams",
            ledger.tournaments,
            ledger.log.last_position().unwrap(),
            ledger.log.streams().unwrap().len()
        );
    }

    // The same answers from both: t0 is the same tournament on each log.
    let t0 = StreamId::tournament("t0").unwrap();
    for public in [false, true] {
        let [one, all] = [&ledgers[0], &ledgers[1]].map(|l| l.facade.standings(&t0, None, public).unwrap().value);
        assert_eq!(one.to_json_string(), all.to_json_string());
        assert_eq!(one.rows.len(), 8);
        assert!(one.pending_games.is_empty(), "every game of the season has ended");
    }
    let mut boards = Vec::new();
    for ledger in &ledgers {
        let from = format!("?from={}", ledger.log.last_position().unwrap() + 1);
        boards.push(ledger.get("/board/t0").await.replace(&from, "?from=…"));
    }
    assert_eq!(boards[0], boards[1], "the board of t0 is the same on both logs");
    assert_eq!(boards[0].matches("data-player=").count(), 8);
    assert_eq!(ledgers[0].get("/paper/t0/standings").await, ledgers[1].get("/paper/t0/standings").await);

    // The read models answer as a replay does.
    for ledger in &ledgers {
        let filter = replay::stats::Filter::default();
        let (kept, replayed) =
            (ledger.kept.role_stats(&filter, None).unwrap(), ledger.facade.role_stats(&filter, None).unwrap());
        assert_eq!(kept.value, replayed.value);
        assert_eq!(kept.value.games, 8 * ledger.tournaments as u64);
    }
    // Memory: the analysts' calls on the larger log, four at once as the issue measured.
    let before = rss_mib();
    for _ in 0..3 {
        let large = &ledgers[1];
        let call = || async { large.get("/analyst").await.len() + large.get("/analyst/ratings").await.len() };
        tokio::join!(call(), call(), call(), call());
        large.kept.role_stats(&replay::stats::Filter::default(), None).unwrap();
    }
    println!(
        "resident memory: {before:.1} MiB before the analysts' calls on {many} tournaments, {:.1} MiB after",
        rss_mib()
    );
    println!(
        "\n{rounds} calls each, alternated; µs per call\n{:<34} {:>22} {:>22} {:>8}",
        "what",
        "1 tournament: median / p90",
        format!("{many} tournaments: median / p90"),
        "ratio"
    );
    // `SEASON_ONLY=read_stream` (a part of a row's name): only those rows, e.g. under a profiler.
    let only = std::env::var("SEASON_ONLY").unwrap_or_default();
    for measured in Measured::ALL.into_iter().filter(|m| m.name().contains(only.as_str())) {
        // Warm both (sled's cache, the allocator) before measuring.
        for ledger in &ledgers {
            for _ in 0..rounds.div_ceil(10) {
                std::hint::black_box(measured.call(ledger).await);
            }
        }
        let mut samples = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
        for round in 0..rounds {
            let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
            for which in order {
                let started = Instant::now();
                std::hint::black_box(measured.call(&ledgers[which]).await);
                samples[which].push(started.elapsed());
            }
        }
        let [(one_median, one_p90), (all_median, all_p90)] = samples.each_mut().map(|s| median_p90(s));
        println!(
            "{:<34} {:>12.0} / {:>7.0} {:>14.0} / {:>7.0} {:>7.2}x",
            measured.name(),
            micros(one_median),
            micros(one_p90),
            micros(all_median),
            micros(all_p90),
            all_median.as_secs_f64() / one_median.as_secs_f64()
        );
    }
}
