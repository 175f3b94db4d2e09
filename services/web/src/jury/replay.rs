//! The jury's replay viewer for one game: every event with its recorded time, actor and table
//! time, voided events struck through with their void and ruling; a slider and step buttons to
//! any event; the game as the ledger knew it there (state, clocks, the score sheet with its
//! explanations — `replay::audit`, the text `ledgerctl audit --at N` prints); what changed
//! between two points; the chain digest; and the Markdown report to download.
//!
//! Behind the jury's credentials: a jury token, or on an open ledgerd the jury clearance.

use crate::auth::Viewer;
use crate::game::{game_id, Game};
use crate::i18n::{Lang, PageLang, Say};
use crate::jury::jury_only;
use crate::layout::{esc, shell};
use crate::{blocking, PageError, WebState};
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use ledger::envelope::{short_digest, verify_chain};
use ledger_house::error::Error;
use ledger_house::projections;
use ledger_house::proofs::LatestCheckpoint;
use ledger_house::words;
use replay::audit::{self, table_time_text, AuditError, Auditor};
use serde::Deserialize;
use std::sync::Arc;

fn audit_error(error: AuditError) -> PageError {
    Error::FailedPrecondition(error.to_string()).into()
}

#[derive(Deserialize)]
pub(crate) struct JuryQuery {
    at: Option<u64>,
    diff: Option<u64>,
    /// Back from recording a ruling.
    ruled: Option<u8>,
    /// The ruling form filled in to correct this event (`jury_desk::RuleForm::correcting`).
    correct: Option<u64>,
}

pub(crate) async fn page(
    State(state): State<WebState>,
    viewer: Viewer,
    PageLang(lang): PageLang,
    Path(game): Path<String>,
    Query(query): Query<JuryQuery>,
) -> Result<Response, PageError> {
    let id = game_id(&game)?;
    jury_only(&state, &viewer)?;
    let log = Arc::clone(&state.log);
    let proofs = state.proofs.clone();
    let body = blocking(move || {
        let game = Game::load(&log, id)?;
        if game.records.is_empty() {
            let missing = Error::NotFound(format!("there is no stream {}", game.id));
            return Err(PageError::from(missing).saying(Say::new("error-no-game").arg("id", game.id.id())));
        }
        let ruled = if query.ruled.is_some() {
            format!("<p class=\"notice\" id=\"ruled\" role=\"status\">{}</p>", esc(&lang.t("desk-ruled")))
        } else {
            String::new()
        };
        let values =
            query.correct.map(|seq| crate::jury::desk::RuleForm::correcting(&game.records, seq)).unwrap_or_default();
        let rule = crate::jury::desk::form(lang, &game.id, &game.records, &values);
        let proof = proof_section(lang, &game, proofs.as_deref());
        Ok(format!("{ruled}{}{rule}{proof}", render(lang, &game, query.at, query.diff)?))
    })
    .await?;
    let title = lang.t_args("jury-title", &[("game", game.into())]);
    Ok(Html(shell(lang, &title, Some(&viewer), &body, &["jury.js"])).into_response())
}

