//! A small HTTP/1.1 server on `std::net` with `httparse` (hyper's request
//! parser) reading the request head. Everything about it is bounded: a fixed
//! pool of worker threads, a short queue of accepted connections (a full
//! queue is answered `503` at once), the request head ([`MAX_HEAD`] bytes),
//! the body ([`MAX_BODY`] bytes, `Content-Length` only), and read and write
//! timeouts. One request per connection (`Connection: close`): the page is
//! local and makes a few requests a second at most.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{sync_channel, Receiver, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest request head (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// The longest request body (a game record is a few KiB).
pub const MAX_BODY: usize = 256 * 1024;
/// Most headers in a request.
const MAX_HEADERS: usize = 48;
/// How long a client may take to send its whole request, or to take the answer.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// How long to read what a client still sends after the answer.
const DRAIN: Duration = Duration::from_millis(500);
/// Connections accepted but not yet handled.
const QUEUE: usize = 64;

/// One request, read whole.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The path without the query, e.g. `/api/games/3`.
    pub path: String,
    /// The query string's pairs (no percent-decoding: the API's values are
    /// plain numbers and words).
    pub query: HashMap<String, String>,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value, by its lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

/// One response.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// Extra headers, e.g. `Content-Disposition`.
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            body: body.into(),
            headers: Vec::new(),
        }
    }

    /// A JSON answer.
    pub fn json(status: u16, value: &serde_json::Value) -> Response {
        Response::new(status, "application/json", value.to_string())
    }

    /// A JSON error: `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> Response {
        Response::json(status, &serde_json::json!({ "error": message.into() }))
    }

    pub fn with_header(mut self, name: &'static str, value: String) -> Response {
        self.headers.push((name, value));
        self
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Why a request could not be read; each becomes an error response.
#[derive(Debug)]
struct Refused(u16, &'static str);

/// Reads one request from `stream`, within the limits.
fn read_request(stream: &mut TcpStream) -> Result<Request, Refused> {
    // One deadline for the whole request: a client trickling bytes must not
    // hold a worker for longer.
    let deadline = Instant::now() + IO_TIMEOUT;
    let late = Refused(408, "the request was not sent in time");
    let wait = |stream: &TcpStream| -> Result<(), Refused> {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Refused(408, "the request was not sent in time"));
        }
        let _ = stream.set_read_timeout(Some(left));
        Ok(())
    };
    let mut buf = vec![0u8; MAX_HEAD];
    let mut filled = 0;
    let (head_len, mut request) = loop {
        wait(stream)?;
        let n = stream
            .read(&mut buf[filled..])
            .map_err(|_| Refused(408, "the request was not sent in time"))?;
        if n == 0 {
            return Err(Refused(400, "the connection closed inside the request"));
        }
        filled += n;
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..filled]) {
            Ok(httparse::Status::Complete(len)) => {
                let target = req.path.unwrap_or("/");
                let (path, query) = target.split_once('?').unwrap_or((target, ""));
                let request = Request {
                    method: req.method.unwrap_or("").to_string(),
                    path: path.to_string(),
                    query: query
                        .split('&')
                        .filter(|p| !p.is_empty())
                        .map(|p| {
                            let (k, v) = p.split_once('=').unwrap_or((p, ""));
                            (k.to_string(), v.to_string())
                        })
                        .collect(),
                    headers: req
                        .headers
                        .iter()
                        .map(|h| {
                            (
                                h.name.to_ascii_lowercase(),
                                String::from_utf8_lossy(h.value).into_owned(),
                            )
                        })
                        .collect(),
                    body: Vec::new(),
                };
                break (len, request);
            }
            Ok(httparse::Status::Partial) if filled == buf.len() => {
                return Err(Refused(431, "the request head is too large"))
            }
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => {
                return Err(Refused(431, "too many request headers"))
            }
            Err(_) => return Err(Refused(400, "malformed request")),
        }
    };
    if request.header("transfer-encoding").is_some() {
        return Err(Refused(501, "chunked request bodies are not accepted"));
    }
    let length = match request.header("content-length") {
        None => 0,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .map_err(|_| Refused(400, "bad Content-Length"))?,
    };
    if length > MAX_BODY {
        return Err(Refused(413, "the request body is too large"));
    }
    let mut body = buf[head_len..filled].to_vec();
    if body.len() > length {
        body.truncate(length);
    }
    let mut chunk = [0u8; 16 * 1024];
    while body.len() < length {
        wait(stream)?;
        let want = (length - body.len()).min(chunk.len());
        match stream.read(&mut chunk[..want]) {
            Ok(0) | Err(_) => return Err(late),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
        }
    }
    request.body = body;
    Ok(request)
}

/// Writes the answer and closes; with `drain`, first reads (briefly) what
/// the client may still be sending, so the close is not a reset that could
/// swallow the answer.
fn write_response(stream: &mut TcpStream, r: &Response, drain: bool) {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    for (k, v) in &r.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.write_all(&r.body))
        .and_then(|_| stream.flush());
    let _ = stream.shutdown(std::net::Shutdown::Write);
    if !drain {
        return;
    }
    let until = Instant::now() + DRAIN;
    let mut sink = [0u8; 16 * 1024];
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            return;
        }
        if !matches!(stream.read(&mut sink), Ok(n) if n > 0) {
            return;
        }
    }
}

/// What answers the requests.
pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// Serves `listener` with `workers` threads calling `handler`; never returns
/// unless accepting fails.
pub fn serve(listener: TcpListener, workers: usize, handler: Arc<Handler>) -> std::io::Result<()> {
    let (tx, rx) = sync_channel::<TcpStream>(QUEUE);
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..workers.max(1) {
        let rx = Arc::clone(&rx);
        let handler = Arc::clone(&handler);
        thread::Builder::new()
            .name(format!("http-{i}"))
            .spawn(move || worker(&rx, &*handler))?;
    }
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
        match tx.try_send(stream) {
            Ok(()) => {}
            Err(TrySendError::Full(mut s)) | Err(TrySendError::Disconnected(mut s)) => {
                write_response(&mut s, &Response::error(503, "the server is busy"), false);
            }
        }
    }
    Ok(())
}

fn worker(rx: &Mutex<Receiver<TcpStream>>, handler: &Handler) {
    loop {
        let stream = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(mut stream) = stream else { return };
        let response = match read_request(&mut stream) {
            Ok(request) => {
                // A panic in a handler must not take the worker with it.
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&request)))
                    .unwrap_or_else(|_| Response::error(500, "internal error"))
            }
            Err(Refused(status, why)) => Response::error(status, why),
        };
        write_response(&mut stream, &response, true);
    }
}

/// The address a listener is bound to, as the page's URL.
pub fn url_of(addr: SocketAddr) -> String {
    format!("http://{addr}/")
}
