//! The analysts' ratings (issue 44): `/analyst/ratings` shows one model's ratings (`?model=`
//! plain, role_aware or role_only) — per player μ, σ, μ − 3σ, games and results per role, the
//! history of μ as an SVG chart, the role terms with their σ, how often the model picked the
//! winner — and each role's win rate by year and ruleset with its interval. The same numbers as
//! CSV and JSON (`/analyst/ratings.csv`, `.json`, `/analyst/trends.csv`). All from the facade
//! (`Projections::ratings`, `stats_by_year_and_ruleset`: the read models ledgerd keeps).
//! Players by pseudonym, by name for who may see names (organiser, jury).

use crate::analysts::analyst::{csv_field, select, year};
use crate::auth::Viewer;
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{esc, shell};
use crate::{blocking, PageError, WebState};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use ledger::{Role, Ruleset};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::facade::ratings::{self, Period, PlayerLine, RatingsView};
use ledger_house::ratings::Model;
use serde::Deserialize;

/// The players whose history the chart draws, at most.
const CHARTED: usize = 8;

/// The points a player's line is drawn with, at most: a long history is drawn from evenly
/// spaced games and its last, so the chart costs the same after 8 games and after 8,000.
const POINTS_PER_LINE: usize = 60;

/// `history` thinned to at most [`POINTS_PER_LINE`] points, its first and last kept.
fn sampled(history: &[ledger_house::ratings::Point]) -> Vec<ledger_house::ratings::Point> {
    if history.len() <= POINTS_PER_LINE {
        return history.to_vec();
    }
    let last = history.len() - 1;
    (0..POINTS_PER_LINE).map(|i| history[i * last / (POINTS_PER_LINE - 1)]).collect()
}

/// The page's query: the model, and the filters (a year's players; a ruleset's periods).
#[derive(Deserialize, Default)]
pub(crate) struct Which {
    model: Option<String>,
    year: Option<String>,
    ruleset: Option<String>,
}

impl Which {
    /// The query string of the same filters under `model`, for the links to the other models and
    /// to the CSV and JSON forms.
    fn query(&self, model: Model, year: Option<i32>, ruleset: Option<Ruleset>) -> String {
        let mut query = format!("?model={}", model.as_str());
        if let Some(year) = year {
            query.push_str(&format!("&year={year}"));
        }
        if let Some(ruleset) = ruleset {
            query.push_str(&format!("&ruleset={}", ruleset.as_str()));
        }
        query
    }

    /// The ruleset asked for: none when empty, refused in the reader's language when unknown.
    fn ruleset(&self) -> Result<Option<Ruleset>, PageError> {
        let Some(name) = self.ruleset.as_deref().map(str::trim).filter(|r| !r.is_empty()) else { return Ok(None) };
        Ruleset::parse(name).map(Some).ok_or_else(|| {
            let quoted = ledger::rejection::quote(name);
            PageError::from(Error::InvalidArgument(format!("unknown ruleset `{quoted}`")))
                .saying(Say::new("error-bad-ruleset").arg("ruleset", quoted))
        })
    }
}

/// The model and year asked for, and whether this viewer sees pseudonyms.
fn asked(state: &WebState, viewer: &Viewer, which: &Which) -> Result<(Model, Option<i32>, bool), PageError> {
    state.auth.authorize(&viewer.metadata, Access::RoleStats)?;
    let public = state.auth.authorize(&viewer.metadata, Access::Standings { public: false }).is_err();
    Ok((ratings::model(which.model.as_deref().unwrap_or(""))?, year(&which.year)?, public))
}

