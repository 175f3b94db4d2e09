//! The Architecture Invariants of docs/ARCHITECTURE.md that a reading of the code can check:
//! the domain crates `ledger` and `replay`, and the proofs' `ledger-proof`, depend, even
//! transitively, on none of tokio, sled, tonic, prost or async-nats, and their own code names no
//! file, socket, clock or environment (and replay's no float); the store never sees protobuf,
//! and its top-level modules import one another without a circle; the crates under `services/`
//! keep to their jobs (the house and the web pages know no protobuf, the CLI no web server, the
//! daemon no CLI); hand-built gRPC statuses stay in the house's `error.rs`, and what
//! `server::run` wires imports nothing from `server`.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

const FORBIDDEN: &[&str] = &["tokio", "sled", "tonic", "prost", "async-nats", "mio"];

/// What the store must not depend on: it works on domain types, behind `ledger_proto::convert`.
const NOT_IN_THE_STORE: &[&str] = &["ledger-proto", "prost", "tonic", "axum"];

#[test]
fn the_domain_crates_do_no_io() {
    let checks =
        [("ledger", FORBIDDEN), ("replay", FORBIDDEN), ("ledger-proof", FORBIDDEN), ("ledger-store", NOT_IN_THE_STORE)];
    let dependencies = dependencies_of(&checks.map(|(package, _)| package), &[]);
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

/// Everything each of `packages` depends on, even transitively (normal dependencies only),
/// except what comes only through one of `not_through` (which is listed, not followed).
fn dependencies_of<const N: usize>(packages: &[&str; N], not_through: &[&str]) -> [BTreeSet<String>; N] {
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
                if *normal && seen.insert(names[dep].to_owned()) && !not_through.contains(&names[dep]) {
                    todo.push(dep);
                }
            }
        }
        seen
    })
}

/// What each crate under `services/` must not depend on, even transitively. tonic's own server
/// side brings axum (its router) wherever tonic is, in one build with ledgerd's: the CLI and the
/// house reach axum through tonic only, never on their own, so the walk does not follow tonic.
const CRATE_JOBS: &[(&str, &[&str])] = &[
    ("ledger-cli", &["axum", "ledger-web", "ledger-daemon"]),
    ("ledger-house", &["axum", "ledger-proto", "prost", "ledger-web", "ledger-cli", "ledger-daemon"]),
    ("ledger-web", &["ledger-proto", "prost", "ledger-cli", "ledger-daemon"]),
    ("ledger-daemon", &["ledger-cli"]),
];

#[test]
fn each_crate_of_the_services_keeps_to_its_job() {
    let dependencies =
        dependencies_of(&[CRATE_JOBS[0].0, CRATE_JOBS[1].0, CRATE_JOBS[2].0, CRATE_JOBS[3].0], &["tonic"]);
    for ((package, forbidden), dependencies) in CRATE_JOBS.iter().zip(dependencies) {
        let found: Vec<&&str> = forbidden.iter().filter(|f| dependencies.contains(**f)).collect();
        assert!(found.is_empty(), "{package} depends on {found:?}");
    }
}

/// Where the crates under `services/` may name protobuf types (paths under `services/`): the
/// gRPC services and `ledgerctl`. The conversions are `ledger_proto::convert`; the house and
/// the web pages ask the projections facade and know no protobuf.
const PROTOBUF_AT: &[&str] = &["daemon/src/server/", "cli/src/", "src/bin/"];

/// Where a `tonic::Status` may be built by hand: the house's `error.rs`, whose `From<Error> for
/// tonic::Status` is the one place a failure becomes a status (every other place fails with an
/// `Error` and lets `?` convert it).
const STATUS_AT: &[&str] = &["house/src/error.rs"];

/// The projections facade knows no transport; the house no web server.
const TRANSPORTS: &[&str] = &["tonic", "prost", "axum"];

/// What `server::run` wires and what the services use; none of them imports from `server`.
const WIRED_BY_THE_SERVER: &[&str] =
    &["daemon/src/config.rs", "daemon/src/metrics.rs", "daemon/src/limits.rs", "daemon/src/tls.rs"];

