use super::*;

fn texts(deltas: &[Delta]) -> Vec<(&Output, &str)> {
    deltas
        .iter()
        .map(|d| (&d.output, d.text.as_str()))
        .collect()
}

fn chat(content: &str) -> String {
    format!(
        "data: {}\n\n",
        serde_json::json!({"choices": [{"index": 0, "delta": {"content": content}}]})
    )
}

#[test]
fn line_ends_comments_and_multi_line_data() {
    for end in ["\n", "\r\n", "\r"] {
        let body = format!(
            ": a comment{end}event: x{end}id: 1{end}retry: 5{end}data: {{\"choices\":{end}data: [{{\"delta\":{{\"content\":\"a\"}}}}]}}{end}{end}data:[DONE]{end}{end}{}",
            chat("never read")
        );
        let deltas = decode(Api::OpenAiChat, body.as_bytes()).unwrap();
        assert_eq!(texts(&deltas), [(&Output::Text, "a")], "{end:?}");
    }
}

#[test]
fn a_cr_and_its_lf_in_two_pieces_are_one_line_end() {
    let mut decoder = Decoder::new(Api::OpenAiChat);
    let body = chat("x").replace('\n', "\r\n");
    let (a, b) = body.split_at(body.len() - 3);
    let (b, c) = b.split_at(1);
    let mut deltas = decoder.feed(a.as_bytes()).unwrap();
    deltas.extend(decoder.feed(b.as_bytes()).unwrap());
    assert!(deltas.is_empty());
    deltas.extend(decoder.feed(c.as_bytes()).unwrap());
    assert_eq!(texts(&deltas), [(&Output::Text, "x")]);
    assert_eq!(decoder.events(), 1);
}

#[test]
fn a_character_split_anywhere_arrives_whole() {
    let body = chat("é😀");
    for at in 0..=body.len() {
        let mut decoder = Decoder::new(Api::OpenAiChat);
        let mut deltas = decoder.feed(&body.as_bytes()[..at]).unwrap();
        deltas.extend(decoder.feed(&body.as_bytes()[at..]).unwrap());
        deltas.extend(decoder.finish().unwrap());
        assert_eq!(texts(&deltas), [(&Output::Text, "é😀")], "split at {at}");
    }
}

#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let body = format!("\u{feff}{}", chat("a"));
    assert_eq!(decode(Api::OpenAiChat, body.as_bytes()).unwrap().len(), 1);
}

#[test]
fn the_last_event_without_its_blank_line_is_read_at_finish() {
    let body = chat("a");
    let body = body.trim_end();
    let mut decoder = Decoder::new(Api::OpenAiChat);
    assert!(decoder.feed(body.as_bytes()).unwrap().is_empty());
    assert_eq!(decoder.finish().unwrap().len(), 1);
}

#[test]
fn malformed_events_are_errors_with_their_number() {
    let cases: [(&str, ErrorKind, &str); 5] = [
        (
            "data: {\"choices\": [\n\n",
            ErrorKind::NotJson,
            "event 2 is not JSON",
        ),
        (
            "data: [1]\n\n",
            ErrorKind::NotJson,
            "event 2 is not a JSON object",
        ),
        (
            "data: {\"choices\":[{\"delta\":{\"content\":7}}]}\n\n",
            ErrorKind::Malformed,
            "event 2 has a delta.content that is not a string",
        ),
        (
            "data: \u{ff}\n\n",
            ErrorKind::NotUtf8,
            "event 2 is not UTF-8",
        ),
        (
            "data: {\"error\":{\"message\":\"overloaded\"}}\n\n",
            ErrorKind::Reported,
            "event 2 reports an error of the provider: overloaded",
        ),
    ];
    for (second, kind, message) in cases {
        let mut body = chat("a").into_bytes();
        if second.contains('\u{ff}') {
            body.extend_from_slice(b"data: \xff\n\n");
        } else {
            body.extend_from_slice(second.as_bytes());
        }
        let mut decoder = Decoder::new(Api::OpenAiChat);
        let before = decoder.feed(&body).unwrap();
        assert_eq!(
            texts(&before),
            [(&Output::Text, "a")],
            "the delta before it first"
        );
        let e = decoder.finish().unwrap_err();
        assert_eq!(e.kind, kind);
        assert!(e.to_string().starts_with(message), "{e}");
        assert_eq!(decoder.feed(b"").unwrap_err(), e, "the error again");
    }
}

#[test]
fn chat_tool_calls_are_told_apart_with_their_id_and_name() {
    let body = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"refund\",\"arguments\":\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"function\":{\"name\":\"close\",\"arguments\":\"{\\\"a\\\":1}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":1,\"delta\":{\"content\":\"another choice\"}}]}\n\n",
        "data: {\"choices\":[],\"usage\":{\"total_tokens\":9}}\n\n",
        "data: [DONE]\n\n",
    );
    let mut decoder = Decoder::new(Api::OpenAiChat);
    let deltas = decoder.feed(body.as_bytes()).unwrap();
    let call = |index, id: &str, name: &str| {
        Output::Call(Call {
            index,
            id: Some(id.into()),
            name: Some(name.into()),
        })
    };
    assert_eq!(
        texts(&deltas),
        [
            (&call(0, "call_a", "refund"), "{}"),
            (&call(1, "call_b", "close"), "{\"a\":1}")
        ]
    );
    assert_eq!(decoder.text_deltas(), 0);
    assert_eq!(decoder.calls().len(), 2);
    assert!(decoder.is_done());
    assert_eq!(decoder.events(), 6);
}

