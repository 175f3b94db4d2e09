//! Standings: each tie-breaker of each ruleset made to decide, the values shown, and the
//! final's winner rules. Scenarios are built from a template game (see `tourney`), so each
//! test changes only what its tie-breaker reads.

use crate::tourney::{final_role, GameSpec, Tourney};
use ledger::{Nation, Outcome, Role, Ruleset};
use replay::sheet::NoStcc;
use replay::standings::{Decider, FinalDecider, NotScorable, TieBreaker, Unavailable};
use replay::{Rational, Standings};

fn order(standings: &Standings) -> Vec<&str> {
    standings.rows.iter().map(|r| r.player.as_str()).collect()
}

fn row<'a>(standings: &'a Standings, player: &str) -> &'a replay::standings::StandingRow {
    standings.rows.iter().find(|r| r.player == player).expect("player has a row")
}

fn decided(index: usize, tie_breaker: TieBreaker) -> Option<Decider> {
    Some(Decider::TieBreaker { index, tie_breaker })
}

fn value(standings: &Standings, player: &str, tie_breaker: TieBreaker) -> Option<Rational> {
    row(standings, player)
        .tie_breakers
        .iter()
        .find(|tb| tb.tie_breaker == tie_breaker)
        .expect("tie-breaker listed")
        .value
}

/// Four CAFE players; p3 and p4 get more through France in their Pompadour games (r4, r1),
/// which no tie-breaker of p1 and p2 reads. p1 and p2 end level on 29.2.
fn cafe_four(ruleset: Ruleset) -> Tourney {
    let mut t = Tourney::new(ruleset, 4);
    t.change("r4-t1", |g| g.held(Nation::France, 12));
    t.change("r1-t1", |g| g.held(Nation::France, 14));
    t
}

/// Four wm2015 players; p3 and p4 get more through longer Frederick games (r3, r4), which
/// changes no attacker's score. p1 and p2 end level on 29.5.
fn wm_four() -> Tourney {
    let mut t = Tourney::new(Ruleset::Wm2015, 4);
    t.change("r3-t1", |g| GameSpec { turns: 16, ..g });
    t.change("r4-t1", |g| GameSpec { turns: 17, ..g });
    t
}

#[test]
fn totals_are_the_sums_of_the_game_scores() {
    let s = cafe_four(Ruleset::Cafe2023).standings();
    assert_eq!(order(&s)[..2], ["p4", "p3"]);
    assert_eq!(row(&s, "p4").total, Rational::tenths(312));
    assert_eq!(row(&s, "p3").total, Rational::tenths(302));
    assert_eq!(row(&s, "p1").total, Rational::tenths(292));
    assert_eq!(row(&s, "p1").games_counted, 4);
    assert_eq!(row(&s, "p3").decided_by, Some(Decider::Total));
    assert_eq!(s.finalists, ["p4", "p3", "p1", "p2"]);
    assert!(s.pending_games.is_empty());
}

#[test]
fn cafe_1_second_best_scores_in_the_elisabeth_and_maria_theresa_games() {
    for ruleset in [Ruleset::Cafe2023, Ruleset::Cafe2019] {
        let mut t = cafe_four(ruleset);
        // p1 is Elisabeth in r4: Sweden 3 of 5 → 6.1 instead of 4.1, Russia still best.
        t.change("r4-t1", |g| g.held(Nation::Sweden, 3));
        let s = t.standings();
        assert_eq!(order(&s), ["p4", "p3", "p1", "p2"], "{ruleset}");
        assert_eq!(row(&s, "p2").decided_by, decided(1, TieBreaker::SecondBestSum));
        assert_eq!(value(&s, "p1", TieBreaker::SecondBestSum), Some(Rational::tenths(102)));
        assert_eq!(value(&s, "p2", TieBreaker::SecondBestSum), Some(Rational::tenths(82)));
        assert_eq!(row(&s, "p1").total, row(&s, "p2").total);
    }
}

