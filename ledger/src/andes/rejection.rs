//! Why the ledger refused an Andes event. Every refusal names the article of the Andes laws it
//! rests on, e.g. `article 3.3.2: a militar moves at most 2 squares along a row or column`, and
//! is malformed (whatever the state) or a precondition (given the state), like the crate's
//! [`crate::Rejection`], into which it converts for the gRPC status mapping.

use crate::rejection::{Arg, Reason, Rejection, RejectionKind};
use std::fmt;

/// A refused Andes event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AndesRejection {
    /// The article of the laws, e.g. `"3.3.2"`.
    pub article: &'static str,
    /// [`RejectionKind::Malformed`] or [`RejectionKind::Precondition`].
    pub kind: RejectionKind,
    /// What is wrong, without the article in front.
    pub reason: String,
    /// The catalogue's words for it (`law-*` of `andes-rules.ftl`), the article among its
    /// arguments.
    pub said: Option<Reason>,
}

impl AndesRejection {
    /// The event cannot be right in any state (a bad notation, an empty player id).
    pub fn malformed(article: &'static str, reason: impl Into<String>) -> Self {
        AndesRejection { article, kind: RejectionKind::Malformed, reason: reason.into(), said: None }
    }

    /// The event breaks a law given what the stream holds.
    pub fn precondition(article: &'static str, reason: impl Into<String>) -> Self {
        AndesRejection { article, kind: RejectionKind::Precondition, reason: reason.into(), said: None }
    }

    /// The same refusal with the catalogue's words: `id` and its arguments (the article is added).
    pub fn said<const N: usize>(mut self, id: &'static str, args: [(&'static str, Arg); N]) -> Self {
        let mut all = vec![("article", Arg::Text(self.article.to_owned()))];
        all.extend(args);
        self.said = Some(Reason { id, args: all });
        self
    }

    /// The message shown to users: `article 7.3: …`.
    pub fn message(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for AndesRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "article {}: {}", self.article, self.reason)
    }
}

impl std::error::Error for AndesRejection {}

impl From<AndesRejection> for Rejection {
    fn from(rejection: AndesRejection) -> Rejection {
        Rejection { kind: rejection.kind, message: rejection.to_string(), event: None, reason: rejection.said.clone() }
    }
}
