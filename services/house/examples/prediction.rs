//! How often each ratings model picks the winner before the game (issue 44, item 4;
//! docs/BENCHMARKS.md, "Prediction accuracy"): a generated season of `PREDICTION_GAMES` games
//! (default 2,000) among 16 players with hidden strengths, each seat's score their strength, the
//! role's bias (Frederick strongest, Pompadour weakest) and noise, in tenths; the four seats drawn
//! at random. `cargo run -p ledger-house --example prediction`. Prints, per model, the share of
//! games whose predicted winner (highest expected score before the game) scored most, overall
//! and over the second half (once the ratings have settled).

use ledger::Role;
use ledger_house::ratings::{Model, RatedGame, Ratings, Seat};
use replay::exact::Rational;

fn main() {
    let games: u64 = std::env::var("PREDICTION_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000);
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // Strengths in tenths: player p is (p - 7.5) × 4 tenths; the roles' biases.
    let strength = |p: u64| i64::try_from(p * 4).unwrap() - 30;
    let bias = |role: Role| match role {
        Role::Frederick => 15,
        Role::Elisabeth => 0,
        Role::MariaTheresa => -5,
        Role::Pompadour => -10,
    };
    let mut season = Vec::new();
    for g in 1..=games {
        let mut players: Vec<u64> = Vec::new();
        while players.len() < 4 {
            let p = next() % 16;
            if !players.contains(&p) {
                players.push(p);
            }
        }
        let seats = players
            .iter()
            .zip(Role::ALL.iter().copied())
            .map(|(&p, role)| {
                // Noise: the sum of four uniform draws in [-20, 20] tenths (about normal, sd ~23).
                let noise: i64 = (0..4).map(|_| i64::try_from(next() % 41).unwrap() - 20).sum();
                let tenths = (100 + strength(p) + bias(role) + noise).max(0);
                Seat { player: format!("p{p}"), role, score: Rational::tenths(tenths), won: false }
            })
            .collect();
        season.push(RatedGame { game: format!("g{g}"), end_position: g, year: None, seats });
    }
    let half = usize::try_from(games / 2).unwrap();
    println!("{games} generated games, 16 players; share of games whose predicted winner scored most");
    println!("{:<12} {:>10} {:>16}", "model", "all games", "second half");
    for model in Model::ALL {
        let all = Ratings::of(model, &season);
        let first = Ratings::of(model, &season[..half]);
        let second =
            (all.prediction.right - first.prediction.right) / (all.prediction.games - first.prediction.games) as f64;
        println!(
            "{:<12} {:>9.1}% {:>15.1}%",
            model.as_str(),
            100.0 * all.prediction.share().unwrap_or(0.0),
            100.0 * second
        );
    }
    println!("(chance: 25%)");
}
