//! Whose keys a terminal's are. A terminal sends what is typed to the job in its foreground;
//! a process that reads it from the background is stopped (SIGTTIN, or SIGTTOU when it sets the
//! terminal's mode) or, where those are ignored, takes keys meant for the program in front
//! (an agent's full-screen UI, a shell at its prompt), and records answers the person never
//! gave. So a terminal is only read by the job in its foreground.

use std::os::fd::{AsRawFd, BorrowedFd};

/// Why a terminal this process is not in front of is left alone.
pub(crate) const NOT_IN_FRONT: &str =
    "another program is in the terminal's foreground and reads the keys typed there";

/// Whether this process's job is in the foreground of `terminal`, its controlling terminal
/// (standard input, or `/dev/tty`): only then are the keys typed there its to read. False for
/// a terminal that is not this process's own.
pub fn is_foreground(terminal: BorrowedFd<'_>) -> bool {
    // SAFETY: tcgetpgrp and getpgrp only read; the descriptor is borrowed, so open.
    let (front, own) = unsafe { (libc::tcgetpgrp(terminal.as_raw_fd()), libc::getpgrp()) };
    front > 0 && front == own
}

/// Terminals named by path, which only the arrow-key UI reads.
#[cfg(feature = "terminal")]
pub(crate) use by_path::program_reading;

#[cfg(feature = "terminal")]
mod by_path {
    use std::fs::File;
    use std::os::unix::fs::MetadataExt;
    use std::path::Path;

    /// For a terminal this process opened by path (not its own): the name of a program in its
    /// foreground that waits for its keys, if one does (a shell at its prompt, an editor): reading
    /// there too would split the person's keys between the two. A pane whose foreground program
    /// waits for something else (`sleep infinity`), or a terminal no process has as its own (a
    /// pseudo-terminal made for the person), has none.
    pub(crate) fn program_reading(terminal: &File) -> Option<String> {
        let device = terminal.metadata().ok()?.rdev();
        std::fs::read_dir("/proc")
            .ok()?
            .filter_map(|entry| {
                let dir = entry.ok()?.path();
                let stat = Stat::parse(&std::fs::read_to_string(dir.join("stat")).ok()?)?;
                let in_front = stat.tty == device && stat.group == stat.foreground;
                (in_front && waits_for_input(&dir) && has_open(&dir, device)).then_some(stat.name)
            })
            .next()
    }

    /// Whether the process is blocked where a program waiting for input blocks: reading a
    /// terminal, or polling descriptors. (Its kernel wait channel, which its owner can read.)
    fn waits_for_input(process: &Path) -> bool {
        const WAITS: &[&str] = &[
            "wait_woken",
            "n_tty_read",
            "poll_schedule_timeout",
            "do_select",
            "core_sys_select",
            "do_sys_poll",
            "ep_poll",
            "do_epoll_wait",
        ];
        std::fs::read_to_string(process.join("wchan"))
            .is_ok_and(|wchan| WAITS.iter().any(|wait| wchan.starts_with(wait)))
    }

    /// Whether one of the process's descriptors is the terminal `device`.
    fn has_open(process: &Path, device: u64) -> bool {
        std::fs::read_dir(process.join("fd")).is_ok_and(|fds| {
            fds.filter_map(Result::ok)
                .any(|fd| std::fs::metadata(fd.path()).is_ok_and(|m| m.rdev() == device))
        })
    }

    /// The fields of `/proc/PID/stat` that say how a process stands to its terminal.
    struct Stat {
        name: String,
        group: i64,
        /// Its controlling terminal's device number.
        tty: u64,
        /// The foreground process group of that terminal.
        foreground: i64,
    }

    impl Stat {
        /// `pid (name) state ppid pgrp session tty_nr tpgid …`, where the name may hold spaces and
        /// parentheses: it ends at the last `)`.
        fn parse(stat: &str) -> Option<Stat> {
            let (_pid, rest) = stat.split_once(" (")?;
            let (name, rest) = rest.rsplit_once(") ")?;
            let fields: Vec<&str> = rest.split_whitespace().take(6).collect();
            let [_state, _parent, group, _session, tty, foreground] = fields[..] else {
                return None;
            };
            Some(Stat {
                name: name.into(),
                group: group.parse().ok()?,
                tty: u64::from(tty.parse::<u32>().ok()?),
                foreground: foreground.parse().ok()?,
            })
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_stat_line_is_read_with_any_name() {
            let stat =
                Stat::parse("4242 (tmux: (server) x) S 1 4242 4241 34816 4194560 0 0").unwrap();
            assert_eq!(
                (stat.name.as_str(), stat.group, stat.tty, stat.foreground),
                ("tmux: (server) x", 4242, 34816, 4194560)
            );
            assert!(Stat::parse("garbage").is_none());
        }
    }
}
