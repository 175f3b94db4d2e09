//! Issue 33, "every player has a page", on a real ledgerd with an auth file: two tournaments and
//! an Andes match on one ledger. The organiser's list gives each player a personal link; a
//! player's link shows their table now and their next games under pseudonyms only (no real name
//! registered anywhere on the ledger appears in the page), follows their game in Chromium as it
//! starts and ends, and a wrong code is a clear "not found" in both languages. The public
//! pairings are alphabetical by pseudonym and are the draw's seats. Screenshots at 390x844.

use crate::daemon::Daemon;
use crate::season::{andes_lines, game_lines};
use crate::table::skip_without_browser;
use crate::web::{eventually, js, screenshot, Driver};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const ORGANISER: &str = "players-organiser-token";
const JURY: &str = "players-jury-token";

/// Tournament `cafe26`: seven players (pseudonyms of mixed case, to sort) and one stand-in.
const PLAYERS: [(&str, &str, &str); 7] = [
    ("p1", "Ana Real Uno", "zorro"),
    ("p2", "Bruno Real Dos", "Alba"),
    ("p3", "Carla Real Tres", "mika"),
    ("p4", "Dario Real Cuatro", "Bear"),
    ("p5", "Elena Real Cinco", "kite"),
    ("p6", "Fabio Real Seis", "Owl"),
    ("p7", "Gala Real Siete", "cobra"),
];

struct Ledger {
    daemon: Daemon,
    server: String,
    web: String,
    dir: tempfile::TempDir,
}

impl Ledger {
    fn ctl(&self, token: &str, args: &[&str]) -> String {
        let mut full = vec!["--server", &self.server, "--token", token];
        full.extend_from_slice(args);
        let out = crate::support::run_ledgerctl(&full, "");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        self.ctl(ORGANISER, args)
    }

    fn append(&self, stream: &str, lines: &[String]) {
        let file = self.dir.path().join("append.jsonl");
        std::fs::write(&file, lines.join("\n")).unwrap();
        self.ok(&["append", "--stream", stream, "--file", file.to_str().unwrap()]);
    }

    /// A tournament stream's events, as the jury reads them.
    fn events(&self, tournament: &str) -> Vec<Value> {
        let read = self.ctl(JURY, &["--json", "read", "--stream", &format!("tournament/{tournament}")]);
        read.lines().map(|line| serde_json::from_str::<Value>(line).unwrap()["event"].clone()).collect()
    }
}

