//! Tool definitions bound to one request: each tool's arguments exported
//! with their `one_of = ctx.FIELD` members bound (see
//! [`crate::schema::bound`]), and how the derive finds those members for
//! a tool whose arguments may have another context than the enum's.
use std::marker::PhantomData;

use serde_json::{Map, Value};

use crate::contract::Contract;
use crate::schema::bound::{Binding, bind};
use crate::schema::{Export, ExportError, Provider, export_schema};

use super::Tool;

/// A tool's arguments type (or a union's newtype variant's struct) `T`
/// under the enum's context `C`, for the derive:
/// `(&BindingsOf::<T, C>::new()).bindings(ctx)` is `T`'s bindings
/// when `T`'s context is `C` ([`ContractBindings`]) and none otherwise
/// ([`NoBindings`], a newtype over a struct without a context).
#[doc(hidden)]
#[derive(Debug)]
pub struct BindingsOf<T: ?Sized, C: ?Sized>(PhantomData<fn(&C) -> &T>);

impl<T: ?Sized, C: ?Sized> BindingsOf<T, C> {
    /// The probe.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        BindingsOf(PhantomData)
    }
}

/// The bindings of a contract whose context is the enum's.
#[doc(hidden)]
pub trait ContractBindings<C: ?Sized> {
    /// `T::__bindings(ctx)`.
    fn bindings(&self, ctx: &C) -> Vec<Binding>;
}

impl<T: Contract<Context = C>, C: ?Sized> ContractBindings<C> for BindingsOf<T, C> {
    fn bindings(&self, ctx: &C) -> Vec<Binding> {
        T::__bindings(ctx)
    }
}

/// No bindings: the arguments' context is not the enum's.
#[doc(hidden)]
pub trait NoBindings<C: ?Sized> {
    /// Nothing.
    fn bindings(&self, ctx: &C) -> Vec<Binding>;
}

impl<T: ?Sized, C: ?Sized> NoBindings<C> for &BindingsOf<T, C> {
    fn bindings(&self, _: &C) -> Vec<Binding> {
        Vec::new()
    }
}

/// What a bound member left local says to the model, in its own
/// `description` (or, where the export moved it, the root's).
const LEFT_LOCAL: &str =
    "One of the values this request allows, too many to list here; checked when the call arrives.";

/// A tool's arguments exported for `provider` with `bindings` bound but
/// for those at a pointer of `local` (left local by the request's caps); a
/// binding left local, by those or by the provider's limits on one schema
/// (then in [`Export::dropped`]), is said in words. A binding with no
/// value is the error.
pub(super) fn export(
    tool: &Tool,
    bindings: &[Binding],
    local: &[&str],
    provider: Provider,
) -> Result<Export, ExportError> {
    if bindings.is_empty() {
        return (tool.export)(provider);
    }
    let sent: Vec<Binding> = bindings
        .iter()
        .filter(|b| !local.contains(&b.pointer.as_ref()))
        .cloned()
        .collect();
    let mut export = bind(&(tool.schema)(), &sent, provider, |schema| {
        export_schema(schema, provider)
    })?;
    for b in bindings {
        if export.bound.iter().any(|p| *p == b.pointer) {
            continue;
        }
        match export.schema.pointer_mut(&b.pointer) {
            Some(Value::Object(node)) => append(node, LEFT_LOCAL),
            _ => {
                let member = b
                    .pointer
                    .rsplit('/')
                    .find(|s| *s != "items")
                    .unwrap_or_default()
                    .replace("~1", "/")
                    .replace("~0", "~");
                if let Value::Object(root) = &mut export.schema {
                    append(
                        root,
                        &format!(
                            "{member}: one of the values this request allows, too many to list here; checked when the call arrives."
                        ),
                    );
                }
            }
        }
    }
    Ok(export)
}

// `text` as a paragraph of `node`'s description.
fn append(node: &mut Map<String, Value>, text: &str) {
    match node.get_mut("description") {
        Some(Value::String(description)) => {
            description.push_str("\n\n");
            description.push_str(text);
        }
        _ => {
            node.insert("description".into(), Value::String(text.to_owned()));
        }
    }
}
