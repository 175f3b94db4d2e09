//! Issue 33, item 2, tokens without a terminal, on a real ledgerd: `ledgerd organiser` makes the
//! first organiser's code in the data directory (and a ledgerd holding kept codes runs with
//! tokens, without an auth file); the codes page prints the tablets' sheet and re-issues one
//! table's code; what is kept survives a restart and holds no token in clear; a revoked code is
//! refused at once over gRPC and on the pages, while the other tables' codes keep working.

use crate::daemon::Daemon;
use crate::hostile::{as_holder, http};
use crate::support::{eventually, run_ledgerctl};
use crate::web::{browser_binaries, click, js, screenshot, Driver};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use serde_json::json;
use std::path::Path;
use std::time::Duration;
use tonic::transport::Channel;

/// Runs `ledgerd organiser` and returns the sign-in link it printed.
pub(crate) fn first_organiser(data: &Path, url: &str, name: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ledgerd"))
        .args(["organiser", "--data-dir", data.to_str().unwrap(), "--url", url, "--name", name])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let link = text.split_whitespace().find(|w| w.contains("/signin#token=")).unwrap_or_else(|| panic!("{text}"));
    assert!(link.starts_with(&format!("{url}/signin#token=")), "{link}");
    link.to_owned()
}

pub(crate) fn token_of(link: &str) -> String {
    link.split_once("#token=").unwrap().1.to_owned()
}

/// Tournament wm26 (WM 2015, 8 players, two tables a round), created and drawn by `organiser`.
fn organise_wm26(server: &str, organiser: &str) {
    let run = |args: &[&str]| {
        let mut all = vec!["--server", server, "--token", organiser];
        all.extend_from_slice(args);
        let out = run_ledgerctl(&all, "");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["tournament", "create", "--id", "wm26", "--name", "WM 26", "--ruleset", "wm2015"]);
    for n in 1..=8 {
        let player = format!("p{n}");
        run(&["tournament", "register", "--tournament", "wm26", "--player", &player, "--name", &player]);
    }
    run(&["tournament", "draw", "--tournament", "wm26", "--seed", "7"]);
}

/// Whether ledgerd admits `token`: a read of table 1's first game, which every table may read.
async fn admitted(client: &mut LedgerClient<Channel>, token: &str) -> Result<(), tonic::Code> {
    let request = pb::ReadRequest { stream: "game/wm26-q1-t1".into(), from_seq: 1, ..Default::default() };
    client.read(as_holder(request, token)).await.map(drop).map_err(|status| status.code())
}

/// A POST to the pages as the browser holding `token` would send it.
async fn post(web: &str, path: &str, token: &str) -> (u16, String) {
    post_form(web, path, token, "").await
}

/// The same with a form's fields (`a=1&b=2`).
async fn post_form(web: &str, path: &str, token: &str, form: &str) -> (u16, String) {
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {web}\r\nOrigin: http://{web}\r\nCookie: {}={}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        ledger_web::COOKIE_TOKEN,
        hex::encode(token),
        form.len()
    );
    http(web, request).await
}

/// Who the pages say the holder of `token` is (the sign-in page's header).
async fn who_on_the_pages(web: &str, token: &str) -> String {
    let request = format!(
        "GET /signin HTTP/1.1\r\nHost: {web}\r\nCookie: {}={}\r\nConnection: close\r\n\r\n",
        ledger_web::COOKIE_TOKEN,
        hex::encode(token)
    );
    let (_, page) = http(web, request).await;
    let who = page.split("id=\"who\">").nth(1).and_then(|rest| rest.split('<').next());
    who.unwrap_or_default().to_owned()
}

