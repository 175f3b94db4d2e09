//! The Andes recording mode (`/andes/<match>/record`) as the recorder of article 9.1 uses it: a
//! real headless Chromium against a real `ledgerd --http-listen` with an auth file.
//!
//! 1. The tablet's laws (`andes-rules.js`, run by the browser) decide every step of many seeded
//!    matches and random illegal attempts as `ledger::andes` does: same acceptance, same article
//!    and sentence, same derived events, same state and points.
//! 2. A whole match is played BY TAPS on the recording page: game 1 to its derived end, with the
//!    network cut through DevTools for a stretch of moves and the page reloaded meanwhile; game 2
//!    until a resignation. The log holds exactly the moves, in order, each once, with the events
//!    the ledger derived in their places; illegal taps are refused on the tablet with their
//!    article, in English and in Spanish, beside the board and in view without scrolling, and
//!    never reach the log. At a tablet's 1280x800 the board and both reserves are on one screen;
//!    a resignation needs a second tap (one records nothing, cancel forgets it); each game's
//!    winner and the match's are named, in both languages, as the ledger's match sheet has them.
//! 3. A 2.5 s clock runs down on the tablet: the fallen flag is offered only at zero, a late
//!    move is refused (8.3), and the flag is recorded once its second tap confirms it.
//! 4. Another device records while the tablet is cut off: the tablet's kept move is decided
//!    again, refused with its article, and handed to the jury.

use crate::daemon::Daemon;
use crate::table::{network, skip_without_browser, sync};
use crate::web::{click, events_of, eventually, free_port, js, screenshot, text_of, Driver, JURY_TOKEN, TABLE_TOKEN};
use fantoccini::Client;
use ledger::andes::testing::seeded_match;
use ledger::andes::{decide, derived_events, AndesEvent, AndesState, Move, Side};
use ledger::Event;
use ledger_proto::v1 as pb;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

const MATCH: &str = "mesa-7";
const ORGANISER_TOKEN: &str = "organiser-token-andes";

/// ledgerd with a table, a jury and an organiser token, its pages on a fixed loopback port.
struct Hall {
    daemon: Daemon,
    web: String,
    _dir: tempfile::TempDir,
}

impl Hall {
    fn open() -> Hall {
        let dir = tempfile::tempdir().unwrap();
        let entry = |token: &str, actor: &str, role: &str| json!({"sha256": hex::encode(ledger_house::auth::token_digest(token)), "actor": actor, "clearance": role});
        let auth = json!({"tokens": [entry(TABLE_TOKEN, "table-7", "table"), entry(JURY_TOKEN, "jury-anna", "jury"),
                                      entry(ORGANISER_TOKEN, "olga", "organiser")]});
        let auth_file = dir.path().join("auth.json");
        std::fs::write(&auth_file, auth.to_string()).unwrap();
        let http_port = free_port();
        let listen = format!("127.0.0.1:{http_port}");
        let data: PathBuf = dir.path().join("data");
        let daemon =
            Daemon::spawn_with(&data, &["--auth-file", auth_file.to_str().unwrap(), "--http-listen", listen.as_str()]);
        Hall { daemon, web: format!("http://{listen}"), _dir: dir }
    }

    async fn create_match(&self, id: &str, clock_ms: u64) {
        let created = AndesEvent::MatchCreated { first_sol: "ana".into(), first_luna: "bea".into(), clock_ms };
        let mut request = tonic::Request::new(crate::support::append(
            &format!("andes/{id}"),
            &[Event::Andes(created)],
            &format!("create-{id}-"),
            None,
        ));
        request.metadata_mut().insert("authorization", format!("Bearer {ORGANISER_TOKEN}").parse().unwrap());
        self.daemon.connect().await.append(request).await.unwrap();
    }

    async fn log(&self) -> Vec<Value> {
        self.log_of(MATCH).await
    }

