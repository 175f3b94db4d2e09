//! A JSON request body (the tablets' queues) read as the table routes read it, with axum's
//! refusals of a body that is not JSON, not sent as JSON, too large or of the wrong shape said
//! as refusals of the ledger: a stable code for the script (`INVALID_ARGUMENT`), and words in
//! the reader's language (`input-body-*` of `refusals.ftl`, the field and what was wrong read
//! from serde's message by `ledger_house::words::input`), never axum's English.

use crate::refusal::JsonError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use ledger::{Arg, Reason, Rejection};
use ledger_house::error::Error;
use ledger_house::words::input;

/// The body of a table route, as JSON of type `T`.
pub(crate) struct JsonBody<T>(pub(crate) T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = BodyRefused;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(BodyRefused {
                status: rejection.status(),
                error: JsonError::from(Error::Refused(refusal_of(&rejection))),
            }),
        }
    }
}

/// A body refused, answered with the status axum gives it (413 too large, 415 not sent as JSON,
/// 422 of the wrong shape, 400 not JSON), so clients and proxies see what HTTP says, and with
/// the ledger's refusal and its words as the body.
pub(crate) struct BodyRefused {
    status: StatusCode,
    error: JsonError,
}

impl IntoResponse for BodyRefused {
    fn into_response(self) -> Response {
        let mut response = self.error.into_response();
        *response.status_mut() = self.status;
        response
    }
}

/// axum's refusal of a body as a refusal of the ledger, with its words.
fn refusal_of(rejection: &JsonRejection) -> Rejection {
    let text = rejection.body_text();
    let reason = match rejection {
        JsonRejection::JsonDataError(_) => {
            let serde = text.split_once(": ").map_or(text.as_str(), |(_, rest)| rest);
            Reason::new("input-body-shape").arg("detail", Arg::Said(Box::new(input::of_serde(serde))))
        }
        JsonRejection::JsonSyntaxError(_) => Reason::new("input-body-syntax"),
        JsonRejection::MissingJsonContentType(_) => Reason::new("input-body-content-type"),
        JsonRejection::BytesRejection(_) => Reason::new("input-body-too-large"),
        _ => Reason::new("input-other"),
    };
    Rejection::malformed(text).because(reason)
}
