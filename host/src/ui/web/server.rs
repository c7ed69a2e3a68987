//! The page's server: the host's one serving loop ([`crate::serving`]) on a runtime of its
//! own, in one thread, so that an embedder with no async runtime needs none, and one that has
//! its own keeps it apart from the page.

use std::io;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::oneshot;

use super::Exchange;
use super::routes::{self, Page, Site};
use crate::serving::{self, Bounds};

/// Connections served at once; a browser page needs two or three, and at the cap the one
/// idle longest makes room for a newcomer.
const MAX_CONNECTIONS: usize = 64;
/// How long a connection may take to send a request's head (a browser takes milliseconds).
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);

/// The connections a page may keep under an open-files limit of `files`: a quarter, at
/// least 4.
fn page_share(files: u64) -> usize {
    usize::try_from(files / 4).unwrap_or(usize::MAX).max(4)
}

/// The running server; [`stop`](Server::stop) (or dropping it) ends its thread.
pub(super) struct Server {
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves the page of `site` from `listener`, with `exchange` between the page and the UI.
    pub(super) fn start(
        listener: std::net::TcpListener,
        exchange: Arc<Exchange>,
        site: Site,
    ) -> io::Result<Server> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()?;
        listener.set_nonblocking(true)?;
        let listener = {
            let _inside = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        let app = routes::router(Page { exchange, site });
        let (stop, stopped) = oneshot::channel::<()>();
        let bounds = Bounds {
            // A quarter of the open-files limit at most: the rest of the process (an inbox's
            // own server, its database, its askers) needs the others.
            connections: MAX_CONNECTIONS.min(page_share(serving::open_files_limit())),
            head_timeout: HEAD_TIMEOUT,
        };
        let thread = std::thread::Builder::new()
            .name("interview-web".into())
            .spawn(move || {
                runtime.block_on(serving::serve(listener, app, bounds, async {
                    let _ = stopped.await;
                }));
            })?;
        Ok(Server {
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Stops serving and waits for the thread. Long polls must have been told to end (the
    /// exchange's `closing`) for this to be quick.
    pub(super) fn stop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}