async fn view(state: &WebState, viewer: &Viewer, which: &Which) -> Result<RatingsView, PageError> {
    let (model, year, public) = asked(state, viewer, which)?;
    let facade = state.facade.clone();
    blocking(move || Ok(facade.ratings(model, public, year)?.value)).await
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
    let lines: Vec<Vec<ledger_house::ratings::Point>> = charted.iter().map(|p| sampled(&p.history)).collect();
    let mut ends: Vec<u64> = lines.iter().flat_map(|line| line.iter().map(|h| h.end_position)).collect();
    ends.sort_unstable();
    ends.dedup();
    let (low, high) = lines
        .iter()
        .flat_map(|line| line.iter().map(|h| h.mu))
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
        lines.iter().enumerate().map(|(i, line)| (i, line.last().map_or(0.0, |h| y(h.mu)))).collect();
    names.sort_by(|a, b| a.1.total_cmp(&b.1));
    for i in 1..names.len() {
        names[i].1 = names[i].1.max(names[i - 1].1 + 13.0);
    }
    for (index, player) in charted.iter().enumerate() {
        // Whole pixels of the 600-wide view: a line costs a few integers a point.
        #[allow(clippy::cast_possible_truncation)] // within the view box
        let points: Vec<String> = lines[index]
            .iter()
            .map(|h| format!("{},{}", x(h.end_position).round() as i64, y(h.mu).round() as i64))
            .collect();
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

fn trends_table(lang: Lang, periods: &[Period], csv_query: &str) -> String {
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
        "<h2>{}</h2><p class=\"hint\">{} <a href=\"/analyst/trends.csv{csv_query}\" id=\"trends-csv\" download=\"trends.csv\">{}</a></p>\
         <table class=\"stats\" id=\"trends\"><thead><tr><th>{}</th><th>{}</th><th>{}</th>{heads}</tr></thead><tbody>{rows}</tbody></table>",
        esc(&lang.t("ratings-trends-title")),
        esc(&lang.t("ratings-trends-lead")),
        esc(&lang.t("ratings-trends-csv")),
        esc(&lang.t("ratings-col-year")),
        esc(&lang.t("ratings-col-ruleset")),
        esc(&lang.t("analyst-col-games")),
    )
}

/// The periods (year and ruleset) the filters keep.
async fn periods(state: &WebState, year: Option<i32>, ruleset: Option<Ruleset>) -> Result<Vec<Period>, PageError> {
    let facade = state.facade.clone();
    let mut periods = blocking(move || Ok(facade.stats_by_year_and_ruleset()?)).await?;
    periods.retain(|p| year.is_none_or(|y| p.year == y) && ruleset.is_none_or(|r| p.ruleset == r));
    Ok(periods)
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Query(which): Query<Which>,
) -> Result<Html<String>, PageError> {
    let ruleset = which.ruleset()?;
    let view = view(&state, &viewer, &which).await?;
    let every_period = periods(&state, None, None).await?;
    let shown: Vec<Period> = every_period
        .iter()
        .filter(|p| view.year.is_none_or(|y| p.year == y) && ruleset.is_none_or(|r| p.ruleset == r))
        .cloned()
        .collect();
    let query = which.query(view.model, view.year, ruleset);
    let switch: String = Model::ALL
        .iter()
        .map(|m| {
            let name = esc(&lang.t(&format!("ratings-model-{}", m.as_str())));
            if *m == view.model {
                format!("<strong id=\"model-{0}\">{name}</strong>", m.as_str())
            } else {
                format!(
                    "<a id=\"model-{0}\" href=\"/analyst/ratings{1}\">{name}</a>",
                    m.as_str(),
                    esc(&which.query(*m, view.year, ruleset))
                )
            }
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let mut years: Vec<String> = every_period.iter().map(|p| p.year.to_string()).collect();
    years.dedup();
    let year_refs: Vec<&str> = years.iter().map(String::as_str).collect();
    let rulesets: Vec<&str> = Ruleset::ALL.iter().map(|r| r.as_str()).collect();
    let asked_year = view.year.map(|y| y.to_string());
    let filters = format!(
        "<form class=\"filters\" method=\"get\" action=\"/analyst/ratings\" id=\"ratings-filters\">\
         <input type=\"hidden\" name=\"model\" value=\"{}\">{}{}<button type=\"submit\" id=\"filter-go\">{}</button></form>",
        view.model.as_str(),
        select(lang, "year", asked_year.as_deref(), &year_refs, None),
        select(lang, "ruleset", ruleset.map(Ruleset::as_str), &rulesets, Some("ruleset")),
        esc(&lang.t("filter-go")),
    );
    let year_note = view.year.map_or_else(String::new, |year| {
        format!(
            "<p class=\"hint\" id=\"ratings-year\" data-year=\"{year}\">{}</p>",
            esc(&lang.t_args("ratings-year-lead", &[("year", year.to_string().into()), ("games", view.games.into())]))
        )
    });
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
    let query = esc(&query);
    let body = format!(
        "<h1>{}</h1><p class=\"hint\">{}</p>{filters}<p>{}: {switch} · <a href=\"/analyst/ratings.csv{query}\" id=\"ratings-csv\" download=\"ratings.csv\">{}</a> · \
         <a href=\"/analyst/ratings.json{query}\" id=\"ratings-json\">{}</a></p>{year_note}{prediction}{players}{}{}",
        esc(&lang.t("ratings-title")),
        esc(&lang.t("ratings-lead")),
        esc(&lang.t("ratings-model")),
        esc(&lang.t("ratings-csv")),
        esc(&lang.t("ratings-json")),
        roles_table(lang, &view),
        trends_table(lang, &shown, &query),
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
/// The page's filters keep their periods here too.
pub(crate) async fn trends_csv(
    State(state): State<WebState>,
    viewer: Viewer,
    Query(which): Query<Which>,
) -> Result<Response, PageError> {
    state.auth.authorize(&viewer.metadata, Access::RoleStats)?;
    let periods = periods(&state, year(&which.year)?, which.ruleset()?).await?;
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
