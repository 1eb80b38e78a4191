//! Who may ask what: the owner cookie that tells browsers apart (each game
//! answers only the browser that created it) and the Host names the server
//! answers to (so a rebound DNS name of another site never reaches it).

use crate::http::Request;
use crate::session::ApiError;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The cookie's name.
pub const COOKIE: &str = "grasshopper_owner";

/// A browser, by the random id in its owner cookie (128 bits from the
/// operating system, in hex: as hard to guess as a password).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owner(String);

impl Owner {
    /// A fresh owner.
    pub fn new() -> Result<Owner, ApiError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| {
            ApiError::new(
                500,
                format!("the operating system gave no random numbers: {e}"),
            )
        })?;
        Ok(Owner(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The owner a request's cookie names; `None` without a well-formed one.
    pub fn of(r: &Request) -> Option<Owner> {
        r.header("cookie")?
            .split(';')
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == COOKIE)
            .and_then(|(_, value)| Owner::parse(value.trim()))
    }

    /// An owner from its text (as a saved game keeps it): 32 hex digits.
    pub fn parse(text: &str) -> Option<Owner> {
        (text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| Owner(text.to_ascii_lowercase()))
    }

    /// The owner's text, for a saved game.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The `Set-Cookie` value: never readable by scripts, never sent with
    /// a request another site starts; kept for a year, so a saved game's
    /// link still opens it after the browser was closed.
    pub fn cookie(&self) -> String {
        format!(
            "{COOKIE}={}; HttpOnly; SameSite=Strict; Path=/; Max-Age={}",
            self.0,
            365 * 86_400
        )
    }
}

/// The host names the server answers to.
#[derive(Clone, Debug)]
pub struct HostCheck {
    /// Lower case; IPv6 addresses in brackets, as in a Host header.
    allowed: Vec<String>,
}

/// An address as a Host header writes it.
fn host_form(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

impl HostCheck {
    /// Localhost and the loopback addresses, the address the server is
    /// bound to (unless it is 0.0.0.0 or ::), and the names given.
    pub fn new(bound: IpAddr, extra: &[String]) -> HostCheck {
        let mut allowed = vec![
            "localhost".to_string(),
            host_form(IpAddr::V4(Ipv4Addr::LOCALHOST)),
            host_form(IpAddr::V6(Ipv6Addr::LOCALHOST)),
        ];
        if !bound.is_unspecified() {
            allowed.push(host_form(bound));
        }
        for name in extra {
            let name = name.trim().to_ascii_lowercase();
            allowed.push(match name.parse::<IpAddr>() {
                Ok(ip) => host_form(ip),
                Err(_) => name,
            });
        }
        HostCheck { allowed }
    }

    /// Accepts a Host header naming an allowed host (any port, or none).
    pub fn check(&self, host: &str) -> Result<(), ApiError> {
        let name = host_name(host).ok_or_else(|| {
            ApiError::new(
                400,
                format!("bad Host header \"{host}\": expected a name, an optional :port"),
            )
        })?;
        let loopback = name.parse::<Ipv4Addr>().is_ok_and(|ip| ip.is_loopback());
        if loopback || self.allowed.contains(&name) {
            return Ok(());
        }
        Err(ApiError::new(
            403,
            format!(
                "this server answers only to localhost and the names given with --allow-host, \
                 not to \"{name}\""
            ),
        ))
    }
}

/// The host of a Host header value (`name`, `name:port`, `[v6]`,
/// `[v6]:port`) in lower case; `None` when it is none of these.
fn host_name(value: &str) -> Option<String> {
    let value = value.trim().to_ascii_lowercase();
    let (name, rest) = if value.starts_with('[') {
        value.split_at(value.find(']')? + 1)
    } else {
        value.split_at(value.find(':').unwrap_or(value.len()))
    };
    let port_ok = rest.is_empty()
        || rest
            .strip_prefix(':')
            .is_some_and(|p| (1..=5).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()));
    (port_ok && !name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn with_cookie(value: &str) -> Request {
        Request {
            method: "GET".into(),
            path: "/".into(),
            query: HashMap::new(),
            headers: HashMap::from([("cookie".to_string(), value.to_string())]),
            body: Vec::new(),
        }
    }

    #[test]
    fn an_owner_is_random_and_read_back_from_its_cookie() {
        let a = Owner::new().unwrap();
        let b = Owner::new().unwrap();
        assert_ne!(a, b);
        let set = a.cookie();
        assert!(set.contains("; HttpOnly; SameSite=Strict; Path=/"), "{set}");
        let pair = set.split(';').next().unwrap();
        let r = with_cookie(&format!("theme=dark; {pair}; x=1"));
        assert_eq!(Owner::of(&r), Some(a));
        for bad in [
            "grasshopper_owner=short",
            "other=0123456789abcdef0123456789abcdef",
        ] {
            assert_eq!(Owner::of(&with_cookie(bad)), None, "{bad}");
        }
    }

    #[test]
    fn only_local_and_allowed_host_names_pass() {
        // Seen failing before: bound to 0.0.0.0, every Host passed.
        let any = HostCheck::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), &["board.lan".into()]);
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:80",
            "127.1.2.3",
            "[::1]",
            "[::1]:8080",
            "Board.LAN:8080",
        ] {
            assert!(any.check(ok).is_ok(), "{ok}");
        }
        for (bad, status) in [
            ("evil.example", 403),
            ("evil.example:8080", 403),
            ("0.0.0.0:8080", 403),
            ("", 400),
            ("localhost:", 400),
            ("localhost:80:80", 400),
            ("[::1", 400),
            ("[::1]x", 400),
        ] {
            assert_eq!(any.check(bad).map_err(|e| e.status), Err(status), "{bad}");
        }
        let lan = HostCheck::new("192.168.1.5".parse().unwrap(), &[]);
        assert!(lan.check("192.168.1.5:8080").is_ok());
        assert!(lan.check("192.168.1.6:8080").is_err());
    }
}
