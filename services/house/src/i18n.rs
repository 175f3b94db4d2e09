//! Spanish and English: Project Fluent catalogues (`assets/i18n/<lang>/*.ftl`), the very files
//! the table page's script formats with in the browser (`@fluent/bundle`), so a label reads the
//! same whether ledgerd or the tablet wrote it. A page's language is chosen by the web
//! (`ledger_web`'s `i18n`: the cookie, else the best match of `Accept-Language` by [`negotiate`],
//! else English); `ledgerctl`'s paper names it.

pub mod collate;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use std::sync::LazyLock;
use unic_langid::LanguageIdentifier;

/// A language every page is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    En,
    Es,
}

/// The catalogue files: language, file name (served at `/assets/i18n/<lang>/<file>`), text.
/// `pages.ftl` the table and every page's frame, `rules.ftl` the game's names and refusals (the
/// table's script loads these two), `site.ftl` the board, jury, analysts', sign-in and index
/// pages and every refusal, `andes.ftl` the Andes board, `andes-rules.ftl` the Andes laws'
/// refusals and `andes-table.ftl` the Andes recording mode (its script loads these two with
/// `pages.ftl`); `paper.ftl` what the organiser prints (`crate::paper`, the web's `paper`); `organise.ftl` the
/// organiser's console (the web's `organise`); `jury.ftl` the jury's desk and rulings (`jury_desk`);
/// `hall.ftl` the sheet that makes a tablet trust a hall without internet (the web's `trust`);
/// `ratings.ftl` the analysts' ratings and the balance by year and ruleset (the web's `ratings`);
/// `refusals.ftl` every other refusal of the rules (the tournament's, the store's, shapes of bad
/// input: [`crate::words`]); `words.ftl` the jury's words for states, timelines and score sheets.
pub const CATALOGUES: &[(Lang, &str, &str)] = &[
    (Lang::En, "pages.ftl", include_str!("i18n/en/pages.ftl")),
    (Lang::En, "rules.ftl", include_str!("i18n/en/rules.ftl")),
    (Lang::En, "site.ftl", include_str!("i18n/en/site.ftl")),
    (Lang::En, "andes.ftl", include_str!("i18n/en/andes.ftl")),
    (Lang::En, "andes-rules.ftl", include_str!("i18n/en/andes-rules.ftl")),
    (Lang::En, "andes-table.ftl", include_str!("i18n/en/andes-table.ftl")),
    (Lang::En, "paper.ftl", include_str!("i18n/en/paper.ftl")),
    (Lang::En, "organise.ftl", include_str!("i18n/en/organise.ftl")),
    (Lang::En, "jury.ftl", include_str!("i18n/en/jury.ftl")),
    (Lang::En, "hall.ftl", include_str!("i18n/en/hall.ftl")),
    (Lang::En, "ratings.ftl", include_str!("i18n/en/ratings.ftl")),
    (Lang::En, "refusals.ftl", include_str!("i18n/en/refusals.ftl")),
    (Lang::En, "words.ftl", include_str!("i18n/en/words.ftl")),
    (Lang::Es, "pages.ftl", include_str!("i18n/es/pages.ftl")),
    (Lang::Es, "rules.ftl", include_str!("i18n/es/rules.ftl")),
    (Lang::Es, "site.ftl", include_str!("i18n/es/site.ftl")),
    (Lang::Es, "andes.ftl", include_str!("i18n/es/andes.ftl")),
    (Lang::Es, "andes-rules.ftl", include_str!("i18n/es/andes-rules.ftl")),
    (Lang::Es, "andes-table.ftl", include_str!("i18n/es/andes-table.ftl")),
    (Lang::Es, "paper.ftl", include_str!("i18n/es/paper.ftl")),
    (Lang::Es, "organise.ftl", include_str!("i18n/es/organise.ftl")),
    (Lang::Es, "jury.ftl", include_str!("i18n/es/jury.ftl")),
    (Lang::Es, "hall.ftl", include_str!("i18n/es/hall.ftl")),
    (Lang::Es, "ratings.ftl", include_str!("i18n/es/ratings.ftl")),
    (Lang::Es, "refusals.ftl", include_str!("i18n/es/refusals.ftl")),
    (Lang::Es, "words.ftl", include_str!("i18n/es/words.ftl")),
];

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Es];

    /// Its BCP 47 tag, as in `<html lang>` and the cookie.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// Whether the catalogue of this language holds the message `id`.
    pub fn has(self, id: &str) -> bool {
        BUNDLES[self as usize].get_message(id).is_some_and(|m| m.value().is_some())
    }

    /// The message `id` in this language, without arguments.
    pub fn t(self, id: &str) -> String {
        self.format(id, None)
    }

    /// The message `id` with its variables, e.g. `lang.t_args("sync-waiting", &[("count", 4.into())])`.
    pub fn t_args(self, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            fluent.set(*name, value.clone());
        }
        self.format(id, Some(&fluent))
    }

    /// An exact decimal's text as this language writes it: the string is rewritten, never
    /// parsed, so every digit stays. Spanish writes the decimal comma (`12,35`), English the
    /// point; fractions (`50/9`) and whole numbers are the same in both, and nothing is grouped.
    pub fn decimal(self, text: &str) -> String {
        match self {
            Lang::En => text.to_owned(),
            Lang::Es => {
                let chars: Vec<char> = text.chars().collect();
                let digit = |at: Option<&char>| at.is_some_and(char::is_ascii_digit);
                chars
                    .iter()
                    .enumerate()
                    .map(|(at, &c)| {
                        if c == '.' && at > 0 && digit(chars.get(at - 1)) && digit(chars.get(at + 1)) {
                            ','
                        } else {
                            c
                        }
                    })
                    .collect()
            }
        }
    }

    /// [`Lang::t_args`], or what went wrong: the message is missing, or a variable it uses was
    /// not given (for the tests that hold every refusal's words to its message).
    ///
    /// # Errors
    /// The missing message or the formatting errors, as text.
    pub fn t_args_strict(self, id: &str, args: &[(&str, FluentValue<'_>)]) -> Result<String, String> {
        let mut fluent = FluentArgs::new();
        for (name, value) in args {
            fluent.set(*name, value.clone());
        }
        let bundle = &BUNDLES[self as usize];
        let pattern = bundle.get_message(id).and_then(|m| m.value()).ok_or_else(|| format!("no message {id}"))?;
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&fluent), &mut errors);
        if errors.is_empty() {
            Ok(text.into_owned())
        } else {
            Err(format!("{id}: {errors:?}"))
        }
    }

    fn format(self, id: &str, args: Option<&FluentArgs<'_>>) -> String {
        let bundle = &BUNDLES[self as usize];
        let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
            // Caught by the catalogue tests; a page never goes blank for a missing label.
            tracing::warn!(lang = self.code(), id, "a message is missing from the catalogue");
            return id.to_owned();
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        if !errors.is_empty() {
            tracing::warn!(lang = self.code(), id, ?errors, "a message did not format cleanly");
        }
        text.into_owned()
    }
}

