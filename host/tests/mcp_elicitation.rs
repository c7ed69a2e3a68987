//! `PersonElicitation` as an rmcp client's handler: an rmcp server's form reaches the person
//! through the plugin (here a scripted person), and the content goes back checked.

use std::sync::Arc;

use interview_host::{PersonElicitation, Plugin};

use interview_host::ui::{Nav, ReviewReply, ScriptedUi, SelectReply, Step, TextReply, Ui};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::json;

/// A server whose `register` tool asks the client for a name and a plan, and says what came
/// back.
struct Registrar;

fn form() -> ElicitRequestParams {
    serde_json::from_value(json!({
        "mode": "form",
        "message": "Create your account",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name", "minLength": 2},
                "plan": {"type": "string", "title": "Plan", "enum": ["free", "pro"]}
            },
            "required": ["name", "plan"]
        }
    }))
    .unwrap()
}

impl ServerHandler for Registrar {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::default();
        capabilities.tools = Some(ToolsCapability::default());
        let mut info = ServerConfig::new(capabilities);
        // The handshake-era revision, in which a server sends `elicitation/create` itself.
        info.protocol_version = ProtocolVersion::V_2025_11_25;
        info.server_info = Implementation::new("registrar", "1.0.0");
        info
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let reply = context
            .peer
            .create_elicitation(form())
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let said = serde_json::to_value(&reply).unwrap();
        Ok(CallToolResult::success(vec![ContentBlock::text(said.to_string())]).into())
    }
}

fn person(steps: Vec<Step>) -> PersonElicitation {
    let plugin = Arc::new(Plugin::builder().cache_dir(None).build().unwrap());
    PersonElicitation::new(plugin, move || -> Box<dyn Ui + Send> {
        Box::new(ScriptedUi::new(steps.clone()))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_form_is_answered_by_the_person_and_checked() {
    let (server_side, client_side) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move {
        let running = Registrar.serve(server_side).await.unwrap();
        let _ = running.waiting().await;
    });
    // A name too short is refused by the plugin and asked again, as in the terminal.
    let client = person(vec![
        Step::Text(TextReply::Submitted("A".into())),
        Step::Text(TextReply::Submitted("Ada".into())),
        Step::Select(SelectReply::picked(1)),
        Step::Review(ReviewReply::Submit),
    ])
    .serve(client_side)
    .await
    .unwrap();
    let result = client
        .call_tool(CallToolRequestParams::new("register"))
        .await
        .unwrap();
    let text = result.content[0].as_text().expect("a text content");
    let reply: serde_json::Value = serde_json::from_str(&text.text).unwrap();
    assert_eq!(
        reply,
        json!({"action": "accept", "content": {"name": "Ada", "plan": "pro"}})
    );
    client.cancel().await.unwrap();
    server.abort();
}

#[tokio::test]
async fn declining_and_leaving_are_said_as_mcp_says_them() {
    let declined = person(vec![Step::Text(TextReply::Nav(Nav::Decline))])
        .answer(form(), Some("registrar".into()))
        .await
        .unwrap();
    assert_eq!(declined.action, ElicitationAction::Decline);
    assert_eq!(declined.content, None);
    let left = person(vec![]).answer(form(), None).await.unwrap();
    assert_eq!(left.action, ElicitationAction::Cancel);
}

#[tokio::test]
async fn a_form_it_cannot_ask_is_an_invalid_params_error_and_nothing_is_asked() {
    // URL mode: a link for a browser, which a person at a terminal cannot follow.
    let request: ElicitRequestParams = serde_json::from_value(json!({
        "mode": "url",
        "message": "Sign in",
        "url": "https://example.com/auth",
        "elicitationId": "x1"
    }))
    .unwrap();
    let error = person(vec![]).answer(request, None).await.unwrap_err();
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(
        error.message.starts_with("mode is \"url\""),
        "{}",
        error.message
    );
    assert_eq!(error.data, Some(json!({"path": "mode"})));
}
