//! Tool calls streamed and checked against the schema: `stream_call`'s
//! `finish` is `check_call` at every split, it rejects early where the
//! prefix decides, and the JSON form's schema agrees with its decoder.
use contract_runtime::stream::Progress;
use contract_runtime::tools::Tools;
use contract_runtime::{Contract, Outcome};
use proptest::prelude::*;

#[derive(Contract, Debug, Clone, Copy, PartialEq)]
#[contract(rename_all = "snake_case")]
pub enum Priority {
    Low,
    High,
}

/// Tools of a help desk.
#[derive(Contract, Debug, Clone, PartialEq)]
#[contract(tools, rename_all = "snake_case", max_bytes = 512)]
pub enum Desk {
    /// Set a ticket's priority.
    SetPriority {
        #[contract(min = 1)]
        ticket_id: u64,
        priority: Priority,
    },
    /// Book a slot.
    #[contract(order(start <= end))]
    Book {
        start: u32,
        end: u32,
        #[contract(optional, max_len = 8)]
        note: Option<String>,
    },
    /// Nothing to do.
    #[contract(decline)]
    Idle,
}

fn same<T: PartialEq + std::fmt::Debug>(a: &Outcome<T>, b: &Outcome<T>) -> bool {
    a.kind() == b.kind() && a.rejection() == b.rejection() && format!("{a:?}") == format!("{b:?}")
}

