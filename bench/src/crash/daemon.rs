//! The `ledgerd` process under test: started on a data directory and a free loopback port,
//! killed with SIGKILL (no chance to flush or close anything), or stopped with SIGTERM.

use crate::procs::{free_port, Server};
use anyhow::{bail, Context, Result};
use ledger_proto::v1 as pb;
use ledger_proto::v1::ledger_client::LedgerClient;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// How long a (re)start may take before it counts as a daemon that will not come back.
const START_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Daemon {
    server: Server,
    pub url: String,
    /// From spawning the process to its first answer.
    pub start_took: Duration,
}

/// How the kill went.
#[derive(Debug, Clone, Copy)]
pub struct Killed {
    /// The process had not exited before the signal: it was a running daemon that died.
    pub was_running: bool,
    /// The signal that ended it (9 for SIGKILL).
    pub signal: Option<i32>,
}

impl Daemon {
    /// Starts `binary` on `data_dir` (created if missing) and waits until it answers
    /// `ListStreams`, which it does only once its log is open.
    ///
    /// # Errors
    /// It did not start, exited, or did not answer within a minute; the message ends with the
    /// tail of its log.
    pub async fn start(binary: &Path, data_dir: &Path, log: PathBuf) -> Result<Daemon> {
        Daemon::start_with(binary, data_dir, log, &[]).await
    }

