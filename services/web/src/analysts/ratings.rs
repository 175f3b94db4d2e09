//! The analysts' ratings (issue 44): `/analyst/ratings` shows one model's ratings (`?model=`
//! plain, role_aware or role_only) — per player μ, σ, μ − 3σ, games and results per role, the
//! history of μ as an SVG chart, the role terms with their σ, how often the model picked the
//! winner — and each role's win rate by year and ruleset with its interval. The same numbers as
//! CSV and JSON (`/analyst/ratings.csv`, `.json`, `/analyst/trends.csv`). All from the facade
//! (`Projections::ratings`, `stats_by_year_and_ruleset`: the read models ledgerd keeps).
//! Players by pseudonym, by name for who may see names (organiser, jury).

use crate::analysts::analyst::csv_field;
use crate::auth::Viewer;
use crate::i18n::{Lang, PageLang};
use crate::layout::{esc, shell};
use crate::{blocking, PageError, WebState};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use ledger::Role;
use ledger_house::auth::Access;
use ledger_house::facade::ratings::{self, Period, PlayerLine, RatingsView};
use ledger_house::ratings::Model;
use serde::Deserialize;

/// The players whose history the chart draws, at most.
const CHARTED: usize = 8;

#[derive(Deserialize, Default)]
pub(crate) struct Which {
    model: Option<String>,
}

/// The model asked for, and whether this viewer sees pseudonyms.
fn asked(state: &WebState, viewer: &Viewer, which: &Which) -> Result<(Model, bool), PageError> {
    state.auth.authorize(&viewer.metadata, Access::RoleStats)?;
    let public = state.auth.authorize(&viewer.metadata, Access::Standings { public: false }).is_err();
    Ok((ratings::model(which.model.as_deref().unwrap_or(""))?, public))
}

async fn view(state: &WebState, viewer: &Viewer, which: &Which) -> Result<RatingsView, PageError> {
    let (model, public) = asked(state, viewer, which)?;
    let facade = state.facade.clone();
    blocking(move || Ok(facade.ratings(model, public)?.value)).await
}

/// A float as `lang` writes it with `places` decimals.
fn number(lang: Lang, value: f64, places: usize) -> String {
    lang.decimal(&format!("{value:.places$}"))
}

fn players_table(lang: Lang, view: &RatingsView) -> String {
    let t = |id: &str| esc(&lang.t(id));
    let rows: String = view
        .players
        .iter()
        .enumerate()
        .map(|(rank, p)| {
            let roles: Vec<String> = p
                .roles
                .iter()
                .map(|(role, r)| format!("{} {}/{}", esc(&lang.t(&format!("role-{}", role.as_str()))), r.wins, r.games))
                .collect();
            format!(
                "<tr data-player=\"{}\"><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                esc(&p.player),
                rank + 1,
                esc(&p.player),
                number(lang, p.rating.mu, 2),
                number(lang, p.rating.sigma, 2),
                number(lang, p.rating.ordinal, 2),
                p.games,
                roles.join(" · ")
            )
        })
        .collect();
    format!(
        "<table class=\"stats\" id=\"ratings\"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{rows}</tbody></table>",
        t("ratings-col-player"),
        t("ratings-col-mu"),
        t("ratings-col-sigma"),
        t("ratings-col-ordinal"),
        t("ratings-col-games"),
        t("ratings-col-roles"),
    )
}

fn roles_table(lang: Lang, view: &RatingsView) -> String {
    if view.roles.is_empty() {
        return String::new();
    }
    let rows: String = view
        .roles
        .iter()
        .map(|(role, r)| {
            format!(
                "<tr data-role=\"{}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                role.as_str(),
                esc(&lang.t(&format!("role-{}", role.as_str()))),
                number(lang, r.mu, 2),
                number(lang, r.sigma, 2)
            )
        })
        .collect();
    format!(
        "<h2>{}</h2><p class=\"hint\">{}</p><table class=\"stats\" id=\"role-terms\"><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{rows}</tbody></table>",
        esc(&lang.t("ratings-roles-title")),
        esc(&lang.t("ratings-roles-lead")),
        esc(&lang.t("ratings-col-role")),
        esc(&lang.t("ratings-col-mu")),
        esc(&lang.t("ratings-col-sigma")),
    )
}

