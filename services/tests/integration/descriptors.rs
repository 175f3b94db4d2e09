//! The real `ledgerd` started from a shell with the usual soft open-file limit of 1,024: it
//! raises the soft limit to the hard one, so 1,100 idle connections do not lock a new client
//! out (before, `accept` failed with `EMFILE` and every new client waited in the backlog).

use crate::daemon::{read_all, Daemon};
use crate::support::append;
use crate::support::eventually;
use ledger::{Event, Ruleset};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

/// One row of `/proc/PID/limits`: the soft and hard open-file limits.
pub(crate) fn open_file_limits(pid: u32) -> (String, String) {
    let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
    let row = limits.lines().find(|l| l.starts_with("Max open files")).expect("a Max open files row");
    let mut fields = row.trim_start_matches("Max open files").split_whitespace();
    (fields.next().unwrap().to_owned(), fields.next().unwrap().to_owned())
}

pub(crate) fn open_descriptors(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map(Iterator::count).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_client_is_served_beside_1100_idle_connections_under_a_1024_soft_limit() {
    const IDLE: usize = 1_100;
    // This test holds the 1,100 sockets itself.
    let (_, soft) = ledger_daemon::server::descriptors::raise_soft_limit();
    assert!(soft > 2_000, "the test needs a hard open-file limit above 2,000 (ulimit -Hn), found {soft}");

    let dir = tempfile::tempdir().unwrap();
    let ledgerd = env!("CARGO_BIN_EXE_ledgerd");
    let child = Command::new("bash")
        .args(["-c", r#"ulimit -Sn 1024 && exec "$0" "$@""#, ledgerd])
        .args(["--data-dir", dir.path().to_str().unwrap(), "--listen", "127.0.0.1:0", "--log", "warn"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let daemon = Daemon::announced_by(child);
    let pid = daemon.child.id();
    let (soft_now, hard) = open_file_limits(pid);
    assert_eq!(soft_now, hard, "ledgerd raised its soft open-file limit to the hard one");
    assert_ne!(soft_now, "1024");

    let idle: Vec<TcpStream> = (0..IDLE)
        .map(|i| TcpStream::connect(daemon.addr()).unwrap_or_else(|e| panic!("idle connection {i}: {e}")))
        .collect();
    // Every idle connection is accepted (and so holds a descriptor in ledgerd).
    eventually("ledgerd to accept the 1,100 idle connections", Duration::from_secs(30), || async {
        (open_descriptors(pid) > IDLE).then_some(())
    })
    .await;

    // A new client is served: it connects, appends and reads back.
    let mut client = daemon.connect().await;
    let start = Event::GameStarted { at_ms: 0, ruleset: Some(Ruleset::Cafe2023), tournament: None };
    let appended = client.append(append("game/limits", &[start], "limits-", None)).await.unwrap().into_inner();
    assert_eq!(appended.last_seq, 1);
    assert_eq!(read_all(&mut client, "game/limits").await.len(), 1);
    assert_eq!(idle.len(), IDLE);
    drop(idle);
}
