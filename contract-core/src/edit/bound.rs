//! An edit policy's exports bound to one request: the pinned schema, the
//! JSON Patch schema and the Merge Patch schema with each member declared
//! `one_of = ctx.FIELD` that the policy lets the model write carrying the
//! context's values as an `enum`, through [`schema::bound::bind`] as every
//! bound export. A member the policy does not let the model write stays
//! pinned (the pinned schema) or absent (the patch schemas): it is not
//! bound, and none of its values leave the process.
use serde_json::Value;

use super::EditPolicy;
use crate::pipeline::Document;
use crate::pointer::{Pointer, child};
use crate::schema::bound::{self, Binding};
use crate::schema::{self, Definition, Dropped, Export, ExportError, Provider};

/// A binding the policy lets the model write: the binding, the document
/// pointer of its member (`/ticket_id`), and the rest of its schema
/// pointer below the member's schema (`""`, or `/items` for a `Vec`'s).
struct Writable {
    binding: Binding,
    member: String,
    below: &'static str,
}

/// The member a binding's schema pointer names: its document pointer and
/// what follows the member's schema (`/properties/tags/items` is `/tags`
/// and `/items`; a union variant's `/oneOf/1/properties/x` is `/x`).
fn member_of(pointer: &str) -> Option<(String, &'static str)> {
    let parsed = Pointer::parse(pointer).ok()?;
    let mut segments = parsed.segments();
    if let [first, _, rest @ ..] = segments
        && (first == "oneOf" || first == "anyOf")
    {
        segments = rest;
    }
    match segments {
        [properties, key] if properties == "properties" => Some((child("", key), "")),
        [properties, key, items] if properties == "properties" && items == "items" => {
            Some((child("", key), "/items"))
        }
        _ => None,
    }
}

impl<T: Definition + Document> EditPolicy<T> {
    /// [`EditPolicy::json_schema_for`] bound to one request: each member
    /// declared `one_of = ctx.FIELD` that the policy lets the model change
    /// carries `ctx`'s values as an `enum` (in the context's order,
    /// duplicates removed), as [`Contract::json_schema_for_with`] binds
    /// them; the members the policy pins stay pinned to `baseline`.
    /// [`Export::bound`] lists the bound members' pointers (into the full
    /// schema); a binding past the provider's enum limits stays local
    /// ([`EditPolicy::check_with`]'s `not_in_context`) and is in
    /// [`Export::dropped`]; an empty set is [`ExportError::EmptyBinding`].
    ///
    /// [`Contract::json_schema_for_with`]: crate::Contract::json_schema_for_with
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    /// use serde_json::json;
    ///
    /// struct Desk { assignees: Vec<String>, queues: Vec<String> }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(context = Desk, edit(reassign = ["/assignee"]))]
    /// struct Ticket {
    ///     #[contract(one_of = ctx.assignees)]
    ///     assignee: String,
    ///     #[contract(one_of = ctx.queues)]
    ///     queue: String,
    /// }
    ///
    /// let desk = Desk { assignees: vec!["ana".into(), "bo".into()], queues: vec!["ops".into()] };
    /// let stored = json!({"assignee": "ana", "queue": "ops"});
    /// let export = Ticket::REASSIGN.json_schema_for_with(&stored, Provider::OpenAi, &desk).unwrap();
    /// assert_eq!(export.schema["properties"]["assignee"]["enum"], json!(["ana", "bo"]));
    /// assert_eq!(export.schema["properties"]["queue"]["const"], "ops"); // pinned, not bound
    /// assert_eq!(export.bound, ["/properties/assignee"]);
    /// ```
    pub fn json_schema_for_with(
        &self,
        baseline: &Value,
        provider: Provider,
        ctx: &T::Context,
    ) -> Result<Export, ExportError> {
        let (full, _, bindings, held) = self.bound_parts(ctx);
        let mut export = bound::bind(&full, &bindings, provider, |bound| {
            self.pinned_export(bound, baseline, provider)
        })?;
        report_held(&mut export, &held);
        Ok(export)
    }

