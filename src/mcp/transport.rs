//! MCP over stdin and stdout, with every line judged by [`lines`] before rmcp sees it.
//!
//! A thread reads stdin (blocking reads, as rmcp's own stdio does on tokio's blocking pool)
//! and hands rmcp only messages it can read; it answers the other lines itself, through the
//! same writer as rmcp's replies, so that lines never interleave. It writes each refusal before
//! reading on, so that a refusal is out before the end of input ends the session.

use std::sync::Arc;

use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::AsyncWriteExt;
use tokio::sync::{Mutex, mpsc};

use super::lines::{self, INVALID_PARAMS, Refusal, Verdict};

type Stdout = Arc<Mutex<tokio::io::Stdout>>;

/// The server's end of the connection.
pub struct Stdio {
    incoming: mpsc::Receiver<RxJsonRpcMessage<RoleServer>>,
    stdout: Stdout,
}

/// Starts reading stdin, at most `limit` bytes of each line; within a tokio runtime.
pub fn stdio(limit: usize) -> std::io::Result<Stdio> {
    let stdout: Stdout = Arc::new(Mutex::new(tokio::io::stdout()));
    // One message waiting at a time: a client that sends faster than calls are taken waits on
    // its pipe, and memory holds no more than a line or two.
    let (sender, incoming) = mpsc::channel(1);
    let reader = Reader {
        limit,
        sender,
        stdout: stdout.clone(),
        runtime: tokio::runtime::Handle::current(),
    };
    std::thread::Builder::new()
        .name("mcp-stdin".into())
        .spawn(move || reader.run())?;
    Ok(Stdio { incoming, stdout })
}

struct Reader {
    limit: usize,
    sender: mpsc::Sender<RxJsonRpcMessage<RoleServer>>,
    stdout: Stdout,
    runtime: tokio::runtime::Handle,
}

impl Reader {
    /// Until the end of stdin, or until nobody takes messages or reads replies any more.
    fn run(self) {
        let mut input = std::io::stdin().lock();
        for number in 1usize.. {
            let verdict = match lines::next(&mut input, self.limit) {
                Ok(Some(verdict)) => verdict,
                Ok(None) => break,
                Err(error) => {
                    warn(&format!("cannot read standard input: {error}"));
                    break;
                }
            };
            let refusal = match verdict {
                Verdict::Blank => continue,
                Verdict::Batch(refusals) => {
                    warn(&format!(
                        "line {number}: a batch, each of its requests refused"
                    ));
                    if refusals.is_empty() {
                        continue;
                    }
                    let replies: Vec<_> = refusals.iter().map(Refusal::reply).collect();
                    let written = self
                        .runtime
                        .block_on(write_line(self.stdout.clone(), replies));
                    if let Err(error) = written {
                        warn(&format!("cannot write to standard output: {error}"));
                        break;
                    }
                    continue;
                }
                Verdict::Refused(refusal) => refusal,
                Verdict::Message { message, id } => {
                    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(message) {
                        Ok(message) => {
                            if self.sender.blocking_send(message).is_err() {
                                break;
                            }
                            continue;
                        }
                        // The shape was right, so what rmcp refuses is the params of the method.
                        Err(error) => match id {
                            Some(id) => Refusal {
                                id,
                                code: INVALID_PARAMS,
                                message: format!("Invalid params: {error}"),
                            },
                            // JSON-RPC answers no notification or response.
                            None => {
                                warn(&format!("line {number}: ignored: {error}"));
                                continue;
                            }
                        },
                    }
                }
            };
            warn(&format!("line {number}: {}", refusal.message));
            let written = self
                .runtime
                .block_on(write_line(self.stdout.clone(), refusal.reply()));
            if let Err(error) = written {
                warn(&format!("cannot write to standard output: {error}"));
                break;
            }
        }
    }
}

async fn write_line(stdout: Stdout, message: impl serde::Serialize) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(&message)?;
    line.push(b'\n');
    let mut stdout = stdout.lock().await;
    stdout.write_all(&line).await?;
    stdout.flush().await
}

impl Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        write_line(self.stdout.clone(), item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        Ok(())
    }
}

fn warn(message: &str) {
    crate::stderr::line(&format!("interview mcp: {message}"));
}
