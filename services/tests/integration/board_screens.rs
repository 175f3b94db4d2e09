//! Issue 33, item 4, in Chromium on a real ledgerd holding a day in a Spanish hall
//! ([`hall`](crate::hall)), in English and in Spanish: the board on a 1920x1080 projector
//! (`?projector`) fits the screen with no scrollbar, in large type, pages through the standings
//! by itself and shows the running games and the next round's tables; once the final has
//! ended its champion comes first, above the standings and in the first screenful; before
//! any game the board shows the line-up, not a table of ties; on a 390x844 phone the totals
//! stay on screen. The printed final standings put the final's four first (the champion
//! first) and print on at most two A4 pages for 18 players, no column cut at the page edge.
//! Screenshots go to `docs/screenshots/` (`UPDATE_SCREENSHOTS=1` rewrites them).

use crate::hall;
use crate::paper::print_pages;
use crate::season::{Ledger, ORGANISER_TOKEN};
use crate::table::{skip_without_browser, DevTools};
use crate::web::{eventually, js, screenshot, sign_in, Driver};
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::Duration;

/// Waits until `css` matches an element of the page.
async fn wait_for(client: &Client, css: &str) {
    let script = format!("return document.querySelector({}) !== null;", json!(css));
    eventually(css, Duration::from_secs(10), || async { (js(client, &script).await == json!(true)).then_some(()) })
        .await;
}

/// Opens `path` in `lang` (through the language switch, as a reader would) and waits for `css`.
async fn open(client: &Client, web: &str, lang: &str, path: &str, css: &str) {
    client.goto(&format!("{web}/lang?to={lang}&next={path}")).await.unwrap();
    wait_for(client, css).await;
    assert_eq!(js(client, "return document.documentElement.lang;").await, json!(lang), "{path}");
}

/// Whether the page scrolls at all, either way.
async fn scrolls(client: &Client) -> Value {
    js(
        client,
        "const d = document.documentElement; \
         return {x: d.scrollWidth > innerWidth, y: d.scrollHeight > innerHeight, w: d.scrollWidth, h: d.scrollHeight};",
    )
    .await
}