    /// [`EditPolicy::patch_schema_for`] bound to one request: each
    /// operation's `value` at a member declared `one_of = ctx.FIELD` takes
    /// only `ctx`'s values (see [`EditPolicy::json_schema_for_with`]). A
    /// binding left local is reported in [`Export::dropped`] at the `enum`
    /// of each operation's `value` it would have typed.
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    /// use serde_json::json;
    ///
    /// struct Desk { assignees: Vec<String> }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(context = Desk, edit(reassign = ["/assignee"]))]
    /// struct Ticket {
    ///     #[contract(one_of = ctx.assignees)]
    ///     assignee: String,
    ///     title: String,
    /// }
    ///
    /// let desk = Desk { assignees: vec!["ana".into(), "bo".into()] };
    /// let stored = json!({"assignee": "ana", "title": "Disk full"});
    /// let export = Ticket::REASSIGN.patch_schema_for_with(&stored, Provider::OpenAi, &desk).unwrap();
    /// let replace = &export.schema["properties"]["patch"]["items"]["anyOf"][0];
    /// assert_eq!(replace["properties"]["value"]["enum"], json!(["ana", "bo"]));
    /// assert_eq!(export.bound, ["/properties/assignee"]);
    ///
    /// // The same binding is checked on the patched document.
    /// let patch = r#"[{"op":"replace","path":"/assignee","value":"cy"}]"#;
    /// let refused = Ticket::REASSIGN.check_patch_with(&stored, patch, &desk).unwrap_err();
    /// assert_eq!(refused.errors[0].code, "not_in_context");
    /// ```
    pub fn patch_schema_for_with(
        &self,
        baseline: &Value,
        provider: Provider,
        ctx: &T::Context,
    ) -> Result<Export, ExportError> {
        let (full, writable, bindings, held) = self.bound_parts(ctx);
        let mut export = bound::bind(&full, &bindings, provider, |bound| {
            self.patch_export(bound, baseline, provider)
        })?;
        report_held(&mut export, &held);
        let values = self.patch_values(&full);
        relocate(&mut export, &writable, |w| {
            values
                .iter()
                .filter_map(|(field, value)| at_field(w, field, value))
                .collect()
        });
        Ok(export)
    }

    /// [`EditPolicy::merge_patch_schema_for`] bound to one request: each
    /// allowed member declared `one_of = ctx.FIELD` takes only `ctx`'s
    /// values, and `null` where the member is optional (see
    /// [`EditPolicy::json_schema_for_with`]).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::schema::Provider;
    /// use serde_json::json;
    ///
    /// struct Desk { assignees: Vec<String> }
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(context = Desk, edit(reassign = ["/assignee"]))]
    /// struct Ticket {
    ///     #[contract(one_of = ctx.assignees)]
    ///     assignee: String,
    ///     title: String,
    /// }
    ///
    /// let desk = Desk { assignees: vec!["ana".into(), "bo".into()] };
    /// let stored = json!({"assignee": "ana", "title": "Disk full"});
    /// let export = Ticket::REASSIGN.merge_patch_schema_for_with(&stored, Provider::Gemini, &desk).unwrap();
    /// assert_eq!(export.schema["properties"]["assignee"]["enum"], json!(["ana", "bo"]));
    /// assert!(export.schema["properties"].get("title").is_none());
    /// ```
    pub fn merge_patch_schema_for_with(
        &self,
        baseline: &Value,
        provider: Provider,
        ctx: &T::Context,
    ) -> Result<Export, ExportError> {
        let (full, writable, bindings, held) = self.bound_parts(ctx);
        let mut export = bound::bind(&full, &bindings, provider, |bound| {
            self.merge_export(bound, baseline, provider)
        })?;
        report_held(&mut export, &held);
        let paths = self.paths;
        relocate(&mut export, &writable, |w| {
            paths
                .iter()
                .filter_map(|field| at_field(w, field, &merge_member(field)?))
                .collect()
        });
        Ok(export)
    }

    /// The full schema, the bindings of `ctx` the policy lets the model
    /// write, those bindings alone (what [`bound::bind`] takes), and the
    /// pointers of the held contracts' bindings, which no edit export binds.
    fn bound_parts(&self, ctx: &T::Context) -> (Value, Vec<Writable>, Vec<Binding>, Vec<String>) {
        let all = T::bindings(ctx);
        let held = all
            .iter()
            .filter(|b| member_of(&b.pointer).is_none())
            .map(|b| b.pointer.to_string())
            .collect();
        let writable = self.writable(all);
        let bindings = writable.iter().map(|w| w.binding.clone()).collect();
        (schema::document::<T>(), writable, bindings, held)
    }

    /// The bindings whose member the policy lets the model write (its
    /// pointer or one above it is allowed; a bound member is a string, an
    /// integer, an enum or an array of them, each changed as a whole).
    fn writable(&self, bindings: Vec<Binding>) -> Vec<Writable> {
        bindings
            .into_iter()
            .filter_map(|binding| {
                let (member, below) = member_of(&binding.pointer)?;
                self.allows(&member).then_some(Writable {
                    binding,
                    member,
                    below,
                })
            })
            .collect()
    }
}

