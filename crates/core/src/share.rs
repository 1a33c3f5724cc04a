//! Share links: a student's code, compressed into the URL fragment.
//!
//! A link is `?puzzle=<slug>#code=<payload>`, where the payload is the code
//! compressed with DEFLATE (RFC 1951) and written in unpadded base64url
//! (RFC 4648 §5). The fragment never reaches a server.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// Longest payload accepted, in characters: about 16 KB, well inside what
/// browsers and chat tools keep of a URL.
pub const MAX_PAYLOAD_CHARS: usize = 16 * 1024;
/// Largest decompressed code accepted, in bytes.
pub const MAX_CODE_BYTES: usize = 256 * 1024;

/// Why a share link could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The payload is longer than [`MAX_PAYLOAD_CHARS`].
    TooLong(usize),
    /// Not base64url, not DEFLATE, too large once inflated, or not UTF-8.
    Damaged(&'static str),
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShareError::TooLong(n) => write!(f, "the link carries {n} characters of code, more than the {MAX_PAYLOAD_CHARS} a share link may hold"),
            ShareError::Damaged(why) => write!(f, "the link is damaged ({why}); it may have been cut off when it was copied"),
        }
    }
}

/// The payload for `code`.
pub fn encode(code: &str) -> String {
    payload(&miniz_oxide::deflate::compress_to_vec(code.as_bytes(), 9))
}

/// The payload for code already compressed with raw DEFLATE (RFC 1951) by
/// any encoder: the site uses the browser's `CompressionStream("deflate-raw")`,
/// so the page carries no compressor. [`decode`] reads either.
pub fn payload(deflated: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(deflated)
}

/// The code in `payload`.
///
/// # Errors
/// [`ShareError`] saying what is wrong with the link.
pub fn decode(payload: &str) -> Result<String, ShareError> {
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(ShareError::TooLong(payload.len()));
    }
    let bytes =
        URL_SAFE_NO_PAD.decode(payload.trim()).map_err(|_| ShareError::Damaged("not base64url"))?;
    let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_CODE_BYTES)
        .map_err(|_| ShareError::Damaged("the compressed code does not inflate"))?;
    String::from_utf8(raw).map_err(|_| ShareError::Damaged("the code is not UTF-8 text"))
}

/// The `code=` payload of a URL fragment such as `"#code=…"`, if any.
pub fn payload_from_fragment(fragment: &str) -> Option<&str> {
    fragment.trim_start_matches('#').split('&').find_map(|kv| kv.strip_prefix("code="))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_unicode_and_templates() {
        let code = "// é ✓\n@compute @workgroup_size({{workgroupSize}})\nfn main() {}\n".repeat(20);
        let payload = encode(&code);
        assert!(payload.len() < code.len(), "compressed: {} < {}", payload.len(), code.len());
        assert!(payload.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(decode(&payload).unwrap(), code);
    }

    #[test]
    fn damaged_and_long_links_are_errors() {
        assert!(matches!(decode("not*base64"), Err(ShareError::Damaged(_))));
        let cut = &encode(&"abc".repeat(500))[..10];
        assert!(matches!(decode(cut), Err(ShareError::Damaged(_))));
        assert!(matches!(decode(&"A".repeat(MAX_PAYLOAD_CHARS + 1)), Err(ShareError::TooLong(_))));
    }

    #[test]
    fn fragment_parsing() {
        assert_eq!(payload_from_fragment("#code=abc"), Some("abc"));
        assert_eq!(payload_from_fragment("#x=1&code=q"), Some("q"));
        assert_eq!(payload_from_fragment("#other"), None);
    }
}
