//! The organiser's paper against the real binaries: `ledgerctl tournament tables` adds table
//! tokens to a running ledgerd's auth file, SIGHUP admits them, `/tables/<t>/<n>` follows a
//! table from game to game; then in Chromium a tablet signs in through the printed QR code (read
//! back from a screenshot of the sheet) and lands on its table's game, and the day's pages print
//! to PDF (DevTools `Page.printToPDF`) with every table of the round.

use crate::daemon::Daemon;
use crate::support::{append, events, run_ledgerctl};
use crate::table::{skip_without_browser, DevTools};
use crate::web::{eventually, js, screenshot, Driver};
use fantoccini::{Client, Locator};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const ORGANISER: &str = "paper-organiser-token";

/// ledgerd with an auth file holding the organiser alone, and open26 without the streams of
/// q3-t1 and q4-t1: table 1 has played two rounds, table 2 all four.
struct Hall {
    daemon: Daemon,
    web: String,
    server: String,
    auth_file: PathBuf,
    open26: String,
    dir: tempfile::TempDir,
}

impl Hall {
    async fn open() -> Hall {
        let dir = tempfile::tempdir().unwrap();
        let auth_file = dir.path().join("auth.json");
        let organiser = ledger_house::auth::file::entry(ORGANISER, "olga", ledger_house::auth::Role::Organiser);
        std::fs::write(&auth_file, json!({"tokens": [organiser]}).to_string()).unwrap();
        let daemon = Daemon::spawn_with(
            &dir.path().join("data"),
            &["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"],
        );
        daemon.connect().await;
        let open26 =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl"))
                .unwrap();
        let hall = Hall {
            web: daemon.announced("http").to_owned(),
            server: format!("http://{}", daemon.addr()),
            daemon,
            auth_file,
            open26,
            dir,
        };
        hall.import(|line| !line.contains("\"stream\":\"game/q3-t1\"") && !line.contains("\"stream\":\"game/q4-t1\""))
            .await;
        hall
    }

    /// Imports the lines of open26 that `keep` keeps, as the organiser.
    async fn import(&self, keep: impl Fn(&str) -> bool) {
        let lines: String = self.open26.lines().filter(|l| keep(l)).map(|l| format!("{l}\n")).collect();
        let file = self.dir.path().join("import.jsonl");
        std::fs::write(&file, lines).unwrap();
        let out = self.ledgerctl(&["import", "--file", file.to_str().unwrap()]).await;
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }

    async fn ledgerctl(&self, args: &[&str]) -> std::process::Output {
        let mut all: Vec<String> = ["--server", &self.server, "--token", ORGANISER].map(str::to_owned).to_vec();
        all.extend(args.iter().map(|s| (*s).to_owned()));
        tokio::task::spawn_blocking(move || run_ledgerctl(&all.iter().map(String::as_str).collect::<Vec<_>>(), ""))
            .await
            .unwrap()
    }

    /// `ledgerctl tournament tables` for open26: the sheet's path.
    async fn print_tables(&self) -> PathBuf {
        let out_file = self.dir.path().join("tables.html");
        let url = format!("http://{}", self.web);
        let args = ["tournament", "tables", "--tournament", "open26", "--url", &url, "--auth-file"];
        let mut args: Vec<&str> = args.to_vec();
        args.extend([self.auth_file.to_str().unwrap(), "--out", out_file.to_str().unwrap()]);
        let out = self.ledgerctl(&args).await;
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("2 table tokens") && said.contains("open26-table-2"), "{said}");
        out_file
    }

    fn hangup(&self) {
        let pid = self.daemon.child.id().to_string();
        assert!(std::process::Command::new("kill").args(["-HUP", &pid]).status().unwrap().success());
    }
}

/// The sheet's link for each table, as printed in text.
fn links(sheet: &str) -> Vec<(u32, String)> {
    sheet
        .split("<section class=\"table-card\" data-table=\"")
        .skip(1)
        .map(|block| {
            let table = block.split('"').next().unwrap().parse().unwrap();
            let link = block.split("<p class=\"link\">").nth(1).unwrap().split("</p>").next().unwrap();
            (table, link.to_owned())
        })
        .collect()
}

fn token_of(link: &str) -> &str {
    link.split("#token=").nth(1).unwrap()
}

