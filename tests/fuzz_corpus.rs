//! Replays the fuzzers' corpus (fuzz/corpus) with the same checks as the fuzz targets, so
//! that every input they ever found stays fixed on the stable toolchain, without fuzzing.

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/fuzz/corpus/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Runs `f` on a thread with the stack the `regula` binary gives its commands: the inputs
/// nest as deep as the syntax limits allow, and a debug build's frames are large.
fn on_large_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(f)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn compile_corpus_never_panics() {
    on_large_stack(|| {
        let inputs = corpus("compile");
        assert!(inputs.len() >= 40);
        for (name, data) in inputs {
            let result = std::panic::catch_unwind(|| regula::selfcheck::compile_anything(&data));
            assert!(result.is_ok(), "fuzz/corpus/compile/{name} panics");
        }
    })
}

#[test]
fn compile_corpus_formats_and_is_answered_in_an_editor() {
    on_large_stack(|| {
        for (name, data) in corpus("compile") {
            let result = std::panic::catch_unwind(|| regula::selfcheck::edit_anything(&data));
            assert!(
                result.is_ok(),
                "fuzz/corpus/compile/{name} fails in the editor tools"
            );
        }
    })
}

#[test]
fn play_corpus_replays_consistently() {
    let engines: Vec<regula::engine::Engine> = ["tablut", "shakti", "shaversi", "shakhmaty"]
        .iter()
        .map(|g| {
            let path = format!("{}/games/{g}.game", env!("CARGO_MANIFEST_DIR"));
            regula::load_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        })
        .collect();
    let inputs = corpus("play");
    assert!(inputs.len() >= 12);
    for (name, data) in inputs {
        let Some((&which, moves)) = data.split_first() else {
            continue;
        };
        let engine = &engines[which as usize % engines.len()];
        let result = std::panic::catch_unwind(|| regula::selfcheck::play_anything(engine, moves));
        assert!(result.is_ok(), "fuzz/corpus/play/{name} fails");
    }
}
