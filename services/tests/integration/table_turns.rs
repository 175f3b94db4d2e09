//! Issue 36: a whole CAFE'23 game played through the table page of a real headless Chromium at
//! 1280x800 against a real `ledgerd --http-listen` — the game of the rulebooks' worked example
//! (21 turns, Russia out in turn 11, France out and the Imperial Army switched in turn 18, a
//! Prussian defensive victory), scheduled at table 3 of a tournament. Every action is counted
//! (a click, a chosen option or a typed field), and each control must be inside the window
//! when it is used, without scrolling. On the way: a Card of Fate's lower deal changed in its
//! field, a count of 70 refused on the tablet and by the ledger, a deal taken back while the
//! network is cut, and after the end a recorded event the table asks the jury to correct. At
//! the end the page's score sheet is the ledger's own, and the Spanish page says no English
//! word of the catalogues.

use crate::table::{network, ready, skip_without_browser, sync, DevTools, Hall};
use crate::web::{events_of, eventually, js, screenshot, Driver, JURY_TOKEN, TABLE_TOKEN};
use fantoccini::Client;
use serde_json::{json, Value};
use std::time::Duration;

const GAME: &str = "q2-t3";
const TOURNAMENT: &str = "tournament/cafe23";

/// What the table did on the page: every click and every field it filled in.
#[derive(Default)]
struct Actions {
    count: u32,
}

/// Runs `script` on the element `css` once it is there (and enabled): first whether it lies
/// inside the window with the page unscrolled, then `script` (`e` is the element). Fails when
/// the element had to be scrolled to.
async fn use_control(client: &Client, css: &str, script: &str) {
    let full = format!(
        "const e = document.querySelector({css}); if (!e || e.disabled) {{ return null; }}\
         const r = e.getBoundingClientRect();\
         const inside = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight\
           && r.right <= window.innerWidth && window.scrollY === 0;\
         {script}; return inside ? 'inside' : ('outside: ' + JSON.stringify(r) + ' scrollY ' + window.scrollY);",
        css = json!(css)
    );
    let seen = eventually(&format!("{css} to be there"), Duration::from_secs(10), || async {
        js(client, &full).await.as_str().map(str::to_owned)
    })
    .await;
    assert_eq!(seen, "inside", "{css} was not in view when the table used it");
}

impl Actions {
    async fn tap(&mut self, client: &Client, css: &str) {
        use_control(client, css, "e.click()").await;
        self.count += 1;
    }

    async fn type_in(&mut self, client: &Client, css: &str, value: &str) {
        let script = format!(
            "e.focus({{preventScroll: true}}); e.value = {}; e.dispatchEvent(new Event('input', {{bubbles: true}}))",
            json!(value)
        );
        use_control(client, css, &script).await;
        self.count += 1;
    }

    async fn choose(&mut self, client: &Client, css: &str, value: &str) {
        let script = format!("e.value = {}; e.dispatchEvent(new Event('change', {{bubbles: true}}))", json!(value));
        use_control(client, css, &script).await;
        self.count += 1;
    }
}

/// Appends tournament events as the jury (who records everything).
async fn jury_appends(hall: &Hall, stream: &str, events: &[Value]) {
    let mut grpc = hall.grpc().await;
    let events: Vec<ledger::Event> = events.iter().map(|e| ledger::event::from_canonical_json(e).unwrap()).collect();
    let mut request = tonic::Request::new(crate::support::append(stream, &events, "setup-", None));
    request.metadata_mut().insert("authorization", format!("Bearer {JURY_TOKEN}").parse().unwrap());
    grpc.append(request).await.unwrap();
}

/// The tournament that puts the game at table 3 of round 2.
async fn schedule(hall: &Hall) {
    let player = |id: &str, name: &str, pseudonym: &str| json!({"type": "player_registered", "player": id, "name": name, "pseudonym": pseudonym});
    jury_appends(
        hall,
        TOURNAMENT,
        &[
            json!({"type": "tournament_created", "name": "CAFE 2023", "ruleset": "cafe2023"}),
            player("ana", "Ana Alves", "Zorro"),
            player("ben", "Ben Brandt", "Garza"),
            player("cai", "Cai Costa", "Lince"),
            player("dee", "Dee Dias", "Nutria"),
            json!({"type": "game_scheduled", "game": GAME, "stage": "qualifying", "round": 2, "table": 3,
                   "seats": {"frederick": "ana", "elisabeth": "ben", "maria_theresa": "cai", "pompadour": "dee"}}),
        ],
    )
    .await;
}