// Argument texts around the tools: valid ones and near misses.
fn arguments() -> impl Strategy<Value = (String, String)> {
    let priority = prop_oneof![
        Just("\"low\"".to_owned()),
        Just("\"high\"".to_owned()),
        Just("\"hig\"".to_owned()),
        Just("\"urgent\"".to_owned()),
        Just("1".to_owned()),
    ];
    let number = prop_oneof![
        (0u32..20).prop_map(|n| n.to_string()),
        Just("\"7\"".to_owned()),
        Just("-1".to_owned()),
        Just("1.5".to_owned()),
    ];
    let set = (number.clone(), priority, any::<bool>()).prop_map(|(id, p, extra)| {
        let extra = if extra { r#", "extra": true"# } else { "" };
        (
            "set_priority".to_owned(),
            format!(r#"{{"ticket_id": {id}, "priority": {p}{extra}}}"#),
        )
    });
    let note = prop_oneof![
        Just(String::new()),
        Just(r#", "note": "short""#.to_owned()),
        Just(r#", "note": "far too long""#.to_owned()),
        Just(r#", "note": null"#.to_owned()),
    ];
    let book = (number.clone(), number, note).prop_map(|(s, e, n)| {
        (
            "book".to_owned(),
            format!(r#"{{"end": {e}, "start": {s}{n}}}"#),
        )
    });
    let idle = prop_oneof![
        Just(""),
        Just("{}"),
        Just("{\"x\":1}"),
        Just("[]"),
        Just("{")
    ]
    .prop_map(|t| ("idle".to_owned(), t.to_owned()));
    prop_oneof![set, book, idle]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    // `finish` is `check_call` at every split into two and three pieces,
    // and no push rejects a text `check_call` accepts.
    #[test]
    fn finish_equals_check_call_at_every_split((name, text) in arguments(), cut in 0usize..64) {
        let whole = Desk::check_call(&name, &text);
        let bounds: Vec<usize> = (0..=text.len()).filter(|i| text.is_char_boundary(*i)).collect();
        for &i in &bounds {
            let j = bounds[(i + cut) % bounds.len()].max(i);
            let mut stream = Desk::stream_call(&name).unwrap();
            let mut rejected = false;
            for piece in [&text[..i], &text[i..j], &text[j..]] {
                rejected |= matches!(stream.push(piece), Progress::Rejected(_));
            }
            if whole.rejection().is_none() {
                prop_assert!(!rejected, "{name} {text:?} rejected at split {i}/{j}");
            }
            let streamed = stream.finish();
            prop_assert!(same(&streamed, &whole), "{name} {text:?} split {i}/{j}: {streamed:?} != {whole:?}");
        }
    }

    // The JSON form's schema accepts what its decoder accepts (the `order`
    // rule stays local: a document refused for it alone is skipped).
    #[test]
    fn schema_and_decoder_agree((name, text) in arguments()) {
        let doc = if text.trim().is_empty() {
            format!(r#"{{"name": "{name}"}}"#)
        } else {
            format!(r#"{{"name": "{name}", "arguments": {text}}}"#)
        };
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&doc) else {
            return Ok(());
        };
        let decoded = Desk::from_json(&doc);
        if let Err(r) = &decoded && r.errors.iter().all(|e| e.code == "order") {
            return Ok(());
        }
        let validator = jsonschema::validator_for(&Desk::json_schema()).unwrap();
        prop_assert_eq!(decoded.is_ok(), validator.is_valid(&value), "{}", doc);
        // Each tool's MCP `inputSchema` agrees with `check_call` the same way.
        let tools = Desk::mcp_tools();
        let tool = tools.as_array().unwrap().iter().find(|t| t["name"] == name.as_str()).unwrap();
        if let Some(arguments) = value.get("arguments") {
            let input = jsonschema::validator_for(&tool["inputSchema"]).unwrap();
            prop_assert_eq!(Desk::check_call(&name, &text).rejection().is_none(), input.is_valid(arguments), "{}", text);
        }
    }
}

fn early(name: &str, prefix: &str) -> Option<(String, &'static str)> {
    let mut stream = Desk::stream_call(name).unwrap();
    match stream.push(prefix) {
        Progress::Rejected(r) => Some((r.errors[0].pointer.to_string(), r.errors[0].code)),
        _ => None,
    }
}

#[test]
fn a_call_stream_rejects_where_the_prefix_decides() {
    // An unknown key, once the key is complete.
    assert_eq!(early("set_priority", r#"{"ticket_id": 7, "bogus"#), None);
    assert_eq!(
        early("set_priority", r#"{"ticket_id": 7, "bogus""#),
        Some(("/arguments/bogus".to_owned(), "unknown_key"))
    );
    // A wrong type at its first byte.
    assert_eq!(
        early("set_priority", r#"{"ticket_id": ""#),
        Some(("/arguments/ticket_id".to_owned(), "invalid_type"))
    );
    // An enum prefix no value has.
    assert_eq!(early("set_priority", r#"{"priority": "hi"#), None);
    assert_eq!(
        early("set_priority", r#"{"priority": "hx"#),
        Some(("/arguments/priority".to_owned(), "not_one_of"))
    );
    // A rule once both fields are complete.
    assert_eq!(
        early("book", r#"{"start": 9, "end": 3,"#),
        Some(("/arguments/end".to_owned(), "order"))
    );
    // Past `max_bytes` of the arguments text.
    let long = format!(r#"{{"start": 1, "end": 2, "note": "{}"#, "x".repeat(600));
    assert_eq!(early("book", &long).map(|e| e.1), Some("too_large"));
    assert!(Desk::stream_call("nope").is_err());
    assert_eq!(
        Desk::stream_call("nope").unwrap_err().errors[0].code,
        "unknown_tool"
    );
}

#[test]
fn a_stream_of_the_json_form_names_an_unknown_tool_early() {
    let mut stream = Desk::stream();
    let Progress::Rejected(r) = stream.push(r#"{"name": "sx"#) else {
        panic!("decided");
    };
    assert_eq!(
        (r.errors[0].pointer.as_str(), r.errors[0].code),
        ("/name", "unknown_tool")
    );
    let mut stream = Desk::stream();
    stream.push(r#"{"name": "idle", "_meta": {"progressToken": 1}}"#);
    assert_eq!(
        stream.finish().kind(),
        contract_runtime::OutcomeKind::Decline
    );
    // The partial value of a call stream is the JSON form so far.
    let mut stream = Desk::stream_call("book").unwrap();
    stream.push(r#"{"start": 1, "end""#);
    assert_eq!(
        stream.partial(),
        serde_json::json!({"name": "book", "arguments": {"start": 1}})
    );
}

// A text with one mistake, the byte that decides it, and the error.
fn mistakes() -> impl Strategy<Value = (String, usize, &'static str, &'static str)> {
    let ws = prop::sample::select(vec!["", " ", "\n  "]);
    (ws.clone(), ws, 0..3usize).prop_map(|(a, b, kind)| match kind {
        0 => {
            let text = format!(r#"{{"ticket_id":{a}7,{b}"bogus": 1, "priority": "low"}}"#);
            let at = text.find("bogus").unwrap() + "bogus".len();
            (text, at, "/arguments/bogus", "unknown_key")
        }
        1 => {
            let text = format!(r#"{{"priority":{a}"low",{b}"ticket_id": "7"}}"#);
            let at = text.find("\"7").unwrap();
            (text, at, "/arguments/ticket_id", "invalid_type")
        }
        _ => {
            let text = format!(r#"{{"ticket_id":{a}7,{b}"priority": "hx"}}"#);
            let at = text.find("hx").unwrap() + 1;
            (text, at, "/arguments/priority", "not_one_of")
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    // The push holding the deciding byte rejects, and none before it:
    // an unknown key at its closing quote, a wrong type at its first byte,
    // an enum prefix no value has at the byte that shows it.
    #[test]
    fn a_call_stream_rejects_at_the_deciding_byte((text, at, pointer, code) in mistakes(), cuts in prop::collection::vec(0usize..60, 1..4)) {
        let mut bounds: Vec<usize> = cuts.into_iter().map(|c| c.min(text.len())).collect();
        bounds.push(text.len());
        bounds.sort_unstable();
        let mut stream = Desk::stream_call("set_priority").unwrap();
        let mut from = 0;
        let mut decided = None;
        for &to in &bounds {
            if let Progress::Rejected(r) = stream.push(&text[from..to]) {
                decided.get_or_insert((to, r));
            }
            from = to;
        }
        let (to, r) = decided.expect("rejected");
        let first_past = bounds.iter().copied().find(|&b| b > at).unwrap();
        prop_assert_eq!(to, first_past, "{} decided at {}", text, to);
        prop_assert_eq!((r.errors[0].pointer.as_str(), r.errors[0].code), (pointer, code));
        prop_assert_eq!(stream.finish().rejection().map(|r| r.errors[0].code), Some(code));
    }
}
