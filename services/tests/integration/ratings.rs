//! The season's read models and the ratings on a real `ledgerd` (issue 44): the example
//! tournament's eight played games imported; `ledgerctl stats ratings` (plain, `--role-aware`)
//! and `stats roles` answer from what ledgerd keeps, the same numbers as from the file offline;
//! the analyst sees pseudonyms, the organiser names; after a clean stop `read-models.bin` is in
//! the data directory and `ledgerctl verify --data-dir` finds it equal to a full replay; a
//! restart resumes it (the same answers); the ratings page in Chromium in English and Spanish
//! (screenshots `/tmp/ratings-<lang>.png`, 1280x800).

use crate::daemon::Daemon;
use crate::languages::{ANALYST_TOKEN, ORGANISER_TOKEN};
use crate::support::{eventually, run_ledgerctl};
use crate::web::{browser_binaries, click, js, sign_in, Driver};
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const OPEN26: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/tournament-open26.jsonl");

fn start(dir: &Path) -> Daemon {
    let entry = |token: &str, actor: &str, role: &str| json!({"sha256": hex::encode(ledger_house::auth::token_digest(token)), "actor": actor, "clearance": role});
    let auth = json!({"tokens": [entry(ANALYST_TOKEN, "lu", "analyst"), entry(ORGANISER_TOKEN, "ola", "organiser")]});
    let auth_file = dir.join("auth.json");
    std::fs::write(&auth_file, auth.to_string()).unwrap();
    let data = dir.join("data");
    Daemon::spawn_with(&data, &["--auth-file", auth_file.to_str().unwrap(), "--http-listen", "127.0.0.1:0"])
}

