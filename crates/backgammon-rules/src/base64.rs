//! The base64 packing of GNU Backgammon's IDs: bytes in order, six bits a
//! character, most significant first, no `=` padding.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Why text is not the base64 of a key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Base64Error {
    /// A character outside the alphabet.
    Char(char),
    /// The last character sets bits beyond the key's last byte.
    Padding(char),
}

impl std::fmt::Display for Base64Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Base64Error::Char(c) => {
                write!(f, "'{c}' is not a base64 character (A-Z a-z 0-9 + /)")
            }
            Base64Error::Padding(c) => write!(f, "the last character '{c}' sets unused bits"),
        }
    }
}

fn value(c: u8) -> Option<u32> {
    ALPHABET.iter().position(|&a| a == c).map(|v| v as u32)
}

/// The first `chars` characters of the base64 of `bytes`.
pub(crate) fn encode(bytes: &[u8], chars: usize) -> String {
    let mut out = String::with_capacity(chars);
    for i in 0..chars {
        // Character i holds bits 6i..6i+6 of the big-endian bit stream.
        let bit = 6 * i;
        let hi = bytes.get(bit / 8).copied().unwrap_or(0) as u32;
        let lo = bytes.get(bit / 8 + 1).copied().unwrap_or(0) as u32;
        let v = ((hi << 8 | lo) >> (10 - bit % 8)) & 63;
        out.push(ALPHABET[v as usize] as char);
    }
    out
}

/// The `N` bytes whose base64 is `text` (which has `ceil(8N/6)` characters).
pub(crate) fn decode<const N: usize>(text: &str) -> Result<[u8; N], Base64Error> {
    let mut bytes = [0u8; N];
    let mut acc = 0u32;
    let mut have = 0u32;
    let mut at = 0;
    for c in text.chars() {
        let v = u8::try_from(c)
            .ok()
            .and_then(value)
            .ok_or(Base64Error::Char(c))?;
        acc = (acc << 6 | v) & 0xFFFF;
        have += 6;
        if have >= 8 {
            have -= 8;
            if at < N {
                bytes[at] = (acc >> have) as u8;
                at += 1;
            } else if (acc >> have) & 0xFF != 0 {
                return Err(Base64Error::Padding(c));
            }
        }
        if at == N && acc & ((1 << have) - 1) != 0 {
            return Err(Base64Error::Padding(c));
        }
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_ten_and_nine_bytes() {
        let ten = [0xE0, 0x73, 0xF0, 0x01, 0x30, 0xE0, 0x73, 0xF0, 0x01, 0x30];
        let text = encode(&ten, 14);
        assert_eq!(text, "4HPwATDgc/ABMA");
        assert_eq!(decode::<10>(&text), Ok(ten));
        let nine = [1, 2, 3, 4, 5, 6, 7, 8, 255];
        assert_eq!(decode::<9>(&encode(&nine, 12)), Ok(nine));
    }

    #[test]
    fn refuses_foreign_characters_and_set_padding() {
        assert_eq!(decode::<10>("4HPwATDgc/AB=A"), Err(Base64Error::Char('=')));
        assert_eq!(
            decode::<10>("4HPwATDgc/ABMB"),
            Err(Base64Error::Padding('B'))
        );
    }
}
