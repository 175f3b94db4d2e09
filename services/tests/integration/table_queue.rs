//! The table's queue on the tablet (IndexedDB) when things go wrong on the tablet itself: two
//! tabs of one table tapping offline, a write the tablet's storage refuses (a tap, and a hand-over
//! to the jury, whose call and forgetting are one write), a day's worth of measurements, and a
//! storage that will not open at all. A refused write is made by the test: the page's
//! `IDBObjectStore` method throws once, as a full disk or a storage error would make it fail.

use crate::table::{
    jury_stops_the_clock, kept, log_holds, network, open_table, play, ready, skip_without_browser, start_playing, sync,
    DevTools, Hall, GAME,
};
use crate::web::{click, events_of, eventually, js, text_of, Driver};
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::Duration;

/// The rows the tablet keeps for the game, as IndexedDB has them.
async fn stored_rows(client: &Client) -> Vec<Value> {
    let script =
        format!("const done = arguments[0]; TableQueue.list({}).then(done, e => done(String(e)));", json!(GAME));
    let rows = client.execute_async(&script, vec![]).await.unwrap();
    rows.as_array().unwrap_or_else(|| panic!("the tablet's queue: {rows}")).clone()
}

/// The next call of one of `methods` on the tablet's queue store throws (and puts them all
/// back), as a full disk would make that write fail; the other stores write as before.
async fn storage_fails_once(client: &Client, methods: &[&str]) {
    let script = format!(
        "const proto = IDBObjectStore.prototype; const methods = {}; const kept = {{}};\
         methods.forEach(m => {{ kept[m] = proto[m]; }});\
         methods.forEach(m => {{ proto[m] = function (...args) {{\
           if (this.name !== 'queue') {{ return kept[m].apply(this, args); }}\
           Object.assign(proto, kept); throw new DOMException('the disk is full', 'QuotaExceededError');\
         }}; }});\
         return true;",
        json!(methods)
    );
    assert_eq!(js(client, &script).await, json!(true));
}