/// `ledgerctl` with these arguments, off the async workers; it must succeed: its stdout.
async fn ledgerctl(args: Vec<String>) -> String {
    let out =
        tokio::task::spawn_blocking(move || run_ledgerctl(&args.iter().map(String::as_str).collect::<Vec<_>>(), ""))
            .await
            .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

async fn online(daemon: &Daemon, token: &str, args: &[&str]) -> Value {
    let mut all = vec!["--server".to_owned(), format!("http://{}", daemon.addr()), "--token".into(), token.into()];
    all.push("--json".into());
    all.extend(args.iter().map(|s| (*s).to_owned()));
    serde_json::from_str(&ledgerctl(all).await).unwrap()
}

async fn offline(args: &[&str]) -> Value {
    let mut all = vec!["--json".to_owned()];
    all.extend(args.iter().map(|s| (*s).to_owned()));
    all.extend(["--file".to_owned(), OPEN26.to_owned()]);
    serde_json::from_str(&ledgerctl(all).await).unwrap()
}

/// `(player, mu, sigma, games)` of a ratings JSON, in its order.
fn players(ratings: &Value) -> Vec<(String, f64, f64, u64)> {
    ratings["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let number = |k: &str| p[k].as_f64().unwrap();
            (p["player"].as_str().unwrap().to_owned(), number("mu"), number("sigma"), p["games"].as_u64().unwrap())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ratings_and_statistics_come_from_the_kept_read_models_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let mut daemon = start(dir.path());
    let server = format!("http://{}", daemon.addr());
    ledgerctl(["--server", &server, "--token", ORGANISER_TOKEN, "import", "--file", OPEN26].map(String::from).to_vec())
        .await;

    let public = online(&daemon, ANALYST_TOKEN, &["stats", "ratings"]).await;
    assert_eq!(public["games"], json!(8), "{public}");
    assert_eq!(public["model"], json!("plain"));
    let shown: Vec<String> = players(&public).into_iter().map(|p| p.0).collect();
    assert!(shown.contains(&"Fox".to_owned()), "pseudonyms for the analyst: {shown:?}");
    assert!(public["players"][0].get("id").is_none(), "no ids for the analyst");
    let named = online(&daemon, ORGANISER_TOKEN, &["stats", "ratings"]).await;
    assert!(players(&named).iter().any(|p| p.0 == "Ana Alves"), "names for the organiser: {named}");
    // The kept ratings are the file's, rated offline from scratch.
    let from_file = offline(&["stats", "ratings"]).await;
    assert_eq!(players(&named), players(&from_file));
    assert_eq!(named["prediction"], from_file["prediction"]);
    let aware = online(&daemon, ANALYST_TOKEN, &["stats", "ratings", "--role-aware"]).await;
    assert_eq!(aware["roles"].as_object().unwrap().len(), 4, "{aware}");
    let stats = online(&daemon, ANALYST_TOKEN, &["stats", "roles"]).await;
    assert_eq!(stats, offline(&["stats", "roles"]).await);
    assert_eq!(stats["games"], json!(8));

    // A clean stop saves the models; verify finds them equal to a full replay.
    let pid = daemon.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let status = eventually("ledgerd to stop after SIGTERM", Duration::from_secs(10), || {
        std::future::ready(daemon.child.try_wait().unwrap())
    })
    .await;
    assert!(status.success(), "{status}");
    let data = dir.path().join("data");
    assert!(data.join("read-models.bin").is_file(), "the read models are saved in the data directory");
    let verify = ["verify", "--data-dir", data.to_str().unwrap()].map(String::from).to_vec();
    let out =
        tokio::task::spawn_blocking(move || run_ledgerctl(&verify.iter().map(String::as_str).collect::<Vec<_>>(), ""))
            .await
            .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && said.contains("equal a full replay"), "{said}");

    // A restart resumes them: the same answers.
    let daemon = start(dir.path());
    assert_eq!(online(&daemon, ANALYST_TOKEN, &["stats", "ratings"]).await, public);
    assert_eq!(online(&daemon, ANALYST_TOKEN, &["stats", "roles"]).await, stats);
    // A year's ratings over gRPC: the one year everything was recorded in is the whole season.
    let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis();
    let year = replay::stats::year_of_unix_ms(u64::try_from(now_ms).unwrap()).to_string();
    let of_year = online(&daemon, ANALYST_TOKEN, &["stats", "ratings", "--year", &year]).await;
    assert_eq!((of_year["year"].to_string(), &of_year["games"]), (year, &json!(8)), "{of_year}");
    assert_eq!(players(&of_year), players(&public));
    let none = online(&daemon, ANALYST_TOKEN, &["stats", "ratings", "--year", "1999"]).await;
    assert_eq!((&none["games"], none["players"].as_array().map(Vec::len)), (&json!(0), Some(0)), "{none}");
    in_chromium(&daemon, players(&public).len()).await;
}

/// The ratings page as the analyst at 1280x800, in English then Spanish: a row per player, the
/// prediction, the history chart, the role terms of the role-aware model, the trends table.
async fn in_chromium(daemon: &Daemon, rated: usize) {
    let Some((chromium, chromedriver)) = browser_binaries() else {
        let message = "\n\n*** ratings browser test SKIPPED: no chromium/chromedriver ***\n";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}under CI=true the browser is required");
        eprintln!("{message}");
        return;
    };
    let driver = Driver::start(chromium, &chromedriver);
    let browser = driver.browser(1280, 800).await;
    let web = format!("http://{}", daemon.announced("http"));
    sign_in(&browser, &web, ANALYST_TOKEN, "/analyst").await;
    click(&browser, "#ratings-link").await;
    for (lang, heading) in [("en", "Player ratings"), ("es", "Clasificación de los jugadores")] {
        if lang == "es" {
            click(&browser, "#lang-switch").await;
            eventually("the page in Spanish", Duration::from_secs(10), || async {
                (js(&browser, "return document.documentElement.lang;").await == json!("es")).then_some(())
            })
            .await;
        }
        let page =
            "return [document.querySelector('h1').textContent, document.querySelectorAll('#ratings tbody tr').length, \
             document.querySelectorAll('#chart-history polyline').length, !!document.getElementById('prediction'), \
             document.querySelectorAll('#trends tbody tr').length];";
        until(&browser, page, json!([heading, rated, 8, true, 1]), lang).await;
        let overflow = js(&browser, "return document.documentElement.scrollWidth - window.innerWidth;").await;
        assert!(overflow.as_i64().is_some_and(|o| o <= 0), "{lang}: the page is {overflow} px too wide");
        std::fs::write(format!("/tmp/ratings-{lang}.png"), browser.screenshot().await.unwrap()).unwrap();
        click(&browser, "#model-role_aware").await;
        until(&browser, "return document.querySelectorAll('#role-terms tbody tr').length;", json!(4), lang).await;
        std::fs::write(format!("/tmp/ratings-{lang}-roles.png"), browser.screenshot().await.unwrap()).unwrap();
        click(&browser, "#model-plain").await;
        until(&browser, "return document.querySelectorAll('#role-terms').length;", json!(0), lang).await;
        // The filters: this season's one year (its players as after their last game of it, the
        // CSV of the same), then a ruleset none of its games was played under.
        js(
            &browser,
            "const y = document.getElementById('filter-year'); y.value = y.options[1].value; \
                      document.getElementById('filter-go').click(); return null;",
        )
        .await;
        let filtered = "return [!!document.getElementById('ratings-year'), document.querySelectorAll('#ratings tbody tr').length, \
                        document.querySelectorAll('#trends tbody tr').length, \
                        document.getElementById('ratings-csv').getAttribute('href').includes('year=')];";
        until(&browser, filtered, json!([true, rated, 1, true]), lang).await;
        std::fs::write(format!("/tmp/ratings-{lang}-year.png"), browser.screenshot().await.unwrap()).unwrap();
        js(
            &browser,
            "document.getElementById('filter-ruleset').value = 'cafe2019'; \
                      document.getElementById('filter-go').click(); return null;",
        )
        .await;
        until(
            &browser,
            "return [location.search.includes('ruleset=cafe2019'), document.querySelectorAll('#trends').length];",
            json!([true, 0]),
            lang,
        )
        .await;
        js(
            &browser,
            "document.getElementById('filter-year').value = ''; document.getElementById('filter-ruleset').value = ''; \
                      document.getElementById('filter-go').click(); return null;",
        )
        .await;
        until(
            &browser,
            "return [!!document.getElementById('ratings-year'), document.querySelectorAll('#trends tbody tr').length];",
            json!([false, 1]),
            lang,
        )
        .await;
    }
    browser.close().await.unwrap();
}

/// Waits (bounded: 10 s) until `script` gives `want` (a click that navigates has landed).
async fn until(browser: &fantoccini::Client, script: &str, want: Value, lang: &str) {
    let what = format!("{lang}: {script} to give {want}");
    eventually(&what, Duration::from_secs(10), || async { (js(browser, script).await == want).then_some(()) }).await;
}
