//! An llguidance grammar (its Lark form) for one request: the
//! [`Local`](super::Provider::Local) export bound to the context, in which
//! every `evidence` string can only be a contiguous substring of the source
//! text, so that a quote the source does not contain cannot be generated.
//!
//! The grammar (llguidance's `docs/syntax.md`):
//!
//! - without `evidence` members, `start: %json {..}` over the bound Local
//!   export, which llguidance compiles as it compiles the export itself;
//! - with them, every schema on the way to an `evidence` member is written
//!   out as Lark: an object member by member, in the export's order (as
//!   llguidance generates an object's properties; an `optional` member may
//!   be left out), a map as its entries, an array as its items
//!   (`minItems`/`maxItems` as a repetition), `anyOf` / `oneOf` as
//!   alternatives (the branches a `when` rule is lowered to included), and
//!   a `$ref` as a rule of its own (`start` for `#`, so a recursive
//!   contract is a recursive rule), written once for all its uses. The
//!   punctuation written out is compact (`{"a":..,"b":..}`, as a model held
//!   to the grammar writes it); every other schema is `%json {..}` (with
//!   the definitions it refers to as its `$defs`), inside which
//!   llguidance's JSON whitespace rules apply. An `evidence` member's value
//!   is one lexeme, `"` + a substring of the source + `"`, the substring
//!   taken over the source's characters *as they appear JSON-escaped*
//!   (`%regex {"substring_chunks": [..]}`, one chunk per character: `\"`,
//!   `\\`, `\n`, `\u0001`, or the character itself, non-ASCII included), so
//!   an escape is never cut in two; `null` as well where the member is an
//!   `Option`. This holds for the contract's own `evidence` members and for
//!   those of every contract it holds, at any depth (`Option`, `Vec`, maps,
//!   a union's variants, recursion).
//!
//! What stays local: an empty or whitespace-only quote is a substring of
//! every text (the business stage refuses it, `evidence_not_found`), an
//! `evidence` member's own length or pattern, and a quote written with
//! other escapes than the source's JSON form (`\u00e9` for `é`), which the
//! grammar does not offer. A schema on the way to an `evidence` member with
//! a keyword the grammar cannot write out exactly (`uniqueItems`,
//! `minProperties`, `not`, ...; none that the derive writes) is
//! [`ExportError::Unsupported`] at its pointer in the export.
use serde_json::{Map, Value, json};

use super::provider::{Export, ExportError, Provider};

const UNSUPPORTED: &str = "the grammar writes `evidence` members as substrings of the source only below objects, maps, arrays, `anyOf`/`oneOf` and `$ref`s, and this keyword is none of them: bind the contract without `grammar_with`";

/// Keywords that constrain nothing (annotations), beside any `x-` one.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "default",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// The grammar of `export` (a bound Local export) with the `evidence`
/// members at `evidence` (pointers into the export's schema) taken from
/// `source`.
pub fn grammar(
    export: &Export,
    evidence: &[&str],
    source: Option<&str>,
) -> Result<String, ExportError> {
    grammar_of(export, &export.schema, evidence, source)
}

