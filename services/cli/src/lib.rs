//! `ledgerctl`: the command line of table clients, the jury, analysts and organisers.
//! Human-readable output by default, `--json` for scripts. Online commands talk to `ledgerd`;
//! `check` works offline with the same rules as the server.
//!
//! This crate root is the grammar's top (the global options and the commands) and the dispatch;
//! each command's arguments live with its code in its own module.

/// Prints a line to stdout; a closed pipe (`ledgerctl read | head`) ends the program quietly
/// instead of panicking.
macro_rules! say {
    () => { $crate::common::write_stdout(format_args!("")) };
    ($($arg:tt)*) => { $crate::common::write_stdout(format_args!($($arg)*)) };
}

mod andes;
mod append;
mod appending;
mod audit;
mod check;
mod clock;
mod common;
mod connection;
mod import;
mod offline;
mod output;
mod proof;
mod read;
mod repair;
mod rule;
mod score;
mod standings;
mod stats;
mod token;
mod tournament;
mod values;
mod verify;
mod witness;

pub use common::{CliError, EXIT_FAILED, EXIT_REFUSED};

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// The Tournament Ledger's command line: append and read events, score games, run
/// tournaments, audit and verify. Online commands talk to ledgerd (--server); `check`, `score
/// --file`, `standings --file`, `verify`, `verify-proof`, `audit --file` and `andes … --file` work
/// offline.
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
    /// The clearance to claim from a ledgerd that runs open.
    #[arg(long, global = true, env = "LEDGER_CLEARANCE", value_parser = values::clearance())]
    pub clearance: Option<ledger_house::auth::Role>,
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
    Append(append::AppendArgs),
    /// Append a multi-stream file (an export, or lines carrying `stream`), stream by stream,
    /// tournaments first. Idempotent like `append`.
    Import(import::ImportArgs),
    /// Print a stream's events with their envelopes.
    Read(read::ReadArgs),
    /// Follow events live: one stream, or the whole log.
    Tail(read::TailArgs),
    /// List the streams with their versions and chain heads.
    Streams(read::StreamsArgs),
    /// Validate a JSON Lines file offline with the server's rules; exit 1 at the first refused line.
    Check(check::CheckArgs),
    /// Recompute every hash chain: of a stopped daemon's data directory (or a copy), or of an
    /// export file. Exit 1 and name the first broken seq if anything was altered.
    Verify(verify::VerifyArgs),
    /// Take the damaged records of a stopped daemon's log back from a copy (JetStream, an
    /// export or another ledgerd), each checked against the chain; reported in `repairs.jsonl`.
    Repair(repair::RepairArgs),
    /// Print every event (or one stream's) as JSON Lines with envelopes and hashes.
    Export(verify::ExportArgs),
    /// A game's score sheet: offline from a file (validated like `check`), or online with --game.
    Score(score::ScoreArgs),
    /// A tournament's standings with every tie-breaker used; online, or offline from an export.
    Standings(standings::StandingsArgs),
    /// A game's chess clock: time left, the stopwatch, every overrun, time stopped by reason.
    Clock(clock::ClockArgs),
    /// Statistics for analysts.
    Stats(stats::StatsArgs),
    /// Run a tournament: create it, register players, draw, schedule, the final.
    Tournament(tournament::TournamentArgs),
    /// The qualifying draw.
    Draw(tournament::verify::DrawArgs),
    /// The jury's audit of one game: any point (by event or table time), stepping, differences,
    /// the timeline with voids struck through, the report to hand over.
    Audit(audit::AuditArgs),
    /// The jury rules on a game: a ruling, and with it the events it voids and those it records
    /// instead, in one append judged as a whole (`--correct N`: as the jury's desk proposes).
    Rule(rule::RuleArgs),
    /// Make a bearer token for ledgerd's auth file.
    NewToken(token::NewTokenArgs),
    /// Print a stream's chain head as a short digest for the paper game report.
    Digest(verify::DigestArgs),
    /// An Andes match (`andes/<id>`): its board, points, match sheet and levels; online, or
    /// offline from a file with --file.
    Andes(andes::AndesArgs),
    /// Make the key ledgerd signs checkpoints with (--signing-key); prints its public key.
    NewSigningKey(proof::NewSigningKeyArgs),
    /// Print the latest signed checkpoint (or the first holding --at-least N events).
    Checkpoint(proof::CheckpointArgs),
    /// Write a proof file: a stream's events with their inclusion proofs against a signed
    /// checkpoint, for anyone to check offline with `verify-proof`.
    Prove(proof::ProveArgs),
    /// Check a proof file offline with the ledger's public key; exit 1 and say why if it fails.
    VerifyProof(proof::VerifyProofArgs),
    /// Follow a ledger's checkpoints, check each extends the last one seen, cosign it; exit 1
    /// with an alarm on a fork.
    Witness(witness::WitnessArgs),
}

/// Runs one command.
///
/// # Errors
/// What was refused, or why the command could not run.
pub async fn run(cli: Cli) -> Result<(), CliError> {
    match &cli.command {
        Command::Append(args) => append::run(&cli, args).await,
        Command::Import(args) => import::run(&cli, args).await,
        Command::Read(args) => read::read(&cli, args).await,
        Command::Tail(args) => read::tail(&cli, args).await,
        Command::Streams(args) => read::streams(&cli, args).await,
        Command::Check(args) => check::run(&cli, args),
        Command::Verify(args) => verify::verify(&cli, args),
        Command::Repair(args) => repair::run(&cli, args).await,
        Command::Export(args) => verify::export(&cli, args).await,
        Command::Score(args) => score::run(&cli, args).await,
        Command::Standings(args) => standings::run(&cli, args).await,
        Command::Clock(args) => clock::run(&cli, args).await,
        Command::Stats(args) => stats::run(&cli, args).await,
        Command::Tournament(args) => tournament::run(&cli, args).await,
        Command::Draw(args) => tournament::verify::run(&cli, args).await,
        Command::Audit(args) => audit::run(&cli, args).await,
        Command::Rule(args) => rule::run(&cli, args).await,
        Command::NewToken(args) => token::run(args),
        Command::Digest(args) => verify::digest(&cli, args).await,
        Command::Andes(args) => andes::run(&cli, args).await,
        Command::NewSigningKey(args) => proof::new_signing_key(args),
        Command::Checkpoint(args) => proof::checkpoint(&cli, args).await,
        Command::Prove(args) => proof::prove(&cli, args).await,
        Command::VerifyProof(args) => proof::verify_proof(&cli, args),
        Command::Witness(args) => witness::run(&cli, args).await,
    }
}