/// `GET path` with the token's sign-in cookie: the status and the `Location` header.
async fn get(web: &str, path: &str, token: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(web).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {web}\r\nCookie: {}={}\r\nConnection: close\r\n\r\n",
        ledger_web::COOKIE_TOKEN,
        hex::encode(token)
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer.split(' ').nth(1).unwrap().parse().unwrap();
    let location = answer
        .lines()
        .find_map(|l| l.strip_prefix("location: ").or_else(|| l.strip_prefix("Location: ")))
        .unwrap_or_default()
        .to_owned();
    (status, location)
}

/// Where `/tables/open26/<table>` sends a tablet now.
async fn current_game(hall: &Hall, table: u32, token: &str) -> (u16, String) {
    get(&hall.web, &format!("/tables/open26/{table}"), token).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_tokens_are_admitted_on_sighup_and_follow_their_table_from_game_to_game() {
    let hall = Hall::open().await;
    // A tournament without a draw has no tables: refused, the auth file untouched, no sheet.
    let created =
        hall.ledgerctl(&["tournament", "create", "--id", "empty26", "--name", "Empty", "--ruleset", "cafe2023"]).await;
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    let before = std::fs::read_to_string(&hall.auth_file).unwrap();
    let empty = hall.dir.path().join("empty.html");
    let args = ["tournament", "tables", "--tournament", "empty26", "--url", "http://127.0.0.1:1", "--auth-file"];
    let mut args = args.to_vec();
    args.extend([hall.auth_file.to_str().unwrap(), "--out", empty.to_str().unwrap()]);
    let refused = hall.ledgerctl(&args).await;
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("draw the qualifying rounds first"));
    assert_eq!(std::fs::read_to_string(&hall.auth_file).unwrap(), before);
    assert!(!empty.exists());

    let sheet = std::fs::read_to_string(hall.print_tables().await).unwrap();
    let links = links(&sheet);
    assert_eq!(links.iter().map(|(t, _)| *t).collect::<Vec<_>>(), [1, 2], "one block per table of the draw");
    let (table1, table2) = (token_of(&links[0].1).to_owned(), token_of(&links[1].1).to_owned());
    assert!(links[0].1.starts_with(&format!("http://{}/signin?next=/tables/open26/1#token=", hall.web)));
    // The auth file keeps the organiser and holds the tables' digests, never their tokens.
    let file = std::fs::read_to_string(&hall.auth_file).unwrap();
    let file_json: Value = serde_json::from_str(&file).unwrap();
    let actors: Vec<&str> =
        file_json["tokens"].as_array().unwrap().iter().map(|e| e["actor"].as_str().unwrap()).collect();
    assert_eq!(actors, ["olga", "open26-table-1", "open26-table-2"]);
    assert!(!file.contains(&table1) && !file.contains(&table2));

    // Not yet: ledgerd read its auth file when it started.
    assert_eq!(current_game(&hall, 1, &table1).await.0, 401);
    hall.hangup();
    let (status, location) = eventually("ledgerd to admit table 1's token", Duration::from_secs(10), || async {
        Some(current_game(&hall, 1, &table1).await).filter(|(status, _)| *status == 303)
    })
    .await;
    assert_eq!((status, location.as_str()), (303, "/table/q3-t1"), "table 1 plays round 3 next");
    // Table 2 has ended all its games: it stays on the last.
    assert_eq!(current_game(&hall, 2, &table2).await, (303, "/table/q4-t2".to_owned()));
    // The organiser's token still works after the reload.
    assert_eq!(current_game(&hall, 1, ORGANISER).await.1, "/table/q3-t1");
    assert_eq!(current_game(&hall, 9, &table1).await.0, 404, "no table 9 in open26");

    // q3-t1 is played to its end: table 1 moves on to round 4.
    hall.import(|line| line.contains("\"stream\":\"game/q3-t1\"")).await;
    assert_eq!(current_game(&hall, 1, &table1).await, (303, "/table/q4-t1".to_owned()));

    // The table's token records in every game of its table, this one too.
    let mut grpc = hall.daemon.connect().await;
    let mut request =
        tonic::Request::new(append("game/q4-t1", &events(&[json!({"type": "game_started", "at_ms": 0})]), "", None));
    request.metadata_mut().insert("authorization", format!("Bearer {table1}").parse().unwrap());
    grpc.append(request).await.expect("table 1's token records in q4-t1");
    // A table token prints nothing.
    assert_eq!(get(&hall.web, "/paper/open26/pairings/1", &table1).await.0, 403);
}