/// The projector at 1920x1080: the ended tournament's champion first and in view, large type,
/// no scrollbar, the standings paging by themselves; the tournament in its second round shows
/// its running game and its next round's tables on the screen.
async fn projector(client: &Client, web: &str, lang: &str, champion: &str) {
    // The screen itself, 1920x1080 (a headless window's own chrome takes some of its height).
    let screen = json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false});
    client.issue_cmd(DevTools { cmd: "Emulation.setDeviceMetricsOverride", params: screen }).await.unwrap();
    open(client, web, lang, &format!("/board/{}?projector", hall::ENDED), "#champion").await;
    let fits = scrolls(client).await;
    assert!(fits["x"] == json!(false) && fits["y"] == json!(false), "{lang}: the projector scrolls: {fits}");
    let first = js(
        client,
        "const c = document.getElementById('champion'), s = document.getElementById('standings'); \
         const r = c.getBoundingClientRect(); \
         return {before: !!(c.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING), \
                 top: r.top, inView: r.bottom <= innerHeight, name: document.getElementById('champion-name').textContent, \
                 type: parseFloat(getComputedStyle(s.querySelector('td.player')).fontSize), \
                 totals: [...s.querySelectorAll('td.total')].every(t => t.getBoundingClientRect().right \
                         <= document.getElementById('board-main').getBoundingClientRect().right + 0.5)};",
    )
    .await;
    assert_eq!(first["before"], json!(true), "{lang}: the champion comes after the standings: {first}");
    assert!(first["top"].as_f64().unwrap() >= 0.0 && first["inView"] == json!(true), "{lang}: {first}");
    assert_eq!(first["name"], json!(champion), "{lang}");
    assert_eq!(first["totals"], json!(true), "{lang}: a total is cut off: {first}");
    assert!(first["type"].as_f64().unwrap() >= 22.0, "{lang}: small type on the projector: {first}");
    let suffix = if lang == "es" { "-es" } else { "" };
    screenshot(client, &format!("board-projector{suffix}")).await;
    // Eighteen players do not fit one screenful: the standings page by themselves.
    let box_ = "document.getElementById('board-main')";
    let overflows = js(client, &format!("return {box_}.scrollHeight > {box_}.clientHeight;")).await;
    assert_eq!(overflows, json!(true), "{lang}: the standings fit one screen, nothing to page");
    js(client, "document.getElementById('board').dataset.pageMs = '300'; return null;").await;
    eventually("the standings to turn a page", Duration::from_secs(5), || async {
        (js(client, &format!("return {box_}.scrollTop;")).await.as_f64()? > 0.0).then_some(())
    })
    .await;
    eventually("the standings back at the top", Duration::from_secs(10), || async {
        (js(client, &format!("return {box_}.scrollTop;")).await.as_f64()? == 0.0).then_some(())
    })
    .await;

    // The second round: its running game and the next tables, on the screen.
    open(client, web, lang, &format!("/board/{}?projector", hall::MID_ROUND), "#next-round").await;
    let fits = scrolls(client).await;
    assert!(fits["x"] == json!(false) && fits["y"] == json!(false), "{lang}: the projector scrolls: {fits}");
    let side = js(
        client,
        "const last = e => e.getBoundingClientRect().bottom; \
         return {running: document.querySelectorAll('#running .game').length, \
                 tables: document.querySelectorAll('#next-round li').length, \
                 inView: last(document.querySelector('#next-round li:last-child')) <= innerHeight, \
                 clipped: [...document.querySelectorAll('#next-round li, #running .game')] \
                          .some(l => l.scrollWidth > l.clientWidth + 1)};",
    )
    .await;
    assert_eq!(side["running"], json!(1), "{lang}: {side}");
    assert_eq!(side["tables"], json!(2), "{lang}: round 2's two tables: {side}");
    assert_eq!(side["inView"], json!(true), "{lang}: the next round is off the screen: {side}");
    assert_eq!(side["clipped"], json!(false), "{lang}: a table's players are cut off: {side}");
    screenshot(client, &format!("board-projector-round{suffix}")).await;
}

/// A 390x844 phone: no sideways scrolling, every total on screen, the champion first.
async fn phone(client: &Client, web: &str, lang: &str) {
    open(client, web, lang, &format!("/board/{}", hall::ENDED), "#standings").await;
    let shown = js(
        client,
        "const d = document.documentElement; \
         const rights = [...document.querySelectorAll('#standings td.total')].map(t => t.getBoundingClientRect().right); \
         const roles = [...document.querySelectorAll('#standings td.role')].filter(t => t.offsetParent !== null).length; \
         const c = document.getElementById('champion').getBoundingClientRect(); \
         return {wide: d.scrollWidth, rows: rights.length, right: Math.max(...rights), roles, champion: c.bottom <= innerHeight};",
    )
    .await;
    assert!(shown["wide"].as_f64().unwrap() <= 390.0, "{lang}: the phone scrolls sideways: {shown}");
    assert_eq!(shown["rows"], json!(18), "{shown}");
    assert!(shown["right"].as_f64().unwrap() <= 390.0, "{lang}: a total is off the screen: {shown}");
    assert_eq!(shown["roles"], json!(0), "{lang}: the phone shows the role columns: {shown}");
    assert_eq!(shown["champion"], json!(true), "{lang}: the champion is below the first screen: {shown}");
    screenshot(client, &format!("board-phone{}", if lang == "es" { "-es" } else { "" })).await;
}