/// The viewer in `lang`: the game at a point (its state, nations, clock and score sheet), each
/// event and each void worded from the ledger's typed values (`ledger_house::words`), in the
/// reader's language; the differences name their JSON paths, machine codes the jury finds in
/// `ledgerctl audit --json`. The Markdown report and `ledgerctl audit` keep the ledger's text.
fn render(lang: Lang, game: &Game, at: Option<u64>, diff: Option<u64>) -> Result<String, PageError> {
    let t = |id: &str| esc(&lang.t(id));
    let mut auditor = Auditor::from_records(game.ruleset, &game.records, game.ms_per_side).map_err(audit_error)?;
    let last = auditor.len();
    let at = at.unwrap_or(last).clamp(1, last);
    let point = auditor.goto(at).map_err(audit_error)?;
    let id = esc(game.id.id());
    let mut out =
        format!("<section class=\"jury\" id=\"jury\" data-game=\"{id}\" data-at=\"{at}\" data-last=\"{last}\">");
    out.push_str(&format!("<h1>{}</h1>", esc(&lang.t_args("jury-heading", &[("game", game.id.id().into())]))));
    // The chain: the digest for the paper report, and whether it verifies.
    let head = game.records.last().map(|r| r.envelope.hash);
    let verified = match verify_chain(&game.records) {
        Ok(_) => format!("<span class=\"ok\" id=\"chain\">{}</span>", t("jury-chain-ok")),
        Err(broken) => format!(
            "<span class=\"refusal\" id=\"chain\" data-ledger=\"{}\">{}</span>",
            esc(&broken.reason),
            esc(&lang.t_args("jury-chain-broken", &[("seq", broken.seq.into())])),
        ),
    };
    if let Some(head) = head {
        out.push_str(&format!(
            "<p class=\"digest\">{after} <strong id=\"digest\">{}</strong> · {verified} · \
             <a href=\"/jury/{id}/report.md\" id=\"report\" download>{report}</a><br>\
             <span class=\"muted mono\">{chain_head} {}</span></p>",
            short_digest(&head),
            hex::encode(head),
            after = esc(&lang.t_args("jury-digest", &[("last", last.into())])),
            report = t("jury-report"),
            chain_head = t("jury-chain-head"),
        ));
    }
    // Stepping.
    let step = |seq: u64, label: &str, html_id: &str| {
        let target = seq.clamp(1, last);
        format!("<a class=\"step\" id=\"{html_id}\" href=\"/jury/{id}?at={target}\">{label}</a>")
    };
    out.push_str(&format!(
        "<div class=\"stepper\">{}{}<input type=\"range\" id=\"slider\" min=\"1\" max=\"{last}\" value=\"{at}\" aria-label=\"{}\">\
         <output id=\"slider-at\">{at} / {last}</output>{}{}</div>",
        step(1, &t("jury-first"), "step-first"),
        step(at.saturating_sub(1), &t("jury-back"), "step-back"),
        t("jury-slider"),
        step(at + 1, &t("jury-next"), "step-next"),
        step(last, &t("jury-last"), "step-last"),
    ));
    out.push_str(&format!("<p class=\"hint\" id=\"ledger-text\">{}</p>", t("jury-ledger-text")));
    out.push_str("<div class=\"jury-columns\"><div class=\"jury-point\">");
    out.push_str(&format!(
        "<h2>{}</h2><div class=\"point\" id=\"point\">{}</div>",
        esc(&lang.t_args("jury-point", &[("at", at.into())])),
        words::sheet::point_html(lang, &point)
    ));
    // Differences between two points.
    out.push_str(&format!(
        "<form class=\"diff\" method=\"get\" action=\"/jury/{id}\"><input type=\"hidden\" name=\"at\" value=\"{at}\">\
         <label>{} <input type=\"number\" name=\"diff\" id=\"diff-with\" min=\"1\" max=\"{last}\" value=\"{}\"></label>\
         <button type=\"submit\" id=\"diff-go\">{}</button></form>",
        t("jury-compare"),
        diff.unwrap_or(at.saturating_sub(1).max(1)),
        t("jury-show-diff"),
    ));
    if let Some(other) = diff {
        let other = other.clamp(1, last);
        let before = auditor.goto(other).map_err(audit_error)?;
        let changes = audit::diff(&before, &point);
        let title = lang.t_args("jury-diff-title", &[("from", other.into()), ("to", at.into())]);
        out.push_str(&format!("<h3>{}</h3><ul class=\"changes\" id=\"changes\">", esc(&title)));
        if changes.is_empty() {
            out.push_str(&format!("<li>{}</li>", t("jury-no-difference")));
        }
        for change in changes {
            out.push_str(&format!("<li><code>{}</code></li>", esc(&change.to_string())));
        }
        out.push_str("</ul>");
    }
    out.push_str(&format!(
        "</div><div class=\"jury-timeline\"><h2>{}</h2><ol class=\"timeline\" id=\"timeline\">",
        t("jury-every-event")
    ));
    for entry in audit::timeline(&game.records) {
        let time = entry.table_time_ms.map_or_else(String::new, table_time_text);
        let class = match (entry.voided_by.is_some(), entry.seq == at) {
            (true, true) => "voided current",
            (true, false) => "voided",
            (false, true) => "current",
            (false, false) => "",
        };
        let note = entry.voided_by.as_ref().map(|void| void_note(lang, void)).unwrap_or_default();
        out.push_str(&format!(
            "<li value=\"{seq}\" class=\"{class}\" id=\"event-{seq}\"><a href=\"/jury/{id}?at={seq}\"><span class=\"event\">{text}</span></a> \
             <span class=\"muted\">{recorded} UTC · {actor} · {time}</span>{note}</li>",
            seq = entry.seq,
            text = esc(&words::events::sentence(lang, &entry.event)),
            recorded = audit::iso_utc(entry.recorded_at_ms),
            actor = esc(&entry.actor),
        ));
    }
    out.push_str("</ol></div></div></section>");
    Ok(out)
}

/// Why an event is struck through: the void that took it out, and the ruling before it.
fn void_note(lang: Lang, void: &audit::VoidNote) -> String {
    let mut text =
        lang.t_args("timeline-voided", &[("seq", void.void_seq.into()), ("reason", void.reason.clone().into())]);
    if let Some(ruling) = &void.ruling {
        text.push_str(" · ");
        text.push_str(
            &lang.t_args("timeline-ruling", &[("seq", ruling.seq.into()), ("text", ruling.text.clone().into())]),
        );
    }
    format!("<span class=\"void-note\">{}</span>", esc(&text))
}

