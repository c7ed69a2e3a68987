//! An MCP client that answers the forms of the server it talks to in the terminal: it starts a
//! server over stdio, calls one of its tools, and prints the result. Whenever the server
//! elicits (asks the user through the client), the person answers with arrow keys.
//!
//! ```sh
//! cargo run -p interview-host --features rmcp --example mcp_client -- TOOL COMMAND [ARGS...]
//! ```

use std::sync::Arc;

use interview_host::{PersonElicitation, Plugin};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: mcp_client TOOL COMMAND [ARGS...]";
    let tool = args.next().ok_or(usage)?;
    let mut server = tokio::process::Command::new(args.next().ok_or(usage)?);
    server.args(args);

    let plugin = Arc::new(Plugin::load()?);
    let client = PersonElicitation::terminal(plugin)
        .serve(TokioChildProcess::new(server)?)
        .await?;
    let result = client.call_tool(CallToolRequestParams::new(tool)).await?;
    println!("{}", serde_json::to_string_pretty(&result)?);
    client.cancel().await?;
    Ok(())
}