#[test]
fn cafe2023_2_scaled_tcc_of_the_frederick_game() {
    let mut t = cafe_four(Ruleset::Cafe2023);
    // p2 is Frederick in r2: the same TCC 1/2, but N = 22 instead of 20.
    t.change("r2-t1", |g| GameSpec { fate_horizon: Some(22), ..g });
    let s = t.standings();
    assert_eq!(order(&s), ["p4", "p3", "p1", "p2"]);
    assert_eq!(row(&s, "p2").decided_by, decided(2, TieBreaker::ScaledTcc));
    assert_eq!(value(&s, "p1", TieBreaker::ScaledTcc), Some(Rational::new(2, 3)));
    assert_eq!(value(&s, "p2", TieBreaker::ScaledTcc), Some(Rational::new(11, 15)));
}

#[test]
fn cafe2023_2_unavailable_scaled_tcc_passes_to_the_next_tie_breaker() {
    let mut t = cafe_four(Ruleset::Cafe2023);
    t.change("r2-t1", |g| GameSpec { fate_horizon: None, ..g });
    let s = t.standings();
    assert_eq!(value(&s, "p2", TieBreaker::ScaledTcc), None);
    // Why, typed, and the text replay always printed for it.
    let stcc = row(&s, "p2").tie_breakers.iter().find(|tb| tb.tie_breaker == TieBreaker::ScaledTcc).unwrap();
    let why = stcc.unavailable.clone().expect("a reason");
    assert!(
        matches!(&why, Unavailable::GameNotScorable { game, why: NotScorable::Stcc(NoStcc::NoFateHorizon) } if game == "r2-t1"),
        "{why:?}"
    );
    assert_eq!(
        stcc.display,
        "unavailable: game r2-t1: no fate_horizon_recorded after a game that did not end in a prussian defensive victory"
    );
    assert_eq!(Unavailable::parse(&stcc.display), Some(why));
    // With four players the opponents are the same three: tie-breaker 3 is level, and no
    // lot was drawn: p1 and p2 share third place.
    assert_eq!(row(&s, "p2").decided_by, Some(Decider::Unresolved));
    assert_eq!((row(&s, "p1").rank, row(&s, "p2").rank), (3, 3));
    assert!(s.finalists_settled);

    t.lots.push(("qualifying", vec![2, 1]));
    let s = t.standings();
    assert_eq!(order(&s), ["p4", "p3", "p2", "p1"]);
    assert_eq!(row(&s, "p1").decided_by, decided(4, TieBreaker::Lot));
    assert_eq!(row(&s, "p1").rank, 4);
}

#[test]
fn cafe2019_2_tcc_of_the_frederick_game() {
    let mut t = cafe_four(Ruleset::Cafe2019);
    // A fate horizon means nothing in cafe2019; more Prussian cards in p2's Frederick game do.
    t.change("r2-t1", |mut g| {
        g.tc.insert(Nation::Prussia, 12);
        g.fate_horizon = None;
        g
    });
    let s = t.standings();
    assert_eq!(order(&s), ["p4", "p3", "p1", "p2"]);
    assert_eq!(row(&s, "p2").decided_by, decided(2, TieBreaker::Tcc));
    assert_eq!(value(&s, "p2", TieBreaker::Tcc), Some(Rational::new(17, 30)));
}