/// μ after each game for the players with most games: one polyline each over the season's
/// ended games (x: the game's place in the order of ends).
fn history_chart(lang: Lang, players: &[PlayerLine]) -> String {
    let mut charted: Vec<&PlayerLine> = players.iter().filter(|p| !p.history.is_empty()).collect();
    charted.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.player.cmp(&b.player)));
    charted.truncate(CHARTED);
    if charted.is_empty() {
        return String::new();
    }
    let mut ends: Vec<u64> = charted.iter().flat_map(|p| p.history.iter().map(|h| h.end_position)).collect();
    ends.sort_unstable();
    ends.dedup();
    let (low, high) = charted
        .iter()
        .flat_map(|p| p.history.iter().map(|h| h.mu))
        .fold((ledger_house::ratings::MU, ledger_house::ratings::MU), |(l, h), mu| (l.min(mu), h.max(mu)));
    let (low, high) = ((low - 1.0).floor(), (high + 1.0).ceil());
    const WIDTH: f64 = 600.0;
    const HEIGHT: f64 = 260.0;
    const LEFT: f64 = 40.0;
    let steps = (ends.len().max(2) - 1) as f64;
    let x = |end: u64| LEFT + (WIDTH - LEFT - 110.0) * ends.binary_search(&end).unwrap_or(0) as f64 / steps;
    let y = |mu: f64| 10.0 + (HEIGHT - 40.0) * (high - mu) / (high - low);
    let title = esc(&lang.t("ratings-chart"));
    let mut svg = format!(
        "<figure class=\"chart history\"><figcaption>{title}</figcaption><svg id=\"chart-history\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{title}\">"
    );
    for tick in [low, (low + high) / 2.0, high] {
        svg.push_str(&format!(
            "<line x1=\"{LEFT}\" x2=\"{right}\" y1=\"{at:.1}\" y2=\"{at:.1}\" class=\"grid\"/>\
             <text x=\"{label_x}\" y=\"{label_y:.1}\" class=\"axis\" text-anchor=\"end\">{text}</text>",
            right = WIDTH - 110.0,
            at = y(tick),
            label_x = LEFT - 4.0,
            label_y = y(tick) + 4.0,
            text = number(lang, tick, 0)
        ));
    }
    // Each line's name at its last point, moved apart so that no two overlap (13 px a line).
    let mut names: Vec<(usize, f64)> =
        charted.iter().enumerate().map(|(i, p)| (i, p.history.last().map_or(0.0, |h| y(h.mu)))).collect();
    names.sort_by(|a, b| a.1.total_cmp(&b.1));
    for i in 1..names.len() {
        names[i].1 = names[i].1.max(names[i - 1].1 + 13.0);
    }
    for (index, player) in charted.iter().enumerate() {
        let points: Vec<String> =
            player.history.iter().map(|h| format!("{:.1},{:.1}", x(h.end_position), y(h.mu))).collect();
        let last = names.iter().find(|(i, _)| *i == index).map_or(0.0, |(_, at)| *at);
        svg.push_str(&format!(
            "<polyline class=\"line s{index}\" data-player=\"{name}\" points=\"{}\"><title>{name}</title></polyline>\
             <text x=\"{}\" y=\"{:.1}\" class=\"label s{index}\">{name}</text>",
            points.join(" "),
            WIDTH - 104.0,
            last + 4.0,
            name = esc(&player.player),
        ));
    }
    svg.push_str("</svg></figure>");
    svg
}

