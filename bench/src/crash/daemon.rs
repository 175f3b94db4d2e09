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
        let spawned = Instant::now();
        let port = free_port()?;
        let args = vec![
            "--data-dir".into(),
            data_dir.display().to_string(),
            "--listen".into(),
            format!("127.0.0.1:{port}"),
            "--log".into(),
            "warn".into(),
        ];
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
