//! A small HTTP/1.1 server: tokio's non-blocking sockets and timers carry
//! the connections, `httparse` (hyper's request parser) reads the request
//! head, and a handler runs only once its whole request (head and body) has
//! arrived, on a bounded pool of blocking threads. A slow or idle client
//! therefore costs one small task, never a thread: it cannot starve the
//! others. Everything is bounded: connections open at once
//! ([`MAX_CONNECTIONS`]; beyond it a connection is answered `503` and closed),
//! the time to send the head ([`HEAD_TIMEOUT`]) and the whole request
//! ([`REQUEST_TIMEOUT`]), the head ([`MAX_HEAD`] bytes), the body
//! ([`MAX_BODY`] bytes, `Content-Length` only) and the memory all bodies in
//! flight may take ([`BODY_BUDGET`]). One request per connection
//! (`Connection: close`): the page is local and makes a few requests a
//! second at most.

use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{timeout, timeout_at, Instant};

/// The longest request head (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// The longest request body (a game record is a few KiB).
pub const MAX_BODY: usize = 256 * 1024;
/// Most headers in a request.
const MAX_HEADERS: usize = 48;
/// Connections open at once (each is a task and a buffer of at most
/// [`MAX_HEAD`] bytes, so at most 64 MiB of heads).
pub const MAX_CONNECTIONS: usize = 4096;
/// Bytes of request bodies held at once, all connections together.
pub const BODY_BUDGET: usize = 16 * 1024 * 1024;
/// How long a client may take, from connecting, to send its request head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a client may take, from connecting, to send its whole request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a client may take to take the answer.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long, and how much, to read of what a client still sends after the answer.
const DRAIN: Duration = Duration::from_millis(500);
const DRAIN_BYTES: usize = 1024 * 1024;

/// Sent to every page and answer: no framing by another site, no referrer
/// leaving the board, scripts and styles only from the server itself.
const SECURITY_HEADERS: &str = "Content-Security-Policy: default-src 'self'; \
     frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'\r\n\
     X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n\
     X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n";

/// One request, read whole.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The path without the query, e.g. `/api/games/3`.
    pub path: String,
    /// The query string's pairs (no percent-decoding: the API's values are
    /// plain numbers and words).
    pub query: HashMap<String, String>,
    /// Header names in lower case (a repeated header keeps its last value;
    /// `Host` and `Content-Length` may not be repeated).
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

    /// The bytes on the wire: head and body.
    fn encode(&self) -> Vec<u8> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
             {SECURITY_HEADERS}",
            self.status,
            reason(self.status),
            self.content_type,
            self.body.len()
        );
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
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
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Why a request could not be read; each becomes an error response.
#[derive(Debug, PartialEq, Eq)]
struct Refused(u16, &'static str);

const LATE: Refused = Refused(408, "the request was not sent in time");

/// Reads more of the request into `buf`, up to `cap` bytes in all, before
/// `deadline`; the number of bytes read (0: the client closed).
async fn read_some(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    cap: usize,
    deadline: Instant,
) -> Result<usize, Refused> {
    let want = cap.saturating_sub(buf.len());
    // Grow by what arrives, not by the cap: an idle connection keeps a small buffer.
    buf.reserve(want.min(4096));
    let mut limited = (&mut *stream).take(want as u64);
    match timeout_at(deadline, limited.read_buf(buf)).await {
        Err(_) => Err(LATE),
        Ok(Err(_)) => Err(Refused(400, "the connection failed inside the request")),
        Ok(Ok(n)) => Ok(n),
    }
}

/// Parses a complete head: its length and the request without its body;
/// `None` while the head is incomplete.
fn parse_head(buf: &[u8]) -> Result<Option<(usize, Request)>, Refused> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let len = match req.parse(buf) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) if buf.len() >= MAX_HEAD => {
            return Err(Refused(431, "the request head is too large"))
        }
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Refused(431, "too many request headers"))
        }
        Err(_) => return Err(Refused(400, "malformed request")),
    };
    let target = req.path.unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut map = HashMap::new();
    for h in req.headers.iter() {
        let name = h.name.to_ascii_lowercase();
        let value = String::from_utf8_lossy(h.value).into_owned();
        // Two of these would let two readers of the request disagree on
        // where it goes or where it ends (request smuggling).
        if map.insert(name.clone(), value).is_some() {
            match name.as_str() {
                "host" => return Err(Refused(400, "two Host headers")),
                "content-length" => return Err(Refused(400, "two Content-Length headers")),
                _ => {}
            }
        }
    }
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
        headers: map,
        body: Vec::new(),
    };
    Ok(Some((len, request)))
}

