//! Refusals as a person reads them. A [`PageError`] keeps the machine text (`CODE: the ledger's
//! sentence`, what `ledgerctl` prints; JSON routes and logs keep it, and scripts read the code),
//! a [`Say`] (a message of `site.ftl` with its arguments) and, for a refusal of the rules, the
//! rules' own words (`ledger::Reason`, said by `ledger_house::words`). A handler does not know
//! the language its error will be read in, so the error page (and a JSON route's answer) is
//! written by [`localize`], a layer around every route that reads the request's language; a
//! page never shows a bare `UNAUTHENTICATED: unknown token`, nor the ledger's English.

use crate::i18n::{Lang, Say};
use crate::layout::{esc, shell_in, Head};
use crate::PageError;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use ledger_house::error::{Code, Error};

/// The sentences of failures ([`Say`] is a catalogue message with its arguments, [`crate::i18n`]).
impl Say {
    /// What a failure of the house says when the page did not name its cause: the sentence of
    /// its code.
    pub(crate) fn of_error(error: &Error) -> Say {
        match error {
            Error::Unauthenticated(message) if is_unknown_token(message) => Say::new("error-unknown-token"),
            _ => Say::of_code(error.code()),
        }
    }

    /// The sentence of a code.
    pub(crate) fn of_code(code: Code) -> Say {
        match code {
            Code::Unauthenticated => Say::new("error-needs-signin"),
            Code::PermissionDenied => Say::new("error-not-cleared"),
            Code::NotFound => Say::new("error-not-found"),
            Code::InvalidArgument => Say::new("error-invalid"),
            Code::FailedPrecondition | Code::Aborted | Code::AlreadyExists => Say::new("error-precondition"),
            Code::Unavailable | Code::ResourceExhausted => Say::new("error-unavailable"),
            _ => Say::new("error-internal"),
        }
    }
}

/// `Auth::identify`'s refusals of a token it does not know, or of a header that is not a bearer
/// token (a cookie the browser kept from another ledgerd): signing in again helps.
fn is_unknown_token(message: &str) -> bool {
    message == "unknown token" || message.starts_with("the authorization header")
}

/// What the rules said, in `lang`, under a page's sentence: the refusal's own words when the
/// rules gave them (`None` else; the machine text stays in the `data-ledger` attribute).
pub(crate) fn detail(lang: Lang, error: &PageError) -> Option<String> {
    error.refused.as_ref().map(|rejection| ledger_house::words::refusal(lang, rejection))
}

/// The machine text of `error` without its code, for a `data-ledger` attribute (scripts and
/// people reporting a bug read it; the page does not show it).
pub(crate) fn machine(error: &PageError) -> &str {
    let code = error.code.name();
    error.message.strip_prefix(code).and_then(|rest| rest.strip_prefix(": ")).unwrap_or(&error.message)
}

/// The error page: the sentence in `lang`, the machine code in `data-code` (and the ledger's
/// text in `data-ledger`), the rules' own words in `lang` when they gave some, and a way to
/// sign in when a token would help.
pub(crate) fn page(lang: Lang, path: &str, error: &PageError) -> Response {
    let code = error.code.name();
    let mut body = format!(
        "<h1>{}</h1><p class=\"refusal\" id=\"error\" data-code=\"{code}\" data-ledger=\"{}\">{}</p>",
        esc(&lang.t("error-title")),
        esc(machine(error)),
        esc(&error.say.text(lang))
    );
    if let Some(words) = detail(lang, error) {
        body.push_str(&format!("<p class=\"muted\" id=\"error-detail\">{}</p>", esc(&words)));
    }
    if matches!(error.code, Code::Unauthenticated | Code::PermissionDenied) {
        let next = crate::auth::local_path(Some(path));
        body.push_str(&format!(
            "<p><a href=\"/signin?next={}\" id=\"error-signin\">{}</a></p>",
            esc(&next),
            esc(&lang.t("error-signin"))
        ));
    }
    body.push_str(&format!("<p><a href=\"/\">{}</a></p>", esc(&lang.t("error-home"))));
    let html = shell_in(lang, &lang.t("error-title"), None, &body, &Head { manifest: false, scripts: &[] });
    (error.status(), Html(html)).into_response()
}

/// A JSON route's failure, to be answered in the reader's language by [`localize`].
#[derive(Debug, Clone)]
pub(crate) struct JsonRefusal(pub(crate) PageError);

