//! A console form as posted: its fields, read into the command layer's [`Command`]s. Plain
//! HTML forms, so every value arrives as text; each is checked here for its form (a number, a
//! role, a ruleset) with a sentence in the reader's language, and everything else — whether
//! the tournament takes it — is the rules' to say when the command is planned.

use crate::i18n::Say;
use crate::PageError;
use ledger::{Role, Ruleset};
use ledger_house::commands::roster::{self, Registration};
use ledger_house::commands::Command;
use ledger_house::error::Error;

/// The most fields a console form posts (a lot's tied players are the most): more is not a form
/// of ours.
const MAX_FIELDS: usize = 400;

/// A form's fields, in the order posted (a field may repeat: the players of a lot).
#[derive(Debug, Clone, Default)]
pub(crate) struct Fields(Vec<(String, String)>);

impl Fields {
    pub(crate) fn new(fields: Vec<(String, String)>) -> Result<Fields, PageError> {
        if fields.len() > MAX_FIELDS {
            return Err(invalid("too many fields", Say::new("organise-error-form")));
        }
        Ok(Fields(fields))
    }

    /// A field's value, trimmed; `None` when missing or empty.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim()).filter(|v| !v.is_empty())
    }

    /// Every value of a repeated field.
    pub(crate) fn all(&self, name: &str) -> Vec<String> {
        self.0.iter().filter(|(k, v)| k == name && !v.trim().is_empty()).map(|(_, v)| v.trim().to_owned()).collect()
    }

    /// The fields as posted, but those named in `leave`: what a preview carries on to its
    /// confirmation.
    pub(crate) fn pairs<'a>(&'a self, leave: &'a [&str]) -> impl Iterator<Item = &'a (String, String)> {
        self.0.iter().filter(move |(k, _)| !leave.contains(&k.as_str()))
    }

    fn required(&self, name: &'static str) -> Result<String, PageError> {
        self.get(name)
            .map(str::to_owned)
            .ok_or_else(|| invalid(&format!("{name} is required"), Say::new("organise-error-required")))
    }

    fn number<T: std::str::FromStr>(&self, name: &'static str) -> Result<Option<T>, PageError> {
        self.get(name)
            .map(|v| {
                v.parse::<T>().map_err(|_| {
                    invalid(
                        &format!("{name} must be a whole number, got {v}"),
                        Say::new("organise-error-number").arg("value", v),
                    )
                })
            })
            .transpose()
    }

    fn checked(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// A form refused for its form: INVALID_ARGUMENT, said as `say`.
fn invalid(message: &str, say: Say) -> PageError {
    PageError::from(Error::InvalidArgument(message.to_owned())).saying(say)
}

/// The command a console form asks for (`action` is the last part of its address).
pub(crate) fn command(action: &str, fields: &Fields) -> Result<Command, PageError> {
    Ok(match action {
        "create" => Command::Create {
            name: fields.required("name")?,
            ruleset: ruleset(&fields.required("ruleset")?)?,
            clock_minutes: fields.number("clock_minutes")?,
        },
        "register" => Command::Register(vec![Registration {
            player: fields.get("player").map(str::to_owned),
            name: fields.required("name")?,
            pseudonym: fields.get("pseudonym").map(str::to_owned),
            stand_in: fields.checked("stand_in"),
        }]),
        "list" => Command::Register(list(&fields.required("list")?, fields.checked("stand_in"))?),
        "unregister" => Command::Unregister { player: fields.required("player")? },
        "fix" => Command::Fix {
            player: fields.required("player")?,
            with: Registration {
                player: fields.get("new_player").map(str::to_owned),
                name: fields.required("name")?,
                pseudonym: fields.get("pseudonym").map(str::to_owned),
                stand_in: fields.checked("stand_in"),
            },
        },
        "draw" => Command::Draw { seed: fields.number("seed")?.ok_or_else(|| missing("seed"))? },
        "withdraw" => Command::Withdraw {
            player: fields.required("player")?,
            from_round: fields.number("from_round")?.ok_or_else(|| missing("from_round"))?,
            stand_in: fields.get("stand_in").map(str::to_owned),
        },
        "lot" => {
            let players = fields.all("players");
            if players.len() < 2 {
                return Err(invalid(
                    "a lot is drawn among two players or more",
                    Say::new("organise-error-lot-players"),
                ));
            }
            Command::Lot {
                purpose: fields.get("purpose").unwrap_or("qualifying").to_owned(),
                seed: fields.number("seed")?.ok_or_else(|| missing("seed"))?,
                players,
            }
        }
        "choose" => Command::ChooseRole { player: fields.required("player")?, role: role(&fields.required("role")?)? },
        "final" => {
            Command::ScheduleFinal { name: ledger::draw::FINAL.to_owned(), table: fields.number("table")?.unwrap_or(1) }
        }
        other => {
            return Err(PageError::from(Error::NotFound(format!("the console has no action {other}")))
                .saying(Say::new("error-no-page")))
        }
    })
}

fn missing(name: &'static str) -> PageError {
    invalid(&format!("{name} is required"), Say::new("organise-error-required"))
}

/// A pasted or uploaded list's people, or every wrong line in one refusal (nothing is recorded).
pub(crate) fn list(text: &str, stand_ins: bool) -> Result<Vec<Registration>, PageError> {
    let (lines, bad) = roster::parse(text, stand_ins);
    if let Some(first) = bad.first() {
        let numbers: Vec<String> = bad.iter().map(|b| b.number.to_string()).collect();
        let detail: Vec<String> =
            bad.iter().map(|b| format!("line {}: {} ({})", b.number, b.problem, b.text)).collect();
        return Err(invalid(
            &detail.join("; "),
            Say::new("organise-error-lines")
                .arg("lines", numbers.join(", "))
                .arg("count", bad.len().to_string())
                .arg("first", first.text.clone()),
        ));
    }
    if lines.is_empty() {
        return Err(invalid("the list is empty", Say::new("organise-error-empty-list")));
    }
    Ok(lines.into_iter().map(|l| l.registration).collect())
}

fn ruleset(text: &str) -> Result<Ruleset, PageError> {
    Ruleset::parse(text).ok_or_else(|| named("ruleset", text))
}

fn role(text: &str) -> Result<Role, PageError> {
    Role::parse(text).ok_or_else(|| named("role", text))
}

/// A choice the form does not offer (a hand-made request).
fn named(what: &str, text: &str) -> PageError {
    invalid(&format!("there is no {what} {text}"), Say::new("organise-error-required"))
}
