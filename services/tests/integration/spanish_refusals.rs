//! Issue 41, item 3: the refusals a Spanish hall meets, each said in Spanish. On the hall the
//! Spanish crawl walks ([`crate::spanish`]), the organiser and the jury make the ledger refuse —
//! a pseudonym already taken, a withdrawal with no stand-in free, a draw that needs stand-ins,
//! a table POST whose body is not JSON or not the queue's shape, a count out of range in a
//! field and in the rules, an Andes move the laws cannot read — and each answer (a page, or a
//! table route's JSON `text`) must say its sentence in Spanish, with no English word of the
//! English catalogue, no id, no decimal point. The jury's ruling preview (both score sheets)
//! is checked the same way; then, in Chromium at 1280x800, the jury's desk, viewer and preview
//! and the Andes recording tablet's event list.

use crate::hall;
use crate::languages::{http_at, Answer};
use crate::season::{Ledger, JURY_TOKEN, ORGANISER_TOKEN};
use crate::spanish::{leaks, visible_text};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// A request in Spanish as the holder of `token`, from this site (the forms' `Origin`).
fn spanish(web: &str, token: &str) -> Vec<(&'static str, String)> {
    vec![
        ("Accept-Language", "en-GB,en;q=0.9".to_owned()),
        ("Cookie", format!("ledger_token={}; ledger_lang=es", hex::encode(token))),
        ("Origin", format!("http://{web}")),
    ]
}

/// The same as JSON (the tablets' POSTs).
fn spanish_json(web: &str, token: &str) -> Vec<(&'static str, String)> {
    let mut headers = vec![("Content-Type", "application/json".to_owned())];
    headers.extend(spanish(web, token));
    headers
}

/// What is wrong with one answer: its sentence missing, or English, ids or decimal points in it.
fn check(wrong: &mut Vec<String>, what: &str, text: &str, expected: &str, english: &BTreeSet<String>) {
    if !text.contains(expected) {
        wrong.push(format!("{what}: «{expected}» not in «{text}»"));
    }
    wrong.extend(leaks(text, english).into_iter().map(|leak| format!("{what}: {leak}")));
}

/// A page's visible text, and its status.
async fn page(web: &str, token: &str, path: &str, form: &str) -> (u16, String) {
    let answer: Answer = http_at(web, "POST", path, &spanish(web, token), form).await;
    (answer.status, visible_text(&answer.body))
}

/// A table route's answer as JSON.
async fn json_post(web: &str, token: &str, path: &str, body: &str) -> (u16, Value) {
    let answer = http_at(web, "POST", path, &spanish_json(web, token), body).await;
    (answer.status, serde_json::from_str(&answer.body).unwrap_or_else(|_| panic!("{path}: {}", answer.body)))
}

/// The stream version a tablet's view reports.
async fn version(web: &str, path: &str) -> u64 {
    let answer = http_at(web, "GET", path, &spanish(web, JURY_TOKEN), "").await;
    let view: Value = serde_json::from_str(&answer.body).unwrap_or_else(|_| panic!("{path}: {}", answer.body));
    view["version"].as_u64().unwrap_or_else(|| panic!("{view}"))
}

