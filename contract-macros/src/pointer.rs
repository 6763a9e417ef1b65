//! RFC 6901 JSON Pointers: every pointer the derive writes (into schemas,
//! messages and generated code) is built here, escaped; `edit(..)` policies'
//! pointers are parsed here.

/// Escapes one pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`.
fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The pointer to a path of (unescaped) keys: `["a/b", "c"]` → `/a~1b/c`.
pub fn join<S: AsRef<str>>(segments: &[S]) -> String {
    segments
        .iter()
        .map(|s| format!("/{}", escape_segment(s.as_ref())))
        .collect()
}

/// The pointer to one member of the document's root object.
pub fn member(json_name: &str) -> String {
    join(&[json_name])
}

/// Splits an RFC 6901 pointer into unescaped segments, or says what is wrong.
pub fn parse(pointer: &str) -> Result<Vec<String>, String> {
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
    use super::{join, member, parse};

    #[test]
    fn segments_are_unescaped() {
        assert_eq!(
            parse("/a~1b/c~0d/"),
            Ok(vec!["a/b".to_owned(), "c~d".to_owned(), String::new()])
        );
    }

    #[test]
    fn built_pointers_are_escaped() {
        assert_eq!(member("a/b~"), "/a~1b~0");
        assert_eq!(join(&["a/b", "~", ""]), "/a~1b/~0/");
        assert_eq!(
            parse(&join(&["x/~y", "z"])),
            Ok(vec!["x/~y".to_owned(), "z".to_owned()])
        );
    }

    #[test]
    fn malformed_pointers_say_why() {
        assert!(parse("").is_err());
        assert!(parse("theme").is_err());
        assert!(parse("/the~2me").is_err());
        assert!(parse("/theme~").is_err());
    }
}
