//! `regula play`: humans and agents in any mix, at a terminal.
//!
//! The session (`Session`) holds the game and answers each line a human types with data
//! (`Reply`); `run` is the terminal around it: it prints boards, reports and replies, and
//! reads lines until the game ends or the input does.

use super::{agent_hint, cores, usage};
use regula::agents::{Agent, Choice, Spec};
use regula::diag::suggest;
use regula::engine::{Engine, Move, Outcome, Position};
use std::ffi::OsString;
use std::io::{BufRead, IsTerminal, Write};

/// Who plays a side.
pub enum Side {
    Human,
    Agent(Spec, Box<dyn Agent>),
}

/// What a line typed by a human leads to.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// The move was played.
    Played(String),
    /// The legal moves, sorted.
    Moves(Vec<String>),
    /// Not a legal move; the closest legal moves, if any.
    NotLegal {
        text: String,
        suggestions: Vec<String>,
    },
    /// Undone moves, latest first; empty when there was nothing to undo.
    Undone(Vec<String>),
    Hint(String, String),
    Resigned(u8),
    Help,
    Board,
    Position(String),
    Empty,
}

pub struct Session<'e> {
    pub engine: &'e Engine,
    pub sides: Vec<Side>,
    pub pos: Position,
    /// Each move played, with the position before it.
    pub played: Vec<(Position, Move)>,
    pub hint: Spec,
    pub seed: u64,
    pub threads: usize,
    pub resigned: Option<u8>,
}

pub const HELP: &str = "Type a move in notation (e2-e4, X@b2, e7-e8=Q, pass), or:\n  moves, ?   the legal moves\n  undo       back to your previous turn\n  hint       ask an agent for a move\n  board      the board again\n  position   the position in notation (for --from)\n  resign     give up the game\n  help       this text\nCtrl-D (end of input) leaves the game.";

impl<'e> Session<'e> {
    /// The game's result, or `None` while it goes on (a resignation ends it too).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(p) = self.resigned {
            let n = self.engine.players();
            return Some(if n == 2 {
                Outcome::Win((p + 1) % n)
            } else {
                Outcome::Lose(p)
            });
        }
        self.engine.status(&self.pos, &mut Vec::new())
    }

    pub fn legal(&self) -> Vec<Move> {
        let mut buf = Vec::new();
        self.engine.status(&self.pos, &mut buf);
        buf
    }

    pub fn to_move_is_human(&self) -> bool {
        matches!(self.sides[self.pos.to_move() as usize], Side::Human)
    }

    /// Plays a move for whoever is to move, and tells every agent.
    pub fn play(&mut self, mv: Move) {
        self.played.push((self.pos.clone(), mv));
        self.engine.play(&mut self.pos, &mv);
        for side in &mut self.sides {
            if let Side::Agent(_, a) = side {
                a.observe(self.engine, &mv);
            }
        }
    }

    /// The agent to move chooses and plays; returns its choice.
    pub fn agent_turn(&mut self) -> Option<Choice> {
        let legal = self.legal();
        let Side::Agent(_, agent) = &mut self.sides[self.pos.to_move() as usize] else {
            return None;
        };
        let choice = agent.choose(self.engine, &self.pos, &legal);
        self.play(choice.mv);
        Some(choice)
    }

    /// Answers one line typed by the human to move.
    pub fn command(&mut self, line: &str) -> Reply {
        let text = line.trim();
        match text {
            "" => Reply::Empty,
            "moves" | "?" => {
                let mut v: Vec<String> = self
                    .legal()
                    .iter()
                    .map(|m| self.engine.notation(m))
                    .collect();
                v.sort();
                Reply::Moves(v)
            }
            "help" => Reply::Help,
            "board" => Reply::Board,
            "position" => Reply::Position(self.engine.position_text(&self.pos)),
            "undo" => Reply::Undone(self.undo()),
            "resign" => {
                let p = self.pos.to_move();
                self.resigned = Some(p);
                Reply::Resigned(p)
            }
            "hint" => {
                let legal = self.legal();
                let mut agent = self
                    .hint
                    .build(
                        self.engine,
                        self.seed ^ self.played.len() as u64,
                        self.threads,
                    )
                    .expect("hints come from agents");
                let c = agent.choose(self.engine, &self.pos, &legal);
                Reply::Hint(self.engine.notation(&c.mv), c.report.to_string())
            }
            _ => {
                let legal = self.legal();
                match legal.iter().find(|m| self.engine.notation(m) == text) {
                    Some(&m) => {
                        self.play(m);
                        Reply::Played(text.to_string())
                    }
                    None => {
                        let names: Vec<String> =
                            legal.iter().map(|m| self.engine.notation(m)).collect();
                        Reply::NotLegal {
                            text: text.to_string(),
                            suggestions: near_misses(text, &names),
                        }
                    }
                }
            }
        }
    }

    /// Takes back moves until it is again a human's turn, at least one move back.
    fn undo(&mut self) -> Vec<String> {
        let human_turn_before = self
            .played
            .iter()
            .any(|(p, _)| matches!(self.sides[p.to_move() as usize], Side::Human));
        if !human_turn_before {
            return Vec::new();
        }
        let mut undone = Vec::new();
        while let Some((before, mv)) = self.played.pop() {
            undone.push(self.engine.notation(&mv));
            self.pos = before;
            if self.to_move_is_human() {
                break;
            }
        }
        for side in &mut self.sides {
            if let Side::Agent(_, a) = side {
                a.reset();
            }
        }
        undone
    }
}