#[test]
fn cafe_3_opponents_quality_in_the_frederick_game() {
    for ruleset in [Ruleset::Cafe2023, Ruleset::Cafe2019] {
        // Eight players at two tables; everyone but p1 and p5 gets a different France bonus
        // in their Pompadour game: table 1 +1, +2, +3 objectives, table 2 +4, +5, +6.
        let mut t = Tourney::new(ruleset, 8);
        for (game, held) in [("r3-t1", 11), ("r4-t1", 12), ("r1-t1", 13), ("r3-t2", 14), ("r4-t2", 15), ("r1-t2", 16)] {
            t.change(game, |g| g.held(Nation::France, held));
        }
        let s = t.standings();
        let p1 = order(&s).iter().position(|p| *p == "p1").unwrap();
        assert_eq!(order(&s)[p1 - 1], "p5", "{ruleset}: {:?}", order(&s));
        assert_eq!(row(&s, "p1").decided_by, decided(3, TieBreaker::OpponentsQuality));
        assert_eq!(value(&s, "p1", TieBreaker::OpponentsQuality), Some(Rational::tenths(906)));
        assert_eq!(value(&s, "p5", TieBreaker::OpponentsQuality), Some(Rational::tenths(951)));
        assert_eq!(row(&s, "p1").total, row(&s, "p5").total);
    }
}

#[test]
fn cafe_4_the_recorded_lot() {
    for ruleset in [Ruleset::Cafe2023, Ruleset::Cafe2019] {
        let mut t = cafe_four(ruleset);
        let s = t.standings();
        assert_eq!(row(&s, "p2").decided_by, Some(Decider::Unresolved), "{ruleset}");
        t.lots.push(("final", vec![1, 2])); // a lot for the final does not count here
        t.lots.push(("qualifying", vec![4, 3, 2, 1]));
        let s = t.standings();
        assert_eq!(order(&s), ["p4", "p3", "p2", "p1"]);
        assert_eq!(row(&s, "p1").decided_by, decided(4, TieBreaker::Lot));
        assert_eq!(value(&s, "p2", TieBreaker::Lot), Some(Rational::int(3)));
    }
}

#[test]
fn wm2015_1_points_of_the_nations_not_used_for_the_ranking() {
    let mut t = wm_four();
    // p1 is Elisabeth in r4: Sweden 4 of 5 → 8, below Russia's 10.
    t.change("r4-t1", |g| g.held(Nation::Sweden, 4));
    let s = t.standings();
    assert_eq!(order(&s), ["p4", "p3", "p1", "p2"]);
    assert_eq!(row(&s, "p2").decided_by, decided(1, TieBreaker::NotUsedPoints));
    assert_eq!(value(&s, "p1", TieBreaker::NotUsedPoints), Some(Rational::int(12)));
    assert_eq!(value(&s, "p2", TieBreaker::NotUsedPoints), Some(Rational::int(8)));
}

#[test]
fn wm2015_2_spread_of_the_attackers_in_the_frederick_game() {
    let mut t = wm_four();
    // p1's Frederick game r1: France 14 of 20 → 7: scores (10, 5, 7) instead of (10, 5, 5).
    t.change("r1-t1", |g| g.held(Nation::France, 14));
    let s = t.standings();
    assert_eq!(order(&s)[2..], ["p1", "p2"]);
    assert_eq!(row(&s, "p2").decided_by, decided(2, TieBreaker::AttackerSpread));
    assert_eq!(value(&s, "p1", TieBreaker::AttackerSpread), Some(Rational::new(38, 9)));
    assert_eq!(value(&s, "p2", TieBreaker::AttackerSpread), Some(Rational::new(50, 9)));
    let shown = &row(&s, "p2").tie_breakers[1].display;
    assert!(shown.starts_with("σ 2.36 (variance 50/9"), "{shown}");
}

#[test]
fn wm2015_2_a_prussian_victory_has_no_spread() {
    let mut t = wm_four();
    t.change("r1-t1", |g| GameSpec { outcome: Outcome::PrussianDefensiveVictory, winners: vec![Nation::Prussia], ..g });
    let s = t.standings();
    assert_eq!(value(&s, "p1", TieBreaker::AttackerSpread), Some(Rational::ZERO));
}

#[test]
fn wm2015_3_tcc_of_the_frederick_game() {
    let mut t = wm_four();
    t.change("r2-t1", |mut g| {
        g.tc.insert(Nation::Prussia, 12);
        g
    });
    let s = t.standings();
    assert_eq!(order(&s)[2..], ["p1", "p2"]);
    assert_eq!(row(&s, "p2").decided_by, decided(3, TieBreaker::Tcc));
}

