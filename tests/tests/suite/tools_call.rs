//! One call read in one pass: `check_call` reads the arguments text with
//! its tool's decoder, so what the text holds past the arguments object,
//! its parse errors' lines and columns, and the limits are the text's own,
//! and its outcome is `check`'s on the call in the JSON form.
use contract_runtime::stream::Progress;
use contract_runtime::tools::Tools;
use contract_runtime::{Contract, Error, Outcome};

use super::tools::SupportTool;

#[derive(Contract, Debug, PartialEq)]
#[contract(tools, rename_all = "snake_case", max_depth = 2, max_bytes = 40)]
enum Limited {
    Set { values: Vec<Vec<u8>> },
    Ping,
}

// The first error's code, line and column.
fn at<T>(outcome: &Outcome<T>) -> (&'static str, Option<usize>, Option<usize>) {
    let e = &outcome.rejection().expect("a rejection").errors[0];
    (e.code, e.line, e.column)
}

// The errors without their lines and columns (the frame moves them).
fn placeless<T>(outcome: &Outcome<T>) -> Vec<Error> {
    let mut errors = outcome
        .rejection()
        .map(|r| r.errors.clone())
        .unwrap_or_default();
    for e in &mut errors {
        e.line = None;
        e.column = None;
    }
    errors
}

// The stream of a call, fed the whole text: its `finish`.
fn streamed(name: &str, arguments: &str) -> Outcome<SupportTool> {
    let mut stream = SupportTool::stream_call(name).unwrap();
    stream.push(arguments);
    stream.finish()
}

