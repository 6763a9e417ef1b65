//! Schemas of the patches a policy allows, for a model that edits by
//! patch: [`EditPolicy::patch_schema_for`] (RFC 6902, `{"patch": [..]}`
//! whose items are exactly the allowed operations) and
//! [`EditPolicy::merge_patch_schema_for`] (RFC 7396, an object of only the
//! allowed members). Each is built as a full draft 2020-12 schema, with the
//! contract's `$defs`, then prepared for the provider by
//! [`schema::export_schema`] like any other schema; what the target cannot
//! say is listed in the [`Export`]'s `dropped`, left to
//! [`EditPolicy::check_patch`] / [`EditPolicy::check_merge_patch`].
use serde_json::{Map, Value, json};

use super::EditPolicy;
use crate::pointer::{Pointer, child, push_index};
use crate::schema::{self, Definition, Dropped, Export, ExportError, Provider};

/// A field an allowed pointer names: its schema (in the contract's full
/// schema) and whether its key may be absent.
struct Field {
    pointer: &'static str,
    schema: Value,
    optional: bool,
}

impl<T: Definition> EditPolicy<T> {
    /// The schema of the RFC 6902 patches of `baseline` this policy allows,
    /// prepared for `provider`: `{"patch": [operations]}` whose items are
    /// an `anyOf` of exactly the allowed operations — a `replace` at each
    /// allowed pointer, its `value` typed by the field's own schema, and an
    /// `add` and a `remove` too where the field is `optional`. The model
    /// cannot write a change the policy refuses.
    ///
    /// What the schema cannot say is in `dropped`, left to
    /// [`EditPolicy::check_patch`]: the contract's rules across fields
    /// (they judge the patched document), a `replace` or `remove` at a
    /// pointer `baseline` lacks (`path_not_found`), and every keyword the
    /// provider leaves out of the fields' schemas.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    /// use serde_json::json;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Notifications { email: bool }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(edit(disable_email = ["/notifications/email"]))]
    /// struct Settings { notifications: Notifications, retry_limit: u32 }
    ///
    /// let baseline = json!({"notifications": {"email": true}, "retry_limit": 3});
    /// let export = Settings::DISABLE_EMAIL.patch_schema_for(&baseline, Provider::OpenAi).unwrap();
    /// let ops = &export.schema["properties"]["patch"]["items"]["anyOf"];
    /// assert_eq!(ops[0]["properties"]["path"]["const"], "/notifications/email");
    /// assert_eq!(ops[0]["properties"]["value"], json!({"type": "boolean"}));
    /// ```
    pub fn patch_schema_for(
        &self,
        baseline: &Value,
        provider: Provider,
    ) -> Result<Export, ExportError> {
        self.patch_export(&schema::document::<T>(), baseline, provider)
    }

    /// [`EditPolicy::patch_schema_for`] of the contract's full schema
    /// `full` (as [`schema::document`] builds it, or bound to a request).
    pub(super) fn patch_export(
        &self,
        full: &Value,
        baseline: &Value,
        provider: Provider,
    ) -> Result<Export, ExportError> {
        let (doc, left) = self.patch_parts(full, baseline);
        let mut export = export_left_to(&doc, provider, "EditPolicy::check_patch")?;
        export
            .dropped
            .extend(rules_left(full, "EditPolicy::check_patch"));
        export.dropped.extend(left);
        Ok(export)
    }

    /// The draft 2020-12 schema of the RFC 6902 patches of `baseline` this
    /// policy allows, before any provider's rewrite (what
    /// [`EditPolicy::patch_schema_for`] prepares for a provider): for a
    /// validator, or `contract-check --schema NAME --edit POLICY --baseline
    /// FILE --patch` without `--provider`.
    pub fn patch_schema(&self, baseline: &Value) -> Value {
        self.patch_parts(&schema::document::<T>(), baseline).0
    }

