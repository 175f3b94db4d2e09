//! Issue 32, a season on one ledger: three tournaments (WM 2015 rules; CAFE 2019 with stand-ins
//! and a withdrawal; CAFE 2023) and two Andes matches, each played to its end on one real
//! ledgerd. Each tournament's games carry its id and belong to it alone; its standings, board and
//! paper equal those of the same tournament alone on a fresh ledger; the statistics over the
//! season are the sum of the three. A draw or a schedule onto a taken stream, and a pseudonym
//! twice, are refused and store nothing; a registration taken back is not drawn; the example
//! Open 2026, drawn before games carried their tournament's id, reads as before.

use crate::daemon::Daemon;
use crate::tournament::Ctl;
use ledger::andes::testing::seeded_match;
use ledger::andes::AndesState;
use ledger::Event;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const OPEN26: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");

/// The organiser's and the jury's tokens of a [`Ledger::signed`].
pub(crate) const ORGANISER_TOKEN: &str = "organiser-token-season";
pub(crate) const JURY_TOKEN: &str = "jury-token-season";

/// One ledgerd (open mode, or with an auth file: [`Ledger::signed`]), with its pages, and the
/// organiser's `ledgerctl`.
pub(crate) struct Ledger {
    /// Held so that ledgerd runs as long as the handle (dropping it kills the process).
    _daemon: Daemon,
    ctl: Ctl,
    /// The organiser's token, when ledgerd has an auth file.
    token: Option<&'static str>,
    /// `127.0.0.1:port` of the pages.
    pub(crate) web: String,
    dir: tempfile::TempDir,
}

impl Ledger {
    async fn open() -> Ledger {
        Ledger::start(&[], None).await
    }

    /// ledgerd with an auth file naming an organiser ([`ORGANISER_TOKEN`]) and a jury member
    /// ([`JURY_TOKEN`]); `ledgerctl` as the organiser.
    pub(crate) async fn signed() -> Ledger {
        let dir = tempfile::tempdir().unwrap();
        let entry = |token: &str, actor: &str, role: &str| serde_json::json!({"sha256": hex::encode(ledger_house::auth::token_digest(token)), "actor": actor, "clearance": role});
        let auth = serde_json::json!({"tokens": [
            entry(ORGANISER_TOKEN, "olga", "organiser"),
            entry(JURY_TOKEN, "jaime", "jury"),
        ]});
        let file = dir.path().join("auth.json");
        std::fs::write(&file, auth.to_string()).unwrap();
        Ledger::start(&["--auth-file", file.to_str().unwrap()], Some(ORGANISER_TOKEN)).await
    }

    async fn start(extra: &[&str], token: Option<&'static str>) -> Ledger {
        let dir = tempfile::tempdir().unwrap();
        let args = [extra, &["--http-listen", "127.0.0.1:0"]].concat();
        let daemon = Daemon::spawn_with(&dir.path().join("data"), &args);
        daemon.connect().await;
        let (url, web) = (format!("http://{}", daemon.addr()), daemon.announced("http").to_owned());
        Ledger { _daemon: daemon, ctl: Ctl { url }, token, web, dir }
    }

    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let Some(token) = self.token else { return self.ctl.ok(args) };
        let full = [&["--server", self.ctl.url.as_str(), "--token", token][..], args].concat();
        let out = crate::support::run_ledgerctl(&full, "");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    fn refused(&self, args: &[&str]) -> String {
        self.ctl.refused(args)
    }

    pub(crate) fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(self.ok(&all).trim()).unwrap()
    }

    /// Appends JSON Lines to a stream.
    pub(crate) fn append(&self, stream: &str, lines: &[String]) {
        let file = self.dir.path().join("append.jsonl");
        std::fs::write(&file, lines.join("\n")).unwrap();
        self.ok(&["append", "--stream", stream, "--file", file.to_str().unwrap()]);
    }

    /// Every stream's version, as `ledgerctl streams` lists them.
    fn versions(&self) -> BTreeMap<String, u64> {
        let listed = self.ok(&["--json", "streams"]);
        listed
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .map(|s| (s["stream"].as_str().unwrap().to_owned(), s["version"].as_u64().unwrap()))
            .collect()
    }

    /// A page's body (status 200 asserted).
    async fn page(&self, path: &str) -> String {
        let mut stream = tokio::net::TcpStream::connect(&self.web).await.unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.web);
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {}", answer.lines().next().unwrap_or_default());
        answer.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap()
    }
}

