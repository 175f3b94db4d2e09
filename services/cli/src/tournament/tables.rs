//! `ledgerctl tournament tables`: the tablets' sign-in sheet. One fresh token per table of the
//! tournament's schedule (actor `<tournament>-table-<n>`, role table), their digests written
//! into ledgerd's auth file (kept entries, an atomic replace: `ledger_house::auth::file`), and a
//! print-ready page with a QR code per table (`ledger_house::paper::tables`). The tokens live only on
//! the sheet. ledgerd admits them on its next SIGHUP, without a restart.

use crate::common::CliError;
use crate::connection::{connect, read_stream};
use crate::{values, Cli};
use ledger::StreamId;
use ledger_house::auth::file::{add_entries, mint_token, scoped_entry};
use ledger_house::auth::{Role, Scope};
use ledger_house::i18n::Lang;
use ledger_house::paper::tables::{sheet, signin_link, site_url, table_actor, TableSignin};
use ledger_house::projections::created_tournament;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct TablesArgs {
    #[arg(long, value_parser = values::tournament)]
    tournament: StreamId,
    /// The address the tablets reach ledgerd's web pages at, e.g. `https://ledger.local:8443`.
    #[arg(long, value_parser = site_url)]
    url: String,
    /// ledgerd's auth file: the tables' token digests are added to it (every entry is kept: a
    /// re-print logs no tablet out; revoke a table's code on the console's codes page, or by
    /// editing the file).
    #[arg(long)]
    auth_file: PathBuf,
    /// Where the sheet goes.
    #[arg(long, default_value = "tables.html")]
    out: PathBuf,
    /// The sheet's language.
    #[arg(long, default_value = "en", value_parser = ["en", "es"])]
    lang: String,
}

pub async fn run(cli: &Cli, args: &TablesArgs) -> Result<(), CliError> {
    let id = &args.tournament;
    let records = read_stream(&mut connect(cli).await?, &id.to_string()).await.map_err(CliError::from)?;
    let facts = created_tournament(id, &records).map_err(super::not_found)?;
    let numbers: BTreeSet<u32> = facts.games.iter().map(|g| g.slot.table).collect();
    if numbers.is_empty() {
        return Err(CliError::Refused(format!(
            "{id} has no games on tables yet: draw the qualifying rounds first (`ledgerctl tournament draw`)"
        )));
    }
    let mut tables = Vec::new();
    let mut entries = Vec::new();
    for table in numbers {
        let token = mint_token()?;
        let actor = table_actor(id.id(), table);
        // The sheet lies on the table: its code records only that table's games.
        let scope = Scope { tournament: Some(id.id().to_owned()), table: Some(table), streams: Vec::new() };
        entries.push(scoped_entry(&token, &actor, Role::Table, &scope));
        tables.push(TableSignin { table, link: signin_link(&args.url, id.id(), table, &token), actor });
    }
    let lang = Lang::from_code(&args.lang).unwrap_or(Lang::En);
    let html = sheet(lang, id.id(), &facts.name, &tables).map_err(|e| CliError::Failed(e.to_string()))?;
    // The sheet first, beside its final place: if the auth file then cannot be written, no
    // sheet of tokens that do not work is left; if it can, the sheet takes its place.
    let dir = match args.out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut page = tempfile::NamedTempFile::new_in(&dir)
        .map_err(|e| CliError::Failed(format!("cannot write in {}: {e}", dir.display())))?;
    page.write_all(html.as_bytes())?;
    add_entries(&args.auth_file, &entries).map_err(|e| CliError::Failed(e.to_string()))?;
    page.persist(&args.out)
        .map_err(|e| CliError::Failed(format!("cannot write {}: {}", args.out.display(), e.error)))?;
    say!(
        "{} table tokens added to {} (actors {}); the sheet is {}",
        tables.len(),
        args.auth_file.display(),
        tables.iter().map(|t| t.actor.as_str()).collect::<Vec<_>>().join(", "),
        args.out.display()
    );
    say!("ledgerd admits them once told to reload its auth file: kill -HUP <ledgerd's pid> (systemctl reload ledgerd)");
    Ok(())
}
