//! Starting, measuring and stopping the server processes the bench owns.

use anyhow::{bail, Context, Result};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};

/// The most events a stream of the measured ledgerd may hold: more than any run writes.
pub const UNBOUNDED_STREAM: u64 = 1_000_000_000;

/// A loopback port nobody listens on right now (the OS picks it; a tiny race remains until the
/// server binds it, acceptable for a bench).
pub fn free_port() -> Result<u16> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

/// A child process with its output in files beside its data, killed when dropped.
pub struct Server {
    pub child: Child,
    pub name: String,
    pub log: PathBuf,
}

impl Server {
    /// Starts `program args…`, output to `log`, and waits until `port` accepts connections.
    pub async fn start(name: &str, program: &Path, args: &[String], log: PathBuf, port: u16) -> Result<Server> {
        let out = std::fs::File::create(&log)?;
        let mut command = Command::new(program);
        // ledgerd reads its settings from LEDGER_* too: a fan-out or auth file set in the
        // caller's environment must not change what is measured.
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("LEDGER_") {
                command.env_remove(key);
            }
        }
        // These programs write streams far longer than any game: ledgerd's bound on a stream's
        // length (5,000 events by default) is raised. Through the environment, which a ledgerd
        // built before the bound ignores (a flag would stop it: before/after runs use one).
        command.env("LEDGER_MAX_STREAM_EVENTS", UNBOUNDED_STREAM.to_string());
        let child = command
            .args(args)
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", program.display()))?;
        let mut server = Server { child, name: name.to_owned(), log };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Ok(server);
            }
            if let Some(status) = server.child.try_wait()? {
                bail!("{name} exited with {status} before listening; its log:\n{}", server.log_tail());
            }
            if Instant::now() > deadline {
                bail!("{name} did not listen on port {port} within 30 s; its log:\n{}", server.log_tail());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// The process's peak resident set (`VmHWM`), in bytes.
    pub fn peak_rss(&self) -> Option<u64> {
        peak_rss(self.pid()?)
    }

    /// The last lines of the server's output, for error messages.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    /// SIGTERM, so the server shuts down cleanly (nats-server flushes its blocks), then SIGKILL
    /// if it has not exited within 20 s. `kill(1)` because this workspace forbids `unsafe`.
    pub async fn stop(mut self) -> Result<()> {
        if let Some(pid) = self.pid() {
            let _ = Command::new("kill").arg("-TERM").arg(pid.to_string()).status().await;
            if tokio::time::timeout(Duration::from_secs(20), self.child.wait()).await.is_ok() {
                return Ok(());
            }
        }
        self.child.kill().await?;
        Ok(())
    }
}

/// `VmHWM` of a process, in bytes.
pub fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Bytes a directory tree occupies on disk (allocated blocks, as `du` counts them: sparse or
/// preallocated files count for what they really hold).
pub fn disk_usage(dir: &Path) -> u64 {
    let mut total = 0;
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                pending.push(entry.path());
            } else {
                total += meta.blocks() * 512;
            }
        }
    }
    total
}

/// The first line a program prints for `--version`, e.g. `nats-server: v2.15.1`.
pub async fn version_line(program: &Path) -> Result<String> {
    let out = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .await
        .with_context(|| format!("running {} --version", program.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    Ok(text.lines().next().unwrap_or_default().trim().to_owned())
}

/// `(major, minor, patch)` out of a line like `nats-server: v2.15.1`.
pub fn parse_version(line: &str) -> Option<(u32, u32, u32)> {
    let v = line.split_whitespace().find_map(|w| w.strip_prefix('v').or(Some(w)).filter(|w| w.contains('.')))?;
    let mut parts = v.split('.').map(|p| p.chars().take_while(char::is_ascii_digit).collect::<String>());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    Some((major, minor, patch))
}

/// `program` if it is a file, else the first `name` on `PATH`.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(parse_version("nats-server: v2.15.1"), Some((2, 15, 1)));
        assert_eq!(parse_version("nats-server: v2.9.10"), Some((2, 9, 10)));
        assert_eq!(parse_version("ledgerd 0.1.0"), Some((0, 1, 0)));
        assert_eq!(parse_version("nothing here"), None);
    }

    #[test]
    fn own_peak_rss_is_read() {
        assert!(peak_rss(std::process::id()).unwrap() > 0);
    }
}
