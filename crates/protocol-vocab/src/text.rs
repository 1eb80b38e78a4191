//! Client-supplied text in the engine's lines: a token quoted in an error
//! message, and free text echoed back made safe to write on one line.

/// Makes client-supplied text safe to echo on one line: control characters
/// are written as escapes, and the whole is cut to a sane length.
pub fn sanitise(text: &str) -> String {
    const MAX: usize = 1000;
    let mut s = String::with_capacity(text.len().min(MAX));
    for (i, c) in text.chars().enumerate() {
        if i == MAX {
            s.push_str("...");
            break;
        }
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// `"text"`, shortened to 40 characters and with quotes, backslashes and
/// control characters escaped, for quoting a token in a message.
pub fn quote(text: &str) -> String {
    const MAX: usize = 40;
    let mut q: String = text.chars().take(MAX).collect();
    if text.chars().nth(MAX).is_some() {
        q.push_str("...");
    }
    format!("{q:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitise_escapes_control_characters() {
        assert_eq!(sanitise("a\rb\u{1}c"), "a\\rb\\u{1}c");
        assert!(sanitise(&"z".repeat(5000)).len() < 1100);
    }

    #[test]
    fn long_tokens_are_quoted_shortened() {
        assert_eq!(quote("abc"), "\"abc\"");
        assert_eq!(quote("a\"\r"), "\"a\\\"\\r\"");
        let q = quote(&"x".repeat(100));
        assert_eq!(q.len(), 40 + 2 + 3);
    }
}
