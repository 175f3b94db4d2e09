//! The players' ratings (`ledger_house::ratings`, the `skillratings` crate's Weng-Lin) against an
//! independent implementation: openskill (PyPI), `BradleyTerryFull` with τ = 0, run by
//! `tests/openskill_reference.py` on the same generated season (600 games, 16 players, ties included), in
//! both models. Every μ and σ agrees to 1e-9.
//!
//! Python with openskill comes from the CI's venv (`.ci/run` installs it) or `LEDGER_PYTHON`;
//! without it the test says it was skipped, and under `CI=true` it fails.

use ledger::Role;
use ledger_house::ratings::{Model, RatedGame, Ratings, Seat};
use replay::exact::Rational;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A season of `n` games among 16 players, scores in tenths from a small range (so ties
/// happen), from a fixed seed (xorshift64).
fn season(n: u64) -> Vec<RatedGame> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let roles = [Role::Frederick, Role::Elisabeth, Role::MariaTheresa, Role::Pompadour];
    (1..=n)
        .map(|g| {
            let mut players: Vec<u64> = Vec::new();
            while players.len() < 4 {
                let p = next() % 16;
                if !players.contains(&p) {
                    players.push(p);
                }
            }
            // Frederick is stronger: his scores run higher.
            let seats = players
                .iter()
                .zip(roles)
                .map(|(p, role)| {
                    let bonus = if role == Role::Frederick { 3 } else { 0 };
                    let tenths = i64::try_from(next() % 8 + bonus + p % 3).unwrap() * 5;
                    Seat { player: format!("p{p}"), role, score: Rational::tenths(tenths), won: tenths > 30 }
                })
                .collect();
            RatedGame { game: format!("g{g}"), end_position: g * 10, year: Some(2026), seats }
        })
        .collect()
}

fn python() -> Option<PathBuf> {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.ci/venv/bin/python3");
    let candidates = std::env::var_os("LEDGER_PYTHON").map(PathBuf::from).into_iter().chain([venv]);
    for python in candidates {
        let found = Command::new(&python).args(["-c", "import openskill"]).stderr(Stdio::null()).status();
        if found.is_ok_and(|s| s.success()) {
            return Some(python);
        }
    }
    let message =
        "\n\n*** openskill comparison SKIPPED: no Python with openskill (run .ci/run, or set LEDGER_PYTHON) ***\n";
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}under CI=true it is required");
    eprintln!("{message}");
    None
}

fn openskill(python: &PathBuf, model: Model, games: &[RatedGame]) -> serde_json::Value {
    let games: Vec<serde_json::Value> = games
        .iter()
        .map(|g| {
            let ranks: Vec<usize> =
                g.seats.iter().map(|s| 1 + g.seats.iter().filter(|o| o.score > s.score).count()).collect();
            serde_json::json!({
                "players": g.seats.iter().map(|s| s.player.clone()).collect::<Vec<_>>(),
                "roles": g.seats.iter().map(|s| s.role.to_string()).collect::<Vec<_>>(),
                "ranks": ranks,
            })
        })
        .collect();
    let input = serde_json::json!({"model": model.as_str(), "games": games}).to_string();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/openskill_reference.py");
    let mut child =
        Command::new(python).arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("python runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "openskill.py failed");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn ratings_agree_with_openskill_bradley_terry_full_to_1e_9() {
    let Some(python) = python() else { return };
    let games = season(600);
    let ties =
        games.iter().filter(|g| (1..4).any(|i| g.seats[..i].iter().any(|s| s.score == g.seats[i].score))).count();
    assert!(ties > 100, "the season holds ties ({ties})");
    for model in [Model::Plain, Model::RoleAware] {
        let ours = Ratings::of(model, &games);
        let theirs = openskill(&python, model, &games);
        let players = theirs["players"].as_object().unwrap();
        assert_eq!(players.len(), ours.players.len());
        let mut worst = 0f64;
        for (id, rating) in &ours.players {
            let pair = &players[id.as_str()];
            let (mu, sigma) = (pair[0].as_f64().unwrap(), pair[1].as_f64().unwrap());
            worst = worst.max((mu - rating.rating.mu).abs()).max((sigma - rating.rating.sigma).abs());
        }
        for (role, rating) in &ours.roles {
            let pair = &theirs["roles"][role.to_string()];
            let (mu, sigma) = (pair[0].as_f64().unwrap(), pair[1].as_f64().unwrap());
            worst = worst.max((mu - rating.mu).abs()).max((sigma - rating.sigma).abs());
        }
        assert!(worst < 1e-9, "{model:?}: the largest difference from openskill is {worst:e}");
        eprintln!("{model:?}: largest difference from openskill {worst:e}");
    }
}