/// A JSON route's answer to a failure: the machine text and code as before (`error`,
/// `status`), and for people the sentence in `lang` (`text`), with the rules' message id and
/// arguments when they gave them (`id`, `args`: a tablet words them with its own catalogue).
pub(crate) fn json(lang: Lang, error: &PageError) -> Response {
    let status = error.status();
    let text = detail(lang, error).unwrap_or_else(|| error.say.text(lang));
    let mut body = serde_json::json!({
        "error": error.message,
        "code": error.code.name(),
        "status": status.as_u16(),
        "text": text,
    });
    if let Some(reason) = error.refused.as_ref().and_then(|r| r.reason.as_ref()) {
        body["id"] = serde_json::Value::from(reason.id);
        body["args"] = serde_json::Value::Object(ledger_house::words::plain_args(reason));
    }
    (status, axum::Json(body)).into_response()
}

/// Every route's layer: a [`PageError`] a handler returned is written in the request's language,
/// as a page or, for a JSON route, as JSON.
pub(crate) async fn localize(request: Request, next: Next) -> Response {
    let lang = crate::i18n::of_request(request.headers());
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    if let Some(JsonRefusal(error)) = response.extensions_mut().remove::<JsonRefusal>() {
        // Worded again in the reader's language, under the status the handler chose (a body
        // refused keeps HTTP's own: 413, 415, 422).
        let status = response.status();
        let mut worded = json(lang, &error);
        *worded.status_mut() = status;
        return worded;
    }
    match response.extensions_mut().remove::<PageError>() {
        Some(error) => page(lang, &path, &error),
        None => response,
    }
}

/// The refusal in the reader's language: the page's sentence, and under it the rules' own
/// words for it, also in the reader's language (the ledger's text stays in `data-ledger`).
pub(crate) fn refusal_box(lang: Lang, error: &PageError) -> String {
    let code = error.code.name();
    let detail =
        detail(lang, error).map(|words| format!("<p id=\"refusal-detail\">{}</p>", esc(&words))).unwrap_or_default();
    format!(
        "<div class=\"refusal\" id=\"refusal\" data-code=\"{code}\" data-ledger=\"{}\" role=\"alert\"><p>{}</p>{detail}</div>",
        esc(machine(error)),
        esc(&error.say.text(lang)),
    )
}

/// A refusal of the rules (a precondition, a malformed value), said to the organiser or the
/// jury as what it is — the rules do not allow it — with the ledger's own sentence beneath;
/// any other failure keeps its sentence.
pub(crate) fn by_the_rules(error: Error) -> PageError {
    let refused = PageError::from(error);
    match refused.code {
        Code::FailedPrecondition | Code::InvalidArgument => refused.saying(Say::new("organise-refused-rules")),
        _ => refused,
    }
}

/// A JSON route's failure: `{"error": "…", "code": "PERMISSION_DENIED"}` with the HTTP status.
#[derive(Debug)]
pub(crate) struct JsonError(PageError);

impl From<PageError> for JsonError {
    fn from(error: PageError) -> Self {
        JsonError(error)
    }
}

impl From<Error> for JsonError {
    fn from(error: Error) -> Self {
        JsonError(PageError::from(error))
    }
}

impl IntoResponse for JsonError {
    /// In English here; [`localize`] writes its `text` again in the reader's
    /// language.
    fn into_response(self) -> Response {
        self.0.log_failure();
        let mut response = json(Lang::En, &self.0);
        response.extensions_mut().insert(JsonRefusal(self.0));
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledger_house::auth::Auth;
    use tonic::metadata::MetadataMap;

    #[test]
    fn an_unknown_token_reads_as_one_in_each_language() {
        let digest = hex::encode(ledger_house::auth::token_digest("known"));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("auth.json");
        std::fs::write(
            &file,
            format!(r#"{{"tokens": [{{"sha256": "{digest}", "actor": "t1", "clearance": "table"}}]}}"#),
        )
        .unwrap();
        let auth = Auth::load(&file).unwrap();
        let mut metadata = MetadataMap::new();
        metadata.insert("authorization", "Bearer unknown".parse().unwrap());
        let refused = auth.identify(&metadata).unwrap_err();
        let say = Say::of_error(&refused);
        assert_eq!(say.text(Lang::Es), "Código desconocido: vuelva a iniciar sesión.");
        assert_eq!(say.text(Lang::En), "Unknown token: sign in again.");
        let error = PageError::from(refused);
        assert_eq!(
            (error.status(), error.message.as_str()),
            (axum::http::StatusCode::UNAUTHORIZED, "UNAUTHENTICATED: unknown token")
        );
    }

    #[test]
    fn arguments_reach_the_sentence() {
        let say = Say::new("error-no-tournament").arg("id", "wm26");
        assert_eq!(say.text(Lang::En), "There is no tournament wm26.");
        assert_eq!(say.text(Lang::Es), "No existe el torneo wm26.");
    }
}
