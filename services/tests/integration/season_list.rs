//! The season on one ledger (issue 32): three tournaments in different states and an Andes
//! match on a real `ledgerd --http-listen`, listed newest first, with where each stands, by
//! `ledgerctl tournament list` (text and `--json`, online and from a file) and by the front page
//! in both languages — over plain HTTP for the public and in Chromium, at a phone's and a
//! laptop's width (screenshots in `/tmp/season-*.png`).

use crate::languages::{says, Site, ANALYST_TOKEN, ORGANISER_TOKEN};
use crate::support::run_ledgerctl;
use crate::web::{browser_binaries, click, eventually, js, sign_in, Driver, TABLE_TOKEN};
use serde_json::{json, Value};
use std::time::Duration;

/// The open26 example (all four qualifying rounds played, no final yet), then `cup` drawn by
/// hand (its games named after it, none started), then `spring` still registering, then the
/// Andes match `w1` in its first game.
async fn season() -> Site {
    let mut site = Site::open().await;
    let open26 = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");
    site.ledgerctl(ORGANISER_TOKEN, &["import", "--file", open26]).await;
    let organiser = |args: &[&str]| args.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>();
    let mut commands =
        vec![organiser(&["tournament", "create", "--id", "cup", "--name", "Copa de Otoño", "--ruleset", "wm2015"])];
    for player in ["ana", "ben", "cai", "dee"] {
        let name = format!("Player {player}");
        commands.push(organiser(&[
            "tournament",
            "register",
            "--tournament",
            "cup",
            "--player",
            player,
            "--name",
            &name,
        ]));
    }
    for (game, table, seats) in
        [("cup-q1-t1", "1", ["ana", "ben", "cai", "dee"]), ("cup-q2-t1", "1", ["dee", "cai", "ben", "ana"])]
    {
        let round = if game.contains("q1") { "1" } else { "2" };
        let mut args = organiser(&["tournament", "schedule", "--tournament", "cup", "--game", game, "--round", round]);
        args.extend(organiser(&["--table", table, "--frederick", seats[0], "--elisabeth", seats[1]]));
        args.extend(organiser(&["--maria-theresa", seats[2], "--pompadour", seats[3]]));
        commands.push(args);
    }
    commands.push(organiser(&[
        "tournament",
        "create",
        "--id",
        "spring",
        "--name",
        "Spring Cup",
        "--ruleset",
        "cafe2023",
    ]));
    commands.push(organiser(&["tournament", "register", "--tournament", "spring", "--player", "eve", "--name", "Eve"]));
    for args in commands {
        site.ledgerctl(ORGANISER_TOKEN, &args.iter().map(String::as_str).collect::<Vec<_>>()).await;
    }
    site.andes_w1_in_play().await;
    site
}

/// `ledgerctl tournament list` as the public (no token), or with a token.
async fn list(site: &Site, token: Option<&str>, json: bool) -> String {
    let server = format!("http://{}", site.daemon.addr());
    let mut args = vec!["--server".to_owned(), server];
    if let Some(token) = token {
        args.extend(["--token".to_owned(), token.to_owned()]);
    }
    if json {
        args.push("--json".into());
    }
    args.extend(["tournament".into(), "list".into()]);
    let out =
        tokio::task::spawn_blocking(move || run_ledgerctl(&args.iter().map(String::as_str).collect::<Vec<_>>(), ""))
            .await
            .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// `(id, state)` of each tournament of a season's JSON, in its order.
fn states(season: &Value) -> Vec<(String, String)> {
    season["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let id = t["tournament"].as_str().unwrap().trim_start_matches("tournament/").to_owned();
            let state = match &t["round"] {
                Value::Number(round) => format!("round {round}"),
                _ => t["state"].as_str().unwrap().to_owned(),
            };
            (id, state)
        })
        .collect()
}

