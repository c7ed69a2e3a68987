//! The raw-mode terminal UI: arrow keys, toggles, inline editing, and a review step.
//!
//! Drawn inline below the cursor (no alternate screen) by a renderer that rewrites only the
//! rows that changed. After each answer the widget collapses to one line (`✔ Which
//! environment? › Staging`), so the scrollback reads like a transcript. Raw mode, the hidden
//! cursor and bracketed paste are undone on every exit: the end of a request, Esc, Ctrl-C, a
//! signal, a dropped UI, and a panic.

// The widgets, the renderer and the theme are this UI's own parts. They are public only for
// the benchmarks and fuzz targets, through `internals`, which is no stable API: their docs
// are for this crate's developers.
#[allow(missing_docs)]
pub mod confirm;
mod device;
#[allow(missing_docs)]
pub mod editor;
#[allow(missing_docs)]
pub mod keys;
#[allow(missing_docs)]
pub mod layout;
#[allow(missing_docs)]
pub mod list;
#[allow(missing_docs)]
pub mod multi_select;
#[allow(missing_docs)]
pub mod note;
#[allow(missing_docs)]
pub mod number;
#[allow(missing_docs)]
pub mod preview;
#[allow(missing_docs)]
pub mod render;
#[allow(missing_docs)]
pub mod review;
#[allow(missing_docs)]
pub mod select;
mod suspend;
#[cfg(test)]
mod testing;
#[allow(missing_docs)]
pub mod text;
#[allow(missing_docs)]
pub mod theme;
mod tty;
#[allow(missing_docs)]
pub mod widget;

use std::io::Write;
use std::os::fd::AsFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossterm::terminal;

use super::*;
use crate::ui::ReviewItem;
use device::Device;
use keys::Key;
pub use layout::layout;
use layout::{declinable, skippable};
use render::{Line, Renderer};
use theme::Theme;
use tty::{Keyboard, RAW, Ready, install_panic_hook, restore_terminal};
use widget::Widget;

/// A widget whose pastes longer than an answer may be (the request limit) are refused with a
/// notice, and what was typed before is kept.
struct PasteLimit<W> {
    widget: W,
    limit: usize,
    refused: Option<String>,
}

impl<W> PasteLimit<W> {
    fn new(widget: W) -> Self {
        PasteLimit {
            widget,
            limit: crate::sandbox::Limits::default().request_bytes(),
            refused: None,
        }
    }
}

impl<W: Widget> Widget for PasteLimit<W> {
    type Reply = W::Reply;

    fn handle(&mut self, key: Key, page: usize) -> Option<W::Reply> {
        self.refused = None;
        match key {
            Key::Paste(text) if text.len() > self.limit => {}
            Key::PasteTooLong => {}
            key => return self.widget.handle(key, page),
        }
        self.refused = Some(format!(
            "That paste is more than {} bytes; paste a shorter answer.",
            self.limit
        ));
        None
    }

    fn body(&mut self, ctx: &widget::Ctx) -> widget::Body {
        self.widget.body(ctx)
    }

    fn hint(&self) -> String {
        self.widget.hint()
    }

    fn title(&self) -> &str {
        self.widget.title()
    }

    fn notice(&self) -> Option<&str> {
        self.refused.as_deref().or_else(|| self.widget.notice())
    }

    fn summary(&self, reply: &W::Reply) -> Option<String> {
        self.widget.summary(reply)
    }

    fn nav(nav: Nav) -> Option<W::Reply> {
        W::nav(nav)
    }
}

/// The summary line of the last answered widget, shown once the person moves on.
struct Pending {
    position: u32,
    line: Line,
}

