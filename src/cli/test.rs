//! `regula test`: runs the expectations of `.tests` files (docs/TESTS.md) and reports
//! each failure with its file and line, what was expected and what was found.

use super::Format;
use regula::expect::{self, Options, Report, Status};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub(crate) struct TestArgs {
    /// Tests files to run. Without any, every `*.tests` file under the current directory
    /// (hidden directories and `target` left out).
    #[arg(value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Write the values found into the files in place of the failing ones (perft counts,
    /// move lists, results, boards, diagnostics), keeping comments and layout. `legal:` and
    /// `illegal:` lines are reported, never rewritten.
    #[arg(long)]
    bless: bool,
    /// Skip perft expectations whose count is above N (they are counted as skipped).
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// `json`: one object on standard output, with every check that did not pass.
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
}

pub(crate) const AFTER_HELP: &str = "\
A tests file names its game with `game PATH` (default: the .game file of the same name
beside it), then positions (`start`, `after MOVES`, `from POSITION`) and what must hold
there: `DEPTH COUNT` (perft), `moves:`, `legal:`, `illegal:`, `result:`, `show:`, and
`diagnostics:` for a broken game file. The format is described in docs/TESTS.md.

Exit codes: 0 every expectation holds, 1 some failed, 2 a file cannot be read or is
malformed, or no tests file was found.

Example:
  regula test games/shakti.tests
  regula test --max-nodes 1000000
  regula test my-game.tests --bless
  regula test --format json";

pub(crate) fn run(args: &TestArgs) -> i32 {
    let files = if args.files.is_empty() {
        let mut found = Vec::new();
        find(Path::new("."), &mut found);
        found.sort();
        if found.is_empty() {
            return super::usage(
                "no `*.tests` file under the current directory",
                "name the files to run (`regula test games/my.tests`); docs/TESTS.md describes the format",
            );
        }
        found
    } else {
        args.files.clone()
    };
    let json = matches!(args.format, Format::Json);
    let options = Options {
        max_nodes: args.max_nodes,
        bless: args.bless,
    };
    let mut status = 0;
    let mut reports = Vec::new();
    let mut errors = Vec::new();
    for path in &files {
        let shown = path.display().to_string();
        // Within the bounds of game files: never a device, a pipe or more than 1 MiB.
        let text = match regula::read_source(path) {
            Ok(t) => t,
            Err(e) => {
                errors.push(
                    json!({"file": shown, "line": null, "message": e.to_string(), "hint": null}),
                );
                if !json {
                    eprintln!("error: {e}");
                }
                status = 2;
                continue;
            }
        };
        let file = match expect::parse(path, &text) {
            Ok(f) => f,
            Err(errs) => {
                for e in errs {
                    errors.push(json!({"file": shown, "line": e.line, "message": e.message, "hint": e.hint}));
                    if !json {
                        eprintln!(
                            "error: {shown}:{}: {}\n  = hint: {}",
                            e.line, e.message, e.hint
                        );
                    }
                }
                status = 2;
                continue;
            }
        };
        let report = expect::run(&file, options);
        if let Some(Err(e)) = report
            .blessed
            .as_ref()
            .map(|text| std::fs::write(path, text))
        {
            eprintln!("error: {shown}: cannot write it: {e}");
            status = 2;
        }
        if report.failed() > 0 {
            status = status.max(1);
        }
        if !json {
            human(&shown, &report);
        }
        reports.push((shown, report));
    }
    let total = |f: fn(&Status) -> bool| reports.iter().map(|(_, r)| r.count(f)).sum::<usize>();
    let passed = total(|s| matches!(s, Status::Passed));
    let failed = total(|s| matches!(s, Status::Failed(_)));
    let skipped = total(|s| matches!(s, Status::Skipped));
    let blessed = total(|s| matches!(s, Status::Blessed(_)));
    if json {
        let files: Vec<_> = reports.iter().map(|(f, r)| to_json(f, r)).collect();
        let all = json!({
            "passed": passed, "failed": failed, "skipped": skipped, "blessed": blessed,
            "files": files, "errors": errors,
        });
        return super::print(&format!("{all}\n")).max(status);
    }
    let verdict = if status == 0 { "ok" } else { "FAILED" };
    let mut line = format!("test result: {verdict}. {passed} passed; {failed} failed");
    if skipped > 0 {
        let max = args.max_nodes.unwrap_or(0);
        line.push_str(&format!(
            "; {skipped} skipped (perft above --max-nodes {max})"
        ));
    }
    if blessed > 0 {
        line.push_str(&format!("; {blessed} blessed (rewritten)"));
    }
    if !errors.is_empty() {
        line.push_str(&format!("; {} error(s) in files", errors.len()));
    }
    line.push_str(&format!("; {} file(s)\n", files.len()));
    super::print(&line).max(status)
}

/// Every `*.tests` file under `dir`, hidden directories and build output left out.
fn find(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && !name.starts_with('.') && name != "target" {
            find(&path, out);
        } else if kind.is_file() && name.ends_with(".tests") {
            out.push(path.strip_prefix("./").map(PathBuf::from).unwrap_or(path));
        }
    }
}

fn human(file: &str, report: &Report) {
    let mut out = String::new();
    for c in &report.checked {
        let (label, f) = match &c.status {
            Status::Failed(f) => ("FAIL", f),
            Status::Blessed(f) => ("blessed", f),
            _ => continue,
        };
        out.push_str(&format!("{label} {file}:{}: {}\n", c.line, c.what));
        for d in &f.diff {
            out.push_str(&format!("    {d}\n"));
        }
    }
    let count = |f: fn(&Status) -> bool| report.count(f);
    let failed = report.failed();
    let mut line = format!(
        "{} {file}: {} passed",
        if failed > 0 { "FAIL" } else { "ok  " },
        count(|s| matches!(s, Status::Passed))
    );
    for (n, what) in [
        (failed, "failed"),
        (count(|s| matches!(s, Status::Skipped)), "skipped"),
        (count(|s| matches!(s, Status::Blessed(_))), "blessed"),
    ] {
        if n > 0 {
            line.push_str(&format!(", {n} {what}"));
        }
    }
    out.push_str(&line);
    out.push('\n');
    super::print(&out);
}

fn to_json(file: &str, report: &Report) -> serde_json::Value {
    let checks: Vec<_> = report
        .checked
        .iter()
        .filter_map(|c| {
            let (status, f) = match &c.status {
                Status::Failed(f) => ("failed", f),
                Status::Blessed(f) => ("blessed", f),
                Status::Skipped => {
                    return Some(json!({"line": c.line, "what": c.what, "status": "skipped"}));
                }
                Status::Passed => return None,
            };
            Some(json!({
                "line": c.line, "what": c.what, "status": status,
                "expected": f.expected, "actual": f.actual, "diff": f.diff,
            }))
        })
        .collect();
    json!({
        "file": file,
        "passed": report.count(|s| matches!(s, Status::Passed)),
        "failed": report.failed(),
        "skipped": report.count(|s| matches!(s, Status::Skipped)),
        "blessed": report.count(|s| matches!(s, Status::Blessed(_))),
        "checks": checks,
    })
}