#[test]
fn wm2015_4_points_in_the_frederick_role() {
    let mut t = wm_four();
    // p1: one point more as Frederick (17 turns), one less as Elisabeth (Russia 9 of 10).
    t.change("r1-t1", |g| GameSpec { turns: 17, ..g });
    t.change("r4-t1", |g| g.held(Nation::Russia, 9));
    let s = t.standings();
    assert_eq!(row(&s, "p1").total, row(&s, "p2").total);
    assert_eq!(order(&s)[2..], ["p1", "p2"]);
    assert_eq!(row(&s, "p2").decided_by, decided(4, TieBreaker::FrederickPoints));
    assert_eq!(value(&s, "p1", TieBreaker::FrederickPoints), Some(Rational::new(17, 2)));
}

#[test]
fn wm2015_5_the_recorded_lot() {
    let mut t = wm_four();
    assert_eq!(row(&t.standings(), "p2").decided_by, Some(Decider::Unresolved));
    t.lots.push(("qualifying", vec![2, 1]));
    let s = t.standings();
    assert_eq!(order(&s)[2..], ["p2", "p1"]);
    assert_eq!(row(&s, "p1").decided_by, decided(5, TieBreaker::Lot));
}

fn final_won_by(ruleset: Ruleset, winners: &[Nation], lot: Option<Vec<usize>>) -> replay::standings::FinalResult {
    let mut t = Tourney::new(ruleset, 4);
    let mut spec = GameSpec::template();
    spec.winners = winners.to_vec();
    t.final_game = Some(spec);
    if let Some(order) = lot {
        t.lots.push(("final", order));
    }
    t.standings().final_result.expect("a final is scheduled")
}

#[test]
fn final_single_winner() {
    let result = final_won_by(Ruleset::Cafe2023, &[Nation::Russia], None);
    assert_eq!(result.winner, Some(final_role(Role::Elisabeth)));
    assert_eq!(result.decided_by, FinalDecider::OnlyWinner);
}

#[test]
fn final_1_most_winning_nations() {
    let result = final_won_by(Ruleset::Cafe2019, &[Nation::Russia, Nation::Sweden, Nation::France], None);
    assert_eq!(result.winner, Some(final_role(Role::Elisabeth)));
    assert_eq!(result.decided_by, FinalDecider::MostWinningNations);
    assert_eq!(result.contenders.len(), 2);
}

#[test]
fn final_2_the_role_with_fewest_qualifying_wins() {
    // Elisabeth won all four qualifying games (Russia), Pompadour none.
    let result = final_won_by(Ruleset::Wm2015, &[Nation::Russia, Nation::France], None);
    assert_eq!(result.winner, Some(final_role(Role::Pompadour)));
    assert_eq!(result.decided_by, FinalDecider::FewestQualifyingWins);
    let elisabeth = result.contenders.iter().find(|c| c.role == Role::Elisabeth).unwrap();
    assert_eq!(elisabeth.role_qualifying_wins, 4);
}

#[test]
fn final_3_cafe_pompadour_wins_and_maria_theresa_loses_every_tie() {
    for ruleset in [Ruleset::Cafe2023, Ruleset::Cafe2019] {
        let result = final_won_by(ruleset, &[Nation::Austria, Nation::France], None);
        assert_eq!(result.winner, Some(final_role(Role::Pompadour)));
        assert_eq!(result.decided_by, FinalDecider::CafeRoleOrder);
    }
}

