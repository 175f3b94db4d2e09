//! A hall without internet (issue 34, item 2): ledgerd with `--tls-local-ca` makes its own root
//! and signs the pages' certificate with it; a tablet downloads the root over plain HTTP, as the
//! printed trust sheet's QR code says, installs it in its trust store, and from then on the
//! table's offline app runs over HTTPS with its service worker.
//!
//! The tablet is a real headless Chromium with a real NSS database (`certutil`, Debian's
//! libnss3-tools) in its `$HOME`, the way Chromium on Linux keeps the roots its user installed,
//! and no `--ignore-certificate-errors`: the same browser without the root is refused with a
//! certificate error, so what the test shows is trust, not a browser told to look away. The
//! hall's name resolves to loopback by Chromium's `--host-resolver-rules`. A missing `certutil`
//! skips the test loudly, and fails it under `CI=true` (`.ci/run` installs it).

use crate::daemon::Daemon;
use crate::paper::{enlarge_codes, print_pages, read_qr};
use crate::table::{kept, network, play, ready, skip_without_browser, sync, GAME};
use crate::web::{click, events_of, eventually, js, peek, screenshot, Driver, JURY_TOKEN, TABLE_TOKEN};
use fantoccini::Locator;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The venue laptop's name, as the tablets reach it.
const HALL: &str = "hall.example";

fn certutil_binary() -> Option<PathBuf> {
    crate::support::required_tool("certutil", "apt-get install libnss3-tools", "the hall without internet test")
}