/// The legal moves a mistyped move most likely meant: the same move in another case or
/// without separators (`E2E4`, `e2 e4`, `e2xe4`), every move to a cell typed alone
/// (`a1` for `X@a1`), or the closest by edit distance.
pub fn near_misses(text: &str, legal: &[String]) -> Vec<String> {
    let squash = |s: &str| -> String {
        let lower = s.to_lowercase();
        let b: Vec<char> = lower.chars().collect();
        b.iter()
            .enumerate()
            .filter(|&(i, &c)| {
                let between = i > 0
                    && i + 1 < b.len()
                    && b[i - 1].is_ascii_digit()
                    && b[i + 1].is_ascii_lowercase();
                !(c == '-' || c == ' ' || c == ':' || (c == 'x' && between))
            })
            .map(|(_, &c)| c)
            .collect()
    };
    let key = squash(text);
    let mut out: Vec<String> = legal.iter().filter(|m| squash(m) == key).cloned().collect();
    if out.is_empty() && regula::geometry::looks_like_cell_name(&key) {
        out = legal
            .iter()
            .filter(|m| {
                let target = m.split(['-', '@']).nth(1).unwrap_or("");
                target.split('=').next() == Some(key.as_str())
            })
            .cloned()
            .collect();
    }
    if out.is_empty()
        && let Some(s) = suggest(text, legal.iter().map(String::as_str))
    {
        out.push(s.to_string());
    }
    out.sort();
    out.dedup();
    out
}

/// A line of the game's moves so far, numbered by ply.
fn last_move_line(s: &Session) -> Option<String> {
    let (before, mv) = s.played.last()?;
    Some(format!(
        "{} played {}",
        s.engine.player_name(before.to_move()),
        s.engine.notation(mv)
    ))
}

/// Runs a session at the terminal; returns the exit code.
pub fn run(mut s: Session) -> i32 {
    let stdin = std::io::stdin();
    let echo = !stdin.is_terminal();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let mut say = |text: &str| {
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    };
    let names: Vec<String> = (0..s.engine.players())
        .map(|p| {
            let who = match &s.sides[p as usize] {
                Side::Human => "human".to_string(),
                Side::Agent(spec, _) => spec.to_string(),
            };
            format!("{} ({who})", s.engine.player_name(p))
        })
        .collect();
    say(&format!(
        "{}: {}",
        s.engine.game().name,
        names.join(" against ")
    ));
    if s.sides.iter().any(|x| matches!(x, Side::Human)) {
        say("Type a move, or `?` for the legal moves, `help` for the commands.");
    }
    say("");
    say(s.engine.render(&s.pos).trim_end());
    loop {
        if let Some(o) = s.outcome() {
            // The board drawn last already says how a game ended by the rules.
            if let Some(p) = s.resigned {
                say(&format!("{} resigned", s.engine.player_name(p)));
                say(&format!("result: {}", s.engine.outcome_text(o)));
            }
            return 0;
        }
        if !s.to_move_is_human() {
            let choice = s.agent_turn().expect("an agent is to move");
            say("");
            say(&format!("  {}", choice.report));
            say(&last_move_line(&s).unwrap_or_default());
            say(s.engine.render(&s.pos).trim_end());
            continue;
        }
        let player = s.engine.player_name(s.pos.to_move()).to_string();
        {
            let mut o = std::io::stdout();
            let _ = write!(o, "{player}> ");
            let _ = o.flush();
        }
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => {
                say("");
                say("end of input: the game is left unfinished");
                return 0;
            }
            Ok(_) => {}
        }
        if echo {
            say(line.trim_end());
        }
        match s.command(&line) {
            Reply::Empty => {}
            Reply::Played(_) => {
                say(&last_move_line(&s).unwrap_or_default());
                say(s.engine.render(&s.pos).trim_end());
            }
            Reply::Moves(v) => say(&format!("legal moves: {}", v.join(" "))),
            Reply::NotLegal { text, suggestions } => {
                let mut msg = format!("`{text}` is not a legal move here");
                if !suggestions.is_empty() {
                    let q: Vec<String> = suggestions.iter().map(|m| format!("`{m}`")).collect();
                    msg.push_str(&format!("; did you mean {}?", q.join(" or ")));
                } else {
                    msg.push_str("; type `?` for the legal moves");
                }
                say(&msg);
            }
            Reply::Undone(v) if v.is_empty() => say("nothing to undo"),
            Reply::Undone(v) => {
                say(&format!("undone: {}", v.join(" ")));
                say(s.engine.render(&s.pos).trim_end());
            }
            Reply::Hint(mv, report) => say(&format!("hint: {mv}  ({report})")),
            Reply::Resigned(_) => {}
            Reply::Help => say(HELP),
            Reply::Board => say(s.engine.render(&s.pos).trim_end()),
            Reply::Position(p) => say(&p),
        }
    }
}