/// Every refusal above, said in Spanish: what is wrong with them (empty when all are right).
pub(crate) async fn refusals(ledger: &Ledger, english: &BTreeSet<String>) -> Vec<String> {
    let web = ledger.web.clone();
    let web = web.as_str();
    let mut wrong = Vec::new();
    let drawn = hall::DRAWN;

    // A pseudonym another player of the tournament has.
    let (status, text) =
        page(web, ORGANISER_TOKEN, &format!("/organise/{drawn}/register"), "name=Ana+Ruiz&pseudonym=Zorro+1").await;
    assert_eq!(status, 409, "{text}");
    check(
        &mut wrong,
        "a taken pseudonym",
        &text,
        "El seudónimo Zorro 1 ya es de Jugadora 1 Pérez en este torneo",
        english,
    );

    // A withdrawal in a tournament without stand-ins.
    let (status, text) =
        page(web, ORGANISER_TOKEN, &format!("/organise/{drawn}/withdraw"), "player=p1&from_round=1").await;
    assert_eq!(status, 409, "{text}");
    check(&mut wrong, "a withdrawal", &text, "ningún suplente inscrito está libre en esas rondas", english);

    // A draw of five players, who need stand-ins and have none.
    let short = "corta";
    tokio::task::block_in_place(|| {
        ledger.ok(&["tournament", "create", "--id", short, "--name", "Torneo corto", "--ruleset", "cafe2023"]);
        for n in 1..=5 {
            let (player, name) = (format!("c{n}"), format!("Carla {n}"));
            ledger.ok(&["tournament", "register", "--tournament", short, "--player", &player, "--name", &name]);
        }
    });
    let (status, text) = page(web, ORGANISER_TOKEN, &format!("/organise/{short}/draw"), "seed=7").await;
    assert_eq!(status, 409, "{text}");
    check(&mut wrong, "a draw without stand-ins", &text, "Un sorteo de 5 jugadores necesita 3 suplentes", english);

    // A table POST whose body is not JSON, and one of another shape.
    let running = hall::running_game(ledger);
    let events = format!("/table/{running}/events");
    let (status, body) = json_post(web, JURY_TOKEN, &events, "{not json").await;
    assert_eq!((status, body["code"].as_str()), (400, Some("INVALID_ARGUMENT")), "{body}");
    check(&mut wrong, "a body not JSON", body["text"].as_str().unwrap_or_default(), "no es un JSON", english);
    let (status, body) = json_post(web, JURY_TOKEN, &events, r#"{"events": 5}"#).await;
    // JSON of the wrong shape keeps HTTP's 422 (axum's), worded in the reader's language.
    assert_eq!(status, 422, "{body}");
    check(
        &mut wrong,
        "a body of another shape",
        body["text"].as_str().unwrap_or_default(),
        "no tiene la forma",
        english,
    );

    // A turn below zero (serde's `invalid value: integer -5`), and a deal beyond any deal.
    let at = version(web, &format!("/table/{running}/view")).await;
    let queue =
        |event: Value| json!({"events": [{"event_id": "es-1", "expected_version": at, "event": event}]}).to_string();
    let (status, body) =
        json_post(web, JURY_TOKEN, &events, &queue(json!({"type": "turn_started", "turn": -5, "at_ms": 1}))).await;
    assert_eq!(status, 200, "{body}");
    let said = body["results"][0]["text"].as_str().unwrap_or_default().to_owned();
    check(&mut wrong, "a turn below zero", &said, "-5 no vale: se espera un número entero desde 0", english);
    let (_, body) =
        json_post(web, JURY_TOKEN, &events, &queue(json!({"type": "tc_dealt", "nation": "russia", "count": 9}))).await;
    let said = body["results"][0]["text"].as_str().unwrap_or_default().to_owned();
    check(&mut wrong, "a deal of nine cards", &said, "Se indicaron 9 cartas tácticas", english);
    assert_eq!(body["results"][0]["id"], "refusal-tc-count-above-deal", "{body}");

    // An Andes move the laws cannot read.
    let andes = format!("/andes/{}/record", hall::ANDES);
    let at = version(web, &format!("{andes}/view")).await;
    let queue = json!({"events": [{"event_id": "es-2", "expected_version": at,
        "event": {"type": "move_played", "notation": "0z9", "at_ms": 1}}]});
    let (_, body) = json_post(web, JURY_TOKEN, &format!("{andes}/events"), &queue.to_string()).await;
    let said = body["results"][0]["text"].as_str().unwrap_or_default().to_owned();
    check(&mut wrong, "an Andes move", &said, "Artículo 6.6.1", english);

    // The jury's ruling previewed: both score sheets, in Spanish.
    let final_game = format!("{}-final", hall::ENDED);
    let (status, text) = page(web, JURY_TOKEN, &format!("/jury/{final_game}/rule"), "ruling=Revisado+en+mesa").await;
    assert_eq!(status, 200, "{text}");
    check(&mut wrong, "the ruling's preview", &text, "Papel", english);
    wrong
}

/// Where the screenshots of this walk go, to be looked at (not kept in the repository).
const SHOTS: &str = "/tmp/ledger-spanish-shots";

/// In Chromium at a tablet's 1280x800, in Spanish: the jury's desk, the viewer of the ended final
/// (its state, score sheet and timeline), a ruling's preview (both sheets) and the Andes
/// recording tablet's event list. What is wrong on them; each screen saved in [`SHOTS`].
pub(crate) async fn in_a_browser(ledger: &Ledger, english: &BTreeSet<String>) -> Vec<String> {
    use crate::web::{click, eventually, js, sign_in, Driver};
    use std::time::Duration;
    let Some((chromium, chromedriver)) = crate::table::skip_without_browser() else { return Vec::new() };
    let driver = Driver::start(chromium, &chromedriver);
    let client = driver.browser(1280, 800).await;
    let site = format!("http://{}", ledger.web);
    sign_in(&client, &site, JURY_TOKEN, "/jury").await;
    client.goto(&format!("{site}/lang?to=es&next=/jury")).await.unwrap();
    std::fs::create_dir_all(SHOTS).unwrap();
    let mut wrong = Vec::new();
    let look = |name: &'static str, selector: &'static str| {
        let client = client.clone();
        async move {
            let script = format!("return document.querySelector('{selector}') ? document.body.innerText : null;");
            let text = eventually(name, Duration::from_secs(20), || async {
                js(&client, &script).await.as_str().map(str::to_owned)
            })
            .await;
            std::fs::write(format!("{SHOTS}/{name}.png"), client.screenshot().await.unwrap()).unwrap();
            text
        }
    };
    let mut checked = |name: &str, text: &str, expected: &str| check(&mut wrong, name, text, expected, english);
    let final_game = format!("{}-final", hall::ENDED);
    let text = look("jury-desk", "#desk").await;
    checked("the desk", &text, "jurado");
    client.goto(&format!("{site}/jury/{final_game}")).await.unwrap();
    let text = look("jury-viewer", "#point-sheet").await;
    checked("the viewer", &text, "Tras el evento");
    client
        .find(fantoccini::Locator::Css("#form-rule textarea[name=ruling]"))
        .await
        .unwrap()
        .send_keys("Revisado")
        .await
        .unwrap();
    click(&client, "#form-rule button[type=submit]").await;
    let text = look("jury-preview", "#sheet-after").await;
    checked("the ruling's preview", &text, "Papel");
    client.goto(&format!("{site}/andes/{}/record", hall::ANDES)).await.unwrap();
    let text = look("andes-record", "#andes-record[data-ready=true] #events li").await;
    checked("the Andes tablet", &text, "a las");
    client.close().await.unwrap();
    wrong
}
