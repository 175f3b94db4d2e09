//! The parts of the board that depend on where the day stands ([`board`](crate::public::board) puts
//! them together): the champion, announced above everything once the final has ended; before
//! any game has ended, the line-up (every registered player by pseudonym, with the table the
//! draw gave them) instead of a table of players all tied at nothing; the next round's tables,
//! the games nobody has started yet; the final's seats. All of them from the public standings
//! and the tournament under pseudonyms: no real name reaches the board.

use crate::i18n::Lang;
use crate::layout::esc;
use crate::standings::{final_decider_name, shown_player, withdrawn_note};
use ledger::{Role, Stage};
use replay::standings::{FinalResult, ScheduledGame, StandingRow, TournamentFacts};
use replay::Standings;
use std::collections::BTreeSet;

/// Whether any game of the tournament has ended and counted: until one has, every player is
/// tied at nothing, and the board shows the line-up instead of the standings.
pub(super) fn any_game_counted(standings: &Standings) -> bool {
    standings.rows.iter().any(|row| row.games_counted > 0)
}

/// The champion, once the final has ended with a winner: the first thing on the board.
pub(super) fn champion(lang: Lang, facts: &TournamentFacts, final_game: &FinalResult) -> Option<String> {
    let winner = final_game.winner.as_ref()?;
    let how = lang.t(&format!("final-decided-{}", final_decider_name(final_game.decided_by)));
    Some(format!(
        "<section class=\"champion\" id=\"champion\"><p class=\"champion-line\">{label} \
         <strong class=\"champion-name\" id=\"champion-name\">{player}</strong></p>\
         <p class=\"champion-how muted\">{how}</p></section>",
        label = esc(&lang.t("board-champion")),
        player = shown_player(lang, facts, winner),
        how = esc(&lang.t_args("board-champion-how", &[("how", how.into())])),
    ))
}

/// The final: who plays which role, and how it was decided (its champion is announced above
/// the standings, [`champion`]).
pub(super) fn final_html(lang: Lang, facts: &TournamentFacts, final_game: &FinalResult) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let seats: String = Role::ALL
        .iter()
        .map(|role| {
            format!(
                "<li>{}: {}</li>",
                t(&format!("role-{role}")),
                shown_player(lang, facts, final_game.seats.player(*role))
            )
        })
        .collect();
    let how = t(&format!("final-decided-{}", final_decider_name(final_game.decided_by)));
    let winner = match &final_game.winner {
        Some(winner) => format!(
            "<p class=\"winner\" id=\"winner\">{}: <strong>{}</strong> ({how})</p>",
            t("board-winner"),
            shown_player(lang, facts, winner),
        ),
        None => format!("<p class=\"muted\" id=\"winner\">{how}</p>"),
    };
    format!(
        "<section class=\"final\" data-game=\"{game}\"><h2>{}</h2><ul class=\"seats\" id=\"final-seats\">{seats}</ul>{winner}</section>",
        t("board-final"),
        game = esc(&final_game.game),
    )
}

/// The games of the first round (the final last) that has a game nobody has started:
/// `unstarted` holds the scheduled games whose streams are still empty.
fn next_round<'a>(facts: &'a TournamentFacts, unstarted: &BTreeSet<String>) -> Vec<&'a ScheduledGame> {
    let waiting = |g: &&ScheduledGame| unstarted.contains(&g.game);
    let Some(first) = facts.games.iter().filter(waiting).min_by_key(|g| (g.slot.stage == Stage::Final, g.slot.round))
    else {
        return Vec::new();
    };
    let (stage, round) = (first.slot.stage, first.slot.round);
    let mut games: Vec<&ScheduledGame> =
        facts.games.iter().filter(|g| g.slot.stage == stage && g.slot.round == round).collect();
    games.sort_by_key(|g| g.slot.table);
    games
}

