//! The team inbox: questions from agents on many machines, answered by the right person from
//! anywhere, over HTTP.
//!
//! The asking side keeps the plugin: `--inbox URL` makes [`remote::RemoteUi`] the UI, which
//! puts each widget up on the server and hands back the reply a person gave there, for the
//! plugin to judge. The server ([`server`]) is a durable relay of those widgets: it never runs
//! the plugin, keeps every step, answer and token in its [`store`], and answers each step
//! exactly once, escalates or expires questions at their deadline, and tells people by webhook
//! ([`notify`]). Its own commands (`inbox serve|token|hook|audit`) are read in [`admin`].

pub mod admin;
mod notify;
mod page;
pub mod remote;
mod server;
pub mod store;
mod token;
