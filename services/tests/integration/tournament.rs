//! Organisers run a tournament with `ledgerctl`: create, register, draw (recomputable by the
//! jury), the final's role choices in rank order, the final seated as chosen, and its winner.

use crate::support::TestServer;
use std::process::{Command, Output};

const TOURNAMENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");

/// `ledgerctl` as an organiser of the ledgerd at `url`.
pub(crate) struct Ctl {
    pub(crate) url: String,
}

impl Ctl {
    pub(crate) fn run(&self, args: &[&str]) -> Output {
        let mut full = vec!["--server", &self.url, "--clearance", "organiser"];
        full.extend_from_slice(args);
        Command::new(env!("CARGO_BIN_EXE_ledgerctl")).args(&full).output().unwrap()
    }

    pub(crate) fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    pub(crate) fn refused(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?} should be refused: {}", String::from_utf8_lossy(&out.stdout));
        String::from_utf8(out.stderr).unwrap().trim().to_owned()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_register_draw_and_verify() {
    let server = TestServer::start().await;
    let ctl = Ctl { url: format!("http://{}", server.addr) };
    tokio::task::spawn_blocking(move || {
        ctl.ok(&["tournament", "create", "--id", "wm26", "--name", "WM 2026", "--ruleset", "wm2015"]);
        for n in 1..=18 {
            let (player, name) = (format!("p{n}"), format!("Player {n}"));
            ctl.ok(&["tournament", "register", "--tournament", "wm26", "--player", &player, "--name", &name]);
        }
        let odd = ctl.refused(&["tournament", "draw", "--tournament", "wm26", "--seed", "42"]);
        assert_eq!(odd, "FAILED_PRECONDITION: a qualifying draw of 18 players needs 2 stand-ins to fill its tables, but 0 are registered");
        for n in 19..=20 {
            let (player, name) = (format!("p{n}"), format!("Player {n}"));
            ctl.ok(&["tournament", "register", "--tournament", "wm26", "--player", &player, "--name", &name]);
        }
        let dry = ctl.ok(&["--json", "tournament", "draw", "--tournament", "wm26", "--seed", "42", "--dry-run"]);
        let dry: serde_json::Value = serde_json::from_str(dry.lines().next().unwrap()).unwrap();
        assert_eq!(dry["event"]["games"].as_array().unwrap().len(), 20);
        assert_eq!(dry["repeats"].as_array().unwrap().len(), 0);
        let refused_verify = ctl.refused(&["draw", "verify", "--tournament", "wm26"]);
        assert_eq!(refused_verify, "tournament/wm26 has no recorded qualifying draw");
        let shown = ctl.ok(&["tournament", "draw", "--tournament", "wm26", "--seed", "42"]);
        assert!(shown.contains("no two players share a table twice"), "{shown}");
        // The same seed gives the same draw: the recorded one matches the dry run.
        let verified = ctl.ok(&["draw", "verify", "--tournament", "wm26"]);
        assert!(verified
            .starts_with("ok: the recorded draw is the draw of seed 42 for the 20 registered players (20 games)"));
        let again = ctl.refused(&["tournament", "draw", "--tournament", "wm26", "--seed", "43"]);
        assert!(again.ends_with("the qualifying draw was already recorded"), "{again}");
    })
    .await
    .unwrap();
    server.stop().await;
}

/// Issue 24: 18 players and the stand-ins registered as such (`register --stand-in`): the draw
/// says how many it needs and seats them, `draw verify` recomputes it online and from an
/// export, and a stand-in cannot choose a final role.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eighteen_players_are_drawn_with_two_stand_ins_and_the_draw_verifies() {
    let server = TestServer::start().await;
    let ctl = Ctl { url: format!("http://{}", server.addr) };
    tokio::task::spawn_blocking(move || {
        ctl.ok(&["tournament", "create", "--id", "open", "--name", "Open", "--ruleset", "cafe2023"]);
        for n in 1..=18 {
            let (player, name) = (format!("p{n}"), format!("Player {n}"));
            ctl.ok(&["tournament", "register", "--tournament", "open", "--player", &player, "--name", &name]);
        }
        let register_stand_in = |id: &str| {
            ctl.ok(&[
                "tournament",
                "register",
                "--tournament",
                "open",
                "--stand-in",
                "--player",
                id,
                "--name",
                "Richard",
            ])
        };
        register_stand_in("designer");
        let short = ctl.refused(&["tournament", "draw", "--tournament", "open", "--seed", "7"]);
        assert_eq!(short, "FAILED_PRECONDITION: a qualifying draw of 18 players needs 2 stand-ins to fill its tables, but 1 is registered");
        let twice =
            ctl.refused(&["tournament", "register", "--tournament", "open", "--player", "designer", "--name", "R"]);
        assert!(
            twice.ends_with("FAILED_PRECONDITION: designer is already registered as a stand-in (Richard)"),
            "{twice}"
        );
        register_stand_in("stand-in-2");
        register_stand_in("stand-in-3");
        let shown = ctl.ok(&["tournament", "draw", "--tournament", "open", "--seed", "7"]);
        assert!(shown.contains("2 stand-ins needed to fill the tables: designer, stand-in-2"), "{shown}");
        assert!(shown.contains("no two players share a table twice"), "{shown}");
        assert!(!shown.contains("stand-in-3"), "only the stand-ins needed are seated: {shown}");
        let verified = ctl.ok(&["draw", "verify", "--tournament", "open"]);
        assert!(
            verified.starts_with(
                "ok: the recorded draw is the draw of seed 7 for the 18 registered players and 2 stand-ins (20 games)"
            ),
            "{verified}"
        );
        let export = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(export.path(), ctl.ok(&["export"])).unwrap();
        let offline = ctl.ok(&["draw", "verify", "--tournament", "open", "--file", export.path().to_str().unwrap()]);
        assert_eq!(offline, verified, "offline from the export as online");
        let json = ctl.ok(&["--json", "draw", "verify", "--tournament", "open"]);
        let json: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        assert_eq!(json["stand_ins"], serde_json::json!(["designer", "stand-in-2"]));
        // p1 leaves after round 2: the one stand-in free in rounds 3 and 4 takes its seats.
        let withdrew =
            ctl.ok(&["tournament", "withdraw", "--tournament", "open", "--player", "p1", "--from-round", "3"]);
        assert!(withdrew.starts_with("stand-in-3 takes p1's seat in open-q3-t"), "{withdrew}");
        assert!(
            ctl.ok(&["draw", "verify", "--tournament", "open"]).starts_with("ok: "),
            "the recorded draw still verifies"
        );
        let busy = ctl.refused(&[
            "tournament",
            "withdraw",
            "--tournament",
            "open",
            "--player",
            "p2",
            "--from-round",
            "4",
            "--stand-in",
            "designer",
        ]);
        assert!(busy.contains("designer already plays in round 4"), "{busy}");
        // Nobody ranks a stand-in, under their ids or under pseudonyms.
        for args in [
            &["--json", "standings", "--tournament", "open"][..],
            &["--json", "standings", "--tournament", "open", "--public"],
        ] {
            let standings: serde_json::Value = serde_json::from_str(ctl.ok(args).trim()).unwrap();
            let rows: Vec<&str> =
                standings["rows"].as_array().unwrap().iter().map(|r| r["player"].as_str().unwrap()).collect();
            assert_eq!(rows.len(), 18, "{args:?}: {rows:?}");
            assert!(
                rows.iter().all(|p| !p.contains("stand-in") && *p != "designer" && !p.contains("unregistered")),
                "{rows:?}"
            );
        }
        let chosen = ctl.refused(&[
            "tournament",
            "final",
            "choose",
            "--tournament",
            "open",
            "--player",
            "designer",
            "--role",
            "pompadour",
        ]);
        assert!(
            chosen.ends_with("designer is a stand-in: stand-ins are not ranked and never reach the final"),
            "{chosen}"
        );
    })
    .await
    .unwrap();
    server.stop().await;
}