/// A UI for a terminal that can be drawn on and read key by key.
pub struct TerminalUi {
    out: Box<dyn Write + Send>,
    theme: Theme,
    /// Present while the terminal is raw.
    renderer: Option<Renderer>,
    /// Where keys come from; present while the terminal is raw.
    keyboard: Option<Keyboard>,
    /// The terminal, when it was named by path rather than being the process's own: raw mode,
    /// size and keys are then this UI's to handle.
    device: Option<Device>,
    /// Ctrl-Z and SIGTSTP handling, while the terminal is raw (None too when the process must
    /// never stop: SIGTSTP was ignored when it started).
    job: Option<suspend::JobControl>,
    buffer: Vec<u8>,
    pending: Option<Pending>,
    /// Positions of this request's summary lines still just above the live region, newest last.
    committed: Vec<u32>,
    /// The review, while it is the last thing shown, and whether it was submitted.
    review: Option<(Vec<ReviewItem>, bool)>,
    /// The request's context, once printed above its first question.
    context: Option<String>,
    stop: Arc<AtomicBool>,
    cancelled: bool,
    declined: bool,
    interrupted: bool,
    /// The terminal could not be taken (raw mode refused): the cancel that followed is not the
    /// person's, and says so as input that ended.
    unusable: bool,
    /// Whether a submitted batch ends with `✔ N answers sent`: not where the caller sends them
    /// and says itself whether they arrived (an inbox, whose asker may be gone).
    says_sent: bool,
    /// Whether an answer's line may say it was taken (`✔`): not where another process's
    /// plugin judges it after the widget is gone.
    confirms: bool,
    /// Whether a review, once done, is replaced by the answers it listed: not where each
    /// widget is a UI of its own (a relay's), whose answers are on the screen already.
    lists_reviewed: bool,
    /// A line under the keys that the caller changes while the person answers, and the text
    /// of it last drawn.
    status: Option<StatusLine>,
    drawn_status: Option<String>,
}

/// A line shown under a question's keys, which another thread may change while the person
/// answers (an inbox's "2 more waiting"): the UI redraws when it does. Its text must be fit
/// for a terminal already (sanitized).
#[derive(Clone, Debug, Default)]
pub struct StatusLine(Arc<std::sync::Mutex<Option<String>>>);

impl StatusLine {
    /// Shows `text` from now on (`None`: no line).
    pub fn set(&self, text: Option<String>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = text;
    }