/// Before any game: the line-up (every player by pseudonym with the draw's table), no
/// standings of ties, no finalists so far; the first round's tables next.
async fn lineup(client: &Client, web: &str, lang: &str) {
    open(client, web, lang, &format!("/board/{}", hall::DRAWN), "#lineup").await;
    let shown = js(
        client,
        "return {players: [...document.querySelectorAll('#lineup tbody tr')].map(r => r.dataset.player), \
                 tables: [...document.querySelectorAll('#lineup tbody td.num')].map(t => t.textContent), \
                 standings: document.getElementById('standings') !== null, \
                 finalists: document.getElementById('finalists') !== null, \
                 decided: document.querySelectorAll('.decided').length, \
                 next: document.querySelectorAll('#next-round li').length};",
    )
    .await;
    let mut sorted: Vec<String> = (1..=8).map(|n| format!("Zorro {n}")).collect();
    sorted.sort();
    assert_eq!(shown["players"], json!(sorted), "{lang}: {shown}");
    let tables = shown["tables"].as_array().unwrap();
    assert!(tables.iter().all(|t| t == "1" || t == "2"), "{lang}: every player has a table: {shown}");
    assert_eq!(tables.iter().filter(|t| *t == "1").count(), 4, "{shown}");
    assert_eq!(shown["standings"], json!(false), "{lang}: {shown}");
    assert_eq!(shown["finalists"], json!(false), "{lang}: finalists named before any game: {shown}");
    assert_eq!(shown["decided"], json!(0), "{lang}: {shown}");
    assert_eq!(shown["next"], json!(2), "{lang}: the first round's tables: {shown}");
    screenshot(client, &format!("board-lineup-phone{}", if lang == "es" { "-es" } else { "" })).await;
}