fn trends_table(lang: Lang, periods: &[Period]) -> String {
    if periods.is_empty() {
        return String::new();
    }
    let heads: String =
        Role::ALL.iter().map(|r| format!("<th>{}</th>", esc(&lang.t(&format!("role-{}", r.as_str()))))).collect();
    let rows: String = periods
        .iter()
        .map(|p| {
            let json = p.stats.to_json();
            let cells: String = Role::ALL
                .iter()
                .map(|role| {
                    let cell = json.roles.get(role).map_or_else(String::new, |l| {
                        let show = |n: &Option<serde_json::Number>| {
                            n.as_ref().map_or("–".to_owned(), |n| lang.decimal(&n.to_string()))
                        };
                        format!(
                            "{} <span class=\"muted\">({} – {})</span>",
                            show(&l.win_rate),
                            show(&l.wilson_low),
                            show(&l.wilson_high)
                        )
                    });
                    format!("<td class=\"num\">{cell}</td>")
                })
                .collect();
            format!(
                "<tr data-year=\"{}\" data-ruleset=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}</td>{cells}</tr>",
                p.year,
                p.ruleset.as_str(),
                p.year,
                esc(&lang.t(&format!("ruleset-{}", p.ruleset.as_str()))),
                p.stats.games
            )
        })
        .collect();
    format!(
        "<h2>{}</h2><p class=\"hint\">{} <a href=\"/analyst/trends.csv\" id=\"trends-csv\" download=\"trends.csv\">{}</a></p>\
         <table class=\"stats\" id=\"trends\"><thead><tr><th>{}</th><th>{}</th><th>{}</th>{heads}</tr></thead><tbody>{rows}</tbody></table>",
        esc(&lang.t("ratings-trends-title")),
        esc(&lang.t("ratings-trends-lead")),
        esc(&lang.t("ratings-trends-csv")),
        esc(&lang.t("ratings-col-year")),
        esc(&lang.t("ratings-col-ruleset")),
        esc(&lang.t("analyst-col-games")),
    )
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Query(which): Query<Which>,
) -> Result<Html<String>, PageError> {
    let view = view(&state, &viewer, &which).await?;
    let facade = state.facade.clone();
    let periods = blocking(move || Ok(facade.stats_by_year_and_ruleset()?)).await?;
    let model = view.model.as_str();
    let switch: String = Model::ALL
        .iter()
        .map(|m| {
            let name = esc(&lang.t(&format!("ratings-model-{}", m.as_str())));
            if *m == view.model {
                format!("<strong id=\"model-{0}\">{name}</strong>", m.as_str())
            } else {
                format!("<a id=\"model-{0}\" href=\"/analyst/ratings?model={0}\">{name}</a>", m.as_str())
            }
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let prediction = view.prediction.share.map_or_else(String::new, |share| {
        let said = lang.t_args(
            "ratings-prediction",
            &[
                ("games", view.prediction.games.into()),
                ("share", format!("{}%", number(lang, share * 100.0, 1)).into()),
            ],
        );
        format!("<p id=\"prediction\" data-share=\"{share:.4}\">{}</p>", esc(&said))
    });
    let players = if view.players.is_empty() && view.roles.is_empty() {
        format!("<p class=\"muted\" id=\"ratings-none\">{}</p>", esc(&lang.t("ratings-none")))
    } else if view.players.is_empty() {
        String::new()
    } else {
        format!("{}{}", history_chart(lang, &view.players), players_table(lang, &view))
    };
    let body = format!(
        "<h1>{}</h1><p class=\"hint\">{}</p><p>{}: {switch} · <a href=\"/analyst/ratings.csv?model={model}\" id=\"ratings-csv\" download=\"ratings.csv\">{}</a> · \
         <a href=\"/analyst/ratings.json?model={model}\" id=\"ratings-json\">{}</a></p>{prediction}{players}{}{}",
        esc(&lang.t("ratings-title")),
        esc(&lang.t("ratings-lead")),
        esc(&lang.t("ratings-model")),
        esc(&lang.t("ratings-csv")),
        esc(&lang.t("ratings-json")),
        roles_table(lang, &view),
        trends_table(lang, &periods),
    );
    Ok(Html(shell(lang, &lang.t("ratings-page"), Some(&viewer), &body, &[])))
}

/// One line per player (`player,id,mu,sigma,ordinal,games`, then games and wins per role), then
/// one per role term (`# role,<role>,<mu>,<sigma>`) and the prediction (`# predicted,<games>,<right>`).
pub(crate) fn to_csv(view: &RatingsView) -> String {
    let mut out = String::from("player,id,mu,sigma,ordinal,games");
    for &role in Role::ALL {
        out.push_str(&format!(",{0}_games,{0}_wins", role.as_str()));
    }
    out.push('\n');
    for p in &view.players {
        out.push_str(&format!(
            "{},{},{},{},{},{}",
            csv_field(&p.player),
            csv_field(p.id.as_deref().unwrap_or("")),
            p.rating.mu,
            p.rating.sigma,
            p.rating.ordinal,
            p.games
        ));
        for &role in Role::ALL {
            let (games, wins) = p.roles.get(&role).map_or((0, 0), |r| (r.games, r.wins));
            out.push_str(&format!(",{games},{wins}"));
        }
        out.push('\n');
    }
    for (role, r) in &view.roles {
        out.push_str(&format!("# role,{},{},{}\n", role.as_str(), r.mu, r.sigma));
    }
    out.push_str(&format!("# predicted,{},{}\n", view.prediction.games, view.prediction.right));
    out
}

fn attachment(content_type: &'static str, name: &'static str, body: String) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CONTENT_DISPOSITION, name)], body).into_response()
}

