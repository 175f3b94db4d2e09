//! `ledger-bench`: see the library's documentation and docs/BENCHMARKS.md.

use clap::Parser;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let report = ledger_bench::run(ledger_bench::Args::parse()).await?;
    if !report.errors.is_empty() {
        eprintln!("{} error(s):", report.errors.len());
        for e in &report.errors {
            eprintln!("  {e}");
        }
        std::process::exit(1);
    }
    Ok(())
}
