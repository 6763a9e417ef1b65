//! Parsing, escaping, display and resolution.
use std::borrow::Cow;

use serde_json::Value;

use super::*;
use serde_json::json;

fn rfc_document() -> Value {
    json!({
        "foo": ["bar", "baz"],
        "": 0,
        "a/b": 1,
        "c%d": 2,
        "e^f": 3,
        "g|h": 4,
        "i\\j": 5,
        "k\"l": 6,
        " ": 7,
        "m~n": 8
    })
}

// RFC 6901 section 5 (string form) and section 6 (URI fragment form),
// each with the value the RFC says it resolves to.
fn rfc_cases() -> Vec<(&'static str, &'static str, Value)> {
    let doc = rfc_document();
    vec![
        ("", "#", doc),
        ("/foo", "#/foo", json!(["bar", "baz"])),
        ("/foo/0", "#/foo/0", json!("bar")),
        ("/", "#/", json!(0)),
        ("/a~1b", "#/a~1b", json!(1)),
        ("/c%d", "#/c%25d", json!(2)),
        ("/e^f", "#/e%5Ef", json!(3)),
        ("/g|h", "#/g%7Ch", json!(4)),
        ("/i\\j", "#/i%5Cj", json!(5)),
        ("/k\"l", "#/k%22l", json!(6)),
        ("/ ", "#/%20", json!(7)),
        ("/m~0n", "#/m~0n", json!(8)),
    ]
}

#[test]
fn rfc_string_form_pointers_resolve_to_the_rfc_values() {
    let doc = rfc_document();
    let cases = rfc_cases();
    assert_eq!(cases.len(), 12);
    for (pointer, _, expected) in cases {
        let parsed = Pointer::parse(pointer).unwrap();
        assert_eq!(parsed.resolve(&doc), Some(&expected), "{pointer:?}");
    }
}

#[test]
fn rfc_fragment_form_pointers_resolve_to_the_rfc_values() {
    let doc = rfc_document();
    for (_, fragment, expected) in rfc_cases() {
        let parsed = Pointer::parse_fragment(fragment).unwrap();
        assert_eq!(parsed.resolve(&doc), Some(&expected), "{fragment:?}");
    }
}

#[test]
fn rfc_string_and_fragment_forms_parse_to_the_same_pointer() {
    for (pointer, fragment, _) in rfc_cases() {
        assert_eq!(
            Pointer::parse(pointer).unwrap(),
            Pointer::parse_fragment(fragment).unwrap()
        );
    }
}

#[test]
fn display_round_trips_the_rfc_string_form() {
    for (pointer, _, _) in rfc_cases() {
        assert_eq!(Pointer::parse(pointer).unwrap().to_string(), pointer);
    }
}

#[test]
fn empty_string_is_the_root() {
    let root = Pointer::parse("").unwrap();
    assert!(root.is_root());
    assert_eq!(root, Pointer::root());
    assert_eq!(root.to_string(), "");
}

#[test]
fn missing_leading_slash_is_rejected() {
    assert_eq!(
        Pointer::parse("foo"),
        Err(PointerError::MissingLeadingSlash)
    );
    assert_eq!(
        Pointer::parse("#/foo"),
        Err(PointerError::MissingLeadingSlash)
    );
    assert_eq!(
        Pointer::parse_fragment("#foo"),
        Err(PointerError::MissingLeadingSlash)
    );
}

#[test]
fn fragment_without_hash_is_rejected() {
    assert_eq!(
        Pointer::parse_fragment("/foo"),
        Err(PointerError::MissingHash)
    );
    assert_eq!(Pointer::parse_fragment(""), Err(PointerError::MissingHash));
}

#[test]
fn tilde_followed_by_other_than_0_or_1_is_rejected() {
    assert_eq!(
        Pointer::parse("/~2"),
        Err(PointerError::InvalidEscape { offset: 1 })
    );
    assert_eq!(
        Pointer::parse("/ok/a~2"),
        Err(PointerError::InvalidEscape { offset: 5 })
    );
    assert_eq!(
        unescape("~2"),
        Err(PointerError::InvalidEscape { offset: 0 })
    );
}

#[test]
fn tilde_at_the_end_is_rejected() {
    assert_eq!(
        Pointer::parse("/~"),
        Err(PointerError::InvalidEscape { offset: 1 })
    );
    assert_eq!(
        Pointer::parse("/a~"),
        Err(PointerError::InvalidEscape { offset: 2 })
    );
    assert_eq!(
        Pointer::parse("/a~/b"),
        Err(PointerError::InvalidEscape { offset: 2 })
    );
    assert_eq!(
        unescape("~"),
        Err(PointerError::InvalidEscape { offset: 0 })
    );
}

#[test]
fn tilde_0_1_decodes_to_tilde_1_not_slash() {
    assert_eq!(unescape("~01").unwrap(), "~1");
    assert_eq!(Pointer::parse("/~01").unwrap().segments(), ["~1"]);
    assert_eq!(unescape("~10").unwrap(), "/0");
}

#[test]
fn escape_and_unescape_round_trip() {
    for segment in ["", "plain", "~", "/", "~1", "~0", "a/~b", "//~~", "é~/ü"] {
        let escaped = escape(segment);
        assert!(!escaped.contains('/'), "{escaped:?}");
        assert_eq!(unescape(&escaped).unwrap(), segment);
    }
    assert_eq!(escape("a/~b"), "a~1~0b");
}

