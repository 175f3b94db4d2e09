//! Names in the reader's alphabetical order (issue 41): "Águila" before "Zorro" in Spanish, where
//! a plain comparison of code points puts every accented letter after `z`. A comparison key, not
//! a full Unicode collation (ICU's tables would be a large dependency for lists of a few dozen
//! names): letters are compared without case and accents first (`á` as `a`), then with their
//! accents (unaccented first), then as written; Spanish orders `ñ` as a letter of its own after
//! `n`, as its alphabet does. Letters beyond Latin-1 and Latin Extended-A keep their code
//! points' order.

use super::Lang;

/// The order of `text` among names read in `lang`: compare keys, not strings.
pub fn key(lang: Lang, text: &str) -> (Vec<u32>, Vec<u8>, String) {
    let mut primary = Vec::with_capacity(text.len());
    let mut accents = Vec::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        let (base, accent) = fold(c);
        // Spanish: ñ is the letter after n (primary weight between n's and o's).
        let weight = if base == 'n' && accent != 0 && c == 'ñ' && lang == Lang::Es {
            u32::from('n') * 2 + 1
        } else {
            u32::from(base) * 2
        };
        primary.push(weight);
        accents.push(accent);
    }
    (primary, accents, text.to_owned())
}

/// A lower-case letter's base letter and which accent it carries (0: none).
fn fold(c: char) -> (char, u8) {
    const TABLE: [(char, &str); 14] = [
        ('a', "àáâãäåāăą"),
        ('c', "çćĉċč"),
        ('d', "ď"),
        ('e', "èéêëēĕėęě"),
        ('g', "ĝğġģ"),
        ('i', "ìíîïĩīĭįı"),
        ('l', "ĺļľŀł"),
        ('n', "ñńņňŉ"),
        ('o', "òóôõöøōŏő"),
        ('r', "ŕŗř"),
        ('s', "śŝşš"),
        ('t', "ţťŧ"),
        ('u', "ùúûüũūŭůűų"),
        ('y', "ýÿŷ"),
    ];
    for (base, accented) in TABLE {
        if let Some(at) = accented.chars().position(|a| a == c) {
            return (base, u8::try_from(at + 1).unwrap_or(u8::MAX));
        }
    }
    match c {
        'ź' | 'ż' | 'ž' => ('z', 1),
        _ => (c, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(lang: Lang, names: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        names.sort_by_cached_key(|n| key(lang, n));
        names
    }

    #[test]
    fn accented_names_sort_with_their_letter_in_both_languages() {
        let names = ["Zorro", "Águila", "águila", "Aguila", "Oso", "Ñandú", "Nutria", "Élan", "Eva"];
        assert_eq!(
            sorted(Lang::Es, &names),
            ["Aguila", "Águila", "águila", "Élan", "Eva", "Nutria", "Ñandú", "Oso", "Zorro"],
            "Spanish: ñ after n, accents only break ties"
        );
        assert_eq!(
            sorted(Lang::En, &names),
            ["Aguila", "Águila", "águila", "Élan", "Eva", "Ñandú", "Nutria", "Oso", "Zorro"],
            "English: ñ is an n"
        );
    }
}
