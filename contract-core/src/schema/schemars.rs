//! `schemars::JsonSchema` for every contract (feature `schemars`): the
//! contract's own schema, its nested contracts in the generator's
//! definitions.
//!
//! The orphan rule forbids a blanket impl over `T: Contract`, so the derive
//! emits `__private::impl_json_schema!(Type)` for every contract; this
//! module defines that macro twice, as the impl when the feature is on and
//! as nothing when it is off, so the user's crate needs no feature of its
//! own.
//!
//! What the impl returns, for a contract `T`:
//!
//! - `schema_name()` is `T::schema_name()` (`T::NAME` unless `T` is generic; the `$defs` key [`crate::Contract::json_schema`]
//!   uses), `schema_id()` the type's module path and name;
//! - `json_schema(generator)` is the body of `T::json_schema()` (what
//!   follows `$schema` and `title`, without `$defs`); each nested contract
//!   is a `$ref` to the generator's definitions, added there once under its
//!   contract name if no definition of that name is there yet;
//! - references follow the generator's `definitions_path` (`#/$defs/…` for
//!   draft 2020-12, the default; `#/definitions/…` for draft 7;
//!   `#/components/schemas/…` for OpenAPI 3).
//!
//! So `schemars::schema_for!(T)` equals `T::json_schema()` for a contract
//! that does not contain itself: schemars adds the same `$schema` (draft
//! 2020-12) and `title` (`T::NAME`) the contract's document has. A
//! recursive contract refers to itself as `#/$defs/T` (with `T` among the
//! definitions) where its own document says `#`.
//!
//! Both traits have a `json_schema` function: with `schemars::JsonSchema`
//! in scope, `T::json_schema()` is ambiguous; write
//! `<T as Contract>::json_schema()` for the contract's document.
//!
//! Limits: definitions are named by contract name. A contract and another
//! type that schemars names alike in one generator share one definition
//! (the one added first), and two contract types of one name in different
//! modules do too; give them distinct names (`#[serde(rename)]` on one, or
//! distinct type names).
use serde_json::Value;

use super::{Definition, SchemaGen, tidy};

/// `T`'s schema for `generator`: the body, its nested contracts added to
/// the generator's definitions (see the module docs). The derived
/// `JsonSchema::json_schema` calls it.
pub fn json_schema<T: Definition>(
    generator: &mut ::schemars::SchemaGenerator,
) -> ::schemars::Schema {
    let mut defs = SchemaGen::default();
    let mut body = tidy(T::body(&mut defs));
    let path = generator.settings().definitions_path.to_string();
    let target = format!("#{}/", path.trim_start_matches('#'));
    let retarget = target != "#/$defs/";
    if retarget {
        retarget_refs(&mut body, &target);
    }
    let definitions = generator.definitions_mut();
    for (name, mut def) in defs.defs {
        if retarget {
            retarget_refs(&mut def, &target);
        }
        definitions.entry(name).or_insert(def);
    }
    ::schemars::Schema::try_from(body).unwrap_or_default()
}

// `#/$defs/NAME` references rewritten to `TARGET` + `NAME`.
fn retarget_refs(value: &mut Value, target: &str) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(r) if key == "$ref" => {
                        if let Some(name) = r.strip_prefix("#/$defs/") {
                            *r = format!("{target}{name}");
                        }
                    }
                    other => retarget_refs(other, target),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| retarget_refs(v, target)),
        _ => {}
    }
}

// `impl schemars::JsonSchema for $ty`; without the feature, the one in
// `schema/mod.rs` expands to nothing.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($ty:ident, [$($impl_generics:tt)*], [$($ty_generics:tt)*], [$($where_clause:tt)*]) => {
        #[automatically_derived]
        impl $($impl_generics)* $crate::__private::schemars::JsonSchema
            for $ty $($ty_generics)* $($where_clause)*
        {
            fn schema_name() -> $crate::__private::Cow<'static, str> {
                <Self as $crate::__private::Contract>::schema_name()
            }

            fn schema_id() -> $crate::__private::Cow<'static, str> {
                $crate::__private::Cow::Owned(::std::format!(
                    "{}::{}",
                    ::core::module_path!(),
                    <Self as $crate::__private::Contract>::schema_name()
                ))
            }

            fn json_schema(
                generator: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::schemars_json_schema::<Self>(generator)
            }
        }
    };
}
