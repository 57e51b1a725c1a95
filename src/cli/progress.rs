//! Progress on standard error for the verbs that take a while (`playout`, `bench`), with
//! the manners of `perft`: a bar drawn only when standard error is a terminal and the work
//! has lasted longer than [`QUIET`], cleared before the result is printed; Ctrl-C ends the
//! process with a line saying how far the work got.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Work that takes longer than this shows its progress (on a terminal).
pub const QUIET: Duration = Duration::from_secs(1);

/// Set by Ctrl-C while some work is watched.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Where a bar is drawn once it is shown: standard error, two columns narrower than the
/// terminal. indicatif pads a bar's line to the full width, which leaves the cursor past
/// the last column; the `^C` a terminal echoes for Ctrl-C would then wrap onto a line of
/// its own, below the bar, and clearing "the bar's line" would clear that one instead.
/// A terminal that says it is dumb gets no bar, as indicatif's own target would do.
pub fn stderr_target() -> indicatif::ProgressDrawTarget {
    if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
        return indicatif::ProgressDrawTarget::hidden();
    }
    indicatif::ProgressDrawTarget::term_like_with_hz(
        Box::new(Narrower(console::Term::buffered_stderr())),
        20,
    )
}

#[derive(Debug)]
struct Narrower(console::Term);

impl indicatif::TermLike for Narrower {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(2).max(1)
    }
    fn height(&self) -> u16 {
        self.0.size().0
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_up(n)
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_down(n)
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_right(n)
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_left(n)
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.write_line(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.0.write_str(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.0.clear_line()
    }
    fn flush(&self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// What the work tells the watcher: how many of its steps are done, and what it is doing.
pub struct Progress {
    /// Steps done so far.
    pub done: AtomicU64,
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// What the bar says the work is doing now (its `{msg}`).
    pub fn message(&self, text: String) {
        self.bar.set_message(text);
    }

    /// Runs `f` with the bar off the screen, for output of the work's own.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }
}

/// Runs `work` (on this thread) while another thread follows its `done` steps of `len` on
/// a bar drawn with `template`. On Ctrl-C, the process ends with exit code 130 and the line
/// `interrupted: …` that `interrupted` makes of the steps done.
pub fn watch<T>(
    len: u64,
    template: &str,
    interrupted: impl Fn(u64) -> String + Sync,
    work: impl FnOnce(&Progress) -> T,
) -> T {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(len),
        indicatif::ProgressDrawTarget::hidden(),
    );
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("a valid template"));
    let progress = Progress {
        done: AtomicU64::new(0),
        bar,
    };
    // Without a handler (one is already set, or the platform refuses) Ctrl-C simply ends
    // the process, as it did before.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let started = Instant::now();
    let (finished, wait) = std::sync::mpsc::channel::<()>();
    let out = std::thread::scope(|s| {
        let progress = &progress;
        let interrupted = &interrupted;
        s.spawn(move || {
            let mut shown = false;
            // Dropping the sender, when the work ends, wakes this loop at once.
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                wait.recv_timeout(Duration::from_millis(100))
            {
                let done = progress.done.load(Ordering::Relaxed);
                if INTERRUPTED.load(Ordering::SeqCst) {
                    progress.bar.finish_and_clear();
                    eprintln!("{}", interrupted(done));
                    std::process::exit(130);
                }
                progress.bar.set_position(done);
                if terminal && !shown && started.elapsed() > QUIET {
                    progress.bar.set_draw_target(stderr_target());
                    shown = true;
                }
            }
        });
        let out = work(progress);
        drop(finished);
        out
    });
    progress.bar.finish_and_clear();
    out
}
