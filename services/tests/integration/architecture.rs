//! Architecture Invariant: the domain crates `ledger` and `replay`, and the proofs' `ledger-proof`,
//! depend, even transitively, on none of tokio, sled, tonic, prost or async-nats.

use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::process::Command;

const FORBIDDEN: &[&str] = &["tokio", "sled", "tonic", "prost", "async-nats", "mio"];

#[test]
fn the_domain_crates_do_no_io() {
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
    for domain in ["ledger", "replay", "ledger-proof"] {
        let root = names.iter().find(|(_, name)| **name == domain).map(|(id, _)| *id).unwrap();
        let mut seen = BTreeSet::new();
        let mut todo = vec![root];
        while let Some(id) = todo.pop() {
            for (dep, normal) in &nodes[id] {
                if *normal && seen.insert(names[dep]) {
                    todo.push(dep);
                }
            }
        }
        let found: Vec<&&str> = FORBIDDEN.iter().filter(|f| seen.contains(**f)).collect();
        assert!(found.is_empty(), "{domain} depends on {found:?}");
    }
}
