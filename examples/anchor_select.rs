//! A benchmark anchor, not an example to copy: inquire's `Select` over `Option 1` ..
//! `Option N` (N the first argument). `cargo bench` runs it beside `interview ask` in the same
//! pseudo-terminal, for the first frame and the bytes each arrow key writes.

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10);
    let options: Vec<String> = (1..=count).map(|i| format!("Option {i}")).collect();
    if let Ok(picked) = inquire::Select::new("Pick one", options).prompt() {
        println!("{picked}");
    }
}