#[test]
fn content_after_the_arguments_object_is_refused() {
    for (name, text, column) in [
        ("close_ticket", r#"{"ticket_id":7,"reason":"done"} x"#, 33),
        ("close_ticket", r#"{"ticket_id":7,"reason":"done"} {}"#, 33),
        // Members cannot be smuggled into the call beside the arguments.
        (
            "close_ticket",
            r#"{"ticket_id":7,"reason":"done"},"_meta":{}"#,
            32,
        ),
        ("list_open_tickets", "{}}", 3),
        ("list_open_tickets", "{} x", 4),
    ] {
        let o = SupportTool::check_call(name, text);
        assert_eq!(at(&o), ("trailing_data", Some(1), Some(column)), "{text}");
        assert_eq!(o.rejection().unwrap().errors[0].pointer, "");
        assert_eq!(streamed(name, text), o, "{text}");
    }
    let o = SupportTool::check_call(
        "close_ticket",
        "{\"ticket_id\": 7,\n \"reason\": \"a\" }\n x",
    );
    assert_eq!(at(&o), ("trailing_data", Some(3), Some(2)));
    // Whitespace after the object is not content.
    assert!(
        SupportTool::check_call("close_ticket", "{\"ticket_id\":7,\"reason\":\"a\"}\n\t ")
            .is_accept()
    );
}

#[test]
fn a_parse_error_is_at_its_line_and_column_in_the_arguments_text() {
    for (text, expected) in [
        // On the first line: no frame before the text.
        (
            r#"{"ticket_id":7,"reason":}"#,
            ("syntax", Some(1), Some(25)),
        ),
        (
            "{\n  \"ticket_id\": 7,\n  \"reason\": \n}",
            ("syntax", Some(4), Some(1)),
        ),
        (
            r#"{"ticket_id":"x","reason":"a"#,
            ("unexpected_end", Some(1), Some(29)),
        ),
        (
            "{\n  \"ticket_id\": 7,\n  \"ticket_id\": 7,\n  \"reason\": \"a\"}",
            ("duplicate_key", Some(3), Some(3)),
        ),
        // A parse error past a schema error: the parse error alone.
        (
            r#"{"ticket_id":"x","reason":"#,
            ("unexpected_end", Some(1), Some(27)),
        ),
    ] {
        let o = SupportTool::check_call("close_ticket", text);
        assert_eq!(at(&o), expected, "{text}");
        assert_eq!(o.rejection().unwrap().errors.len(), 1, "{text}");
        assert_eq!(streamed("close_ticket", text), o, "{text}");
    }
}

// A duplicate key is at its pointer in the JSON form, as the stream's
// early error and `check` of the whole call put it.
#[test]
fn a_duplicate_key_in_the_arguments_is_at_its_arguments_pointer() {
    let text = r#"{"ticket_id":7,"reason":"a","x":[{"q":1,"q":2}],"ticket_id":8}"#;
    let o = SupportTool::check_call("close_ticket", text);
    let e = &o.rejection().unwrap().errors[0];
    assert_eq!(
        (e.pointer.as_str(), e.code),
        ("/arguments/x/0/q", "duplicate_key")
    );
    let call = format!(r#"{{"name":"close_ticket","arguments":{text}}}"#);
    assert_eq!(placeless(&o), placeless(&SupportTool::check(&call)));
    let o = SupportTool::check_call("close_ticket", r#"{"ticket_id":7,"ticket_id":8}"#);
    assert_eq!(o.rejection().unwrap().pointers(), ["/arguments/ticket_id"]);
    let mut stream = SupportTool::stream_call("close_ticket").unwrap();
    let Progress::Rejected(early) = stream.push(r#"{"ticket_id":7,"ticket_id":8}"#) else {
        panic!("the duplicate is seen as it streams");
    };
    assert_eq!(early.pointers(), ["/arguments/ticket_id"]);
    assert_eq!(stream.finish(), o);
}

#[test]
fn the_depth_limit_holds_at_exactly_the_limit() {
    // `max_depth = 2`: the arguments object and one level inside it.
    assert!(Limited::check_call("set", r#"{"values":[]}"#).is_accept());
    assert_eq!(
        at(&Limited::check_call("set", r#"{"values":[[]]}"#)),
        ("too_deep", Some(1), Some(12))
    );
    // In a member no tool declares, and in a tool without arguments.
    let o = Limited::check_call("ping", r#"{"x":[]}"#);
    assert_eq!(o.rejection().unwrap().errors[0].code, "unknown_key");
    assert_eq!(
        at(&Limited::check_call("ping", r#"{"x":[[]]}"#)),
        ("too_deep", Some(1), Some(7))
    );
    assert_eq!(
        at(&Limited::check_call("set", "[[[")),
        ("too_deep", Some(1), Some(3))
    );
}

#[test]
fn the_size_limit_holds_for_a_blank_text_too() {
    assert!(Limited::check_call("ping", &" ".repeat(40)).is_accept());
    let o = Limited::check_call("ping", &" ".repeat(41));
    assert_eq!(o.rejection().unwrap().errors[0].code, "too_large");
    let o = Limited::check_call("ping", "\u{feff}{}");
    assert_eq!(o.rejection().unwrap().errors[0].code, "byte_order_mark");
}

// Every outcome of `check_call` of a known tool is `check`'s on the call in
// the JSON form (up to the lines and columns, which the frame moves).
#[test]
fn check_call_is_check_of_the_call_in_the_json_form() {
    let texts = [
        "{}",
        " {} ",
        "null",
        "[]",
        "7",
        r#"{"ticket_id":7,"reason":"done"}"#,
        r#"{"reason":"done","ticket_id":7}"#,
        r#"{"ticket_id":0,"reason":"","x":1}"#,
        r#"{"ticket_id":"7","reason":[1]}"#,
        r#"{"question":"which order?"}"#,
        r#"{"question":""}"#,
        r#"{"order_id":1,"refund_cents":9,"order_total_cents":5}"#,
        r#"{"order_id":1,"refund_cents":5,"order_total_cents":9}"#,
        r#"{"order_id":-1,"refund_cents":5}"#,
        r#"{"ticket_id":1e400,"reason":"a"}"#,
        r#"{"\u0074icket_id":7,"reason":"a"}"#,
        r#"{"ticket_id":7,"ticket_id":8}"#,
        r#"{"ticket_id":7,"reason":}"#,
    ];
    // An unknown name is refused before its arguments are read.
    for name in [
        "close_ticket",
        "refund",
        "ask_customer",
        "list_open_tickets",
    ] {
        for text in texts {
            let alone = SupportTool::check_call(name, text);
            let call = format!(r#"{{"name":{name:?},"arguments":{text}}}"#);
            let framed = SupportTool::check(&call);
            assert_eq!(alone.kind(), framed.kind(), "{name} {text}");
            assert_eq!(alone.value(), framed.value(), "{name} {text}");
            assert_eq!(placeless(&alone), placeless(&framed), "{name} {text}");
        }
    }
}
