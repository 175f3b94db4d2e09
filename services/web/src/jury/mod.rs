//! The jury's pages: the replay viewer of one game with its audit, report and proof
//! ([`replay`]), and the desk of open calls and missing fate horizons with the rulings it
//! records ([`desk`], a live page: [`crate::live`]); both for the jury alone ([`jury_only`]).

pub(crate) mod desk;
pub(crate) mod replay;

use crate::auth::Viewer;
use crate::i18n::Say;
use crate::{PageError, WebState};
use ledger::StreamKind;
use ledger_house::auth::{Access, Role};
use ledger_house::error::Error;

/// The jury alone: whoever reads the game's stream, and then the jury ([`Access::ReplayViewer`]
/// in the access table, on an open ledgerd too); a refusal is said in the jury's words.
pub(crate) fn jury_only(state: &WebState, viewer: &Viewer) -> Result<(), PageError> {
    state.auth.authorize(&viewer.metadata, Access::ReadStream(StreamKind::Game))?;
    let refused = match state.auth.authorize(&viewer.metadata, Access::ReplayViewer) {
        Ok(_) => return Ok(()),
        Err(error) => error,
    };
    let say = match (&refused, &viewer.identity) {
        (Error::Unauthenticated(_), Some(who)) if who.role == Role::Public => Say::new("error-jury-signin"),
        // The catalogue names the clearance in the reader's language (a Fluent selector).
        (Error::PermissionDenied(_), Some(who)) => {
            Say::new("error-jury-only").arg("actor", who.actor.clone()).arg("clearance", who.role.as_str())
        }
        _ => Say::of_error(&refused),
    };
    Err(PageError::from(refused).saying(say))
}