/// The tables' tokens on a printed sheet, by table.
fn sheet_tokens(sheet: &str) -> Vec<(u32, String)> {
    sheet
        .split("<section class=\"table-card\" data-table=\"")
        .skip(1)
        .map(|card| {
            let table = card.split('"').next().unwrap().parse().unwrap();
            let link = card.split("<p class=\"link\">").nth(1).unwrap().split('<').next().unwrap();
            (table, token_of(link))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_codes_are_issued_revoked_at_once_and_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let olga = token_of(&first_organiser(&data, "http://hall.local:8080", "olga"));
    // No auth file: the kept organiser's code alone puts ledgerd on tokens.
    let daemon = Daemon::spawn_with(&data, &["--http-listen", "127.0.0.1:0"]);
    let mut client = daemon.connect().await;
    let request = pb::ReadRequest { stream: "tournament/wm26".into(), from_seq: 1, ..Default::default() };
    let public = client.read(request).await.map(drop).unwrap_err();
    assert_eq!(public.code(), tonic::Code::Unauthenticated, "not open: {}", public.message());
    let server = format!("http://{}", daemon.addr());
    tokio::task::block_in_place(|| organise_wm26(&server, &olga));
    let web = daemon.announced("http").to_owned();
    // The tablets' sheet, printed twice: each table holds two codes, both working.
    let (status, first) = post(&web, "/organise/wm26/codes/sheet", &olga).await;
    assert_eq!(status, 200, "{first}");
    assert!(first.to_ascii_lowercase().contains("cache-control: no-store"), "{first}");
    let first = sheet_tokens(&first);
    assert_eq!(first.iter().map(|(t, _)| *t).collect::<Vec<_>>(), [1, 2]);
    assert!(first[0].1.len() == 48 && first[0].1 != first[1].1);
    let (_, second) = post(&web, "/organise/wm26/codes/sheet", &olga).await;
    let second = sheet_tokens(&second);
    for (_, token) in first.iter().chain(&second) {
        assert_eq!(admitted(&mut client, token).await, Ok(()), "a re-print revoked a code");
    }
    // Re-issuing table 1's code asks first, naming what it cancels, and cancels nothing yet.
    let (status, asked) = post(&web, "/organise/wm26/codes/table/1/reissue", &olga).await;
    assert_eq!(status, 200, "{asked}");
    assert!(
        asked.contains("id=\"reissue-confirm\"") && asked.contains("cancels the 2 codes it holds as wm26-table-1"),
        "{asked}"
    );
    assert!(sheet_tokens(&asked).is_empty(), "a code was issued before the confirmation");
    assert_eq!(admitted(&mut client, &first[0].1).await, Ok(()), "the question revoked a code");
    // Confirmed: its two codes are refused at once, table 2's still work; the sheet says so.
    let (status, again) = post_form(&web, "/organise/wm26/codes/table/1/reissue", &olga, "confirm=yes").await;
    assert_eq!(status, 200, "{again}");
    assert!(again.contains("2 earlier codes, now revoked") && !again.contains("revokes none"), "{again}");
    let again = sheet_tokens(&again);
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].0, 1);
    for (_, old) in [&first[0], &second[0]] {
        assert_eq!(admitted(&mut client, old).await, Err(tonic::Code::Unauthenticated));
        assert!(!who_on_the_pages(&web, old).await.contains("table 1 of wm26"), "a revoked code on the pages");
    }
    assert_eq!(admitted(&mut client, &again[0].1).await, Ok(()));
    assert!(who_on_the_pages(&web, &again[0].1).await.starts_with("table 1 of wm26"));
    assert_eq!(admitted(&mut client, &first[1].1).await, Ok(()), "table 2 was logged out");
    assert!(who_on_the_pages(&web, &first[1].1).await.starts_with("table 2 of wm26"));
    // A table's code is no organiser: it cannot issue codes.
    let (status, _) = post(&web, "/organise/wm26/codes/sheet", &first[1].1).await;
    assert_eq!(status, 403);
    // The page counts each table's codes.
    let request = format!(
        "GET /organise/wm26/codes HTTP/1.1\r\nHost: {web}\r\nCookie: {}={}\r\nAccept-Language: en\r\nConnection: close\r\n\r\n",
        ledger_web::COOKIE_TOKEN,
        hex::encode(&olga)
    );
    let (status, page) = http(&web, request).await;
    assert_eq!(status, 200, "{page}");
    let row = |n: u32| page.split(&format!("<tr data-table=\"{n}\">")).nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(row(1).contains("1 code<"), "{}", row(1));
    assert!(row(2).contains("2 codes<"), "{}", row(2));
    // A sign-in with table 2's code is the browser's own: signing out ends it, not the code.
    let (status, answer) = post_form(&web, "/signin", "", &format!("next=%2F&token={}", first[1].1)).await;
    assert_eq!(status, 303, "{answer}");
    let cookie = answer.lines().find_map(|l| l.strip_prefix("set-cookie: ledger_token=")).unwrap();
    let session = String::from_utf8(hex::decode(cookie.split(';').next().unwrap()).unwrap()).unwrap();
    assert_ne!(session, first[1].1, "the cookie holds the code itself");
    assert_eq!(admitted(&mut client, &session).await, Ok(()));
    let (status, _) = post(&web, "/signout", &session).await;
    assert_eq!(status, 303);
    assert_eq!(admitted(&mut client, &session).await, Err(tonic::Code::Unauthenticated), "signed out, still in");
    assert!(!who_on_the_pages(&web, &session).await.contains("table 2 of wm26"));
    // The printed code was spent by its sign-in (issue 42): it admits nothing by itself now, and
    // signs no other browser in; table 2's reprint still works.
    assert_eq!(admitted(&mut client, &first[1].1).await, Err(tonic::Code::Unauthenticated), "a spent code admitted");
    let (status, _) = post_form(&web, "/signin", "", &format!("next=%2F&token={}", first[1].1)).await;
    assert_eq!(status, 409, "a spent code signed a browser in");
    assert_eq!(admitted(&mut client, &second[1].1).await, Ok(()));
    // A jury member's code, limited to wm26, shown once; then revoked.
    let (status, shown) = post_form(&web, "/organise/wm26/codes/person", &olga, "name=anna&role=jury&here=on").await;
    assert_eq!(status, 200, "{shown}");
    let link = shown.split("id=\"person-link\">").nth(1).unwrap().split('<').next().unwrap();
    assert!(link.starts_with(&format!("http://{web}/signin#token=")), "{link}");
    let anna = token_of(link);
    assert!(who_on_the_pages(&web, &anna).await.starts_with("anna"));
    let request = pb::ReadRequest { stream: "tournament/wm26".into(), from_seq: 1, ..Default::default() };
    assert!(client.read(as_holder(request, &anna)).await.is_ok(), "the jury reads its tournament");
    let (status, _) = post_form(&web, "/organise/wm26/codes/person", &olga, "name=wm26-table-1&role=jury").await;
    assert_eq!(status, 400, "a person named as a table");
    let (status, _) = post_form(&web, "/organise/wm26/codes/person/revoke", &olga, "actor=anna").await;
    assert_eq!(status, 303);
    assert_eq!(admitted(&mut client, &anna).await, Err(tonic::Code::Unauthenticated));
    // The store holds digests only.
    let kept = std::fs::read_to_string(data.join("tokens.json")).unwrap();
    for token in [&olga, &first[1].1, &again[0].1] {
        assert!(!kept.contains(token.as_str()), "a token in clear in the store");
        assert!(kept.contains(&hex::encode(ledger_house::auth::token_digest(token))));
    }
    // A second organiser made while ledgerd runs is admitted on SIGHUP.
    let omar = token_of(&first_organiser(&data, "http://hall.local:8080", "omar"));
    assert_eq!(admitted(&mut client, &omar).await, Err(tonic::Code::Unauthenticated));
    let hup = std::process::Command::new("kill").args(["-HUP", &daemon.child.id().to_string()]).status().unwrap();
    assert!(hup.success());
    eventually("omar admitted after SIGHUP", Duration::from_secs(10), || {
        let (mut client, omar) = (client.clone(), omar.clone());
        async move { admitted(&mut client, &omar).await.ok() }
    })
    .await;
    // A restart keeps every code and every revocation.
    drop(daemon);
    let daemon = Daemon::spawn_with(&data, &["--http-listen", "127.0.0.1:0"]);
    let mut client = daemon.connect().await;
    for token in [&olga, &omar, &second[1].1, &again[0].1] {
        assert_eq!(admitted(&mut client, token).await, Ok(()), "a kept code lost in a restart");
    }
    assert_eq!(admitted(&mut client, &first[0].1).await, Err(tonic::Code::Unauthenticated));
    assert_eq!(admitted(&mut client, &first[1].1).await, Err(tonic::Code::Unauthenticated), "spent, across a restart");
}