async fn notice(client: &Client) -> String {
    text_of(client, "#notice").await.unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tablets_queue_keeps_taps_apart_and_says_what_it_could_not_keep() {
    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let driver = Driver::start(chromium, &chromedriver);
    let hall = Hall::open();
    let table = driver.browser(1280, 800).await;
    open_table(&table, &hall).await;
    start_playing(&table, &hall).await;

    // A day's worth of tap-to-display times: the last 1,000 are kept.
    js(&table, "tableApp.metrics.tapToDisplay.push(...new Array(999).fill(-1)); return null;").await;
    play(&table, 3, Duration::from_millis(40), &mut Vec::new()).await;
    let times: Vec<f64> = serde_json::from_value(js(&table, "return tableApp.metrics.tapToDisplay;").await).unwrap();
    assert_eq!(times.len(), 1000);
    assert_eq!(times.iter().filter(|t| **t < 0.0).count(), 997, "the oldest times go first");
    let (events, _) = log_holds(&hall, 6, Duration::from_secs(10)).await;

    // Two tabs of the table, both offline, tap in turn: both taps are kept, and both reach the log.
    table.refresh().await.unwrap();
    ready(&table).await;
    let first = table.window().await.unwrap();
    let second = table.new_window(true).await.unwrap().handle;
    table.switch_to_window(second.clone()).await.unwrap();
    table.goto(&format!("{}/table/{GAME}", hall.web)).await.unwrap();
    ready(&table).await;
    network(&table, false).await;
    table.switch_to_window(first.clone()).await.unwrap();
    network(&table, false).await;
    play(&table, 1, Duration::from_millis(500), &mut Vec::new()).await;
    kept(&table, 1).await;
    table.switch_to_window(second.clone()).await.unwrap();
    play(&table, 1, Duration::from_millis(40), &mut Vec::new()).await;
    // Its queue, read back from the tablet before sending, holds the first tab's tap too.
    kept(&table, 2).await;
    let rows = stored_rows(&table).await;
    assert_eq!(rows.len(), 2, "one tap overwrote the other: {rows:?}");
    network(&table, true).await;
    table.switch_to_window(first.clone()).await.unwrap();
    network(&table, true).await;
    let (after, _) = log_holds(&hall, events.len() + 2, Duration::from_secs(20)).await;
    let mut grpc = hall.grpc().await;
    table.switch_to_window(second).await.unwrap();
    table.close_window().await.unwrap();
    table.switch_to_window(first).await.unwrap();
    eventually("all recorded", Duration::from_secs(10), || async {
        (sync(&table).await.0 == "recorded").then_some(())
    })
    .await;
    assert_eq!(events_of(&mut grpc, &format!("game/{GAME}")).await.len(), after.len(), "a tap was stored twice");

    // In Spanish, offline: a tap the tablet's storage refuses is taken off the page, said so,
    // and never sent; the next one is kept and sent.
    click(&table, "#lang-switch").await;
    eventually("the table in Spanish", Duration::from_secs(10), || async {
        (text_of(&table, "#sync").await.as_deref() == Some("Todo registrado")).then_some(())
    })
    .await;
    network(&table, false).await;
    storage_fails_once(&table, &["add", "put"]).await;
    play(&table, 1, Duration::from_millis(40), &mut Vec::new()).await;
    let not_kept = "Esta tableta no pudo guardar esa acción: NO está registrada y no se enviará. Vuelve a hacerla.";
    eventually("the tap said not kept", Duration::from_secs(10), || async {
        (notice(&table).await == not_kept).then_some(())
    })
    .await;
    assert_eq!(sync(&table).await, ("recorded".to_owned(), 0, 0), "the tap is still shown as waiting");
    assert!(stored_rows(&table).await.is_empty());
    play(&table, 1, Duration::from_millis(40), &mut Vec::new()).await;
    kept(&table, 1).await;
    network(&table, true).await;
    log_holds(&hall, after.len() + 1, Duration::from_secs(20)).await;
    eventually("all recorded", Duration::from_secs(10), || async {
        (sync(&table).await.0 == "recorded").then_some(())
    })
    .await;
    assert_eq!(events_of(&mut grpc, &format!("game/{GAME}")).await.len(), after.len() + 1, "the refused tap was sent");

    // Refused taps handed to the jury: the call and their forgetting are one write. When it
    // fails, neither happened (the taps stay, no call is queued); the next hand-over sends one
    // call, once.
    network(&table, false).await;
    play(&table, 2, Duration::from_millis(30), &mut Vec::new()).await;
    jury_stops_the_clock(&hall).await;
    network(&table, true).await;
    eventually("the refused taps to be shown", Duration::from_secs(20), || async {
        (sync(&table).await == ("recorded".to_owned(), 0, 2)).then_some(())
    })
    .await;
    let before = events_of(&mut grpc, &format!("game/{GAME}")).await.len();
    storage_fails_once(&table, &["delete"]).await;
    click(&table, "#hand-to-jury").await;
    eventually("the hand-over said not kept", Duration::from_secs(10), || async {
        (notice(&table).await == not_kept).then_some(())
    })
    .await;
    assert_eq!(sync(&table).await, ("recorded".to_owned(), 0, 2), "the refused taps left without a call");
    assert_eq!(stored_rows(&table).await.len(), 2);
    click(&table, "#hand-to-jury").await;
    eventually("nothing refused left on the tablet", Duration::from_secs(10), || async {
        (sync(&table).await == ("recorded".to_owned(), 0, 0)).then_some(())
    })
    .await;
    let (events, _) = log_holds(&hall, before + 1, Duration::from_secs(10)).await;
    let calls = events[before..].iter().filter(|e| e["type"] == "jury_called").count();
    assert_eq!((events.len(), calls), (before + 1, 1), "{:?}", &events[before..]);

    // A page that cannot start (here the tablet's storage will not open) says so in its language.
    let no_storage =
        "IDBFactory.prototype.open = function () { throw new DOMException('no storage', 'SecurityError'); };";
    let command = DevTools { cmd: "Page.addScriptToEvaluateOnNewDocument", params: json!({"source": no_storage}) };
    table.issue_cmd(command).await.unwrap();
    table.refresh().await.unwrap();
    let cannot_start = "Esta página no pudo arrancar en esta tableta: no se pudo leer su almacenamiento o sus textos. \
                        Recárgala; si vuelve a fallar, anota la partida en papel y avisa al jurado.";
    eventually("the page to say it could not start", Duration::from_secs(10), || async {
        (notice(&table).await == cannot_start).then_some(())
    })
    .await;
    table.close().await.unwrap();
}