/// Issue 24: in the played Open 2026, a withdrawal cannot hand a started game to a stand-in;
/// cai, first finalist, chooses a role and then withdraws before the final: its row says so,
/// its games still count, the fifth in rank becomes a finalist, its role is free again, and the
/// standings online and offline from the export are byte-identical.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finalist_withdraws_and_the_next_in_rank_takes_the_place_online_and_offline_alike() {
    let server = TestServer::start().await;
    let ctl = Ctl { url: format!("http://{}", server.addr) };
    tokio::task::spawn_blocking(move || {
        ctl.ok(&["import", "--file", TOURNAMENT]);
        let standings_json = |extra: &[&str]| -> serde_json::Value {
            let mut args = vec!["--json", "standings", "--tournament", "open26"];
            args.extend_from_slice(extra);
            serde_json::from_str(ctl.ok(&args).trim()).unwrap()
        };
        let before = standings_json(&[]);
        assert_eq!(before["finalists"], serde_json::json!(["cai", "hal", "eli", "ana"]));
        let fifth = before["rows"][4]["player"].as_str().unwrap().to_owned();
        ctl.ok(&[
            "tournament",
            "register",
            "--tournament",
            "open26",
            "--stand-in",
            "--player",
            "designer",
            "--name",
            "Richard",
        ]);
        let started =
            ctl.refused(&["tournament", "withdraw", "--tournament", "open26", "--player", "cai", "--from-round", "3"]);
        assert!(started.contains("game q3-t1 has already started"), "{started}");
        let choose = |player: &str, role: &str| {
            ctl.run(&["tournament", "final", "choose", "--tournament", "open26", "--player", player, "--role", role])
        };
        assert!(choose("cai", "pompadour").status.success());
        ctl.ok(&["tournament", "withdraw", "--tournament", "open26", "--player", "cai", "--from-round", "5"]);
        let after = standings_json(&[]);
        assert_eq!(after["finalists"], serde_json::json!(["hal", "eli", "ana", fifth]));
        let cai = after["rows"].as_array().unwrap().iter().find(|r| r["player"] == "cai").unwrap();
        assert_eq!((cai["withdrawn"].as_u64(), cai["games_counted"].as_u64()), (Some(5), Some(4)));
        assert_eq!(cai["total_exact"], before["rows"][0]["total_exact"], "its games all count");
        let again = ctl.refused(&[
            "tournament",
            "final",
            "choose",
            "--tournament",
            "open26",
            "--player",
            "cai",
            "--role",
            "frederick",
        ]);
        assert!(
            again.ends_with("cai withdrew (from round 5): the next in rank takes the place in the final"),
            "{again}"
        );
        // Pompadour is free again, and hal (now first) chooses first.
        assert!(
            choose("hal", "pompadour").status.success(),
            "{}",
            String::from_utf8_lossy(&choose("hal", "pompadour").stderr)
        );
        let export = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(export.path(), ctl.ok(&["export"])).unwrap();
        let file = export.path().to_str().unwrap();
        for extra in [&[][..], &["--json"], &["--public"], &["--json", "--public"]] {
            let mut online = vec!["standings", "--tournament", "open26"];
            online.extend_from_slice(extra);
            let mut offline = online.clone();
            offline.extend_from_slice(&["--file", file]);
            let (online, offline) = (ctl.ok(&online), ctl.ok(&offline));
            assert_eq!(online, offline, "{extra:?}: online and offline alike");
            assert!(online.contains("withdrawn"), "{extra:?}: {online}");
        }
    })
    .await
    .unwrap();
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finalists_choose_in_rank_order_and_the_final_has_a_winner() {
    let server = TestServer::start().await;
    let ctl = Ctl { url: format!("http://{}", server.addr) };
    let ctl = tokio::task::spawn_blocking(move || {
        // Before any game has ended, nobody may choose.
        let (first_lines, rest): (Vec<&str>, Vec<&str>) = {
            let text: &'static str = Box::leak(std::fs::read_to_string(TOURNAMENT).unwrap().into_boxed_str());
            text.lines().partition(|l| l.contains("\"stream\":\"tournament/"))
        };
        let tournament_only = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(tournament_only.path(), first_lines.join("\n")).unwrap();
        ctl.ok(&["import", "--file", tournament_only.path().to_str().unwrap()]);
        let early = ctl.refused(&["tournament", "final", "choose", "--tournament", "open26", "--player", "cai", "--role", "pompadour"]);
        assert!(early.contains("the finalists are not settled yet: qualifying games still open: q1-t1"), "{early}");
        let games = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(games.path(), rest.join("\n")).unwrap();
        ctl.ok(&["import", "--file", games.path().to_str().unwrap()]);
        // Standings: cai, hal, eli, ana are the finalists, in that order.
        let choose = |player: &'static str, role: &'static str| -> Vec<&'static str> {
            vec!["tournament", "final", "choose", "--tournament", "open26", "--player", player, "--role", role]
        };
        let hal_first = ctl.refused(&choose("hal", "pompadour"));
        assert_eq!(hal_first, "line 1: FAILED_PRECONDITION: the finalists choose in rank order: cai (rank 1) chooses next, not hal");
        let outsider = ctl.refused(&choose("gus", "pompadour"));
        assert!(outsider.ends_with("gus is not a finalist: the final is played by cai, hal, eli, ana"), "{outsider}");
        ctl.ok(&choose("cai", "pompadour"));
        let taken = ctl.refused(&choose("hal", "pompadour"));
        assert!(taken.ends_with("pompadour was already chosen by cai"), "{taken}");
        let early_schedule = ctl.refused(&["tournament", "final", "schedule", "--tournament", "open26"]);
        assert!(early_schedule.contains("no finalist has chosen frederick yet"), "{early_schedule}");
        ctl.ok(&choose("hal", "elisabeth"));
        ctl.ok(&choose("eli", "frederick"));
        ctl.ok(&choose("ana", "maria_theresa"));
        ctl.ok(&["tournament", "final", "schedule", "--tournament", "open26"]);
        // A final seated otherwise is refused.
        let wrong = ctl.refused(&[
            "tournament", "schedule", "--tournament", "open26", "--game", "final2", "--stage", "final", "--round", "5",
            "--table", "2", "--frederick", "ana", "--elisabeth", "hal", "--maria-theresa", "eli", "--pompadour", "cai",
        ]);
        assert!(wrong.ends_with("the final seats ana as frederick, but eli chose frederick"), "{wrong}");
        // The final: France (cai, Pompadour) wins in turn 9.
        let final_game = [
            r#"{"type":"game_started","at_ms":0}"#.to_owned(),
            (1..=9).map(|t| format!(r#"{{"type":"turn_started","turn":{t}}}"#)).collect::<Vec<_>>().join("\n"),
            r#"{"type":"game_ended","outcome":"allied_victory","winners":["france"],"objectives":{"russia":[4,10],"sweden":[1,5],"austria":[6,12],"imperial_army":[2,5],"france":[10,10]}}"#.to_owned(),
        ]
        .join("\n");
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), final_game).unwrap();
        ctl.ok(&["append", "--stream", "game/open26-final", "--file", file.path().to_str().unwrap()]);
        let standings = ctl.ok(&["--json", "standings", "--tournament", "open26"]);
        let standings: serde_json::Value = serde_json::from_str(standings.trim()).unwrap();
        assert_eq!(standings["final"]["winner"], "cai", "{}", standings["final"]);
        ctl
    })
    .await
    .unwrap();
    // The export restores the whole tournament elsewhere: import replays it in position order,
    // so the games come before the final's choices and every check passes again.
    let restored = TestServer::start().await;
    let copy = Ctl { url: format!("http://{}", restored.addr) };
    tokio::task::spawn_blocking(move || {
        let export = ctl.ok(&["export"]);
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), &export).unwrap();
        copy.ok(&["import", "--file", file.path().to_str().unwrap()]);
        let standings = |c: &Ctl| c.ok(&["--json", "standings", "--tournament", "open26"]);
        assert_eq!(standings(&copy), standings(&ctl));
    })
    .await
    .unwrap();
    restored.stop().await;
    server.stop().await;
}
