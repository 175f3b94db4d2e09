//! Every page in Spanish and in English, against a real `ledgerd --http-listen` with an auth
//! file: plain HTTP requests choose the language by `Accept-Language` or by the `ledger_lang`
//! cookie (which wins), and each page must say its own words in that language, refusals
//! included, while JSON routes keep their machine code; a tournament with stand-ins and a
//! withdrawal shows both, marked in each language, on the board and on the printed paper. In
//! Chromium, the standings board is
//! switched to Spanish with its switch and then, open since before any game started, shows each
//! game its tournament drew within a second of the game's start, without a reload; and a game
//! that had ended runs again on the board within a second of the jury voiding its end.

use crate::daemon::Daemon;
use crate::support::run_ledgerctl;
use crate::web::{browser_binaries, click, eventually, js, text_of, Driver, JURY_TOKEN, TABLE_TOKEN};
use ledger_proto::v1::ledger_client::LedgerClient;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::time::{Duration, Instant};
use tonic::transport::Channel;

pub(crate) const ANALYST_TOKEN: &str = "analyst-token-lu";
pub(crate) const ORGANISER_TOKEN: &str = "organiser-token-ola";

/// ledgerd with an auth file and its pages (the season's test, `season.rs`, uses it too).
pub(crate) struct Site {
    pub(crate) daemon: Daemon,
    grpc: LedgerClient<Channel>,
    /// `127.0.0.1:port` of the pages.
    pub(crate) http: String,
    _dir: tempfile::TempDir,
}

impl Site {
    pub(crate) async fn open() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let entry = |token: &str, actor: &str, role: &str| json!({"sha256": hex::encode(ledger_house::auth::token_digest(token)), "actor": actor, "clearance": role});
        let auth = json!({"tokens": [
            entry(TABLE_TOKEN, "table-4", "table"),
            entry(JURY_TOKEN, "jury-anna", "jury"),
            entry(ANALYST_TOKEN, "lu", "analyst"),
            entry(ORGANISER_TOKEN, "ola", "organiser"),
        ]});
        let auth_file = dir.path().join("auth.json");
        std::fs::write(&auth_file, auth.to_string()).unwrap();
        let daemon = Daemon::spawn_with(
            &dir.path().join("data"),
            &["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
        );
        let http = daemon.announced("http").to_owned();
        let grpc = daemon.connect().await;
        Site { daemon, grpc, http, _dir: dir }
    }