/// A tournament of the season, as its organiser runs it.
struct Plan {
    id: &'static str,
    ruleset: &'static str,
    players: usize,
    stand_ins: usize,
    /// A player who leaves from a round (a stand-in takes the seats).
    withdrawal: Option<(&'static str, u32)>,
    seed: u64,
}

const SEASON: [Plan; 3] = [
    Plan { id: "wm2015", ruleset: "wm2015", players: 16, stand_ins: 0, withdrawal: None, seed: 2015 },
    Plan { id: "cafe2019", ruleset: "cafe2019", players: 14, stand_ins: 3, withdrawal: Some(("p3", 3)), seed: 2019 },
    Plan { id: "cafe2023", ruleset: "cafe2023", players: 8, stand_ins: 0, withdrawal: None, seed: 2023 },
];

/// A short game whose result follows from `n`: one of three endings with different objectives,
/// so that few players tie.
pub(crate) fn game_lines(n: usize) -> Vec<String> {
    let turns = 3 + n % 7;
    let mut lines = vec![r#"{"type":"game_started","at_ms":0}"#.to_owned()];
    lines.extend((1..=turns).map(|t| format!(r#"{{"type":"turn_started","turn":{t}}}"#)));
    let (a, f) = (n % 13, n % 11);
    lines.push(match n % 3 {
        0 => format!(
            r#"{{"type":"game_ended","outcome":"allied_victory","winners":["france"],"objectives":{{"russia":[{r},10],"sweden":[1,5],"austria":[{a},12],"imperial_army":[2,5],"france":[10,10]}}}}"#,
            r = n % 10
        ),
        1 => format!(
            r#"{{"type":"game_ended","outcome":"prussian_defensive_victory","winners":["prussia"],"objectives":{{"russia":[6,10],"sweden":[1,5],"austria":[{a},12],"imperial_army":[1,5],"france":[{f},10]}}}}"#
        ),
        _ => format!(
            r#"{{"type":"game_ended","outcome":"allied_victory","winners":["russia"],"objectives":{{"russia":[10,10],"sweden":[5,5],"austria":[{a},12],"imperial_army":[5,5],"france":[{f},10]}}}}"#
        ),
    });
    lines
}

/// The games a tournament's draw recorded, by round.
pub(crate) fn drawn_games(ledger: &Ledger, tournament: &str) -> BTreeMap<u32, Vec<String>> {
    let mut rounds: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for line in ledger.ok(&["--json", "read", "--stream", &format!("tournament/{tournament}")]).lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        if record["event"]["type"] == "qualifying_drawn" {
            for game in record["event"]["games"].as_array().unwrap() {
                let round = u32::try_from(game["round"].as_u64().unwrap()).unwrap();
                rounds.entry(round).or_default().push(game["game"].as_str().unwrap().to_owned());
            }
        }
    }
    rounds
}

/// Runs a tournament from creation to its final's end; `played` counts the games of the
/// season so far (each plays out differently).
fn run_tournament(ledger: &Ledger, plan: &Plan, played: &mut usize) {
    let t = plan.id;
    ledger.ok(&["tournament", "create", "--id", t, "--name", &format!("Season {t}"), "--ruleset", plan.ruleset]);
    for n in 1..=plan.players {
        let (player, name, pseudonym) = (format!("p{n}"), format!("Player {n} of {t}"), format!("Fox {n}"));
        let args = ["tournament", "register", "--tournament", t, "--player", &player, "--name", &name];
        ledger.ok(&[&args[..], &["--pseudonym", &pseudonym]].concat());
    }
    for n in 1..=plan.stand_ins {
        let (player, name) = (format!("s{n}"), format!("Stand-in {n}"));
        ledger.ok(&["tournament", "register", "--tournament", t, "--stand-in", "--player", &player, "--name", &name]);
    }
    ledger.ok(&["tournament", "draw", "--tournament", t, "--seed", &plan.seed.to_string()]);
    let rounds = drawn_games(ledger, t);
    assert_eq!(rounds.len(), 4, "{t}: four qualifying rounds");
    for (round, games) in &rounds {
        if let Some((player, from)) = plan.withdrawal.filter(|(_, from)| from == round) {
            ledger.ok(&[
                "tournament",
                "withdraw",
                "--tournament",
                t,
                "--player",
                player,
                "--from-round",
                &from.to_string(),
            ]);
        }
        for game in games {
            assert!(game.starts_with(&format!("{t}-q{round}-t")), "{t}'s game {game} carries its id");
            *played += 1;
            ledger.append(&format!("game/{game}"), &game_lines(*played));
        }
    }
    let standings = ledger.json(&["standings", "--tournament", t]);
    assert_eq!(standings["finalists_settled"], true, "{t}: {}", standings["pending_games"]);
    let finalists: Vec<String> =
        standings["finalists"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_owned()).collect();
    for (player, role) in finalists.iter().zip(["frederick", "elisabeth", "maria_theresa", "pompadour"]) {
        ledger.ok(&["tournament", "final", "choose", "--tournament", t, "--player", player, "--role", role]);
    }
    ledger.ok(&["tournament", "final", "schedule", "--tournament", t]);
    *played += 1;
    ledger.append(&format!("game/{t}-final"), &game_lines(*played));
    let standings = ledger.json(&["standings", "--tournament", t]);
    assert!(standings["final"]["winner"].is_string(), "{t}: {}", standings["final"]);
}

/// Plays an Andes match to its end, through `ledgerctl append` (the ledger derives the rest).
pub(crate) fn run_andes(ledger: &Ledger, id: &str, first_seed: u32) {
    ledger.append(&format!("andes/{id}"), &andes_lines(first_seed));
}

/// A whole Andes match (the first seeded one from `first_seed` that ends both games), as the
/// JSON Lines a table sends: the events the ledger derives left out.
pub(crate) fn andes_lines(first_seed: u32) -> Vec<String> {
    let full = (first_seed..first_seed + 50)
        .map(|seed| seeded_match(seed, 700))
        .find(|events| AndesState::replay(events).is_ok_and(|state| state.is_over()))
        .expect("an aggressive seeded match ends both games");
    full.into_iter()
        .filter(|e| !e.is_derived())
        .map(|e| ledger::event::to_canonical_json(&Event::Andes(e)).to_string())
        .collect()
}

/// What a ledger shows of a tournament, with the positions (which differ between ledgers) taken
/// out: standings private and public, as JSON and text; the board and the paper's standings.
async fn shown(ledger: &Ledger, t: &str) -> Vec<String> {
    let mut out = Vec::new();
    for extra in [&[][..], &["--public"]] {
        let mut args = vec!["standings", "--tournament", t];
        args.extend_from_slice(extra);
        let mut json = ledger.json(&args);
        json.as_object_mut().unwrap().remove("as_of_position");
        out.push(json.to_string());
        out.push(ledger.ok(&args));
    }
    let live = regex_free_positions(&ledger.page(&format!("/board/{t}")).await);
    out.push(live);
    out.push(ledger.page(&format!("/paper/{t}/standings")).await);
    out
}

/// The board's live link names the next position (`from=N`): blanked, the rest kept.
fn regex_free_positions(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find("from=") {
        out.push_str(&rest[..at + 5]);
        rest = rest[at + 5..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('N');
    }
    out.push_str(rest);
    out
}

/// The role and nation counts of a `stats roles` answer.
fn counts(stats: &Value) -> BTreeMap<String, (u64, u64)> {
    let mut out = BTreeMap::new();
    for family in ["roles", "nations"] {
        for (name, line) in stats[family].as_object().unwrap() {
            out.insert(format!("{family}.{name}"), (line["games"].as_u64().unwrap(), line["wins"].as_u64().unwrap()));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_season_of_three_tournaments_and_two_andes_matches_on_one_ledger() {
    let season = Ledger::open().await;
    let season = tokio::task::spawn_blocking(move || {
        let mut played = 0;
        for plan in &SEASON {
            run_tournament(&season, plan, &mut played);
        }
        run_andes(&season, "cup-1", 0);
        run_andes(&season, "cup-2", 100);
        season
    })
    .await
    .unwrap();

    // No game stream is scheduled by two tournaments, and every game carries its tournament's id.
    let export = tokio::task::block_in_place(|| season.ok(&["export"]));
    let mut owners: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in export.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let stream = record["stream"].as_str().unwrap().to_owned();
        let event = &record["event"];
        let games: Vec<String> = match event["type"].as_str().unwrap() {
            "qualifying_drawn" => event["games"].as_array().unwrap().iter().map(|g| g["game"].to_string()).collect(),
            "game_scheduled" => vec![event["game"].to_string()],
            _ => continue,
        };
        for game in games {
            owners.entry(game.trim_matches('"').to_owned()).or_default().insert(stream.clone());
        }
    }
    assert_eq!(owners.len(), 16 + 16 + 8 + 3, "{owners:?}");
    for (game, by) in &owners {
        assert_eq!(by.len(), 1, "{game} is scheduled by {by:?}");
        let tournament = by.iter().next().unwrap().trim_start_matches("tournament/");
        assert!(game.starts_with(&format!("{tournament}-")), "{game} of {tournament}");
    }

    // Each tournament alone on a fresh ledger (its own lines of the export) shows the same.
    for plan in &SEASON {
        let t = plan.id;
        let alone = Ledger::open().await;
        let own: Vec<&str> = export
            .lines()
            .filter(|line| {
                let stream = serde_json::from_str::<Value>(line).unwrap()["stream"].as_str().unwrap().to_owned();
                stream == format!("tournament/{t}") || stream.starts_with(&format!("game/{t}-"))
            })
            .collect();
        let file = alone.dir.path().join("alone.jsonl");
        std::fs::write(&file, own.join("\n")).unwrap();
        tokio::task::block_in_place(|| alone.ok(&["import", "--file", file.to_str().unwrap()]));
        let (in_season, by_itself) = (shown(&season, t).await, shown(&alone, t).await);
        for (n, (a, b)) in in_season.iter().zip(&by_itself).enumerate() {
            assert_eq!(a, b, "{t}: view {n} differs in the season and alone");
        }
        drop(alone);
    }

    // The statistics over the season are the sum of the three tournaments'.
    tokio::task::block_in_place(|| {
        let whole = counts(&season.json(&["stats", "roles"]));
        let mut summed: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for plan in &SEASON {
            for (key, (games, wins)) in counts(&season.json(&["stats", "roles", "--tournament", plan.id])) {
                let sum = summed.entry(key).or_default();
                *sum = (sum.0 + games, sum.1 + wins);
            }
        }
        assert_eq!(whole, summed);
        assert_eq!(whole["roles.frederick"].0, 16 + 16 + 8 + 3, "every game ended and counted once");
        // Filtered by ruleset, each holds exactly its tournament.
        for plan in &SEASON {
            let by_ruleset = counts(&season.json(&["stats", "roles", "--ruleset", plan.ruleset]));
            assert_eq!(by_ruleset, counts(&season.json(&["stats", "roles", "--tournament", plan.id])), "{}", plan.id);
        }
        // The Andes matches ended too, beside the tournaments.
        for id in ["cup-1", "cup-2"] {
            let score = season.ok(&["andes", "score", id]);
            assert!(!score.trim().is_empty(), "{id}");
        }
    });
    drop(season);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_taken_stream_is_refused_a_pseudonym_twice_too_and_a_registration_taken_back_is_not_drawn() {
    let ledger = Ledger::open().await;
    tokio::task::spawn_blocking(move || {
        ledger.ok(&["import", "--file", OPEN26]);
        ledger.ok(&["tournament", "create", "--id", "cup", "--name", "Cup", "--ruleset", "cafe2023"]);
        for n in 1..=4 {
            let (player, pseudonym) = (format!("p{n}"), format!("Zorro {n}"));
            let args = ["tournament", "register", "--tournament", "cup", "--player", &player, "--name", &player];
            ledger.ok(&[&args[..], &["--pseudonym", &pseudonym]].concat());
        }
        let before = ledger.versions();
        // A second Zorro 1, whatever its letter case.
        let twice = ledger.refused(&[
            "tournament", "register", "--tournament", "cup", "--player", "p5", "--name", "P5", "--pseudonym", "zorro 1",
        ]);
        assert!(twice.ends_with("the pseudonym Zorro 1 is already p1's in this tournament: choose another"), "{twice}");
        // A draw named as drawn before issue 32 would take Open 2026's games.
        let players: Vec<String> = (1..=4).map(|n| format!("p{n}")).collect();
        let legacy = ledger::draw::draw_qualifying(&players, 9).unwrap();
        let line = ledger::event::to_canonical_json(&legacy.to_event()).to_string();
        let file = ledger.dir.path().join("legacy-draw.jsonl");
        std::fs::write(&file, line).unwrap();
        let taken = ledger.refused(&["append", "--stream", "tournament/cup", "--file", file.to_str().unwrap()]);
        assert!(
            taken.contains("game q1-t1 belongs to tournament/open26: each tournament schedules games of its own, named after it (cup-…)"),
            "{taken}"
        );
        // A schedule onto Open 2026's game, or onto a friendly already played.
        let seats = ["--frederick", "p1", "--elisabeth", "p2", "--maria-theresa", "p3", "--pompadour", "p4"];
        let schedule = |game: &str| {
            let args = ["tournament", "schedule", "--tournament", "cup", "--game", game, "--round", "1", "--table", "9"];
            ledger.refused(&[&args[..], &seats].concat())
        };
        assert!(schedule("game/q2-t2").ends_with("game q2-t2 belongs to tournament/open26: each tournament schedules games of its own, named after it (cup-…)"));
        assert_eq!(ledger.versions(), before, "nothing was stored");
        ledger.append("game/friendly", &[r#"{"type":"game_started","at_ms":0,"ruleset":"cafe2023"}"#.to_owned()]);
        let played = schedule("game/friendly");
        assert!(
            played.ends_with("game friendly already holds 1 event, started as a cafe2023 game: a tournament schedules only a game not yet played"),
            "{played}"
        );
        // A registration made in error is taken back and not drawn; its pseudonym is free again.
        ledger.ok(&["tournament", "register", "--tournament", "cup", "--player", "oops", "--name", "Oops", "--pseudonym", "Zorro 9"]);
        ledger.ok(&["tournament", "unregister", "--tournament", "cup", "--player", "oops"]);
        let ghost = ledger.refused(&["tournament", "unregister", "--tournament", "cup", "--player", "ghost"]);
        assert!(ghost.ends_with("ghost is not registered"), "{ghost}");
        let drawn = ledger.ok(&["--json", "tournament", "draw", "--tournament", "cup", "--seed", "9"]);
        assert!(!drawn.contains("oops"), "{drawn}");
        assert!(drawn.contains("\"cup-q1-t1\""), "{drawn}");
        assert!(ledger.ok(&["draw", "verify", "--tournament", "cup"]).starts_with("ok: "));
        let late = ledger.refused(&["tournament", "unregister", "--tournament", "cup", "--player", "p1"]);
        assert!(late.ends_with("p1 already sits in game cup-q1-t1: after the draw a registration stays; p1 withdraws instead"), "{late}");
        // Open 2026, drawn by hand under the old names, is untouched: its standings and games.
        let open26 = ledger.json(&["standings", "--tournament", "open26"]);
        assert_eq!(open26["finalists"], serde_json::json!(["cai", "hal", "eli", "ana"]));
    })
    .await
    .unwrap();
}