/// [`grammar`] with the `evidence` pointers into `full`, the contract's full
/// schema, which the export follows but for the branches a `when` rule is
/// lowered to (and an `Option`'s `anyOf`): a step the export takes that
/// `full` has not, the pointer into `full` stays where it is.
pub(crate) fn grammar_of(
    export: &Export,
    full: &Value,
    evidence: &[&str],
    source: Option<&str>,
) -> Result<String, ExportError> {
    let schema = &export.schema;
    let (Some(source), false) = (source, evidence.is_empty()) else {
        return Ok(format!("start: %json {}\n", compact(schema)));
    };
    let mut w = Writer {
        root: schema,
        full,
        written: vec![false; evidence.len()],
        evidence,
        rules: Vec::new(),
        extra: String::new(),
        quotes: 0,
        members: 0,
    };
    let start = w.node(schema, &Place::root())?;
    // The rules `$ref`s named, each written once (writing one may name more).
    let mut k = 0;
    while let Some(target) = w.rules.get(k).map(|(t, ..)| t.clone()) {
        let node = schema
            .pointer(&target)
            .ok_or_else(|| unsupported(&target))?;
        let place = Place {
            at: target.clone(),
            full: target,
        };
        let body = w.node(node, &place)?;
        if let Some((_, name, rule)) = w.rules.get_mut(k) {
            *rule = format!("{name}: {body}\n");
        }
        k += 1;
    }
    if let Some(i) = w.written.iter().position(|written| !written) {
        return Err(unsupported(w.evidence.get(i).copied().unwrap_or_default()));
    }
    let chunks: Vec<String> = source
        .chars()
        .map(|c| {
            let quoted = compact(&json!(c.to_string()));
            quoted[1..quoted.len() - 1].to_owned()
        })
        .collect();
    let mut out = format!("start: {start}\n");
    for (_, _, rule) in &w.rules {
        out.push_str(rule);
    }
    out.push_str(&w.extra);
    out.push_str(&format!(
        "SOURCE: %regex {}\n",
        compact(&json!({ "substring_chunks": chunks }))
    ));
    Ok(out)
}

fn unsupported(pointer: &str) -> ExportError {
    ExportError::Unsupported {
        provider: Provider::Local,
        pointer: pointer.to_owned(),
        reason: UNSUPPORTED,
    }
}

/// Where a schema is: its pointer in the export, and the pointer in the
/// full schema that the `evidence` pointers are compared with.
#[derive(Clone)]
struct Place {
    at: String,
    full: String,
}

impl Place {
    fn root() -> Place {
        Place {
            at: String::new(),
            full: String::new(),
        }
    }

    /// The place of `key` below this one (`full` for the full schema: a
    /// step it does not have leaves the full pointer where it is).
    /// A union's branches are `anyOf` in one and `oneOf` in the other as
    /// the provider's rewrite has it: the same branches.
    fn child(&self, full: &Value, key: &str) -> Place {
        let step = crate::pointer::escape(key);
        let at = format!("{}/{step}", self.at);
        let same = match key {
            "anyOf" => ["anyOf", "oneOf"],
            "oneOf" => ["oneOf", "anyOf"],
            _ => [key, key],
        };
        let found = same.iter().find_map(|k| {
            let candidate = format!("{}/{}", self.full, crate::pointer::escape(k));
            full.pointer(&candidate).is_some().then_some(candidate)
        });
        Place {
            at,
            full: found.unwrap_or_else(|| self.full.clone()),
        }
    }
}

struct Writer<'a> {
    /// The export's schema, which `$ref`s point into.
    root: &'a Value,
    full: &'a Value,
    evidence: &'a [&'a str],
    /// Which `evidence` pointers were written as quotes.
    written: Vec<bool>,
    /// The rules of `$ref` targets: the target's pointer, the rule's name,
    /// and the rule (empty until written).
    rules: Vec<(String, String, String)>,
    /// The other rules and the quote terminals.
    extra: String,
    /// The quote terminals and member rules written (their names' numbers).
    quotes: usize,
    members: usize,
}

