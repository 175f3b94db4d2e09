//! Issue 33, item 5: Spanish without leaks. On a real ledgerd holding a day in a Spanish hall
//! ([`hall`](crate::hall): a tournament ended with its final, one in its second round, one
//! drawn, an Andes match), a crawler asks for every page in Spanish (the `ledger_lang=es`
//! cookie against a browser that prefers English), signed in as the organiser and then as the
//! jury, starting at `/` and following every same-origin link (bounded, deduplicated; assets,
//! CSV, JSON, live streams and downloads left out). Every page and printout fails on:
//! - an English word: one that the English catalogues (`house/src/i18n/en/*.ftl`) use and no
//!   Spanish catalogue does, less the few names both languages share ([`ALLOWED`]);
//! - an id meant for machines: a snake_case role or enum id (`maria_theresa`) or a CamelCase
//!   enum name (`FewestQualifyingWins`);
//! - a decimal point in a number (Spanish writes the comma).
//!
//! No text is left out for being declared English (issue 41: the jury's timeline, score sheets
//! and the Andes explanations are worded in the reader's language now); `<pre>`/`<code>` blocks
//! (signed notes, commands, the JSON paths of a diff) and RFC 3339 times (the jury's
//! `17:16:53.519Z`) are. The crawl lists the pages it visited and must have reached at least the
//! known ones, so pages added later are walked once linked. Then the refusals a hall meets and
//! the jury's and the Andes tablet's screens in Chromium ([`crate::spanish_refusals`]).

use crate::hall;
use crate::languages::http_at;
use crate::season::{Ledger, JURY_TOKEN, ORGANISER_TOKEN};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// Words of the English catalogues that are not English on a Spanish page: names of games,
/// rulesets and rules both languages write the same way but the Spanish catalogues happen not
/// to use.
const ALLOWED: &[&str] = &["wm", "cafe", "pompadour", "andes", "sol", "luna"];

/// Proper names written in CamelCase, which are not enum names.
const NAMES: &[&str] = &["JavaScript"];

/// The most pages one crawl asks for, and the most of one shape (a path with the same query
/// keys: the jury's `?at=` steps are one shape).
const MAX_PAGES: usize = 400;
const MAX_OF_A_SHAPE: usize = 3;

/// The words of a catalogue's messages: values only (ids, comments, selectors and placeables
/// left out), lowercased.
fn catalogue_words(lang: &str) -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("house/src/i18n").join(lang);
    let mut words = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines() {
            if line.trim_start().starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let value = match line.starts_with(char::is_whitespace) {
                // A variant (`[one] …`, `*[other] …`) or a continued line.
                true => line.trim_start().trim_start_matches('*').split_once(']').map_or(line, |(_, rest)| rest),
                false => line.split_once('=').map_or("", |(_, value)| value),
            };
            words.extend(words_of(&without_placeables(value)));
        }
    }
    words
}

/// `text` without its `{ … }` placeables.
fn without_placeables(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => out.push(' '),
        }
    }
    out
}

/// The words of `text` (letters only, two or more), lowercased.
pub(crate) fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphabetic()).filter(|w| w.chars().count() >= 2).map(str::to_lowercase).collect()
}

/// The English words a Spanish page must not say.
pub(crate) fn english_only() -> BTreeSet<String> {
    let spanish = catalogue_words("es");
    catalogue_words("en").into_iter().filter(|w| !spanish.contains(w) && !ALLOWED.contains(&w.as_str())).collect()
}

