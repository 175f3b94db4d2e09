//! The console's forms, each drawn with the values it was posted with (empty on the console;
//! the organiser's own when a preview or a refusal shows the form again to change it).

use super::fields::Fields;
use crate::i18n::Lang;
use crate::layout::esc;
use ledger::rules::TournamentState;
use ledger::{Role, Ruleset};

/// A text input with its label; `required` inputs are marked so.
pub(super) fn input(lang: Lang, values: &Fields, name: &str, kind: &str, required: bool) -> String {
    format!(
        "<label>{label}{mark} <input type=\"{kind}\" name=\"{name}\" value=\"{value}\"{req}{extra}></label>",
        label = esc(&lang.t(&format!("organise-field-{name}"))),
        mark = if required { " *" } else { "" },
        value = esc(values.get(name).unwrap_or_default()),
        req = if required { " required" } else { "" },
        extra = if kind == "number" { " min=\"0\" inputmode=\"numeric\"" } else { " maxlength=\"200\"" },
    )
}

fn checkbox(lang: Lang, values: &Fields, name: &str) -> String {
    format!(
        "<label class=\"check\"><input type=\"checkbox\" name=\"{name}\"{checked}> {label}</label>",
        label = esc(&lang.t(&format!("organise-field-{name}"))),
        checked = if values.get(name).is_some() { " checked" } else { "" },
    )
}

/// A choice among `options` (value, what it reads), the posted one (or `default`) selected.
pub(super) fn select(
    lang: Lang,
    values: &Fields,
    (name, label): (&str, &str),
    options: &[(String, String)],
    default: Option<&str>,
) -> String {
    let chosen = values.get(name).or(default);
    let options: String = options
        .iter()
        .map(|(value, text)| {
            let selected = if Some(value.as_str()) == chosen { " selected" } else { "" };
            format!("<option value=\"{}\"{selected}>{}</option>", esc(value), esc(text))
        })
        .collect();
    format!(
        "<label>{} <select name=\"{name}\">{options}</select></label>",
        esc(&lang.t(&format!("organise-field-{label}")))
    )
}

/// A form posting to `/organise/<tournament>/<action>` (a preview first), with `body` inside.
pub(super) fn form(lang: Lang, tournament: &str, action: &str, body: &str) -> String {
    format!(
        "<form method=\"post\" action=\"/organise/{t}/{action}\" class=\"console-form\" id=\"form-{action}\">{body}\
         <button type=\"submit\">{button}</button></form>",
        t = esc(tournament),
        button = esc(&lang.t("organise-preview")),
    )
}

pub(super) fn register(lang: Lang, t: &str, values: &Fields) -> String {
    let body = [
        input(lang, values, "name", "text", true),
        input(lang, values, "pseudonym", "text", false),
        input(lang, values, "player", "text", false),
        checkbox(lang, values, "stand_in"),
    ]
    .concat();
    form(lang, t, "register", &body)
}

/// After the draw, only stand-ins join (to take a withdrawn player's seat).
pub(super) fn stand_in(lang: Lang, t: &str, values: &Fields) -> String {
    let body = format!(
        "{}{}<input type=\"hidden\" name=\"stand_in\" value=\"on\">",
        input(lang, values, "name", "text", true),
        input(lang, values, "player", "text", false),
    );
    form(lang, t, "register", &body)
}

pub(super) fn list(lang: Lang, t: &str, values: &Fields) -> String {
    let body = format!(
        "<label>{label}<textarea name=\"list\" rows=\"8\" required placeholder=\"{example}\">{text}</textarea></label>\
         <p class=\"hint\">{hint}</p>{stand_in}",
        label = esc(&lang.t("organise-field-list")),
        example = esc(&lang.t("organise-list-example")),
        text = esc(values.get("list").unwrap_or_default()),
        hint = esc(&lang.t("organise-list-hint")),
        stand_in = checkbox(lang, values, "stand_in"),
    );
    form(lang, t, "list", &body)
}

/// The upload: a file in a multipart form (the same list, read from the file).
pub(super) fn upload(lang: Lang, t: &str) -> String {
    format!(
        "<form method=\"post\" action=\"/organise/{t}/upload\" enctype=\"multipart/form-data\" class=\"console-form\" id=\"form-upload\">\
         <label>{label} <input type=\"file\" name=\"file\" accept=\".csv,.txt,.tsv,text/csv,text/plain\" required></label>{stand_in}\
         <button type=\"submit\">{button}</button></form>",
        t = esc(t),
        label = esc(&lang.t("organise-field-file")),
        stand_in = checkbox(lang, &Fields::default(), "stand_in"),
        button = esc(&lang.t("organise-preview")),
    )
}

/// A registration's correction, prefilled with what is recorded.
pub(super) fn fix(lang: Lang, t: &str, values: &Fields) -> String {
    let body = format!(
        "<input type=\"hidden\" name=\"player\" value=\"{}\">{}{}{}",
        esc(values.get("player").unwrap_or_default()),
        input(lang, values, "name", "text", true),
        input(lang, values, "pseudonym", "text", false),
        input(lang, values, "new_player", "text", false),
    );
    form(lang, t, "fix", &body)
}

/// The one-button form taking back a registration.
pub(super) fn unregister(lang: Lang, t: &str, player: &str) -> String {
    format!(
        "<form method=\"post\" action=\"/organise/{t}/unregister\" class=\"inline\">\
         <input type=\"hidden\" name=\"player\" value=\"{p}\"><button type=\"submit\" class=\"quiet\">{label}</button></form>",
        t = esc(t),
        p = esc(player),
        label = esc(&lang.t("organise-unregister")),
    )
}

