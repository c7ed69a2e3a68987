//! Calls run as tasks (MCP's Tasks extension, `io.modelcontextprotocol/tasks`), for the team
//! inbox's own endpoint: a client that declares the extension on a call is answered at once
//! with a task, which it polls (`tasks/get`) until a person has answered, and may cancel
//! (`tasks/cancel`), which withdraws the question. A call no longer needs a connection held
//! open for as long as a person takes.
//!
//! The bookkeeping is ours rather than rmcp's `TaskManager`, for what a server on an open
//! network needs and that one lacks: a task is its agent's (another agent's token does not
//! find it), a finished task is kept a bounded time and each agent keeps a bounded number, and
//! a call is never aborted mid-way (it is stopped, so that its question is withdrawn).

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rmcp::model::{DetailedTask, ErrorData, Task, TaskPayload, TaskStatus};
use rmcp::task_manager::current_timestamp;
use tokio_util::sync::CancellationToken;

use crate::settled::Settled;

/// How long a finished task is kept for its agent to fetch.
const KEPT_FOR: Duration = Duration::from_secs(3600);

/// The most finished tasks one agent keeps: finishing one more lets its oldest go. (Its tasks
/// still running are bounded by the calls it may have asked at once.)
const KEPT_PER_AGENT: usize = 64;

/// How often a client is told to poll. A person takes seconds at least.
const POLL_EVERY: Duration = Duration::from_secs(1);

/// How long a running task may go without its client asking after it before it is taken as
/// abandoned (a client that crashed, or forgot it), and cancelled: its question is withdrawn,
/// as an asker's that has gone silent is, and its place among the calls is given back.
const ABANDONED: Duration = Duration::from_secs(60);

/// The tasks of one server.
pub struct Tasks {
    entries: Mutex<HashMap<String, Entry>>,
    /// Cancelled when the server stops: every running task's call withdraws its question.
    stopping: CancellationToken,
    /// How long a running task goes unasked after before it is cancelled ([`ABANDONED`]).
    abandoned: Duration,
}

struct Entry {
    /// The agent whose task this is (`None` where there is one client only).
    owner: Option<String>,
    task: Task,
    created: Instant,
    /// When its client last asked after it (created, got, updated).
    heard: Instant,
    /// Set once the call has ended.
    ended: Option<(TaskPayload, Instant)>,
    /// Cancelled by `tasks/cancel` (or by the server stopping).
    cancel: CancellationToken,
}

impl Entry {
    fn detailed(&self) -> DetailedTask {
        let payload = match &self.ended {
            Some((payload, _)) => payload.clone(),
            None => TaskPayload::Working,
        };
        DetailedTask::new(self.task.clone(), payload)
    }
}

impl Tasks {
    /// The tasks of a server that stops when `stopping` is cancelled.
    pub fn new(stopping: CancellationToken) -> Tasks {
        Tasks {
            entries: Mutex::new(HashMap::new()),
            stopping,
            abandoned: ABANDONED,
        }
    }

    /// Starts `call` as `owner`'s task, saying `waiting` while it runs, and returns the task as
    /// it starts. `call` is given what cancels it, and ends with the call's result. An id it
    /// cannot draw is why not.
    pub fn start<C, F>(
        self: &std::sync::Arc<Self>,
        owner: Option<String>,
        waiting: &str,
        call: C,
    ) -> Result<Task, crate::random::NoRandomness>
    where
        C: FnOnce(CancellationToken) -> F,
        F: Future<Output = Settled> + Send + 'static,
    {
        let id = crate::random::hex::<16>()?;
        let now = current_timestamp();
        let mut task = Task::new(id.clone(), TaskStatus::Working, now.clone(), now)
            .with_status_message(waiting)
            .with_poll_interval_ms(POLL_EVERY.as_millis() as u64);
        // Unlimited while it runs: a person may take as long as the call's deadline allows.
        task.ttl_ms = None;
        let cancel = self.stopping.child_token();
        let running = call(cancel.clone());
        let entry = Entry {
            owner,
            task: task.clone(),
            created: Instant::now(),
            heard: Instant::now(),
            ended: None,
            cancel: cancel.clone(),
        };
        self.lock().insert(id.clone(), entry);
        let tasks = self.clone();
        tokio::spawn(async move {
            tokio::pin!(running);
            let result = loop {
                tokio::select! {
                    result = &mut running => break result,
                    () = tokio::time::sleep(tasks.abandoned / 4) => {
                        if tasks.unheard_for(&id) >= tasks.abandoned {
                            cancel.cancel();
                        }
                    }
                }
            };
            tasks.ended(&id, result);
        });
        Ok(task)
    }

