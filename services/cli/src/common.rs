//! What every command shares: its error and exit codes, its input, its stdout, and how a
//! server's status reads to a person.

/// Exit status 1: the ledger (or the offline check) refused something.
pub const EXIT_REFUSED: u8 = 1;
/// Exit status 2: the command could not run (no server, unreadable file, bad arguments).
pub const EXIT_FAILED: u8 = 2;

/// Why a command did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A rule refused the input; the message says which, and where.
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Failed(String),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Refused(_) => EXIT_REFUSED,
            CliError::Failed(_) => EXIT_FAILED,
        }
    }
}

impl From<ledger_house::error::Error> for CliError {
    /// A refusal of the command layer, as `ledgerctl` prints a server's: `CODE: the sentence`.
    fn from(error: ledger_house::error::Error) -> Self {
        CliError::Refused(error.text())
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Failed(e.to_string())
    }
}

/// Reads a file, or stdin for `None` or `-`.
pub(super) fn read_input(file: Option<&std::path::Path>) -> Result<String, CliError> {
    match file {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::read_to_string(path).map_err(|e| CliError::Failed(format!("cannot read {}: {e}", path.display())))
        }
        _ => std::io::read_to_string(std::io::stdin()).map_err(CliError::from),
    }
}

#[doc(hidden)]
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{args}").and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// `CODE: message`, the way a status reads to a person.
/// The code and the server's message, its control characters escaped (it may quote input).
fn status_text(status: &tonic::Status) -> String {
    format!("{}: {}", ledger_house::error::code_name(status.code()), super::output::printable(status.message()))
}

/// A status from the server: a refusal for rule codes, a failure otherwise.
pub(super) fn from_status(status: &tonic::Status) -> CliError {
    use tonic::Code::*;
    match status.code() {
        InvalidArgument | FailedPrecondition | Aborted | AlreadyExists | PermissionDenied => {
            CliError::Refused(status_text(status))
        }
        _ => CliError::Failed(status_text(status)),
    }
}