impl Writer<'_> {
    /// The Lark expression of `node`, which lies at `place`.
    fn node(&mut self, node: &Value, place: &Place) -> Result<String, ExportError> {
        let at = place.at.as_str();
        if self.evidence.contains(&place.full.as_str()) {
            for (e, written) in self.evidence.iter().zip(self.written.iter_mut()) {
                *written |= *e == place.full;
            }
            // A branch where the member can only be `null` (a `when` rule's
            // `forbid`) quotes nothing.
            if !admits(node, "string") {
                return Ok(format!("%json {}", compact(&self.with_defs(node))));
            }
            let name = format!("QUOTE_{}", self.quotes);
            self.quotes += 1;
            self.extra
                .push_str(&format!("{name}: \"\\\"\" SOURCE \"\\\"\"\n"));
            return Ok(if admits(node, "null") {
                format!("({name} | \"null\")")
            } else {
                name
            });
        }
        if !self.reaches(node, place, &mut Vec::new()) {
            return Ok(format!("%json {}", compact(&self.with_defs(node))));
        }
        let Some(map) = node.as_object() else {
            return Err(unsupported(at));
        };
        // The first keyword of `node` that is neither `allowed` nor an
        // annotation (nor the root's `$defs`), as a pointer.
        let keyword = |allowed: &[&str]| {
            let known = |k: &str| {
                allowed.contains(&k)
                    || ANNOTATIONS.contains(&k)
                    || k.starts_with("x-")
                    || (at.is_empty() && k == "$defs")
            };
            map.keys()
                .find(|k| !known(k))
                .map(|k| format!("{at}/{}", crate::pointer::escape(k)))
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            if let Some(outside) = keyword(&["$ref"]) {
                return Err(unsupported(&outside));
            }
            return self.reference(reference, at);
        }
        for union in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(union) {
                // A `type` beside the branches (a lowered `when` rule's
                // object) says what each of them says already.
                let agreed = map
                    .get("type")
                    .is_some_and(|t| branches.iter().all(|b| b.get("type") == Some(t)));
                let allowed: &[&str] = if agreed { &[union, "type"] } else { &[union] };
                if let Some(outside) = keyword(allowed) {
                    return Err(unsupported(&outside));
                }
                let branches_at = place.child(self.full, union);
                let mut alternatives = Vec::with_capacity(branches.len());
                for (i, branch) in branches.iter().enumerate() {
                    let branch_at = branches_at.child(self.full, &i.to_string());
                    alternatives.push(self.node(branch, &branch_at)?);
                }
                return Ok(format!("({})", alternatives.join(" | ")));
            }
        }
        match map.get("type").and_then(Value::as_str) {
            Some("object") => self.object(map, place, keyword),
            Some("array") => {
                if let Some(outside) = keyword(&["type", "items", "minItems", "maxItems"]) {
                    return Err(unsupported(&outside));
                }
                let Some(items) = map.get("items") else {
                    return Err(unsupported(at));
                };
                let item = self.node(items, &place.child(self.full, "items"))?;
                let count = |key: &str| map.get(key).and_then(Value::as_u64);
                let (min, max) = (count("minItems").unwrap_or(0), count("maxItems"));
                if max.is_some_and(|max| max < min) {
                    return Err(unsupported(&format!("{at}/maxItems")));
                }
                Ok(array(&item, min, max))
            }
            _ => Err(unsupported(at)),
        }
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        place: &Place,
        keyword: impl Fn(&[&str]) -> Option<String>,
    ) -> Result<String, ExportError> {
        let at = place.at.as_str();
        let entries = map
            .get("additionalProperties")
            .filter(|a| **a != json!(false));
        if let Some(entries) = entries {
            // A map: any keys (as `propertyNames` says), each with a value.
            if let Some(outside) = keyword(&["type", "additionalProperties", "propertyNames"])
                .or_else(|| {
                    map.contains_key("properties")
                        .then(|| format!("{at}/properties"))
                })
            {
                return Err(unsupported(&outside));
            }
            let mut names = map
                .get("propertyNames")
                .cloned()
                .unwrap_or_else(|| json!({}));
            if let Some(names) = names.as_object_mut() {
                names.insert("type".to_owned(), json!("string"));
            }
            let value = self.node(entries, &place.child(self.full, "additionalProperties"))?;
            let entry = format!("%json {} \":\" {value}", compact(&names));
            return Ok(format!("\"{{\" ({entry} (\",\" {entry})*)? \"}}\""));
        }
        if let Some(outside) = keyword(&["type", "properties", "required", "additionalProperties"])
        {
            return Err(unsupported(&outside));
        }
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        // Each member, `"key" ":" value`, and whether its key may be absent.
        let mut members: Vec<(String, bool)> = Vec::new();
        if let Some(properties) = map.get("properties").and_then(Value::as_object) {
            let properties_at = place.child(self.full, "properties");
            for (name, member) in properties {
                let key = lark_string(&compact(&json!(name)));
                let value = self.node(member, &properties_at.child(self.full, name))?;
                members.push((
                    format!("{key} \":\" {value}"),
                    !required.contains(&name.as_str()),
                ));
            }
        }
        if members.iter().all(|(_, optional)| !optional) {
            let members: Vec<&str> = members.iter().map(|(m, _)| m.as_str()).collect();
            return Ok(match members.is_empty() {
                true => "\"{\" \"}\"".to_owned(),
                false => format!("\"{{\" {} \"}}\"", members.join(" \",\" ")),
            });
        }
        Ok(self.some_members(&members))
    }

    /// An object whose members may be left out (`optional`), in order: each
    /// member a rule of its own; the object is one of the ways to begin
    /// (with the first member written, each optional one before it left
    /// out), every later member after a `,`, an optional one in `( )?`.
    fn some_members(&mut self, members: &[(String, bool)]) -> String {
        let names: Vec<String> = members
            .iter()
            .map(|(member, _)| {
                let name = format!("member_{}", self.members);
                self.members += 1;
                self.extra.push_str(&format!("{name}: {member}\n"));
                name
            })
            .collect();
        // `after[i]`: the members from `i` on, once one was written.
        let mut after = vec![String::new(); names.len() + 1];
        for i in (0..names.len()).rev() {
            let written = match members.get(i) {
                Some((_, true)) => format!("(\",\" {})?", names[i]),
                _ => format!("\",\" {}", names[i]),
            };
            after[i] = format!("{written} {}", after[i + 1]).trim_end().to_owned();
        }
        let mut ways = Vec::new();
        let mut may_be_empty = true;
        for (i, (name, (_, optional))) in names.iter().zip(members).enumerate() {
            ways.push(format!("{name} {}", after[i + 1]).trim_end().to_owned());
            if !optional {
                may_be_empty = false;
                break;
            }
        }
        let ways = ways.join(" | ");
        if may_be_empty {
            format!("\"{{\" ({ways})? \"}}\"")
        } else {
            format!("\"{{\" ({ways}) \"}}\"")
        }
    }

    /// `node` with the export's definitions it refers to (directly or
    /// through others) as its own `$defs`, so that its `#/$defs/..` refs
    /// resolve where it stands alone; none when it refers to none.
    fn with_defs(&self, node: &Value) -> Value {
        let mut sub = node.clone();
        let Some(defs) = self.root.get("$defs").and_then(Value::as_object) else {
            return sub;
        };
        let used = super::used_defs(node, defs);
        if let (false, Some(object)) = (used.is_empty(), sub.as_object_mut()) {
            object.insert("$defs".to_owned(), Value::Object(used));
        }
        sub
    }

    /// The rule a `$ref` names (`start` for the root).
    fn reference(&mut self, reference: &str, at: &str) -> Result<String, ExportError> {
        let Some(target) = reference.strip_prefix('#') else {
            return Err(unsupported(at));
        };
        if target.is_empty() {
            return Ok("start".to_owned());
        }
        if let Some((_, name, _)) = self.rules.iter().find(|(t, ..)| t == target) {
            return Ok(name.clone());
        }
        let name = format!("def_{}", self.rules.len());
        self.rules
            .push((target.to_owned(), name.clone(), String::new()));
        Ok(name)
    }

    /// Whether an `evidence` member is `node` (at `place`) or lies below
    /// it, through its subschemas and the `$ref`s it holds (each followed
    /// once: `seen`).
    fn reaches(&self, node: &Value, place: &Place, seen: &mut Vec<String>) -> bool {
        if self.evidence.contains(&place.full.as_str()) {
            return true;
        }
        match node {
            Value::Object(map) => map.iter().any(|(key, child)| match key.as_str() {
                "$defs" | "enum" | "const" | "default" | "examples" => false,
                "$ref" => {
                    let Some(target) = child.as_str().and_then(|r| r.strip_prefix('#')) else {
                        return false;
                    };
                    if seen.iter().any(|s| s == target) {
                        return false;
                    }
                    seen.push(target.to_owned());
                    let there = Place {
                        at: target.to_owned(),
                        full: target.to_owned(),
                    };
                    self.root
                        .pointer(target)
                        .is_some_and(|t| self.reaches(t, &there, seen))
                }
                _ => self.reaches(child, &place.child(self.full, key), seen),
            }),
            Value::Array(items) => items.iter().enumerate().any(|(i, child)| {
                self.reaches(child, &place.child(self.full, &i.to_string()), seen)
            }),
            _ => false,
        }
    }
}