/// Starts `regula play`: the players' agents from the command line, then the session.
pub fn start(
    engine: &Engine,
    pos: &Position,
    players: &[String],
    hint: &str,
    seed: u64,
    threads: Option<usize>,
) -> i32 {
    let names: Vec<&str> = (0..engine.players())
        .map(|p| engine.player_name(p))
        .collect();
    let threads = threads.unwrap_or_else(cores).max(1);
    let mut specs = vec![regula::agents::Spec::Human; names.len()];
    for item in players {
        let Some((name, spec)) = item.split_once('=') else {
            return usage(
                &format!("`{item}` does not say who plays whom"),
                &format!(
                    "write `--player NAME=AGENT` or `--NAME AGENT`; the players are {}",
                    names.join(", ")
                ),
            );
        };
        let Some(p) = names.iter().position(|n| *n == name) else {
            let hint = match regula::diag::suggest(name, names.iter().copied()) {
                Some(s) => format!("did you mean `--{s}`? the players are {}", names.join(", ")),
                None => format!("the players of this game are {}", names.join(", ")),
            };
            return usage(&format!("unknown player or option `--{name}`"), &hint);
        };
        match spec.parse() {
            Ok(s) => specs[p] = s,
            Err(e) => return usage(&format!("{e}"), &agent_hint(&e)),
        }
    }
    let hint = match hint.parse::<regula::agents::Spec>() {
        Ok(regula::agents::Spec::Human) => {
            return usage(
                "`--hint human` cannot give hints",
                "name an agent: `--hint mcts:1s`",
            );
        }
        Ok(s) => s,
        Err(e) => return usage(&format!("--hint: {e}"), &agent_hint(&e)),
    };
    let sides = specs
        .iter()
        .enumerate()
        .map(
            |(p, spec)| match spec.build(engine, seed.wrapping_add(p as u64), threads) {
                None => Side::Human,
                Some(a) => Side::Agent(spec.clone(), a),
            },
        )
        .collect();
    run(Session {
        engine,
        sides,
        pos: pos.clone(),
        played: Vec::new(),
        hint,
        seed,
        threads,
        resigned: None,
    })
}

/// Rewrites `play`'s `--<player> AGENT` options as `--player <player>=AGENT`, since
/// player names are known only once the game is read. Arguments need not be UTF-8 (a game
/// file's name may not be): those are passed on as they are.
pub fn rewrite_args(args: Vec<OsString>) -> Vec<OsString> {
    const OWN: &[&str] = &[
        "--player",
        "--from",
        "--after",
        "--seed",
        "--threads",
        "--hint",
        "--variant",
        "--set",
        "--help",
    ];
    if args.get(1).and_then(|a| a.to_str()) != Some("play") {
        return args;
    }
    let mut out = Vec::with_capacity(args.len());
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let Some(name) = a.to_str().and_then(|t| t.strip_prefix("--")) else {
            out.push(a);
            continue;
        };
        let (name, inline) = match name.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(OsString::from(v))),
            None => (name.to_string(), None),
        };
        if name.is_empty() || OWN.contains(&format!("--{name}").as_str()) {
            out.push(a);
            continue;
        }
        let value = inline.or_else(|| it.next()).unwrap_or_default();
        let mut player = OsString::from(format!("{name}="));
        player.push(value);
        out.push("--player".into());
        out.push(player);
    }
    out
}