    fn get(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl TerminalUi {
    /// Draws on `out` (the terminal: `/dev/tty` or stderr) and reads keys from the terminal.
    /// `colour` false gives attributes only (NO_COLOR, a monochrome terminal).
    pub fn new(out: impl Write + Send + 'static, colour: bool) -> Self {
        TerminalUi {
            out: Box::new(out),
            theme: Theme::new(colour),
            renderer: None,
            keyboard: None,
            device: None,
            job: None,
            buffer: Vec::new(),
            pending: None,
            committed: Vec::new(),
            review: None,
            context: None,
            stop: Arc::new(AtomicBool::new(false)),
            cancelled: false,
            declined: false,
            interrupted: false,
            unusable: false,
            says_sent: true,
            confirms: true,
            lists_reviewed: true,
            status: None,
            drawn_status: None,
        }
    }

    /// Shows `status` under each question's keys, redrawn as it changes.
    pub fn with_status(mut self, status: StatusLine) -> Self {
        self.status = Some(status);
        self
    }

    /// Leaves out the `✔ N answers sent` that ends a submitted batch: the caller sends the
    /// answers on, and says whether they arrived.
    pub fn without_sent_line(mut self) -> Self {
        self.says_sent = false;
        self
    }

    /// Collapses an answered widget to `→ Which environment? › Staging`, not `✔ …`: for a
    /// relay, which sends the reply on to a plugin elsewhere that may still refuse it (the
    /// widget then comes back with why), so the line says what was sent, not that it was taken.
    pub fn without_confirming_answers(mut self) -> Self {
        self.confirms = false;
        self
    }

    /// Ends a review with nothing in its place but how it ended: for a caller that makes a UI
    /// for each widget (a relay's), where the answers reviewed were each shown as they were
    /// given, and listing them again would say them twice.
    pub fn without_review_list(mut self) -> Self {
        self.lists_reviewed = false;
        self
    }

    /// Draws on the controlling terminal (`/dev/tty`), where the keys are read too, whatever
    /// standard input and standard error are; an error when the process has no terminal, or
    /// is not the job in its foreground (another program reads the keys there).
    pub fn on_controlling_terminal(colour: bool) -> std::io::Result<Self> {
        let tty = std::fs::OpenOptions::new().write(true).open("/dev/tty")?;
        if !crate::foreground::is_foreground(tty.as_fd()) {
            return Err(std::io::Error::other(crate::foreground::NOT_IN_FRONT));
        }
        Ok(TerminalUi::new(tty, colour))
    }

    /// Draws on the terminal at `path` and reads its keys: a terminal the person chose (a tmux
    /// pane, another window), whatever terminal the process has, if any. Ctrl-Z there does
    /// nothing: the process is not that terminal's job. An error when `path` can't be opened,
    /// is not a terminal, or has a shell reading it at its prompt (the keys would be split).
    pub fn on_device(path: impl AsRef<std::path::Path>, colour: bool) -> std::io::Result<Self> {
        let (device, out) = Device::open(path.as_ref())?;
        let mut ui = TerminalUi::new(out, colour);
        ui.device = Some(device);
        Ok(ui)
    }

    /// A flag that stops the UI when set (from a signal handler): the open question is
    /// cancelled and the plugin returns the answers so far.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Takes the terminal (raw mode, bracketed paste), unless it has it already.
    fn enter(&mut self) -> bool {
        if self.renderer.is_some() {
            return true;
        }
        if let Some(device) = &mut self.device {
            if device.enable_raw().is_err() {
                return false;
            }
            self.keyboard = Some(Keyboard::on(device.fd()));
        } else {
            if terminal::enable_raw_mode().is_err() {
                return false;
            }
            self.job = suspend::JobControl::install();
            self.keyboard = Keyboard::open();
        }
        RAW.store(true, Ordering::SeqCst);
        install_panic_hook();
        self.start_screen();
        true
    }

    /// Bracketed paste on, and a renderer that has drawn nothing yet, at the terminal's size.
    fn start_screen(&mut self) {
        let _ = self.out.write_all(b"\x1b[?2004h");
        let (width, height) = self.size().unwrap_or((80, 24));
        self.renderer = Some(Renderer::new(width, height));
    }

    /// The terminal's columns and rows; None when it does not say (a pty nobody sized reports
    /// 0 by 0, and a frame that narrow would show nothing).
    fn size(&self) -> Option<(u16, u16)> {
        match &self.device {
            Some(device) => device.size(),
            None => terminal::size().ok().filter(|&(w, h)| w > 0 && h > 0),
        }
    }

    /// Gives the terminal back, as it was. A SIGTSTP that came while it was raw, and was not
    /// acted on yet, stops the process now.
    fn leave(&mut self) {
        self.keyboard = None;
        if self.renderer.take().is_some() {
            restore_terminal(&mut self.out, self.device.as_mut());
        }
        if let Some(job) = self.job.take() {
            let stop = job.stop_requested();
            drop(job);
            if stop {
                suspend::stop(suspend::Stop::Process);
            }
        }
    }

    /// Stops the process with the terminal as it was (the live region erased), and once it is
    /// continued (`fg`), takes the terminal again; the caller draws the frame whole.
    fn suspend(&mut self, how: suspend::Stop) {
        if let Some(renderer) = &mut self.renderer {
            renderer.clear(&mut self.buffer);
        }
        self.flush();
        self.leave();
        suspend::stop(how);
        // What the shell printed meanwhile sits above: the summaries are no longer ours.
        self.committed.clear();
        self.enter();
    }

    /// After a stop that could not be caught (SIGSTOP), the shell has put the terminal back in
    /// cooked mode: takes it again, to draw the frame whole below what the shell printed.
    fn reclaim(&mut self) {
        let _ = terminal::disable_raw_mode();
        let _ = terminal::enable_raw_mode();
        self.start_screen();
        self.committed.clear();
    }

    fn flush(&mut self) {
        let _ = self.out.write_all(&self.buffer);
        let _ = self.out.flush();
        self.buffer.clear();
    }

    /// Leaves `line` in the scrollback in place of the live region.
    fn commit_line(&mut self, line: Line) {
        if let Some(renderer) = &mut self.renderer {
            renderer.commit_line(&line, &mut self.buffer);
        }
        self.flush();
    }

    /// Before a widget at `position` (None: the review) of a request about `context`. The
    /// previous answer's summary stays in the scrollback when the person moved on; going back
    /// takes the summary lines of the questions being revisited back into the live region, and
    /// the review takes them all (it lists every answer itself, and prints the final ones when
    /// it ends). The context is printed once, above the request's first widget, for good.
    fn begin(&mut self, position: Option<u32>, context: Option<&str>) -> bool {
        if !self.enter() {
            return false;
        }
        self.review = None;
        if let Some(pending) = self.pending.take()
            && position.is_some_and(|p| p > pending.position)
        {
            self.commit_line(pending.line);
            self.committed.push(pending.position);
        }
        let renderer = self.renderer.as_mut().expect("entered above");
        while self
            .committed
            .last()
            .is_some_and(|&last| position.is_none_or(|p| last >= p))
        {
            if !renderer.reopen(&mut self.buffer) {
                self.committed.clear();
            }
            self.committed.pop();
        }
        if let Some(context) = context.filter(|c| self.context.as_deref() != Some(*c)) {
            let lines: Vec<Line> = context
                .lines()
                .map(|line| Line::new().push(line.to_string(), self.theme.header))
                .collect();
            renderer.print(&lines, &mut self.buffer);
            self.context = Some(context.to_string());
        }
        true
    }

    /// The next key; a stop request, or a terminal that hung up or cannot be read, is an
    /// interrupt. An Esc is told from the start of a longer sequence by the pause after it; a
    /// changed size, polled while waiting (a terminal named by path sends no SIGWINCH to this
    /// process), is a resize.
    fn next_key(&mut self) -> Key {
        const PAUSE: Duration = Duration::from_millis(30);
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Key::Interrupt;
            }
            if let Some(job) = &self.job {
                if job.stop_requested() {
                    self.suspend(suspend::Stop::Process);
                    return Key::Redraw;
                }
                if job.continued() {
                    self.reclaim();
                    return Key::Redraw;
                }
            }
            let Some(keyboard) = &mut self.keyboard else {
                return Key::Interrupt;
            };
            if let Some(key) = keyboard.queued() {
                return key;
            }
            match keyboard.wait(Duration::from_millis(50)) {
                Ready::HungUp => return Key::Interrupt,
                Ready::Input => match keyboard.read_key() {
                    Ok(Some(key)) => return key,
                    Ok(None) if keyboard.wait(PAUSE) == Ready::Nothing => {
                        if let Some(key) = keyboard.settle() {
                            return key;
                        }
                    }
                    Ok(None) => {}
                    Err(_) => return Key::Interrupt,
                },
                Ready::Nothing => {
                    if let Some(resize) = self.resized() {
                        return resize;
                    }
                    if let Some(status) = &self.status
                        && status.get() != self.drawn_status
                    {
                        return Key::Redraw;
                    }
                }
            }
        }
    }

