//! One ACME order (RFC 8555 section 7.4): the account (kept, or made and kept), the HTTP-01
//! challenges answered through [`Challenges`], a new key and its signing request, the chain.

use super::challenges::Challenges;
use super::store::{Store, StoreError};
use super::AcmeConfig;
use instant_acme::{
    Account, AuthorizationStatus, ChallengeType, Identifier, NewAccount, NewOrder, OrderStatus, RetryPolicy,
};
use std::time::Duration;

/// Why no certificate was obtained this time.
#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    #[error("the certificate authority: {0}")]
    Protocol(#[from] instant_acme::Error),
    #[error("the certificate's key or request: {0}")]
    Key(#[from] rcgen::Error),
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The account `config.directory` knows this ledgerd by: the one kept in the data directory,
/// else a new one, kept before it is used.
async fn account(config: &AcmeConfig, store: &Store) -> Result<Account, OrderError> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let builder = match &config.ca_root {
        Some(root) => Account::builder_with_root(root)?,
        None => Account::builder()?,
    };
    if let Some(credentials) = store.account(&config.directory)? {
        return Ok(builder.from_credentials(credentials).await?);
    }
    let contact: Vec<&str> = config.contact.iter().map(String::as_str).collect();
    let new = NewAccount { contact: &contact, terms_of_service_agreed: true, only_return_existing: false };
    let (account, credentials) = builder.create(&new, config.directory.clone(), None).await?;
    store.save_account(&config.directory, credentials)?;
    tracing::info!(directory = %config.directory, "ACME: a new account, kept in the data directory");
    Ok(account)
}

/// Orders a certificate for `config.domains`: its chain and its new key, both PEM.
pub(super) async fn obtain(
    config: &AcmeConfig,
    store: &Store,
    challenges: &Challenges,
) -> Result<(String, String), OrderError> {
    let account = account(config, store).await?;
    let identifiers: Vec<Identifier> = config.domains.iter().cloned().map(Identifier::Dns).collect();
    let mut order = account.new_order(&NewOrder::new(&identifiers)).await?;
    let mut tokens = Vec::new();
    let answered = answer_challenges(&mut order, challenges, &mut tokens).await;
    let ready = match answered {
        Ok(()) => order.poll_ready(&RetryPolicy::new().timeout(Duration::from_secs(120))).await,
        Err(error) => Err(error),
    };
    challenges.remove(&tokens);
    match ready? {
        OrderStatus::Ready => {}
        status => {
            return Err(OrderError::Refused(format!("the order is {status:?}, not ready: {:?}", order.state().error)))
        }
    }
    let key = rcgen::KeyPair::generate()?;
    let mut params = rcgen::CertificateParams::new(config.domains.clone())?;
    params.distinguished_name = rcgen::DistinguishedName::new();
    let request = params.serialize_request(&key)?;
    order.finalize_csr(request.der()).await?;
    let chain = order.poll_certificate(&RetryPolicy::new().timeout(Duration::from_secs(120))).await?;
    Ok((chain, key.serialize_pem()))
}

/// Puts each pending authorization's HTTP-01 answer in place and tells the authority to check.
async fn answer_challenges(
    order: &mut instant_acme::Order,
    challenges: &Challenges,
    tokens: &mut Vec<String>,
) -> Result<(), instant_acme::Error> {
    let mut authorizations = order.authorizations();
    while let Some(authorization) = authorizations.next().await {
        let mut authorization = authorization?;
        match authorization.status {
            AuthorizationStatus::Pending => {}
            AuthorizationStatus::Valid => continue,
            status => return Err(instant_acme::Error::Str(status_sentence(status))),
        }
        let Some(mut challenge) = authorization.challenge(ChallengeType::Http01) else {
            return Err(instant_acme::Error::Str("the authority offers no http-01 challenge"));
        };
        challenges.insert(challenge.token.clone(), challenge.key_authorization().as_str().to_owned());
        tokens.push(challenge.token.clone());
        challenge.set_ready().await?;
    }
    Ok(())
}

fn status_sentence(status: AuthorizationStatus) -> &'static str {
    match status {
        AuthorizationStatus::Invalid => "an authorization is invalid",
        AuthorizationStatus::Revoked => "an authorization was revoked",
        AuthorizationStatus::Expired => "an authorization expired",
        _ => "an authorization is in a state this client does not handle",
    }
}