/// The best of our languages for an `Accept-Language` header (RFC 9110, quality values honoured).
pub fn negotiate(accept_language: &str) -> Lang {
    let requested = fluent_langneg::accepted_languages::parse(accept_language);
    let available: Vec<LanguageIdentifier> = Lang::ALL.iter().filter_map(|lang| lang.code().parse().ok()).collect();
    let default: LanguageIdentifier = Lang::En.code().parse().expect("`en` is a language tag");
    let chosen = fluent_langneg::negotiate_languages(
        &requested,
        &available,
        Some(&default),
        fluent_langneg::NegotiationStrategy::Lookup,
    );
    chosen.first().and_then(|id| Lang::from_code(id.language.as_str())).unwrap_or(Lang::En)
}

/// One bundle per language, indexed by `Lang as usize`; the catalogues are compiled in, and a
/// catalogue that does not parse fails the tests below, never a page.
static BUNDLES: LazyLock<Vec<FluentBundle<FluentResource>>> = LazyLock::new(|| {
    Lang::ALL
        .iter()
        .map(|&lang| {
            let id: LanguageIdentifier = lang.code().parse().expect("our tags parse");
            let mut bundle = FluentBundle::new_concurrent(vec![id]);
            // Plain text in HTML: no Unicode isolation marks around the variables.
            bundle.set_use_isolating(false);
            // NUMBER(): the catalogues write whole numbers without grouping (`2001`, as the
            // ledger's own sentences do, not `2,001`), in ledgerd and in the browser alike.
            if let Err(error) = bundle.add_builtins() {
                tracing::error!(lang = lang.code(), %error, "Fluent's built-in functions");
            }
            for (_, _, text) in CATALOGUES.iter().filter(|(l, _, _)| *l == lang) {
                let resource = FluentResource::try_new((*text).to_owned()).unwrap_or_else(|(resource, errors)| {
                    tracing::error!(lang = lang.code(), ?errors, "a catalogue does not parse");
                    resource
                });
                if let Err(errors) = bundle.add_resource(resource) {
                    tracing::error!(lang = lang.code(), ?errors, "a catalogue repeats a message");
                }
            }
            bundle
        })
        .collect()
});