/// A home whose NSS database (`.pki/nssdb`, where Chromium on Linux looks) trusts `root` (DER)
/// to identify web sites, as `certutil -A -t "C,,"` installs it.
fn home_trusting(certutil: &Path, home: &Path, root: &Path) {
    let db = home.join(".pki/nssdb");
    std::fs::create_dir_all(&db).unwrap();
    let db = format!("sql:{}", db.display());
    let run = |args: &[&str]| {
        let out = Command::new(certutil).args(args).output().unwrap();
        assert!(out.status.success(), "certutil {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&["-N", "-d", &db, "--empty-password"]);
    run(&["-A", "-n", "hall", "-t", "C,,", "-i", root.to_str().unwrap(), "-d", &db]);
    let listed = run(&["-L", "-d", &db]);
    assert!(listed.lines().any(|l| l.starts_with("hall ") && l.trim_end().ends_with("C,,")), "{listed}");
}

/// A plain-HTTP GET of `path` at `addr` with this `Host`: the head (as text) and the body.
async fn plain_get(addr: &str, host: &str, path: &str, lang: &str) -> (String, Vec<u8>) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Language: {lang}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").expect("a head and a body");
    let head = String::from_utf8_lossy(&answer[..split]).to_ascii_lowercase();
    (head, answer[split + 4..].to_vec())
}

/// ledgerd in a hall without internet: the pages on HTTPS with its own root for `HALL` and
/// 127.0.0.1, the plain-HTTP port beside them, tokens from `auth_file`.
fn hall_daemon(data: &Path, auth_file: &Path) -> Daemon {
    Daemon::spawn_with(
        data,
        &[
            "--auth-file",
            auth_file.to_str().unwrap(),
            "--http-listen",
            "127.0.0.1:0",
            "--http-redirect-listen",
            "127.0.0.1:0",
            "--tls-local-ca",
            &format!("{HALL},127.0.0.1"),
        ],
    )
}

/// The game's events in the log.
async fn logged(daemon: &Daemon) -> Vec<Value> {
    events_of(&mut daemon.connect().await, &format!("game/{GAME}")).await
}

/// The log once it holds `count` of the game's events (bounded wait).
async fn log_holds(daemon: &Daemon, count: usize) -> Vec<Value> {
    eventually(&format!("the log to hold {count} events"), Duration::from_secs(20), || async {
        let events = logged(daemon).await;
        if events.len() >= count {
            Ok(events)
        } else {
            Err(format!("it holds {}", events.len()))
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tablet_that_trusts_the_halls_own_root_keeps_the_table_offline_over_https() {
    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let Some(certutil) = certutil_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let entry = |token: &str, actor: &str, role: &str| json!({"sha256": hex::encode(ledger_house::auth::token_digest(token)), "actor": actor, "clearance": role});
    let auth = json!({"tokens": [entry(TABLE_TOKEN, "table-4", "table"), entry(JURY_TOKEN, "jury-anna", "jury")]});
    let auth_file = dir.path().join("auth.json");
    std::fs::write(&auth_file, auth.to_string()).unwrap();
    let data = dir.path().join("data");
    let daemon = hall_daemon(&data, &auth_file);
    let https_port = daemon.announced("http").rsplit_once(':').unwrap().1.to_owned();
    let plain = daemon.announced("http-redirect").to_owned();
    let plain_port = plain.rsplit_once(':').unwrap().1.to_owned();
    let pages = format!("https://{HALL}:{https_port}");

    // The root, downloaded over plain HTTP as a tablet would before it trusts anything: the very
    // certificate ledgerd keeps, DER, with the type that makes a tablet offer to install it.
    let (head, root) = plain_get(&plain, &format!("{HALL}:{plain_port}"), "/hall/root.crt", "en").await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: application/x-x509-ca-cert"), "{head}");
    let kept_pem = std::fs::read(data.join("local-ca/root.pem")).unwrap();
    use rustls::pki_types::pem::PemObject;
    let kept_root = rustls::pki_types::CertificateDer::from_pem_slice(&kept_pem).unwrap();
    assert_eq!(root, kept_root.as_ref(), "the root served is the root kept");
    let fingerprint = ledger_web::trust::fingerprint(&root);
    // Everything else on the plain port still goes to HTTPS.
    let (head, _) = plain_get(&plain, HALL, "/table/hall-1", "en").await;
    assert!(head.starts_with("http/1.1 308"), "{head}");
    assert!(head.contains(&format!("location: https://{HALL}:{https_port}/table/hall-1")), "{head}");
    // The sheet, in Spanish over plain HTTP (the organiser's laptop need not trust the root to
    // print it): the fingerprint of what is served, the download's address, the tablets' steps.
    let (head, sheet) = plain_get(&plain, &format!("{HALL}:{plain_port}"), "/hall/trust", "es").await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("x-content-type-options: nosniff") && head.contains("script-src 'none'"), "{head}");
    let sheet = String::from_utf8(sheet).unwrap();
    for said in [
        fingerprint.as_str(),
        "Instalar un certificado → Certificado de CA",
        "Ajustes de confianza de certificados",
        "Tournament Ledger hall root — hall.example",
    ] {
        assert!(sheet.contains(said), "the sheet does not say {said:?}: {sheet}");
    }
    // Its language switch works before trust too: it stays on the plain port.
    let (head, _) = plain_get(&plain, HALL, "/lang?to=en&next=/hall/trust", "es").await;
    assert!(head.starts_with("http/1.1 303") && head.contains("location: /hall/trust"), "{head}");
    assert!(head.contains("set-cookie: ledger_lang=en"), "{head}");
    let root_path = dir.path().join("downloaded-root.crt");
    std::fs::write(&root_path, &root).unwrap();

    // Without the root, the same browser refuses the pages: a certificate error, no table.
    let stranger_home = dir.path().join("stranger");
    std::fs::create_dir_all(&stranger_home).unwrap();
    let stranger = Driver::start_at_home(chromium.clone(), &chromedriver, &stranger_home).resolving(HALL);
    let refused = stranger.browser(1280, 800).await;
    let _ = refused.goto(&format!("{pages}/table/{GAME}")).await;
    let source = eventually("the certificate error", Duration::from_secs(20), || async {
        let source = refused.source().await.map_err(|e| e.to_string())?;
        if source.contains("ERR_CERT_AUTHORITY_INVALID") {
            Ok(source)
        } else {
            Err(format!("the page says: {}", source.chars().take(300).collect::<String>()))
        }
    })
    .await;
    assert!(!source.contains("id=\"table\""), "the table page was shown to a browser that does not trust the root");
    refused.close().await.unwrap();
    drop(stranger);

    // The tablet that installed the root: the trust sheet over HTTPS, its QR code read back.
    let home = dir.path().join("tablet");
    home_trusting(&certutil, &home, &root_path);
    let tablet = Driver::start_at_home(chromium.clone(), &chromedriver, &home).resolving(HALL);
    let table = tablet.browser(1280, 800).await;
    table.goto(&format!("{pages}/hall/trust")).await.unwrap();
    assert_eq!(
        crate::web::text_of(&table, "#fingerprint .line").await.as_deref(),
        Some(&fingerprint[..23]),
        "the first line of the fingerprint"
    );
    screenshot(&table, "hall-trust").await;
    assert_eq!(print_pages(&table).await, 1, "the trust sheet prints on one page");
    enlarge_codes(&table).await;
    let code = table.find(Locator::Css("#hall-trust svg.qr")).await.unwrap();
    assert_eq!(
        read_qr(&code.screenshot().await.unwrap()),
        format!("http://{HALL}:{plain_port}/hall/root.crt"),
        "the QR code is the root's download over plain HTTP, under the name the sheet was opened with"
    );

    // The table, signed in over HTTPS; its service worker installs.
    table.goto(&format!("{pages}/signin?next=/table/{GAME}")).await.unwrap();
    let field = eventually("the token field", Duration::from_secs(10), || async {
        table.find(Locator::Id("token")).await.ok()
    })
    .await;
    field.send_keys(TABLE_TOKEN).await.unwrap();
    click(&table, "#signin").await;
    ready(&table).await;
    assert!(table.current_url().await.unwrap().as_str().starts_with(&format!("{pages}/table/{GAME}")));
    eventually("the service worker to control the page", Duration::from_secs(20), || async {
        (js(&table, "return !!(navigator.serviceWorker && navigator.serviceWorker.controller);").await == json!(true))
            .then_some(())
    })
    .await;
    eventually("the ruleset chooser", Duration::from_secs(10), || async {
        (js(&table, "const r = document.getElementById('f-start-ruleset'); if (!r) { return false; } r.value = 'cafe2019'; return true;").await
            == json!(true))
        .then_some(())
    })
    .await;
    click(&table, "#do-game_started").await;
    click(&table, "#do-turn_started").await;
    click(&table, "#press-prussia").await;
    let started = log_holds(&daemon, 3).await;
    assert_eq!(started[2]["type"], "clock_started", "{started:?}");

    // The network cut: clock presses kept on the tablet, the page reloaded from the service
    // worker with its clock and every press, then the network back and each press logged once.
    network(&table, false).await;
    play(&table, 12, Duration::from_millis(40), &mut Vec::new()).await;
    kept(&table, 12).await;
    table.refresh().await.unwrap();
    ready(&table).await;
    network(&table, false).await;
    let offline = js(
        &table,
        "return [!!navigator.serviceWorker.controller, !!document.querySelector('#chess-clock button.running')];",
    )
    .await;
    assert_eq!(offline, json!([true, true]), "the page and its running clock came back from the service worker");
    assert_eq!(sync(&table).await.1, 12, "the waiting presses did not survive the reload");
    play(&table, 3, Duration::from_millis(40), &mut Vec::new()).await;
    kept(&table, 15).await;
    assert_eq!(logged(&daemon).await.len(), 3, "a press reached the log while the network was cut");
    network(&table, true).await;
    eventually("every press recorded", Duration::from_secs(20), || async {
        (sync(&table).await == ("recorded".to_owned(), 0, 0)).then_some(())
    })
    .await;
    let events = logged(&daemon).await;
    assert_eq!(events.len(), 18, "every press once: {events:?}");
    assert_eq!(events[3..].iter().filter(|e| e["type"] == "clock_pressed").count(), 15, "{events:?}");
    table.close().await.unwrap();
}

/// ledgerd will not start a local CA the tablets could not reach, nor for a name that is none,
/// and a refused start keeps nothing.
#[test]
fn a_local_ca_without_its_plain_port_or_with_a_bad_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let refusal = |flags: &[&str]| {
        let refused = Command::new(env!("CARGO_BIN_EXE_ledgerd"))
            .args(["--data-dir", data.to_str().unwrap(), "--listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0"])
            .args(flags)
            .output()
            .unwrap();
        assert!(!refused.status.success(), "{flags:?}");
        String::from_utf8_lossy(&refused.stderr).into_owned()
    };
    let said = refusal(&["--tls-local-ca", HALL]);
    assert!(said.contains("--tls-local-ca needs --http-listen (the HTTPS pages) and --http-redirect-listen"), "{said}");
    let said = refusal(&["--tls-local-ca", "hall_1.example", "--http-redirect-listen", "127.0.0.1:0"]);
    assert!(said.contains("neither a DNS name"), "{said}");
    let said = refusal(&["--tls-local-ca", HALL, "--acme-domain", HALL, "--http-redirect-listen", "127.0.0.1:0"]);
    assert!(said.contains("cannot be used with"), "{said}");
    assert!(!data.join("local-ca").exists(), "a refused start keeps nothing");
}

/// A GET over HTTPS (trusting only `connector`'s root) of `path` at `addr` with this `Host`:
/// the head (as lower-case text) and the body.
async fn https_get(
    connector: &tokio_rustls::TlsConnector,
    addr: &str,
    host: &str,
    path: &str,
    token: &str,
) -> (String, String) {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    let name = rustls::pki_types::ServerName::try_from(HALL).unwrap();
    let mut stream = connector.connect(name, tcp).await.unwrap();
    // Signed in as over HTTPS: the `__Host-` cookie.
    let cookie = format!("__Host-{}={}", ledger_web::COOKIE_TOKEN, hex::encode(token));
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (head.to_ascii_lowercase(), body.to_owned())
}

/// The QR code `css` names, read from a screenshot of a copy of it alone on white (on a card the
/// enlarged code would run under the card's text).
async fn read_alone(client: &fantoccini::Client, css: &str) -> String {
    let script = format!(
        "document.getElementById('qr-alone')?.remove(); const box = document.createElement('div'); box.id = 'qr-alone'; \
         box.style.cssText = 'position:fixed;left:0;top:0;padding:32px;background:#fff;z-index:99999'; \
         box.appendChild(document.querySelector({}).cloneNode(true)); document.body.appendChild(box); return null;",
        json!(css)
    );
    js(client, &script).await;
    let code = client.find(Locator::Css("#qr-alone")).await.unwrap();
    read_qr(&code.screenshot().await.unwrap())
}

/// The path of a link printed for `origin` (`http://hall.example:8080`), or a failure naming it.
fn path_of<'a>(link: &'a str, origin: &str) -> &'a str {
    link.strip_prefix(origin).unwrap_or_else(|| panic!("{link} is not on {origin}"))
}

/// Issue 41, items 1 and 2: in a hall with ledgerd's own root, at ports that are not 443 or 80,
/// the organiser prints the players' cards and the report sheets; every QR code read back opens
/// (200): a card's on the plain port, a sheet's (a table's recording page) on HTTPS. A phone that
/// installed nothing opens a player's card, the pairings and the board with no certificate
/// warning, and cannot record at a table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_that_installed_nothing_opens_the_printed_links_and_records_nothing() {
    const ORGANISER: &str = "hall-organiser-token";
    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let Some(certutil) = certutil_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let organiser = ledger_house::auth::file::entry(ORGANISER, "olga", ledger_house::auth::Role::Organiser);
    let auth_file = dir.path().join("auth.json");
    std::fs::write(&auth_file, json!({"tokens": [organiser]}).to_string()).unwrap();
    let data = dir.path().join("data");
    let daemon = hall_daemon(&data, &auth_file);
    let https = daemon.announced("http").to_owned();
    let plain = daemon.announced("http-redirect").to_owned();
    let (https_port, plain_port) = (https.rsplit_once(':').unwrap().1, plain.rsplit_once(':').unwrap().1);
    assert!(https_port != "443" && plain_port != "80");
    let pages = format!("https://{HALL}:{https_port}");
    let reading = format!("http://{HALL}:{plain_port}");
    // open26's players and its four rounds' tables, as its organiser records them.
    let open26 =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl")).unwrap();
    let drawn: String = open26
        .lines()
        .filter(|l| l.contains("\"stream\":\"tournament/open26\""))
        .filter(|l| ["tournament_created", "player_registered", "game_scheduled"].iter().any(|t| l.contains(t)))
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.path().join("open26.jsonl");
    std::fs::write(&file, drawn).unwrap();
    let server = format!("http://{}", daemon.addr());
    let args = ["--server", &server, "--token", ORGANISER, "import", "--file", file.to_str().unwrap()];
    let imported = crate::support::run_ledgerctl(&args, "");
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let root_pem = std::fs::read(data.join("local-ca/root.pem")).unwrap();
    use rustls::pki_types::pem::PemObject;
    let root = rustls::pki_types::CertificateDer::from_pem_slice(&root_pem).unwrap();
    let root_path = dir.path().join("root.crt");
    std::fs::write(&root_path, root.as_ref()).unwrap();
    let connector = crate::support::tls_client_trusting(root.clone());

    // The organiser's laptop trusts the root, signs in over HTTPS, prints the players' cards.
    let home = dir.path().join("laptop");
    home_trusting(&certutil, &home, &root_path);
    let laptop_driver = Driver::start_at_home(chromium.clone(), &chromedriver, &home).resolving(HALL);
    let laptop = laptop_driver.browser(1280, 800).await;
    crate::web::sign_in(&laptop, &pages, ORGANISER, "/paper/open26/players").await;
    let cards = eventually("the players' cards", Duration::from_secs(10), || async {
        let shown = js(&laptop, "return [...document.querySelectorAll('.link-card')].map(c => [c.dataset.player, c.querySelector('.link a').textContent]);").await;
        shown.as_array().filter(|a| a.len() == 8).cloned()
    })
    .await;
    enlarge_codes(&laptop).await;
    let mut card_links = Vec::new();
    for card in &cards {
        let (player, printed) = (card[0].as_str().unwrap(), card[1].as_str().unwrap());
        let read = read_alone(&laptop, &format!(".link-card[data-player=\"{player}\"] svg.qr")).await;
        assert_eq!(read, printed, "{player}'s QR code and printed link");
        assert!(read.starts_with(&format!("{reading}/me/open26/")), "a card's link is not on the plain port: {read}");
        card_links.push(read);
    }
    // players.csv gives the same links.
    let csv = js(&laptop, "const x = new XMLHttpRequest(); x.open('GET', '/paper/open26/players.csv', false); x.send(); return x.responseText;").await;
    let csv_links: Vec<&str> = csv.as_str().unwrap().lines().skip(1).map(|l| l.rsplit(',').next().unwrap()).collect();
    assert_eq!(csv_links, card_links, "players.csv");
    // Round 1's report sheets: each QR code opens its table's page, on HTTPS.
    laptop.goto(&format!("{pages}/paper/open26/sheets/1")).await.unwrap();
    let games = eventually("the report sheets", Duration::from_secs(10), || async {
        let games =
            js(&laptop, "return [...document.querySelectorAll('section.sheet')].map(s => s.dataset.game);").await;
        match games.as_array().filter(|g| !g.is_empty()) {
            Some(games) => Ok(games.clone()),
            None => Err(crate::web::text_of(&laptop, "body").await.unwrap_or_default()),
        }
    })
    .await;
    enlarge_codes(&laptop).await;
    let mut sheet_links = Vec::new();
    for game in &games {
        let game = game.as_str().unwrap();
        let read = read_alone(&laptop, &format!("section.sheet[data-game=\"{game}\"] svg.qr")).await;
        assert_eq!(read, format!("{pages}/table/{game}"), "{game}'s sheet");
        sheet_links.push(read);
    }
    laptop.close().await.unwrap();
    drop(laptop_driver);

    // Every link read back opens: 200, the page it names.
    for link in &card_links {
        let (head, body) = plain_get(&plain, &format!("{HALL}:{plain_port}"), path_of(link, &reading), "es").await;
        assert!(head.starts_with("http/1.1 200"), "{link}: {head}");
        assert!(String::from_utf8_lossy(&body).contains("id=\"me-who\""), "{link}");
    }
    for link in &sheet_links {
        // A table's page, opened by a device signed in (here the organiser's code).
        let host = format!("{HALL}:{https_port}");
        let (head, body) = https_get(&connector, &https, &host, path_of(link, &pages), ORGANISER).await;
        assert!(head.starts_with("http/1.1 200"), "{link}: {head}");
        assert!(body.contains("id=\"table\""), "{link}");
        // In such a hall the HTTPS pages send no HSTS: it would turn the printed plain links
        // into HTTPS ones for every browser that trusts the root.
        assert!(!head.contains("strict-transport-security"), "{head}");
    }

    // A phone that installed nothing: the card, the pairings, the board, in Spanish and English.
    let phone_home = dir.path().join("phone");
    std::fs::create_dir_all(&phone_home).unwrap();
    let phone_driver = Driver::start_at_home(chromium, &chromedriver, &phone_home).resolving(HALL);
    let phone = phone_driver.phone(390, 844).await;
    for lang in ["es", "en"] {
        phone.goto(&format!("{reading}/lang?to={lang}&next=/hall/trust")).await.unwrap();
        phone.goto(&card_links[0]).await.unwrap();
        let who = eventually("the player's card", Duration::from_secs(15), || async {
            crate::web::text_of(&phone, "#me-who").await
        })
        .await;
        assert!(!who.is_empty());
        assert!(phone.current_url().await.unwrap().as_str().starts_with(&reading), "the card left the plain port");
        peek(&phone, &format!("phone-me-{lang}")).await;
        click(&phone, ".me-links a[href^=\"/pairings/\"]").await;
        eventually("the rounds", Duration::from_secs(10), || async { crate::web::text_of(&phone, "#rounds").await })
            .await;
        phone.goto(&format!("{reading}/pairings/open26/1")).await.unwrap();
        let next = eventually("round 1's pairings", Duration::from_secs(10), || async {
            let rows = js(&phone, "return document.querySelectorAll('#pairings tbody tr').length;").await;
            if rows != json!(8) {
                return None;
            }
            Some(
                js(&phone, "const n = document.getElementById('next'); return n ? n.getAttribute('href') : null;")
                    .await,
            )
        })
        .await;
        assert_eq!(next, json!("/pairings/open26/2"), "round 1 links to round 2");
        peek(&phone, &format!("phone-pairings-{lang}")).await;
        phone.goto(&format!("{reading}/board/open26")).await.unwrap();
        eventually("the board", Duration::from_secs(10), || async { crate::web::text_of(&phone, "#board-main").await })
            .await;
        peek(&phone, &format!("phone-board-{lang}")).await;
        let source = phone.source().await.unwrap();
        assert!(!source.contains("ERR_CERT"), "a certificate warning on the board");
        let said = js(&phone, "return document.documentElement.lang;").await;
        assert_eq!(said, json!(lang));
    }
    // The table's page is HTTPS only: on the phone, a certificate error, and nothing recorded.
    let game = games[0].as_str().unwrap();
    let _ = phone.goto(&format!("{reading}/table/{game}")).await;
    let source = eventually("the certificate error", Duration::from_secs(20), || async {
        let source = phone.source().await.ok()?;
        source.contains("ERR_CERT_AUTHORITY_INVALID").then_some(source)
    })
    .await;
    assert!(!source.contains("id=\"table\""), "the table page was shown over plain HTTP");
    let body = r#"{"events":[{"event_id":"phone-1","expected_version":0,"event":{"type":"game_started","at_ms":0}}]}"#;
    let mut stream = tokio::net::TcpStream::connect(&plain).await.unwrap();
    let request = format!(
        "POST /table/{game}/events HTTP/1.1\r\nHost: {HALL}:{plain_port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 308"), "a table's record over plain HTTP: {answer}");
    phone.close().await.unwrap();
}
