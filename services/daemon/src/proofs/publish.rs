//! Each signed checkpoint published on NATS as it is signed (core NATS, the signed note as the
//! payload), for witnesses and boards that follow the ledger without polling it.
//!
//! The subject is [`SUBJECT`], outside `ledger.v1.>`: the fan-out's JetStream stream listens on
//! all of `ledger.v1.>` and expects its last message to be an event (it resumes from it), so a
//! checkpoint there would stop the fan-out. A checkpoint missed while NATS is away is not sent
//! later: the next one extends it, and a witness asks for the consistency proof between them.

use super::checkpoints::SignedCheckpoint;
use crate::nats::NatsOptions;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Where checkpoints are published.
pub const SUBJECT: &str = "ledger.checkpoint.v1";
/// The header carrying the checkpoint's tree size.
pub const SIZE_HEADER: &str = "Ledger-Checkpoint-Size";

/// Publishes every checkpoint `latest` announces until `stop` turns true.
pub async fn run(
    options: NatsOptions,
    mut latest: watch::Receiver<Option<Arc<SignedCheckpoint>>>,
    mut stop: watch::Receiver<bool>,
) {
    let mut outage = false;
    loop {
        let client = tokio::select! {
            _ = stop.wait_for(|s| *s) => return,
            client = options.connect() => client,
        };
        let client = match client {
            Ok(client) => client,
            Err(error) => {
                if !outage {
                    tracing::warn!(%error, "checkpoints are not published on NATS until it is back");
                    outage = true;
                }
                tokio::select! {
                    _ = stop.wait_for(|s| *s) => return,
                    () = tokio::time::sleep(Duration::from_secs(1)) => continue,
                }
            }
        };
        outage = false;
        loop {
            let signed = latest.borrow_and_update().clone();
            if let Some(signed) = signed {
                let mut headers = async_nats::HeaderMap::new();
                headers.insert(SIZE_HEADER, signed.checkpoint.size.to_string().as_str());
                let sent = client.publish_with_headers(SUBJECT, headers, signed.note.clone().into()).await;
                if let Err(error) = sent.map_err(|e| e.to_string()).and(client.flush().await.map_err(|e| e.to_string()))
                {
                    tracing::warn!(%error, "a checkpoint was not published on NATS");
                    break;
                }
            }
            tokio::select! {
                _ = stop.wait_for(|s| *s) => return,
                changed = latest.changed() => if changed.is_err() { return },
            }
        }
    }
}