/// The next round's tables, each with its players by role; nothing when every scheduled game
/// has started.
pub(super) fn next_round_html(lang: Lang, facts: &TournamentFacts, unstarted: &BTreeSet<String>) -> String {
    let games = next_round(facts, unstarted);
    let Some(first) = games.first() else { return String::new() };
    let heading = match first.slot.stage {
        Stage::Final => lang.t("board-next-final"),
        Stage::Qualifying => lang.t_args("board-next-round", &[("round", first.slot.round.into())]),
    };
    let tables: String = games
        .iter()
        .map(|game| {
            let seats: Vec<String> = Role::ALL
                .iter()
                .map(|role| {
                    format!(
                        "<span class=\"seat\">{}: {}</span>",
                        esc(&lang.t(&format!("role-{role}"))),
                        shown_player(lang, facts, game.slot.seats.player(*role))
                    )
                })
                .collect();
            format!(
                "<li data-game=\"{g}\"><span class=\"table-no\">{table}</span> {seats}</li>",
                g = esc(&game.game),
                table = esc(&lang.t_args("board-table", &[("table", game.slot.table.into())])),
                seats = seats.concat(),
            )
        })
        .collect();
    format!(
        "<section class=\"next-round\" id=\"next-round\"><h2>{}</h2><ol class=\"tables\">{tables}</ol></section>",
        esc(&heading)
    )
}