#[test]
fn final_3_wm2015_a_lot() {
    let result = final_won_by(Ruleset::Wm2015, &[Nation::Austria, Nation::France], None);
    assert_eq!((result.winner, result.decided_by), (None, FinalDecider::Unresolved));
    let maria_theresa = final_role(Role::MariaTheresa);
    let mt_number: usize = maria_theresa[1..].parse().unwrap();
    let result = final_won_by(Ruleset::Wm2015, &[Nation::Austria, Nation::France], Some(vec![mt_number]));
    // A lot that does not name both tied players decides nothing.
    assert_eq!(result.decided_by, FinalDecider::Unresolved);
    let pompadour: usize = final_role(Role::Pompadour)[1..].parse().unwrap();
    let result = final_won_by(Ruleset::Wm2015, &[Nation::Austria, Nation::France], Some(vec![mt_number, pompadour]));
    assert_eq!(result.winner, Some(maria_theresa));
    assert_eq!(result.decided_by, FinalDecider::Lot);
}

#[test]
fn standings_render_as_json_and_text() {
    let mut t = cafe_four(Ruleset::Cafe2023);
    t.lots.push(("qualifying", vec![2, 1]));
    let s = t.standings();
    let json = s.to_json_string();
    assert_eq!(json, t.standings().to_json_string());
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["rows"][0]["total"], serde_json::json!(31.2));
    assert_eq!(value["rows"][3]["decided_by"]["tie_breaker"]["index"], serde_json::json!(4));
    let text = s.to_string();
    assert!(text.contains("by tie-breaker 4 (lot)"), "{text}");
}

/// Issue 24: eight seats, p7 and p8 stand-ins. Their games count for the real players at their
/// tables, they have no row (so they are never finalists), and a stand-in's own total enters the
/// opponents' quality of whoever met it as any opponent's would: p5's (Frederick in r1 against
/// p6, p7, p8) is the same as when p7 and p8 are registered players, and it is their totals.
#[test]
fn stand_ins_are_not_ranked_but_their_games_count_and_their_totals_enter_opponents_quality() {
    let build = |stand_ins: usize| {
        let mut t = Tourney::new(Ruleset::Cafe2023, 8);
        // p8 plays Maria Theresa in r2 at table 2: a total of its own.
        t.change("r2-t2", |g| g.held(Nation::Austria, 11));
        t.stand_ins = stand_ins;
        t
    };
    let with_stand_ins = build(2).standings();
    let all_players = build(0).standings();
    let ranked: Vec<&str> = with_stand_ins.rows.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(ranked.len(), 6, "{ranked:?}");
    assert!(!ranked.contains(&"p7") && !ranked.contains(&"p8"), "stand-ins are not ranked: {ranked:?}");
    assert!(with_stand_ins.finalists.iter().all(|f| f != "p7" && f != "p8"));
    for p in ["p5", "p6"] {
        assert_eq!(row(&with_stand_ins, p).games_counted, 4, "{p}'s games with stand-ins count");
        assert_eq!(row(&with_stand_ins, p).total, row(&all_players, p).total, "{p}");
    }
    let total = |p: &str| row(&all_players, p).total;
    assert_ne!(total("p8"), total("p6"), "the stand-in's total differs: the test can tell it apart");
    let quality = value(&with_stand_ins, "p5", TieBreaker::OpponentsQuality);
    assert_eq!(quality, value(&all_players, "p5", TieBreaker::OpponentsQuality));
    assert_eq!(quality, Some(total("p6") + total("p7") + total("p8")));

    // A stand-in chooses no final role and sits in no final.
    let stream = ledger::StreamId::tournament("t").unwrap();
    let mut state = ledger::StreamState::new(&stream, None);
    for (_, event) in build(2).tournament_events() {
        state.apply(&event).unwrap();
    }
    let choose = ledger::Event::FinalRoleChosen { player: "p8".into(), role: Role::Pompadour };
    assert_eq!(
        state.decide(&choose).unwrap_err().message,
        "p8 is a stand-in: stand-ins are not ranked and never reach the final"
    );
    let mut seats = crate::tourney::seats(0, 1);
    seats.pompadour = "p8".into();
    let final_game =
        ledger::Event::GameScheduled { game: "final".into(), stage: ledger::Stage::Final, round: 5, table: 1, seats };
    let refused = state.decide(&final_game).unwrap_err().message;
    assert!(refused.ends_with("p8 is a stand-in: stand-ins are not ranked and never reach the final"), "{refused}");
}