    /// The patch schema of the contract's full schema `full`, and what it
    /// leaves to the check (operations on pointers the baseline lacks).
    fn patch_parts(&self, full: &Value, baseline: &Value) -> (Value, Vec<Dropped>) {
        let fields = fields(full, self.paths);
        let mut ops = Vec::new();
        let mut left = Vec::new();
        for field in &fields {
            let present = Pointer::parse(field.pointer)
                .ok()
                .and_then(|p| p.resolve(baseline).map(drop))
                .is_some();
            for &kind in kinds(field) {
                let mut at = "/properties/patch/items/anyOf".to_owned();
                push_index(&mut at, ops.len());
                if !present && kind != "add" {
                    left.push(Dropped {
                        pointer: child(&child(&child(&at, "properties"), "path"), "const"),
                        keyword: "const".to_owned(),
                        enforced_by: format!(
                            "EditPolicy::check_patch, edit stage: `path_not_found` at the operation's `path` (the baseline has no `{}`)",
                            field.pointer
                        ),
                    });
                }
                if kind == "remove" {
                    left.push(Dropped {
                        pointer: at.clone(),
                        keyword: "items".to_owned(),
                        enforced_by: format!(
                            "EditPolicy::check_patch, edit stage: `path_not_found` for a `replace` or `remove` of `{}` after its `remove` (the schema takes each operation alone, not their order)",
                            field.pointer
                        ),
                    });
                }
                ops.push(operation(kind, field));
            }
        }
        let body = json!({
            "type": "object",
            "properties": {"patch": {"type": "array", "items": {"anyOf": ops}}},
            "required": ["patch"],
            "additionalProperties": false,
        });
        (document(full, "Patch", body), left)
    }

    /// Where the patch schema of `full` types each operation's `value`:
    /// the allowed field's pointer, and the pointer of the operation's
    /// `value` schema (`/properties/patch/items/anyOf/0/properties/value`).
    pub(super) fn patch_values(&self, full: &Value) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let mut index = 0;
        for field in fields(full, self.paths) {
            for &kind in kinds(&field) {
                if kind != "remove" {
                    let mut at = "/properties/patch/items/anyOf".to_owned();
                    push_index(&mut at, index);
                    out.push((field.pointer, child(&child(&at, "properties"), "value")));
                }
                index += 1;
            }
        }
        out
    }

    /// The schema of the RFC 7396 merge patches this policy allows,
    /// prepared for `provider`: an object of only the allowed members,
    /// nested as their pointers are, none required (OpenAI requires every
    /// member: see the export's `made_required`), each allowed field typed
    /// by its own schema — `null` (which removes the member) only where the
    /// field is `optional`. A merge patch cannot set a member to `null`:
    /// use a JSON Patch for that.
    ///
    /// What the schema cannot say is in `dropped`, left to
    /// [`EditPolicy::check_merge_patch`]: the contract's rules across
    /// fields, a `null` inside an allowed object value (it removes that
    /// member), and every keyword the provider leaves out.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    /// use serde_json::json;
    ///
    /// #[derive(Contract, Debug)]
    /// struct Notifications { email: bool }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(edit(disable_email = ["/notifications/email"]))]
    /// struct Settings { notifications: Notifications, retry_limit: u32 }
    ///
    /// let baseline = json!({"notifications": {"email": true}, "retry_limit": 3});
    /// let export = Settings::DISABLE_EMAIL.merge_patch_schema_for(&baseline, Provider::Gemini).unwrap();
    /// let email = &export.schema["properties"]["notifications"]["properties"]["email"];
    /// assert_eq!(email["type"], "boolean");
    /// assert!(export.schema["properties"].get("retry_limit").is_none());
    /// ```
    pub fn merge_patch_schema_for(
        &self,
        baseline: &Value,
        provider: Provider,
    ) -> Result<Export, ExportError> {
        self.merge_export(&schema::document::<T>(), baseline, provider)
    }

    /// [`EditPolicy::merge_patch_schema_for`] of the contract's full schema
    /// `full` (as [`schema::document`] builds it, or bound to a request).
    pub(super) fn merge_export(
        &self,
        full: &Value,
        baseline: &Value,
        provider: Provider,
    ) -> Result<Export, ExportError> {
        let (doc, left) = self.merge_parts(full, baseline);
        let mut export = export_left_to(&doc, provider, "EditPolicy::check_merge_patch")?;
        export
            .dropped
            .extend(rules_left(full, "EditPolicy::check_merge_patch"));
        export.dropped.extend(left);
        Ok(export)
    }

    /// The draft 2020-12 schema of the RFC 7396 merge patches this policy
    /// allows, before any provider's rewrite (see
    /// [`EditPolicy::merge_patch_schema_for`]).
    pub fn merge_patch_schema(&self, baseline: &Value) -> Value {
        self.merge_parts(&schema::document::<T>(), baseline).0
    }

    fn merge_parts(&self, full: &Value, baseline: &Value) -> (Value, Vec<Dropped>) {
        let fields = fields(full, self.paths);
        let mut tree = Tree::default();
        for field in &fields {
            if let Ok(pointer) = Pointer::parse(field.pointer) {
                tree.insert(pointer.segments(), field);
            }
        }
        let mut left = Vec::new();
        let body = tree.schema("", Some(baseline), &mut left);
        (document(full, "MergePatch", body), left)
    }
}