/// Before any game has ended: every registered player by pseudonym, alphabetically, with the
/// table the draw gave them in its first round (blank before the draw).
pub(super) fn lineup_html(lang: Lang, standings: &Standings, facts: &TournamentFacts) -> String {
    let first_round = facts.games.iter().filter(|g| g.slot.stage == Stage::Qualifying).map(|g| g.slot.round).min();
    let table_of = |player: &str| {
        facts
            .games
            .iter()
            .filter(|g| Some(g.slot.round) == first_round && g.slot.stage == Stage::Qualifying)
            .find(|g| Role::ALL.iter().any(|role| g.slot.seats.player(*role) == player))
            .map(|g| g.slot.table)
    };
    let mut players: Vec<&StandingRow> = standings.rows.iter().collect();
    players.sort_by_key(|row| row.player.to_lowercase());
    let rows: String = players
        .iter()
        .map(|row| {
            let table = table_of(&row.player).map(|t| t.to_string()).unwrap_or_default();
            // A withdrawn player keeps its row, marked.
            let (class, left) = match row.withdrawn {
                Some(from_round) => (" class=\"withdrawn\"", withdrawn_note(lang, from_round)),
                None => ("", String::new()),
            };
            format!(
                "<tr{class} data-player=\"{p}\"><td class=\"player\"><span class=\"name\">{p}</span>{left}</td>\
                 <td class=\"num\">{table}</td></tr>",
                p = esc(&row.player)
            )
        })
        .collect();
    let table_head = match first_round {
        Some(round) => lang.t_args("board-lineup-table", &[("round", round.into())]),
        None => lang.t("board-lineup-not-drawn"),
    };
    format!(
        "<section class=\"lineup\"><h2>{title}</h2><p class=\"muted\">{count}</p>\
         <table class=\"lineup\" id=\"lineup\"><thead><tr><th>{player}</th><th class=\"num\">{table_head}</th></tr></thead>\
         <tbody>{rows}</tbody></table></section>",
        title = esc(&lang.t("board-lineup")),
        count = esc(&lang.t_args("board-lineup-count", &[("count", players.len().into())])),
        player = esc(&lang.t("board-player")),
        table_head = esc(&table_head),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger::event::Seats;
    use ledger::rules::ScheduledGame as Slot;
    use replay::standings::{FinalDecider, StandingRow};
    use replay::Rational;
    use std::collections::BTreeMap;

    fn seats(players: [&str; 4]) -> Seats {
        let [frederick, elisabeth, maria_theresa, pompadour] = players.map(str::to_owned);
        Seats { frederick, elisabeth, maria_theresa, pompadour }
    }

    fn game(game: &str, stage: Stage, round: u32, table: u32, players: [&str; 4]) -> ScheduledGame {
        ScheduledGame { game: game.into(), slot: Slot { stage, round, table, seats: seats(players) } }
    }

    fn row(player: &str, withdrawn: Option<u32>) -> StandingRow {
        StandingRow {
            rank: 1,
            player: player.into(),
            name: player.into(),
            total: Rational::ZERO,
            games_counted: 0,
            scores: BTreeMap::new(),
            tie_breakers: Vec::new(),
            decided_by: None,
            withdrawn,
        }
    }

    fn facts() -> TournamentFacts {
        let q = Stage::Qualifying;
        TournamentFacts {
            games: vec![
                game("c-q1-t1", q, 1, 1, ["Wren", "Otter", "Lynx", "Heron"]),
                game("c-q2-t2", q, 2, 2, ["Otter", "Wren", "Heron", "Lynx"]),
                game("c-q2-t1", q, 2, 1, ["Heron", "Lynx", "Wren", "Otter"]),
                game("c-final", Stage::Final, 5, 1, ["Heron", "Lynx", "Wren", "Otter"]),
            ],
            ..TournamentFacts::default()
        }
    }

    #[test]
    fn the_next_round_is_the_first_with_a_game_nobody_started_by_table() {
        let facts = facts();
        let unstarted: BTreeSet<String> = ["c-q2-t2", "c-final"].map(String::from).into();
        let html = next_round_html(Lang::Es, &facts, &unstarted);
        assert!(
            html.starts_with("<section class=\"next-round\" id=\"next-round\"><h2>Próxima: ronda 2</h2>"),
            "{html}"
        );
        let first = html.find("data-game=\"c-q2-t1\"").unwrap();
        assert!(first < html.find("data-game=\"c-q2-t2\"").unwrap(), "by table: {html}");
        assert!(html.contains("<span class=\"seat\">Federico: Heron</span>"), "{html}");
        let only_final: BTreeSet<String> = ["c-final".to_owned()].into();
        assert!(next_round_html(Lang::En, &facts, &only_final).contains("<h2>Next: the final</h2>"));
        assert_eq!(next_round_html(Lang::En, &facts, &BTreeSet::new()), "");
    }

    #[test]
    fn the_line_up_lists_everyone_alphabetically_with_the_first_round_s_table() {
        let standings = Standings {
            tournament: "c".into(),
            ruleset: ledger::Ruleset::Cafe2023,
            rows: vec![row("wren", None), row("Otter", Some(2)), row("Lynx", None), row("Heron", None)],
            finalists: Vec::new(),
            finalists_settled: false,
            pending_games: Vec::new(),
            final_result: None,
        };
        assert!(!any_game_counted(&standings));
        let html = lineup_html(Lang::En, &standings, &facts());
        let order: Vec<usize> = ["Heron", "Lynx", "Otter", "wren"]
            .iter()
            .map(|p| html.find(&format!("data-player=\"{p}\"")).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{html}");
        assert!(html.contains("<tr class=\"withdrawn\" data-player=\"Otter\">"), "{html}");
        assert!(html.contains("withdrew after round 1"), "{html}");
        assert!(html.contains("<th class=\"num\">Table in round 1</th>") && html.contains("<td class=\"num\">1</td>"));
    }

    #[test]
    fn a_champion_is_announced_only_once_the_final_has_a_winner() {
        let mut result = FinalResult {
            game: "c-final".into(),
            seats: seats(["Heron", "Lynx", "Wren", "Otter"]),
            contenders: Vec::new(),
            winner: None,
            decided_by: FinalDecider::NotEnded,
        };
        assert_eq!(champion(Lang::Es, &facts(), &result), None);
        result.winner = Some("Wren".into());
        result.decided_by = FinalDecider::FewestQualifyingWins;
        let html = champion(Lang::Es, &facts(), &result).unwrap();
        assert!(html.contains("Gana el torneo: <strong class=\"champion-name\" id=\"champion-name\">Wren</strong>"));
        assert!(html.contains("menos victorias clasificatorias con el papel") && !html.contains("Fewest"), "{html}");
    }
}