/// An answer's status and body, asked with `headers` (`Name: value` lines).
async fn get(web: &str, path: &str, headers: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(web).await.unwrap();
    let ask = format!("GET {path} HTTP/1.1\r\nHost: {web}\r\nConnection: close\r\n{headers}\r\n");
    stream.write_all(ask.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split_once("\r\n\r\n").map(|(_, body)| body.to_owned()).unwrap_or_default();
    (status, body)
}

/// A page's body, status 200 asserted.
async fn page(web: &str, path: &str, headers: &str) -> String {
    let (status, body) = get(web, path, headers).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

/// The organiser's cookie, as the sign-in form sets it (the token's bytes in hex).
fn organiser_cookie() -> String {
    format!("Cookie: ledger_token={}\r\n", hex::encode(ORGANISER))
}

async fn start() -> Ledger {
    let dir = tempfile::tempdir().unwrap();
    let auth_file = dir.path().join("auth.json");
    let entry = |token, actor, role| ledger_house::auth::file::entry(token, actor, role);
    let tokens = [
        entry(ORGANISER, "olga", ledger_house::auth::Role::Organiser),
        entry(JURY, "jana", ledger_house::auth::Role::Jury),
    ];
    std::fs::write(&auth_file, json!({ "tokens": tokens }).to_string()).unwrap();
    let daemon = ledgerd(dir.path()).await;
    let (server, web) = (format!("http://{}", daemon.addr()), daemon.announced("http").to_owned());
    Ledger { daemon, server, web, dir }
}

/// ledgerd on the data and auth file in `dir`, with its pages.
async fn ledgerd(dir: &std::path::Path) -> Daemon {
    let auth_file = dir.join("auth.json");
    let daemon = Daemon::spawn_with(
        &dir.join("data"),
        &["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
    );
    daemon.connect().await;
    daemon
}

/// The season: `cafe26` (seven players and a stand-in, drawn), `wm26` (four players, drawn,
/// its first game played), and an Andes match played to its end.
fn season(ledger: &Ledger) {
    let t = "cafe26";
    ledger.ok(&["tournament", "create", "--id", t, "--name", "CAFE Open 2026", "--ruleset", "cafe2019"]);
    for (player, name, pseudonym) in PLAYERS {
        let args = ["tournament", "register", "--tournament", t, "--player", player, "--name", name];
        ledger.ok(&[&args[..], &["--pseudonym", pseudonym]].concat());
    }
    ledger.ok(&[
        "tournament",
        "register",
        "--tournament",
        t,
        "--stand-in",
        "--player",
        "s1",
        "--name",
        "Hugo Suplente Real",
    ]);
    ledger.ok(&["tournament", "draw", "--tournament", t, "--seed", "33"]);
    let w = "wm26";
    ledger.ok(&["tournament", "create", "--id", w, "--name", "WM 2026", "--ruleset", "wm2015"]);
    for n in 1..=4 {
        let (player, name, pseudonym) = (format!("w{n}"), format!("Welt Real {n}"), format!("Wolf {n}"));
        ledger.ok(&[
            "tournament",
            "register",
            "--tournament",
            w,
            "--player",
            &player,
            "--name",
            &name,
            "--pseudonym",
            &pseudonym,
        ]);
    }
    ledger.ok(&["tournament", "draw", "--tournament", w, "--seed", "26"]);
    ledger.append("game/wm26-q1-t1", &game_lines(1));
    ledger.append("andes/players-side-event", &andes_lines(1));
}

/// A drawn game: id, round, table, seats by role.
#[derive(Debug, Clone)]
struct Drawn {
    game: String,
    round: u64,
    table: u64,
    seats: BTreeMap<String, String>,
}

fn drawn(events: &[Value]) -> Vec<Drawn> {
    let draw = events.iter().find(|e| e["type"] == "qualifying_drawn").expect("a draw");
    draw["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| Drawn {
            game: g["game"].as_str().unwrap().to_owned(),
            round: g["round"].as_u64().unwrap(),
            table: g["table"].as_u64().unwrap(),
            seats: g["seats"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(r, p)| (r.clone(), p.as_str().unwrap().to_owned()))
                .collect(),
        })
        .collect()
}

/// Every real name registered on the ledger (both tournaments, stand-ins included).
fn real_names(ledger: &Ledger) -> Vec<String> {
    ["cafe26", "wm26"]
        .iter()
        .flat_map(|t| ledger.events(t))
        .filter(|e| e["type"] == "player_registered" || e["type"] == "stand_in_registered")
        .map(|e| e["name"].as_str().unwrap().to_owned())
        .collect()
}

fn assert_names_nobody(html: &str, names: &[String], what: &str) {
    for name in names {
        assert!(!html.contains(name.as_str()), "{what} shows the real name {name}");
    }
}

/// The public name of each player id of cafe26 (the stand-in by its label in English).
fn public_names() -> BTreeMap<String, String> {
    let mut names: BTreeMap<String, String> =
        PLAYERS.iter().map(|(p, _, alias)| ((*p).to_owned(), (*alias).to_owned())).collect();
    names.insert("s1".into(), "stand-in 1".into());
    names
}

/// The value of `attribute` on the element of id `id` in `html`.
fn attribute(html: &str, id: &str, attribute: &str) -> Option<String> {
    let at = html.find(&format!("id=\"{id}\""))?;
    let start = html[..at].rfind('<')?;
    let tag = &html[start..start + html[start..].find('>')?];
    let from = tag.find(&format!(" {attribute}=\""))? + attribute.len() + 3;
    Some(tag[from..from + tag[from..].find('"')?].to_owned())
}

/// Waits until the page in `client` has `count` elements matching `css`.
async fn until_counted(client: &fantoccini::Client, css: &str, count: u64) {
    let script = format!("return document.querySelectorAll({}).length;", json!(css));
    eventually(&format!("{count} of {css}"), Duration::from_secs(10), || {
        let script = &script;
        async move { (js(client, script).await == json!(count)).then_some(()) }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_player_has_a_page_that_names_nobody_and_follows_their_games() {
    let ledger = start().await;
    let ledger = tokio::task::spawn_blocking(move || {
        season(&ledger);
        ledger
    })
    .await
    .unwrap();
    let web = ledger.web.clone();
    let events = ledger.events("cafe26");
    let games = drawn(&events);
    let names = real_names(&ledger);
    assert_eq!(names.len(), 12);

    // The organiser's list: every player and the stand-in, with a link; the public may not see it.
    let (status, _) = get(&web, "/paper/cafe26/players.csv", "").await;
    assert!(status == 401 || status == 403, "the links' list is the organiser's: {status}");
    let csv = page(&web, "/paper/cafe26/players.csv", &organiser_cookie()).await;
    let mut links: BTreeMap<String, String> = BTreeMap::new();
    for line in csv.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let path = fields[3].split_once(&web).unwrap().1.to_owned();
        assert!(path.starts_with("/me/cafe26/") && path.len() == "/me/cafe26/".len() + 16, "{path}");
        links.insert(fields[0].to_owned(), path);
    }
    assert_eq!(links.len(), 8, "{csv}");
    // The key is ledgerd's, kept in its data directory: the same links after a restart.
    let Ledger { daemon, dir, .. } = ledger;
    drop(daemon);
    let daemon = ledgerd(dir.path()).await;
    let (server, web) = (format!("http://{}", daemon.addr()), daemon.announced("http").to_owned());
    let ledger = Ledger { daemon, server, web: web.clone(), dir };
    let again = page(&web, "/paper/cafe26/players.csv", &organiser_cookie()).await;
    let codes =
        |csv: &str| -> Vec<String> { csv.lines().skip(1).map(|l| l.rsplit_once('/').unwrap().1.to_owned()).collect() };
    let (again, before) = (codes(&again), codes(&csv));
    assert_eq!(before.len(), 8);
    assert_eq!(again, before, "a restart keeps every link");
    let key = ledger.dir.path().join("data").join(ledger_house::player_links::KEY_FILE);
    assert_eq!(std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&key).unwrap().permissions()) & 0o777, 0o600);
    let printed = page(&web, "/paper/cafe26/players", &organiser_cookie()).await;
    for (player, link) in &links {
        assert!(printed.contains(&format!("data-player=\"{player}\"")) && printed.contains(link.as_str()), "{player}");
    }
    assert_eq!(printed.matches("<svg").count(), 8, "a QR code per player");

    // p1's page: the round-1 game is theirs now, rounds 2 to 4 next, all under pseudonyms.
    let aliases = public_names();
    let mine: Vec<&Drawn> = {
        let mut mine: Vec<&Drawn> = games.iter().filter(|g| g.seats.values().any(|p| p == "p1")).collect();
        mine.sort_by_key(|g| g.round);
        mine
    };
    assert_eq!(mine.len(), 4);
    let link = &links["p1"];
    let html = page(&web, link, "Accept-Language: en\r\n").await;
    assert_names_nobody(&html, &names, "p1's page");
    let first = mine[0];
    let role = first.seats.iter().find(|(_, p)| *p == "p1").unwrap().0;
    assert_eq!(attribute(&html, "me-now", "data-game").as_deref(), Some(first.game.as_str()));
    assert_eq!(attribute(&html, "me-now", "data-role").as_deref(), Some(role.as_str()));
    assert_eq!(attribute(&html, "me-now", "data-started").as_deref(), Some("false"));
    assert!(html.contains(&format!("Round 1 · Table {}", first.table)), "{html}");
    for (other_role, player) in first.seats.iter().filter(|(_, p)| *p != "p1") {
        let shown = &aliases[player];
        assert!(html.contains(&format!("<strong>{shown}</strong>")), "{other_role}: {shown} missing");
    }
    for later in &mine[1..] {
        assert!(html.contains(&format!("data-game=\"{}\"", later.game)), "next: {}", later.game);
    }
    assert!(html.contains("<h1 id=\"me-who\">zorro</h1>"));
    // The other tournament's players and the Andes match are not this page's.
    assert!(!html.contains("Wolf 1"));

    // A wrong code: not found, said in the reader's language, and nothing about anyone.
    let wrong = format!("/me/cafe26/{}", "0123456789abcdef");
    let (status, english) = get(&web, &wrong, "Accept-Language: en\r\n").await;
    assert_eq!(status, 404);
    assert!(english.contains("This personal link does not belong to any player of tournament cafe26."), "{english}");
    let (status, spanish) = get(&web, &wrong, "Accept-Language: es\r\n").await;
    assert_eq!(status, 404);
    assert!(spanish.contains("Este enlace personal no es de ningún jugador del torneo cafe26."), "{spanish}");
    let elsewhere = format!("/me/wm26/{}", &link["/me/cafe26/".len()..]);
    for (path, what) in [("/me/cafe26/zorro", "a pseudonym"), (elsewhere.as_str(), "another tournament's")] {
        let (status, body) = get(&web, path, "Accept-Language: es\r\n").await;
        assert_eq!(status, 404, "{what}: {path}");
        assert!(body.contains("Este enlace personal no es"), "{what}: {body}");
    }

    // In Spanish, no English word of these pages (the catalogues' English for what they say).
    let english = [
        "Round",
        "Table",
        "My ",
        "with",
        "not started",
        "stand-in",
        "Frederick",
        "Elisabeth",
        "Maria Theresa",
        "Rank",
        "Final",
    ];
    for (path, cookie) in [
        (link.clone(), String::new()),
        ("/pairings/cafe26".to_owned(), String::new()),
        ("/pairings/cafe26/3".to_owned(), String::new()),
        ("/paper/cafe26/players".to_owned(), organiser_cookie()),
    ] {
        let html = page(&web, &path, &format!("Accept-Language: es\r\n{cookie}")).await;
        // What a reader sees: the text between the tags.
        let main = html.split("<main>").nth(1).unwrap();
        let main: String =
            main.split("<style>").map(|part| part.split_once("</style>").map_or(part, |(_, rest)| rest)).collect();
        let text: String = main.split('<').map(|part| part.split_once('>').map_or(part, |(_, text)| text)).collect();
        for word in english {
            assert!(!text.contains(word), "{path} in Spanish says {word:?}");
        }
    }

    // The public pairings: alphabetical by pseudonym (the stand-in last), and the draw's seats.
    let index = page(&web, "/pairings/cafe26", "Accept-Language: en\r\n").await;
    assert!(index.contains("href=\"/pairings/cafe26/4\""));
    for round in 1..=4u64 {
        let html = page(&web, &format!("/pairings/cafe26/{round}"), "Accept-Language: en\r\n").await;
        assert_names_nobody(&html, &names, "the pairings");
        let rows: Vec<(String, String, String)> = html
            .split("<tr")
            .skip(2)
            .map(|row| {
                let cell = |n: usize| {
                    row.split("<td").nth(n).unwrap().split_once('>').unwrap().1.split('<').next().unwrap().to_owned()
                };
                let game = row.split_once("data-game=\"").unwrap().1.split('"').next().unwrap().to_owned();
                let role = row.split_once("data-role=\"").unwrap().1.split('"').next().unwrap().to_owned();
                (cell(1), game, role)
            })
            .collect();
        assert_eq!(rows.len(), 8, "round {round}: every seat once");
        let order: Vec<String> = rows.iter().map(|(who, _, _)| who.clone()).collect();
        let mut expected: Vec<String> = games
            .iter()
            .filter(|g| g.round == round)
            .flat_map(|g| g.seats.values().map(|p| aliases[p].clone()))
            .collect();
        expected.sort_by_key(|who| (who.starts_with("stand-in "), who.to_lowercase()));
        assert_eq!(order, expected, "round {round}");
        for (who, game, role) in &rows {
            let seated = &games.iter().find(|g| g.game == *game).unwrap().seats[role];
            assert_eq!(&aliases[seated], who, "round {round}, {game}, {role}");
        }
    }

    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let driver = Driver::start(chromium, &chromedriver);
    let phone = driver.phone(390, 844).await;
    phone.goto(&format!("http://{web}{link}")).await.unwrap();
    let shown = |script: &'static str| {
        let phone = &phone;
        move || async move { js(phone, script).await.as_str().map(str::to_owned) }
    };
    let now_game =
        "const e = document.getElementById('me-now'); return e ? e.dataset.game + ' ' + e.dataset.started : null;";
    assert_eq!(
        eventually("p1's page", Duration::from_secs(10), shown(now_game)).await,
        format!("{} false", first.game)
    );
    screenshot(&phone, "player-page-390-en").await;

    // Their game starts: the page says so within a few seconds, without a reload.
    let lines = game_lines(7);
    let started = Instant::now();
    {
        let (ledger, game) = (&ledger, format!("game/{}", first.game));
        tokio::task::block_in_place(|| ledger.append(&game, &lines[..1]));
    }
    let want = format!("{} true", first.game);
    eventually("the game started on p1's page", Duration::from_secs(8), || {
        let (phone, want) = (&phone, &want);
        async move { (js(phone, now_game).await.as_str() == Some(want.as_str())).then_some(()) }
    })
    .await;
    let took = started.elapsed();
    // It ends: the next game becomes the game now.
    {
        let (ledger, game) = (&ledger, format!("game/{}", first.game));
        tokio::task::block_in_place(|| ledger.append(&game, &lines[1..]));
    }
    let want = format!("{} false", mine[1].game);
    eventually("the next game on p1's page", Duration::from_secs(8), || {
        let (phone, want) = (&phone, &want);
        async move { (js(phone, now_game).await.as_str() == Some(want.as_str())).then_some(()) }
    })
    .await;
    let total = js(&phone, "return document.getElementById('me-total').textContent;").await;
    assert!(total.as_str().is_some_and(|t| !t.is_empty()), "a score after the game: {total}");
    let whole = js(&phone, "return document.documentElement.outerHTML;").await;
    assert_names_nobody(whole.as_str().unwrap(), &names, "p1's page, live");
    eprintln!("p1's page showed the game started {took:?} after the append");

    // In Spanish: the page and the pairings, on the phone.
    phone.goto(&format!("http://{web}/lang?to=es")).await.unwrap();
    phone.goto(&format!("http://{web}{link}")).await.unwrap();
    let heading = "const e = document.querySelector('#me h2'); return e ? e.textContent : null;";
    assert_eq!(eventually("p1's page in Spanish", Duration::from_secs(10), shown(heading)).await, "Mi partida ahora");
    screenshot(&phone, "player-page-390-es").await;
    phone.goto(&format!("http://{web}/pairings/cafe26/1")).await.unwrap();
    let first_row =
        "const e = document.querySelector('#pairings tbody tr td:nth-child(3)'); return e ? e.textContent : null;";
    let role_es = eventually("the pairings in Spanish", Duration::from_secs(10), shown(first_row)).await;
    assert!(["Federico", "Isabel", "María Teresa", "Pompadour"].contains(&role_es.as_str()), "{role_es}");
    screenshot(&phone, "pairings-390-es").await;
    phone.close().await.unwrap();

    // On a laptop: the pairings for the wall, and the organiser's cards of links.
    let laptop = driver.browser(1280, 800).await;
    laptop.goto(&format!("http://{web}/pairings/cafe26/2")).await.unwrap();
    until_counted(&laptop, "#pairings tbody tr", 8).await;
    screenshot(&laptop, "pairings-1280-en").await;
    crate::web::sign_in(&laptop, &format!("http://{web}"), ORGANISER, "/paper/cafe26/players").await;
    until_counted(&laptop, "#links .link-card svg", 8).await;
    screenshot(&laptop, "player-links-1280-en").await;
    laptop.close().await.unwrap();
}
