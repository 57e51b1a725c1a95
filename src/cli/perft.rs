//! `regula perft`: the count split over the root moves, so that progress can be shown and
//! `--divide` rows printed as soon as they are known.

use super::Format;
use super::json::{self, print_json};
use super::progress::QUIET;
use regula::engine::{Engine, Position};
use std::io::Write;
use std::time::{Duration, Instant};

/// Set by Ctrl-C while a count is split over the root moves.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub struct Options {
    pub depth: u32,
    pub divide: bool,
    pub threads: usize,
    pub stats: bool,
    pub format: Format,
}

/// Runs `regula perft`.
pub fn run(engine: &Engine, pos: &Position, o: &Options) -> i32 {
    let t0 = Instant::now();
    let mut moves = Vec::new();
    let over = engine.status(pos, &mut moves).is_some();
    let human = matches!(o.format, Format::Human);
    let (rows, total) = if o.depth < 2 || over {
        // Nothing to split, or too little to be worth it.
        let rows = o.divide.then(|| engine.divide(pos, o.depth));
        if let (true, Some(rows)) = (human, &rows) {
            print_rows(rows);
        }
        let total = match o.depth {
            // The root's moves are listed already (a forced pass among them).
            1 if !over => moves.len() as u64,
            1 => 0,
            _ => engine.perft_with(pos, o.depth, o.threads),
        };
        (rows, total)
    } else {
        let mut roots: Vec<(String, Position)> = moves
            .iter()
            .map(|m| {
                let mut next = pos.clone();
                engine.play(&mut next, m);
                (engine.notation(m), next)
            })
            .collect();
        roots.sort_by(|a, b| a.0.cmp(&b.0));
        let counts = split(engine, &roots, o, human);
        let total = counts.iter().sum();
        let rows = o
            .divide
            .then(|| roots.into_iter().map(|r| r.0).zip(counts).collect());
        (rows, total)
    };
    let secs = t0.elapsed().as_secs_f64();
    let speed = total as f64 / secs.max(1e-9);
    if o.stats {
        eprintln!("{secs:.3} s, {speed:.0} nodes/s");
    }
    match o.format {
        Format::Json => print_json(&json::Perft {
            depth: o.depth,
            count: total,
            divide: rows.map(|rows| {
                rows.into_iter()
                    .map(|(mv, count)| json::DivideRow { mv, count })
                    .collect()
            }),
            seconds: o.stats.then_some(secs),
            nodes_per_second: o.stats.then_some(speed),
        }),
        Format::Human => super::print(&format!("{total}\n")),
    }
}

fn print_rows(rows: &[(String, u64)]) {
    let text: String = rows.iter().map(|(m, n)| format!("{m} {n}\n")).collect();
    let mut out = std::io::stdout().lock();
    // A closed pipe is not an error of ours.
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// The count below each root move. Threads take the root moves in order; with
/// `--divide` (human format), each row is printed once it and every row before it are
/// known, so that an interrupted count leaves the finished rows on the screen.
fn split(engine: &Engine, roots: &[(String, Position)], o: &Options, human: bool) -> Vec<u64> {
    let n = roots.len();
    let workers = o.threads.min(n).max(1);
    // Fewer root moves than threads: each count gets the threads left over.
    let inner = (o.threads / n).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel::<(usize, u64)>();
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(n as u64),
        indicatif::ProgressDrawTarget::hidden(),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} root moves, {elapsed}")
            .expect("a valid template"),
    );
    // Ctrl-C stops the count but says what it had counted; without a handler (one is
    // already set, or the platform refuses) it simply ends the process.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst));
    let started = Instant::now();
    let mut shown = false;
    let mut counts: Vec<Option<u64>> = vec![None; n];
    let mut printed = 0;
    std::thread::scope(|s| {
        for _ in 0..workers {
            let send = send.clone();
            let next = &next;
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((_, child)) = roots.get(i) else {
                        break;
                    };
                    let count = engine.perft_with(child, o.depth - 1, inner);
                    if send.send((i, count)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut done = 0;
        while done < n {
            match receive.recv_timeout(Duration::from_millis(100)) {
                Ok((i, count)) => {
                    counts[i] = Some(count);
                    done += 1;
                    bar.set_position(done as u64);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
                bar.finish_and_clear();
                if shown {
                    // The bar's line, in case the terminal still shows it.
                    eprint!("\r\x1b[2K");
                }
                interrupted(roots, &counts, printed);
            }
            if terminal && !shown && started.elapsed() > QUIET {
                bar.set_draw_target(super::progress::stderr_target());
                shown = true;
            }
            if o.divide && human {
                let ready = counts[printed..].iter().take_while(|c| c.is_some()).count();
                if ready > 0 {
                    let rows: Vec<(String, u64)> = (printed..printed + ready)
                        .map(|i| (roots[i].0.clone(), counts[i].unwrap_or(0)))
                        .collect();
                    bar.suspend(|| print_rows(&rows));
                    printed += ready;
                }
            }
        }
    });
    bar.finish_and_clear();
    counts
        .into_iter()
        .map(|c| c.expect("every root move counted"))
        .collect()
}

/// Ends the process after Ctrl-C with what was counted: the root moves done and the sum
/// of their counts (with `--divide`, the rows printed so far are complete).
fn interrupted(roots: &[(String, Position)], counts: &[Option<u64>], printed: usize) -> ! {
    let done = counts.iter().flatten().count();
    let partial: u64 = counts.iter().flatten().sum();
    let mut text = format!(
        "interrupted: {done} of {} root moves counted, {partial} nodes below them",
        roots.len()
    );
    if printed > 0 {
        text.push_str(&format!("; the {printed} row(s) above are complete"));
    }
    eprintln!("{text}");
    std::process::exit(130)
}
