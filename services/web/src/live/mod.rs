//! The live plumbing, which knows no page: server-sent events fed by the log's subscription
//! ([`sse`]), and the pages rendered once per change for all their viewers ([`shared`]). A live
//! page registers how it renders ([`shared::LivePage`]); pages import this folder, never the
//! reverse.

pub(crate) mod shared;
pub(crate) mod sse;
