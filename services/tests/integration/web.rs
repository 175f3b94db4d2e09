//! The web pages in a real headless browser against a real `ledgerd --http-listen` with an auth
//! file: Debian's `chromium` driven through `chromedriver` (WebDriver, the `fantoccini` crate).
//!
//! One ledgerd and one chromedriver serve every step, in order, because starting a browser
//! costs seconds on a two-core CI machine; each step is its own function named for what it
//! proves. A missing browser skips the test loudly, and fails it under `CI=true` (`.ci/run`
//! installs both). `UPDATE_SCREENSHOTS=1` (or a missing file) rewrites `docs/screenshots/`.

use crate::daemon::Daemon;
use crate::support::run_ledgerctl;
use fantoccini::{Client, ClientBuilder, Locator};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tonic::transport::Channel;

pub(crate) const TABLE_TOKEN: &str = "table-token-4";
pub(crate) const JURY_TOKEN: &str = "jury-token-anna";
const ANALYST_TOKEN: &str = "analyst-token-ana";
const ORGANISER_TOKEN: &str = "organiser-token-olga";

/// A port free now, for chromedriver, which cannot say which port it bound (ledgerd can, and
/// the tests read it from its announcement instead).
pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The browser and its driver, from `CHROMIUM`/`CHROMEDRIVER` or where Debian puts them.
pub(crate) fn browser_binaries() -> Option<(PathBuf, PathBuf)> {
    let find = |var: &str, names: &[&str]| -> Option<PathBuf> {
        if let Some(path) = std::env::var_os(var) {
            return Some(PathBuf::from(path)).filter(|p| p.exists());
        }
        let dirs = std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect::<Vec<_>>()).unwrap_or_default();
        names.iter().flat_map(|name| dirs.iter().map(move |dir| dir.join(name))).find(|p| p.exists())
    };
    Some((find("CHROMIUM", &["chromium", "chromium-browser"])?, find("CHROMEDRIVER", &["chromedriver"])?))
}

/// `chromedriver` on a free port, killed on drop.
pub(crate) struct Driver {
    child: Child,
    url: String,
    chromium: PathBuf,
    /// What every window's Chromium is started with beyond the headless defaults.
    args: Vec<String>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    pub(crate) fn start(chromium: PathBuf, chromedriver: &Path) -> Driver {
        Driver::spawn(chromium, Command::new(chromedriver))
    }

    /// A driver whose Chromium runs with `home` as `$HOME`, so with the NSS database there
    /// (`.pki/nssdb`, the certificates it trusts).
    pub(crate) fn start_at_home(chromium: PathBuf, chromedriver: &Path, home: &Path) -> Driver {
        let mut command = Command::new(chromedriver);
        command.env("HOME", home);
        Driver::spawn(chromium, command)
    }

    fn spawn(chromium: PathBuf, mut chromedriver: Command) -> Driver {
        let port = free_port();
        let child = chromedriver
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        Driver { child, url: format!("http://127.0.0.1:{port}"), chromium, args: Vec::new() }
    }

    /// Its windows resolve `name` to loopback (a venue's name, without a DNS server).
    pub(crate) fn resolving(mut self, name: &str) -> Driver {
        self.args.push(format!("--host-resolver-rules=MAP {name} 127.0.0.1"));
        self
    }

    /// A new headless browser window (a session of its own: its own cookies).
    pub(crate) async fn browser(&self, width: u32, height: u32) -> Client {
        self.session(width, height, false).await
    }

    /// A phone's screen (its viewport `width` × `height` CSS pixels, touch), which a headless
    /// window cannot be: Chromium keeps windows at least 500 px wide.
    pub(crate) async fn phone(&self, width: u32, height: u32) -> Client {
        self.session(width, height, true).await
    }