    /// [`Daemon::start`] with more flags (the fan-out's). The store's own account of what it
    /// did at the start (indexing again, cutting a torn tail) is logged; see [`said_at_start`].
    ///
    /// # Errors
    /// As [`Daemon::start`].
    pub async fn start_with(binary: &Path, data_dir: &Path, log: PathBuf, extra: &[String]) -> Result<Daemon> {
        let spawned = Instant::now();
        let port = free_port()?;
        let mut args = vec![
            "--data-dir".into(),
            data_dir.display().to_string(),
            "--listen".into(),
            format!("127.0.0.1:{port}"),
            "--log".into(),
            "warn,ledger_store=info".into(),
        ];
        args.extend_from_slice(extra);
        let mut server = Server::start("ledgerd", binary, &args, log, port).await?;
        let url = format!("http://127.0.0.1:{port}");
        loop {
            let answered = match LedgerClient::connect(url.clone()).await {
                Ok(mut client) => client.list_streams(pb::ListStreamsRequest::default()).await.is_ok(),
                Err(_) => false,
            };
            if answered {
                return Ok(Daemon { server, url, start_took: spawned.elapsed() });
            }
            if let Some(status) = server.child.try_wait()? {
                bail!("ledgerd exited with {status} before answering; its log:\n{}", server.log_tail());
            }
            if spawned.elapsed() > START_TIMEOUT {
                bail!("ledgerd did not answer within {START_TIMEOUT:?}; its log:\n{}", server.log_tail());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// # Errors
    /// The daemon does not accept connections.
    pub async fn client(&self) -> Result<LedgerClient<Channel>> {
        LedgerClient::connect(self.url.clone()).await.with_context(|| format!("connecting to {}", self.url))
    }

    /// `kill -9`: SIGKILL, then reaps the process.
    ///
    /// # Errors
    /// The signal could not be sent or the process not reaped.
    pub async fn kill9(mut self) -> Result<Killed> {
        let was_running = self.server.child.try_wait()?.is_none();
        self.server.child.start_kill().context("sending SIGKILL to ledgerd")?;
        let status = self.server.child.wait().await?;
        Ok(Killed { was_running, signal: status.signal() })
    }

    /// SIGTERM, the graceful shutdown, and its exit status.
    ///
    /// # Errors
    /// It did not exit within 30 s (it is then killed).
    pub async fn stop(mut self) -> Result<ExitStatus> {
        let pid = self.server.pid().context("ledgerd has already been reaped")?;
        // `kill(1)`: this workspace forbids the `unsafe` a direct kill(2) would take.
        tokio::process::Command::new("kill").arg("-TERM").arg(pid.to_string()).status().await?;
        match tokio::time::timeout(Duration::from_secs(30), self.server.child.wait()).await {
            Ok(status) => Ok(status?),
            Err(_) => {
                self.server.child.kill().await?;
                bail!("ledgerd did not stop within 30 s of SIGTERM; its log:\n{}", self.server.log_tail())
            }
        }
    }

    pub fn log_tail(&self) -> String {
        self.server.log_tail()
    }

    /// Waits up to `within` for the daemon to exit by itself (as it does once a write to its
    /// log failed), and returns its exit status and its whole log.
    ///
    /// # Errors
    /// It was still running after `within` (it is then killed).
    pub async fn exited(mut self, within: Duration) -> Result<(ExitStatus, String)> {
        match tokio::time::timeout(within, self.server.child.wait()).await {
            Ok(status) => Ok((status?, std::fs::read_to_string(&self.server.log)?)),
            Err(_) => {
                self.server.child.kill().await?;
                bail!("ledgerd was still running {within:?} later; its log:\n{}", self.server.log_tail())
            }
        }
    }
}

/// What the store said in a ledgerd log (`ledger_store` at info and above), with the fan-out's
/// warnings and any error: each message once, with how often it came and the fields of its first coming,
/// e.g. `INFO indexed the records a stop left unindexed (n_frames=3 from=… to=…)`.
pub fn said_at_start(log_text: &str) -> Vec<String> {
    let mut said: Vec<(String, String, usize)> = Vec::new();
    for line in log_text.lines().map(strip_ansi) {
        // `<time> <LEVEL> <target>: <message> <field>=<value> …`
        let mut words = line.split_whitespace();
        let (Some(_time), Some(level), Some(target)) = (words.next(), words.next(), words.next()) else { continue };
        let wanted = match level {
            "ERROR" => true,
            "WARN" => target.starts_with("ledger_store") || target.contains("nats"),
            "INFO" => target.starts_with("ledger_store"),
            _ => false,
        };
        if !wanted {
            continue;
        }
        let rest: Vec<&str> = words.collect();
        let is_field = |w: &&str| {
            w.split_once('=')
                .is_some_and(|(k, _)| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        };
        let split = rest.iter().position(is_field).unwrap_or(rest.len());
        let message = format!("{level} {}", rest[..split].join(" "));
        match said.iter_mut().find(|(m, _, _)| *m == message) {
            Some((_, _, n)) => *n += 1,
            None => said.push((message, rest[split..].join(" "), 1)),
        }
    }
    said.into_iter()
        .map(|(message, fields, n)| {
            let fields: String = fields.chars().take(160).collect();
            let times = if n > 1 { format!(" ×{n}") } else { String::new() };
            if fields.is_empty() {
                format!("{message}{times}")
            } else {
                format!("{message} ({fields}){times}")
            }
        })
        .collect()
}

/// A log line without its terminal colours (`ESC [ … letter`).
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stores_account_is_gathered_once_per_message() {
        let log = "\u{1b}[2m2026-11-26T14:00:00.1Z\u{1b}[0m \u{1b}[32m INFO\u{1b}[0m \u{1b}[2mledger_store::sled::recover\u{1b}[0m\u{1b}[2m:\u{1b}[0m indexed the records a stop left unindexed \u{1b}[3mn_frames\u{1b}[0m\u{1b}[2m=\u{1b}[0m3 from=10 to=99
2026-11-26T14:00:00.2Z  INFO ledger_daemon::server: listening addr=127.0.0.1:1
2026-11-26T14:00:00.2Z  WARN ledger_daemon::server: no --auth-file: running open
2026-11-26T14:00:00.3Z  INFO ledger_store::sequencer: no usable snapshot: replaying the stream once stream=game/a version=3
2026-11-26T14:00:00.4Z  INFO ledger_store::sequencer: no usable snapshot: replaying the stream once stream=game/b version=9
2026-11-26T14:00:00.5Z  WARN ledger_daemon::nats::fanout: NATS fan-out paused; appends go on error=x waiting=2
";
        assert_eq!(
            said_at_start(log),
            vec![
                "INFO indexed the records a stop left unindexed (n_frames=3 from=10 to=99)".to_owned(),
                "INFO no usable snapshot: replaying the stream once (stream=game/a version=3) ×2".to_owned(),
                "WARN NATS fan-out paused; appends go on (error=x waiting=2)".to_owned(),
            ]
        );
    }
}
