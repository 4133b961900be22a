//! A small HTTP/1.1 server on 127.0.0.1 for the tests: each path answers
//! as its `Reply` says (a body, a status, a slow drip, an endless stream).
//! It stops by itself: on drop, and in any case after a bounded number of
//! connections or `LIFETIME`, so a failing test never leaves it running.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub enum Reply {
    Ok(Vec<u8>),
    Status(u16),
    /// A byte every `every`, `bytes` of them in all (a slow-drip body).
    Slow {
        every: Duration,
        bytes: usize,
    },
    /// Bytes for as long as the client reads (bounded by `LIFETIME`).
    Endless,
    /// `302 Found` to this `Location`.
    Redirect(String),
    /// The request is read, then nothing is ever answered (until the
    /// server stops).
    Silent,
}

const MAX_CONNECTIONS: usize = 200;
const LIFETIME: Duration = Duration::from_secs(120);

pub struct Server {
    pub base: String,
    routes: Arc<Mutex<HashMap<String, Reply>>>,
    /// Each request's head (request line and headers), as it came.
    heads: Arc<Mutex<Vec<String>>>,
    /// Connections accepted, a request sent on them or not.
    accepted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    pub fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let routes: Arc<Mutex<HashMap<String, Reply>>> = Arc::default();
        let heads: Arc<Mutex<Vec<String>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let accepted = Arc::new(AtomicUsize::new(0));
        let thread = std::thread::spawn({
            let (routes, heads, stop) = (routes.clone(), heads.clone(), stop.clone());
            let accepted = accepted.clone();
            move || serve(listener, routes, heads, accepted, stop)
        });
        Server {
            base,
            routes,
            heads,
            accepted,
            stop,
            thread: Some(thread),
        }
    }

    pub fn route(&self, path: &str, reply: Reply) {
        self.routes.lock().unwrap().insert(path.to_string(), reply);
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The heads of the requests received so far.
    pub fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }

    /// The connections accepted so far, whether or not a request came.
    pub fn connections(&self) -> usize {
        self.accepted.load(Ordering::SeqCst)
    }

    /// [`Server::connections`] once it reaches `n`, or after 10 s: the
    /// kernel completes a connection before the accept loop counts it, so a
    /// client may be done before the count moves.
    pub fn connections_reaching(&self, n: usize) -> usize {
        let end = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while self.connections() < n && std::time::Instant::now() < end {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        self.connections()
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.base.rsplit(':').next().unwrap().parse().unwrap()
    }

    /// The targets (path and query) of the requests received so far.
    pub fn requested(&self) -> Vec<String> {
        self.heads()
            .iter()
            .map(|h| h.split_whitespace().nth(1).unwrap_or("").to_string())
            .collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

type Routes = Arc<Mutex<HashMap<String, Reply>>>;

fn serve(
    listener: TcpListener,
    routes: Routes,
    heads: Arc<Mutex<Vec<String>>>,
    accepted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
) {
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..MAX_CONNECTIONS {
        let stream = loop {
            if stop.load(Ordering::SeqCst) || started.elapsed() > LIFETIME {
                return finish(workers);
            }
            match listener.accept() {
                Ok((s, _)) => {
                    accepted.fetch_add(1, Ordering::SeqCst);
                    break s;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        };
        let (routes, heads, stop) = (routes.clone(), heads.clone(), stop.clone());
        workers.push(std::thread::spawn(move || {
            let _ = answer(stream, &routes, &heads, &stop, started);
        }));
    }
    finish(workers)
}

fn finish(workers: Vec<JoinHandle<()>>) {
    for w in workers {
        let _ = w.join();
    }
}

fn answer(
    stream: TcpStream,
    routes: &Mutex<HashMap<String, Reply>>,
    heads: &Mutex<Vec<String>>,
    stop: &AtomicBool,
    started: Instant,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut first = String::new();
    reader.read_line(&mut first)?;
    let mut head = first.clone();
    // The headers, up to the blank line (bounded).
    for _ in 0..100 {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    heads.lock().unwrap().push(head);
    let target = first.split_whitespace().nth(1).unwrap_or("/").to_string();
    let path = target.split('?').next().unwrap_or("/").to_string();
    let reply = {
        let routes = routes.lock().unwrap();
        routes.get(&target).or_else(|| routes.get(&path)).cloned()
    };
    let mut out = stream;
    let alive = || !stop.load(Ordering::SeqCst) && started.elapsed() < LIFETIME;
    match reply.unwrap_or(Reply::Status(404)) {
        Reply::Ok(body) => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            out.write_all(&body)?;
        }
        Reply::Status(code) => {
            write!(
                out,
                "HTTP/1.1 {code} Nope\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )?;
        }
        Reply::Slow { every, bytes } => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Length: {bytes}\r\nConnection: close\r\n\r\n"
            )?;
            for _ in 0..bytes {
                if !alive() {
                    break;
                }
                std::thread::sleep(every);
                out.write_all(b"{")?;
                out.flush()?;
            }
        }
        Reply::Redirect(to) => {
            write!(
                out,
                "HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )?;
        }
        Reply::Silent => {
            while alive() {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        Reply::Endless => {
            write!(out, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")?;
            let chunk = vec![b'x'; 64 * 1024];
            while alive() {
                out.write_all(&chunk)?;
            }
        }
    }
    out.flush()
}