    async fn session(&self, width: u32, height: u32, phone: bool) -> Client {
        let mut args: Vec<String> =
            ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"].map(str::to_owned).into();
        args.extend([format!("--window-size={width},{height}"), "--hide-scrollbars".to_owned()]);
        args.extend(self.args.iter().cloned());
        let mut options = json!({"binary": self.chromium, "args": args});
        if phone {
            options["mobileEmulation"] = json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1}});
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("goog:chromeOptions".into(), options);
        eventually("a browser session from chromedriver", Duration::from_secs(30), || {
            let capabilities = capabilities.clone();
            async move {
                let connector = hyper_util::client::legacy::connect::HttpConnector::new();
                ClientBuilder::new(connector).capabilities(capabilities).connect(&self.url).await
            }
        })
        .await
    }
}

/// The one polling helper lives in `support`; re-exported for the browser tests' imports.
pub(crate) use crate::support::eventually;

/// Runs `script` in the page (its `return` value as JSON).
pub(crate) async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or(Value::Null)
}

pub(crate) async fn click(client: &Client, css: &str) {
    // The page's own click handler, run in the page: pages that redraw themselves (the table)
    // would leave a WebDriver element reference stale between finding and clicking it.
    let script = format!(
        "const b = document.querySelector({}); if (!b || b.disabled) {{ return false; }} b.click(); return true;",
        json!(css)
    );
    eventually(&format!("{css} to be clickable"), Duration::from_secs(10), || async {
        (js(client, &script).await == json!(true)).then_some(())
    })
    .await;
}

pub(crate) async fn text_of(client: &Client, css: &str) -> Option<String> {
    let script = format!("const e = document.querySelector({}); return e ? e.textContent : null;", json!(css));
    js(client, &script).await.as_str().map(str::to_owned)
}

