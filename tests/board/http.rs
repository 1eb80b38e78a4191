//! A few lines of HTTP/1.1 client on `std::net` for the tests: one request
//! per connection, as the server and chromedriver both allow.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A response: status, headers (names in lower case) and body.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Sends raw bytes and reads the whole answer.
pub fn raw(addr: &str, bytes: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    // The server may answer (and close) before it has read everything.
    let _ = s.write_all(bytes);
    // Read until the body is complete: chromedriver keeps the connection
    // open whatever the request says, so the end is known from the head.
    let mut out = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
        if complete(&out) {
            break;
        }
    }
    parse(&out)
}

/// Whether `bytes` hold a whole response (by Content-Length or the last chunk).
fn complete(bytes: &[u8]) -> bool {
    let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
    let body = &bytes[end + 4..];
    for line in head.split("\r\n") {
        if let Some(v) = line.strip_prefix("content-length:") {
            return v.trim().parse::<usize>().is_ok_and(|n| body.len() >= n);
        }
        if line.starts_with("transfer-encoding:") && line.contains("chunked") {
            return body.ends_with(b"0\r\n\r\n");
        }
    }
    false
}

/// The owner cookie the tests' requests carry, as one browser's would
/// (the server accepts any 32 hex digits it did not hand out itself: the id
/// is the secret).
pub const OWNER: &str = "grasshopper_owner=00000000000000000000000000000001";

/// One request with an optional body and content type, as [`OWNER`].
pub fn request(addr: &str, method: &str, path: &str, body: Option<(&str, &str)>) -> Reply {
    request_as(Some(OWNER), addr, method, path, body)
}

/// One request with the cookie given (`name=value`), or none.
pub fn request_as(
    cookie: Option<&str>,
    addr: &str,
    method: &str,
    path: &str,
    body: Option<(&str, &str)>,
) -> Reply {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        head.push_str(&format!("Cookie: {c}\r\n"));
    }
    let payload = match body {
        Some((content_type, text)) => {
            head.push_str(&format!(
                "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
                text.len()
            ));
            text
        }
        None => "",
    };
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(payload.as_bytes());
    raw(addr, &bytes)
}

pub fn get(addr: &str, path: &str) -> Reply {
    request(addr, "GET", path, None)
}

pub fn post(addr: &str, path: &str, json: &serde_json::Value) -> Reply {
    request(
        addr,
        "POST",
        path,
        Some(("application/json", &json.to_string())),
    )
}

fn parse(bytes: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {text:?}"));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n..];
        rest = rest.strip_prefix("\r\n").unwrap_or(rest);
    }
    out
}
