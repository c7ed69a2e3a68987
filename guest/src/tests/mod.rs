//! Unit tests of the plugin's logic, natively, with a scripted UI.

mod call_form;
mod dialects;
mod elicitation;
mod flow;
mod host_results;
mod results;
mod secrets;
mod validation;