    /// A resize, when the terminal's size is no longer the one drawn for.
    fn resized(&self) -> Option<Key> {
        let (width, height) = self.size()?;
        let drawn = self.renderer.as_ref()?.size();
        ((usize::from(width), usize::from(height)) != drawn).then_some(Key::Resize(width, height))
    }

    /// Runs `widget` until it has a reply. `frame` is the question's frame (None: the review,
    /// of a request about `context`). An interrupt, or a terminal that cannot be used, cancels;
    /// Ctrl-S on an optional question skips, and Ctrl-X declines where that is offered.
    fn run<W>(&mut self, frame: Option<&Frame>, context: Option<&str>, widget: W) -> W::Reply
    where
        W: Widget,
        W::Reply: PartialEq,
    {
        let cancel = W::nav(Nav::Cancel).expect("every widget can be cancelled");
        let decline = W::nav(Nav::Decline);
        let position = frame.map(|f| f.position);
        let context = frame.and_then(|f| f.context.as_deref()).or(context);
        if !self.begin(position, context) {
            self.unusable = true;
            self.cancelled = true;
            return cancel;
        }
        let title = frame.map(|f| f.prompt.lines().next().unwrap_or("").to_string());
        let mut widget = PasteLimit::new(widget);
        loop {
            let Some(size) = self.renderer.as_ref().map(Renderer::size) else {
                // The terminal could not be taken again after the process was continued.
                self.interrupted = true;
                self.cancelled = true;
                return cancel;
            };
            // The status line, if any, takes the last row.
            let status = self.status.as_ref().and_then(StatusLine::get);
            let rows = size.1.saturating_sub(usize::from(status.is_some())).max(1);
            let (mut screen, page) = layout(frame, &mut widget, &self.theme, (size.0, rows));
            if let Some(text) = &status {
                let line = Line::new().push(text.as_str(), self.theme.hint);
                screen.lines.push(render::fit(&line, size.0));
            }
            self.drawn_status = status;
            let renderer = self.renderer.as_mut().expect("entered above");
            renderer.draw(&screen, &mut self.buffer);
            self.flush();
            match self.next_key() {
                Key::Interrupt => {
                    self.interrupted = true;
                    self.cancelled = true;
                    return cancel;
                }
                Key::Resize(width, height) => {
                    let renderer = self.renderer.as_mut().expect("entered above");
                    // A size already drawn for (the terminal changed back) is left as it is.
                    if renderer.size() != (usize::from(width), usize::from(height)) {
                        renderer.resize(width, height, &mut self.buffer);
                    }
                }
                Key::Suspend if self.job.is_some() => {
                    let terminal = self.keyboard.as_ref().map_or(-1, |k| k.fd);
                    let group = suspend::foreground_group(terminal);
                    self.suspend(suspend::Stop::Job { group });
                }
                Key::Suspend | Key::Redraw => {}
                Key::Ctrl('s') if skippable(frame) && W::nav(Nav::Skip).is_some() => {
                    return W::nav(Nav::Skip).expect("checked above");
                }
                Key::Ctrl('x') if declinable(frame) && decline.is_some() => {
                    self.declined = true;
                    return decline.expect("checked above");
                }
                key => {
                    if let Some(reply) = widget.handle(key, page) {
                        self.pending = widget.summary(&reply).map(|answer| Pending {
                            position: position.unwrap_or(u32::MAX),
                            line: self.summary_line(title.as_deref(), answer),
                        });
                        self.cancelled = reply == cancel;
                        self.declined = decline.as_ref() == Some(&reply);
                        return reply;
                    }
                }
            }
        }
    }

