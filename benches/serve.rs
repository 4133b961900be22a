//! `cargo bench --bench serve`: `skilltui serve` over a generated store of
//! 10,000 skills. Times, inside one running server: its start, to the
//! answer to `initialize` (the store's listing and the first skills read
//! whole, for the instructions); the first `skills/list` page; the first
//! whole listing (every page, each skill read, digested and audited on
//! first need) and then the median of more (read before); a
//! `resources/read` of one SKILL.md. Side by side with the same work done
//! another way: `skilltui list --json` (a whole process that reads the
//! same store) and `cat` of the same SKILL.md. Prints figures; asserts
//! nothing, since shared machines are noisy.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;
use common::generate_n;

const SKILLS: usize = 10_000;
const LIST_RUNS: usize = 9;
const READ_RUNS: usize = 101;
const PROCESS_RUNS: usize = 5;

struct Client {
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    id: u64,
}

impl Client {
    /// The answer's `result` and the size of its line.
    fn ask(&mut self, method: &str, params: Value) -> (Value, usize) {
        self.id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params});
        writeln!(self.stdin, "{msg}").expect("write");
        self.stdin.flush().expect("flush");
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).expect("read") == 0 {
                panic!("the server ended");
            }
            let v: Value = serde_json::from_str(&line).expect("json");
            if v["id"] == json!(self.id) {
                return (v["result"].clone(), line.len());
            }
        }
    }
}

fn main() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().join("home");
    let bytes = generate_n(&home, SKILLS);
    println!(
        "store: {SKILLS} skills, {:.1} MiB",
        bytes as f64 / 1048576.0
    );
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_skilltui"));
    let started = Instant::now();
    let mut child = Command::new(&bin)
        .arg("--home")
        .arg(&home)
        .arg("serve")
        .env("HOME", tmp.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let mut client = Client {
        stdin: child.stdin.take().expect("stdin"),
        stdout: BufReader::new(child.stdout.take().expect("stdout")),
        id: 0,
    };
    client.ask(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "bench", "version": "1"}}),
    );
    println!(
        "serve: start to the answer to initialize      {:8.1} ms",
        ms(started.elapsed())
    );
    writeln!(
        client.stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .expect("write");

    let t = Instant::now();
    let (page, _) = client.ask("skills/list", json!({}));
    println!(
        "serve: first skills/list page ({} skills)       {:8.1} ms",
        page["skills"].as_array().map_or(0, Vec::len),
        ms(t.elapsed())
    );
    let t = Instant::now();
    let first = list_all(&mut client);
    println!(
        "serve: skills/list, every page, first time ({} skills, {} pages, {:.1} MiB)  {:8.1} ms",
        first.0,
        first.1,
        first.2 as f64 / 1048576.0,
        ms(t.elapsed())
    );
    let list = median(LIST_RUNS, || {
        list_all(&mut client);
    });
    println!(
        "serve: skills/list, every page, again (median) {:8.1} ms",
        ms(list)
    );
    let uri = "skill://skill-0027/SKILL.md";
    let read = median(READ_RUNS, || {
        client.ask("resources/read", json!({"uri": uri}));
    });
    println!("serve: resources/read of {uri}  {:8.3} ms", ms(read));
    drop(client);
    let _ = child.wait();

    let list_json = median(PROCESS_RUNS, || {
        let st = Command::new(&bin)
            .arg("--home")
            .arg(&home)
            .args(["list", "--json"])
            .env("HOME", tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("list --json");
        assert!(st.success());
    });
    println!(
        "skilltui list --json (whole process)          {:8.1} ms",
        ms(list_json)
    );
    let file = home.join("skills/skill-0027/SKILL.md");
    let cat = median(READ_RUNS, || {
        let st = Command::new("cat")
            .arg(&file)
            .stdout(Stdio::null())
            .status()
            .expect("cat");
        assert!(st.success());
    });
    println!(
        "cat of the same SKILL.md (whole process)      {:8.3} ms",
        ms(cat)
    );
}

/// Every page of `skills/list`: (skills, pages, bytes of the answers).
fn list_all(client: &mut Client) -> (usize, usize, usize) {
    let (mut cursor, mut skills, mut pages, mut size) = (None::<String>, 0, 0, 0);
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let (page, len) = client.ask("skills/list", params);
        skills += page["skills"].as_array().map_or(0, Vec::len);
        pages += 1;
        size += len;
        match page["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return (skills, pages, size),
        }
    }
}

fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