async fn game_events(hall: &Hall) -> Vec<Value> {
    let mut grpc = hall.grpc().await;
    events_of(&mut grpc, &format!("game/{GAME}")).await
}

/// Waits until every action is in the ledger.
async fn all_recorded(client: &Client) {
    eventually("all recorded", Duration::from_secs(20), || async {
        (sync(client).await == ("recorded".to_owned(), 0, 0)).then_some(())
    })
    .await;
}

/// The side whose clock runs, from the page.
async fn running(client: &Client) -> String {
    let side = js(
        client,
        "const b = document.querySelector('#chess-clock button.running'); return b ? b.dataset.side : null;",
    );
    side.await.as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_in_a_few_taps_a_turn() {
    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let driver = Driver::start(chromium, &chromedriver);
    let hall = Hall::open();
    schedule(&hall).await;
    let table = driver.browser(1280, 800).await;
    // The tablet's screen is the page's viewport: 1280x800 CSS pixels, whatever the headless
    // window's frame takes.
    let screen = json!({"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false});
    table.issue_cmd(DevTools { cmd: "Emulation.setDeviceMetricsOverride", params: screen.clone() }).await.unwrap();
    table.goto(&format!("{}/signin?next=/table/{GAME}", hall.web)).await.unwrap();
    let field = eventually("the token field", Duration::from_secs(10), || async {
        table.find(fantoccini::Locator::Id("token")).await.ok()
    })
    .await;
    field.send_keys(TABLE_TOKEN).await.unwrap();
    table.find(fantoccini::Locator::Id("signin")).await.unwrap().click().await.unwrap();
    ready(&table).await;
    let inner = js(&table, "return window.innerWidth + 'x' + window.innerHeight;").await;
    assert_eq!(inner, json!("1280x800"));

    // The page says which table this is and who plays which role.
    let head = js(
        &table,
        "return document.getElementById('title').textContent + ' | ' + document.getElementById('seating').textContent;",
    )
    .await;
    let head = head.as_str().unwrap().to_owned();
    for said in ["Table 3, round 2", "Frederick Zorro", "Elisabeth Garza", "Maria Theresa Lince", "Pompadour Nutria"] {
        assert!(head.contains(said), "{head} does not say {said}");
    }

    let mut actions = Actions::default();
    actions.tap(&table, "#do-game_started").await;
    actions.tap(&table, "#press-prussia").await;
    for turn in 1..=21u32 {
        actions.tap(&table, "#do-turn_started").await;
        if turn == 2 {
            the_tablet_and_the_ledger_refuse_70_cards(&table, &hall, &mut actions).await;
        }
        if turn == 4 {
            a_deal_is_taken_back_before_it_counts(&table, &hall, &mut actions).await;
        }
        if turn == 6 {
            // A Card of Fate lowers Prussia's deal this turn: its field changed, then one tap.
            actions.type_in(&table, "#deal-prussia", "4").await;
            let label = js(&table, "return document.getElementById('do-deal').textContent;").await;
            assert_eq!(label, json!("Deal these cards"));
        }
        if turn == 11 {
            all_recorded(&table).await;
            screenshot(&table, "table-turn").await;
            table_turn_in_spanish(&table).await;
            // The same turn on a phone's screen, then the tablet's again.
            let phone = json!({"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true});
            table.issue_cmd(DevTools { cmd: "Emulation.setDeviceMetricsOverride", params: phone }).await.unwrap();
            screenshot(&table, "table-turn-phone").await;
            table
                .issue_cmd(DevTools { cmd: "Emulation.setDeviceMetricsOverride", params: screen.clone() })
                .await
                .unwrap();
        }
        actions.tap(&table, "#do-deal").await;
        // The players' time: Prussia hands over, the attackers hand back.
        for _ in 0..2 {
            let side = running(&table).await;
            actions.tap(&table, &format!("#press-{side}")).await;
        }
        if turn == 11 {
            actions.tap(&table, "#open-drop").await;
            // Russia is the first nation that may drop out, and its total is prefilled.
            assert_eq!(js(&table, "return document.getElementById('f-drop-nation').value;").await, json!("russia"));
            assert_eq!(
                js(&table, "return document.getElementById('f-drop-objectives_total').value;").await,
                json!("10")
            );
            assert_eq!(js(&table, "return document.querySelector('#clock-area.compact') !== null;").await, json!(true));
            actions.type_in(&table, "#f-drop-objectives_held", "7").await;
            no_id_twice(&table).await;
            screenshot(&table, "table-entry").await;
            actions.tap(&table, "#do-nation_dropped_out").await;
        }
        if turn == 18 {
            actions.tap(&table, "#open-drop").await;
            actions.choose(&table, "#f-drop-nation", "france").await;
            actions.type_in(&table, "#f-drop-objectives_held", "9").await;
            actions.tap(&table, "#do-nation_dropped_out").await;
            actions.tap(&table, "#open-switch").await;
            actions.choose(&table, "#f-switch-to", "pompadour").await;
            actions.type_in(&table, "#f-switch-objectives_held", "7").await;
            // This table counts the Imperial Army's objectives out of 10 (CAFE'23's example).
            actions.type_in(&table, "#f-switch-objectives_total", "10").await;
            actions.tap(&table, "#do-imperial_army_switched").await;
        }
    }
    actions.tap(&table, "#open-end").await;
    assert_eq!(
        js(&table, "return document.getElementById('f-end-outcome').value;").await,
        json!("prussian_defensive_victory")
    );
    // The Imperial Army's total as this game last reported it.
    assert_eq!(js(&table, "return document.getElementById('f-end-total-imperial_army').value;").await, json!("10"));
    actions.type_in(&table, "#f-end-held-sweden", "2").await;
    actions.type_in(&table, "#f-end-held-austria", "11").await;
    actions.type_in(&table, "#f-end-held-imperial_army", "3").await;
    actions.tap(&table, "#do-game_ended").await;
    all_recorded(&table).await;
    eprintln!("table_turns: the whole game took {} actions", actions.count);
    assert!(actions.count < 160, "the game took {} actions", actions.count);

    let events = game_events(&hall).await;
    let ended = events.iter().find(|e| e["type"] == "game_ended").expect("the game ended");
    assert_eq!(
        ended,
        &json!({"type": "game_ended", "outcome": "prussian_defensive_victory", "winners": ["prussia"],
                "objectives": {"sweden": [2, 5], "austria": [11, 12], "imperial_army": [3, 10]}})
    );
    let dealt = |nation: &str| {
        events
            .iter()
            .filter(|e| e["type"] == "tc_dealt" && e["nation"] == nation)
            .map(|e| e["count"].as_i64().unwrap())
            .sum::<i64>()
    };
    // 21 turns of 7 cards but the one Card of Fate (4); Russia dealt until it left in turn 11.
    assert_eq!(dealt("prussia"), 20 * 7 + 4);
    assert_eq!(dealt("russia"), 11 * 4);
    assert_eq!(dealt("france"), 18 * 4);
    assert_eq!(dealt("hanover"), 21 * 2);

    the_score_sheet_is_the_ledgers(&table, &events).await;
    a_recorded_event_goes_to_the_jury_for_correction(&table, &hall, &mut actions).await;
    eprintln!("table_turns: with the correction request, {} actions", actions.count);
    the_spanish_page_says_no_english_word(&table).await;
    // The same page on a phone.
    let phone = json!({"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true});
    table.issue_cmd(DevTools { cmd: "Emulation.setDeviceMetricsOverride", params: phone }).await.unwrap();
    table.refresh().await.unwrap();
    ready(&table).await;
    screenshot(&table, "table-ended-phone-es").await;
    table.close().await.unwrap();
}

/// 70 typed for Austria: refused on the tablet with a sentence before anything is queued, and
/// refused by the ledger when sent to it directly.
async fn the_tablet_and_the_ledger_refuse_70_cards(table: &Client, hall: &Hall, actions: &mut Actions) {
    all_recorded(table).await;
    let before = game_events(hall).await.len();
    actions.type_in(table, "#deal-austria", "70").await;
    actions.tap(table, "#do-deal").await;
    let notice = js(table, "return document.getElementById('notice').textContent;").await;
    assert_eq!(notice, json!("70 tactical cards are more than a nation is dealt in one turn: at most 7"));
    assert_eq!(sync(table).await.1, 0, "a refused deal was queued");
    actions.type_in(table, "#deal-austria", "5").await;
    let mut grpc = hall.grpc().await;
    let seventy =
        ledger::event::from_canonical_json(&json!({"type": "tc_dealt", "nation": "austria", "count": 70})).unwrap();
    let mut request =
        tonic::Request::new(crate::support::append(&format!("game/{GAME}"), &[seventy], "seventy-", None));
    request.metadata_mut().insert("authorization", format!("Bearer {TABLE_TOKEN}").parse().unwrap());
    let refused = grpc.append(request).await.unwrap_err();
    assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
    assert!(refused.message().contains("tc_dealt count 70"), "{}", refused.message());
    assert_eq!(game_events(hall).await.len(), before, "the ledger stored a deal of 70");
}

/// With the network cut, the turn's deal is tapped (seven taps waiting) and taken back whole:
/// nothing of it ever reaches the ledger, and the deal is offered again.
async fn a_deal_is_taken_back_before_it_counts(table: &Client, hall: &Hall, actions: &mut Actions) {
    all_recorded(table).await;
    let before = game_events(hall).await.len();
    network(table, false).await;
    actions.tap(table, "#do-deal").await;
    eventually("the deal waiting on the tablet", Duration::from_secs(10), || async {
        let kept = js(table, "return document.getElementById('sync').dataset.kept;").await;
        (kept == json!("7")).then_some(())
    })
    .await;
    let ids: Vec<String> = serde_json::from_value(
        js(table, "return Array.from(document.querySelectorAll('#waiting li')).map(li => li.dataset.eventId);").await,
    )
    .unwrap();
    assert_eq!(ids.len(), 7);
    actions.tap(table, "#take-back").await;
    eventually("the deal taken back", Duration::from_secs(10), || async { (sync(table).await.1 == 0).then_some(()) })
        .await;
    let notice = js(table, "return document.getElementById('notice').textContent;").await;
    assert_eq!(notice, json!("Taken back: it never reached the ledger."));
    // Back online and reloaded, it stays taken back: the tablet's storage forgot it.
    network(table, true).await;
    table.refresh().await.unwrap();
    ready(table).await;
    assert_eq!(sync(table).await.1, 0, "the taken-back deal came back after a reload");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let events = game_events(hall).await;
    assert_eq!(events.len(), before, "a taken-back tap reached the ledger: {:?}", &events[before..]);
}

/// The page's score sheet: each role's score and each nation's as the ledger's own scoring of
/// the same events gives them.
async fn the_score_sheet_is_the_ledgers(table: &Client, events: &[Value]) {
    let stream: Vec<(u64, ledger::Event)> =
        (1u64..).zip(events.iter().map(|e| ledger::event::from_canonical_json(e).unwrap())).collect();
    let sheet = replay::score_game(Some(ledger::Ruleset::Cafe2023), &stream).unwrap();
    let places = sheet.places();
    let shown = eventually("the score sheet of the ended game", Duration::from_secs(10), || async {
        let shown = js(
            table,
            "const s = {}; document.querySelectorAll('#sheet tr[data-role]').forEach(tr => { s[tr.dataset.role] = tr.querySelector('td').textContent; });\
             document.querySelectorAll('#sheet li[data-nation]').forEach(li => { s[li.dataset.nation] = li.dataset.score; });\
             return s;",
        )
        .await;
        (shown["frederick"].as_str().is_some_and(|s| s != "pending")).then_some(shown)
    })
    .await;
    for role in ledger::Role::ALL {
        let expected = sheet.role_score(*role).unwrap().to_fixed(places);
        assert_eq!(shown[role.as_str()], json!(expected), "{role}: {shown}");
    }
    for (nation, line) in &sheet.nations {
        assert_eq!(shown[nation.as_str()], json!(line.score.unwrap().to_fixed(places)), "{nation}: {shown}");
    }
    // The rulebooks' worked example, as a check on the check.
    assert_eq!(shown["frederick"], json!("12.1"));
}

/// After the end, the table (now reading Spanish) asks the jury to correct a recorded deal: a
/// jury call naming the event's seq, saying it as a sentence in the table's language, and what
/// the table says it should be.
async fn a_recorded_event_goes_to_the_jury_for_correction(table: &Client, hall: &Hall, actions: &mut Actions) {
    actions.tap(table, "#lang-switch").await;
    eventually("the page in Spanish", Duration::from_secs(10), || async {
        (js(table, "return document.documentElement.lang;").await == json!("es")).then_some(())
    })
    .await;
    let events = game_events(hall).await;
    let seq = events.iter().rposition(|e| e["type"] == "tc_dealt" && e["nation"] == "austria").unwrap() + 1;
    actions.tap(table, &format!("#correct-{seq}")).await;
    actions.type_in(table, "#f-correction-should", "Austria recibió 4 cartas tácticas").await;
    actions.tap(table, "#do-correction").await;
    all_recorded(table).await;
    let after = game_events(hall).await;
    assert_eq!(after.len(), events.len() + 1);
    let call = after.last().unwrap();
    assert_eq!(call["type"], "jury_called", "{call}");
    assert_eq!(
        call["reason"],
        json!(format!(
            "La mesa pide corregir el evento {seq} (Austria recibió 5 cartas tácticas): debería ser: Austria recibió 4 cartas tácticas"
        ))
    );
}

/// Turn 11's entry in Spanish (a screenshot), then back in English.
async fn table_turn_in_spanish(table: &Client) {
    js(table, "document.getElementById('lang-switch').click(); return null;").await;
    eventually("the turn in Spanish", Duration::from_secs(10), || async {
        let label = js(table, "const b = document.getElementById('do-deal'); return b ? b.textContent : null;").await;
        (label == json!("Repartir las cartas de siempre del turno 11")).then_some(())
    })
    .await;
    // The header the server wrote follows the switch too.
    let header = js(table, "return document.querySelector('header').innerText;").await;
    let header = header.as_str().unwrap_or_default();
    assert!(header.contains("table-4 (mesa)") && header.contains("Cerrar sesión"), "{header}");
    screenshot(table, "table-turn-es").await;
    js(table, "document.getElementById('lang-switch').click(); return null;").await;
    eventually("the turn in English", Duration::from_secs(10), || async {
        let label = js(table, "const b = document.getElementById('do-deal'); return b ? b.textContent : null;").await;
        (label == json!("Deal the standard cards for turn 11")).then_some(())
    })
    .await;
}

/// The ended game's page in Spanish (the language remembered across a reload): no word that
/// only the English catalogues use, no id meant for machines, no clock offering to hand over,
/// and no id given twice.
async fn the_spanish_page_says_no_english_word(table: &Client) {
    table.refresh().await.unwrap();
    ready(table).await;
    let text = eventually("the Spanish score sheet", Duration::from_secs(10), || async {
        let text = js(table, "return document.body.innerText;").await.as_str().unwrap_or_default().to_owned();
        text.contains("Terminada en el turno 21").then_some(text)
    })
    .await;
    let english = crate::spanish::english_only();
    // The header names who signed in by the token's actor, a name the organiser chose
    // (`table-4`), not a word of the page.
    let words = text.replace("table-4", "");
    let found: Vec<String> = crate::spanish::words_of(&words).into_iter().filter(|w| english.contains(w)).collect();
    assert!(found.is_empty(), "English on the Spanish table page: {found:?}\n{text}");
    for id in ["maria_theresa", "imperial_army", "tc_dealt", "game_ended", "jury_called", "prussian_defensive_victory"]
    {
        assert!(!text.contains(id), "{id} on the Spanish table page:\n{text}");
    }
    assert!(text.contains("12,1"), "the Spanish sheet writes no decimal comma:\n{text}");
    no_id_twice(table).await;
    // The clock of an ended game offers nothing.
    let hints = js(
        table,
        "return Array.from(document.querySelectorAll('#chess-clock .hint')).map(h => h.textContent).join('');",
    );
    assert_eq!(hints.await, json!(""));
}

/// No two elements of the page share an id.
async fn no_id_twice(table: &Client) {
    let twice = js(
        table,
        "const seen = {}; const twice = []; document.querySelectorAll('[id]').forEach(e => { if (seen[e.id]) { twice.push(e.id); } seen[e.id] = true; }); return twice;",
    )
    .await;
    assert_eq!(twice, json!([]), "ids given twice");
}
