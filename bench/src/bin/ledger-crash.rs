//! `ledger-crash`: `kill -9` a running ledgerd under concurrent unary and pipelined appends,
//! restart it, and check that every acknowledged event is there exactly once, in order, with
//! its hash chain intact (see `ledger_bench::crash` and docs/RELIABILITY.md).
//!
//! ```sh
//! cargo build --release --bin ledgerd && cargo run --release -p ledger-bench --bin ledger-crash -- --cycles 100
//! ```
//!
//! Exits 0 when every cycle passed, 1 when a promise was broken (the data is kept), 2 when the
//! run could not be set up.

use clap::Parser;
use ledger_bench::crash::{run, CrashArgs};
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    match run(CrashArgs::parse()).await {
        Ok(report) => {
            println!("\n{}", report.summary());
            if report.passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("ledger-crash: {e:#}");
            ExitCode::from(2)
        }
    }
}
