//! RFC 6901 JSON Pointers in `edit(..)` policies: the derive checks them and
//! generates `const` assertions from their segments.

/// Escapes one pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`.
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Splits an RFC 6901 pointer into unescaped segments, or says what is wrong.
pub fn pointer_segments(pointer: &str) -> Result<Vec<String>, String> {
    if pointer.is_empty() {
        return Err(
            "the empty pointer names the whole document, and a policy lists the fields it may change: write \"/field\""
                .into(),
        );
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(format!(
            "a JSON Pointer starts with `/`: write \"/{pointer}\""
        ));
    };
    rest.split('/')
        .map(|seg| {
            let mut out = String::new();
            let mut chars = seg.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => return Err("`~` must be followed by `0` (for `~`) or `1` (for `/`) in a JSON Pointer".to_owned()),
                    }
                } else {
                    out.push(c);
                }
            }
            Ok(out)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{escape_segment, pointer_segments};

    #[test]
    fn segments_are_unescaped() {
        assert_eq!(
            pointer_segments("/a~1b/c~0d/"),
            Ok(vec!["a/b".to_owned(), "c~d".to_owned(), String::new()])
        );
        assert_eq!(escape_segment("a/b~"), "a~1b~0");
    }

    #[test]
    fn malformed_pointers_say_why() {
        assert!(pointer_segments("").is_err());
        assert!(pointer_segments("theme").is_err());
        assert!(pointer_segments("/the~2me").is_err());
        assert!(pointer_segments("/theme~").is_err());
    }
}
