//! `regula lsp` spoken to as an editor would: JSON-RPC messages with Content-Length framing
//! on the server's standard input and output, on a shipped game and on broken files.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const URI: &str = "file:///work/games/tablut.game";

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    notifications: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_regula"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start regula lsp");
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut c = Client {
            child,
            stdin,
            incoming,
            next_id: 0,
            notifications: Vec::new(),
        };
        let init = c.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": {}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "regula");
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        let stdin = self.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        self.incoming
            .recv_timeout(Duration::from_secs(20))
            .expect("the server answers in time")
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.receive();
            if msg.get("method").is_none() && msg["id"] == id {
                return msg;
            }
            self.notifications.push(msg);
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params);
        assert!(r.get("error").is_none(), "{method}: {r}");
        r["result"].clone()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published for a document.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let found = self.notifications.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri
            });
            if let Some(i) = found {
                let n = self.notifications.remove(i);
                return n["params"]["diagnostics"].as_array().unwrap().clone();
            }
            let msg = self.receive();
            self.notifications.push(msg);
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "regula", "version": 1, "text": text}}),
        );
        self.diagnostics(uri)
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
        self.diagnostics(uri)
    }

    /// Shuts the server down as the protocol asks; returns its exit code.
    fn stop(mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null);
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

fn tablut() -> String {
    std::fs::read_to_string(format!("{}/games/tablut.game", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The LSP position (line, UTF-16 column) of the `nth` occurrence of `needle`, plus `shift`
/// characters.
fn at(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let offset = text.match_indices(needle).nth(nth).expect(needle).0;
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col: usize = text[start..offset].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": col + shift})
}

fn position(uri: &str, pos: Value) -> Value {
    json!({"textDocument": {"uri": uri}, "position": pos})
}

/// The text a range covers.
fn covered(text: &str, range: &Value) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let (l0, c0) = (
        range["start"]["line"].as_u64().unwrap() as usize,
        range["start"]["character"].as_u64().unwrap() as usize,
    );
    let (l1, c1) = (
        range["end"]["line"].as_u64().unwrap() as usize,
        range["end"]["character"].as_u64().unwrap() as usize,
    );
    assert_eq!(l0, l1, "one-line range");
    let units: Vec<u16> = lines[l0].encode_utf16().collect();
    String::from_utf16(&units[c0..c1]).unwrap()
}

#[test]
fn a_session_starts_announces_its_features_and_ends_cleanly() {
    let mut c = Client::start();
    let diags = c.open(URI, &tablut());
    assert_eq!(diags, Vec::<Value>::new(), "tablut is clean");
    let r = c.request("workspace/symbol", json!({"query": "x"}));
    assert_eq!(
        r["error"]["code"], -32601,
        "unknown methods are refused: {r}"
    );
    assert_eq!(c.stop(), 0);
}

#[test]
fn diagnostics_are_those_of_check_and_follow_the_edits() {
    let broken = "game \"Broken\" { }\nplayers { white black }\nboard 3 x 3\npiece King letter K\npiece Queen letter\nsetup { white King a1  black Kign c3 }\nmoves King { step all to not friend }\nend { when no moves: next loses }\n";
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lsp");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.game");
    std::fs::write(&path, broken).unwrap();
    let check = Command::new(env!("CARGO_BIN_EXE_regula"))
        .args(["check", "--format", "json", path.to_str().unwrap()])
        .output()
        .unwrap();
    let file: Value = serde_json::from_str(
        String::from_utf8(check.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let want: Vec<(String, String, u64, u64)> = file["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let mut message = v["message"].as_str().unwrap().to_string();
            if let Some(h) = v["hint"].as_str() {
                message.push_str(&format!("\nhint: {h}"));
            }
            let code = v["code"].as_str().unwrap().to_string();
            (
                code,
                message,
                v["line"].as_u64().unwrap() - 1,
                v["column"].as_u64().unwrap() - 1,
            )
        })
        .collect();
    // The syntax error does not hide the misspelt piece in another section.
    let codes: Vec<&str> = want.iter().map(|w| w.0.as_str()).collect();
    assert_eq!(codes, ["E0001", "E0102"]);

    let mut c = Client::start();
    let uri = "file:///tmp/broken.game";
    let have: Vec<(String, String, u64, u64)> = c
        .open(uri, broken)
        .iter()
        .map(|d| {
            assert_eq!(d["source"], "regula");
            assert_eq!(d["severity"], 1);
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["character"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(have, want);
    assert!(
        have[1].1.ends_with("\nhint: did you mean `King`?"),
        "{have:?}"
    );

    // Tablut: introduce a misspelt region, then fix it.
    let text = tablut();
    assert!(c.open(URI, &text).is_empty());
    let typo = text.replacen("not in throne", "not in thron", 1);
    let diags = c.change(URI, 2, &typo);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0104");
    assert_eq!(covered(&typo, &diags[0]["range"]), "thron");
    assert!(
        diags[0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `throne`?")
    );
    // A syntax error elsewhere in the same edit: both are reported.
    let two = typo.replacen("piece Guard letter G", "piece Guard letter", 1);
    let codes: Vec<Value> = c
        .change(URI, 3, &two)
        .iter()
        .map(|d| d["code"].clone())
        .collect();
    assert_eq!(codes, [json!("E0001"), json!("E0104")]);
    assert!(c.change(URI, 4, &text).is_empty(), "fixed");
    // Closing a document clears its diagnostics.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": URI}}),
    );
    assert!(c.diagnostics(URI).is_empty());
    assert_eq!(c.stop(), 0);
}

#[test]
fn hover_on_keywords_built_ins_and_declared_names() {
    let text = tablut();
    let mut c = Client::start();
    c.open(URI, &text);
    let mut hover = |needle: &str, nth: usize, shift: usize| -> String {
        let r = c.result(
            "textDocument/hover",
            position(URI, at(&text, needle, nth, shift)),
        );
        r["contents"]["value"].as_str().unwrap_or("").to_string()
    };
    let h = hover("slide", 0, 1);
    assert!(
        h.contains("`slide`") && h.contains("moves any number of cells"),
        "{h}"
    );
    let h = hover("to empty", 0, 4);
    assert!(
        h.contains("built-in cell test") && h.contains("has no piece"),
        "{h}"
    );
    let h = hover("orthogonal", 0, 1);
    assert!(
        h.contains("direction") && h.contains("north, east, south, west"),
        "{h}"
    );
    let h = hover("Mercenary", 2, 1);
    assert!(h.starts_with("piece `Mercenary`"), "{h}");
    assert!(h.contains("piece Mercenary letter M"), "{h}");
    let h = hover("in throne", 0, 4);
    assert!(
        h.starts_with("region `throne`") && h.contains("region throne = e5"),
        "{h}"
    );
    assert!(h.contains("1 cell: e5"), "{h}");
    let h = hover("of soldier", 0, 4);
    assert!(h.contains("group soldier = Guard, Mercenary"), "{h}");
    let h = hover("enclosed(last-to", 0, 1);
    assert!(
        h.starts_with("definition `enclosed`")
            && h.contains("define enclosed(k) = all d in orthogonal"),
        "{h}"
    );
    let h = hover("white", 0, 1);
    assert!(h.starts_with("player `white`, moves first"), "{h}");
    assert!(h.contains("players { white black }"), "{h}");
    let h = hover("d in orthogonal", 0, 0);
    assert!(
        h.starts_with("variable `d`") && h.contains("for d in orthogonal {"),
        "{h}"
    );
    assert!(!h.contains("remove"), "only the line that binds it: {h}");
    // A comment says nothing.
    let r = c.result(
        "textDocument/hover",
        position(URI, json!({"line": 0, "character": 5})),
    );
    assert_eq!(r, Value::Null);
    assert_eq!(c.stop(), 0);
}

#[test]
fn definitions_and_references_of_declared_names() {
    let text = tablut();
    let mut c = Client::start();
    c.open(URI, &text);
    // From a use of `soldier` to its declaration.
    let r = c.result(
        "textDocument/definition",
        position(URI, at(&text, "of soldier", 0, 5)),
    );
    assert_eq!(r["uri"], URI);
    assert_eq!(r["range"]["start"], at(&text, "group soldier", 0, 6));
    assert_eq!(covered(&text, &r["range"]), "soldier");
    // Every use of `Mercenary`, with and without the declaration.
    let all = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": at(&text, "Mercenary", 4, 0), "context": {"includeDeclaration": true}}),
    );
    let all = all.as_array().unwrap();
    // Comments say "mercenary" in lower case.
    let count = text.matches("Mercenary").count();
    assert_eq!(count, 6);
    assert_eq!(all.len(), count, "{all:?}");
    assert!(
        all.iter()
            .all(|l| covered(&text, &l["range"]) == "Mercenary")
    );
    let uses = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": at(&text, "Mercenary", 0, 0), "context": {"includeDeclaration": false}}),
    );
    assert_eq!(uses.as_array().unwrap().len(), count - 1);
    // The loop variable `d` of the definition refers to its quantifier, not elsewhere.
    let d = c.result(
        "textDocument/definition",
        position(URI, at(&text, "k + d is Mercenary", 0, 4)),
    );
    assert_eq!(d["range"]["start"], at(&text, "all d in orthogonal", 0, 4));
    // A keyword has no definition.
    let r = c.result(
        "textDocument/definition",
        position(URI, at(&text, "slide", 0, 0)),
    );
    assert_eq!(r, Value::Null);
    assert_eq!(c.stop(), 0);
}

#[test]
fn completion_offers_names_keywords_and_directions_but_not_in_comments() {
    let text = tablut();
    let mut c = Client::start();
    c.open(URI, &text);
    let items = c.result(
        "textDocument/completion",
        position(URI, at(&text, "remove to + d", 0, 0)),
    );
    let items = items.as_array().unwrap();
    let label = |l: &str| items.iter().find(|i| i["label"] == l).cloned();
    for (name, detail) in [
        ("Mercenary", "piece"),
        ("soldier", "group"),
        ("throne", "region"),
        ("enclosed", "definition"),
        ("white", "player"),
        ("d", "variable"),
    ] {
        let item = label(name).unwrap_or_else(|| panic!("{name} is offered"));
        assert_eq!(item["detail"], detail);
    }
    assert_eq!(label("remove").unwrap()["kind"], 14, "a keyword");
    assert!(label("northwest").is_some() && label("forward-left").is_some());
    assert!(label("last-to").is_some() && label("empty").is_some());
    // `k` is a parameter of another section: not in scope here.
    assert!(label("k").is_none());
    let in_comment = c.result(
        "textDocument/completion",
        position(URI, at(&text, "Custodial", 0, 3)),
    );
    assert_eq!(in_comment, json!([]));
    assert_eq!(c.stop(), 0);
}

#[test]
fn the_outline_lists_sections_and_declared_names() {
    let text = tablut();
    let mut c = Client::start();
    c.open(URI, &text);
    let symbols = c.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "game",
            "players",
            "board",
            "throne",
            "King",
            "Guard",
            "Mercenary",
            "soldier",
            "setup",
            "moves King, Guard, Mercenary",
            "after move of soldier",
            "enclosed",
            "end"
        ]
    );
    let s = &symbols.as_array().unwrap()[4];
    assert_eq!(s["detail"], "piece");
    assert_eq!(covered(&text, &s["selectionRange"]), "King");
    let players = &symbols[1]["children"];
    assert_eq!(players[0]["name"], "white");
    let end = symbols.as_array().unwrap().last().unwrap();
    assert_eq!(end["children"][3]["name"], "when repetitions >= 3: draw");
    assert_eq!(c.stop(), 0);
}

#[test]
fn rename_changes_every_use_and_refuses_bad_names() {
    let text = tablut();
    let mut c = Client::start();
    c.open(URI, &text);
    let prep = c.result(
        "textDocument/prepareRename",
        position(URI, at(&text, "in throne", 0, 5)),
    );
    assert_eq!(prep["placeholder"], "throne");
    let edit = c.result(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": at(&text, "in throne", 0, 5), "newName": "castle"}),
    );
    let edits = edit["changes"][URI].as_array().unwrap();
    assert_eq!(
        edits.len(),
        3,
        "the declaration, a rule and the definition `enclosed`"
    );
    // Apply the edits (from the end) and check the result still compiles, with the new name.
    let mut renamed = text.clone();
    let mut offsets: Vec<usize> = edits
        .iter()
        .map(|e| {
            assert_eq!(covered(&text, &e["range"]), "throne");
            let p = &e["range"]["start"];
            let line = p["line"].as_u64().unwrap() as usize;
            let start: usize = text.split('\n').take(line).map(|l| l.len() + 1).sum();
            start + p["character"].as_u64().unwrap() as usize
        })
        .collect();
    offsets.sort_unstable();
    for o in offsets.into_iter().rev() {
        renamed.replace_range(o..o + "throne".len(), "castle");
    }
    assert!(renamed.contains("region castle = e5") && !renamed.contains("in throne"));
    assert!(regula::compile(&renamed).is_ok());
    assert!(c.change(URI, 2, &renamed).is_empty());

    for (new_name, why) in [
        ("Guard", "already the name of a piece"),
        ("edge", "built-in"),
        ("moves", "keyword"),
        ("e4", "looks like a cell"),
        ("9lives", "not a name"),
    ] {
        let r = c.request(
            "textDocument/rename",
            json!({"textDocument": {"uri": URI}, "position": at(&renamed, "castle", 0, 0), "newName": new_name}),
        );
        let msg = r["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("{new_name}: {r}"));
        assert!(msg.contains(why), "{new_name}: {msg}");
    }
    let r = c.request(
        "textDocument/prepareRename",
        position(URI, at(&renamed, "slide", 0, 0)),
    );
    assert!(
        r["error"]["message"].as_str().unwrap().contains("keyword"),
        "{r}"
    );
    assert_eq!(c.stop(), 0);
}

#[test]
fn positions_are_utf16_columns() {
    // Characters of one, two and three bytes, and one of two UTF-16 units, before names.
    let text = "// é ♞ 𝄞\ngame \"Ünïcode ♜\" { }\nplayers { white black }\nboard 3 x 3\n/* ♞ 𝄞 */ piece King letter K\nsetup { white King a1  black King c3 }\nmoves King { step all to not friend } // 𝄞 King\nend { when no moves: next loses }\n";
    let mut c = Client::start();
    let uri = "file:///tmp/unicode.game";
    assert!(c.open(uri, text).is_empty());
    let pos = at(text, "King letter", 0, 2);
    assert_eq!(pos["character"], 19, "`/* ♞ 𝄞 */ piece ` is 17 units");
    let r = c.result(
        "textDocument/definition",
        position(uri, at(text, "King {", 0, 1)),
    );
    assert_eq!(r["range"]["start"], at(text, "King letter", 0, 0));
    assert_eq!(covered(text, &r["range"]), "King");
    let refs = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": pos, "context": {"includeDeclaration": true}}),
    );
    assert_eq!(
        refs.as_array().unwrap().len(),
        4,
        "not the word in the comment"
    );
    // A diagnostic after non-ASCII text points at the right columns.
    let typo = text.replacen("black King c3", "black Kng c3", 1);
    let diags = c.change(uri, 2, &typo);
    assert_eq!(covered(&typo, &diags[0]["range"]), "Kng");
    assert_eq!(c.stop(), 0);
}

#[test]
fn formatting_returns_the_layout_of_fmt() {
    let messy = "players{white black}\nboard 3x3\npiece King letter K\nsetup{white King a1 black King c3}\nmoves King{step all to not friend}\n";
    let mut c = Client::start();
    let uri = "file:///tmp/messy.game";
    c.open(uri, messy);
    let edits = c.result(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"], regula::fmt::format(messy).unwrap());
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(edits[0]["range"]["end"], json!({"line": 5, "character": 0}));
    assert_eq!(c.stop(), 0);
}

#[test]
fn garbage_and_an_abrupt_end_do_not_crash_the_server() {
    let mut c = Client::start();
    let uri = "file:///tmp/garbage.game";
    for text in [
        "",
        "}{)(",
        "moves { { { ",
        "\u{0}\u{1}é",
        &"(".repeat(100),
        "piece",
    ] {
        c.open(uri, text);
        for line in 0..2 {
            for character in 0..6 {
                let p = position(uri, json!({"line": line, "character": character}));
                for method in [
                    "textDocument/hover",
                    "textDocument/definition",
                    "textDocument/completion",
                    "textDocument/prepareRename",
                ] {
                    let r = c.request(method, p.clone());
                    assert!(r.get("result").is_some() || r.get("error").is_some(), "{r}");
                }
            }
        }
        c.result(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        );
    }
    let r = c.request("textDocument/hover", json!({"nonsense": true}));
    assert_eq!(r["error"]["code"], -32602);
    // Closing the pipe without `shutdown` ends the server with an error code.
    drop(c.stdin.take());
    let code = c.child.wait().unwrap().code();
    assert_eq!(code, Some(1));
}

#[test]
fn every_prefix_and_every_line_removal_of_a_game_is_answered() {
    // What an editor sends while a file is typed or cut: every answer comes back, and no
    // range points outside the text.
    use lsp_types::{Position, Uri};
    use regula::lsp::document::Document;
    let uri: Uri = "file:///t.game".parse().unwrap();
    let mut texts = Vec::new();
    for path in ["games/tablut.game", "docs/examples/chess.game"] {
        let full =
            std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let cuts = (0..full.len())
            .step_by(23)
            .filter(|&i| full.is_char_boundary(i));
        texts.extend(cuts.map(|i| full[..i].to_string()));
        let lines: Vec<&str> = full.lines().collect();
        for skip in 0..lines.len() {
            let mut t: Vec<&str> = lines.clone();
            t.remove(skip);
            texts.push(t.join("\n"));
        }
    }
    for text in &texts {
        let doc = Document::new(text.clone(), 1);
        let lines = text.split('\n').count() as u32;
        for d in doc.diagnostics(&uri) {
            assert!(d.range.start <= d.range.end && d.range.end.line < lines.max(1));
        }
        doc.symbols();
        let _ = doc.formatting();
        for line in (0..lines).step_by(3) {
            for character in [0, 3, 9, 20] {
                let p = Position::new(line, character);
                doc.hover(p);
                doc.definition(&uri, p);
                doc.references(&uri, p, true);
                doc.completion(p);
                let _ = doc.prepare_rename(p);
                let _ = doc.rename(&uri, p, "renamed");
            }
        }
    }
}