    async fn log_of(&self, id: &str) -> Vec<Value> {
        events_of(&mut self.daemon.connect().await, &format!("andes/{id}")).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_is_recorded_by_taps_offline_and_online_with_the_laws_on_the_tablet() {
    let Some((chromium, chromedriver)) = skip_without_browser() else { return };
    let driver = Driver::start(chromium, &chromedriver);
    let hall = Hall::open();
    hall.create_match(MATCH, 720_000).await;
    let tablet = driver.browser(1280, 800).await;
    // The window's frame takes part of its height: the page itself gets 1280x800, a tablet's.
    let inner = js(&tablet, "return innerHeight;").await.as_u64().unwrap();
    let (width, height) = tablet.get_window_size().await.unwrap();
    tablet.set_window_size(u32::try_from(width).unwrap(), u32::try_from(height + 800 - inner).unwrap()).await.unwrap();
    tablet.goto(&format!("{}/signin?next=/andes/{MATCH}/record", hall.web)).await.unwrap();
    let field = eventually("the token field", Duration::from_secs(10), || async {
        tablet.find(fantoccini::Locator::Id("token")).await.ok()
    })
    .await;
    field.send_keys(TABLE_TOKEN).await.unwrap();
    tablet.find(fantoccini::Locator::Id("signin")).await.unwrap().click().await.unwrap();
    ready(&tablet).await;

    the_tablets_laws_decide_as_the_ledgers(&tablet).await;
    a_whole_match_is_played_by_taps(&tablet, &hall).await;
    a_fallen_flag_is_offered_at_zero_and_recorded(&tablet, &hall).await;
    a_second_device_is_decided_again_and_refusals_go_to_the_jury(&tablet, &hall).await;
    tablet.close().await.unwrap();
}

/// Waits for the recording page's script to have drawn the match.
async fn ready(client: &Client) {
    eventually("the recording page to be ready", Duration::from_secs(20), || async {
        let script = "const s = document.getElementById('andes-record'); return s ? s.dataset.ready : null;";
        (js(client, script).await == json!("true")).then_some(())
    })
    .await;
}

// ---- 1. the differential test -----------------------------------------------------------------

/// A tiny seeded generator (xorshift), so the corpus is the same on every run.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Illegal-looking attempts at one point of a match: random placements and moves (many refused,
/// some legal), flags and resignations of either side at random times, a game started out of
/// turn, and now and then a notation the laws cannot read.
fn attempts(state: &AndesState, draw: &mut Draw) -> Vec<AndesEvent> {
    let at = state.last_at_ms.unwrap_or(0);
    let square = |draw: &mut Draw| {
        let index = usize::try_from(draw.below(49)).unwrap();
        ledger::andes::Square::from_index(index).unwrap().sol_name()
    };
    let mut out = Vec::new();
    for _ in 0..4 {
        let digit = draw.below(4);
        let notation = match draw.below(10) {
            0..=3 => format!("{digit}{}", square(draw)),
            4..=7 => {
                let own: Vec<String> = state
                    .game
                    .as_ref()
                    .map(|g| {
                        g.position
                            .pieces()
                            .filter(|(_, p)| p.side == g.position.to_move())
                            .map(|(s, _)| s.sol_name())
                            .collect()
                    })
                    .unwrap_or_default();
                let from = if own.is_empty() || draw.below(4) == 0 {
                    square(draw)
                } else {
                    own[usize::try_from(draw.below(own.len() as u64)).unwrap()].clone()
                };
                format!("{digit}{from}{}", square(draw))
            }
            8 => {
                ["0d", "5d3", "0h3", "2c3C5", "1a1a1", "0D3", "3x"][usize::try_from(draw.below(7)).unwrap()].to_owned()
            }
            _ => {
                let luna = |name: String| Move::parse(&format!("0{name}")).unwrap().destination().luna_name();
                format!("{digit}{}{}", luna(square(draw)), luna(square(draw)))
            }
        };
        let when = match draw.below(6) {
            0 => at.saturating_sub(1 + draw.below(3_000)),
            1 => at + 720_000 + draw.below(100_000),
            _ => at + draw.below(4_000),
        };
        out.push(AndesEvent::MovePlayed { notation, at_ms: when });
    }
    let side = if draw.below(2) == 0 { Side::Sol } else { Side::Luna };
    let late = at + draw.below(800_000);
    out.push(AndesEvent::FlagFell { side, at_ms: late });
    out.push(AndesEvent::Resigned { side, at_ms: late });
    out.push(AndesEvent::GameStarted { game: u8::try_from(draw.below(4)).unwrap(), at_ms: at + 1 });
    out
}

/// One decided step: the event as the tablet would send it, and the ledger's answer; when it
/// ends a game, the game's winner by the match sheet (`history`: the stream before it).
fn step(state: &AndesState, event: &AndesEvent, advance: bool, history: &[AndesEvent]) -> Value {
    let json = serde_json::to_value(event).unwrap();
    match decide(state, event) {
        Err(refusal) => json!({"event": json, "advance": advance, "refused": {
            "kind": refusal.kind.as_str(), "article": refusal.article, "message": refusal.to_string()}}),
        Ok(()) => {
            let derived: Vec<Value> =
                derived_events(state, event).unwrap().iter().map(|d| serde_json::to_value(d).unwrap()).collect();
            let mut next = state.clone();
            next.record(event.clone()).unwrap();
            let points: Vec<u32> = next.game.as_ref().map_or(Vec::new(), |g| {
                Side::BOTH.iter().map(|&s| replay::andes::Points::of(&g.position, s).total()).collect()
            });
            let ended = next.game.as_ref().is_some_and(|g| g.ended.is_some());
            let winner = if ended {
                let mut events = history.to_vec();
                events.push(event.clone());
                events.extend(derived_events(state, event).unwrap());
                let sheet = replay::andes::andes_match_json(&events).unwrap();
                let game = sheet.games.last().unwrap();
                json!({"side": game.winner, "decided_by": game.decided_by})
            } else {
                Value::Null
            };
            json!({"event": json, "advance": advance, "derived": derived,
                   "state": serde_json::to_string(&next).unwrap(), "points": points, "winner": winner})
        }
    }
}

/// Seeded matches with random attempts between their moves, each step decided by the ledger.
fn laws_corpus(matches: u32) -> (Vec<Value>, usize, usize) {
    let mut corpus = Vec::new();
    let (mut steps, mut refused) = (0, 0);
    let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
    for seed in 0..matches {
        let stream = seeded_match(seed, 500);
        let mut state = AndesState::new();
        let mut out = Vec::new();
        for (at, event) in stream.iter().enumerate() {
            if event.is_derived() {
                // The tablet never sends these: `record` below applied them with their move.
                continue;
            }
            if state.setup.is_some() {
                for attempt in attempts(&state, &mut draw) {
                    out.push(step(&state, &attempt, false, &stream[..at]));
                }
            }
            out.push(step(&state, event, true, &stream[..at]));
            state.record(event.clone()).unwrap();
        }
        steps += out.len();
        refused += out.iter().filter(|s| s.get("refused").is_some()).count();
        corpus.push(Value::Array(out));
    }
    (corpus, steps, refused)
}

/// The tablet's laws (`andes-rules.js`, run by the browser) decide every step of the corpus as
/// the ledger did: the same article and sentence when refused; when accepted, the same derived
/// events, the same state (as serde writes it) and the same points, and for a step that ends a
/// game the same winner, decided the same way (`AndesRules.winner`, the match sheet's).
async fn the_tablets_laws_decide_as_the_ledgers(client: &Client) {
    let (corpus, n_steps, n_refused) = laws_corpus(60);
    let script = "const corpus = arguments[0]; const wrong = []; let checked = 0; let winners = 0;
        const sorted = v => Array.isArray(v) ? v.map(sorted) : (v && typeof v === 'object')
          ? Object.keys(v).sort().reduce((o, k) => { o[k] = sorted(v[k]); return o; }, {}) : v;
        for (const steps of corpus) {
          let state = AndesRules.initial();
          for (const step of steps) {
            checked += 1;
            const refusal = AndesRules.decide(state, step.event);
            if (step.refused) {
              if (!refusal || refusal.kind !== step.refused.kind || refusal.article !== step.refused.article
                  || refusal.message !== step.refused.message) {
                wrong.push({event: step.event, ledger: step.refused, tablet: refusal});
              }
            } else if (refusal) {
              wrong.push({event: step.event, ledger: 'accepted', tablet: refusal});
            } else {
              const derived = AndesRules.derived(state, step.event);
              const next = AndesRules.record(state, step.event).state;
              const points = next.game ? ['sol', 'luna'].map(s => AndesRules.points(next.game.position, s)) : [];
              if (JSON.stringify(sorted(derived)) !== JSON.stringify(sorted(step.derived))) {
                wrong.push({event: step.event, ledger_derived: step.derived, tablet_derived: derived});
              } else if (JSON.stringify(next) !== step.state) {
                wrong.push({event: step.event, ledger_state: step.state, tablet_state: JSON.stringify(next)});
              } else if (JSON.stringify(points) !== JSON.stringify(step.points)) {
                wrong.push({event: step.event, ledger_points: step.points, tablet_points: points});
              } else if (JSON.stringify(sorted(AndesRules.winner(next.game))) !== JSON.stringify(sorted(step.winner))) {
                wrong.push({event: step.event, ledger_winner: step.winner, tablet_winner: AndesRules.winner(next.game)});
              } else if (step.winner) {
                winners += 1;
              }
            }
            if (step.advance) { state = step.state ? JSON.parse(step.state) : state; }
            if (wrong.length >= 5) { return {checked: checked, wrong: wrong}; }
          }
        }
        return {checked: checked, wrong: wrong, winners: winners};";
    let answer = client.execute(script, vec![Value::Array(corpus)]).await.unwrap();
    assert_eq!(answer["wrong"], json!([]), "the tablet's laws and the ledger's differ");
    assert_eq!(answer["checked"].as_u64(), Some(n_steps as u64));
    let winners = answer["winners"].as_u64().unwrap();
    assert!(winners >= 20, "only {winners} ended games had their winner compared");
    eprintln!("andes laws: {n_steps} steps decided alike by the tablet and the ledger ({n_refused} refused)");
    assert!(
        n_refused > n_steps / 5 && n_refused < n_steps * 9 / 10,
        "a corpus of mostly one answer: {n_refused} of {n_steps}"
    );
}

// ---- 2. a whole match by taps -------------------------------------------------------------------

/// A seeded match whose first game ends by the laws (a derived `game_ended`) within `most` moves,
/// and its moves of game 1.
fn first_game(most: usize) -> (Vec<AndesEvent>, Vec<Move>) {
    for seed in 0..400 {
        let stream = seeded_match(seed, 400);
        let end = stream.iter().position(|e| {
            matches!(e, AndesEvent::GameEnded { .. } | AndesEvent::FlagFell { .. } | AndesEvent::Resigned { .. })
        });
        let Some(end) = end else { continue };
        if !matches!(stream[end], AndesEvent::GameEnded { .. }) {
            continue;
        }
        let game: Vec<AndesEvent> = stream[2..=end].to_vec();
        let moves: Vec<Move> = game.iter().filter_map(|e| e.parsed_move().unwrap()).map(|w| w.mv).collect();
        let struck =
            game.iter().any(|e| matches!(e, AndesEvent::PieceCaptured { .. } | AndesEvent::PieceAttacked { .. }));
        if moves.len() <= most && moves.len() >= 12 && struck {
            return (game, moves);
        }
    }
    panic!("no seeded match ends its first game within {most} moves");
}

/// Taps one move: the piece (on the board, or its type in the reserve), then the square.
async fn tap_move(client: &Client, mv: Move) {
    match mv {
        Move::Place { kind, square } => {
            click(client, &format!("#reserve-{}", kind.digit())).await;
            click(client, &format!("#record-board button[data-square='{square}']")).await;
        }
        Move::Shift { from, to, .. } => {
            click(client, &format!("#record-board button[data-square='{from}']")).await;
            click(client, &format!("#record-board button[data-square='{to}']")).await;
        }
    }
}

/// Taps `moves`: each legal, so the tablet's laws take each (no refusal shown).
async fn tap_moves(client: &Client, moves: &[Move]) {
    for mv in moves {
        tap_move(client, *mv).await;
        let notice =
            js(client, "const n = document.getElementById('notice'); return n.hidden ? null : n.textContent;").await;
        assert_eq!(notice, Value::Null, "the tablet refused the legal move {mv}");
    }
}

/// Whether the element `css` is shown and wholly on the screen as it is, the page not scrolled:
/// what the recorder sees without scrolling.
async fn in_view(client: &Client, css: &str) -> bool {
    let script = format!(
        "const e = document.querySelector({}); if (!e || e.hidden || e.closest('[hidden]')) {{ return false; }}
         const r = e.getBoundingClientRect();
         return scrollX === 0 && scrollY === 0 && r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0
           && r.bottom <= innerHeight && r.right <= innerWidth;",
        json!(css)
    );
    js(client, &script).await == json!(true)
}

/// The match sheet of the log (`replay::andes`): the winners the tablet must name.
fn sheet_of(log: &[Value]) -> replay::andes::MatchJson {
    let events: Vec<AndesEvent> = log
        .iter()
        .filter_map(|e| match ledger::event::from_canonical_json(e).unwrap() {
            Event::Andes(andes) => Some(andes),
            _ => None,
        })
        .collect();
    replay::andes::andes_match_json(&events).unwrap()
}

/// "Game 1 won by ana (Sol): more points" and its Spanish, from the sheet's game `number`.
fn game_winner_text(sheet: &replay::andes::MatchJson, number: u8, spanish: bool) -> String {
    let game = sheet.games.iter().find(|g| g.game == number).unwrap();
    let side = game.winner.unwrap();
    let (player, side_name) = if side == Side::Sol { (&game.sol, "Sol") } else { (&game.luna, "Luna") };
    let how = match (game.decided_by.unwrap(), spanish) {
        ("flag_fell", false) => "the opponent's flag fell",
        ("resigned", false) => "the opponent resigned",
        ("points", false) => "more points",
        ("pieces_on_board", false) => "level on points, more pieces on the board",
        ("luna", false) => "level on points and pieces: Luna wins",
        ("flag_fell", true) => "al caer la bandera del rival",
        ("resigned", true) => "por abandono del rival",
        ("points", true) => "por más puntos",
        ("pieces_on_board", true) => "empatados a puntos, por más piezas en el tablero",
        ("luna", true) => "empatados a puntos y piezas: gana Luna",
        (other, _) => panic!("decided by {other}"),
    };
    if spanish {
        format!("Partida {number}: gana {player} ({side_name}), {how}")
    } else {
        format!("Game {number} won by {player} ({side_name}): {how}")
    }
}

/// The match's winner as the tablet words it, from the sheet of a complete match.
fn match_winner_text(sheet: &replay::andes::MatchJson, spanish: bool) -> String {
    // Totals are whole or half numbers: 40.5 is "40.5" in English and "40,5" in Spanish.
    let total = |player: &str| {
        let line = sheet.players.iter().find(|p| p.player == player).unwrap();
        let text = line.total.to_string();
        let text = text.strip_suffix(".0").unwrap_or(&text).to_owned();
        if spanish {
            text.replace('.', ",")
        } else {
            text
        }
    };
    match (&sheet.winner, spanish) {
        (Some(w), false) => {
            let lost = sheet.players.iter().find(|p| &p.player != w).unwrap();
            format!("Match won by {w}: {} points to {}, bonuses included", total(w), total(&lost.player))
        }
        (Some(w), true) => {
            let lost = sheet.players.iter().find(|p| &p.player != w).unwrap();
            format!("Gana el encuentro {w}: {} puntos a {}, con las bonificaciones", total(w), total(&lost.player))
        }
        (None, false) => format!(
            "The match is drawn: {} points each and as many pieces on the board",
            total(&sheet.players[0].player)
        ),
        (None, true) => format!(
            "El encuentro termina empatado: {} puntos cada uno y las mismas piezas en el tablero",
            total(&sheet.players[0].player)
        ),
    }
}

/// The log once it holds `count` events.
async fn log_holds(hall: &Hall, count: usize) -> Vec<Value> {
    log_of_holds(hall, MATCH, count).await
}

/// The log of match `id` once it holds `count` events.
async fn log_of_holds(hall: &Hall, id: &str, count: usize) -> Vec<Value> {
    eventually(&format!("the log of {id} to hold {count} events"), Duration::from_secs(30), || async {
        let log = hall.log_of(id).await;
        (log.len() >= count).then_some(log)
    })
    .await
}

/// Each logged event as the ledger's type and what the laws care about (no table times).
fn shape(event: &Value) -> Value {
    let mut event = event.clone();
    if let Some(fields) = event.as_object_mut() {
        fields.remove("at_ms");
        if let Some(notation) = fields.get("notation").and_then(Value::as_str) {
            let mv = Move::parse(notation).unwrap();
            fields.insert("notation".into(), json!(mv.to_string()));
        }
    }
    event
}

async fn a_whole_match_is_played_by_taps(tablet: &Client, hall: &Hall) {
    eventually("the service worker to control the page", Duration::from_secs(20), || async {
        (js(tablet, "return !!(navigator.serviceWorker && navigator.serviceWorker.controller);").await == json!(true))
            .then_some(())
    })
    .await;
    let (game_one, moves) = first_game(90);
    click(tablet, "#start-game").await;
    let log = log_holds(hall, 2).await;
    assert_eq!(log[1], json!({"type": "game_started", "game": 1, "at_ms": log[1]["at_ms"]}));
    assert!(log[1]["at_ms"].as_u64().unwrap() < 2_000, "the match's table clock starts at 0: {}", log[1]);

    // An illegal first move is refused on the tablet, with its article, and queued nowhere.
    click(tablet, "#reserve-2").await;
    click(tablet, "#record-board button[data-square='d3']").await;
    let notice = text_of(tablet, "#notice").await.unwrap_or_default();
    assert_eq!(notice, "Article 3.4: Sol's first move places a persona, not a militar");
    assert_eq!(sync(tablet).await.1, 0, "a refused tap was queued");
    let viewport = js(tablet, "return [innerWidth, innerHeight];").await;
    assert_eq!(viewport, json!([1280, 800]), "a tablet's screen");
    assert!(in_view(tablet, "#notice").await, "the refusal is beside the board, in view without scrolling");

    // The first third online, the next stretch with the network cut and a reload, the rest online.
    let third = moves.len() / 3;
    tap_moves(tablet, &moves[..third]).await;
    // Mid-game, the board and both reserves (Sol's piece types as buttons) on one screen.
    for part in ["#record-board", "#record-reserves", ".reserve.sol", ".reserve.luna", "#andes-clocks", "#resign"] {
        assert!(in_view(tablet, part).await, "{part} is not on the 1280x800 screen without scrolling");
    }
    eventually("all recorded", Duration::from_secs(20), || async {
        (sync(tablet).await.0 == "recorded").then_some(())
    })
    .await;
    let online = hall.log().await.len();
    network(tablet, false).await;
    let cut = (third + 8).min(moves.len() - 2);
    tap_moves(tablet, &moves[third..cut]).await;
    assert_eq!(sync(tablet).await.0, "offline");
    // Kept on the tablet (IndexedDB's strict writes done) before the page goes.
    eventually("the waiting moves to be kept", Duration::from_secs(20), || async {
        (js(tablet, "return andesApp.rows.length > 0 && andesApp.rows.every(r => r.kept);").await == json!(true))
            .then_some(())
    })
    .await;
    tablet.refresh().await.unwrap();
    ready(tablet).await;
    network(tablet, false).await;
    assert_eq!(sync(tablet).await.1, (cut - third) as u64, "the waiting moves did not survive the reload");
    screenshot(tablet, "andes-record-offline").await;
    assert_eq!(hall.log().await.len(), online, "the log grew while the network was cut");
    network(tablet, true).await;
    tap_moves(tablet, &moves[cut..]).await;

    // Game 1 is in the log exactly: every move once, in order, with what the ledger derived.
    let log = log_holds(hall, 2 + game_one.len()).await;
    let expected: Vec<Value> =
        game_one.iter().map(|e| shape(&ledger::event::to_canonical_json(&Event::Andes(e.clone())))).collect();
    let stored: Vec<Value> = log[2..].iter().map(shape).collect();
    assert_eq!(stored, expected, "game 1 as the ledger holds it");
    let times: Vec<u64> = log.iter().filter_map(|e| e["at_ms"].as_u64()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "table times go forward: {times:?}");
    // Game 1 ended on the board: its winner named at once, as the match sheet reckons it.
    let sheet = sheet_of(&log);
    let named = text_of(tablet, "#game-winner").await;
    assert_eq!(named, Some(game_winner_text(&sheet, 1, false)), "game 1's winner in English");
    assert!(in_view(tablet, "#game-winner").await, "the winner is named in view");
    assert_eq!(text_of(tablet, "#match-winner").await, None, "one game of two: no match winner yet");
    eventually("all recorded", Duration::from_secs(20), || async {
        (sync(tablet).await.0 == "recorded").then_some(())
    })
    .await;

    // Game 2, sides swapped: in Spanish now, a refused tap, two moves, then Sol resigns.
    click(tablet, "#lang-switch").await;
    eventually("the page in Spanish", Duration::from_secs(10), || async {
        (text_of(tablet, "#start-game").await.as_deref() == Some("Empezar la partida 2")).then_some(())
    })
    .await;
    click(tablet, "#start-game").await;
    click(tablet, "#reserve-0").await;
    click(tablet, "#record-board button[data-square='a0']").await;
    let notice = text_of(tablet, "#notice").await.unwrap_or_default();
    assert_eq!(
        notice,
        "Artículo 3.4: la primera jugada de Sol coloca una pieza tipo persona en el continente, y a0 es una isla"
    );
    assert!(in_view(tablet, "#notice").await, "the Spanish refusal is in view without scrolling");
    for part in ["#record-board", "#record-reserves", ".reserve.sol", ".reserve.luna"] {
        assert!(in_view(tablet, part).await, "{part} is not on the 1280x800 screen without scrolling");
    }
    screenshot(tablet, "andes-record-refused").await;
    let second = [Move::parse("0d3").unwrap(), Move::parse("0a2").unwrap()];
    tap_moves(tablet, &second).await;
    // Resigning takes two taps: the first only asks; cancel forgets it.
    let before = log_holds(hall, 2 + game_one.len() + 3).await.len();
    click(tablet, "#resign").await;
    assert_eq!(
        text_of(tablet, "#confirm-end p").await.as_deref(),
        Some("¿Registrar que Sol (bea) abandona? La partida termina y Sol la pierde.")
    );
    assert!(in_view(tablet, "#confirm-end-yes").await);
    assert_eq!(text_of(tablet, "#resign").await, None, "the question replaces the button");
    screenshot(tablet, "andes-record-confirm").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(sync(tablet).await.1, 0, "one tap queued a resignation");
    assert_eq!(hall.log().await.len(), before, "one tap recorded a resignation");
    click(tablet, "#confirm-end-no").await;
    assert_eq!(text_of(tablet, "#confirm-end").await, None);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(hall.log().await.len(), before, "cancel recorded something");
    click(tablet, "#resign").await;
    click(tablet, "#confirm-end-yes").await;
    let total = 2 + game_one.len() + 4;
    let log = log_holds(hall, total).await;
    assert_eq!(log.len(), total, "an event was stored twice: {log:?}");
    let tail: Vec<Value> = log[2 + game_one.len()..].iter().map(shape).collect();
    assert_eq!(
        tail,
        [
            json!({"type": "game_started", "game": 2}),
            json!({"type": "move_played", "notation": "0d3"}),
            json!({"type": "move_played", "notation": "0a2"}),
            json!({"type": "resigned", "side": "sol"}),
        ]
    );
    // Who played: the table's token, for the moves and for what the ledger derived after them.
    let mut grpc = hall.daemon.connect().await;
    let mut request = tonic::Request::new(pb::ReadRequest {
        stream: format!("andes/{MATCH}"),
        from_seq: 1,
        limit: None,
        ..Default::default()
    });
    request.metadata_mut().insert("authorization", format!("Bearer {JURY_TOKEN}").parse().unwrap());
    use tokio_stream::StreamExt;
    let records: Vec<pb::RecordedEvent> =
        grpc.read(request).await.unwrap().into_inner().map(Result::unwrap).collect().await;
    assert!(records[1..].iter().all(|r| r.envelope.as_ref().unwrap().actor == "table-7"));
    eventually("the tablet to show the resignation", Duration::from_secs(10), || async {
        (text_of(tablet, "#phase").await.as_deref() == Some("el encuentro ha terminado")).then_some(())
    })
    .await;
    // Game 2's winner at once; the match's once the ledger holds the end, by its match sheet.
    let sheet = sheet_of(&log);
    assert_eq!(sheet.status, "complete");
    assert_eq!(text_of(tablet, "#game-winner").await, Some(game_winner_text(&sheet, 2, true)));
    let spanish = match_winner_text(&sheet, true);
    eventually("the match's winner in Spanish", Duration::from_secs(10), || async {
        (text_of(tablet, "#match-winner").await.as_deref() == Some(spanish.as_str())).then_some(())
    })
    .await;
    assert!(in_view(tablet, "#match-winner").await, "the match's winner is named in view");
    screenshot(tablet, "andes-record").await;
    click(tablet, "#lang-switch").await;
    let english = match_winner_text(&sheet, false);
    eventually("the match's winner in English", Duration::from_secs(10), || async {
        (text_of(tablet, "#match-winner").await.as_deref() == Some(english.as_str())).then_some(())
    })
    .await;
    assert_eq!(text_of(tablet, "#game-winner").await, Some(game_winner_text(&sheet, 2, false)));
    click(tablet, "#lang-switch").await;
    eventually("the page in Spanish again", Duration::from_secs(10), || async {
        (text_of(tablet, "#match-winner").await.as_deref() == Some(spanish.as_str())).then_some(())
    })
    .await;
}

/// A match with 2.5 s a side (the page still in Spanish): the mover's clock runs down on the
/// tablet, the flag is offered only once it shows zero, and recorded once a second tap
/// confirms it (the first records nothing).
async fn a_fallen_flag_is_offered_at_zero_and_recorded(tablet: &Client, hall: &Hall) {
    hall.create_match("blitz", 2_500).await;
    tablet.goto(&format!("{}/andes/blitz/record", hall.web)).await.unwrap();
    ready(tablet).await;
    click(tablet, "#start-game").await;
    assert_eq!(text_of(tablet, "#flag-fell").await, None, "the flag is offered while time is left");
    let shown =
        eventually("the flag to be offered", Duration::from_secs(15), || async { text_of(tablet, "#flag-fell").await })
            .await;
    assert_eq!(shown, "Cayó la bandera de Sol: registrarla");
    assert_eq!(text_of(tablet, "#clock-sol").await.as_deref(), Some("0:00"));
    // A move now is late: refused on the tablet with article 8.3.
    click(tablet, "#reserve-0").await;
    click(tablet, "#record-board button[data-square='d3']").await;
    let notice = text_of(tablet, "#notice").await.unwrap_or_default();
    assert_eq!(notice, "Artículo 8.3: a Sol se le acabó el tiempo: registre la caída de bandera");
    click(tablet, "#flag-fell").await;
    assert_eq!(
        text_of(tablet, "#confirm-end p").await.as_deref(),
        Some("¿Registrar que cayó la bandera de Sol? La partida termina y Sol la pierde.")
    );
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(hall.log_of("blitz").await.len(), 2, "one tap recorded the flag");
    click(tablet, "#confirm-end-yes").await;
    let log = log_of_holds(hall, "blitz", 3).await;
    assert_eq!(log.len(), 3, "{log:?}");
    assert_eq!(log[2]["type"], "flag_fell");
    assert_eq!(log[2]["side"], "sol");
    let ran = log[2]["at_ms"].as_u64().unwrap() - log[1]["at_ms"].as_u64().unwrap();
    assert!(ran >= 2_500, "the flag fell {ran} ms into a 2 500 ms clock");
}

/// While the tablet is cut off, another device records Luna's resignation: the move the tablet
/// kept meanwhile is decided again on the new state, refused with its article (1.7), kept on
/// the tablet, and handed to the jury in a `jury_called` naming it; nothing is lost or doubled.
async fn a_second_device_is_decided_again_and_refusals_go_to_the_jury(tablet: &Client, hall: &Hall) {
    hall.create_match("second", 720_000).await;
    tablet.goto(&format!("{}/andes/second/record", hall.web)).await.unwrap();
    ready(tablet).await;
    click(tablet, "#start-game").await;
    tap_moves(tablet, &[Move::parse("0d3").unwrap()]).await;
    let log = log_of_holds(hall, "second", 3).await;
    network(tablet, false).await;
    tap_moves(tablet, &[Move::parse("0a2").unwrap()]).await;
    let kept = js(tablet, "return andesApp.rows.map(r => r.event_id);").await;
    let resigned = AndesEvent::Resigned { side: Side::Luna, at_ms: log[2]["at_ms"].as_u64().unwrap() + 1 };
    let mut request =
        tonic::Request::new(crate::support::append("andes/second", &[Event::Andes(resigned)], "other-device-", None));
    request.metadata_mut().insert("authorization", format!("Bearer {TABLE_TOKEN}").parse().unwrap());
    hall.daemon.connect().await.append(request).await.unwrap();
    network(tablet, true).await;
    eventually("the kept move to be refused", Duration::from_secs(20), || async {
        let now = sync(tablet).await;
        (now.1 == 0 && now.2 == 1).then_some(())
    })
    .await;
    let reason = text_of(tablet, "#refused-list li .reason").await.unwrap_or_default();
    assert!(reason.starts_with("Artículo 1.7: la partida 1 ha terminado"), "{reason}");
    click(tablet, "#hand-to-jury").await;
    let log = log_of_holds(hall, "second", 5).await;
    assert_eq!(log.len(), 5, "{log:?}");
    assert_eq!(log[3]["type"], "resigned");
    assert_eq!(log[4]["type"], "jury_called");
    let id = kept[0].as_str().unwrap();
    assert!(log[4]["reason"].as_str().unwrap().contains(id), "{} does not name {id}", log[4]);
    eventually("nothing refused left on the tablet", Duration::from_secs(10), || async {
        (sync(tablet).await == ("recorded".to_owned(), 0, 0)).then_some(())
    })
    .await;
}
