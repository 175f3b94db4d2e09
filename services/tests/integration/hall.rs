//! A day in a Spanish hall on one real ledgerd with an auth file, for the tests that look at
//! what the people there see (the Spanish crawl, the board on a projector and a phone, the
//! printed standings): three Friedrich tournaments in different states and an Andes match,
//! the players registered under Spanish names and pseudonyms (so that any English on a page is
//! the page's own).

use crate::season::{drawn_games, game_lines, run_andes, Ledger};

/// The tournament played to its end: 18 players, three stand-ins (two seated by the draw, one
/// free to take the seats of a withdrawal), a withdrawal, the final.
pub(crate) const ENDED: &str = "gran";
/// The tournament in its second round: round 1 played, one game of round 2 running.
pub(crate) const MID_ROUND: &str = "liga";
/// The tournament drawn, nothing played yet.
pub(crate) const DRAWN: &str = "nueva";
/// A tournament of 24 players, its qualifying rounds played (the printed standings' size).
pub(crate) const LARGE: &str = "grande";
/// The Andes match, played to its end.
pub(crate) const ANDES: &str = "copa";
/// The player of [`ENDED`] who withdraws, and from which round.
pub(crate) const WITHDRAWN: (&str, u32) = ("p3", 3);

/// Creates a tournament of `players` (and `stand_ins`) and draws it.
fn register_and_draw(ledger: &Ledger, t: &str, ruleset: &str, players: usize, stand_ins: usize) {
    ledger.ok(&["tournament", "create", "--id", t, "--name", &format!("Torneo {t}"), "--ruleset", ruleset]);
    for n in 1..=players {
        let (player, name, pseudonym) = (format!("p{n}"), format!("Jugadora {n} Pérez"), format!("Zorro {n}"));
        let args = ["tournament", "register", "--tournament", t, "--player", &player, "--name", &name];
        ledger.ok(&[&args[..], &["--pseudonym", &pseudonym]].concat());
    }
    for n in 1..=stand_ins {
        let (player, name) = (format!("s{n}"), format!("Suplente {n} Gómez"));
        ledger.ok(&["tournament", "register", "--tournament", t, "--stand-in", "--player", &player, "--name", &name]);
    }
    ledger.ok(&["tournament", "draw", "--tournament", t, "--seed", "26"]);
}

/// Builds the hall's season on `ledger` (blocking: run it off the async workers).
pub(crate) fn build(ledger: &Ledger) {
    let mut played = 0;
    register_and_draw(ledger, ENDED, "cafe2023", 18, 3);
    for (round, games) in drawn_games(ledger, ENDED) {
        if round == WITHDRAWN.1 {
            let from = round.to_string();
            let args =
                ["tournament", "withdraw", "--tournament", ENDED, "--player", WITHDRAWN.0, "--from-round", &from];
            ledger.ok(&args);
        }
        for game in games {
            played += 1;
            ledger.append(&format!("game/{game}"), &game_lines(played));
        }
    }
    let standings = ledger.json(&["standings", "--tournament", ENDED]);
    assert_eq!(standings["finalists_settled"], true, "{}", standings["pending_games"]);
    let finalists = standings["finalists"].as_array().unwrap().clone();
    for (player, role) in finalists.iter().zip(["frederick", "elisabeth", "maria_theresa", "pompadour"]) {
        let player = player.as_str().unwrap();
        ledger.ok(&["tournament", "final", "choose", "--tournament", ENDED, "--player", player, "--role", role]);
    }
    ledger.ok(&["tournament", "final", "schedule", "--tournament", ENDED]);
    // The final, played to its end: it has a champion.
    played += 1;
    ledger.append(&format!("game/{ENDED}-final"), &game_lines(played));

    register_and_draw(ledger, MID_ROUND, "cafe2019", 8, 0);
    let rounds = drawn_games(ledger, MID_ROUND);
    for game in &rounds[&1] {
        played += 1;
        ledger.append(&format!("game/{game}"), &game_lines(played));
    }
    ledger.append(&format!("game/{}", running_game(ledger)), &game_lines(played + 1)[..3]);

    register_and_draw(ledger, DRAWN, "cafe2023", 8, 0);
    run_andes(ledger, ANDES, 0);
}

/// [`build`], and [`LARGE`]: 24 players, every qualifying game played.
pub(crate) fn build_with_large(ledger: &Ledger) {
    build(ledger);
    register_and_draw(ledger, LARGE, "cafe2023", 24, 0);
    for (n, game) in drawn_games(ledger, LARGE).into_values().flatten().enumerate() {
        ledger.append(&format!("game/{game}"), &game_lines(100 + n));
    }
}

/// The game of [`MID_ROUND`] that runs (the first of its second round).
pub(crate) fn running_game(ledger: &Ledger) -> String {
    drawn_games(ledger, MID_ROUND)[&2][0].clone()
}
