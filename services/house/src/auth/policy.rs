//! What each role may read and record: one table, checked by every RPC (and, later, every page).
//!
//! | | public (no token) | analyst | table | organiser, jury |
//! |---|---|---|---|---|
//! | public standings (pseudonyms), clocks, the season's tournaments (names, rulesets, years, counts of players, states) | yes | yes | yes | yes |
//! | signed checkpoints, consistency proofs (hashes only) | yes | yes | yes | yes |
//! | score sheets, Andes boards, scores, matches and levels, the season's Andes matches | — | yes | yes | yes |
//! | read or follow a game stream or an Andes match (`andes/<match>`), or prove one of its events | — | yes | yes | yes |
//! | list streams, role statistics | — | yes | — | yes |
//! | full standings (names); read or follow a tournament stream or the whole log, prove their events | — | — | — | yes |
//! | the day's paper: pairings, game report sheets, final standings with names | — | — | — | yes |
//! | the jury's replay viewer of a game and its report (`web::jury`), on an open ledgerd too | — | — | — | jury only |
//! | record events | — | — | by clearance | by clearance |
//! | issue and revoke the codes ledgerd keeps (`web::codes`, issue 33), on an open ledgerd too | — | — | — | organiser only |
//!
//! On an open ledgerd (no auth file) every read is allowed; the clearance the headers name still
//! decides what is recorded and who sees the jury's replay viewer ([`Access::when_open_too`]).
//!
//! Players' full names are seen by the organiser and the jury only (issue 35), everywhere:
//! tournament streams and the whole log carry them, and so do the standings that are not
//! public, so the public, the tables and the analysts see players by pseudonym and id only
//! (analysts count roles and nations through the role statistics). A table reads the games it
//! plays and follows. An Andes stream names
//! its two players by id only, so it reads like a game stream. What a recorder may record is then
//! decided event by event by `ledger::access::permits`: for Andes, organisers create matches,
//! tables record moves, flag falls and resignations, the jury everything, and nobody the events
//! the ledger derives.

use super::Identity;
use crate::error::Error;
use ledger::access::Clearance;
use ledger::StreamKind;
use serde::{Deserialize, Serialize};

/// A caller's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Anyone, without a token.
    Public,
    /// Reads everything, records nothing.
    Analyst,
    Table,
    #[serde(alias = "organizer")]
    Organiser,
    Jury,
}

/// What a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Append events (what exactly is then up to the clearance).
    Record,
    /// Read or subscribe to one stream of this kind.
    ReadStream(StreamKind),
    /// Read or subscribe to the whole log.
    ReadLog,
    ListStreams,
    ScoreSheet,
    /// Standings; `public`: pseudonyms only.
    Standings {
        public: bool,
    },
    Clock,
    /// The season's list (`ledgerctl tournament list`, the front page); `andes`: with the Andes
    /// matches and their players, which go with the Andes projections.
    Season {
        andes: bool,
    },
    RoleStats,
    /// An Andes match's board, scores, match sheet or levels.
    AndesProjection,
    /// The organiser's printed pages (`web::paper`).
    Paper,
    /// Signed checkpoints and consistency proofs: hashes that say nothing of any event, for
    /// anyone to check the log by. (An inclusion proof is a read of its stream or of the log.)
    Checkpoints,
    /// The jury's replay viewer of a game and its Markdown report (`web::jury`): the jury's
    /// working tool on top of reading the game's stream.
    ReplayViewer,
    /// The organiser's console (`web::organise`): running a tournament from the browser, and
    /// issuing and revoking the codes ledgerd keeps (`web::codes`).
    Organise,
}

impl Role {
    /// Every role, in the order error messages list them.
    pub const ALL: [Role; 5] = [Role::Public, Role::Analyst, Role::Table, Role::Organiser, Role::Jury];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Public => "public",
            Role::Analyst => "analyst",
            Role::Table => "table",
            Role::Organiser => "organiser",
            Role::Jury => "jury",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "organizer" => Some(Role::Organiser),
            _ => Self::ALL.into_iter().find(|role| role.as_str() == text),
        }
    }

    /// What the role may record, if anything.
    pub fn clearance(self) -> Option<Clearance> {
        match self {
            Role::Public | Role::Analyst => None,
            Role::Table => Some(Clearance::Table),
            Role::Organiser => Some(Clearance::Organiser),
            Role::Jury => Some(Clearance::Jury),
        }
    }

    /// The table above.
    pub fn may(self, access: Access) -> bool {
        match (self, access) {
            (
                _,
                Access::Standings { public: true }
                | Access::Clock
                | Access::Checkpoints
                | Access::Season { andes: false },
            ) => true,
            (Role::Public, _) => false,
            // Real names: the organiser's and the jury's alone.
            (
                Role::Analyst,
                Access::Standings { public: false } | Access::ReadStream(StreamKind::Tournament) | Access::ReadLog,
            ) => false,
            (Role::Analyst, Access::Record | Access::Paper) => false,
            (Role::Analyst | Role::Jury, Access::Organise) => false,
            (Role::Analyst | Role::Organiser, Access::ReplayViewer) => false,
            (Role::Analyst | Role::Organiser | Role::Jury, _) => true,
            (
                Role::Table,
                Access::Record
                | Access::ReadStream(StreamKind::Game | StreamKind::Andes)
                | Access::ScoreSheet
                | Access::AndesProjection
                | Access::Season { andes: true },
            ) => true,
            (
                Role::Table,
                Access::Standings { public: false }
                | Access::ReadStream(StreamKind::Tournament)
                | Access::ReadLog
                | Access::ListStreams
                | Access::RoleStats
                | Access::Paper
                | Access::ReplayViewer
                | Access::Organise,
            ) => false,
        }
    }
}

