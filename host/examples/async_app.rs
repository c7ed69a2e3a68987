//! The plugin in an async application (tokio): the compiled plugin is shared, and each tool
//! call runs on a blocking thread, because asking a person blocks for as long as they think.
//! The runtime's other tasks (here, a ticker standing in for an agent's event loop) keep
//! running meanwhile.
//!
//! ```sh
//! printf '1\n' | cargo run -p interview-host --example async_app
//! ```

use std::sync::Arc;
use std::time::Duration;

use interview_host::Plugin;

use interview_host::ui::LineUi;

/// Runs one `interview` tool call with the person at the terminal, off the async threads.
async fn ask(plugin: Arc<Plugin>, arguments: String) -> Result<String, Box<dyn std::error::Error>> {
    let result = tokio::task::spawn_blocking(move || {
        // A session is made where it is used: the UI (stdin, stderr) stays on this thread.
        let mut session = plugin.session(LineUi::stdio())?;
        session.call("interview", &arguments)
    })
    .await??;
    Ok(result.json)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Loading compiles the component, or reads it from the cache: once per process.
    let plugin = Arc::new(tokio::task::spawn_blocking(Plugin::load).await??);

    let ticker = tokio::spawn(async {
        let mut ticks = tokio::time::interval(Duration::from_millis(100));
        loop {
            ticks.tick().await;
        }
    });
    let arguments = r#"{"question": "Continue with the refactor?", "options": ["yes", "no"]}"#;
    let result = ask(plugin, arguments.to_string()).await?;
    ticker.abort();
    println!("{result}");
    Ok(())
}