/// A catalogue file as the browser fetches it.
pub fn catalogue(lang: &str, file: &str) -> Option<&'static str> {
    let lang = Lang::from_code(lang)?;
    CATALOGUES.iter().find(|(l, name, _)| *l == lang && *name == file).map(|(_, _, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_syntax::ast;

    fn ids(text: &str) -> Vec<String> {
        let resource = fluent_syntax::parser::parse(text).unwrap_or_else(|(_, errors)| panic!("{errors:?}"));
        resource
            .body
            .iter()
            .filter_map(|entry| match entry {
                ast::Entry::Message(m) => Some(m.id.name.to_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn both_languages_parse_and_say_the_same_things() {
        let files: std::collections::BTreeSet<&str> = CATALOGUES.iter().map(|(_, file, _)| *file).collect();
        for file in files {
            let mut en = ids(catalogue("en", file).unwrap());
            let mut es = ids(catalogue("es", file).unwrap());
            en.sort();
            es.sort();
            assert_eq!(en, es, "{file}: the English and Spanish catalogues name different messages");
            for id in &en {
                for lang in Lang::ALL {
                    let text = lang.t(id);
                    assert!(!text.is_empty() && text != *id, "{}: {id} is empty", lang.code());
                }
            }
        }
    }

    #[test]
    fn the_best_of_our_languages_for_the_browser() {
        assert_eq!(negotiate("es-ES,es;q=0.9,en;q=0.8"), Lang::Es);
        assert_eq!(negotiate("de-DE,en;q=0.5"), Lang::En);
        assert_eq!(negotiate("de-DE"), Lang::En);
        assert_eq!(negotiate(""), Lang::En);
    }

    #[test]
    fn decimals_keep_every_digit_in_each_language() {
        assert_eq!(Lang::Es.decimal("12.375"), "12,375");
        assert_eq!(Lang::Es.decimal("-0.1368 – 0.6943"), "-0,1368 – 0,6943");
        assert_eq!(Lang::Es.decimal("50/9"), "50/9");
        assert_eq!(Lang::Es.decimal("game q1.t2."), "game q1.t2.");
        assert_eq!(Lang::En.decimal("12.375"), "12.375");
    }

    #[test]
    fn variables_and_plurals_format_in_each_language() {
        let one = Lang::Es.t_args("sync-waiting", &[("count", 1.into())]);
        let four = Lang::Es.t_args("sync-waiting", &[("count", 4.into())]);
        assert!(one.starts_with("1 acción") && four.starts_with("4 acciones"), "{one} / {four}");
        assert!(Lang::En.t_args("sync-waiting", &[("count", 4.into())]).starts_with("4 actions waiting"));
    }
}