#[test]
fn protobuf_statuses_and_imports_of_the_server_stay_where_they_are_listed() {
    let services = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for folder in ["src", "house/src", "web/src", "cli/src", "daemon/src"] {
        let before = files.len();
        rust_files(&services.join(folder), &mut files);
        assert!(files.len() > before, "no code in services/{folder}");
    }
    assert!(files.len() > 80, "{} files under {}", files.len(), services.display());
    let mut wrong = Vec::new();
    for file in files {
        let name = file.strip_prefix(services).unwrap().to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(&file).unwrap();
        let code: String =
            text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let allowed = |places: &[&str]| places.iter().any(|place| name.starts_with(place));
        if (code.contains("ledger_proto") || code.contains("pb::") || code.contains("prost")) && !allowed(PROTOBUF_AT) {
            wrong.push(format!("{name} names protobuf types"));
        }
        if builds_a_status(&code) && !allowed(STATUS_AT) {
            wrong.push(format!("{name} builds a tonic::Status"));
        }
        if WIRED_BY_THE_SERVER.contains(&name.as_str()) && code.contains("crate::server") {
            wrong.push(format!("{name} imports from the server that wires it"));
        }
        // The pages ask the projections facade, not the gRPC services in-process.
        if name.starts_with("web/") && (code.contains("ledger_daemon") || code.contains("crate::server")) {
            wrong.push(format!("{name} imports from the gRPC server"));
        }
        if name.starts_with("house/src/facade/") && TRANSPORTS.iter().any(|t| code.contains(&format!("{t}::"))) {
            wrong.push(format!("{name} names a transport"));
        }
        if name.starts_with("house/") && code.contains("axum") {
            wrong.push(format!("{name} names the web server"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(builds_a_status("Err(tonic::Status::not_found(x))") && !builds_a_status("FanoutStatus::new()"));
}

/// The store's top-level modules (`store/src/<m>.rs` or `store/src/<m>/`) import one another
/// (`crate::<m>`) without a circle, so each can be read, and split, on its own.
#[test]
fn the_stores_modules_import_one_another_without_a_circle() {
    let imports = top_level_imports("../store/src");
    assert!(imports.values().any(|used| !used.is_empty()), "no module of the store imports another");
    assert_no_circle("the store's", &imports);
}

/// The web room's folders and shared files (`web/src/<m>.rs` or `web/src/<m>/`: the pages by
/// audience, the live plumbing, what every page shares) import one another without a circle;
/// and the live plumbing imports no page: a live page registers how it renders
/// (`live::shared::LivePage`), so pages depend on `live/`, never the reverse.
#[test]
fn the_web_rooms_folders_import_one_another_without_a_circle() {
    let imports = top_level_imports("web/src");
    assert_no_circle("the web room's", &imports);
    const PAGES: &[&str] = &["public", "players", "table", "organise", "jury", "paper", "hall", "analysts"];
    for page in PAGES {
        assert!(imports.contains_key(*page), "no folder web/src/{page}");
    }
    let live: Vec<&String> = imports["live"].iter().filter(|m| PAGES.contains(&m.as_str())).collect();
    assert!(live.is_empty(), "the live plumbing imports pages: {live:?}");
}

/// What each top-level module of the crate at `src` (relative to `services/`) names of the others
/// (`crate::<m>`), `lib.rs` left out (it declares them all).
fn top_level_imports(src: &str) -> HashMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut imports: HashMap<String, BTreeSet<String>> = HashMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        let module = relative.split('/').next().unwrap().trim_end_matches(".rs").to_owned();
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let used = imports.entry(module.clone()).or_default();
        for line in text.lines().filter(|line| !line.trim_start().starts_with("//")) {
            for (at, _) in line.match_indices("crate::") {
                let name: String =
                    line[at + "crate::".len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !name.is_empty() && name != module {
                    used.insert(name);
                }
            }
        }
    }
    assert!(imports.len() > 5, "{} modules in {}", imports.len(), src.display());
    imports
}

/// Panics, naming it, at a circle of `imports` (`whose`: whose modules they are).
fn assert_no_circle(whose: &str, imports: &HashMap<String, BTreeSet<String>>) {
    // A depth-first walk: a module met again while it is still on the path closes a circle.
    fn walk(
        whose: &str,
        module: &str,
        imports: &HashMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if let Some(at) = path.iter().position(|m| m == module) {
            panic!("{whose} modules import one another in a circle: {} -> {module}", path[at..].join(" -> "));
        }
        if done.contains(module) {
            return;
        }
        path.push(module.to_owned());
        for next in imports.get(module).into_iter().flatten().filter(|m| imports.contains_key(*m)) {
            walk(whose, next, imports, path, done);
        }
        path.pop();
        done.insert(module.to_owned());
    }
    let mut done = BTreeSet::new();
    let mut modules: Vec<&String> = imports.keys().collect();
    modules.sort();
    for module in modules {
        walk(whose, module, imports, &mut Vec::new(), &mut done);
    }
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