/// The whole game proved in the ledger's signed log: a sentence, and the proof file to download
/// — every event of the game with its inclusion proof and the game's head in the checkpoint's
/// heads map, the file `ledgerctl prove` writes — to check offline with
/// `ledgerctl verify-proof --whole`; or why there is none yet.
fn proof_section(lang: Lang, game: &Game, proofs: Option<&dyn LatestCheckpoint>) -> String {
    let title = esc(&lang.t("jury-proof-title"));
    let Some(head) = game.records.last() else { return String::new() };
    let Some(proofs) = proofs else {
        return format!(
            "<section class=\"proof\" id=\"proof\"><h2>{title}</h2><p class=\"muted\" id=\"proof-none\">{}</p></section>",
            esc(&lang.t("jury-proof-unsigned"))
        );
    };
    let Some(proof) = proofs.whole_proof(&game.records) else {
        return format!(
            "<section class=\"proof\" id=\"proof\"><h2>{title}</h2><p class=\"muted\" id=\"proof-none\">{}</p></section>",
            esc(&lang.t("jury-proof-pending"))
        );
    };
    let id = esc(game.id.id());
    format!(
        "<section class=\"proof\" id=\"proof\"><h2>{title}</h2><p id=\"proof-lead\">{lead}</p>\
         <p><a href=\"/jury/{id}/proof.json\" id=\"proof-download\" download>{download}</a> · \
         <code>ledgerctl verify-proof --whole {id}.proof.json --key …</code></p></section>",
        lead = esc(&lang.t_args(
            "jury-proof-lead",
            &[
                ("seq", head.envelope.seq.into()),
                ("digest", short_digest(&head.envelope.hash).into()),
                ("size", proof.tree_size.into()),
            ]
        )),
        download = esc(&lang.t("jury-proof-download")),
    )
}

/// The game's proof file (`proof_section`'s download): the whole game, as `ledgerctl prove`
/// writes it against the same checkpoint.
pub(crate) async fn proof(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Response, PageError> {
    download(state, viewer, game, "application/json", ".proof.json", |game, proofs| {
        let Some(proof) = proofs.and_then(|proofs| proofs.whole_proof(&game.records)) else {
            let missing = Error::NotFound(format!("no signed checkpoint holds the last event of {} yet", game.id));
            return Err(PageError::from(missing).saying(Say::new("jury-proof-pending")));
        };
        Ok(proof.bundle.to_file().map_err(|e| Error::Internal(e.to_string()))?)
    })
    .await
}

/// The Markdown report, as `ledgerctl audit --report` writes it, ending with the whole game's
/// proof (the download's file) when a checkpoint holds it.
pub(crate) async fn report(
    State(state): State<WebState>,
    viewer: Viewer,
    Path(game): Path<String>,
) -> Result<Response, PageError> {
    download(state, viewer, game, "text/markdown; charset=utf-8", ".md", |game, proofs| {
        let seats = projections::game_seats(&game.streams, &game.id);
        let mut text = audit::report(&game.id, &game.records, seats.as_ref(), game.ruleset, game.ms_per_side)
            .map_err(audit_error)?;
        if let Some(head) = game.records.last() {
            if let Some(proof) = proofs.and_then(|proofs| proofs.whole_proof(&game.records)) {
                let section = proof.report_section(&game.id, head).map_err(|e| Error::Internal(e.to_string()))?;
                text.push('\n');
                text.push_str(section.trim_end());
                text.push('\n');
            }
        }
        Ok(text)
    })
    .await
}

/// A file about one game for the jury to download, `<game><suffix>`: `make` writes it from the
/// game and the ledger's signed checkpoints (if it signs any).
async fn download<F>(
    state: WebState,
    viewer: Viewer,
    game: String,
    content_type: &'static str,
    suffix: &'static str,
    make: F,
) -> Result<Response, PageError>
where
    F: FnOnce(&Game, Option<&dyn LatestCheckpoint>) -> Result<String, PageError> + Send + 'static,
{
    let id = game_id(&game)?;
    jury_only(&state, &viewer)?;
    let log = Arc::clone(&state.log);
    let proofs = state.proofs.clone();
    let (name, body) = blocking(move || {
        let game = Game::load(&log, id)?;
        let body = make(&game, proofs.as_deref())?;
        Ok((game.id.id().to_owned(), body))
    })
    .await?;
    let disposition = format!("attachment; filename=\"{name}{suffix}\"");
    Ok(([(header::CONTENT_TYPE, content_type.to_owned()), (header::CONTENT_DISPOSITION, disposition)], body)
        .into_response())
}
