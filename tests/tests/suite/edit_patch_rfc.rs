//! The examples of RFC 6902 appendix A and RFC 7396 appendix A, applied by
//! `EditPolicy::apply_patch` / `apply_merge_patch` (the application alone:
//! the documents are not settings), and the same patches through the
//! `json-patch` crate. Two appendix cases are refused on purpose: A.11
//! (an unknown member, which RFC 6902 says to ignore: the strict reading
//! refuses it) and A.13 (a duplicate `op`, which the strict JSON policy
//! refuses at the parse stage).
use contract_examples::settings::Settings;
use serde_json::{Value, json};

fn apply(doc: &Value, patch: &Value) -> Result<Value, contract_runtime::Rejection> {
    let text = Settings::DISABLE_EMAIL.apply_patch(doc, &patch.to_string())?;
    Ok(serde_json::from_str(&text).unwrap())
}

fn other(doc: &Value, patch: &Value) -> Option<Value> {
    let patch: json_patch::Patch = serde_json::from_value(patch.clone()).ok()?;
    let mut doc = doc.clone();
    json_patch::patch(&mut doc, &patch).ok()?;
    Some(doc)
}

/// (section, document, patch, the result or `None` for an error)
fn rfc6902() -> Vec<(&'static str, Value, Value, Option<Value>)> {
    vec![
        (
            "A.1",
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/baz", "value": "qux"}]),
            Some(json!({"baz": "qux", "foo": "bar"})),
        ),
        (
            "A.2",
            json!({"foo": ["bar", "baz"]}),
            json!([{"op": "add", "path": "/foo/1", "value": "qux"}]),
            Some(json!({"foo": ["bar", "qux", "baz"]})),
        ),
        (
            "A.3",
            json!({"baz": "qux", "foo": "bar"}),
            json!([{"op": "remove", "path": "/baz"}]),
            Some(json!({"foo": "bar"})),
        ),
        (
            "A.4",
            json!({"foo": ["bar", "qux", "baz"]}),
            json!([{"op": "remove", "path": "/foo/1"}]),
            Some(json!({"foo": ["bar", "baz"]})),
        ),
        (
            "A.5",
            json!({"baz": "qux", "foo": "bar"}),
            json!([{"op": "replace", "path": "/baz", "value": "boo"}]),
            Some(json!({"baz": "boo", "foo": "bar"})),
        ),
        (
            "A.6",
            json!({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}),
            json!([{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]),
            Some(json!({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}})),
        ),
        (
            "A.7",
            json!({"foo": ["all", "grass", "cows", "eat"]}),
            json!([{"op": "move", "from": "/foo/1", "path": "/foo/3"}]),
            Some(json!({"foo": ["all", "cows", "eat", "grass"]})),
        ),
        (
            "A.8",
            json!({"baz": "qux", "foo": ["a", 2, "c"]}),
            json!([{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}]),
            Some(json!({"baz": "qux", "foo": ["a", 2, "c"]})),
        ),
        (
            "A.9",
            json!({"baz": "qux"}),
            json!([{"op": "test", "path": "/baz", "value": "bar"}]),
            None,
        ),
        (
            "A.10",
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/child", "value": {"grandchild": {}}}]),
            Some(json!({"foo": "bar", "child": {"grandchild": {}}})),
        ),
        (
            "A.12",
            json!({"foo": "bar"}),
            json!([{"op": "add", "path": "/baz/bat", "value": "qux"}]),
            None,
        ),
        (
            "A.14",
            json!({"/": 9, "~1": 10}),
            json!([{"op": "test", "path": "/~01", "value": 10}]),
            Some(json!({"/": 9, "~1": 10})),
        ),
        (
            "A.15",
            json!({"/": 9, "~1": 10}),
            json!([{"op": "test", "path": "/~01", "value": "10"}]),
            None,
        ),
        (
            "A.16",
            json!({"foo": ["bar"]}),
            json!([{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]),
            Some(json!({"foo": ["bar", ["abc", "def"]]})),
        ),
    ]
}

#[test]
fn rfc6902_appendix_a_examples() {
    for (section, doc, patch, expected) in rfc6902() {
        let got = apply(&doc, &patch);
        match &expected {
            Some(want) => assert_eq!(got.as_ref().ok(), Some(want), "{section}: {got:?}"),
            None => {
                let rejection = got.expect_err(section);
                assert_eq!(
                    rejection.errors[0].stage,
                    contract_runtime::Stage::Edit,
                    "{section}"
                );
            }
        }
        assert_eq!(
            other(&doc, &patch),
            expected,
            "{section}: json-patch agrees"
        );
    }
}

#[test]
fn rfc6902_failures_name_the_operation() {
    let doc = json!({"baz": "qux"});
    let r = apply(
        &doc,
        &json!([{"op": "test", "path": "/baz", "value": "bar"}]),
    )
    .unwrap_err();
    assert_eq!(
        (r.errors[0].code, r.errors[0].pointer.as_str()),
        ("test_failed", "/0/value")
    );
    let r = apply(
        &json!({"foo": "bar"}),
        &json!({"patch": [{"op": "add", "path": "/baz/bat", "value": 1}]}),
    )
    .unwrap_err();
    assert_eq!(
        (r.errors[0].code, r.errors[0].pointer.as_str()),
        ("path_not_found", "/patch/0/path")
    );
}

#[test]
fn rfc6902_a11_unknown_member_is_refused() {
    let patch = json!([{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]);
    let r = apply(&json!({"foo": "bar"}), &patch).unwrap_err();
    assert_eq!(
        (r.errors[0].code, r.errors[0].pointer.as_str()),
        ("invalid_patch", "/0/xyz")
    );
}

#[test]
fn rfc6902_a13_duplicate_op_is_a_parse_error() {
    let text = r#"[{"op": "add", "path": "/baz", "value": "qux", "op": "remove"}]"#;
    let r = Settings::DISABLE_EMAIL
        .apply_patch(&json!({"foo": "bar"}), text)
        .unwrap_err();
    assert_eq!(r.errors[0].code, "duplicate_key");
    assert_eq!(r.errors[0].pointer, "/0/op");
}

#[test]
fn rfc7396_appendix_a_examples() {
    let cases = [
        (json!({"a": "b"}), json!({"a": "c"}), json!({"a": "c"})),
        (
            json!({"a": "b"}),
            json!({"b": "c"}),
            json!({"a": "b", "b": "c"}),
        ),
        (json!({"a": "b"}), json!({"a": null}), json!({})),
        (
            json!({"a": "b", "b": "c"}),
            json!({"a": null}),
            json!({"b": "c"}),
        ),
        (json!({"a": ["b"]}), json!({"a": "c"}), json!({"a": "c"})),
        (json!({"a": "c"}), json!({"a": ["b"]}), json!({"a": ["b"]})),
        (
            json!({"a": {"b": "c"}}),
            json!({"a": {"b": "d", "c": null}}),
            json!({"a": {"b": "d"}}),
        ),
        (
            json!({"a": [{"b": "c"}]}),
            json!({"a": [1]}),
            json!({"a": [1]}),
        ),
        (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
        (json!({"a": "b"}), json!(["c"]), json!(["c"])),
        (json!({"a": "foo"}), json!(null), json!(null)),
        (json!({"a": "foo"}), json!("bar"), json!("bar")),
        (
            json!({"e": null}),
            json!({"a": 1}),
            json!({"e": null, "a": 1}),
        ),
        (
            json!([1, 2]),
            json!({"a": "b", "c": null}),
            json!({"a": "b"}),
        ),
        (
            json!({}),
            json!({"a": {"bb": {"ccc": null}}}),
            json!({"a": {"bb": {}}}),
        ),
    ];
    for (i, (doc, patch, want)) in cases.into_iter().enumerate() {
        let text = Settings::DISABLE_EMAIL
            .apply_merge_patch(&doc, &patch.to_string())
            .unwrap();
        let got: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(got, want, "case {}", i + 1);
        let mut theirs = doc.clone();
        json_patch::merge(&mut theirs, &patch);
        assert_eq!(theirs, want, "json-patch, case {}", i + 1);
    }
}

#[test]
fn patch_reading_is_strict() {
    let doc = json!({"a": 1});
    let cases = [
        (json!({"op": "add"}), "/op"),
        (json!({}), ""),
        (json!("x"), ""),
        (json!({"patch": [], "extra": 1}), "/extra"),
        (json!({"patch": {}}), "/patch"),
        (json!([1]), "/0"),
        (json!([{"path": "/a"}]), "/0/op"),
        (json!([{"op": "frobnicate", "path": "/a"}]), "/0/op"),
        (
            json!([{"op": "remove", "path": "/a", "value": 1}]),
            "/0/value",
        ),
        (json!([{"op": "add", "path": "/a"}]), "/0/value"),
        (json!([{"op": "move", "path": "/a"}]), "/0/from"),
        (json!([{"op": "remove", "path": "a"}]), "/0/path"),
        (json!([{"op": "remove", "path": "/~2"}]), "/0/path"),
        (json!([{"op": "remove", "path": 7}]), "/0/path"),
        (
            json!([{"op": "move", "from": "/a", "path": "/a/b"}]),
            "/0/from",
        ),
    ];
    for (patch, pointer) in cases {
        let r = apply(&doc, &patch).unwrap_err();
        assert_eq!(r.errors[0].code, "invalid_patch", "{patch}");
        assert_eq!(r.errors[0].pointer, pointer, "{patch}");
    }
    // Every mistake of every operation, not only the first.
    let r = apply(
        &doc,
        &json!([{"op": "remove", "path": "/a", "x": 1}, {"op": "test"}]),
    )
    .unwrap_err();
    assert_eq!(r.pointers(), ["/0/x", "/1/path", "/1/value"]);
}

#[test]
fn indices_and_the_array_end() {
    let doc = json!({"a": [1, 2]});
    let ok = |p: Value| apply(&doc, &p).ok();
    assert_eq!(
        ok(json!([{"op": "add", "path": "/a/2", "value": 3}])),
        Some(json!({"a": [1, 2, 3]}))
    );
    assert_eq!(ok(json!([{"op": "add", "path": "/a/3", "value": 3}])), None);
    assert_eq!(
        ok(json!([{"op": "add", "path": "/a/01", "value": 3}])),
        None
    );
    assert_eq!(ok(json!([{"op": "remove", "path": "/a/-"}])), None);
    assert_eq!(
        ok(json!([{"op": "replace", "path": "/a/2", "value": 0}])),
        None
    );
    assert_eq!(
        ok(json!([{"op": "copy", "from": "/a/0", "path": "/a/-"}])),
        Some(json!({"a": [1, 2, 1]}))
    );
    assert_eq!(
        ok(json!([{"op": "test", "path": "/a/0", "value": 1.0}])),
        Some(doc.clone()),
        "numbers by value"
    );
    assert_eq!(
        ok(json!([{"op": "replace", "path": "", "value": [1]}])),
        Some(json!([1]))
    );
    // All or nothing: the second operation fails, so the first is not kept.
    assert_eq!(
        ok(json!([{"op": "remove", "path": "/a/0"}, {"op": "remove", "path": "/b"}])),
        None
    );
}
