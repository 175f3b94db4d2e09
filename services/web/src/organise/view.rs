//! The console as the organiser sees it: the tournament where it stands, and the forms of what
//! can be done next — players, the draw, withdrawals, lots, the final — each section shown
//! when it applies. Names are real names (the organiser's page); numbers come from the
//! projections facade, as on every page.

use super::fields::Fields;
use super::forms;
use crate::auth::Viewer;
use crate::i18n::Lang;
use crate::layout::{esc, shell};
use crate::{blocking, wall_ms, PageError, WebState};
use ledger::rules::TournamentState;
use ledger::{Role, Stage};
use ledger_house::commands::Tournament;
use ledger_house::facade::season::Season;
use replay::standings::Decider;
use replay::Standings;

/// Where on the console an action's section is (the page returns there after recording).
pub(super) fn section_of(action: &str) -> &'static str {
    match action {
        "register" | "list" | "unregister" | "fix" | "create" => "players",
        "draw" => "draw",
        "withdraw" => "withdraw",
        "lot" => "lots",
        _ => "final",
    }
}

/// What the console shows of a tournament.
pub(super) struct Console {
    tournament: Tournament,
    /// The standings with names, once there are games (`None` before the draw, or when they
    /// cannot be computed yet).
    standings: Option<Standings>,
}

impl Console {
    pub(super) async fn load(state: &WebState, tournament: &Tournament) -> Result<Console, PageError> {
        tournament.state()?;
        let drawn = tournament.state().is_ok_and(|s| !s.games.is_empty());
        let standings = if drawn {
            let (facade, id) = (state.facade.clone(), tournament.id.clone());
            blocking(move || Ok(facade.standings(&id, None, false).ok().map(|at| at.value))).await?
        } else {
            None
        };
        Ok(Console { tournament: tournament.clone(), standings })
    }

    pub(super) fn render(&self, lang: Lang, viewer: &Viewer, done: Option<&str>) -> String {
        let Ok(state) = self.tournament.state() else { return String::new() };
        let t = self.tournament.id.id();
        let done = done
            .filter(|d| d.chars().all(|c| c.is_ascii_lowercase()) && d.len() < 20)
            .map(|d| {
                format!(
                    "<p class=\"notice\" id=\"done\" role=\"status\">{}</p>",
                    esc(&lang.t(&format!("organise-done-{d}")))
                )
            })
            .unwrap_or_default();
        let body = format!(
            "{head}{done}{players}{draw}{withdraw}{lots}{final_}",
            head = head(lang, t, &self.tournament.name(), state),
            players = players(lang, t, state),
            draw = draw(lang, t, state),
            withdraw = if state.drawn {
                section(lang, "withdraw", &forms::withdraw(lang, t, &Fields::default(), state))
            } else {
                String::new()
            },
            lots = self.lots(lang, t, state),
            final_ = self.final_section(lang, t, state),
        );
        let title = lang.t_args("organise-title", &[("tournament", self.tournament.name().into())]);
        shell(lang, &title, Some(viewer), &body, &[])
    }

    /// The qualifying games not ended yet (their streams missing or open).
    fn qualifying_to_play(&self, state: &TournamentState) -> usize {
        let Some(standings) = &self.standings else { return 0 };
        let qualifying = |game: &String| state.games.get(game).is_some_and(|g| g.stage == Stage::Qualifying);
        standings.pending_games.iter().filter(|g| qualifying(g)).count()
    }

    /// While qualifying games are still to play, what waits for them (the lot, the finalists):
    /// any of those games can still separate tied players or change the top four.
    fn waiting(&self, lang: Lang, state: &TournamentState, id: &str, message: &str) -> Option<String> {
        let count = self.qualifying_to_play(state);
        (count > 0).then(|| {
            format!("<p class=\"muted\" id=\"{id}\">{}</p>", esc(&lang.t_args(message, &[("count", count.into())])))
        })
    }