/// Issue 24: p1 withdraws after round 2 and spare stand-in p9 takes its two later games. p1's
/// two games played count (for p1 and for its opponents), its row says withdrawn, it is no
/// finalist; the stand-in's games count for the players at its tables, unchanged.
#[test]
fn a_withdrawn_player_keeps_the_games_played_and_is_never_a_finalist() {
    let build = |withdraw: bool| {
        let mut t = Tourney::new(Ruleset::Cafe2023, 8);
        t.change("r1-t1", |g| g.held(Nation::France, 14));
        t.change("r4-t2", |g| g.held(Nation::Austria, 11));
        if withdraw {
            t.withdrawals.push((1, 3, Some(9)));
        }
        t
    };
    let (before, after) = (build(false).standings(), build(true).standings());
    let p1 = row(&after, "p1");
    assert_eq!((p1.withdrawn, p1.games_counted), (Some(3), 2));
    assert!(order(&after).iter().all(|p| *p != "p9"), "the stand-in is not ranked");
    for p in ["p2", "p3", "p4", "p5", "p6", "p7", "p8"] {
        assert_eq!(row(&after, p).total, row(&before, p).total, "{p}: every game still counts for the others");
        assert_eq!(row(&after, p).games_counted, 4, "{p}");
    }
    let eligible: Vec<&str> = order(&after).into_iter().filter(|p| *p != "p1").take(4).collect();
    assert_eq!(after.finalists, eligible, "the next in rank takes the withdrawn player's place");
    assert!(after.to_json_string().contains("\"withdrawn\":3"), "{}", after.to_json_string());
    assert!(after.to_string().contains("withdrawn from round 3"), "{after}");
    assert!(!before.to_json_string().contains("withdrawn"), "nobody else's JSON changes");
}

/// Issue 24: a finalist who withdraws after the qualifying (from round 5) gives its place to
/// the next in rank, and a role it had chosen is free again for the finalists in rank order.
#[test]
fn a_finalist_who_withdraws_before_the_final_is_replaced_by_the_next_in_rank() {
    let mut t = Tourney::new(Ruleset::Cafe2023, 8);
    t.change("r1-t1", |g| g.held(Nation::France, 14));
    t.change("r4-t2", |g| g.held(Nation::Austria, 11));
    let before = t.standings();
    let first = before.finalists[0].clone();
    let leaver: usize = first[1..].parse().unwrap();
    t.withdrawals.push((leaver, 5, None));
    let after = t.standings();
    let next_in_rank: Vec<String> =
        before.rows.iter().map(|r| r.player.clone()).filter(|p| *p != first).take(4).collect();
    assert_eq!(after.finalists, next_in_rank);
    assert_eq!(row(&after, &first).withdrawn, Some(5));
    assert_eq!(row(&after, &first).total, row(&before, &first).total, "its games all count");

    // In the tournament stream: its chosen role is freed, and it may not choose again.
    let stream = ledger::StreamId::tournament("t").unwrap();
    let mut state = ledger::StreamState::new(&stream, None);
    let events = t.tournament_events();
    let (withdrawal, rest) = events.split_last().unwrap();
    for (_, event) in rest {
        state.apply(event).unwrap();
    }
    state.apply(&ledger::Event::FinalRoleChosen { player: first.clone(), role: Role::Frederick }).unwrap();
    state.apply(&withdrawal.1).unwrap();
    let refused = state.decide(&ledger::Event::FinalRoleChosen { player: first.clone(), role: Role::Elisabeth });
    assert_eq!(
        refused.unwrap_err().message,
        format!("{first} withdrew (from round 5): the next in rank takes the place in the final")
    );
    let next = after.finalists[3].clone();
    state
        .apply(&ledger::Event::FinalRoleChosen { player: next, role: Role::Frederick })
        .expect("frederick is free again");
}
