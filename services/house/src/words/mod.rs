//! The ledger's typed values said in the reader's language: a refusal's [`Reason`] (the rules
//! give a message id and typed arguments, never a sentence for people), bad input
//! ([`input`]), the events of a game or a match as sentences ([`events`]), and the jury's
//! score sheets and game states ([`sheet`]). The domain crates stay free of words; the pages
//! (`ledger-web`) and the paper call these, with the language of the request.
//!
//! A name of the rules' vocabulary (a nation, a role, an event type) arrives as its key and is
//! said by the catalogue message `<family>-<key>`; a key the catalogue does not know is said as
//! it is, so a page never goes blank.

pub mod events;
pub mod input;
pub mod sheet;

use crate::i18n::Lang;
use fluent_bundle::FluentValue;
use ledger::{Arg, Reason, Rejection, RejectionKind};

/// A word of the rules' vocabulary in `lang`: `nation` `russia` → "Rusia".
pub fn name(lang: Lang, family: &str, key: &str) -> String {
    let id = format!("{family}-{key}");
    if lang.has(&id) {
        lang.t(&id)
    } else {
        key.to_owned()
    }
}

/// A player the tournament knows by no pseudonym, as the ledger numbers them (`player 3`,
/// `stand-in 2`, `stand-in 2 #2`: `crate::projections::pseudonyms`), in `lang`; a pseudonym
/// as it is.
pub fn alias(lang: Lang, text: &str) -> String {
    let (base, suffix) = match text.rsplit_once(" #") {
        Some((base, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => (base, &text[base.len()..]),
        _ => (text, ""),
    };
    let numbered = |prefix: &str| base.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
    let (id, n) = match (numbered("player "), numbered("stand-in ")) {
        (Some(n), _) => ("alias-player", n),
        (_, Some(n)) => ("alias-stand-in", n),
        _ => return text.to_owned(),
    };
    format!("{}{suffix}", lang.t_args(id, &[("n", n.into())]))
}

/// The sentence of `reason` in `lang`, its names and nested reasons worded too.
pub fn reason(lang: Lang, reason: &Reason) -> String {
    lang.t_args(reason.id, &worded(lang, reason))
}

/// [`reason`], or why its message cannot say it (missing, or a variable not given).
///
/// # Errors
/// What is wrong with the message or its arguments.
pub fn reason_strict(lang: Lang, reason: &Reason) -> Result<String, String> {
    lang.t_args_strict(reason.id, &worded(lang, reason))
}

fn worded<'a>(lang: Lang, reason: &'a Reason) -> Vec<(&'a str, FluentValue<'static>)> {
    reason
        .args
        .iter()
        .map(|(key, arg)| {
            let value = match arg {
                Arg::Text(text) => FluentValue::from(text.clone()),
                Arg::Number(n) => FluentValue::from(*n),
                Arg::Name(family, key) => FluentValue::from(name(lang, family, key)),
                Arg::Names(family, keys) => {
                    FluentValue::from(keys.iter().map(|k| name(lang, family, k)).collect::<Vec<_>>().join(", "))
                }
                Arg::Said(inner) => FluentValue::from(self::reason(lang, inner)),
            };
            (*key, value)
        })
        .collect()
}

/// The arguments of `reason` as plain JSON (names as their keys), for a script that words them
/// with the same catalogues (the tablets' `refusalText`).
pub fn plain_args(reason: &Reason) -> serde_json::Map<String, serde_json::Value> {
    reason
        .args
        .iter()
        .map(|(key, arg)| {
            let value = match arg {
                Arg::Number(n) => serde_json::Value::from(*n),
                other => serde_json::Value::from(other.plain()),
            };
            ((*key).to_owned(), value)
        })
        .collect()
}

/// A refusal in `lang`: its reason's sentence, with the refused event of an append named in
/// front; a refusal the rules gave no words is said by its kind.
pub fn refusal(lang: Lang, rejection: &Rejection) -> String {
    let sentence = match &rejection.reason {
        Some(said) => reason(lang, said),
        None => of_kind(lang, rejection.kind),
    };
    match rejection.event {
        Some(event) => lang.t_args("refusal-in-event", &[("event", event.into()), ("sentence", sentence.into())]),
        None => sentence,
    }
}

/// What a refusal of `kind` means, when the rules gave it no words of its own.
pub fn of_kind(lang: Lang, kind: RejectionKind) -> String {
    lang.t(match kind {
        RejectionKind::Malformed => "refusal-kind-malformed",
        RejectionKind::Precondition => "refusal-kind-precondition",
        RejectionKind::StaleVersion => "refusal-stale",
        RejectionKind::DuplicateId => "refusal-kind-duplicate",
        RejectionKind::NotAllowed => "refusal-kind-not-allowed",
        RejectionKind::Exhausted => "refusal-exhausted",
    })
}

#[cfg(test)]
mod tests;