pub(crate) async fn csv(
    State(state): State<WebState>,
    viewer: Viewer,
    Query(which): Query<Which>,
) -> Result<Response, PageError> {
    let view = view(&state, &viewer, &which).await?;
    Ok(attachment("text/csv; charset=utf-8", "attachment; filename=\"ratings.csv\"", to_csv(&view)))
}

pub(crate) async fn json(
    State(state): State<WebState>,
    viewer: Viewer,
    Query(which): Query<Which>,
) -> Result<Response, PageError> {
    let view = view(&state, &viewer, &which).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], view.to_json_string()).into_response())
}

/// `year,ruleset,kind,name,games,wins,win_rate,wilson_low,wilson_high,average_score` per role and
/// nation of each year and ruleset.
pub(crate) async fn trends_csv(State(state): State<WebState>, viewer: Viewer) -> Result<Response, PageError> {
    state.auth.authorize(&viewer.metadata, Access::RoleStats)?;
    let facade = state.facade.clone();
    let periods = blocking(move || Ok(facade.stats_by_year_and_ruleset()?)).await?;
    let mut out = String::from("year,ruleset,kind,name,games,wins,win_rate,wilson_low,wilson_high,average_score\n");
    for p in &periods {
        let json = p.stats.to_json();
        let kinds = json
            .roles
            .iter()
            .map(|(r, l)| ("role", r.as_str(), l))
            .chain(json.nations.iter().map(|(n, l)| ("nation", n.as_str(), l)));
        for (kind, name, l) in kinds {
            let n = |v: &Option<serde_json::Number>| v.as_ref().map(ToString::to_string).unwrap_or_default();
            out.push_str(&format!(
                "{},{},{kind},{name},{},{},{},{},{},{}\n",
                p.year,
                p.ruleset.as_str(),
                l.games,
                l.wins,
                n(&l.win_rate),
                n(&l.wilson_low),
                n(&l.wilson_high),
                n(&l.average_score)
            ));
        }
    }
    Ok(attachment("text/csv; charset=utf-8", "attachment; filename=\"trends.csv\"", out))
}