    /// The lot's section when standings show players nothing separates, once the qualifying
    /// games are played.
    fn lots(&self, lang: Lang, t: &str, state: &TournamentState) -> String {
        let Some(standings) = &self.standings else { return String::new() };
        if let Some(wait) = self.waiting(lang, state, "lot-wait", "organise-lot-wait") {
            return section(lang, "lots", &wait);
        }
        let tied = unresolved(standings);
        let note = if tied.is_empty() {
            format!("<p class=\"muted\">{}</p>", esc(&lang.t("organise-lot-none")))
        } else {
            let names: Vec<String> = tied.iter().map(|p| name(state, p)).collect();
            format!(
                "<p id=\"lot-tied\">{}</p>",
                esc(&lang.t_args("organise-lot-needed", &[("players", names.join(", ").into())]))
            )
        };
        let seed = wall_ms() % 1_000_000;
        section(lang, "lots", &format!("{note}{}", forms::lot(lang, t, &Fields::default(), state, &tied, seed)))
    }

    /// The final: the finalists in rank order with their choices, the form for the next choice,
    /// then the final's scheduling.
    fn final_section(&self, lang: Lang, t: &str, state: &TournamentState) -> String {
        let Some(standings) = &self.standings else { return String::new() };
        if let Some((game, _)) = state.games.iter().find(|(_, g)| g.stage == Stage::Final) {
            let seats: String = Role::ALL
                .iter()
                .map(|r| {
                    format!(
                        "<li>{}: {}</li>",
                        esc(&role_name(lang, *r)),
                        esc(&name(state, state.games[game].seats.player(*r)))
                    )
                })
                .collect();
            let body = format!(
                "<p id=\"final-scheduled\">{}</p><ul>{seats}</ul>",
                esc(&lang.t_args("organise-final-scheduled", &[("game", game.clone().into())]))
            );
            return section(lang, "final", &body);
        }
        if let Some(wait) = self.waiting(lang, state, "final-wait", "organise-final-wait") {
            return section(lang, "final", &wait);
        }
        let chosen = |p: &str| state.final_roles.iter().find(|(_, who)| *who == p).map(|(r, _)| *r);
        let rows: String = standings
            .finalists
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let choice = chosen(p).map_or_else(|| lang.t("organise-final-to-choose"), |r| role_name(lang, r));
                format!(
                    "<li data-player=\"{}\">{} · {}</li>",
                    esc(p),
                    esc(&format!("{}. {}", i + 1, name(state, p))),
                    esc(&choice)
                )
            })
            .collect();
        let settled = if standings.finalists_settled {
            String::new()
        } else {
            format!("<p class=\"notice\" id=\"final-unsettled\">{}</p>", esc(&lang.t("organise-final-unsettled")))
        };
        let free: Vec<Role> = Role::ALL.iter().copied().filter(|r| !state.final_roles.contains_key(r)).collect();
        let action = if free.is_empty() {
            forms::final_game(lang, t, &Fields::default())
        } else {
            let finalists: Vec<(String, String)> =
                standings.finalists.iter().map(|p| (p.clone(), name(state, p))).collect();
            let next = standings.finalists.iter().find(|p| chosen(p).is_none()).map(String::as_str);
            forms::choose(lang, t, &Fields::default(), &finalists, next, &free)
        };
        section(lang, "final", &format!("{settled}<ol class=\"finalists\" id=\"finalists\">{rows}</ol>{action}"))
    }
}

/// The players the standings could not separate (no lot yet), the first such group.
fn unresolved(standings: &Standings) -> Vec<String> {
    let rows = &standings.rows;
    let Some(at) = rows.iter().position(|r| r.decided_by == Some(Decider::Unresolved)) else { return Vec::new() };
    let mut group = vec![rows[at - 1].player.clone()];
    group.extend(rows[at..].iter().take_while(|r| r.decided_by == Some(Decider::Unresolved)).map(|r| r.player.clone()));
    group
}