/// `[` items `]`: at least `min` and at most `max` (not below `min`) of
/// `item`, comma-separated.
fn array(item: &str, min: u64, max: Option<u64>) -> String {
    // The items after the first, from `from` on (llguidance refuses a
    // repetition of at most 0: one item in all is the first alone).
    let rest = |from: u64| match max {
        Some(1) => String::new(),
        Some(max) => format!(" (\",\" {item}){{{from},{}}}", max - 1),
        None if from == 0 => format!(" (\",\" {item})*"),
        None => format!(" (\",\" {item}){{{from},}}"),
    };
    match (min, max) {
        (_, Some(0)) => "\"[\" \"]\"".to_owned(),
        (0, _) => format!("\"[\" ({item}{})? \"]\"", rest(0)),
        (min, _) => format!("\"[\" {item}{} \"]\"", rest(min - 1)),
    }
}

/// Whether the schema's `type` (or one of its `anyOf` branches') is `ty`.
fn admits(schema: &Value, ty: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) if t == ty => return true,
        Some(Value::Array(types)) if types.iter().any(|t| t == ty) => return true,
        _ => {}
    }
    schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(|b| admits(b, ty)))
}

fn compact(value: &Value) -> String {
    value.to_string()
}

/// A Lark string literal whose content is `text`.
fn lark_string(text: &str) -> String {
    compact(&json!(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(schema: Value) -> Export {
        Export {
            provider: Provider::Local,
            schema,
            dropped: Vec::new(),
            made_required: Vec::new(),
            lowered: Vec::new(),
            bound: Vec::new(),
        }
    }

    #[test]
    fn without_evidence_the_export_is_embedded() {
        let e = export(json!({"type": "object"}));
        assert_eq!(
            grammar(&e, &[], None).ok().as_deref(),
            Some("start: %json {\"type\":\"object\"}\n")
        );
    }

    #[test]
    fn the_source_is_cut_in_escaped_characters() {
        let e = export(json!({
            "type": "object",
            "properties": {"q": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
            "required": ["q"],
            "additionalProperties": false
        }));
        let g = grammar(&e, &["/properties/q"], Some("a\"\n\\é")).unwrap_or_default();
        assert!(
            g.contains(r#"start: "{" "\"q\"" ":" (QUOTE_0 | "null") "}""#),
            "{g}"
        );
        assert!(
            g.contains(r#"{"substring_chunks":["a","\\\"","\\n","\\\\","é"]}"#),
            "{g}"
        );
    }

    #[test]
    fn an_optional_member_may_be_left_out() {
        let e = export(json!({
            "type": "object",
            "properties": {"q": {"type": "string"}, "o": {"type": "string"}},
            "required": ["q"]
        }));
        let g = grammar(&e, &["/properties/q"], Some("x")).unwrap_or_default();
        assert!(
            g.starts_with("start: \"{\" (member_0 (\",\" member_1)?) \"}\"\n"),
            "{g}"
        );
        assert!(g.contains("member_0: \"\\\"q\\\"\" \":\" QUOTE_0\n"), "{g}");
        // Every member optional: the object may be empty, and begins with
        // any of them.
        let e = export(json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "q": {"type": "string"}, "b": {"type": "string"}}
        }));
        let g = grammar(&e, &["/properties/q"], Some("x")).unwrap_or_default();
        assert!(
            g.starts_with(concat!(
                "start: \"{\" (member_0 (\",\" member_1)? (\",\" member_2)? ",
                "| member_1 (\",\" member_2)? | member_2)? \"}\"\n"
            )),
            "{g}"
        );
    }

    #[test]
    fn an_array_is_its_items_within_its_bounds() {
        assert_eq!(array("x", 0, None), r#""[" (x ("," x)*)? "]""#);
        assert_eq!(array("x", 0, Some(3)), r#""[" (x ("," x){0,2})? "]""#);
        assert_eq!(array("x", 2, None), r#""[" x ("," x){1,} "]""#);
        assert_eq!(array("x", 1, Some(1)), r#""[" x "]""#);
        assert_eq!(array("x", 0, Some(1)), r#""[" (x)? "]""#);
        assert_eq!(array("x", 2, Some(2)), r#""[" x ("," x){1,1} "]""#);
        assert_eq!(array("x", 0, Some(0)), r#""[" "]""#);
    }

    fn held() -> Value {
        json!({
            "type": "object",
            "properties": {"p": {"type": "array", "items": {"$ref": "#/$defs/P"}}},
            "required": ["p"],
            "additionalProperties": false,
            "$defs": {
                "P": {
                    "type": "object",
                    "properties": {"q": {"type": "string"}, "n": {"$ref": "#/$defs/N"}},
                    "required": ["q", "n"],
                    "additionalProperties": false
                },
                "N": {"type": "integer"}
            }
        })
    }

    #[test]
    fn a_held_definition_is_a_rule_and_the_rest_is_json() {
        let g = grammar(&export(held()), &["/$defs/P/properties/q"], Some("x")).unwrap_or_default();
        assert!(
            g.starts_with(r#"start: "{" "\"p\"" ":" "[" (def_0 ("," def_0)*)? "]" "}""#),
            "{g}"
        );
        // Only the definitions a `%json` value refers to go with it.
        assert!(
            g.contains(r##"def_0: "{" "\"q\"" ":" QUOTE_0 "," "\"n\"" ":" %json {"$ref":"#/$defs/N","$defs":{"N":{"type":"integer"}}} "}""##),
            "{g}"
        );
    }

    #[test]
    fn what_the_grammar_cannot_write_exactly_is_unsupported() {
        let at = |schema: Value, evidence: &str| match grammar(
            &export(schema),
            &[evidence],
            Some("x"),
        ) {
            Err(ExportError::Unsupported { pointer, .. }) => pointer,
            other => format!("{other:?}"),
        };
        let mut unique = held();
        unique["properties"]["p"]["uniqueItems"] = json!(true);
        assert_eq!(
            at(unique, "/$defs/P/properties/q"),
            "/properties/p/uniqueItems"
        );
        // A pointer the export does not reach.
        assert_eq!(at(held(), "/$defs/Q/properties/q"), "/$defs/Q/properties/q");
        // A definition that holds no `evidence` member stays `%json`.
        assert!(grammar(&export(held()), &["/$defs/P/properties/q"], Some("x")).is_ok());
    }

    proptest::proptest! {
        // Any source: its chunks, each read back as the inside of a JSON
        // string, are its characters in order (nothing lost, no escape cut).
        #[test]
        fn the_chunks_are_the_source_json_escaped(source in "\\PC{0,40}|[\"\\\\\\x00-\\x1f\\u{7f}-\\u{10ffff}]{0,20}") {
            let e = export(held());
            let g = grammar(&e, &["/$defs/P/properties/q"], Some(&source)).unwrap_or_default();
            let line = g.lines().find(|l| l.starts_with("SOURCE: %regex ")).unwrap_or_default();
            let regex: Value = serde_json::from_str(&line["SOURCE: %regex ".len()..]).unwrap_or_default();
            let chunks = regex["substring_chunks"].as_array().cloned().unwrap_or_default();
            let mut back = String::new();
            for chunk in &chunks {
                let inside = chunk.as_str().unwrap_or_default();
                let decoded: String = serde_json::from_str(&format!("\"{inside}\"")).unwrap_or_default();
                proptest::prop_assert_eq!(decoded.chars().count(), 1, "{:?}", inside);
                back.push_str(&decoded);
            }
            proptest::prop_assert_eq!(back, source);
        }
    }
}