/// A `Content-Length` value: decimal digits only (RFC 9110 §8.6; no sign,
/// no spaces inside).
fn content_length(value: Option<&str>) -> Result<usize, Refused> {
    let Some(v) = value else { return Ok(0) };
    let v = v.trim_matches([' ', '\t']);
    if v.is_empty() || v.len() > 12 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Refused(400, "bad Content-Length: expected decimal digits"));
    }
    v.parse()
        .map_err(|_| Refused(400, "bad Content-Length: expected decimal digits"))
}

/// The body's length as the head declares it, within the limits.
fn body_length(request: &Request) -> Result<usize, Refused> {
    if request.header("transfer-encoding").is_some() {
        return Err(Refused(501, "chunked request bodies are not accepted"));
    }
    let length = content_length(request.header("content-length"))?;
    if length > MAX_BODY {
        return Err(Refused(413, "the request body is too large"));
    }
    Ok(length)
}

/// Reads one request from bytes as the server reads it from a connection:
/// `Ok(None)` while the head or the body is incomplete, the refusal's
/// status and reason when the server would answer an error. The server's
/// own reader and the fuzz target share its steps.
pub fn parse_request(bytes: &[u8]) -> Result<Option<Request>, (u16, &'static str)> {
    let refused = |Refused(status, why): Refused| (status, why);
    let Some((head_len, mut request)) = parse_head(bytes).map_err(refused)? else {
        return Ok(None);
    };
    let length = body_length(&request).map_err(refused)?;
    let body = &bytes[head_len..];
    if body.len() < length {
        return Ok(None);
    }
    request.body = body[..length].to_vec();
    Ok(Some(request))
}

/// The body's share of [`BODY_BUDGET`], in KiB permits.
fn body_permits(length: usize) -> u32 {
    length.div_ceil(1024) as u32
}

/// Reads one request from `stream`, within the limits; the body's share of
/// the memory budget comes with it, to hold until the answer is made.
async fn read_request(
    stream: &mut TcpStream,
    connected: Instant,
    bodies: &Arc<Semaphore>,
) -> Result<(Request, Option<OwnedSemaphorePermit>), Refused> {
    let head_deadline = connected + HEAD_TIMEOUT;
    let deadline = connected + REQUEST_TIMEOUT;
    let mut buf = Vec::new();
    let (head_len, mut request) = loop {
        if read_some(stream, &mut buf, MAX_HEAD, head_deadline).await? == 0 {
            return Err(Refused(400, "the connection closed inside the request"));
        }
        if let Some(parsed) = parse_head(&buf)? {
            break parsed;
        }
    };
    let length = body_length(&request)?;
    let permit = if length == 0 {
        None
    } else {
        let take = Arc::clone(bodies).acquire_many_owned(body_permits(length));
        match timeout_at(deadline, take).await {
            Ok(Ok(p)) => Some(p),
            _ => return Err(Refused(503, "the server is busy")),
        }
    };
    let mut body = buf.split_off(head_len);
    body.truncate(length);
    while body.len() < length {
        if read_some(stream, &mut body, length, deadline).await? == 0 {
            return Err(Refused(400, "the connection closed inside the request"));
        }
    }
    request.body = body;
    Ok((request, permit))
}