/// The codes page in Chromium: the organiser signs in through `ledgerd organiser`'s link, prints
/// the tablets' sheet, a tablet signs in with table 2's code, table 1's code is re-issued, and
/// table 2's tablet still records while table 1's old sign-in is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_codes_page_in_a_browser() {
    let Some((chromium, chromedriver)) = browser_binaries() else {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "under CI=true the browser is required");
        eprintln!("\n*** codes page test SKIPPED: no chromium/chromedriver ***\n");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // The store first (so ledgerd starts on tokens), then the link for the address it serves at.
    first_organiser(&data, "http://127.0.0.1:1", "setup");
    let daemon = Daemon::spawn_with(&data, &["--http-listen", "127.0.0.1:0"]);
    let mut client = daemon.connect().await;
    let web = format!("http://{}", daemon.announced("http"));
    let link = first_organiser(&data, &web, "olga");
    let olga = token_of(&link);
    let hup = std::process::Command::new("kill").args(["-HUP", &daemon.child.id().to_string()]).status().unwrap();
    assert!(hup.success());
    eventually("olga admitted after SIGHUP", Duration::from_secs(10), || {
        let (mut client, olga) = (client.clone(), olga.clone());
        async move {
            let request = pb::ReadRequest { stream: "tournament/x".into(), from_seq: 1, ..Default::default() };
            client.read(as_holder(request, &olga)).await.ok()
        }
    })
    .await;
    let server = format!("http://{}", daemon.addr());
    tokio::task::block_in_place(|| organise_wm26(&server, &olga));

    let driver = Driver::start(chromium, &chromedriver);
    let organiser = driver.browser(1280, 900).await;
    organiser.goto(&link).await.unwrap();
    eventually("the organiser signed in by the link", Duration::from_secs(10), || async {
        let who = js(&organiser, "const w = document.getElementById('who'); return w ? w.textContent : '';").await;
        who.as_str().is_some_and(|w| w.starts_with("olga")).then_some(())
    })
    .await;
    organiser.goto(&format!("{web}/organise/wm26/codes")).await.unwrap();
    screenshot(&organiser, "codes-page").await;
    click(&organiser, "#print-sheet").await;
    let cards = eventually("the tablets' sheet", Duration::from_secs(10), || async {
        let cards = js(
            &organiser,
            "return [...document.querySelectorAll('.table-card')].map(c => [Number(c.dataset.table), c.querySelector('.link').textContent]);",
        )
        .await;
        cards.as_array().filter(|c| c.len() == 2).cloned()
    })
    .await;
    let link_of = |n: u64| cards.iter().find(|c| c[0] == json!(n)).unwrap()[1].as_str().unwrap().to_owned();
    // Two tablets sign in by their tables' links and land on their tables' games.
    let tablet = |n: u64| {
        let (driver, link) = (&driver, link_of(n));
        async move {
            let tablet = driver.browser(1280, 800).await;
            tablet.goto(&link).await.unwrap();
            let game = format!("/table/wm26-q1-t{n}");
            eventually(&format!("table {n}'s tablet at its game"), Duration::from_secs(15), || async {
                let url = tablet.current_url().await.ok()?;
                url.path().starts_with(&game).then_some(())
            })
            .await;
            tablet
        }
    };
    let (table_1, table_2) = (tablet(1).await, tablet(2).await);
    // Table 1's code re-issued from the codes page.
    organiser.goto(&format!("{web}/organise/wm26/codes")).await.unwrap();
    click(&organiser, "tr[data-table=\"1\"] .reissue").await;
    click(&organiser, "#reissue-confirm").await;
    eventually("the one-table sheet", Duration::from_secs(10), || async {
        let n = js(&organiser, "return document.querySelectorAll('.table-card[data-table=\"1\"]').length;").await;
        (n == json!(1)).then_some(())
    })
    .await;
    // Table 2's tablet still records its game; table 1's is refused.
    let record = |game: &str, id: &str| {
        let body =
            json!({"events": [{"event_id": id, "expected_version": 0, "event": {"type": "game_started", "at_ms": 0}}]});
        format!(
            "const x = new XMLHttpRequest(); x.open('POST', '/table/{game}/events', false); \
             x.setRequestHeader('Content-Type', 'application/json'); x.send({}); return [x.status, x.responseText];",
            serde_json::to_string(&body.to_string()).unwrap()
        )
    };
    let recorded = js(&table_2, &record("wm26-q1-t2", "tablet-2-start")).await;
    assert_eq!(recorded[0], json!(200), "{recorded}");
    let refused = js(&table_1, &record("wm26-q1-t1", "tablet-1-start")).await;
    assert_eq!(refused[0], json!(401), "{refused}");
    let request = pb::ReadRequest { stream: "game/wm26-q1-t2".into(), from_seq: 1, ..Default::default() };
    let stored = client.read(as_holder(request, &olga)).await.unwrap().into_inner();
    let stored: Vec<_> = tokio_stream::StreamExt::collect::<Vec<_>>(stored).await;
    assert_eq!(stored.len(), 1, "table 2's event is in the log");
    let request = pb::ReadRequest { stream: "game/wm26-q1-t1".into(), from_seq: 1, ..Default::default() };
    let stored = client.read(as_holder(request, &olga)).await.unwrap().into_inner();
    assert!(tokio_stream::StreamExt::collect::<Vec<_>>(stored).await.is_empty(), "table 1's old code recorded");
    // Table 2's signed-in tablet among its devices (issue 42), in English and in Spanish; table
    // 1's ended with its re-issued code.
    organiser.goto(&format!("{web}/organise/wm26/codes")).await.unwrap();
    let devices = js(
        &organiser,
        "return [1, 2].map(n => document.querySelectorAll(`tr[data-table=\"${n}\"] li[data-device]`).length);",
    )
    .await;
    assert_eq!(devices, json!([0, 1]), "the devices signed in");
    let column = js(&organiser, "return document.querySelector('#table-codes thead').textContent;").await;
    assert!(column.as_str().unwrap().contains("Signed-in devices"), "{column}");
    screenshot(&organiser, "codes-page-devices").await;
    organiser.goto(&format!("{web}/lang?to=es&next=/organise/wm26/codes")).await.unwrap();
    let column = js(&organiser, "return document.querySelector('#table-codes thead').textContent;").await;
    assert!(column.as_str().unwrap().contains("Dispositivos dentro"), "{column}");
    let end = js(&organiser, "return document.querySelector('tr[data-table=\"2\"] .end-device').textContent;").await;
    assert_eq!(end, json!("Sacar este dispositivo"));
    screenshot(&organiser, "codes-page-devices-es").await;
    // The organiser ends table 2's tablet: it is signed out at once.
    click(&organiser, "tr[data-table=\"2\"] .end-device").await;
    eventually("the device ended", Duration::from_secs(10), || async {
        let n =
            js(&organiser, "return document.querySelectorAll('tr[data-table=\"2\"] li[data-device]').length;").await;
        (n == json!(0)).then_some(())
    })
    .await;
    let ended = js(&table_2, &record("wm26-q1-t2", "tablet-2-again")).await;
    assert_eq!(ended[0], json!(401), "{ended}");
    // The page on a phone.
    let phone = driver.phone(390, 844).await;
    phone.goto(&link).await.unwrap();
    eventually("the organiser signed in on a phone", Duration::from_secs(10), || async {
        let who = js(&phone, "const w = document.getElementById('who'); return w ? w.textContent : '';").await;
        who.as_str().is_some_and(|w| w.starts_with("olga")).then_some(())
    })
    .await;
    phone.goto(&format!("{web}/organise/wm26/codes")).await.unwrap();
    screenshot(&phone, "codes-page-phone").await;
    let width = js(&phone, "return document.documentElement.scrollWidth;").await;
    let widest = js(
        &phone,
        "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 390).map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 5);",
    )
    .await;
    assert!(width.as_u64().is_some_and(|w| w <= 390), "the codes page is {width} px wide on a 390 px phone: {widest}");
    for browser in [organiser, table_1, table_2, phone] {
        browser.close().await.ok();
    }
}