/// Draws every QR code of the page 8 screen pixels a module, so that a screenshot holds whole
/// modules (a phone's camera copes with the uneven ones of a small window; the decoder here less).
pub(crate) async fn enlarge_codes(client: &Client) {
    let script = "for (const s of document.querySelectorAll('svg.qr')) { const n = s.viewBox.baseVal.width; \
                  s.style.width = s.style.height = (n * 8) + 'px'; } return null;";
    js(client, script).await;
}

/// The QR code in a screenshot (PNG) of one element, read as a phone's camera would.
pub(crate) fn read_qr(png_bytes: &[u8]) -> String {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes)).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    let (width, height) = (frame.width as usize, frame.height as usize);
    let per_pixel = frame.line_size / width;
    let mut image =
        rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| pixels[y * frame.line_size + x * per_pixel]);
    let grids = image.detect_grids();
    if grids.len() != 1 {
        let kept = std::env::temp_dir().join("paper-qr-unread.png");
        std::fs::write(&kept, png_bytes).unwrap();
        panic!("{} QR codes in the screenshot (kept in {})", grids.len(), kept.display());
    }
    grids[0].decode().expect("the printed QR code reads").1
}

/// The page printed as Chromium's print preview would (A4, backgrounds), its number of pages.
pub(crate) async fn print_pages(client: &Client) -> usize {
    use base64::Engine;
    let params = json!({"printBackground": true, "paperWidth": 8.27, "paperHeight": 11.69, "preferCSSPageSize": true});
    let printed = client.issue_cmd(DevTools { cmd: "Page.printToPDF", params }).await.unwrap();
    let pdf = base64::engine::general_purpose::STANDARD.decode(printed["data"].as_str().unwrap()).unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
    // Each page object says `/Type /Page` (the page tree says `/Type /Pages`).
    let text = String::from_utf8_lossy(&pdf);
    text.matches("/Type /Page").count() - text.matches("/Type /Pages").count()
}

/// The notes under the printed standings.
async fn text_of_notes(client: &Client) -> Vec<String> {
    let notes =
        js(client, "return [...document.querySelectorAll('#standings-notes li')].map(l => l.textContent);").await;
    serde_json::from_value(notes).unwrap()
}