/// The pointer of `w`'s `enum` in a patch schema whose `field` (an allowed
/// document pointer) is typed at `value`: below it when the field is the
/// member, or holds it (the root).
fn at_field(w: &Writable, field: &str, value: &str) -> Option<String> {
    if field == w.member {
        Some(format!("{value}{}/enum", w.below))
    } else if field.is_empty() {
        Some(format!("{value}{}/enum", w.binding.pointer))
    } else {
        None
    }
}

/// The merge patch schema's pointer of an allowed document pointer
/// (`/a/b` is `/properties/a/properties/b`).
fn merge_member(field: &str) -> Option<String> {
    let parsed = Pointer::parse(field).ok()?;
    Some(parsed.segments().iter().fold(String::new(), |at, key| {
        child(&child(&at, "properties"), key)
    }))
}

/// The bindings of held contracts (`/$defs/Pick/properties/id`) stay local:
/// an edit export binds a member by its document pointer, and a held
/// contract's definition stands for every place it is used.
fn report_held(export: &mut Export, held: &[String]) {
    for pointer in held {
        export.dropped.push(Dropped {
            pointer: format!("{pointer}/enum"),
            keyword: "enum".to_owned(),
            enforced_by: "check_with: not_in_context (a held contract's member is not bound in an edit policy's exports)".to_owned(),
        });
    }
}

/// Each binding [`bound::bind`] left local is reported at the full
/// schema's pointer; in a patch schema it is at each place `places` gives.
fn relocate(export: &mut Export, writable: &[Writable], places: impl Fn(&Writable) -> Vec<String>) {
    let mut out = Vec::with_capacity(export.dropped.len());
    for dropped in export.dropped.drain(..) {
        let w = writable.iter().find(|w| {
            dropped.keyword == "enum" && dropped.pointer == format!("{}/enum", w.binding.pointer)
        });
        match w.map(&places) {
            Some(places) if !places.is_empty() => {
                out.extend(places.into_iter().map(|pointer| Dropped {
                    pointer,
                    ..dropped.clone()
                }));
            }
            _ => out.push(dropped),
        }
    }
    export.dropped = out;
}

#[cfg(test)]
mod tests {
    use super::member_of;

    #[test]
    fn members_of_binding_pointers() {
        assert_eq!(member_of("/properties/a"), Some(("/a".to_owned(), "")));
        assert_eq!(
            member_of("/properties/a~1b/items"),
            Some(("/a~1b".to_owned(), "/items"))
        );
        assert_eq!(
            member_of("/oneOf/2/properties/x"),
            Some(("/x".to_owned(), ""))
        );
        assert_eq!(member_of("/$defs/A/properties/x"), None);
    }
}
