//! Statistics over a tournament's games: counts, win rates with their Wilson interval,
//! averages, and the filters.

use crate::support::{examples_dir, load_game};
use crate::tourney::{GameSpec, Tourney};
use ledger::{Nation, Role, Ruleset, Stage};
use replay::sheet::score_game;
use replay::stats::{stats, tournament_records, Covered, Filter, GameRecord};
use replay::Rational;
use std::collections::BTreeMap;

fn records() -> Vec<GameRecord> {
    let mut t = Tourney::new(Ruleset::Cafe2023, 4);
    let mut final_game = GameSpec::template();
    final_game.winners = vec![Nation::France];
    t.final_game = Some(final_game);
    let streams: BTreeMap<_, _> = t
        .games
        .iter()
        .map(|(id, spec)| (id.clone(), spec.events(t.ruleset)))
        .chain(std::iter::once(("final".to_owned(), t.final_game.as_ref().unwrap().events(t.ruleset))))
        .collect();
    let mut records = tournament_records(&t.tournament_events(), &streams, Some(2023)).unwrap();
    let worked = load_game(&examples_dir().join("scores/cafe2019-worked-example.jsonl"));
    records.push(GameRecord {
        game: "worked".into(),
        tournament: None,
        tournament_name: None,
        stage: None,
        year: Some(2019),
        sheet: score_game(None, &worked).unwrap(),
    });
    records
}

#[test]
fn counts_wins_and_averages_per_role_and_nation() {
    let all = stats(&records(), &Filter::default());
    assert_eq!(all.games, 6);
    let elisabeth = &all.roles[&Role::Elisabeth];
    assert_eq!((elisabeth.games, elisabeth.wins), (6, 4));
    assert_eq!(elisabeth.win_rate(), Some(Rational::new(2, 3)));
    let frederick = &all.roles[&Role::Frederick];
    assert_eq!((frederick.games, frederick.wins), (6, 1));
    let prussia = &all.nations[&Nation::Prussia];
    // 4 qualifying games and the final at 7.5, the worked example at 12.1.
    assert_eq!(prussia.average_score(), Some(Rational::new(5 * 75 + 121, 60)));
    assert!(!all.nations.contains_key(&Nation::Hanover));
    // The tournament its counted games came from, once; the game of no tournament adds none.
    let covered = [Covered { id: "Test Open".into(), name: "Test Open".into() }];
    assert_eq!(*all.tournaments, covered);
    assert!(stats(&records(), &Filter { year: Some(2019), ..Filter::default() }).tournaments.is_empty());
}

#[test]
fn filters_by_tournament_ruleset_stage_and_year() {
    let records = records();
    let qualifying = stats(&records, &Filter { stage: Some(Stage::Qualifying), ..Filter::default() });
    assert_eq!(qualifying.games, 4);
    assert_eq!(qualifying.roles[&Role::Pompadour].wins, 0);
    let final_only = stats(
        &records,
        &Filter { tournament: Some("Test Open".into()), stage: Some(Stage::Final), ..Filter::default() },
    );
    assert_eq!(final_only.roles[&Role::Pompadour].wins, 1);
    let year_2019 = stats(&records, &Filter { year: Some(2019), ..Filter::default() });
    assert_eq!(year_2019.games, 1);
    let cafe2019 = stats(&records, &Filter { ruleset: Some(Ruleset::Cafe2019), ..Filter::default() });
    assert_eq!(cafe2019, year_2019);
}

#[test]
fn renders_rates_and_intervals_as_exact_decimals() {
    let all = stats(&records(), &Filter::default());
    let json = serde_json::to_value(all.to_json()).unwrap();
    let elisabeth = &json["roles"]["elisabeth"];
    assert_eq!(elisabeth["win_rate"], serde_json::json!(0.6667));
    assert_eq!(elisabeth["wilson_low"], serde_json::json!(0.3));
    assert_eq!(elisabeth["wilson_high"], serde_json::json!(0.9032));
}
