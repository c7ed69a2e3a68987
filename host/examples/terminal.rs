//! Asks a batch of questions in the terminal and prints the result JSON.
//!
//! With a terminal that can be drawn on, the questions are asked with arrow keys; without one
//! (a pipe, `TERM=dumb`), as numbered lines read from standard input.
//!
//! ```sh
//! cargo run -p interview-host --example terminal
//! printf '2\nyes\n\n' | cargo run -p interview-host --example terminal
//! ```

use std::io::IsTerminal;

use interview_host::Plugin;

use interview_host::ui::{LineUi, TerminalUi, Ui};

const REQUEST: &str = r#"{
  "questions": [
    {"question": "Which environment should I deploy to?", "header": "Target",
     "options": [
       {"label": "staging", "description": "Safe to break"},
       {"label": "production", "description": "Customers see it"}]},
    {"question": "Run the database migrations first?", "header": "Migrations", "type": "confirm"}
  ]
}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let plugin = Plugin::load()?;
    let drawable = std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
        && std::env::var("TERM").is_ok_and(|term| term != "dumb");
    // The terminal UI draws on stderr, so that stdout stays the result alone.
    let ui: Box<dyn Ui> = if drawable {
        Box::new(TerminalUi::new(std::io::stderr(), true))
    } else {
        Box::new(LineUi::stdio())
    };
    let mut session = plugin.session(ui)?;
    let result = session.call("interview", REQUEST)?;
    println!("{}", result.json);
    Ok(())
}