#[test]
fn responses_name_the_call_by_its_output_item() {
    let body = concat!(
        "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{}}\n\n",
        "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"message\",\"id\":\"msg_1\"}}\n\n",
        "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":0,\"content_index\":0,\"delta\":\"hi\"}\n\n",
        "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":1,\"item\":{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"refund\",\"arguments\":\"\"}}\n\n",
        "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"output_index\":1,\"delta\":\"{}\"}\n\n",
        "event: response.refusal.delta\ndata: {\"type\":\"response.refusal.delta\",\"delta\":\"no\"}\n\n",
    );
    let mut decoder = Decoder::new(Api::OpenAiResponses);
    let deltas = decoder.feed(body.as_bytes()).unwrap();
    let call = Output::Call(Call {
        index: 0,
        id: Some("call_1".into()),
        name: Some("refund".into()),
    });
    assert_eq!(texts(&deltas), [(&Output::Text, "hi"), (&call, "{}")]);
    assert_eq!(deltas[1].event, 5);
    assert_eq!(decoder.refusal(), Some("no"));
    let failed =
        "data: {\"type\":\"response.failed\",\"response\":{\"error\":{\"message\":\"boom\"}}}\n\n";
    let e = decode(Api::OpenAiResponses, failed.as_bytes()).unwrap_err();
    assert_eq!((e.event, e.kind), (1, ErrorKind::Reported));
}

#[test]
fn anthropic_blocks_say_what_their_deltas_are() {
    let body = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"content\":[]}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"hm\"}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: ping\ndata: {\"type\":\"ping\"}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"refund\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n",
    );
    let mut decoder = Decoder::new(Api::Anthropic);
    let deltas = decoder.feed(body.as_bytes()).unwrap();
    let call = Output::Call(Call {
        index: 0,
        id: Some("toolu_1".into()),
        name: Some("refund".into()),
    });
    assert_eq!(texts(&deltas), [(&Output::Text, "ok"), (&call, "{}")]);
    let stray = "data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n";
    let e = decoder.feed(stray.as_bytes()).unwrap_err();
    assert_eq!((e.event, e.kind), (9, ErrorKind::Malformed));
    let error = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let e = decode(Api::Anthropic, error.as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "event 1 reports an error of the provider: Overloaded"
    );
}

#[test]
fn gemini_parts_and_function_calls() {
    let body = concat!(
        "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"plan\",\"thought\":true},{\"text\":\"{\\\"a\\\"\"}]},\"index\":0}]}\n\n",
        "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\": 1}\"}]}}],\"usageMetadata\":{}}\n\n",
        "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"refund\",\"args\":{\"id\":7}}},{\"functionCall\":{\"id\":\"c2\",\"name\":\"ping\"}}]}}]}\n\n",
    );
    let deltas = decode(Api::Gemini, body.as_bytes()).unwrap();
    let refund = Output::Call(Call {
        index: 0,
        id: None,
        name: Some("refund".into()),
    });
    let ping = Output::Call(Call {
        index: 1,
        id: Some("c2".into()),
        name: Some("ping".into()),
    });
    assert_eq!(
        texts(&deltas),
        [
            (&Output::Text, "{\"a\""),
            (&Output::Text, ": 1}"),
            (&refund, "{\"id\":7}"),
            (&ping, "{}")
        ]
    );
}

#[test]
fn a_stream_of_another_api_is_guessed() {
    let anthropic = "data: {\"type\":\"message_start\",\"message\":{}}\n\n";
    let gemini = "data: {\"candidates\":[]}\n\n";
    let responses = "data: {\"type\":\"response.created\",\"response\":{}}\n\n";
    for (body, api) in [
        (anthropic, Api::Anthropic),
        (gemini, Api::Gemini),
        (responses, Api::OpenAiResponses),
        (chat("a").as_str(), Api::OpenAiChat),
    ] {
        let mut decoder = Decoder::new(Api::OpenAiChat);
        decoder.feed(body.as_bytes()).unwrap();
        assert_eq!(decoder.guessed_api(), Some(api));
    }
}

#[test]
fn an_event_past_the_limit_is_an_error_not_a_growing_buffer() {
    let mut decoder = Decoder::new(Api::OpenAiChat);
    let chunk = vec![b'x'; 1 << 20];
    decoder.feed(b"data: ").unwrap();
    let mut result = Ok(Vec::new());
    for _ in 0..17 {
        result = decoder.feed(&chunk);
        if result.is_err() {
            break;
        }
    }
    assert_eq!(result.unwrap_err().kind, ErrorKind::TooLong);
}

#[test]
fn a_refusal_is_kept_to_its_first_4_kib() {
    let event = format!(
        "data: {}\n\n",
        serde_json::json!({"type": "response.refusal.delta", "delta": "é".repeat(3000)})
    );
    let mut decoder = Decoder::new(Api::OpenAiResponses);
    decoder.feed(event.as_bytes()).unwrap();
    decoder.feed(event.as_bytes()).unwrap();
    let refusal = decoder.refusal().unwrap();
    assert!(
        refusal.len() <= 4096 && refusal.len() > 4090,
        "{}",
        refusal.len()
    );
}