    /// How long the client of task `id` has not asked after it.
    fn unheard_for(&self, id: &str) -> Duration {
        self.lock()
            .get(id)
            .map_or(Duration::MAX, |entry| entry.heard.elapsed())
    }

    /// `owner`'s task `id` as it stands.
    pub fn get(&self, owner: Option<&str>, id: &str) -> Result<DetailedTask, ErrorData> {
        let mut entries = self.lock();
        let entry = owned(&mut entries, owner, id)?;
        entry.heard = Instant::now();
        Ok(entry.detailed())
    }

    /// Cancels `owner`'s task `id`: its question is withdrawn, and it ends `cancelled` (or
    /// `completed`, when the person's answer came first). A task that has ended stays as it
    /// ended.
    pub fn cancel(&self, owner: Option<&str>, id: &str) -> Result<(), ErrorData> {
        let mut entries = self.lock();
        let entry = owned(&mut entries, owner, id)?;
        entry.cancel.cancel();
        Ok(())
    }

    /// Whether `owner` has a task `id` (`tasks/update` has nothing to deliver: these tasks
    /// never wait on their client).
    pub fn known(&self, owner: Option<&str>, id: &str) -> Result<(), ErrorData> {
        let mut entries = self.lock();
        let entry = owned(&mut entries, owner, id)?;
        entry.heard = Instant::now();
        Ok(())
    }