impl Access {
    /// Whether the role still decides on an open ledgerd, which trusts whoever reaches it with
    /// every other read.
    pub fn when_open_too(self) -> bool {
        matches!(self, Access::Record | Access::ReplayViewer | Access::Organise)
    }

    fn describe(self) -> String {
        match self {
            Access::Record => "recording events".into(),
            Access::ReadStream(kind) => format!("reading {} streams", kind.prefix()),
            Access::ReadLog => "reading the whole log".into(),
            Access::ListStreams => "listing the streams".into(),
            Access::ScoreSheet => "score sheets".into(),
            Access::Standings { public: true } => "the public standings".into(),
            Access::Standings { public: false } => "the full standings (with names)".into(),
            Access::Clock => "clocks".into(),
            Access::Season { andes: false } => "the season's tournaments".into(),
            Access::Season { andes: true } => "the season's Andes matches".into(),
            Access::RoleStats => "role statistics".into(),
            Access::AndesProjection => "Andes boards and scores".into(),
            Access::Paper => "printing the day's paper".into(),
            Access::Checkpoints => "checkpoints".into(),
            Access::ReplayViewer => "the replay viewer".into(),
            Access::Organise => "the organiser's console".into(),
        }
    }
}

/// The refusal for a caller who may not have `access`: UNAUTHENTICATED for the public (a token
/// would help), PERMISSION_DENIED for a role (it would not).
pub(super) fn denied(who: &Identity, access: Access) -> Error {
    let what = access.describe();
    match (access, who.role) {
        (Access::ReplayViewer, Role::Public) => {
            return Error::Unauthenticated(format!("{what} needs the jury's token"));
        }
        (Access::ReplayViewer, role) => {
            return Error::PermissionDenied(format!(
                "{what} is for the jury; {} is cleared as {}",
                who.actor,
                role.as_str()
            ));
        }
        (_, Role::Public) => {
            return Error::Unauthenticated(format!(
                "{what} needs a token (`authorization: Bearer <token>`); without one, only the public standings and the clocks"
            ));
        }
        _ => {}
    }
    let roles: Vec<&str> = Role::ALL.iter().filter(|r| r.may(access)).map(|r| r.as_str()).collect();
    Error::PermissionDenied(format!(
        "{what} is for {}; {} is cleared as {}",
        roles.join(", "),
        who.actor,
        who.role.as_str()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
            let json: Role = serde_json::from_str(&format!("\"{}\"", role.as_str())).unwrap();
            assert_eq!(json, role);
        }
        assert_eq!(Role::parse("organizer"), Some(Role::Organiser));
    }

    #[test]
    fn only_the_organiser_and_the_jury_print_the_paper() {
        let printers: Vec<Role> = Role::ALL.into_iter().filter(|r| r.may(Access::Paper)).collect();
        assert_eq!(printers, [Role::Organiser, Role::Jury]);
    }

    #[test]
    fn refusals_say_who_may() {
        let table = Identity::new("table-4", Role::Table);
        let error = denied(&table, Access::ReadStream(StreamKind::Tournament));
        assert_eq!(error.code(), crate::error::Code::PermissionDenied);
        assert_eq!(error.message(), "reading tournament streams is for organiser, jury; table-4 is cleared as table");
        let error = denied(&table, Access::ReplayViewer);
        assert_eq!(error.text(), "PERMISSION_DENIED: the replay viewer is for the jury; table-4 is cleared as table");
        let error = denied(&Identity::new("public", Role::Public), Access::ReplayViewer);
        assert_eq!(error.text(), "UNAUTHENTICATED: the replay viewer needs the jury's token");
    }

    #[test]
    fn only_the_organiser_runs_the_console_and_its_codes() {
        let issuers: Vec<Role> = Role::ALL.into_iter().filter(|r| r.may(Access::Organise)).collect();
        assert_eq!(issuers, [Role::Organiser]);
    }

    #[test]
    fn only_the_jury_opens_the_replay_viewer() {
        let viewers: Vec<Role> = Role::ALL.into_iter().filter(|r| r.may(Access::ReplayViewer)).collect();
        assert_eq!(viewers, [Role::Jury]);
    }
}
