//! The HTTP-01 answers an order is waiting for: the authority fetches
//! `http://<domain>/.well-known/acme-challenge/<token>` and expects the key authorization. The
//! order ([`super::order`]) puts them here, the plain-HTTP port answers from here.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

/// Tokens → key authorizations, shared by the order and the plain-HTTP port.
#[derive(Debug, Clone, Default)]
pub struct Challenges(Arc<RwLock<HashMap<String, String>>>);

impl Challenges {
    /// What to answer for `token`, if an order is waiting for it.
    pub fn answer(&self, token: &str) -> Option<String> {
        self.0.read().unwrap_or_else(PoisonError::into_inner).get(token).cloned()
    }

    pub(super) fn insert(&self, token: String, key_authorization: String) {
        self.0.write().unwrap_or_else(PoisonError::into_inner).insert(token, key_authorization);
    }

    pub(super) fn remove(&self, tokens: &[String]) {
        let mut map = self.0.write().unwrap_or_else(PoisonError::into_inner);
        for token in tokens {
            map.remove(token);
        }
    }
}
