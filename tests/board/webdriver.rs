//! A small WebDriver client over raw HTTP (the W3C protocol is JSON over
//! HTTP; chromedriver speaks it on a local port): start chromedriver and a
//! headless Chromium with a fresh profile, find elements by CSS, click,
//! read text, run a script, take a screenshot. Everything ends on drop.

use crate::http;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian's `chromium` and `chromium-driver` put them; the environment
/// variables `CHROMIUM` and `CHROMEDRIVER` name others.
fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

fn chromedriver() -> String {
    std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into())
}
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A browser session.
pub struct Browser {
    driver: Child,
    addr: String,
    session: String,
    profile: PathBuf,
}

/// Fails (never skips) when the browser is missing, saying how to install it.
pub fn require_browser() {
    for (path, what) in [(chromium(), "chromium"), (chromedriver(), "chromedriver")] {
        assert!(
            Path::new(&path).exists(),
            "{what} is missing ({path} does not exist): the browser test needs headless \
             Chromium and its driver. Install them with:\n\n    \
             sudo apt-get install -y chromium chromium-driver\n"
        );
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Browser {
    /// Starts chromedriver and a headless Chromium of `width` x `height`.
    pub fn start(width: u32, height: u32) -> Browser {
        require_browser();
        let port = free_port();
        let profile = std::env::temp_dir().join(format!(
            "grasshopper-board-test-{}-{port}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).unwrap();
        let driver = Command::new(chromedriver())
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = format!("127.0.0.1:{port}");
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
            profile,
        };
        let ready = Instant::now() + Duration::from_secs(20);
        loop {
            let up = std::net::TcpStream::connect(&browser.addr).is_ok()
                && http::get(&browser.addr, "/status").json()["value"]["ready"] == json!(true);
            if up {
                break;
            }
            assert!(Instant::now() < ready, "chromedriver did not come up");
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([
            format!("--user-data-dir={}", browser.profile.display()),
            format!("--window-size={width},{height}"),
        ])
        .collect::<Vec<_>>();
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium(), "args": args },
        }}});
        let r = http::post(&browser.addr, "/session", &caps);
        let v = r.json();
        browser.session = v["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {}", r.body))
            .to_string();
        browser
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, Value> {
        let path = format!("/session/{}{path}", self.session);
        let r = match body {
            Some(b) => http::post(&self.addr, &path, &b),
            None => http::request(&self.addr, method, &path, None),
        };
        let v = r.json();
        if r.status == 200 {
            Ok(v["value"].clone())
        } else {
            Err(v["value"].clone())
        }
    }

    fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, path, body)
            .unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"))
    }

    pub fn goto(&self, url: &str) {
        self.ok("POST", "/url", Some(json!({ "url": url })));
    }

    /// The elements matching a CSS selector.
    pub fn find_all(&self, css: &str) -> Vec<String> {
        let v = self.ok(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        );
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn find(&self, css: &str) -> Option<String> {
        self.find_all(css).into_iter().next()
    }

    /// Clicks the first element matching `css`; found again if the page
    /// drew it anew between finding and clicking (a stale element).
    pub fn click_css(&self, css: &str) {
        for _ in 0..3 {
            let e = self
                .find(css)
                .unwrap_or_else(|| panic!("nothing matches {css}"));
            match self.call("POST", &format!("/element/{e}/click"), Some(json!({}))) {
                Ok(_) => return,
                Err(v) if v["error"] == json!("stale element reference") => continue,
                Err(v) => panic!("WebDriver click on {css}: {v}"),
            }
        }
        panic!("{css} kept being drawn anew");
    }

    pub fn text(&self, css: &str) -> String {
        match self.find(css) {
            Some(e) => self
                .ok("GET", &format!("/element/{e}/text"), None)
                .as_str()
                .unwrap_or("")
                .to_string(),
            None => String::new(),
        }
    }

    /// Types text into an element (WebDriver key codes: "\u{E007}" is Enter).
    pub fn type_into(&self, css: &str, text: &str) {
        let e = self
            .find(css)
            .unwrap_or_else(|| panic!("nothing matches {css}"));
        self.ok(
            "POST",
            &format!("/element/{e}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Presses keys with the focus where it is.
    pub fn keys(&self, text: &str) {
        let actions: Vec<Value> = text
            .chars()
            .flat_map(|c| {
                [
                    json!({ "type": "keyDown", "value": c.to_string() }),
                    json!({ "type": "keyUp", "value": c.to_string() }),
                ]
            })
            .collect();
        self.ok(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        );
    }

    /// Drags with the mouse from the middle of one element to another's.
    pub fn drag(&self, from_css: &str, to_css: &str) {
        let from = self
            .find(from_css)
            .unwrap_or_else(|| panic!("nothing matches {from_css}"));
        let to = self
            .find(to_css)
            .unwrap_or_else(|| panic!("nothing matches {to_css}"));
        let origin = |e: &str| json!({ ELEMENT: e });
        let steps = json!([
            { "type": "pointerMove", "origin": origin(&from), "x": 0, "y": 0 },
            { "type": "pointerDown", "button": 0 },
            { "type": "pointerMove", "origin": origin(&from), "x": 8, "y": 8, "duration": 50 },
            { "type": "pointerMove", "origin": origin(&to), "x": 0, "y": 0, "duration": 100 },
            { "type": "pointerUp", "button": 0 },
        ]);
        self.ok(
            "POST",
            "/actions",
            Some(json!({ "actions": [{
                "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
                "actions": steps,
            }] })),
        );
    }

    /// Runs a script (the body of a function) and returns its value.
    pub fn script(&self, body: &str, args: Value) -> Value {
        self.ok(
            "POST",
            "/execute/sync",
            Some(json!({ "script": body, "args": args })),
        )
    }

    /// Waits until `f` gives a value, or fails after `timeout` naming `what`.
    pub fn wait<T>(&self, what: &str, timeout: Duration, mut f: impl FnMut() -> Option<T>) -> T {
        let until = Instant::now() + timeout;
        loop {
            if let Some(v) = f() {
                return v;
            }
            assert!(Instant::now() < until, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// A cookie of the page's site, with its flags (`httpOnly`, `sameSite`).
    pub fn cookie(&self, name: &str) -> Value {
        self.ok("GET", &format!("/cookie/{name}"), None)
    }

    /// Resizes the window (the page's viewport follows).
    pub fn resize(&self, width: u32, height: u32) {
        self.ok(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// Saves a PNG of the viewport.
    pub fn screenshot(&self, path: &Path) {
        let v = self.ok("GET", "/screenshot", None);
        let png = base64_decode(v.as_str().expect("base64 text"));
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.call("DELETE", "", None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