    /// What a widget collapses to: `✔ Which environment? › Staging`, or `✔ 5 answers sent`.
    fn summary_line(&self, title: Option<&str>, answer: String) -> Line {
        let line = match self.confirms {
            true => Line::new().push("✔ ", self.theme.done),
            false => Line::new().push("→ ", self.theme.muted),
        };
        match title {
            Some(title) => line
                .push(format!("{title} "), self.theme.text)
                .push("› ", self.theme.muted)
                .push(answer, self.theme.selected),
            None => line.push(answer, self.theme.text),
        }
    }
}

impl Drop for TerminalUi {
    fn drop(&mut self) {
        self.leave();
    }
}

impl Ui for TerminalUi {
    /// Ctrl-C, a signal or a terminal that hung up.
    fn stop_reason(&self) -> Option<StopReason> {
        if self.interrupted {
            return Some(StopReason::Interrupted);
        }
        self.unusable.then_some(StopReason::Ended)
    }

    fn mode(&mut self) -> UiMode {
        UiMode::Widgets
    }

    fn select(&mut self, frame: &Frame, request: &SelectRequest) -> SelectReply {
        self.run(Some(frame), None, select::Select::new(request))
    }

    fn multi_select(&mut self, frame: &Frame, request: &MultiSelectRequest) -> MultiSelectReply {
        self.run(
            Some(frame),
            None,
            multi_select::MultiSelect::new(request, frame.hint.as_deref()),
        )
    }

    fn text(&mut self, frame: &Frame, request: &TextRequest) -> TextReply {
        self.run(
            Some(frame),
            None,
            text::Text::new(request, frame.hint.as_deref()),
        )
    }

