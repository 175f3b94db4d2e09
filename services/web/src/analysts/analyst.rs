//! The analysts' page: role and nation win rates with their 95% Wilson intervals and average
//! scores as SVG charts, filtered by ruleset, tournament, stage and year, and the same numbers
//! as CSV. Both show the facade's role statistics (`ledger_house::facade`) in the numbers of their JSON
//! form (`replay::stats::StatsJson`, the bytes `ledgerctl stats roles --json` prints), so the
//! page, the CSV and the CLI cannot disagree.

use crate::auth::Viewer;
use crate::i18n::{Lang, PageLang, Say};
use crate::layout::{esc, shell};
use crate::{blocking, PageError, WebState};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use ledger::{Nation, Role, Ruleset, Stage};
use ledger_house::auth::Access;
use ledger_house::error::Error;
use ledger_house::facade;
use replay::stats::{Covered, Filter, LineJson, StatsJson};
use serde::Deserialize;
use serde_json::Number;
use std::collections::BTreeMap;

/// The filters, as the query string carries them (empty: any).
#[derive(Deserialize, Default)]
pub(crate) struct Filters {
    ruleset: Option<String>,
    tournament: Option<String>,
    stage: Option<String>,
    year: Option<String>,
}

fn given(value: &Option<String>) -> Option<String> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned)
}

/// A filter's year: none when empty, refused in the reader's language when not a year.
pub(crate) fn year(value: &Option<String>) -> Result<Option<i32>, PageError> {
    given(value)
        .map(|y| {
            y.parse::<i32>().map_err(|_| {
                PageError::from(Error::InvalidArgument(format!(
                    "year `{}` is not a year",
                    ledger::rejection::quote(&y)
                )))
                .saying(Say::new("error-bad-year").arg("year", ledger::rejection::quote(&y)))
            })
        })
        .transpose()
}

impl Filters {
    /// The filter asked for, if this viewer may see statistics.
    fn filter(&self, state: &WebState, viewer: &Viewer) -> Result<Filter, PageError> {
        let year = year(&self.year)?;
        state.auth.authorize(&viewer.metadata, Access::RoleStats)?;
        let tournament = given(&self.tournament).map(|t| t.strip_prefix("tournament/").unwrap_or(&t).to_owned());
        Ok(facade::stats_filter(tournament, given(&self.ruleset).as_deref(), given(&self.stage).as_deref(), year)?)
    }

    fn query_string(&self) -> String {
        let pairs = [
            ("ruleset", &self.ruleset),
            ("tournament", &self.tournament),
            ("stage", &self.stage),
            ("year", &self.year),
        ];
        let parts: Vec<String> = pairs
            .iter()
            .filter_map(|(k, v)| {
                given(v).map(|v| {
                    format!(
                        "{k}={}",
                        v.chars().filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c)).collect::<String>()
                    )
                })
            })
            .collect();
        if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        }
    }
}

/// The statistics for this viewer and these filters, in the numbers of their JSON form.
async fn stats_json(state: &WebState, viewer: &Viewer, filters: &Filters) -> Result<StatsJson, PageError> {
    let filter = filters.filter(state, viewer)?;
    let facade = state.facade.clone();
    blocking(move || Ok(facade.role_stats(&filter, None)?.value.to_json())).await
}

