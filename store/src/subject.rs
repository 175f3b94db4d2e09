//! Stream ids as NATS subject tokens, shared by the JetStream log and the fan-out.
//!
//! Stream ids are `[A-Za-z0-9._-]`; a `.` would split the id into two subject tokens, so it is
//! written `%2E` (and a `%`, which ids never hold, would be `%25`): `game/wm.2026` becomes the
//! token `wm%2E2026`.

/// A stream id as one subject token.
pub fn escape(id: &str) -> String {
    id.replace('%', "%25").replace('.', "%2E")
}

/// The stream id a token stands for.
pub fn unescape(token: &str) -> String {
    token.replace("%2E", ".").replace("%25", "%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_hold_no_dot() {
        for id in ["wm.2026-q1", "a%b", "plain", "..", "%2E"] {
            let token = escape(id);
            assert!(!token.contains('.'), "{token}");
            assert_eq!(unescape(&token), id);
        }
        assert_eq!(escape("a%b"), "a%25b");
    }
}