pub(super) fn role_name(lang: Lang, role: Role) -> String {
    lang.t(&format!("role-{}", role.as_str()))
}

/// A player's or stand-in's full name (the id if neither).
pub(super) fn name(state: &TournamentState, id: &str) -> String {
    state
        .players
        .get(id)
        .cloned()
        .or_else(|| state.stand_ins.iter().find(|(p, _)| p == id).map(|(_, n)| n.clone()))
        .unwrap_or_else(|| id.to_owned())
}

/// A section of the console, headed by its title.
fn section(lang: Lang, id: &str, body: &str) -> String {
    format!(
        "<section class=\"console\" id=\"{id}\"><h2>{}</h2>{body}</section>",
        esc(&lang.t(&format!("organise-section-{id}")))
    )
}

/// The tournament's name and ruleset, and the pages that go with it.
fn head(lang: Lang, t: &str, name: &str, state: &TournamentState) -> String {
    let ruleset = state.ruleset.map(|r| lang.t(&format!("ruleset-{}", r.as_str()))).unwrap_or_default();
    let links: String = [
        (format!("/board/{t}"), "organise-link-board"),
        (format!("/paper/{t}"), "organise-link-paper"),
        (format!("/organise/{t}/codes"), "organise-link-codes"),
        (format!("/pairings/{t}"), "organise-link-pairings"),
        ("/organise".to_owned(), "organise-link-season"),
    ]
    .iter()
    .map(|(href, label)| format!("<a href=\"{}\">{}</a>", esc(href), esc(&lang.t(label))))
    .collect::<Vec<_>>()
    .join(" · ");
    format!(
        "<h1 id=\"console-title\">{}</h1><p class=\"muted\">{} · {}</p><nav class=\"console-links\">{links}</nav>",
        esc(&lang.t_args("organise-title", &[("tournament", name.into())])),
        esc(&ruleset),
        esc(&lang.t_args(
            "organise-count",
            &[("players", state.players.len().into()), ("stand_ins", state.stand_ins.len().into())]
        )),
    )
}

/// The registered players and stand-ins, each correctable and removable before the draw, and
/// the three ways to register.
fn players(lang: Lang, t: &str, state: &TournamentState) -> String {
    let open = !state.drawn;
    let row = |id: &str, full: &str, pseudonym: Option<&str>, stand_in: bool| {
        let actions = if open {
            let fields = Fields::new(vec![
                ("player".into(), id.to_owned()),
                ("name".into(), full.to_owned()),
                ("pseudonym".into(), pseudonym.unwrap_or_default().to_owned()),
            ])
            .unwrap_or_default();
            format!(
                "<details><summary>{}</summary>{}</details>{}",
                esc(&lang.t("organise-fix")),
                if stand_in { String::new() } else { forms::fix(lang, t, &fields) },
                forms::unregister(lang, t, id)
            )
        } else {
            state
                .withdrawn
                .get(id)
                .map(|r| esc(&lang.t_args("organise-withdrawn", &[("round", (*r).into())])))
                .unwrap_or_default()
        };
        format!(
            "<tr data-player=\"{id}\"><td data-label=\"{l_name}\">{full}</td><td data-label=\"{l_pseudonym}\">{pseudonym}</td>\
             <td data-label=\"{l_id}\" class=\"mono\">{id}</td><td>{actions}</td></tr>",
            id = esc(id),
            full = esc(full),
            pseudonym = esc(&if stand_in { lang.t("organise-stand-in") } else { pseudonym.unwrap_or_default().to_owned() }),
            l_name = esc(&lang.t("organise-field-name")),
            l_pseudonym = esc(&lang.t("organise-field-pseudonym")),
            l_id = esc(&lang.t("organise-field-player")),
        )
    };
    let mut rows: Vec<String> = state
        .registration_order
        .iter()
        .map(|p| row(p, &name(state, p), state.pseudonyms.get(p).map(String::as_str), false))
        .collect();
    rows.extend(state.stand_ins.iter().map(|(id, full)| row(id, full, None, true)));
    let table = if rows.is_empty() {
        format!("<p class=\"muted\" id=\"players-none\">{}</p>", esc(&lang.t("organise-players-none")))
    } else {
        format!(
            "<table class=\"season\" id=\"players-table\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th></th></tr></thead><tbody>{}</tbody></table>",
            esc(&lang.t("organise-field-name")),
            esc(&lang.t("organise-field-pseudonym")),
            esc(&lang.t("organise-field-player")),
            rows.concat()
        )
    };
    let forms = if open {
        format!(
            "<div class=\"console-grid\"><div><h3>{}</h3>{}</div><div><h3>{}</h3>{}<h3>{}</h3>{}</div></div>",
            esc(&lang.t("organise-register-one")),
            forms::register(lang, t, &Fields::default()),
            esc(&lang.t("organise-register-list")),
            forms::list(lang, t, &Fields::default()),
            esc(&lang.t("organise-register-file")),
            forms::upload(lang, t),
        )
    } else {
        format!(
            "<p class=\"muted\">{}</p><h3>{}</h3>{}",
            esc(&lang.t("organise-players-closed")),
            esc(&lang.t("organise-register-stand-in")),
            forms::stand_in(lang, t, &Fields::default())
        )
    };
    section(lang, "players", &format!("{table}{forms}"))
}