    /// Records how task `id` ended, and lets go of what is kept too long or too many.
    fn ended(&self, id: &str, settled: Settled) {
        let mut entries = self.lock();
        let now = Instant::now();
        let Some(entry) = entries.get_mut(id) else {
            return;
        };
        // An answer the person gave is the task's result, even if the client cancelled as it
        // came: it was kept, and is the agent's to have.
        let answered = settled.is_answered();
        let result = super::reply_of(settled);
        let payload = if entry.cancel.is_cancelled() && !self.stopping.is_cancelled() && !answered {
            TaskPayload::Cancelled
        } else {
            TaskPayload::Completed {
                result: match serde_json::to_value(&result) {
                    Ok(serde_json::Value::Object(result)) => result,
                    _ => Default::default(),
                },
            }
        };
        entry.task.last_updated_at = current_timestamp();
        entry.task.status_message = None;
        // From its creation, as the extension counts it: until it has been kept for long enough.
        let ttl = now.duration_since(entry.created) + KEPT_FOR;
        entry.task.ttl_ms = Some(u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX));
        entry.ended = Some((payload, now));
        let owner = entry.owner.clone();
        entries.retain(|_, e| {
            (e.ended.as_ref()).is_none_or(|(_, at)| now.duration_since(*at) < KEPT_FOR)
        });
        let mut ended: Vec<(Instant, String)> = (entries.iter())
            .filter(|(_, e)| e.owner == owner)
            .filter_map(|(id, e)| e.ended.as_ref().map(|(_, at)| (*at, id.clone())))
            .collect();
        if ended.len() > KEPT_PER_AGENT {
            ended.sort();
            for (_, id) in &ended[..ended.len() - KEPT_PER_AGENT] {
                entries.remove(id);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The entry `id` if it is `owner`'s; another's is as unknown as one that never was, so that
/// an agent learns nothing of others' tasks.
fn owned<'a>(
    entries: &'a mut HashMap<String, Entry>,
    owner: Option<&str>,
    id: &str,
) -> Result<&'a mut Entry, ErrorData> {
    entries
        .get_mut(id)
        .filter(|entry| entry.owner.as_deref() == owner)
        .ok_or_else(|| ErrorData::invalid_params(format!("unknown task: {id}"), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use interview_host::ask::Status;

    /// A call that ended with `status`.
    fn settled(status: Status) -> Settled {
        Settled {
            status,
            result: serde_json::json!({ "status": format!("{status:?}") }),
        }
    }

    fn ended(tasks: &Tasks, owner: &str, id: &str) -> bool {
        tasks
            .get(Some(owner), id)
            .is_ok_and(|t| t.status() == TaskStatus::Completed)
    }

    #[tokio::test]
    async fn a_task_is_its_owners_and_each_owner_keeps_a_bounded_number_once_ended() {
        let tasks = Arc::new(Tasks::new(CancellationToken::new()));
        let start = |owner: &str| {
            let done = |_| async { settled(Status::Answered) };
            tasks
                .start(Some(owner.into()), "waiting", done)
                .unwrap()
                .task_id
        };
        let theirs = start("b");
        let mine: Vec<String> = (0..KEPT_PER_AGENT + 2).map(|_| start("a")).collect();
        // Each ends on the runtime; they are recorded in the order they end.
        for id in &mine {
            while tasks
                .get(Some("a"), id)
                .is_ok_and(|t| t.status() == TaskStatus::Working)
            {
                tokio::task::yield_now().await;
            }
        }
        let kept = mine.iter().filter(|id| ended(&tasks, "a", id)).count();
        assert_eq!(kept, KEPT_PER_AGENT);
        assert!(
            ended(&tasks, "b", &theirs),
            "another owner's task was let go"
        );
        assert!(
            tasks.get(Some("a"), &theirs).is_err(),
            "seen by another owner"
        );
        assert!(
            tasks.cancel(None, &theirs).is_err(),
            "cancelled by nobody's request"
        );
    }

    #[tokio::test]
    async fn a_task_its_client_stopped_asking_after_is_cancelled_and_an_answer_is_never_dropped() {
        let mut tasks = Tasks::new(CancellationToken::new());
        tasks.abandoned = Duration::from_millis(200);
        let tasks = Arc::new(tasks);
        let waits = |cancel: CancellationToken| async move {
            cancel.cancelled().await;
            settled(Status::Cancelled)
        };
        let asked_after = tasks.start(None, "waiting", waits).unwrap().task_id;
        let forgotten = tasks.start(None, "waiting", waits).unwrap().task_id;
        // The person answered in the moment the client cancelled: the answer is the result.
        let answers = |cancel: CancellationToken| async move {
            cancel.cancelled().await;
            settled(Status::Answered)
        };
        let answered = tasks.start(None, "waiting", answers).unwrap().task_id;
        tasks.cancel(None, &answered).unwrap();
        let status = |id: &str| {
            let entries = tasks.lock();
            entries[id]
                .ended
                .as_ref()
                .map(|(payload, _)| payload.status())
        };
        for _ in 0..8 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            tasks.get(None, &asked_after).unwrap();
        }
        assert_eq!(status(&forgotten), Some(TaskStatus::Cancelled));
        assert_eq!(
            status(&asked_after),
            None,
            "a task asked after was cancelled"
        );
        assert_eq!(status(&answered), Some(TaskStatus::Completed));
    }

    #[tokio::test]
    async fn a_cancelled_task_ends_cancelled_and_a_stopping_server_ends_its_calls() {
        let stopping = CancellationToken::new();
        let tasks = Arc::new(Tasks::new(stopping.clone()));
        let waits = |cancel: CancellationToken| async move {
            cancel.cancelled().await;
            settled(Status::Cancelled)
        };
        let cancelled = tasks.start(None, "waiting", waits).unwrap().task_id;
        let stopped = tasks.start(None, "waiting", waits).unwrap().task_id;
        tasks.cancel(None, &cancelled).unwrap();
        let status = |id: &str| tasks.get(None, id).unwrap().status();
        while status(&cancelled) == TaskStatus::Working {
            tokio::task::yield_now().await;
        }
        assert_eq!(status(&cancelled), TaskStatus::Cancelled);
        assert_eq!(status(&stopped), TaskStatus::Working);
        // The server stopping is not the agent's cancelling: the call's own result says what
        // became of it.
        stopping.cancel();
        while status(&stopped) == TaskStatus::Working {
            tokio::task::yield_now().await;
        }
        assert_eq!(status(&stopped), TaskStatus::Completed);
    }
}