/// The printed final standings: the final's four first, the champion first, then everyone else
/// by rank; no column wider than A4's printable width; at most two A4 pages.
async fn paper_standings(client: &Client, web: &str, lang: &str, order: &[String]) {
    open(client, web, lang, &format!("/paper/{}/standings", hall::ENDED), "#standings").await;
    let rows =
        js(client, "return [...document.querySelectorAll('#standings tbody tr')].map(r => r.dataset.player);").await;
    assert_eq!(rows, json!(order), "{lang}");
    if lang == "en" {
        screenshot(client, "paper-final-standings").await;
    }
    crate::web::peek(client, &format!("paper-standings-18-{lang}")).await;
    // A4 less the page's margins (print.css: 12 mm each side).
    let fits = js(
        client,
        "const p = document.querySelector('.paper'); p.style.width = '186mm'; \
         const t = document.getElementById('standings'); \
         const r = {table: t.getBoundingClientRect().width, paper: p.getBoundingClientRect().width}; \
         p.style.width = ''; return r;",
    )
    .await;
    assert!(
        fits["table"].as_f64().unwrap() <= fits["paper"].as_f64().unwrap() + 0.5,
        "{lang}: cut at the edge: {fits}"
    );
    // No heading runs over its neighbour's column (a word wider than its column is wrapped).
    let over = js(
        client,
        "const p = document.querySelector('.paper'); p.style.width = '186mm'; \
         const over = [...document.querySelectorAll('#standings th')] \
           .filter(h => h.scrollWidth > h.clientWidth + 1).map(h => h.textContent); \
         p.style.width = ''; return over;",
    )
    .await;
    assert_eq!(over, json!([]), "{lang}: headings wider than their column");
    // An unavailable tie-breaker is said once, in a note under the table, never in a row.
    let notes = js(
        client,
        "return [document.querySelectorAll('#standings-notes li').length, \
                 [...document.querySelectorAll('#standings td.tb')].filter(c => c.textContent.length > 90).length, \
                 document.querySelectorAll('#standings td.missing').length];",
    )
    .await;
    assert!(
        notes[0].as_u64().unwrap() >= 1 && notes[2].as_u64().unwrap() >= notes[0].as_u64().unwrap(),
        "{lang}: {notes}"
    );
    assert_eq!(notes[1], json!(0), "{lang}: a long sentence in a row: {notes}");
    // Opponents by name: no player id (`p7`) in any cell.
    let ids = js(
        client,
        "return [...document.querySelectorAll('#standings td')].map(c => c.textContent).filter(t => /\\bp\\d+\\b/.test(t));",
    )
    .await;
    assert_eq!(ids, json!([]), "{lang}: ids on the paper");
    let pages = print_pages(client).await;
    assert!(pages <= 2, "{lang}: 18 players on {pages} A4 pages");
    if lang == "es" {
        // As printed: print media, the width of A4 less its margins (186 mm at 96 px an inch).
        let print = json!({"media": "print"});
        client.issue_cmd(DevTools { cmd: "Emulation.setEmulatedMedia", params: print }).await.unwrap();
        let a4 = json!({"width": 703, "height": 1030, "deviceScaleFactor": 1, "mobile": false});
        client.issue_cmd(DevTools { cmd: "Emulation.setDeviceMetricsOverride", params: a4 }).await.unwrap();
        screenshot(client, "paper-final-standings-a4-es").await;
        client.issue_cmd(DevTools { cmd: "Emulation.clearDeviceMetricsOverride", params: json!({}) }).await.unwrap();
        let screen = json!({"media": ""});
        client.issue_cmd(DevTools { cmd: "Emulation.setEmulatedMedia", params: screen }).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_fits_a_projector_and_a_phone_and_the_final_standings_print_on_two_pages() {
    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let ledger = Ledger::signed().await;
    let ledger = tokio::task::spawn_blocking(move || {
        hall::build_with_large(&ledger);
        ledger
    })
    .await
    .unwrap();
    let web = format!("http://{}", ledger.web);
    // The champion, and the order the paper prints: the final's four (champion first, then by
    // qualifying rank), then the rest by rank.
    let (public, private) = tokio::task::block_in_place(|| {
        let public = ledger.json(&["standings", "--tournament", hall::ENDED, "--public"]);
        (public, ledger.json(&["standings", "--tournament", hall::ENDED]))
    });
    let champion = public["final"]["winner"].as_str().expect("the final has a champion").to_owned();
    let winner = private["final"]["winner"].as_str().unwrap().to_owned();
    let ranked: Vec<String> =
        private["rows"].as_array().unwrap().iter().map(|r| r["player"].as_str().unwrap().to_owned()).collect();
    let seated: Vec<String> =
        private["final"]["seats"].as_object().unwrap().values().map(|p| p.as_str().unwrap().to_owned()).collect();
    let mut order = vec![winner.clone()];
    order.extend(ranked.iter().filter(|p| seated.contains(p) && **p != winner).cloned());
    order.extend(ranked.iter().filter(|p| !seated.contains(p)).cloned());

    let driver = Driver::start(chromium, &chromedriver);
    let screen = driver.browser(1920, 1080).await;
    let handset = driver.phone(390, 844).await;
    let organiser = driver.browser(1200, 900).await;
    sign_in(&organiser, &web, ORGANISER_TOKEN, "/").await;
    for lang in ["en", "es"] {
        projector(&screen, &web, lang, &champion).await;
        phone(&handset, &web, lang).await;
        lineup(&handset, &web, lang).await;
        paper_standings(&organiser, &web, lang, &order).await;
        // 24 players, every qualifying game played: at most three pages.
        open(&organiser, &web, lang, &format!("/paper/{}/standings", hall::LARGE), "#standings").await;
        let rows = js(&organiser, "return document.querySelectorAll('#standings tbody tr').length;").await;
        assert_eq!(rows, json!(24), "{lang}");
        let pages = print_pages(&organiser).await;
        assert!(pages <= 3, "{lang}: 24 players on {pages} A4 pages");
        crate::web::peek(&organiser, &format!("paper-standings-24-{lang}")).await;
    }
    for client in [screen, handset, organiser] {
        client.close().await.unwrap();
    }
}