async fn wait_for(client: &Client, css: &'static str) {
    let script = format!("return document.querySelector({}) !== null;", json!(css));
    eventually(css, Duration::from_secs(10), || async { (js(client, &script).await == json!(true)).then_some(()) })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tablet_signs_in_through_the_printed_qr_code_and_the_day_s_paper_prints() {
    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let hall = Hall::open().await;
    let sheet_path = hall.print_tables().await;
    let sheet = std::fs::read_to_string(&sheet_path).unwrap();
    let printed = links(&sheet);
    hall.hangup();
    let table1 = token_of(&printed[0].1).to_owned();
    eventually("ledgerd to admit the new tokens", Duration::from_secs(10), || async {
        (current_game(&hall, 1, &table1).await.0 == 303).then_some(())
    })
    .await;
    let driver = Driver::start(chromium, &chromedriver);
    let organiser = driver.browser(1200, 900).await;

    // The sheet as printed: every table's code reads back as its link.
    organiser.goto(&format!("file://{}", sheet_path.display())).await.unwrap();
    assert_eq!(print_pages(&organiser).await, 1, "two tables fit one sheet");
    screenshot(&organiser, "paper-tables").await;
    enlarge_codes(&organiser).await;
    let mut scanned = Vec::new();
    for (table, link) in &printed {
        let css = format!("section[data-table=\"{table}\"] svg.qr");
        let code = organiser.find(Locator::Css(&css)).await.unwrap();
        let read = read_qr(&code.screenshot().await.unwrap());
        assert_eq!(&read, link, "table {table}'s QR code");
        scanned.push(read);
    }

    // Table 1's tablet follows the code it scanned: signed in, on its game, the token gone.
    let tablet = driver.browser(1280, 800).await;
    tablet.goto(&scanned[0]).await.unwrap();
    let landed = format!("http://{}/table/q3-t1", hall.web);
    eventually("the tablet to land on q3-t1", Duration::from_secs(15), || async {
        let url = tablet.current_url().await.ok()?;
        (url.as_str() == landed).then_some(())
    })
    .await;
    wait_for(&tablet, "#who").await;
    let who = js(&tablet, "return document.getElementById('who').textContent;").await;
    let who = who.as_str().unwrap_or_default();
    assert!(who.contains("table 1 of open26") || who.contains("mesa 1 de open26"), "{who}");
    let seen = js(&tablet, "return location.href + ' ' + document.cookie;").await;
    assert!(!seen.as_str().unwrap().contains(&table1), "the token shows: {seen}");
    tablet.close().await.unwrap();

    // The organiser signs in and prints the day's paper.
    organiser.goto(&format!("http://{}/signin", hall.web)).await.unwrap();
    wait_for(&organiser, "#token").await;
    organiser.find(Locator::Id("token")).await.unwrap().send_keys(ORGANISER).await.unwrap();
    organiser.find(Locator::Id("signin")).await.unwrap().click().await.unwrap();
    eventually("the sign-in", Duration::from_secs(10), || async {
        let url = organiser.current_url().await.ok()?;
        (!url.path().starts_with("/signin")).then_some(())
    })
    .await;
    // The index offers the organiser the tournament's paper.
    wait_for(&organiser, "a[href=\"/paper/open26\"]").await;
    for round in 1..=4 {
        organiser.goto(&format!("http://{}/paper/open26/pairings/{round}", hall.web)).await.unwrap();
        wait_for(&organiser, "#pairings").await;
        let rows =
            js(&organiser, "return [...document.querySelectorAll('#pairings tbody tr')].map(r => r.dataset.game);")
                .await;
        assert_eq!(rows, json!([format!("q{round}-t1"), format!("q{round}-t2")]), "round {round}");
        assert_eq!(print_pages(&organiser).await, 1, "round {round}'s pairings on one page");
    }
    // One report sheet a page, every table of the round; its code opens the game's table page.
    organiser.goto(&format!("http://{}/paper/open26/sheets/3", hall.web)).await.unwrap();
    wait_for(&organiser, "section.sheet").await;
    let sheets =
        js(&organiser, "return [...document.querySelectorAll('section.sheet')].map(s => s.dataset.game);").await;
    assert_eq!(sheets, json!(["q3-t1", "q3-t2"]));
    let page = organiser.source().await.unwrap();
    assert!(page.contains("Cai Costa") && page.contains("Start time") && page.contains("First Card of Fate"));
    assert_eq!(print_pages(&organiser).await, 2, "one sheet a table");
    screenshot(&organiser, "paper-sheet").await;
    enlarge_codes(&organiser).await;
    let code = organiser.find(Locator::Css("section.sheet[data-game=\"q3-t2\"] svg.qr")).await.unwrap();
    assert_eq!(read_qr(&code.screenshot().await.unwrap()), format!("http://{}/table/q3-t2", hall.web));
    // The final standings, every player and every tie-breaker of the CAFE 2023 rules.
    organiser.goto(&format!("http://{}/paper/open26/standings", hall.web)).await.unwrap();
    wait_for(&organiser, "#standings").await;
    let rows = js(&organiser, "return document.querySelectorAll('#standings tbody tr').length;").await;
    assert_eq!(rows, json!(8));
    let headers =
        js(&organiser, "return [...document.querySelectorAll('#standings th.tb')].map(h => h.textContent);").await;
    assert_eq!(headers, json!(["second best sum", "sTCC", "opponents' quality", "lot"]));
    // Each column under its heading: the totals are those of `ledgerctl standings`, in order, and
    // every sTCC cell is a value or why it is unavailable.
    let column = |heading: &str| {
        format!(
            "const i = [...document.querySelectorAll('#standings thead th')].findIndex(h => h.textContent === {});
             return [...document.querySelectorAll('#standings tbody tr')].map(r => r.children[i].textContent);",
            json!(heading)
        )
    };
    let standings = hall.ledgerctl(&["--json", "standings", "--tournament", "open26"]).await;
    let standings: Value = serde_json::from_slice(&standings.stdout).unwrap();
    let totals: Vec<String> = standings["rows"].as_array().unwrap().iter().map(|r| r["total"].to_string()).collect();
    assert_eq!(js(&organiser, &column("Total")).await, json!(totals));
    for cell in js(&organiser, &column("sTCC")).await.as_array().unwrap() {
        let cell = cell.as_str().unwrap();
        // Unavailable: a dash and the number of the note that says why, once, under the table.
        assert!(cell.contains('→') || cell.starts_with('–'), "{cell}");
    }
    let dashes = js(&organiser, "return document.querySelectorAll('#standings td.missing').length;").await;
    let notes = text_of_notes(&organiser).await;
    assert_eq!(dashes.as_u64().unwrap() > 0, !notes.is_empty(), "{notes:?}");
    assert!(notes.iter().all(|n| n.contains(": unavailable: ")), "{notes:?}");
    assert!(print_pages(&organiser).await >= 1);
    screenshot(&organiser, "paper-standings").await;
    // In Spanish.
    organiser.goto(&format!("http://{}/lang?to=es&next=/paper/open26/pairings/1", hall.web)).await.unwrap();
    organiser.goto(&format!("http://{}/paper/open26/pairings/1", hall.web)).await.unwrap();
    wait_for(&organiser, "#pairings").await;
    let head = js(&organiser, "return document.querySelector('#pairings thead').textContent;").await;
    assert!(head.as_str().unwrap().contains("Mesa") && head.as_str().unwrap().contains("Federico"), "{head}");
    organiser.close().await.unwrap();
}

/// Behind a proxy (`--public-origin`), every printed link starts with the public origin, whatever
/// `X-Forwarded-Proto` a client sends; `players.csv` writes a pseudonym a spreadsheet would run
/// (`=HYPERLINK(...)`, `-1+2`) as text (issue 41, items 1 and 5).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_behind_a_proxy_name_its_public_origin_and_no_csv_cell_runs() {
    let dir = tempfile::tempdir().unwrap();
    let auth_file = dir.path().join("auth.json");
    let organiser = ledger_house::auth::file::entry(ORGANISER, "olga", ledger_house::auth::Role::Organiser);
    std::fs::write(&auth_file, json!({"tokens": [organiser]}).to_string()).unwrap();
    let args = ["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"];
    let daemon = Daemon::spawn_with(
        &dir.path().join("data"),
        &[&args[..], &["--public-origin", "https://Hall.Example:8443/"]].concat(),
    );
    daemon.connect().await;
    let server = format!("http://{}", daemon.addr());
    let ctl = |args: &[&str]| {
        let all = [&["--server", server.as_str(), "--token", ORGANISER, "tournament"][..], args].concat();
        let out = run_ledgerctl(&all, "");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    ctl(&["create", "--id", "px", "--name", "Proxy Open", "--ruleset", "cafe2023"]);
    let pseudonyms = ["=HYPERLINK(\"http://evil.example\",\"x\")", "-1+2", "@SUM(A1)", "Zorro"];
    for (n, pseudonym) in pseudonyms.iter().enumerate() {
        let (player, name) = (format!("p{n}"), format!("Player {n}"));
        let pseudonym = format!("--pseudonym={pseudonym}");
        ctl(&["register", "--tournament", "px", "--player", &player, "--name", &name, &pseudonym]);
    }
    let web = daemon.announced("http").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&web).await.unwrap();
    let request = format!(
        "GET /paper/px/players.csv HTTP/1.1\r\nHost: {web}\r\nX-Forwarded-Proto: http\r\nCookie: {}={}\r\n\
         Connection: close\r\n\r\n",
        ledger_web::COOKIE_TOKEN,
        hex::encode(ORGANISER)
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let csv = answer.split_once("\r\n\r\n").unwrap().1;
    let lines: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(lines.len(), 4, "{csv}");
    for line in &lines {
        let link = line.rsplit(',').next().unwrap();
        assert!(link.starts_with("https://hall.example:8443/me/px/"), "{line}");
    }
    assert!(lines[0].contains(",\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\","), "{}", lines[0]);
    assert!(lines[1].contains(",'-1+2,") && lines[2].contains(",'@SUM(A1),") && lines[3].contains(",Zorro,"), "{csv}");
    // The printable cards too.
    let mut stream = tokio::net::TcpStream::connect(&web).await.unwrap();
    let request = format!(
        "GET /paper/px/players HTTP/1.1\r\nHost: {web}\r\nCookie: {}={}\r\nConnection: close\r\n\r\n",
        ledger_web::COOKIE_TOKEN,
        hex::encode(ORGANISER)
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).await.unwrap();
    assert!(page.contains("https://hall.example:8443/me/px/") && !page.contains(&format!("http://{web}")), "{page}");
}