/// The draw: its form before, the seed it was drawn with after.
fn draw(lang: Lang, t: &str, state: &TournamentState) -> String {
    let body = if state.drawn {
        let rounds = state.games.values().filter(|g| g.stage == Stage::Qualifying).map(|g| g.round).max().unwrap_or(0);
        let links: String = (1..=rounds)
            .map(|r| {
                let label = esc(&lang.t_args("organise-round", &[("round", r.into())]));
                format!("<a href=\"/paper/{t}/pairings/{r}\">{label}</a>", t = esc(t))
            })
            .collect::<Vec<_>>()
            .join(" · ");
        format!("<p id=\"drawn\">{}</p><p>{links}</p>", esc(&lang.t("organise-drawn")))
    } else if state.registration_order.is_empty() {
        format!("<p class=\"muted\">{}</p>", esc(&lang.t("organise-draw-first-register")))
    } else {
        forms::draw(lang, t, &Fields::default(), wall_ms() % 1_000_000)
    };
    section(lang, "draw", &body)
}

/// `/organise`: every tournament to run, and the form for a new one (with the values posted
/// and the refusal when it was refused).
pub(super) fn season(
    lang: Lang,
    viewer: &Viewer,
    season: &Season,
    values: &Fields,
    refused: Option<&PageError>,
) -> String {
    let rows: String = season
        .tournaments
        .iter()
        .map(|line| {
            let id = line.tournament.id();
            format!(
                "<li><a href=\"/organise/{id}\">{name}</a> <span class=\"muted\">{ruleset} · {players}</span></li>",
                id = esc(id),
                name = esc(&line.name),
                ruleset = esc(&lang.t(&format!("ruleset-{}", line.ruleset.as_str()))),
                players =
                    esc(&lang.t_args("organise-count", &[("players", line.players.into()), ("stand_ins", 0.into())])),
            )
        })
        .collect();
    let list = if rows.is_empty() {
        format!("<p class=\"muted\">{}</p>", esc(&lang.t("organise-season-none")))
    } else {
        format!("<ul id=\"season-tournaments\">{rows}</ul>")
    };
    let refused = refused.map(|e| crate::refusal::refusal_box(lang, e)).unwrap_or_default();
    let body = format!(
        "<h1>{title}</h1>{list}<section class=\"console\" id=\"create\"><h2>{create}</h2>{refused}{form}</section>",
        title = esc(&lang.t("organise-season-title")),
        create = esc(&lang.t("organise-section-create")),
        form = forms::create(lang, values),
    );
    shell(lang, &lang.t("organise-season-title"), Some(viewer), &body, &[])
}