/// `html` with the elements named `tag` (and their content) left out.
fn without_elements(html: &str, open: &str, close: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find(open) {
        out.push_str(&rest[..start]);
        match rest[start..].find(close) {
            Some(end) => rest = &rest[start + end + close.len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// What a reader sees of a page: its text (scripts, styles, `<pre>` and `<code>` left out) and
/// the attributes shown as text (`title`, `alt`, `placeholder`, `aria-label`), entities decoded.
pub(crate) fn visible_text(html: &str) -> String {
    let mut html = html.to_owned();
    for (open, close) in [("<script", "</script>"), ("<style", "</style>"), ("<pre", "</pre>"), ("<code", "</code>")] {
        html = without_elements(&html, open, close);
    }
    let mut out = String::with_capacity(html.len());
    let mut rest = html.as_str();
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('>') else { break };
        let tag = &rest[start..start + end];
        for attribute in ["title=\"", "alt=\"", "placeholder=\"", "aria-label=\""] {
            if let Some(at) = tag.find(attribute) {
                let value = &tag[at + attribute.len()..];
                out.push(' ');
                out.push_str(value.split('"').next().unwrap_or_default());
            }
        }
        out.push(' ');
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    for (entity, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")]
    {
        out = out.replace(entity, c);
    }
    out
}

/// What is wrong with a Spanish page's text: English words, machine ids, decimal points.
pub(crate) fn leaks(text: &str, english: &BTreeSet<String>) -> Vec<String> {
    // A printed link (a player's personal link) is an address, not words: blanked out.
    let mut kept = String::with_capacity(text.len());
    for piece in text.split_inclusive(char::is_whitespace) {
        if piece.starts_with("http://") || piece.starts_with("https://") {
            kept.extend(piece.chars().map(|c| if c.is_whitespace() { c } else { ' ' }));
        } else {
            kept.push_str(piece);
        }
    }
    let text = kept.as_str();
    let mut found = Vec::new();
    let context = |at: usize| {
        let start = text.floor_char_boundary(at.saturating_sub(40));
        let end = text.ceil_char_boundary((at + 40).min(text.len()));
        text[start..end].split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut at = 0;
    for token in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let here = at;
        at += token.len() + 1;
        if token.is_empty() {
            continue;
        }
        let letters = |w: &str| w.chars().any(char::is_alphabetic);
        if token.contains('_') && token.split('_').filter(|part| letters(part)).count() >= 2 {
            found.push(format!("the id {token:?} in «{}»", context(here)));
            continue;
        }
        let uppercase = token.chars().filter(char::is_ascii_uppercase).count();
        let camel = token.starts_with(|c: char| c.is_ascii_uppercase())
            && uppercase >= 2
            && token.chars().any(|c| c.is_ascii_lowercase())
            && token.chars().all(|c| c.is_ascii_alphabetic());
        if camel && !NAMES.contains(&token) {
            found.push(format!("the enum name {token:?} in «{}»", context(here)));
            continue;
        }
        for word in token.split('_').filter(|w| w.chars().all(char::is_alphabetic)).map(str::to_lowercase) {
            if english.contains(&word) {
                found.push(format!("the English word {word:?} in «{}»", context(here)));
            }
        }
    }
    let bytes = text.as_bytes();
    // An RFC 3339 time (`17:16:53.519Z`) is a stable code the jury compares with logs.
    let timestamp = |i: usize| {
        i >= 8
            && bytes[i - 3] == b':'
            && text[i + 1..].trim_start_matches(|c: char| c.is_ascii_digit()).starts_with('Z')
    };
    // An article of the Andes laws (`Artículo 6.6.1`) is a section's number, not a decimal.
    let article = |i: usize| {
        let start = text[..i].trim_end_matches(|c: char| c.is_ascii_digit() || c == '.').len();
        text[..start].ends_with("rtículo ")
    };
    for i in 1..bytes.len().saturating_sub(1) {
        if bytes[i] == b'.'
            && bytes[i - 1].is_ascii_digit()
            && bytes[i + 1].is_ascii_digit()
            && !timestamp(i)
            && !article(i)
        {
            found.push(format!("a decimal point in «{}»", context(i)));
        }
    }
    found
}

/// The same-origin links of a page worth following: pages, not assets, CSV, JSON, downloads,
/// live streams or the language switch.
fn links(html: &str, web: &str) -> Vec<String> {
    let skipped = |path: &str| {
        let bare = path.split('?').next().unwrap_or_default();
        path.starts_with("/assets/")
            || path.starts_with("/lang")
            || bare.ends_with("/live")
            || [".csv", ".json", ".md", ".js", ".svg", ".png", ".webmanifest", ".jsonl"]
                .iter()
                .any(|e| bare.ends_with(e))
    };
    html.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(|href| href.replace("&amp;", "&"))
        .map(|href| href.split('#').next().unwrap_or_default().to_owned())
        // A printed link names the site in full (a player's personal link): it is ours too.
        .map(|href| {
            let site = href.strip_prefix("http://").or_else(|| href.strip_prefix("https://")).unwrap_or_default();
            site.strip_prefix(web).filter(|path| path.starts_with('/')).map_or_else(|| href.clone(), str::to_owned)
        })
        .filter(|href| href.starts_with('/') && !href.starts_with("//") && !skipped(href))
        .collect()
}

/// A page's shape: its path and the names of its query's keys.
fn shape(path: &str) -> String {
    let (bare, query) = path.split_once('?').unwrap_or((path, ""));
    let mut keys: Vec<&str> = query.split('&').filter_map(|pair| pair.split('=').next()).collect();
    keys.sort_unstable();
    format!("{bare}?{}", keys.join("&"))
}

/// One crawl as the holder of `token`, in Spanish, from `starts`: the pages visited (with their
/// status) and what was wrong on them.
async fn crawl(web: &str, token: &str, starts: &[String], english: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    let cookie = format!("ledger_token={}; ledger_lang=es", hex::encode(token));
    let headers = [("Accept-Language", "en-GB,en;q=0.9".to_owned()), ("Cookie", cookie)];
    let mut queue: VecDeque<String> = starts.iter().cloned().collect();
    let mut seen: BTreeSet<String> = queue.iter().cloned().collect();
    let mut shapes: BTreeMap<String, usize> = BTreeMap::new();
    let (mut visited, mut wrong) = (Vec::new(), Vec::new());
    while let Some(path) = queue.pop_front() {
        assert!(visited.len() < MAX_PAGES, "more than {MAX_PAGES} pages: {visited:#?}");
        let answer = http_at(web, "GET", &path, &headers, "").await;
        assert!(answer.status < 500, "{path}: {}\n{}", answer.head, answer.body);
        if (300..400).contains(&answer.status) {
            let location =
                answer.head.lines().find_map(|l| l.strip_prefix("location: ").or(l.strip_prefix("Location: ")));
            visited.push(format!("{path} → {}", location.unwrap_or("?")));
            continue;
        }
        visited.push(format!("{path} ({})", answer.status));
        if !answer.body.contains("<html lang=\"es\">") {
            wrong.push(format!("{path}: not a Spanish page"));
        }
        wrong.extend(leaks(&visible_text(&answer.body), english).into_iter().map(|leak| format!("{path}: {leak}")));
        for link in links(&answer.body, web) {
            let count = shapes.entry(shape(&link)).or_default();
            if *count < MAX_OF_A_SHAPE && seen.insert(link.clone()) {
                *count += 1;
                queue.push_back(link);
            }
        }
    }
    (visited, wrong)
}

#[test]
fn the_leak_finder_finds_english_ids_and_decimal_points() {
    let english = english_only();
    for word in ["withdrew", "tied", "running", "stand"] {
        assert!(english.contains(word), "{word} is not on the list");
    }
    for spanish in ["partida", "final", "total", "ronda"] {
        assert!(!english.contains(spanish), "{spanish} is on the list");
    }
    let page = "<html lang=\"es\"><title>Clasificación</title><p>suplente 1 · stand-in 2</p><td>13.5</td>\
                <td>12,5 (Isabel 6,7)</td><span class=\"event\" lang=\"en\">turn_started</span>\
                <p title=\"FewestQualifyingWins\">maria_theresa</p><pre>sha256 1.2</pre>";
    let found = leaks(&visible_text(page), &english);
    assert_eq!(found.len(), 6, "{found:#?}");
    assert!(found[0].contains("\"stand\"") && found[1].contains("\"in\""), "{found:#?}");
    assert!(found[2].contains("\"turn_started\""), "text marked English is no exception: {found:#?}");
    assert!(found[3].contains("FewestQualifyingWins") && found[4].contains("\"maria_theresa\""), "{found:#?}");
    assert!(found[5].contains("decimal point"), "{found:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_and_printout_in_spanish_says_no_english_word_no_id_and_no_decimal_point() {
    let ledger = Ledger::signed().await;
    let ledger = tokio::task::spawn_blocking(move || {
        hall::build(&ledger);
        ledger
    })
    .await
    .unwrap();
    let english = english_only();
    let web = ledger.web.clone();
    // The organiser from the front page; the jury too, with the games the front page's forms
    // open by id (the replay viewer is the jury's, linked from nowhere an organiser sees).
    let running = hall::running_game(&ledger);
    let mut visited = Vec::new();
    let mut wrong = Vec::new();
    let (organiser_saw, organiser_found) = crawl(&web, ORGANISER_TOKEN, &["/".to_owned()], &english).await;
    let jury_starts: Vec<String> = ["/".to_owned(), format!("/jury/{}-final", hall::ENDED), format!("/jury/{running}")]
        .into_iter()
        .chain([format!("/table/{running}")])
        .collect();
    let (jury_saw, jury_found) = crawl(&web, JURY_TOKEN, &jury_starts, &english).await;
    for (who, saw, found) in [("organiser", organiser_saw, organiser_found), ("jury", jury_saw, jury_found)] {
        eprintln!("the {who} visited {} pages:\n  {}", saw.len(), saw.join("\n  "));
        visited.extend(saw);
        wrong.extend(found.into_iter().map(|leak| format!("as the {who}: {leak}")));
    }
    let t = hall::ENDED;
    let known = [
        format!("/board/{t} "),
        format!("/board/{t}?projector "),
        format!("/board/{} ", hall::MID_ROUND),
        format!("/board/{} ", hall::DRAWN),
        format!("/paper/{t} "),
        format!("/paper/{t}/pairings/1 "),
        format!("/paper/{t}/sheets/1 "),
        format!("/paper/{t}/standings "),
        format!("/jury/{t}-final"),
        "/analyst ".to_owned(),
        format!("/andes/{} ", hall::ANDES),
        format!("/table/{running} "),
        "/jury ".to_owned(),
        format!("/organise/{t} "),
        format!("/organise/{t}/codes "),
        format!("/pairings/{t}/1 "),
        format!("/me/{t}/"),
    ];
    for page in &known {
        assert!(visited.iter().any(|v| v.starts_with(page.as_str())), "the crawl never reached {page}");
    }
    wrong.extend(crate::spanish_refusals::refusals(&ledger, &english).await);
    wrong.extend(crate::spanish_refusals::in_a_browser(&ledger, &english).await);
    assert!(wrong.is_empty(), "{} leaks on Spanish pages:\n{}", wrong.len(), wrong.join("\n"));
    // The Andes board says its match in words: points, winner, levels (9.5: from games won).
    let cookie = format!("ledger_lang=es; ledger_token={}", hex::encode(ORGANISER_TOKEN));
    let andes = http_at(&web, "GET", &format!("/andes/{}", hall::ANDES), &[("Cookie", cookie)], "").await;
    let summary = andes.body.split("id=\"andes-summary\"").nth(1).unwrap_or_default();
    assert!(summary.contains("gana el encuentro") || summary.contains("empate"), "{summary}");
    assert!(summary.contains("Nivel de") || summary.contains("aún no tiene nivel"), "{summary}");
}