/// The lines of one kind (roles or nations), by name, in the statistics' order.
type Lines = Vec<(&'static str, LineJson)>;

fn lines<K: Copy>(by: &BTreeMap<K, LineJson>, name: impl Fn(K) -> &'static str) -> Lines {
    by.iter().map(|(k, line)| (name(*k), line.clone())).collect()
}

/// A decimal number's text as ten-thousandths (`0.4375` → 4375), for drawing: no floats.
fn ten_thousandths(value: Option<&Number>) -> Option<u64> {
    let text = value?.to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction: String = fraction.chars().chain(std::iter::repeat('0')).take(4).collect();
    Some(whole.parse::<u64>().ok()? * 10_000 + fraction.parse::<u64>().ok()?)
}

/// A number of the statistics as `lang` writes it (the JSON's own digits), `–` for none.
fn show(lang: Lang, value: Option<&Number>) -> String {
    value.map_or_else(|| "–".to_owned(), |n| lang.decimal(&n.to_string()))
}

/// A count of the statistics as `lang` writes it.
fn count(lang: Lang, value: u64) -> String {
    lang.decimal(&value.to_string())
}

/// A role's or nation's name (`maria_theresa`, `imperial_army`) in `lang`, from `rules.ftl`.
fn line_name(lang: Lang, kind: &str, name: &str) -> String {
    lang.t(&format!("{kind}-{name}"))
}

/// Win rates as bars, with the 95% interval as a whisker: one SVG, every number also as text.
fn rate_chart(lang: Lang, kind: &str, title: &str, lines: &Lines) -> String {
    let id = format!("chart-{kind}s");
    let title = esc(title);
    const WIDTH: u64 = 600;
    const LEFT: u64 = 130;
    const ROW: u64 = 34;
    let plot = WIDTH - LEFT - 20;
    let height = ROW * lines.len() as u64 + 40;
    let x = |v: u64| LEFT + v * plot / 10_000;
    let mut svg = format!(
        "<figure class=\"chart\"><figcaption>{title}</figcaption><svg id=\"{id}\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"{title}\">"
    );
    for tick in [0u64, 2_500, 5_000, 7_500, 10_000] {
        svg.push_str(&format!(
            "<line x1=\"{0}\" x2=\"{0}\" y1=\"10\" y2=\"{1}\" class=\"grid\"/><text x=\"{0}\" y=\"{2}\" class=\"axis\" text-anchor=\"middle\">{3}</text>",
            x(tick),
            height - 25,
            height - 8,
            esc(&lang.t_args("analyst-percent", &[("value", (tick / 100).into())]))
        ));
    }
    for (index, (name, line)) in lines.iter().enumerate() {
        let y = 14 + ROW * index as u64;
        svg.push_str(&row_label(LEFT, y, &line_name(lang, kind, name)));
        if let Some(rate) = ten_thousandths(line.win_rate.as_ref()) {
            let said = lang.t_args(
                "analyst-bar",
                &[
                    ("wins", count(lang, line.wins).into()),
                    ("games", count(lang, line.games).into()),
                    ("rate", show(lang, line.win_rate.as_ref()).into()),
                ],
            );
            svg.push_str(&format!(
                "<rect class=\"bar\" data-name=\"{name}\" x=\"{LEFT}\" y=\"{y}\" width=\"{}\" height=\"20\"><title>{}</title></rect>",
                x(rate) - LEFT,
                esc(&said),
                name = esc(name),
            ));
        }
        if let (Some(low), Some(high)) =
            (ten_thousandths(line.wilson_low.as_ref()), ten_thousandths(line.wilson_high.as_ref()))
        {
            svg.push_str(&format!(
                "<line class=\"whisker\" x1=\"{0}\" x2=\"{1}\" y1=\"{2}\" y2=\"{2}\"/><line class=\"whisker\" x1=\"{0}\" x2=\"{0}\" y1=\"{3}\" y2=\"{4}\"/>\
                 <line class=\"whisker\" x1=\"{1}\" x2=\"{1}\" y1=\"{3}\" y2=\"{4}\"/>",
                x(low),
                x(high),
                y + 10,
                y + 4,
                y + 16
            ));
        }
    }
    svg.push_str("</svg></figure>");
    svg
}

/// A chart row's name, right-aligned before the plot that starts at `left`.
fn row_label(left: u64, y: u64, name: &str) -> String {
    format!("<text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"end\">{}</text>", left - 8, y + 15, esc(name))
}

/// Average scores as bars (scaled to the largest).
fn score_chart(lang: Lang, kind: &str, title: &str, lines: &Lines) -> String {
    let id = format!("chart-{kind}-scores");
    let title = esc(title);
    const WIDTH: u64 = 600;
    const LEFT: u64 = 130;
    const ROW: u64 = 34;
    let plot = WIDTH - LEFT - 70;
    let height = ROW * lines.len() as u64 + 20;
    let max = lines.iter().filter_map(|(_, l)| ten_thousandths(l.average_score.as_ref())).max().unwrap_or(0).max(1);
    let mut svg = format!("<figure class=\"chart\"><figcaption>{title}</figcaption><svg id=\"{id}\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"{title}\">");
    for (index, (name, line)) in lines.iter().enumerate() {
        let y = 10 + ROW * index as u64;
        svg.push_str(&row_label(LEFT, y, &line_name(lang, kind, name)));
        if let Some(score) = ten_thousandths(line.average_score.as_ref()) {
            let width = score * plot / max;
            svg.push_str(&format!(
                "<rect class=\"bar score\" x=\"{LEFT}\" y=\"{y}\" width=\"{width}\" height=\"20\"/><text x=\"{}\" y=\"{}\" class=\"value\">{}</text>",
                LEFT + width + 6,
                y + 15,
                show(lang, line.average_score.as_ref())
            ));
        }
    }
    svg.push_str("</svg></figure>");
    svg
}

fn table(lang: Lang, kind: &str, lines: &Lines) -> String {
    let rows: String = lines
        .iter()
        .map(|(name, l)| {
            format!(
                "<tr data-name=\"{}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{} – {}</td><td class=\"num\">{}</td></tr>",
                esc(name),
                esc(&line_name(lang, kind, name)),
                count(lang, l.games),
                count(lang, l.wins),
                show(lang, l.win_rate.as_ref()),
                show(lang, l.wilson_low.as_ref()),
                show(lang, l.wilson_high.as_ref()),
                show(lang, l.average_score.as_ref())
            )
        })
        .collect();
    let heads: String = [
        &*format!("analyst-col-{kind}"),
        "analyst-col-games",
        "analyst-col-wins",
        "analyst-col-rate",
        "analyst-col-interval",
        "analyst-col-score",
    ]
    .iter()
    .map(|id| format!("<th>{}</th>", esc(&lang.t(id))))
    .collect();
    format!("<table class=\"stats\" id=\"table-{kind}\"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>")
}

/// A filter: its query name stays the machine's (`ruleset=cafe2023`), its label and choices are
/// said in `lang` (`label`: the choice's catalogue message, if it has one).
pub(crate) fn select(lang: Lang, name: &str, current: Option<&str>, choices: &[&str], label: Option<&str>) -> String {
    let options: String = std::iter::once("")
        .chain(choices.iter().copied())
        .map(|c| {
            let selected = if Some(c) == current || (c.is_empty() && current.is_none()) { " selected" } else { "" };
            let shown = match (c, label) {
                ("", _) => lang.t("filter-any"),
                (c, Some(prefix)) => lang.t(&format!("{prefix}-{c}")),
                (c, None) => c.to_owned(),
            };
            format!("<option value=\"{}\"{selected}>{}</option>", esc(c), esc(&shown))
        })
        .collect();
    format!(
        "<label>{} <select name=\"{name}\" id=\"filter-{name}\">{options}</select></label>",
        esc(&lang.t(&format!("filter-{name}")))
    )
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Query(filters): Query<Filters>,
) -> Result<Html<String>, PageError> {
    let stats = stats_json(&state, &viewer, &filters).await?;
    let tournaments: Vec<String> = if state.auth.authorize(&viewer.metadata, Access::ListStreams).is_ok() {
        state.log.tournaments().iter().map(|t| t.id().to_owned()).collect()
    } else {
        Vec::new()
    };
    let tournament_refs: Vec<&str> = tournaments.iter().map(String::as_str).collect();
    let rulesets: Vec<&str> = Ruleset::ALL.iter().map(|r| r.as_str()).collect();
    let stages: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
    let roles = &lines(&stats.roles, Role::as_str);
    let nations = &lines(&stats.nations, Nation::as_str);
    let t = |id: &str| esc(&lang.t(id));
    let games = stats.games;
    let body = format!(
        "<h1>{}</h1>\
         <form class=\"filters\" method=\"get\" action=\"/analyst\">{}{}{}\
         <label>{} <input type=\"number\" name=\"year\" id=\"filter-year\" value=\"{}\"></label>\
         <button type=\"submit\" id=\"filter-go\">{}</button></form>\
         <p><span id=\"games\" data-games=\"{games}\">{}</span> · <a href=\"/analyst/roles.csv{}\" id=\"csv\" download=\"roles.csv\">{}</a> · <a href=\"/analyst/ratings\" id=\"ratings-link\">{}</a></p>{}\
         <div class=\"charts\">{}{}{}{}</div>{}{}",
        t("analyst-title"),
        select(lang, "ruleset", given(&filters.ruleset).as_deref(), &rulesets, Some("ruleset")),
        select(lang, "tournament", given(&filters.tournament).as_deref(), &tournament_refs, None),
        select(lang, "stage", given(&filters.stage).as_deref(), &stages, Some("stage")),
        t("filter-year"),
        esc(&given(&filters.year).unwrap_or_default()),
        t("filter-go"),
        esc(&lang.t_args("analyst-games", &[("count", games.into())])),
        esc(&filters.query_string()),
        t("analyst-csv"),
        t("ratings-link"),
        covered(lang, &stats.tournaments),
        rate_chart(lang, "role", &lang.t("analyst-chart-role-rate"), roles),
        rate_chart(lang, "nation", &lang.t("analyst-chart-nation-rate"), nations),
        score_chart(lang, "role", &lang.t("analyst-chart-role-score"), roles),
        score_chart(lang, "nation", &lang.t("analyst-chart-nation-score"), nations),
        table(lang, "role", roles),
        table(lang, "nation", nations),
    );
    Ok(Html(shell(lang, &lang.t("analyst-page"), Some(&viewer), &body, &[])))
}

/// Which tournaments the numbers cover: each by name, linked to its board, with its id.
fn covered(lang: Lang, tournaments: &[Covered]) -> String {
    if tournaments.is_empty() {
        return format!("<p id=\"covered\" class=\"muted\">{}</p>", esc(&lang.t("analyst-covers-none")));
    }
    let names: Vec<String> = tournaments
        .iter()
        .map(|t| {
            format!(
                "<li data-tournament=\"{0}\"><a href=\"/board/{0}\">{1}</a> <span class=\"muted mono\">{0}</span></li>",
                esc(&t.id),
                esc(&t.name)
            )
        })
        .collect();
    let lead = lang.t_args("analyst-covers", &[("count", tournaments.len().into())]);
    format!("<div id=\"covered\"><p>{}</p><ul class=\"covered\">{}</ul></div>", esc(&lead), names.concat())
}

/// A CSV text field: quoted when it holds a comma, a quote or a line break (RFC 4180); one that
/// a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
/// return: a pseudonym `=HYPERLINK(...)`) is written after a `'`, as OWASP's "CSV injection"
/// advises, so the spreadsheet shows it as text. Numbers are not written through it.
pub(crate) fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        std::borrow::Cow::Owned(format!("'{text}"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into_owned()
    }
}

/// The numbers of the statistics as CSV: one line per role and nation, each number written as
/// the JSON writes it; then one comment line per tournament the numbers cover,
/// `# tournament,<id>,<name>` (after the data, so the header and the lines keep their places;
/// readers skip them as comments, e.g. pandas' `comment="#"`).
pub(crate) fn to_csv(stats: &StatsJson) -> String {
    let mut out =
        String::from("kind,name,games,wins,win_rate,wilson_low,wilson_high,average_score,average_score_exact\n");
    for (kind, lines) in
        [("role", lines(&stats.roles, Role::as_str)), ("nation", lines(&stats.nations, Nation::as_str))]
    {
        for (name, line) in lines {
            let number = |n: &Option<Number>| n.as_ref().map(ToString::to_string).unwrap_or_default();
            out.push_str(&format!(
                "{kind},{name},{},{},{},{},{},{},{}\n",
                line.games,
                line.wins,
                number(&line.win_rate),
                number(&line.wilson_low),
                number(&line.wilson_high),
                number(&line.average_score),
                line.average_score_exact.clone().unwrap_or_default()
            ));
        }
    }
    for tournament in &stats.tournaments {
        out.push_str(&format!("# tournament,{},{}\n", csv_field(&tournament.id), csv_field(&tournament.name)));
    }
    out
}

pub(crate) async fn csv(
    State(state): State<WebState>,
    viewer: Viewer,
    Query(filters): Query<Filters>,
) -> Result<Response, PageError> {
    let stats = stats_json(&state, &viewer, &filters).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"roles.csv\""),
        ],
        to_csv(&stats),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_drawn_without_floats() {
        let number = |text: &str| text.parse::<Number>().unwrap();
        assert_eq!(ten_thousandths(Some(&number("0.375"))), Some(3750));
        assert_eq!(ten_thousandths(Some(&number("0.1368"))), Some(1368));
        assert_eq!(ten_thousandths(Some(&number("1"))), Some(10_000));
        assert_eq!(ten_thousandths(None), None);
    }

    #[test]
    fn a_csv_field_a_spreadsheet_would_run_is_written_as_text() {
        assert_eq!(csv_field("=HYPERLINK(\"http://evil\",\"x\")"), "\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\"");
        for (cell, written) in [("+1", "'+1"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx")] {
            assert_eq!(csv_field(cell), written, "{cell:?}");
        }
        assert_eq!(csv_field("Zorro 1"), "Zorro 1");
        assert_eq!(csv_field("a=b"), "a=b", "only a leading sign is a formula");
    }

    #[test]
    fn csv_writes_the_json_numbers() {
        let number = |text: &str| Some(text.parse::<Number>().unwrap());
        let line = LineJson {
            games: 8,
            wins: 3,
            win_rate: number("0.375"),
            wilson_low: number("0.1368"),
            wilson_high: number("0.6943"),
            average_score: number("9.78"),
            average_score_exact: Some("9.775".into()),
        };
        let tournaments = vec![Covered { id: "open26".into(), name: "Open, \"26\"".into() }];
        let roles = BTreeMap::from([(Role::Frederick, line)]);
        let stats = StatsJson { games: 1, roles, nations: BTreeMap::new(), tournaments };
        let csv = to_csv(&stats);
        assert_eq!(csv.lines().nth(1), Some("role,frederick,8,3,0.375,0.1368,0.6943,9.78,9.775"));
        // The tournaments covered come after the numbers, as comments, quoted as CSV quotes.
        assert_eq!(csv.lines().nth(2), Some("# tournament,open26,\"Open, \"\"26\"\"\""));
    }
}