pub(super) fn draw(lang: Lang, t: &str, values: &Fields, suggested_seed: u64) -> String {
    let seed = values.get("seed").map_or_else(|| suggested_seed.to_string(), str::to_owned);
    let body = format!(
        "<label>{label} * <input type=\"number\" name=\"seed\" min=\"0\" inputmode=\"numeric\" value=\"{seed}\" required></label>\
         <p class=\"hint\">{hint}</p>",
        label = esc(&lang.t("organise-field-seed")),
        seed = esc(&seed),
        hint = esc(&lang.t("organise-seed-hint")),
    );
    form(lang, t, "draw", &body)
}

/// Who may withdraw (registered, not withdrawn yet), from which round, and who takes the seat.
pub(super) fn withdraw(lang: Lang, t: &str, values: &Fields, state: &TournamentState) -> String {
    let players: Vec<(String, String)> = state
        .registration_order
        .iter()
        .filter(|p| !state.withdrawn.contains_key(*p))
        .map(|p| (p.clone(), state.players.get(p).cloned().unwrap_or_else(|| p.clone())))
        .collect();
    let mut stand_ins = vec![(String::new(), lang.t("organise-stand-in-first-free"))];
    stand_ins.extend(state.stand_ins.iter().map(|(id, name)| (id.clone(), name.clone())));
    let body = [
        select(lang, values, ("player", "who"), &players, None),
        input(lang, values, "from_round", "number", true),
        select(lang, values, ("stand_in", "stand_in_choice"), &stand_ins, Some("")),
    ]
    .concat();
    form(lang, t, "withdraw", &body)
}

/// A lot among tied players: every registered player to tick, `tied` ticked already.
pub(super) fn lot(lang: Lang, t: &str, values: &Fields, state: &TournamentState, tied: &[String], seed: u64) -> String {
    let ticked: Vec<String> = if values.all("players").is_empty() { tied.to_vec() } else { values.all("players") };
    let boxes: String = state
        .registration_order
        .iter()
        .map(|p| {
            let checked = if ticked.contains(p) { " checked" } else { "" };
            let name = state.players.get(p).map_or(p.as_str(), String::as_str);
            format!(
                "<label class=\"check\"><input type=\"checkbox\" name=\"players\" value=\"{}\"{checked}> {}</label>",
                esc(p),
                esc(name)
            )
        })
        .collect();
    let purposes = [
        ("qualifying".to_owned(), lang.t("organise-lot-qualifying")),
        ("final".to_owned(), lang.t("organise-lot-final")),
    ];
    let seed = values.get("seed").map_or_else(|| seed.to_string(), str::to_owned);
    let body = format!(
        "<fieldset class=\"players\"><legend>{legend}</legend>{boxes}</fieldset>{purpose}\
         <label>{seed_label} * <input type=\"number\" name=\"seed\" min=\"0\" value=\"{seed}\" required></label>",
        legend = esc(&lang.t("organise-lot-tied")),
        purpose = select(lang, values, ("purpose", "purpose"), &purposes, Some("qualifying")),
        seed_label = esc(&lang.t("organise-field-seed")),
        seed = esc(&seed),
    );
    form(lang, t, "lot", &body)
}

/// A finalist's role choice: the finalists in rank order (the next to choose selected), the
/// roles still free.
pub(super) fn choose(
    lang: Lang,
    t: &str,
    values: &Fields,
    finalists: &[(String, String)],
    next: Option<&str>,
    free: &[Role],
) -> String {
    let roles: Vec<(String, String)> =
        free.iter().map(|r| (r.as_str().to_owned(), lang.t(&format!("role-{}", r.as_str())))).collect();
    let body = [
        select(lang, values, ("player", "finalist"), finalists, next),
        select(lang, values, ("role", "role"), &roles, None),
    ]
    .concat();
    form(lang, t, "choose", &body)
}

pub(super) fn final_game(lang: Lang, t: &str, values: &Fields) -> String {
    let mut values = values.clone();
    if values.get("table").is_none() {
        values = Fields::new(vec![("table".into(), "1".into())]).unwrap_or_default();
    }
    form(lang, t, "final", &input(lang, &values, "table", "number", true))
}

/// A new tournament: id, name, ruleset, clock (on `/organise`).
pub(super) fn create(lang: Lang, values: &Fields) -> String {
    let rulesets: Vec<(String, String)> =
        Ruleset::ALL.iter().map(|r| (r.as_str().to_owned(), lang.t(&format!("ruleset-{}", r.as_str())))).collect();
    let body = [
        input(lang, values, "id", "text", true),
        input(lang, values, "name", "text", true),
        select(lang, values, ("ruleset", "ruleset"), &rulesets, Some("cafe2023")),
        input(lang, values, "clock_minutes", "number", false),
    ]
    .concat();
    format!(
        "<form method=\"post\" action=\"/organise\" class=\"console-form\" id=\"form-create\">{body}<p class=\"hint\">{hint}</p>\
         <button type=\"submit\">{button}</button></form>",
        hint = esc(&lang.t("organise-id-hint")),
        button = esc(&lang.t("organise-preview")),
    )
}

/// The form an action is planned from, drawn again with the values posted.
pub(super) fn again(lang: Lang, t: &str, action: &str, values: &Fields, state: Option<&TournamentState>) -> String {
    match (action, state) {
        ("register", _) => register(lang, t, values),
        ("list", _) => list(lang, t, values),
        ("fix", _) => fix(lang, t, values),
        ("draw", _) => draw(lang, t, values, 0),
        ("withdraw", Some(state)) => withdraw(lang, t, values, state),
        ("lot", Some(state)) => lot(lang, t, values, state, &[], 0),
        ("final", _) => final_game(lang, t, values),
        ("create", _) => create(lang, values),
        // A role choice and an unregistration are chosen on the console again.
        _ => String::new(),
    }
}