    fn confirm(&mut self, frame: &Frame, request: &ConfirmRequest) -> ConfirmReply {
        self.run(Some(frame), None, confirm::Confirm::new(request))
    }

    fn number(&mut self, frame: &Frame, request: &NumberRequest) -> NumberReply {
        self.run(
            Some(frame),
            None,
            number::Number::new(request, frame.hint.as_deref()),
        )
    }

    fn review(&mut self, request: &ReviewRequest) -> ReviewReply {
        let context = request.context.as_deref();
        let reply = self.run(None, context, review::Review::new(request));
        if !matches!(reply, ReviewReply::Edit(_)) {
            self.review = Some((request.items.clone(), reply == ReviewReply::Submit));
        }
        reply
    }

    fn resumed(&mut self, answered: &[Given]) {
        if !self.enter() {
            return;
        }
        let mut lines = vec![Line::new().push(resumed_heading(answered.len()), self.theme.muted)];
        for given in answered {
            let (title, answer) = resumed_line(given);
            lines.push(self.summary_line(Some(&title), answer));
        }
        let renderer = self.renderer.as_mut().expect("entered above");
        renderer.print(&lines, &mut self.buffer);
        self.flush();
    }

    fn finished(&mut self) {
        if self.renderer.is_some() {
            let ending = match (self.cancelled, self.interrupted, self.declined) {
                (_, _, true) => Some(Line::new().push("✖ Declined", self.theme.error)),
                (false, _, _) => None,
                (true, false, _) => Some(Line::new().push("✖ Cancelled", self.theme.error)),
                (true, true, _) => Some(Line::new().push("✖ Interrupted", self.theme.error)),
            };
            if let Some((items, submitted)) = self.review.take() {
                // The batch's final answers, once each, in place of the review.
                let listed = if self.lists_reviewed { &items[..] } else { &[] };
                let mut lines: Vec<Line> = listed
                    .iter()
                    .map(|item| {
                        let title = item.prompt.lines().next().unwrap_or("");
                        self.summary_line(Some(title), item.answer.replace('\n', " "))
                    })
                    .collect();
                if submitted && self.says_sent {
                    let sent = match items.len() {
                        0 => "Accepted".to_string(),
                        1 => "1 answer sent".to_string(),
                        n => format!("{n} answers sent"),
                    };
                    lines.push(self.summary_line(None, sent));
                }
                lines.extend(ending);
                if let Some(renderer) = &mut self.renderer {
                    renderer.print(&lines, &mut self.buffer);
                }
                self.flush();
            } else if let Some(pending) = self.pending.take() {
                self.commit_line(pending.line);
            } else if let Some(ending) = ending {
                self.commit_line(ending);
            } else {
                if let Some(renderer) = &mut self.renderer {
                    renderer.clear(&mut self.buffer);
                }
                self.flush();
            }
        }
        self.cancelled = false;
        self.declined = false;
        self.context = None;
        self.committed.clear();
        self.leave();
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{frame, play, screen, typed};
    use super::*;

    #[test]
    fn a_paste_over_the_limit_is_refused_on_screen_and_the_text_before_kept() {
        let request = TextRequest {
            multiline: false,
            placeholder: None,
            initial: None,
            secret: false,
            min_length: None,
            max_length: None,
        };
        let mut text = PasteLimit::new(text::Text::new(&request, None));
        text.limit = 8;
        play(&mut text, typed("kept "));
        play(&mut text, [Key::Paste("123456789".into())]);
        let shown = screen(Some(&frame("Log?")), &mut text, 80, 20);
        assert!(
            shown.contains(&"✖ That paste is more than 8 bytes; paste a shorter answer.".into()),
            "{shown:#?}"
        );
        play(&mut text, [Key::PasteTooLong]);
        assert!(text.notice().is_some(), "a paste the decoder dropped too");
        play(&mut text, [Key::Paste("12345678".into())]);
        assert_eq!(text.notice(), None, "gone at the next key");
        assert_eq!(
            play(&mut text, [Key::Enter]),
            Some(TextReply::Submitted("kept 12345678".into()))
        );
    }
}