/// The patch document's root: `body` with the contract's `$defs` (a
/// recursive root's `"#"` kept pointing at the contract's root).
fn document(full: &Value, suffix: &str, body: Value) -> Value {
    let title = full
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or("Document");
    let mut root = Map::new();
    root.insert("$schema".into(), json!(schema::DRAFT_2020_12));
    root.insert("title".into(), json!(format!("{title}{suffix}")));
    if let Value::Object(body) = body {
        root.extend(body);
    }
    if let Some(Value::Object(defs)) = full.get("$defs") {
        let used = schema::used_defs(&Value::Object(root.clone()), defs);
        if !used.is_empty() {
            root.insert("$defs".into(), Value::Object(used));
        }
    }
    let mut doc = Value::Object(root);
    schema::pin::keep_root_reachable(full, &mut doc);
    doc
}

/// `doc` exported for `provider`, every keyword left out said to be left
/// to `check` (on the patched document).
fn export_left_to(doc: &Value, provider: Provider, check: &str) -> Result<Export, ExportError> {
    let mut export = schema::export_schema(doc, provider)?;
    for dropped in &mut export.dropped {
        dropped.enforced_by = format!("{check}, on the patched document: {}", dropped.enforced_by);
    }
    Ok(export)
}

/// The contract's own rules across fields (`when` as `allOf`, the rules
/// under `x-contract-rules`): the patched document must pass them, which
/// the patch's schema cannot say.
fn rules_left(full: &Value, check: &str) -> Vec<Dropped> {
    ["allOf", schema::RULES_KEY]
        .into_iter()
        .filter(|key| full.get(*key).is_some())
        .map(|key| Dropped {
            pointer: child("", key),
            keyword: key.to_owned(),
            enforced_by: format!(
                "{check}: the contract's rules judge the patched document (`required`, `forbidden`, `order`, ...)"
            ),
        })
        .collect()
}

/// The operations a patch schema offers at a field: `replace`, and `add`
/// and `remove` where the field is optional.
fn kinds(field: &Field) -> &'static [&'static str] {
    if field.optional {
        &["replace", "add", "remove"]
    } else {
        &["replace"]
    }
}

/// One operation of a patch schema: `kind` at the field's pointer.
fn operation(kind: &str, field: &Field) -> Value {
    let mut properties = Map::new();
    properties.insert("op".into(), json!({"type": "string", "const": kind}));
    properties.insert(
        "path".into(),
        json!({"type": "string", "const": field.pointer}),
    );
    let mut required = vec![json!("op"), json!("path")];
    if kind != "remove" {
        properties.insert("value".into(), field.schema.clone());
        required.push(json!("value"));
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The fields the allowed pointers name (a pointer whose field the schema
/// does not show is left out: it is then refused, never offered).
fn fields(full: &Value, paths: &'static [&'static str]) -> Vec<Field> {
    paths
        .iter()
        .filter_map(|pointer| {
            let parsed = Pointer::parse(pointer).ok()?;
            let (schema, optional) = field_schema(full, parsed.segments())?;
            Some(Field {
                pointer,
                schema: schema.clone(),
                optional,
            })
        })
        .collect()
}

/// `schema` with its `$ref`s followed (`#` and `#/$defs/..`).
fn resolved<'v>(full: &'v Value, schema: &'v Value, hops: usize) -> Option<&'v Value> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) if hops < 64 => {
            let target = full.pointer(reference.strip_prefix('#')?)?;
            resolved(full, target, hops + 1)
        }
        Some(_) => None,
        None => Some(schema),
    }
}