    /// `ledgerctl --server … --token <token> <args>`, off the async workers; it must succeed.
    pub(crate) async fn ledgerctl(&self, token: &str, args: &[&str]) -> String {
        let server = format!("http://{}", self.daemon.addr());
        let args: Vec<String> =
            ["--server", server.as_str(), "--token", token].iter().chain(args).map(|s| (*s).to_owned()).collect();
        let shown = args.join(" ");
        let out = tokio::task::spawn_blocking(move || {
            run_ledgerctl(&args.iter().map(String::as_str).collect::<Vec<_>>(), "")
        })
        .await
        .unwrap();
        assert!(out.status.success(), "{shown}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    /// The Andes match `w1`, ana (Sol) against bruno, one move into its first game.
    pub(crate) async fn andes_w1_in_play(&mut self) {
        let created = json!({"type": "match_created", "first_sol": "ana", "first_luna": "bruno", "clock_ms": 720000});
        self.append("andes/w1", ORGANISER_TOKEN, &[created], "w1-create-").await;
        let moves = [
            json!({"type": "game_started", "game": 1, "at_ms": 0}),
            json!({"type": "move_played", "notation": "0c3", "at_ms": 4000}),
        ];
        self.append("andes/w1", TABLE_TOKEN, &moves, "w1-moves-").await;
    }

    pub(crate) async fn append(&mut self, stream: &str, token: &str, events: &[Value], prefix: &str) {
        let events: Vec<ledger::Event> =
            events.iter().map(|e| ledger::event::from_canonical_json(e).unwrap()).collect();
        let mut request = tonic::Request::new(crate::support::append(stream, &events, prefix, None));
        request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
        self.grpc.append(request).await.unwrap();
    }
}

/// An HTTP answer: status, headers as sent, body.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) head: String,
    pub(crate) body: String,
}

/// One HTTP/1.1 request to the site's pages.
async fn http(site: &Site, method: &str, path: &str, headers: &[(&str, String)], body: &str) -> Answer {
    http_at(&site.http, method, path, headers, body).await
}

/// One HTTP/1.1 request to the pages at `addr` (`127.0.0.1:port`) on a connection of its own
/// (`Connection: close`), off the async workers.
pub(crate) async fn http_at(addr: &str, method: &str, path: &str, headers: &[(&str, String)], body: &str) -> Answer {
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if !body.is_empty() {
        request.push_str(&format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let addr = addr.to_owned();
    let raw = tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        String::from_utf8(raw).unwrap()
    })
    .await
    .unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { unchunk(body) } else { body.to_owned() };
    Answer { status, head: head.to_owned(), body }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// How a request asks for a language.
#[derive(Debug, Clone, Copy)]
enum Ask {
    /// The browser's `Accept-Language` alone.
    Browser(&'static str),
    /// The switch's cookie, against a browser that prefers the other language.
    Cookie(&'static str),
}

impl Ask {
    fn headers(self, token: Option<&str>) -> Vec<(&'static str, String)> {
        let mut cookies: Vec<String> = token.map(|t| format!("ledger_token={}", hex::encode(t))).into_iter().collect();
        let accept = match self {
            Ask::Browser(tag) => tag.to_owned(),
            Ask::Cookie(code) => {
                cookies.push(format!("ledger_lang={code}"));
                (if code == "es" { "en-GB,en;q=0.9" } else { "es-ES,es;q=0.9" }).to_owned()
            }
        };
        let mut headers = vec![("Accept-Language", accept)];
        if !cookies.is_empty() {
            headers.push(("Cookie", cookies.join("; ")));
        }
        headers
    }

    fn code(self) -> &'static str {
        match self {
            Ask::Browser(tag) => &tag[..2],
            Ask::Cookie(code) => code,
        }
    }
}

const SPANISH: [Ask; 2] = [Ask::Browser("es-ES,es;q=0.9,en;q=0.5"), Ask::Cookie("es")];
const ENGLISH: [Ask; 3] = [Ask::Browser("en-US,en;q=0.9"), Ask::Browser("de-DE"), Ask::Cookie("en")];

/// `path` asked for in every way: each Spanish answer says all of `es` and none of `en`, and
/// the other way round; each is the language in `<html lang>` with the switch to the other.
pub(crate) async fn says(
    site: &Site,
    path: &str,
    token: Option<&str>,
    status: u16,
    en: &[&str],
    es: &[&str],
) -> (String, String) {
    let mut shown = (String::new(), String::new());
    for (asks, want, not) in [(&ENGLISH[..], en, es), (&SPANISH[..], es, en)] {
        for ask in asks {
            let answer = http(site, "GET", path, &ask.headers(token), "").await;
            let page = &answer.body;
            assert_eq!(answer.status, status, "{path} {ask:?}: {}\n{page}", answer.head);
            let code = if ask.code() == "es" { "es" } else { "en" };
            assert!(page.contains(&format!("<html lang=\"{code}\">")), "{path} {ask:?} is not in {code}: {page}");
            let other = if code == "es" { "en" } else { "es" };
            assert!(page.contains(&format!("id=\"lang-switch\" hreflang=\"{other}\"")), "{path} {ask:?}: no switch");
            for text in want {
                assert!(page.contains(text), "{path} {ask:?} does not say {text:?}: {page}");
            }
            for text in not {
                assert!(!page.contains(text), "{path} {ask:?} says {text:?} of the other language: {page}");
            }
            if code == "es" {
                shown.1 = page.clone()
            } else {
                shown.0 = page.clone()
            }
        }
    }
    shown
}

/// The text of the first element `<tag … class="<class>" …>` in `html`.
fn first_text<'a>(html: &'a str, class: &str) -> &'a str {
    let at = html.find(&format!("class=\"{class}\"")).unwrap_or_else(|| panic!("no {class} in {html}"));
    let rest = &html[at..];
    let start = rest.find('>').unwrap() + 1;
    let end = rest[start..].find('<').unwrap();
    &rest[start..start + end]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_speaks_spanish_and_english() {
    let mut site = Site::open().await;
    let open26 = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");
    site.ledgerctl(ORGANISER_TOKEN, &["import", "--file", open26]).await;
    site.andes_w1_in_play().await;

    says(
        &site,
        "/",
        None,
        200,
        &["Open a page", "Table page of game"],
        &["Abrir una página", "Página de mesa de la partida"],
    )
    .await;
    says(
        &site,
        "/",
        Some(ORGANISER_TOKEN),
        200,
        &["Tournaments", "standings board", r#"ola (<span data-t="clearance-organiser">organiser</span>)"#],
        &["Torneos", "clasificación", r#"ola (<span data-t="clearance-organiser">organizador</span>)"#],
    )
    .await;
    says(
        &site,
        "/signin",
        None,
        200,
        &["<h1>Sign in</h1>", "The token your organiser gave you"],
        &["<h1>Iniciar sesión</h1>", "El código de acceso que le dio la organización"],
    )
    .await;
    let (en, es) = says(
        &site,
        "/board/open26",
        None,
        200,
        &["Tie-breakers", "<th class=\"role\">Maria Theresa</th>", "Games running", ">finalists: "],
        &["Desempates", "<th class=\"role\">María Teresa</th>", "Partidas en juego", ">finalistas: "],
    )
    .await;
    // An exact decimal keeps every digit: the point in English, the comma in Spanish.
    let total = first_text(&en, "num total");
    assert!(total.contains('.'), "open26's leader has a whole total? {total}");
    assert_eq!(first_text(&es, "num total"), total.replace('.', ","));
    // Tie-breakers are named in the language, decided rows say why.
    assert!(en.contains("by total") && es.contains("por total"), "{es}");
    assert!(en.contains("(Elisabeth ") && es.contains("(Isabel ") && !es.contains("maria_theresa"), "{es}");
    says(
        &site,
        "/jury/q1-t1?at=40&diff=39",
        Some(JURY_TOKEN),
        200,
        &["Jury replay: game q1-t1", "Show the differences", "From event 39 to event 40", "the chain verifies"],
        &[
            "Repetición del jurado: partida q1-t1",
            "Mostrar las diferencias",
            "Del evento 39 al evento 40",
            "la cadena se verifica",
        ],
    )
    .await;
    let (en, es) = says(
        &site,
        "/analyst",
        Some(ANALYST_TOKEN),
        200,
        &["Average score by role", "Win rate", "Imperial Army", "these numbers as CSV"],
        &["Puntuación media por papel", "Porcentaje de victorias", "Ejército Imperial", "estas cifras en CSV"],
    )
    .await;
    assert!(en.contains("8 games") && es.contains("8 partidas"), "{es}");
    // The CSV stays the machine's, whatever the language.
    let csv = http(&site, "GET", "/analyst/roles.csv", &Ask::Cookie("es").headers(Some(ANALYST_TOKEN)), "").await;
    assert!(csv.body.starts_with("kind,name,games,wins,win_rate,"), "{}", csv.body);
    assert!(csv.body.contains("nation,imperial_army,"), "{}", csv.body);
    says(
        &site,
        "/andes/w1?side=luna",
        Some(ANALYST_TOKEN),
        200,
        &["w1, game 1:", "Luna&#39;s view · after 1 moves · Luna to move", "Points and match", "Sol&#39;s side"],
        &["w1, partida 1:", "vista de Luna · tras 1 jugadas · juega Luna", "Puntos y encuentro", "Lado de Sol"],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_sentences_in_the_readers_language() {
    let site = Site::open().await;
    let open26 = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");
    site.ledgerctl(ORGANISER_TOKEN, &["import", "--file", open26]).await;

    // A wrong token at sign-in: the form again, with a sentence, never the status line.
    for (ask, said) in [
        (Ask::Browser("es"), "Código desconocido: vuelva a iniciar sesión."),
        (Ask::Browser("en"), "Unknown token: sign in again."),
        (Ask::Cookie("es"), "Código desconocido: vuelva a iniciar sesión."),
    ] {
        let answer = http(&site, "POST", "/signin", &ask.headers(None), "next=%2Fjury%2Fq1-t1&token=not-a-token").await;
        assert_eq!(answer.status, 401, "{}", answer.body);
        assert!(answer.body.contains(&format!("data-code=\"UNAUTHENTICATED\">{said}</p>")), "{ask:?}: {}", answer.body);
        assert!(!answer.body.contains("UNAUTHENTICATED:"), "{}", answer.body);
        assert!(answer.body.contains("id=\"token\""), "the form is not shown again");
        assert!(!answer.head.to_ascii_lowercase().contains("set-cookie: ledger_token"), "{}", answer.head);
    }
    // A missing tournament, game, Andes match, round or table; a page that is not; a year that
    // is not; paper for a table.
    let refusals: [(&str, Option<&str>, u16, &str, &str); 12] = [
        ("/board/nowhere", None, 404, "There is no tournament nowhere.", "No existe el torneo nowhere."),
        (
            "/paper/nowhere/standings",
            Some(ORGANISER_TOKEN),
            404,
            "There is no tournament nowhere.",
            "No existe el torneo nowhere.",
        ),
        (
            "/tables/nowhere/1",
            Some(ORGANISER_TOKEN),
            404,
            "There is no tournament nowhere.",
            "No existe el torneo nowhere.",
        ),
        (
            "/paper/open26/pairings/9",
            Some(ORGANISER_TOKEN),
            404,
            "Round 9 has no games in this tournament.",
            "La ronda 9 no tiene partidas en este torneo.",
        ),
        (
            "/tables/open26/9",
            Some(ORGANISER_TOKEN),
            404,
            "Table 9 has no game in tournament open26.",
            "La mesa 9 no tiene partida en el torneo open26.",
        ),
        (
            "/paper/open26/standings",
            Some(TABLE_TOKEN),
            403,
            "Printing the day",
            "Imprimir el papel del día requiere el código de la organización o del jurado.",
        ),
        ("/jury/q9-t9", Some(JURY_TOKEN), 404, "There is no game q9-t9.", "No existe la partida q9-t9."),
        (
            "/andes/none",
            Some(ANALYST_TOKEN),
            404,
            "There is no Andes match none.",
            "No existe el encuentro de Andes none.",
        ),
        ("/open?page=elsewhere&id=x", None, 404, "There is no such page.", "Esa página no existe."),
        ("/analyst?year=soon", Some(ANALYST_TOKEN), 400, "“soon” is not a year.", "«soon» no es un año."),
        (
            "/jury/q1-t1",
            Some(TABLE_TOKEN),
            403,
            "The replay viewer is for the jury; table-4 is cleared as table.",
            "El visor de repetición es para el jurado; table-4 tiene autorización de mesa.",
        ),
        (
            "/jury/q1-t1",
            Some("a-token-nobody-gave"),
            401,
            "Unknown token: sign in again.",
            "Código desconocido: vuelva a iniciar sesión.",
        ),
    ];
    for (path, token, status, en, es) in refusals {
        let (en_page, es_page) = says(&site, path, token, status, &[en], &[es]).await;
        for page in [en_page, es_page] {
            // The machine code stays for scripts; the status line is never what a person reads.
            let code = page.split("data-code=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or_default();
            assert!(!code.is_empty() && !page.contains(&format!(">{code}:")), "{path}: {page}");
        }
    }
    // The printed standings write each tie-breaker's value as the reader's language does.
    let (en, es) =
        says(&site, "/paper/open26/standings", Some(ORGANISER_TOKEN), 200, &["(game q"], &["(partida q"]).await;
    let values = |page: &str| -> Vec<String> {
        page.split("<td class=\"num tb\">").skip(1).map(|cell| cell.split("</td>").next().unwrap().to_owned()).collect()
    };
    let decimal_point = |cell: &String| {
        cell.as_bytes().windows(3).any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
    };
    let decimal_comma = |cell: &String| {
        cell.as_bytes().windows(3).any(|w| w[0].is_ascii_digit() && w[1] == b',' && w[2].is_ascii_digit())
    };
    assert!(values(&en).iter().any(decimal_point), "{en}");
    assert!(values(&es).iter().any(decimal_comma) && !values(&es).iter().any(decimal_point), "{:?}", values(&es));
    // Who may not see a page is offered to sign in, back to the same page.
    let answer = http(&site, "GET", "/jury/q1-t1", &Ask::Browser("es").headers(Some(TABLE_TOKEN)), "").await;
    assert!(
        answer
            .body
            .contains("href=\"/signin?next=/jury/q1-t1\" id=\"error-signin\">Iniciar sesión con un código de acceso"),
        "{}",
        answer.body
    );
    // The rules' own words say what is wrong (a malformed name), in the reader's language too.
    let answer = http(&site, "GET", "/board/no%20such", &Ask::Browser("es").headers(None), "").await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.body.contains("El ledger no puede leer lo que pide esta dirección."), "{}", answer.body);
    assert!(answer.body.contains("id=\"error-detail\">El identificador no such debe tener"), "{}", answer.body);
    assert!(!answer.body.contains(" lang=\"en\""), "{}", answer.body);
    // A JSON route keeps its machine code whatever the language.
    for ask in [Ask::Browser("es"), Ask::Browser("en")] {
        let answer = http(&site, "GET", "/table/q1-t1/view", &ask.headers(Some("a-token-nobody-gave")), "").await;
        assert_eq!(answer.status, 401, "{}", answer.body);
        let body: Value = serde_json::from_str(&answer.body).unwrap();
        assert_eq!(body["error"], "UNAUTHENTICATED: unknown token", "{body}");
    }
}

/// The game of the printed pairings' row that names `who`.
fn game_naming(pairings: &str, who: &str) -> String {
    let row = pairings
        .split("<tr data-table=")
        .skip(1)
        .map(|row| row.split("</tr>").next().unwrap_or_default())
        .find(|row| row.contains(who))
        .unwrap_or_else(|| panic!("no table seats {who}: {pairings}"));
    row.split("data-game=\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stand_ins_and_a_withdrawal_are_marked_on_the_board_and_the_paper_in_either_language() {
    let mut site = Site::open().await;
    let organiser = |args: &[&str]| {
        let mut all = vec!["tournament"];
        all.extend_from_slice(args);
        all.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>()
    };
    let run = |args: Vec<String>| {
        let site = &site;
        async move { site.ledgerctl(ORGANISER_TOKEN, &args.iter().map(String::as_str).collect::<Vec<_>>()).await }
    };
    run(organiser(&["create", "--id", "relief", "--name", "Relief 26", "--ruleset", "cafe2023"])).await;
    // Seven players and two stand-ins: the draw seats the first stand-in once a round.
    let pseudonyms = ["Otter", "Heron", "Lynx", "Wren", "Stoat", "Crane", "Marten"];
    for (n, pseudonym) in (1..).zip(pseudonyms) {
        let (player, name) = (format!("p{n}"), format!("Player {n}"));
        let args =
            ["register", "--tournament", "relief", "--player", &player, "--name", &name, "--pseudonym", pseudonym];
        run(organiser(&args)).await;
    }
    for (id, name) in [("s1", "Richard"), ("s2", "Rosa")] {
        run(organiser(&["register", "--tournament", "relief", "--stand-in", "--player", id, "--name", name])).await;
    }
    run(organiser(&["draw", "--tournament", "relief", "--seed", "7"])).await;
    let pairings = |round: u32| {
        let site = &site;
        async move {
            let path = format!("/paper/relief/pairings/{round}");
            http(site, "GET", &path, &Ask::Cookie("en").headers(Some(ORGANISER_TOKEN)), "").await.body
        }
    };
    let before = pairings(2).await;
    let reseated = game_naming(&before, "Player 1<");
    assert!(!before.contains("Rosa <span"), "the draw seated the second stand-in: {before}");
    // p1 leaves after round 1: the one stand-in free in rounds 2 to 4 takes its seats.
    let said = run(organiser(&["withdraw", "--tournament", "relief", "--player", "p1", "--from-round", "2"])).await;
    assert!(said.contains("s2 takes p1's seat"), "{said}");
    let after = pairings(2).await;
    assert_eq!(game_naming(&after, "Rosa <span"), reseated, "{after}");
    assert!(!after.contains("Player 1<"), "p1 is still seated in round 2: {after}");
    let with_s1 = game_naming(&pairings(1).await, "Richard <span");
    // The re-seated game starts: the board names its players, the stand-in as a stand-in.
    let started = [json!({"type": "game_started", "at_ms": 0}), json!({"type": "turn_started", "turn": 1})];
    site.append(&format!("game/{reseated}"), TABLE_TOKEN, &started, "reseated-start-").await;

    let (en, es) = says(
        &site,
        "/board/relief",
        None,
        200,
        &[
            "withdrew after round 1",
            "stand-ins, not ranked: stand-in 1, stand-in 2",
            "<span class=\"stand-in\">stand-in 2</span>",
        ],
        &[
            "se retiró tras la ronda 1",
            "suplentes, sin clasificar: suplente 1, suplente 2",
            "<span class=\"stand-in\">suplente 2</span>",
        ],
    )
    .await;
    for page in [&en, &es] {
        // No game has ended: the line-up, where Otter (p1) keeps its row, marked; stand-ins
        // have no row; nobody is named a finalist yet.
        assert!(page.contains("id=\"lineup\"") && !page.contains("id=\"standings\""), "{page}");
        assert!(page.contains("<tr class=\"withdrawn\" data-player=\"Otter\">"), "{page}");
        assert_eq!(page.matches("class=\"withdrawn\"").count(), 1, "{page}");
        assert!(!page.contains("data-player=\"stand-in"), "a stand-in is ranked: {page}");
        assert!(!page.contains("id=\"finalists\""), "finalists before any game ended: {page}");
        let running = page.split(&format!("data-game=\"{reseated}\"")).nth(1).unwrap().split("</div>").next().unwrap();
        assert!(running.contains("class=\"stand-in\"") && !running.contains("Otter"), "{running}");
    }
    // No game has ended: the board shows no tie-breaker without a value, in neither language.
    assert!(!en.contains("class=\"tiebreak\"") && !es.contains("unavailable"), "{es}");

    // The paper: every stand-in named as one, the withdrawal on the printed standings.
    let (en, es) = says(
        &site,
        "/paper/relief/pairings/1",
        Some(ORGANISER_TOKEN),
        200,
        &["Richard <span class=\"stand-in\">(stand-in 1)</span>"],
        &["Richard <span class=\"stand-in\">(suplente 1)</span>"],
    )
    .await;
    // Round 1 was printed as drawn: p1 still plays it.
    assert!(en.contains("Player 1<") && es.contains("Player 1<"), "{es}");
    says(
        &site,
        "/paper/relief/sheets/2",
        Some(ORGANISER_TOKEN),
        200,
        &["Rosa <span class=\"stand-in\">(stand-in 2)</span>"],
        &["Rosa <span class=\"stand-in\">(suplente 2)</span>"],
    )
    .await;
    let (en, es) = says(
        &site,
        "/paper/relief/standings",
        Some(ORGANISER_TOKEN),
        200,
        &["<em class=\"withdrawn\">withdrew after round 1</em>", "<strong>Stand-ins (not ranked)</strong>: Richard"],
        &[
            "<em class=\"withdrawn\">se retiró tras la ronda 1</em>",
            "<strong>Suplentes (sin clasificar)</strong>: Richard",
        ],
    )
    .await;
    for page in [&en, &es] {
        assert!(page.contains("<tr data-player=\"p1\" class=\"withdrawn\">"), "{page}");
        assert!(!page.contains("<tr data-player=\"s1\"") && !page.contains("<tr data-player=\"s2\""), "{page}");
        let finalists = page.split("</strong>: ").nth(1).unwrap().split("</p>").next().unwrap();
        // Four names, never an id, and not the player who withdrew.
        let named: Vec<&str> = finalists.split(", ").collect();
        assert!(named.len() == 4 && !named.contains(&"Player 1") && !finalists.contains("p1"), "{finalists}");
    }
    // The paper prints every tie-breaker: an unavailable one says why, in the page's language,
    // once, in a note under the table.
    assert!(en.contains("unavailable: no Elisabeth or Maria Theresa game has ended"), "{en}");
    assert!(en.contains("unavailable: no Frederick game has ended"), "{en}");
    assert!(es.contains("no disponible: ninguna partida de Isabel o María Teresa ha terminado"), "{es}");
    assert!(
        es.contains("no disponible: ninguna partida de Federico ha terminado") && !es.contains("unavailable"),
        "{es}"
    );
    // The sheet of a round-1 game seats the first stand-in where the draw put it.
    let sheets =
        http(&site, "GET", "/paper/relief/sheets/1", &Ask::Cookie("es").headers(Some(ORGANISER_TOKEN)), "").await;
    let sheet =
        sheets.body.split(&format!("data-game=\"{with_s1}\"")).nth(1).unwrap().split("</section>").next().unwrap();
    assert!(sheet.contains("Richard <span class=\"stand-in\">(suplente 1)</span>"), "{sheet}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_follows_every_game_of_its_tournament_in_either_language() {
    let Some((chromium, chromedriver)) = browser_binaries() else {
        let message = "\n\n*** board language test SKIPPED: no chromium/chromedriver (apt-get install chromium \
                       chromium-driver, or set CHROMIUM and CHROMEDRIVER) ***\n";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}under CI=true the browser is required");
        eprintln!("{message}");
        return;
    };
    let driver = Driver::start(chromium, &chromedriver);
    let mut site = Site::open().await;
    // A tournament drawn as organisers do: nothing played yet.
    site.ledgerctl(
        ORGANISER_TOKEN,
        &["tournament", "create", "--id", "cup", "--name", "Cup 26", "--ruleset", "cafe2023"],
    )
    .await;
    for n in 1..=8 {
        let (player, name) = (format!("p{n}"), format!("Player {n}"));
        site.ledgerctl(
            ORGANISER_TOKEN,
            &["tournament", "register", "--tournament", "cup", "--player", &player, "--name", &name],
        )
        .await;
    }
    site.ledgerctl(ORGANISER_TOKEN, &["tournament", "draw", "--tournament", "cup", "--seed", "7"]).await;
    let standings: Value =
        serde_json::from_str(site.ledgerctl(JURY_TOKEN, &["--json", "standings", "--tournament", "cup"]).await.trim())
            .unwrap();
    let drawn: Vec<String> =
        standings["pending_games"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_owned()).collect();
    assert_eq!(drawn.len(), 8, "{standings}");

    let board = driver.browser(1600, 900).await;
    board.goto(&format!("http://{}/board/cup", site.http)).await.unwrap();
    eventually("the board in English", Duration::from_secs(10), || async {
        // Nothing played yet: the line-up.
        (text_of(&board, "#lineup thead").await?.contains("Player")).then_some(())
    })
    .await;
    assert_eq!(text_of(&board, "#no-running").await.as_deref(), Some("none"));
    // The switch: the same board in Spanish, remembered by the browser.
    click(&board, "#lang-switch").await;
    eventually("the board in Spanish", Duration::from_secs(10), || async {
        (js(&board, "return document.documentElement.lang;").await == json!("es")
            && text_of(&board, "#lineup thead").await?.contains("Jugador"))
        .then_some(())
    })
    .await;
    assert_eq!(text_of(&board, "#no-running").await.as_deref(), Some("ninguna"));
    assert_eq!(text_of(&board, "#lang-switch").await.as_deref(), Some("English"));
    eventually("the board to follow the ledger", Duration::from_secs(10), || async {
        (text_of(&board, "#live-status").await?.as_str() == "en directo").then_some(())
    })
    .await;
    js(&board, "window.noReload = 'still here'; return null;").await;

    // Each drawn game the board has never shown starts: on the board within a second.
    for (index, game) in [&drawn[0], &drawn[5]].into_iter().enumerate() {
        let stream = format!("game/{game}");
        let started = [json!({"type": "game_started", "at_ms": 0}), json!({"type": "turn_started", "turn": 1})];
        let appended_at = Instant::now();
        site.append(&stream, TABLE_TOKEN, &started, &format!("{game}-start-")).await;
        let turn = format!("#running .game[data-game=\"{game}\"] .turn");
        eventually(&format!("{game} running on the board"), Duration::from_secs(1), || async {
            (text_of(&board, &turn).await?.as_str() == "turno 1").then_some(())
        })
        .await;
        eprintln!("board: {game} shown {} ms after its start was acknowledged", appended_at.elapsed().as_millis());
        let shown = js(&board, "return document.querySelectorAll('#running .game').length;").await;
        assert_eq!(shown, json!(index + 1));
    }
    site.append(&format!("game/{}", drawn[0]), TABLE_TOKEN, &[json!({"type": "turn_started", "turn": 2})], "next-")
        .await;
    let turn = format!("#running .game[data-game=\"{}\"] .turn", drawn[0]);
    eventually("turn 2 on the board", Duration::from_secs(1), || async {
        (text_of(&board, &turn).await?.as_str() == "turno 2").then_some(())
    })
    .await;
    assert_eq!(js(&board, "return window.noReload;").await, json!("still here"), "the board reloaded");
    assert!(text_of(&board, "#live-status").await.unwrap().starts_with("en directo · actualizado a las "));
    // And back to English.
    click(&board, "#lang-switch").await;
    eventually("the board in English again", Duration::from_secs(10), || async {
        (text_of(&board, &turn).await?.as_str() == "turn 2").then_some(())
    })
    .await;
    assert_eq!(js(&board, "return document.documentElement.lang;").await, json!("en"));

    // A game that has ended is followed too: the jury voids the end of open26's q1-t1 (its
    // event 96, the objectives were misread) and the game is running again on the board. (Another
    // ledgerd: open26 names its games as the draw above did; its origin is English by default.)
    let mut site = Site::open().await;
    let open26 = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");
    site.ledgerctl(ORGANISER_TOKEN, &["import", "--file", open26]).await;
    board.goto(&format!("http://{}/board/open26", site.http)).await.unwrap();
    eventually("open26's board following the ledger", Duration::from_secs(10), || async {
        (text_of(&board, "#live-status").await?.as_str() == "live").then_some(())
    })
    .await;
    assert_eq!(text_of(&board, "#no-running").await.as_deref(), Some("none"));
    js(&board, "window.noReload = 'still here'; return null;").await;
    let ruling = [
        json!({"type": "jury_ruling", "text": "the objectives were misread"}),
        json!({"type": "event_voided", "seq": 96, "reason": "misread objectives"}),
    ];
    site.append("game/q1-t1", JURY_TOKEN, &ruling, "q1-t1-void-").await;
    eventually("q1-t1 running again on the board", Duration::from_secs(1), || async {
        (text_of(&board, "#running .game[data-game=\"q1-t1\"] .turn").await?.as_str() == "turn 12").then_some(())
    })
    .await;
    assert_eq!(js(&board, "return window.noReload;").await, json!("still here"), "the board reloaded");
    board.close().await.unwrap();
}