/// A screenshot for the README, kept in `docs/screenshots/`.
pub(crate) async fn screenshot(client: &Client, name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/screenshots").join(format!("{name}.png"));
    if path.exists() && std::env::var_os("UPDATE_SCREENSHOTS").is_none() {
        return;
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    js(client, "window.scrollTo(0, 0); return null;").await;
    std::fs::write(&path, client.screenshot().await.unwrap()).unwrap();
}

/// A page as the browser shows it, kept for a person to look at, never committed
/// (`$TMPDIR/ledger-shots/<name>.png`).
pub(crate) async fn peek(client: &Client, name: &str) {
    let dir = std::env::temp_dir().join("ledger-shots");
    std::fs::create_dir_all(&dir).unwrap();
    js(client, "window.scrollTo(0, 0); return null;").await;
    std::fs::write(dir.join(format!("{name}.png")), client.screenshot().await.unwrap()).unwrap();
}

/// The stream as the ledger has it, as canonical JSON events.
pub(crate) async fn events_of(grpc: &mut LedgerClient<Channel>, stream: &str) -> Vec<Value> {
    use tokio_stream::StreamExt;
    let mut request =
        tonic::Request::new(pb::ReadRequest { stream: stream.into(), from_seq: 1, limit: None, ..Default::default() });
    request.metadata_mut().insert("authorization", format!("Bearer {JURY_TOKEN}").parse().unwrap());
    let records = grpc.read(request).await.unwrap().into_inner();
    let records: Vec<pb::RecordedEvent> = records.map(Result::unwrap).collect().await;
    records
        .into_iter()
        .map(|r| {
            use ledger_proto::convert::FromProto;
            ledger::event::to_canonical_json(&ledger::Recorded::from_proto(r).unwrap().event)
        })
        .collect()
}

struct World {
    daemon: Daemon,
    grpc: LedgerClient<Channel>,
    web: String,
    server: String,
    _dir: tempfile::TempDir,
}

/// ledgerd with an auth file and the web pages, holding the open26 tournament without the
/// stream of its game q4-t2, which the table page is about to play.
async fn start_ledgerd() -> World {
    let dir = tempfile::tempdir().unwrap();
    let entry = |token: &str, actor: &str, role: &str| json!({"sha256": hex::encode(ledger_house::auth::token_digest(token)), "actor": actor, "clearance": role});
    let auth = json!({"tokens": [
        entry(TABLE_TOKEN, "table-4", "table"),
        entry(JURY_TOKEN, "jury-anna", "jury"),
        entry(ANALYST_TOKEN, "ana", "analyst"),
        entry(ORGANISER_TOKEN, "olga", "organiser"),
    ]});
    let auth_file = dir.path().join("auth.json");
    std::fs::write(&auth_file, auth.to_string()).unwrap();
    let data = dir.path().join("data");
    let daemon =
        Daemon::spawn_with(&data, &["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"]);
    let web_addr = daemon.announced("http").to_owned();
    let grpc = daemon.connect().await;
    let server = format!("http://{}", daemon.addr());
    let open26 =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl")).unwrap();
    let without_q4_t2: String =
        open26.lines().filter(|l| !l.contains("\"stream\":\"game/q4-t2\"")).map(|l| format!("{l}\n")).collect();
    let file = dir.path().join("open26.jsonl");
    std::fs::write(&file, without_q4_t2).unwrap();
    let args = ["--server", &server, "--token", ORGANISER_TOKEN, "import", "--file", file.to_str().unwrap()];
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    let imported =
        tokio::task::spawn_blocking(move || run_ledgerctl(&args.iter().map(String::as_str).collect::<Vec<_>>(), ""))
            .await
            .unwrap();
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    World { daemon, grpc, web: format!("http://{web_addr}"), server, _dir: dir }
}

/// Signs `client` in on the pages at `web` (`http://host:port`) with `token`, and waits for `next`.
pub(crate) async fn sign_in(client: &Client, web: &str, token: &str, next: &str) {
    client.goto(&format!("{web}/signin?next={next}")).await.unwrap();
    let field = eventually("the token field", Duration::from_secs(10), || async {
        client.find(Locator::Id("token")).await.ok()
    })
    .await;
    field.send_keys(token).await.unwrap();
    click(client, "#signin").await;
    let want = format!("{web}{next}");
    eventually(&format!("{next} after signing in"), Duration::from_secs(10), || async {
        let url = client.current_url().await.ok()?;
        (url.as_str().split('?').next() == Some(want.as_str())).then_some(())
    })
    .await;
}

/// The table page's `data-version` once it is at least `version` (after its own reload).
async fn table_at_version(client: &Client, version: u64) {
    eventually(&format!("the table page at version {version}"), Duration::from_secs(10), || async {
        let shown =
            js(client, "const t = document.getElementById('table'); return t ? Number(t.dataset.version) : null;")
                .await;
        if shown.as_u64().is_some_and(|v| v >= version) {
            return Ok(());
        }
        let error = text_of(client, "#notice").await.unwrap_or_default();
        Err(format!("it shows {shown}; its error line: {error:?}"))
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_work_in_a_real_browser() {
    let Some((chromium, chromedriver)) = browser_binaries() else {
        let message = "\n\n*** web tests SKIPPED: no chromium/chromedriver (apt-get install chromium chromium-driver, \
                       or set CHROMIUM and CHROMEDRIVER) ***\n";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}under CI=true the browser is required");
        eprintln!("{message}");
        return;
    };
    let driver = Driver::start(chromium, &chromedriver);
    let mut world = start_ledgerd().await;
    // A 10-inch tablet at the table, the hall's projector on the board.
    let table = driver.browser(1280, 800).await;
    let board = driver.browser(1600, 900).await;

    board_shows_the_tournament_to_the_public(&board, &world).await;
    tapping_the_clock_appends_clock_pressed_and_the_board_follows(&table, &board, &mut world).await;
    a_double_tap_never_appends_twice(&table, &mut world).await;
    an_event_appended_over_grpc_reaches_the_board_within_a_second(&board, &mut world).await;
    a_refused_event_shows_the_ledgers_reason_and_appends_nothing(&table, &mut world).await;
    screenshot(&table, "table").await;
    screenshot(&board, "board").await;
    the_jury_steps_to_an_earlier_point_and_sees_its_score_sheet(&table, &world).await;
    the_analyst_chart_renders_and_its_csv_matches_the_cli(&board, &world).await;
    the_andes_board_shows_the_pieces_where_the_projection_puts_them(&board, &mut world).await;

    table.close().await.unwrap();
    board.close().await.unwrap();
    drop(world.daemon);
}

async fn board_shows_the_tournament_to_the_public(board: &Client, world: &World) {
    board.goto(&format!("{}/board/open26", world.web)).await.unwrap();
    let rows = eventually("the standings", Duration::from_secs(10), || async {
        js(board, "return document.querySelectorAll('#standings tbody tr').length;").await.as_u64().filter(|n| *n == 8)
    })
    .await;
    assert_eq!(rows, 8);
    let html = board.source().await.unwrap();
    // Pseudonyms only: the players' names never reach the public.
    assert!(html.contains("Fox") && !html.contains("Cai Costa"), "the board names players");
    assert!(html.contains("q4-t2") || html.contains("none"), "{html}");
    // A marker that a reload would lose.
    js(board, "window.noReload = 'still here'; return null;").await;
}

async fn tapping_the_clock_appends_clock_pressed_and_the_board_follows(
    table: &Client,
    board: &Client,
    world: &mut World,
) {
    sign_in(table, &world.web, TABLE_TOKEN, "/table/q4-t2").await;
    assert_eq!(text_of(table, "#who").await.as_deref(), Some("table-4 (table)"));
    click(table, "#do-game_started").await;
    table_at_version(table, 1).await;
    click(table, "#do-turn_started").await;
    table_at_version(table, 2).await;
    click(table, "#press-prussia").await; // a stopped clock starts for the side tapped
    table_at_version(table, 3).await;
    let running = |side: &'static str| {
        move || async move {
            let script = "const g = document.querySelector('#running .game[data-game=\"q4-t2\"]'); return g ? g.dataset.running : null;";
            (js(board, script).await.as_str() == Some(side)).then_some(())
        }
    };
    eventually("the board to show q4-t2 running for prussia", Duration::from_secs(5), running("prussia")).await;
    // Prussia hands the clock over.
    click(table, "#press-prussia").await;
    table_at_version(table, 4).await;
    let events = events_of(&mut world.grpc, "game/q4-t2").await;
    assert_eq!(events.last().unwrap()["type"], "clock_pressed", "{events:?}");
    eventually("the board to show the attackers' clock running", Duration::from_secs(5), running("attackers")).await;
    assert_eq!(js(board, "return window.noReload;").await, json!("still here"), "the board reloaded");
    // And the attackers' clock ticks down without any event.
    let before = text_of(board, "#running .side.running .clock").await.unwrap();
    eventually("the board's running clock to tick", Duration::from_secs(5), || async {
        (text_of(board, "#running .side.running .clock").await? != before).then_some(())
    })
    .await;
}

async fn a_double_tap_never_appends_twice(table: &Client, world: &mut World) {
    let before = events_of(&mut world.grpc, "game/q4-t2").await.len();
    // The same tap sent twice, as a resend after a lost acknowledgement would: one event, and
    // the second answer says it was stored already.
    let version = u64::try_from(before).unwrap();
    let answers = table
        .execute_async(
            "const [version, done] = arguments;
             const body = JSON.stringify({events: [{event_id: 'tablet-double-tap', expected_version: version,
               event: {type: 'clock_pressed', at_ms: tableApp.view.table_now_ms + 1500}}]});
             const send = () => fetch('/table/q4-t2/events', {method: 'POST',
               headers: {'Accept': 'application/json', 'Content-Type': 'application/json'}, body}).then(r => r.json());
             send().then(first => send().then(second => done([first, second])));",
            vec![json!(version)],
        )
        .await
        .unwrap();
    assert_eq!(answers[0]["results"][0]["status"], "stored", "{answers}");
    assert_eq!(answers[1]["results"][0]["status"], "duplicate", "{answers}");
    assert_eq!(answers[0]["results"][0]["seq"], answers[1]["results"][0]["seq"]);
    let after = events_of(&mut world.grpc, "game/q4-t2").await;
    assert_eq!(after.len(), before + 1, "{after:?}");
    table_at_version(table, version + 1).await;
}

async fn an_event_appended_over_grpc_reaches_the_board_within_a_second(board: &Client, world: &mut World) {
    let event = ledger::event::from_canonical_json(&json!({"type": "turn_started", "turn": 2})).unwrap();
    let mut request = tonic::Request::new(crate::support::append("game/q4-t2", &[event], "grpc-turn-2-", None));
    request.metadata_mut().insert("authorization", format!("Bearer {TABLE_TOKEN}").parse().unwrap());
    let appended_at = Instant::now();
    world.grpc.append(request).await.unwrap();
    eventually("turn 2 on the board", Duration::from_secs(1), || async {
        let turn = text_of(board, "#running .game[data-game=\"q4-t2\"] .turn").await?;
        (turn == "turn 2").then_some(())
    })
    .await;
    eprintln!("board latency: turn 2 shown {} ms after the append was acknowledged", appended_at.elapsed().as_millis());
    assert_eq!(js(board, "return window.noReload;").await, json!("still here"), "the board reloaded");
}

async fn a_refused_event_shows_the_ledgers_reason_and_appends_nothing(table: &Client, world: &mut World) {
    let before = events_of(&mut world.grpc, "game/q4-t2").await.len();
    table.goto(&format!("{}/table/q4-t2", world.web)).await.unwrap();
    table_at_version(table, u64::try_from(before).unwrap()).await;
    // Russia leaves holding more objectives than it has: the rules refuse it on the tablet.
    click(table, "#open-drop").await;
    let script = "const f = document.querySelector('form[data-action=\"nation_dropped_out\"]');\
                  if (!f) { return null; }\
                  f.querySelector('[name=nation]').value = 'russia';\
                  f.querySelector('[name=objectives_held]').value = '12';\
                  f.querySelector('[name=objectives_total]').value = '10';\
                  f.requestSubmit(); return document.getElementById('notice').textContent;";
    let shown = eventually("the refusal on the table page", Duration::from_secs(10), || async {
        js(table, script).await.as_str().map(str::to_owned)
    })
    .await;
    assert_eq!(shown, "objectives held must be between 0 and the total 10, got 12");
    assert_eq!(sync_state(table).await, "recorded", "a refused tap was queued");
    assert_eq!(events_of(&mut world.grpc, "game/q4-t2").await.len(), before, "a refused event was appended");
}

/// The table's status line: `recorded`, `waiting` or `offline`.
async fn sync_state(table: &Client) -> String {
    let state = js(table, "const s = document.getElementById('sync'); return s ? s.dataset.state : null;").await;
    state.as_str().unwrap_or_default().to_owned()
}

async fn the_jury_steps_to_an_earlier_point_and_sees_its_score_sheet(browser: &Client, world: &World) {
    // A table token does not open the jury's viewer.
    browser.goto(&format!("{}/jury/q1-t1", world.web)).await.unwrap();
    let refused = text_of(browser, "#error").await.unwrap_or_default();
    assert_eq!(refused, "The replay viewer is for the jury; table-4 is cleared as table.");
    let code = js(browser, "return document.getElementById('error').dataset.code;").await;
    assert_eq!(code, json!("PERMISSION_DENIED"));
    sign_in(browser, &world.web, JURY_TOKEN, "/jury/q1-t1").await;
    let last = js(browser, "return Number(document.getElementById('jury').dataset.last);").await.as_u64().unwrap();
    assert!(last > 40);
    // The slider, moved as a hand would: its value, then the change event.
    js(
        browser,
        "const s = document.getElementById('slider'); s.value = 40; s.dispatchEvent(new Event('change')); return null;",
    )
    .await;
    eventually("the viewer at event 40", Duration::from_secs(10), || async {
        (js(browser, "const j = document.getElementById('jury'); return j ? j.dataset.at : null;").await == json!("40"))
            .then_some(())
    })
    .await;
    // The point is worded from the same audit as `ledgerctl audit --at 40 --json`: its turn and
    // each nation's tactical cards agree.
    let shown = text_of(browser, "#point").await.unwrap();
    let cli = ledgerctl(world, JURY_TOKEN, &["--json", "audit", "q1-t1", "--at", "40"]).await;
    let point: Value = serde_json::from_str(String::from_utf8_lossy(&cli.stdout).trim()).unwrap();
    assert!(shown.contains("After event 40"), "{shown}");
    let turn = point["state"]["turn"].as_u64().unwrap();
    assert!(shown.contains(&format!("turn {turn}")), "turn {turn}: {shown}");
    let cards =
        js(browser, "return document.querySelector('#point-nations tr th[scope=row] + td + td + td').textContent;")
            .await;
    assert_eq!(cards.as_str().and_then(|c| c.parse::<u64>().ok()), point["tc_dealt"]["prussia"].as_u64(), "{shown}");
    assert!(text_of(browser, "#point-sheet").await.is_some(), "the viewer shows no score sheet: {shown}");
    // One step back.
    click(browser, "#step-back").await;
    eventually("the viewer at event 39", Duration::from_secs(10), || async {
        (js(browser, "const j = document.getElementById('jury'); return j ? j.dataset.at : null;").await == json!("39"))
            .then_some(())
    })
    .await;
    let digest = text_of(browser, "#digest").await.unwrap();
    assert_eq!(digest.len(), 12, "{digest}");
    screenshot(browser, "jury").await;
}

/// `ledgerctl --server <the world's> --token <token> <args>`, off the async workers; it must succeed.
async fn ledgerctl(world: &World, token: &str, args: &[&str]) -> std::process::Output {
    let args: Vec<String> =
        ["--server", world.server.as_str(), "--token", token].iter().chain(args).map(|s| (*s).to_owned()).collect();
    let cli =
        tokio::task::spawn_blocking(move || run_ledgerctl(&args.iter().map(String::as_str).collect::<Vec<_>>(), ""))
            .await
            .unwrap();
    assert!(cli.status.success(), "{}", String::from_utf8_lossy(&cli.stderr));
    cli
}

async fn the_analyst_chart_renders_and_its_csv_matches_the_cli(browser: &Client, world: &World) {
    sign_in(browser, &world.web, ANALYST_TOKEN, "/analyst").await;
    let bars = eventually("the role chart's bars", Duration::from_secs(10), || async {
        js(browser, "return document.querySelectorAll('#chart-roles rect.bar').length;")
            .await
            .as_u64()
            .filter(|n| *n > 0)
    })
    .await;
    assert_eq!(bars, 4, "one bar per role");
    // The page says whose games it counted: the one tournament, by name, linked to its board.
    let covered = text_of(browser, "#covered").await.unwrap_or_default();
    assert!(covered.contains("1 tournament") && covered.contains("Friedrich Open 2026 open26"), "{covered}");
    let csv = browser
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(document.getElementById('csv').href).then(r => r.text()).then(done);",
            vec![],
        )
        .await
        .unwrap();
    let csv = csv.as_str().unwrap().to_owned();
    let cli = ledgerctl(world, ANALYST_TOKEN, &["--json", "stats", "roles"]).await;
    let stats: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let mut expected =
        vec!["kind,name,games,wins,win_rate,wilson_low,wilson_high,average_score,average_score_exact".to_owned()];
    for (kind, key) in [("role", "roles"), ("nation", "nations")] {
        for (name, line) in stats[key].as_object().unwrap() {
            let field = |k: &str| match &line[k] {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            expected.push(format!(
                "{kind},{name},{},{},{},{},{},{},{}",
                field("games"),
                field("wins"),
                field("win_rate"),
                field("wilson_low"),
                field("wilson_high"),
                field("average_score"),
                field("average_score_exact")
            ));
        }
    }
    assert_eq!(stats["tournaments"], json!([{"id": "open26", "name": "Friedrich Open 2026"}]));
    expected.push("# tournament,open26,Friedrich Open 2026".to_owned());
    assert_eq!(csv.lines().collect::<Vec<_>>(), expected, "the CSV and `ledgerctl stats roles --json` differ");
    screenshot(browser, "analyst").await;
}

/// Appends Andes events over gRPC with a token.
async fn append_andes(world: &mut World, token: &str, events: &[Value], prefix: &str) {
    let events: Vec<ledger::Event> = events.iter().map(|e| ledger::event::from_canonical_json(e).unwrap()).collect();
    let mut request = tonic::Request::new(crate::support::append("andes/w1", &events, prefix, None));
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    world.grpc.append(request).await.unwrap();
}

/// The pieces the Andes page draws: `[square, owner, kind]`.
async fn andes_pieces(client: &Client) -> Value {
    let script = "return Array.from(document.querySelectorAll('#andes-board td .piece'))\
                  .map(p => [p.parentElement.dataset.square, p.dataset.owner, p.dataset.kind]);";
    js(client, script).await
}

async fn the_andes_board_shows_the_pieces_where_the_projection_puts_them(browser: &Client, world: &mut World) {
    // Signed in as the analyst, who may see Andes projections.
    let created = json!({"type": "match_created", "first_sol": "ana", "first_luna": "bruno", "clock_ms": 720000});
    append_andes(world, ORGANISER_TOKEN, &[created], "w1-create-").await;
    let moves = [
        json!({"type": "game_started", "game": 1, "at_ms": 0}),
        json!({"type": "move_played", "notation": "0c3", "at_ms": 4000}),
        json!({"type": "move_played", "notation": "2g6", "at_ms": 9000}),
    ];
    append_andes(world, TABLE_TOKEN, &moves, "w1-moves-").await;
    browser.goto(&format!("{}/andes/w1", world.web)).await.unwrap();
    let shown = eventually("the Andes board", Duration::from_secs(10), || async {
        andes_pieces(browser).await.as_array().filter(|a| a.len() == 2).cloned()
    })
    .await;
    // Where the pure projection puts them.
    let events = events_of(&mut world.grpc, "andes/w1").await;
    let andes: Vec<ledger::andes::AndesEvent> = events
        .iter()
        .map(|e| match ledger::event::from_canonical_json(e).unwrap() {
            ledger::Event::Andes(a) => a,
            other => panic!("{other:?}"),
        })
        .collect();
    let position = replay::andes::position_after(&andes, 1, 2).unwrap().unwrap();
    let mut expected: Vec<Value> =
        position.pieces().map(|(sq, p)| json!([sq.sol_name(), p.side.as_str(), p.kind.as_str()])).collect();
    let mut shown = shown;
    shown.sort_by_key(|v| v.to_string());
    expected.sort_by_key(|v| v.to_string());
    assert_eq!(shown, expected);
    assert_eq!(text_of(browser, "#andes-moves").await.unwrap().replace(char::is_whitespace, ""), "0c32g6");
    // The centre is marked, and Luna's side shows her names.
    assert_eq!(
        js(browser, "return document.querySelector('#andes-board td.centre').dataset.square;").await,
        json!("d3")
    );
    // A move appended over gRPC reaches the page live.
    let next = [json!({"type": "move_played", "notation": "0a3", "at_ms": 12000})];
    append_andes(world, TABLE_TOKEN, &next, "w1-next-").await;
    eventually("the live move", Duration::from_secs(5), || async {
        (andes_pieces(browser).await.as_array()?.len() == 3).then_some(())
    })
    .await;
    screenshot(browser, "andes").await;
    browser.goto(&format!("{}/andes/w1?side=luna&at=4", world.web)).await.unwrap();
    let luna = text_of(browser, "#andes-position").await.unwrap();
    assert_eq!(luna, position.notation(ledger::andes::Side::Luna));
}
