//! A benchmark anchor, not an example to copy: the least a native program does to ask one
//! numbered question (print it, read a line, print the answer). `cargo bench` runs it beside
//! `interview ask --numbered` in the same pseudo-terminal to price the sandbox.

use std::io::{BufRead, Write};

fn main() {
    let options = ["dev", "staging", "prod"];
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "Which environment?");
    for (i, option) in options.iter().enumerate() {
        let _ = writeln!(out, "  {}. {option}", i + 1);
    }
    let _ = write!(out, "> ");
    let _ = out.flush();
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    let picked = line
        .trim()
        .parse::<usize>()
        .ok()
        .and_then(|n| options.get(n.wrapping_sub(1)));
    let _ = writeln!(out, "{{\"answer\":{:?}}}", picked.unwrap_or(&""));
}
