//! The Architecture Invariants of docs/ARCHITECTURE.md that a reading of the code can check:
//! the domain crates `ledger` and `replay`, and the proofs' `ledger-proof`, depend, even
//! transitively, on none of tokio, sled, tonic, prost or async-nats, and their own code names no
//! file, socket, clock or environment (and replay's no float); the store never sees
//! protobuf; in `services`, protobuf types and hand-built gRPC statuses stay in the places
//! listed here, and what `server::run` wires imports nothing from `server`.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

const FORBIDDEN: &[&str] = &["tokio", "sled", "tonic", "prost", "async-nats", "mio"];

/// What the store must not depend on: it works on domain types, behind `services/src/convert`.
const NOT_IN_THE_STORE: &[&str] = &["ledger-proto", "prost", "tonic", "axum"];

#[test]
fn the_domain_crates_do_no_io() {
    let checks =
        [("ledger", FORBIDDEN), ("replay", FORBIDDEN), ("ledger-proof", FORBIDDEN), ("ledger-store", NOT_IN_THE_STORE)];
    let dependencies = dependencies_of(&checks.map(|(package, _)| package));
    for ((package, forbidden), dependencies) in checks.iter().zip(dependencies) {
        let found: Vec<&&str> = forbidden.iter().filter(|f| dependencies.contains(**f)).collect();
        assert!(found.is_empty(), "{package} depends on {found:?}");
    }
}

/// What the domain's own code must not name: files, sockets, clocks, the environment, processes.
const NO_IO: &[&str] =
    &["std::fs", "std::net", "SystemTime", "Instant::now", "std::env", "std::process", "thread::sleep"];

#[test]
fn the_domain_code_names_no_file_clock_or_float() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut wrong = Vec::new();
    for (folder, forbidden) in
        [("ledger/src", NO_IO), ("replay/src", &[NO_IO, &["f64", "f32"]].concat()[..]), ("proof/src", NO_IO)]
    {
        let mut files = Vec::new();
        rust_files(&root.join(folder), &mut files);
        assert!(!files.is_empty(), "no code in {folder}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for line in text.lines().filter(|line| !line.trim_start().starts_with("//")) {
                for word in forbidden.iter().filter(|word| line.contains(**word)) {
                    wrong.push(format!("{}: `{word}` in {}", file.display(), line.trim()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Everything each of `packages` depends on, even transitively (normal dependencies only).
fn dependencies_of<const N: usize>(packages: &[&str; N]) -> [BTreeSet<String>; N] {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let metadata: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: HashMap<&str, &str> = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: HashMap<&str, Vec<(&str, bool)>> = metadata["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let deps = n["deps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let normal = d["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null());
                    (d["pkg"].as_str().unwrap(), normal)
                })
                .collect();
            (n["id"].as_str().unwrap(), deps)
        })
        .collect();
    packages.map(|package| {
        let root = names.iter().find(|(_, name)| **name == package).map(|(id, _)| *id).unwrap();
        let mut seen = BTreeSet::new();
        let mut todo = vec![root];
        while let Some(id) = todo.pop() {
            for (dep, normal) in &nodes[id] {
                if *normal && seen.insert(names[dep].to_owned()) {
                    todo.push(dep);
                }
            }
        }
        seen
    })
}

/// Where `services` may name protobuf types (paths under `services/src`): the conversions, the
/// gRPC services and `ledgerctl`. The web pages ask the projections facade.
const PROTOBUF_AT: &[&str] = &["convert/", "server/", "cli/"];

/// Where a `tonic::Status` may be built by hand: `error.rs`, whose `From<Error> for
/// tonic::Status` is the one place a failure becomes a status (every other place fails with an
/// `Error` and lets `?` convert it).
const STATUS_AT: &[&str] = &["error.rs"];

/// The projections facade knows no transport, so that it can move into a crate of its own.
const TRANSPORTS: &[&str] = &["tonic", "prost", "axum"];

/// What `server::run` wires and what the services use; none of them imports from `server`.
const WIRED_BY_THE_SERVER: &[&str] = &["config.rs", "metrics.rs", "limits.rs", "tls.rs"];

#[test]
fn protobuf_statuses_and_imports_of_the_server_stay_where_they_are_listed() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 50, "{} files under {}", files.len(), src.display());
    let mut wrong = Vec::new();
    for file in files {
        let name = file.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap();
        let allowed = |places: &[&str]| places.iter().any(|place| name.starts_with(place));
        if (text.contains("ledger_proto") || text.contains("pb::")) && !allowed(PROTOBUF_AT) {
            wrong.push(format!("{name} names protobuf types"));
        }
        if builds_a_status(&text) && !allowed(STATUS_AT) {
            wrong.push(format!("{name} builds a tonic::Status"));
        }
        if WIRED_BY_THE_SERVER.contains(&name.as_str()) && text.contains("crate::server") {
            wrong.push(format!("{name} imports from the server that wires it"));
        }
        // The pages ask the projections facade, not the gRPC services in-process.
        if name.starts_with("web/") && text.contains("crate::server") {
            wrong.push(format!("{name} imports from the gRPC server"));
        }
        if name.starts_with("facade/") && TRANSPORTS.iter().any(|t| text.contains(&format!("{t}::"))) {
            wrong.push(format!("{name} names a transport"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(builds_a_status("Err(tonic::Status::not_found(x))") && !builds_a_status("FanoutStatus::new()"));
}

/// `Status::<constructor>` (not `Status::from`, which is `error.rs`'s conversion), and not
/// the tail of a longer name such as `FanoutStatus::new`.
fn builds_a_status(text: &str) -> bool {
    text.match_indices("Status::").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = &text[at + "Status::".len()..];
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && after.starts_with(|c: char| c.is_ascii_lowercase())
            && !after.starts_with("from")
    })
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
