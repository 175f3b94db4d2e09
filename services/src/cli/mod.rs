//! `ledgerctl`: the command line of table clients, the jury, analysts and organisers.
//! Human-readable output by default, `--json` for scripts. Online commands talk to `ledgerd`;
//! `check` works offline with the same rules as the server.

/// Prints a line to stdout; a closed pipe (`ledgerctl read | head`) ends the program quietly
/// instead of panicking.
macro_rules! say {
    () => { $crate::cli::write_stdout(format_args!("")) };
    ($($arg:tt)*) => { $crate::cli::write_stdout(format_args!($($arg)*)) };
}

mod andes;
mod append;
mod audit;
mod check;
mod connection;
mod output;
mod read;
mod score;
mod tournament;
mod verify;

use clap::{Parser, Subcommand};
use connection::{connect, connect_projections};
use std::path::PathBuf;

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

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Failed(e.to_string())
    }
}

/// The Tournament Ledger's command line: append and read events, score games, run
/// tournaments, audit and verify. Online commands talk to ledgerd (--server); `check`, `score
/// --file`, `standings --file`, `verify`, `audit --file` and `andes … --file` work offline.
#[derive(Debug, Parser)]
#[command(name = "ledgerctl", version)]
pub struct Cli {
    /// The ledgerd to talk to.
    #[arg(long, global = true, env = "LEDGER_SERVER", default_value = "http://127.0.0.1:50051")]
    pub server: String,
    /// Who you are, recorded as the actor of what you append.
    #[arg(long, global = true, env = "LEDGER_ACTOR", default_value = "ledgerctl")]
    pub actor: String,
    /// Bearer token for a ledgerd that runs with an auth file.
    #[arg(long, global = true, env = "LEDGER_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The clearance to claim from a ledgerd that runs open: table, organiser or jury.
    #[arg(long, global = true, env = "LEDGER_CLEARANCE")]
    pub clearance: Option<String>,
    /// CA certificate (PEM) that signed ledgerd's TLS certificate (implies TLS; so does an
    /// `https://` server).
    #[arg(long, global = true, env = "LEDGER_TLS_CA")]
    pub tls_ca: Option<PathBuf>,
    /// Client certificate (PEM), for a ledgerd that requires one.
    #[arg(long, global = true, env = "LEDGER_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The client certificate's private key (PEM).
    #[arg(long, global = true, env = "LEDGER_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Machine-readable output (JSON or JSON Lines).
    #[arg(long, global = true)]
    pub json: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Append canonical events, one JSON object a line, from a file or stdin.
    Append {
        /// `game/<id>`, `tournament/<id>` or `andes/<id>`.
        #[arg(long)]
        stream: String,
        /// JSON Lines file; `-` or absent for stdin.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Refuse unless the stream was at this version before the file (0 = new stream). On a
        /// re-run give the same value: the lines already stored are counted on top of it.
        #[arg(long)]
        expected_version: Option<u64>,
    },
    /// Append a multi-stream file (an export, or lines carrying `stream`), stream by stream,
    /// tournaments first. Idempotent like `append`.
    Import {
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Print a stream's events with their envelopes.
    Read {
        #[arg(long)]
        stream: String,
        /// First seq to print.
        #[arg(long, default_value_t = 1)]
        from: u64,
    },
    /// Follow events live: one stream, or the whole log.
    Tail {
        #[arg(long)]
        stream: Option<String>,
        /// First seq (of the stream) or global position to print; default: only new events.
        #[arg(long)]
        from: Option<u64>,
    },
    /// List the streams with their versions and chain heads.
    Streams {
        /// Only streams whose name starts with this, e.g. `game/`.
        #[arg(long, default_value = "")]
        prefix: String,
    },
    /// Validate a JSON Lines file offline with the server's rules; exit 1 at the first refused line.
    Check {
        /// The ruleset of the game (needed unless game_started names it).
        #[arg(long)]
        ruleset: Option<String>,
        /// The stream the file is for; default `game/check`.
        #[arg(long, default_value = "game/check")]
        stream: String,
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Recompute every hash chain: of a stopped daemon's data directory (or a copy), or of an
    /// export file. Exit 1 and name the first broken seq if anything was altered.
    Verify {
        /// A sled data directory (the daemon must be stopped; or verify a copy).
        #[arg(long, conflicts_with = "file")]
        data_dir: Option<PathBuf>,
        /// An export (JSON Lines with envelopes); `-` for stdin.
        #[arg(long)]
        file: Option<PathBuf>,
    },
    /// Print every event (or one stream's) as JSON Lines with envelopes and hashes.
    Export {
        #[arg(long)]
        stream: Option<String>,
    },
    /// A game's score sheet: offline from a file (validated like `check`), or online with --game.
    Score {
        #[arg(long)]
        ruleset: Option<String>,
        /// A game's JSON Lines file; `-` for stdin.
        #[arg(long, conflicts_with = "game")]
        file: Option<PathBuf>,
        /// Ask ledgerd for this game's sheet (`<id>` or `game/<id>`).
        #[arg(long)]
        game: Option<String>,
        /// The sheet as it stood after this event (seq).
        #[arg(long)]
        as_of: Option<u64>,
    },
    /// A tournament's standings with every tie-breaker used; online, or offline from an export.
    Standings {
        /// `<id>` or `tournament/<id>`.
        #[arg(long)]
        tournament: String,
        /// An export (or JSON Lines whose lines carry `stream`) to compute from offline.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Show players only by their pseudonyms, as published standings do.
        #[arg(long)]
        public: bool,
    },
    /// A game's chess clock: time left, the stopwatch, every overrun, time stopped by reason.
    Clock {
        /// `<id>` or `game/<id>`.
        game: String,
        /// The clock as it stood after this event (seq).
        #[arg(long, conflicts_with = "follow")]
        as_of: Option<u64>,
        /// Redraw as presses arrive, until interrupted.
        #[arg(long)]
        follow: bool,
    },
    /// Statistics for analysts.
    Stats {
        #[command(subcommand)]
        what: StatsCommand,
    },
    /// Run a tournament: create it, register players, draw, schedule, the final.
    Tournament {
        #[command(subcommand)]
        what: TournamentCommand,
    },
    /// The qualifying draw.
    Draw {
        #[command(subcommand)]
        what: DrawCommand,
    },
    /// The jury's audit of one game: any point (by event or table time), stepping, differences,
    /// the timeline with voids struck through, the report to hand over.
    Audit {
        /// `<id>` or `game/<id>`.
        game: String,
        /// An export to audit offline (`ledgerctl export`).
        #[arg(long)]
        file: Option<PathBuf>,
        /// The game as it stood after this event (default: the last).
        #[arg(long)]
        at: Option<u64>,
        /// The game as it stood at this table time (ms).
        #[arg(long, conflicts_with = "at")]
        at_ms: Option<u64>,
        /// What changed between two events: `--diff 12 30`.
        #[arg(long, num_args = 2, value_names = ["FROM", "TO"])]
        diff: Option<Vec<u64>>,
        /// Step forward and back with commands on stdin.
        #[arg(long)]
        step: bool,
        /// Every event with time and actor, voided ones struck through with their ruling.
        #[arg(long)]
        timeline: bool,
        /// The audit report in Markdown.
        #[arg(long)]
        report: bool,
    },
    /// Make a bearer token for ledgerd's auth file.
    NewToken {
        /// Who the token stands for, recorded as the actor of every append.
        #[arg(long)]
        actor: String,
        /// analyst (reads everything, records nothing), table, organiser or jury.
        #[arg(long)]
        clearance: String,
    },
    /// Print a stream's chain head as a short digest for the paper game report.
    Digest {
        #[arg(long)]
        stream: String,
    },
    /// An Andes match (`andes/<id>`): its board, points, match sheet and levels; online, or
    /// offline from a file with --file.
    Andes {
        #[command(subcommand)]
        what: andes::AndesCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Create a tournament stream.
    Create {
        /// The tournament's id (its stream is `tournament/<id>`).
        #[arg(long)]
        id: String,
        #[arg(long)]
        name: String,
        /// wm2015, cafe2019 or cafe2023.
        #[arg(long)]
        ruleset: String,
        /// Minutes on each side of the chess clock (default 130).
        #[arg(long)]
        clock_minutes: Option<u64>,
    },
    /// Register a player.
    Register {
        #[arg(long)]
        tournament: String,
        /// The player's id, used in seats and standings.
        #[arg(long)]
        player: String,
        #[arg(long)]
        name: String,
        /// The name public standings show instead.
        #[arg(long)]
        pseudonym: Option<String>,
    },
    /// Draw the four qualifying rounds from a seed and record them.
    Draw {
        #[arg(long)]
        tournament: String,
        #[arg(long)]
        seed: u64,
        /// Show the draw without recording it.
        #[arg(long)]
        dry_run: bool,
    },
    /// Put a game on a table by hand.
    Schedule {
        #[arg(long)]
        tournament: String,
        #[arg(long)]
        game: String,
        /// qualifying or final.
        #[arg(long, default_value = "qualifying")]
        stage: String,
        #[arg(long)]
        round: u32,
        #[arg(long)]
        table: u32,
        #[arg(long)]
        frederick: String,
        #[arg(long)]
        elisabeth: String,
        #[arg(long)]
        maria_theresa: String,
        #[arg(long)]
        pompadour: String,
    },
    /// Draw a lot among tied players: the order follows from the seed, and anyone can check it.
    Lot {
        #[arg(long)]
        tournament: String,
        /// What the lot decides, e.g. `qualifying` or `final`.
        #[arg(long)]
        purpose: String,
        #[arg(long)]
        seed: u64,
        /// The tied players, comma-separated.
        #[arg(long, value_delimiter = ',', required = true)]
        players: Vec<String>,
    },
    /// The final: role choices in rank order, then the game.
    Final {
        #[command(subcommand)]
        what: FinalCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum FinalCommand {
    /// A finalist chooses a role (in rank order; the ledger refuses anything else).
    Choose {
        #[arg(long)]
        tournament: String,
        #[arg(long)]
        player: String,
        #[arg(long)]
        role: String,
    },
    /// Schedule the final from the four choices.
    Schedule {
        #[arg(long)]
        tournament: String,
        #[arg(long, default_value = "final")]
        game: String,
        #[arg(long, default_value_t = 1)]
        table: u32,
    },
}

#[derive(Debug, Subcommand)]
pub enum DrawCommand {
    /// Recompute the recorded qualifying draw from its seed and compare.
    Verify {
        #[arg(long)]
        tournament: String,
        /// An export to verify offline.
        #[arg(long)]
        file: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum StatsCommand {
    /// Games, wins, win rate with a 95% Wilson interval, and average score per role and nation.
    Roles {
        /// An export to compute from offline; without it, ask ledgerd.
        #[arg(long)]
        file: Option<PathBuf>,
        /// Only this tournament (its id).
        #[arg(long)]
        tournament: Option<String>,
        #[arg(long)]
        ruleset: Option<String>,
        /// qualifying or final.
        #[arg(long)]
        stage: Option<String>,
        /// The year the tournament was recorded.
        #[arg(long)]
        year: Option<i32>,
    },
}

/// Runs one command.
///
/// # Errors
/// What was refused, or why the command could not run.
pub async fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Append { ref stream, ref file, expected_version } => {
            append::run(&cli, stream, file.as_deref(), expected_version).await
        }
        Command::NewToken { ref actor, ref clearance } => new_token(actor, clearance),
        Command::Audit { ref game, ref file, at, at_ms, ref diff, step, timeline, report } => {
            let args = audit::AuditArgs {
                game,
                file: file.as_deref(),
                at,
                at_ms,
                diff: diff.as_ref().map(|d| (d[0], d[1])),
                step,
                timeline,
                report,
            };
            audit::run(&cli, args).await
        }
        Command::Tournament { ref what } => run_tournament(&cli, what).await,
        Command::Draw { what: DrawCommand::Verify { ref tournament, ref file } } => {
            tournament::verify(&cli, tournament, file.as_deref()).await
        }
        Command::Import { ref file } => append::import(&cli, file.as_deref()).await,
        Command::Read { ref stream, from } => read::read(&cli, stream, from).await,
        Command::Tail { ref stream, from } => read::tail(&cli, stream.as_deref(), from).await,
        Command::Streams { ref prefix } => read::streams(&cli, prefix).await,
        Command::Check { ref ruleset, ref stream, ref file } => {
            check::run(cli.json, ruleset.as_deref(), stream, file.as_deref())
        }
        Command::Verify { ref data_dir, ref file } => verify::verify(cli.json, data_dir.as_deref(), file.as_deref()),
        Command::Export { ref stream } => verify::export(&cli, stream.as_deref()).await,
        Command::Digest { ref stream } => verify::digest(&cli, stream).await,
        Command::Score { ref ruleset, ref file, ref game, as_of } => {
            score::score(&cli, ruleset.as_deref(), file.as_deref(), game.as_deref(), as_of).await
        }
        Command::Standings { ref tournament, ref file, public } => {
            score::standings(&cli, tournament, file.as_deref(), public).await
        }
        Command::Clock { ref game, as_of, follow } => score::clock(&cli, game, as_of, follow).await,
        Command::Andes { ref what } => andes::run(&cli, what).await,
        Command::Stats { what: StatsCommand::Roles { ref file, ref tournament, ref ruleset, ref stage, year } } => {
            let args = score::StatsArgs {
                file: file.as_deref(),
                tournament: tournament.as_deref(),
                ruleset: ruleset.as_deref(),
                stage: stage.as_deref(),
                year,
            };
            score::stats(&cli, args).await
        }
    }
}

async fn run_tournament(cli: &Cli, what: &TournamentCommand) -> Result<(), CliError> {
    match what {
        TournamentCommand::Create { id, name, ruleset, clock_minutes } => {
            tournament::create(cli, id, name, ruleset, *clock_minutes).await
        }
        TournamentCommand::Register { tournament, player, name, pseudonym } => {
            tournament::register(cli, tournament, player, name, pseudonym.as_deref()).await
        }
        TournamentCommand::Draw { tournament, seed, dry_run } => {
            tournament::draw(cli, tournament, *seed, *dry_run).await
        }
        TournamentCommand::Schedule {
            tournament,
            game,
            stage,
            round,
            table,
            frederick,
            elisabeth,
            maria_theresa,
            pompadour,
        } => {
            let seats = tournament::SeatArgs { frederick, elisabeth, maria_theresa, pompadour };
            tournament::schedule(cli, tournament, game, stage, *round, *table, seats).await
        }
        TournamentCommand::Lot { tournament, purpose, seed, players } => {
            tournament::lot(cli, tournament, purpose, *seed, players).await
        }
        TournamentCommand::Final { what: FinalCommand::Choose { tournament, player, role } } => {
            tournament::choose(cli, tournament, player, role).await
        }
        TournamentCommand::Final { what: FinalCommand::Schedule { tournament, game, table } } => {
            tournament::schedule_final(cli, tournament, game, *table).await
        }
    }
}

/// Prints a fresh random token and the auth-file entry that admits it.
fn new_token(actor: &str, clearance: &str) -> Result<(), CliError> {
    let clearance =
        crate::auth::Role::parse(clearance).filter(|role| *role != crate::auth::Role::Public).ok_or_else(|| {
            CliError::Failed(format!("clearance must be analyst, table, organiser or jury, not {clearance}"))
        })?;
    let mut bytes = [0u8; 24];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut bytes)?;
    let token = hex::encode(bytes);
    let entry = serde_json::json!({
        "sha256": hex::encode(crate::auth::token_digest(&token)),
        "actor": actor,
        "clearance": clearance.as_str(),
    });
    say!("token (give it to {actor}; it is not stored anywhere): {token}");
    say!("auth-file entry (add it to \"tokens\"): {entry}");
    Ok(())
}

/// Reads a file, or stdin for `None` or `-`.
fn read_input(file: Option<&std::path::Path>) -> Result<String, CliError> {
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
    format!("{}: {}", crate::status::code_name(status.code()), output::printable(status.message()))
}

/// A status from the server: a refusal for rule codes, a failure otherwise.
fn from_status(status: &tonic::Status) -> CliError {
    use tonic::Code::*;
    match status.code() {
        InvalidArgument | FailedPrecondition | Aborted | AlreadyExists | PermissionDenied => {
            CliError::Refused(status_text(status))
        }
        _ => CliError::Failed(status_text(status)),
    }
}