/// Writes the answer and closes; then reads (briefly) what the client may
/// still be sending, so the close is not a reset that could swallow the answer.
async fn write_response(stream: &mut TcpStream, r: &Response) {
    let bytes = r.encode();
    let sent = timeout(WRITE_TIMEOUT, async {
        stream.write_all(&bytes).await?;
        stream.shutdown().await
    })
    .await;
    if !matches!(sent, Ok(Ok(()))) {
        return;
    }
    let until = Instant::now() + DRAIN;
    let mut sink = vec![0u8; 16 * 1024];
    let mut drained = 0;
    while drained < DRAIN_BYTES {
        match timeout_at(until, stream.read(&mut sink)).await {
            Ok(Ok(n)) if n > 0 => drained += n,
            _ => return,
        }
    }
}

/// What answers the requests.
pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// Runs the handler on the blocking pool; a panic in it is answered 500 and
/// takes nothing else down (the release profile unwinds for this).
async fn call(handler: &Arc<Handler>, request: Request) -> Response {
    let handler = Arc::clone(handler);
    match tokio::task::spawn_blocking(move || handler(&request)).await {
        Ok(response) => response,
        Err(e) => {
            log::error!("a request handler failed: {e}");
            Response::error(500, "internal error")
        }
    }
}

/// One connection: read the request whole, answer it, close.
async fn connection(mut stream: TcpStream, handler: Arc<Handler>, bodies: Arc<Semaphore>) {
    let connected = Instant::now();
    let response = match read_request(&mut stream, connected, &bodies).await {
        Ok((request, _body_permit)) => call(&handler, request).await,
        Err(Refused(status, why)) => Response::error(status, why),
    };
    write_response(&mut stream, &response).await;
}

/// Accepts connections for ever, each on its own task while a connection
/// permit is free.
async fn accept(listener: TcpListener, handler: Arc<Handler>) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let bodies = Arc::new(Semaphore::new(body_permits(BODY_BUDGET) as usize));
    let busy = Response::error(503, "the server is busy").encode();
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, or a connection reset before it
                // was accepted: wait a little instead of spinning.
                log::warn!("accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            // Never blocks: whatever the socket buffer takes, then close.
            let _ = stream.try_write(&busy);
            continue;
        };
        let (handler, bodies) = (Arc::clone(&handler), Arc::clone(&bodies));
        tokio::spawn(async move {
            connection(stream, handler, bodies).await;
            drop(permit);
        });
    }
}

/// Serves `listener` with `workers` threads calling `handler` (and one to
/// four for the sockets); never returns unless the runtime cannot start.
pub fn serve(listener: TcpListener, workers: usize, handler: Arc<Handler>) -> std::io::Result<()> {
    let io_threads = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(io_threads)
        .max_blocking_threads(workers.max(1))
        .thread_name("http")
        .enable_io()
        .enable_time()
        .build()?;
    runtime.block_on(accept(listener, handler))
}

/// Connections the kernel holds for the server before it accepts them.
/// The default of `std` (128) overflows under a burst of connections, and an
/// overflowing queue drops the new connection's SYN: the client retries only
/// a second later, so a normal request would wait a second.
const BACKLOG: i32 = 1024;

/// A listener on `addr` with a deep accept queue ([`BACKLOG`]).
pub fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    // As std does: a restarted server can take its port back at once.
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG)?;
    Ok(socket.into())
}

