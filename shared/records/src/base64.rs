//! Base64 (RFC 4648): the standard alphabet for the `data:` URLs and CSP hashes of
//! report.html, and both alphabets for the forms of a token a server could echo.

/// Which RFC 4648 alphabet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alphabet {
    /// Section 4: `+` and `/`.
    Standard,
    /// Section 5, URL- and filename-safe: `-` and `_`.
    Url,
}

/// `bytes` in base64 with `alphabet`, padded with `=`.
pub fn encode(bytes: &[u8], alphabet: Alphabet) -> String {
    let symbols: &[u8; 64] = match alphabet {
        Alphabet::Standard => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        Alphabet::Url => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    };
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(symbols[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rfc_4648_test_vectors() {
        for (plain, b64) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes(), Alphabet::Standard), b64);
        }
    }

    #[test]
    fn the_url_alphabet_differs_only_in_its_last_two_symbols() {
        assert_eq!(encode(b"q?>~", Alphabet::Standard), "cT8+fg==");
        assert_eq!(encode(b"q?>~", Alphabet::Url), "cT8-fg==");
        assert_eq!(
            encode(b"\x89PNG\r\n\x1a\n", Alphabet::Standard),
            "iVBORw0KGgo="
        );
    }
}