/// The schema of the member `key` of an object described by `schema`
/// (through `$ref`s, nullable and union branches, a map's values), and
/// whether it may be absent.
fn member<'v>(full: &'v Value, schema: &'v Value, key: &str) -> Option<(&'v Value, bool)> {
    let schema = resolved(full, schema, 0)?;
    if let Some(found) = schema.get("properties").and_then(|p| p.get(key)) {
        let required = schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|k| k == key));
        return Some((found, !required));
    }
    for union in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = schema.get(union)
            && let Some(found) = branches.iter().find_map(|b| member(full, b, key))
        {
            return Some(found);
        }
    }
    match schema.get("additionalProperties") {
        Some(values @ Value::Object(_)) => Some((values, true)),
        _ => None,
    }
}

fn field_schema<'v>(full: &'v Value, segments: &[String]) -> Option<(&'v Value, bool)> {
    let mut at = (full, false);
    for segment in segments {
        at = member(full, at.0, segment)?;
    }
    Some(at)
}

/// `schema` without `null` among its values: a merge patch's `null`
/// removes the member instead.
fn without_null(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut map = map.clone();
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            map.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        let kept: Vec<Value> = branches
            .iter()
            .filter(|b| b.get("type").is_none_or(|t| t != "null"))
            .cloned()
            .collect();
        if let ([only], 1) = (kept.as_slice(), map.len()) {
            return only.clone();
        }
        map.insert("anyOf".into(), Value::Array(kept));
    }
    Value::Object(map)
}

/// The document pointer of a merge schema's pointer (`/properties/a/properties/b`
/// is `/a/b`).
fn document_pointer(schema_pointer: &str) -> String {
    schema_pointer.replace("/properties/", "/")
}

/// The allowed pointers as a tree of members: a leaf is a whole field.
#[derive(Default)]
struct Tree<'f> {
    leaf: Option<&'f Field>,
    members: Vec<(String, Tree<'f>)>,
}

impl<'f> Tree<'f> {
    fn insert(&mut self, segments: &[String], field: &'f Field) {
        if self.leaf.is_some() {
            return;
        }
        let Some((first, rest)) = segments.split_first() else {
            self.leaf = Some(field);
            self.members.clear();
            return;
        };
        let index = match self.members.iter().position(|(k, _)| k == first) {
            Some(i) => i,
            None => {
                self.members.push((first.clone(), Tree::default()));
                self.members.len() - 1
            }
        };
        if let Some((_, next)) = self.members.get_mut(index) {
            next.insert(rest, field);
        }
    }

    /// The merge patch schema at `at` (a pointer into the schema).
    fn schema(&self, at: &str, baseline: Option<&Value>, left: &mut Vec<Dropped>) -> Value {
        if let Some(field) = self.leaf {
            if field.schema.get("properties").is_some()
                || field.schema.get("$ref").is_some()
                || field.schema.get("anyOf").is_some()
            {
                left.push(Dropped {
                    pointer: at.to_owned(),
                    keyword: "null".to_owned(),
                    enforced_by: format!(
                        "EditPolicy::check_merge_patch: a `null` inside the value at `{}` removes that member (`missing_key` unless it is optional)",
                        field.pointer
                    ),
                });
            }
            return if field.optional {
                schema::nullable(field.schema.clone())
            } else {
                without_null(&field.schema)
            };
        }
        if !baseline.is_some_and(Value::is_object) {
            // Merged into a missing or non-object value, the patch's object
            // is the whole value: only the allowed members, so the others
            // are missing.
            left.push(Dropped {
                pointer: at.to_owned(),
                keyword: "properties".to_owned(),
                enforced_by: format!(
                    "EditPolicy::check_merge_patch: the baseline has no object at `{}`, so the merged object holds only the patch's members (`missing_key`, `change_not_allowed`)",
                    document_pointer(at)
                ),
            });
        }
        let properties: Map<String, Value> = self
            .members
            .iter()
            .map(|(key, tree)| {
                let below = child(&child(at, "properties"), key);
                let value = baseline.and_then(|b| b.get(key));
                (key.clone(), tree.schema(&below, value, left))
            })
            .collect();
        json!({
            "type": "object",
            "properties": properties,
            "additionalProperties": false,
        })
    }
}