/// The address a listener is bound to, as the page's URL.
pub fn url_of(addr: SocketAddr) -> String {
    format!("http://{addr}/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// A server on a free port with `workers` handler threads: `/panic`
    /// panics, anything else answers its path.
    fn server(workers: usize) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let handler: Arc<Handler> = Arc::new(|r: &Request| {
            assert_ne!(r.path, "/panic", "a handler that panics");
            Response::new(200, "text/plain", r.path.clone())
        });
        std::thread::spawn(move || serve(listener, workers, handler));
        addr
    }

    /// Sends `bytes` and reads the whole answer.
    fn exchange(addr: &str, bytes: &[u8]) -> String {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(bytes).unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    }

    fn status(answer: &str) -> &str {
        answer.split(' ').nth(1).unwrap_or("")
    }

    #[test]
    fn slow_and_idle_connections_do_not_hold_up_a_whole_request() {
        // Seen failing before the rewrite: with one worker thread, the
        // first slow connection held it and the quick request waited for
        // the slow one's deadline (10 s), past the patience below.
        let addr = server(1);
        let mut slow = Vec::new();
        for _ in 0..4 {
            let mut s = std::net::TcpStream::connect(&addr).unwrap();
            s.write_all(b"GET /slow HTTP/1.1\r\nHo").unwrap();
            slow.push(s);
        }
        let idle: Vec<_> = (0..4)
            .map(|_| std::net::TcpStream::connect(&addr).unwrap())
            .collect();
        let mut quick = std::net::TcpStream::connect(&addr).unwrap();
        quick
            .set_read_timeout(Some(Duration::from_secs(4)))
            .unwrap();
        quick
            .write_all(b"GET /quick HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        quick.read_to_string(&mut answer).unwrap();
        assert!(answer.ends_with("/quick"), "{answer}");
        // The slow ones were still waiting, and finish when they complete.
        for mut s in slow {
            s.write_all(b"st: x\r\n\r\n").unwrap();
            let mut answer = String::new();
            s.read_to_string(&mut answer).unwrap();
            assert!(answer.ends_with("/slow"), "{answer}");
        }
        drop(idle);
    }

    #[test]
    fn a_panicking_handler_is_answered_500_and_the_server_goes_on() {
        let addr = server(1);
        let answer = exchange(&addr, b"GET /panic HTTP/1.1\r\nHost: x\r\n\r\n");
        assert_eq!(status(&answer), "500", "{answer}");
        let answer = exchange(&addr, b"GET /after HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(answer.ends_with("/after"), "{answer}");
    }

    #[test]
    fn bytes_read_as_the_server_reads_them() {
        let whole = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
        let r = parse_request(whole).expect("readable").expect("complete");
        assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", "/api/games"));
        assert_eq!(r.body, b"{}");
        // Incomplete head, incomplete body: wait for more.
        assert!(matches!(parse_request(&whole[..20]), Ok(None)));
        assert!(matches!(parse_request(&whole[..whole.len() - 1]), Ok(None)));
        let chunked = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
        assert_eq!(parse_request(chunked).unwrap_err().0, 501);
        let huge = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY + 1
        );
        assert_eq!(parse_request(huge.as_bytes()).unwrap_err().0, 413);
    }

    #[test]
    fn ambiguous_framing_is_refused() {
        // Seen failing before: both were accepted, the last header winning.
        let addr = server(2);
        for (bytes, why) in [
            (
                &b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 4\r\n\r\n{}{}"[..],
                "two Content-Length headers",
            ),
            (
                b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +2\r\n\r\n{}",
                "bad Content-Length",
            ),
            (
                b"GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n",
                "two Host headers",
            ),
        ] {
            let answer = exchange(&addr, bytes);
            assert_eq!(status(&answer), "400", "{answer}");
            assert!(answer.contains(why), "{answer}");
        }
        let answer = exchange(
            &addr,
            b"POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
        );
        assert!(answer.ends_with("/ok"), "{answer}");
    }

    #[test]
    fn every_answer_forbids_framing_and_referrers() {
        let addr = server(1);
        let answer = exchange(&addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(answer.contains("frame-ancestors 'none'"), "{answer}");
        assert!(answer.contains("X-Frame-Options: DENY"), "{answer}");
        assert!(answer.contains("Referrer-Policy: no-referrer"), "{answer}");
    }

    #[test]
    fn content_length_is_digits_only() {
        assert_eq!(content_length(None), Ok(0));
        assert_eq!(content_length(Some(" 14 ")), Ok(14));
        for bad in ["+14", "-1", "1 4", "", "0x10", "99999999999999999999"] {
            assert!(content_length(Some(bad)).is_err(), "{bad}");
        }
    }
}