fn this_year() -> Value {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    json!(replay::stats::year_of_unix_ms(u64::try_from(now.as_millis()).unwrap()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_season_lists_every_tournament_and_match_newest_first_with_where_each_stands() {
    let mut site = season().await;
    let expected = [("spring", "registering"), ("cup", "drawn"), ("open26", "final")];
    let expected: Vec<(String, String)> = expected.iter().map(|(i, s)| ((*i).to_owned(), (*s).to_owned())).collect();

    // The JSON: newest first, the states, players, years; the Andes match for an analyst only.
    let analyst: Value = serde_json::from_str(&list(&site, Some(ANALYST_TOKEN), true).await).unwrap();
    assert_eq!(states(&analyst), expected, "{analyst}");
    let tournaments = analyst["tournaments"].as_array().unwrap();
    let column = |key: &str| tournaments.iter().map(|t| t[key].clone()).collect::<Vec<_>>();
    assert_eq!(column("name"), [json!("Spring Cup"), json!("Copa de Otoño"), json!("Friedrich Open 2026")]);
    assert_eq!(column("ruleset"), [json!("cafe2023"), json!("wm2015"), json!("cafe2023")]);
    assert_eq!(column("players")[..2], [json!(1), json!(4)]);
    assert_eq!(column("year"), [this_year(), this_year(), this_year()]);
    let positions: Vec<u64> = column("first_position").iter().map(|p| p.as_u64().unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] > w[1]), "newest first: {positions:?}");
    let andes = &analyst["andes"][0];
    assert_eq!(
        (&andes["match"], &andes["first_sol"], &andes["first_luna"]),
        (&json!("andes/w1"), &json!("ana"), &json!("bruno"))
    );
    assert_eq!((&andes["games_ended"], &andes["status"]), (&json!(0), &json!("in_progress")));
    let public: Value = serde_json::from_str(&list(&site, None, true).await).unwrap();
    assert_eq!(states(&public), expected);
    assert!(public.get("andes").is_none(), "the public sees no Andes players: {public}");

    // The text: the same order and states, a table a person reads.
    let text = list(&site, Some(ANALYST_TOKEN), false).await;
    let rows: Vec<&str> = text.lines().collect();
    assert!(rows[0].starts_with("tournament") && rows[0].ends_with("state"), "{text}");
    for ((id, state), row) in expected.iter().zip(&rows[1..4]) {
        assert!(row.starts_with(id.as_str()) && row.ends_with(state.as_str()), "{row:?} is not {id} {state}:\n{text}");
    }
    assert!(text.contains("ana – bruno") && text.contains("in progress"), "{text}");

    // Offline, from the example file: the same facade, the same state.
    let open26 = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");
    let out = run_ledgerctl(&["--json", "tournament", "list", "--file", open26], "");
    let offline: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(states(&offline), [("open26".to_owned(), "final".to_owned())]);

    // The front page over HTTP in both languages, for the public: the tournaments, no Andes.
    let (en, es) = says(
        &site,
        "/",
        None,
        200,
        &[">registering<", ">drawn, not started<", ">Ruleset<"],
        &[">inscripción<", ">sorteado, sin empezar<", ">Reglamento<"],
    )
    .await;
    for page in [&en, &es] {
        assert!(page.contains(">Spring Cup<") && page.contains(">Copa de Otoño<") && page.contains(">CAFE 2023<"));
        let spring = page.find("data-tournament=\"spring\"").unwrap();
        let (cup, open) =
            (page.find("data-tournament=\"cup\"").unwrap(), page.find("data-tournament=\"open26\"").unwrap());
        assert!(spring < cup && cup < open, "newest first");
        assert!(!page.contains("season-andes") && !page.contains("/paper/"), "the public sees no matches, no paper");
    }

    // A game of cup starts: cup is in its first round.
    let started = json!({"type": "game_started", "at_ms": 0});
    site.append("game/cup-q1-t1", TABLE_TOKEN, &[started], "cup-start-").await;
    let now: Value = serde_json::from_str(&list(&site, None, true).await).unwrap();
    assert_eq!(states(&now)[1], ("cup".to_owned(), "round 1".to_owned()));

    in_chromium(&site).await;
}

/// The front page in Chromium as the organiser, at a phone's and a laptop's width, in English
/// then Spanish (by its switch): the rows newest first with their states, the paper links, the
/// Andes match; screenshots in `/tmp/season-<width>-<lang>.png` (and `…-andes.png`, scrolled to the
/// matches).
async fn in_chromium(site: &Site) {
    let Some((chromium, chromedriver)) = browser_binaries() else {
        let message = "\n\n*** season browser test SKIPPED: no chromium/chromedriver ***\n";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}under CI=true the browser is required");
        eprintln!("{message}");
        return;
    };
    let driver = Driver::start(chromium, &chromedriver);
    for (width, height, name) in [(390, 844, "phone"), (1280, 800, "laptop")] {
        let browser =
            if name == "phone" { driver.phone(width, height).await } else { driver.browser(width, height).await };
        sign_in(&browser, &format!("http://{}", site.http), ORGANISER_TOKEN, "/").await;
        let shown = js(&browser, "return window.innerWidth;").await;
        assert_eq!(shown, json!(width), "{name}: the page's width");
        for (lang, states) in [("en", ["registering", "round 1", "final"]), ("es", ["inscripción", "ronda 1", "final"])]
        {
            if lang == "es" {
                click(&browser, "#lang-switch").await;
                eventually("the page in Spanish", Duration::from_secs(10), || async {
                    (js(&browser, "return document.documentElement.lang;").await == json!("es")).then_some(())
                })
                .await;
            }
            let rows = js(
                &browser,
                "return Array.from(document.querySelectorAll('#season-tournaments tbody tr'))\
                 .map(r => [r.dataset.tournament, r.querySelector('td.state').textContent, \
                            r.querySelectorAll('a[href^=\"/paper/\"]').length]);",
            )
            .await;
            let want: Vec<Value> =
                ["spring", "cup", "open26"].iter().zip(states).map(|(id, s)| json!([id, s, 1])).collect();
            assert_eq!(rows, json!(want), "{name} {lang}");
            let andes =
                js(&browser, "return document.querySelector('#season-andes tr[data-match=\"w1\"]')?.textContent;")
                    .await;
            assert!(andes.as_str().is_some_and(|t| t.contains("ana – bruno")), "{name} {lang}: {andes}");
            // Nothing wider than the screen: a phone stacks the rows, it does not scroll sideways.
            let overflow = js(&browser, "return document.documentElement.scrollWidth - window.innerWidth;").await;
            assert!(overflow.as_i64().is_some_and(|o| o <= 0), "{name} {lang}: the page is {overflow} px too wide");
            let path = format!("/tmp/season-{name}-{lang}.png");
            js(&browser, "window.scrollTo(0, 0); return null;").await;
            std::fs::write(&path, browser.screenshot().await.unwrap()).unwrap();
            js(&browser, "document.getElementById('season-andes').scrollIntoView(); return null;").await;
            std::fs::write(path.replace(".png", "-andes.png"), browser.screenshot().await.unwrap()).unwrap();
        }
        browser.close().await.unwrap();
    }
}
