mod choice;
mod cli;

fn main() {
    // Parsing, checking and evaluation recurse over nested rules; a large stack makes the
    // limits of the syntax stage (file size, nesting) the only ones a user can meet.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(cli::main);
    let code = match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("error: internal failure; please report it with the game file");
            101
        }
    };
    std::process::exit(code);
}