#[test]
fn escape_and_unescape_borrow_when_nothing_changes() {
    assert!(matches!(escape("abc"), Cow::Borrowed("abc")));
    assert!(matches!(unescape("abc"), Ok(Cow::Borrowed("abc"))));
}

// The word-at-a-time search finds `~` and `/` at every position of a
// segment, in the 8-byte words and in the tail, and nothing else: bytes
// next to them in value (`.`, `0`, `}`, `\x7f`) and multi-byte characters
// are left alone.
#[test]
fn escape_finds_tilde_and_slash_at_every_position() {
    for len in 1..=24 {
        for at in 0..len {
            for (special, escaped) in [('~', "~0"), ('/', "~1")] {
                let mut segment: String = "ab.0}\u{7f}é".chars().cycle().take(len).collect();
                let plain = segment.clone();
                assert!(matches!(escape(&plain), Cow::Borrowed(_)), "{plain:?}");
                let byte = plain.char_indices().nth(at).map(|(i, _)| i);
                let Some(byte) = byte else { continue };
                let end = byte + plain[byte..].chars().next().map_or(0, char::len_utf8);
                segment.replace_range(byte..end, &special.to_string());
                let mut expected = String::from(&segment[..byte]);
                expected.push_str(escaped);
                expected.push_str(&segment[byte + 1..]);
                assert_eq!(escape(&segment), expected, "{segment:?}");
            }
        }
    }
}

#[test]
fn push_escaped_appends_slash_and_escaped_segment() {
    let mut buf = String::from("/x");
    push_escaped(&mut buf, "a/~b");
    push_escaped(&mut buf, "");
    assert_eq!(buf, "/x/a~1~0b/");
    assert_eq!(Pointer::parse(&buf).unwrap().segments(), ["x", "a/~b", ""]);
}

#[test]
fn from_segments_push_and_display_escape_segments() {
    let mut pointer = Pointer::from_segments(["a/b", "m~n"]);
    pointer.push(String::from(""));
    assert_eq!(pointer.to_string(), "/a~1b/m~0n/");
    assert_eq!(pointer.pop().as_deref(), Some(""));
    assert_eq!("/a~1b/m~0n".parse::<Pointer>().unwrap(), pointer);
}

#[test]
fn array_index_must_be_canonical_decimal() {
    let doc = json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    let at = |p: &str| Pointer::parse(p).unwrap().resolve(&doc).cloned();
    assert_eq!(at("/0"), Some(json!(0)));
    assert_eq!(at("/11"), Some(json!(11)));
    assert_eq!(at("/12"), None);
    assert_eq!(at("/01"), None);
    assert_eq!(at("/00"), None);
    assert_eq!(at("/-"), None);
    assert_eq!(at("/+1"), None);
    assert_eq!(at("/1e0"), None);
    assert_eq!(at("/ 1"), None);
    assert_eq!(at("/"), None);
    assert_eq!(at("/99999999999999999999999999"), None);
}

#[test]
fn resolve_through_a_scalar_finds_nothing() {
    let doc = json!({"a": 1, "s": "text"});
    assert_eq!(Pointer::parse("/a/0").unwrap().resolve(&doc), None);
    assert_eq!(Pointer::parse("/s/0").unwrap().resolve(&doc), None);
    assert_eq!(Pointer::parse("/missing").unwrap().resolve(&doc), None);
}

#[test]
fn fragment_percent_decoding_handles_utf8_and_escaped_tilde() {
    let parsed = Pointer::parse_fragment("#/%C3%A9/%7E1").unwrap();
    assert_eq!(parsed.segments(), ["é", "/"]);
}

#[test]
fn fragment_with_bad_percent_escape_is_rejected() {
    assert_eq!(
        Pointer::parse_fragment("#/a%2"),
        Err(PointerError::InvalidPercentEscape { offset: 3 })
    );
    assert_eq!(
        Pointer::parse_fragment("#/a%zz"),
        Err(PointerError::InvalidPercentEscape { offset: 3 })
    );
    // A lone continuation byte is not UTF-8.
    assert_eq!(
        Pointer::parse_fragment("#/ab%80"),
        Err(PointerError::InvalidPercentEscape { offset: 4 })
    );
}

#[test]
fn fragment_with_unencoded_character_is_rejected() {
    for (fragment, offset) in [("#/ ", 2), ("#/k\"l", 3), ("#/é", 2), ("#/a#b", 3)] {
        assert_eq!(
            Pointer::parse_fragment(fragment),
            Err(PointerError::UnencodedCharacter { offset }),
            "{fragment:?}"
        );
    }
}

#[test]
fn fragment_bad_tilde_escape_offset_points_into_the_fragment() {
    assert_eq!(
        Pointer::parse_fragment("#/%20%20~2"),
        Err(PointerError::InvalidEscape { offset: 8 })
    );
    assert_eq!(
        Pointer::parse_fragment("#/%7E"),
        Err(PointerError::InvalidEscape { offset: 2 })
    );
}

#[test]
fn errors_display_a_message() {
    let error = Pointer::parse("/~2").unwrap_err();
    assert_eq!(
        error.to_string(),
        "`~` at byte 1 must be followed by `0` (for `~`) or `1` (for `/`)"
    );
    let _: &dyn std::error::Error = &error;
}
