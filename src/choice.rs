//! The command line's choice of ruleset (`--variant`, `--set`), loading a game with it,
//! and `regula info`.

use crate::cli::Format;
use regula::diag::Diagnostic;
use regula::engine::Engine;
use regula::variants::{self, Choice};
use std::path::Path;

/// The ruleset options every verb that reads a game takes.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ChoiceArgs {
    /// Play a variant declared in the file (`regula info GAME` lists them).
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Set a parameter declared in the file (repeatable): `--set size=9`.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    pub set: Vec<(String, i64)>,
}

impl ChoiceArgs {
    pub fn choice(&self) -> Choice {
        Choice {
            variant: self.variant.clone(),
            set: self.set.clone(),
        }
    }

    /// Whether a ruleset other than the file as it is was asked for.
    pub fn is_given(&self) -> bool {
        self.variant.is_some() || !self.set.is_empty()
    }
}

fn parse_set(text: &str) -> Result<(String, i64), String> {
    let usage = "expected NAME=VALUE with a whole number, e.g. `--set size=9`";
    let (name, value) = text.split_once('=').ok_or(usage)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(usage.into());
    }
    let value = value
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("`{}` is not a whole number; {usage}", value.trim()))?;
    Ok((name.to_string(), value))
}

/// How a game failed to load: the exit code, once its diagnostics are printed.
pub fn failure(path: &Path, source: &str, diags: &[Diagnostic], format: Format) -> i32 {
    let choice: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| variants::is_choice_error(d))
        .cloned()
        .collect();
    if !choice.is_empty() {
        // A mistake of the command line, not of the file: usage error.
        crate::cli::report(&path.to_string_lossy(), source, &choice, format);
        return 2;
    }
    crate::cli::report(&path.to_string_lossy(), source, diags, format)
}

/// The engine of a game file for a choice, or the exit code once the problem is printed.
pub fn load(path: &Path, choice: &Choice) -> Result<Engine, i32> {
    let source =
        regula::read_source(path).map_err(|e| crate::cli::report_load_error(&e, Format::Human))?;
    match regula::compile_with(&source, choice) {
        Ok((program, _)) => Ok(Engine::new(program)),
        Err(diags) => Err(failure(path, &source, &diags, Format::Human)),
    }
}

/// `regula info`: what a game is, for the chosen ruleset.
pub fn info(path: &Path, choice: &Choice, format: Format) -> i32 {
    let json = matches!(format, Format::Json);
    let source = match regula::read_source(path) {
        Ok(s) => s,
        Err(e) => return crate::cli::report_load_error(&e, format),
    };
    let program = match regula::compile_with(&source, choice) {
        Ok((program, _)) => program,
        Err(diags) => return failure(path, &source, &diags, format),
    };
    let parsed = regula::syntax::parse(&source);
    let declared = variants::variants(&parsed.file);
    let params = variants::resolve(parsed.file, choice).params;
    let game = &program.game;
    let meta = |key: &str| -> Vec<&str> {
        game.meta
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    };
    let cells = regula::geometry::Board::new(game.board.clone()).map_or(0, |b| b.cells());
    let board = match &game.board {
        regula::geometry::Shape::Square { files, ranks } => format!("{files} x {ranks}"),
        regula::geometry::Shape::HexRhombus { files, ranks } => format!("hex {files} x {ranks}"),
        regula::geometry::Shape::Hexagon { side } => format!("hexagon {side}"),
        regula::geometry::Shape::Points { files, ranks, .. } => format!("points {files} x {ranks}"),
    };
    let players: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
    if json {
        let value = serde_json::json!({
            "name": game.name,
            "variant": choice.variant,
            "description": meta("description").first(),
            "sources": meta("source"),
            "meta": game.meta.iter().map(|(k, v)| serde_json::json!([k, v])).collect::<Vec<_>>(),
            "players": players,
            "board": { "shape": board, "cells": cells },
            "pieces": game.pieces.iter().map(|p| serde_json::json!({
                "name": p.name, "letter": p.letter.to_string(),
            })).collect::<Vec<_>>(),
            "variants": declared.iter().map(|v| serde_json::json!({
                "name": v.name, "description": v.description,
            })).collect::<Vec<_>>(),
            "parameters": params.iter().map(|p| serde_json::json!({
                "name": p.name, "value": p.value, "default": p.default, "min": p.min, "max": p.max,
            })).collect::<Vec<_>>(),
        });
        return crate::cli::print(&format!("{value}\n"));
    }
    let mut out = format!("name: {}\n", game.name);
    if let Some(v) = &choice.variant {
        out.push_str(&format!("variant: {v}\n"));
    }
    for (k, v) in &game.meta {
        out.push_str(&format!("{k}: {v}\n"));
    }
    out.push_str(&format!("players: {}\n", players.join(", ")));
    out.push_str(&format!("board: {board} ({cells} cells)\n"));
    let pieces: Vec<String> = game
        .pieces
        .iter()
        .map(|p| format!("{} ({})", p.name, p.letter))
        .collect();
    out.push_str(&format!("pieces: {}\n", pieces.join(", ")));
    if declared.is_empty() {
        out.push_str("variants: none\n");
    } else {
        out.push_str("variants:\n");
        let width = declared.iter().map(|v| v.name.len()).max().unwrap_or(0);
        for v in &declared {
            let text = v.description.as_deref().unwrap_or("");
            out.push_str(format!("  {:<width$}  {text}", v.name).trim_end());
            out.push('\n');
        }
    }
    if params.is_empty() {
        out.push_str("parameters: none\n");
    } else {
        out.push_str("parameters:\n");
        for p in &params {
            out.push_str(&format!(
                "  {} = {} (default {}, from {} to {})\n",
                p.name, p.value, p.default, p.min, p.max
            ));
        }
    }
    crate::cli::print(&out)
}
