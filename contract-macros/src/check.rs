//! Cross-attribute consistency: every rule the DSL promises to enforce at
//! compile time. Each check reports into the context and carries on, so one
//! compile shows every mistake.
use std::collections::{BTreeMap, BTreeSet};

use quote::ToTokens;

use crate::attr::{CondValue, Lit};
use crate::ctxt::Ctxt;
use crate::model::{Body, Container, Field};
use crate::ty::Ty;

pub fn check(cx: &Ctxt, cont: &Container<'_>) {
    check_serde_agreement(cx, cont);
    match &cont.data {
        Body::Struct(fields) => {
            check_misplaced_outcome_flags(cx, cont);
            check_json_names(
                cx,
                fields
                    .iter()
                    .map(|f| (f.json_name.as_str(), f.ident.to_token_stream())),
            );
            for field in fields {
                check_field(cx, cont, field);
            }
            check_when(cx, cont);
            check_order(cx, cont);
            check_outcome(cx, cont);
            check_context(cx, cont);
            check_edit(cx, cont);
        }
        Body::Enum(variants) => {
            check_struct_only(cx, cont);
            if variants.is_empty() {
                cx.error_spanned_by(cont.ident, "a contract enum needs at least one variant");
            }
            check_json_names(
                cx,
                variants
                    .iter()
                    .map(|v| (v.json_name.as_str(), v.ident.to_token_stream())),
            );
            // A variant cannot both ask for clarification and decline.
            for v in variants {
                if let (Some(_), Some(decline)) = (&v.attrs.clarify, &v.attrs.decline) {
                    cx.error_spanned_by(
                        decline,
                        "a variant is `clarify` or `decline`, not both: remove one",
                    );
                }
            }
        }
    }
}

// `#[serde(rename/rename_all)]` beside `#[contract(..)]` must name the same
// JSON, or serde and the contract would disagree on the wire format.
fn check_serde_agreement(cx: &Ctxt, cont: &Container<'_>) {
    if let (Some(ours), Some(theirs)) = (&cont.attrs.rename_all, &cont.attrs.serde_rename_all)
        && ours.value != theirs.value
    {
        cx.error_spanned_by(ours, "`rename_all` disagrees with `#[serde(rename_all)]` on this type: make them the same, or drop one (the contract reads serde's)");
    }
    let pairs: Vec<_> = match &cont.data {
        Body::Struct(fields) => fields
            .iter()
            .map(|f| (&f.attrs.rename, &f.attrs.serde_rename))
            .collect(),
        Body::Enum(variants) => variants
            .iter()
            .map(|v| (&v.attrs.rename, &v.attrs.serde_rename))
            .collect(),
    };
    for (ours, theirs) in pairs {
        if let (Some(ours), Some(theirs)) = (ours, theirs)
            && ours.value != theirs.value
        {
            cx.error_spanned_by(ours, format!(
                    "`rename = \"{}\"` disagrees with `#[serde(rename = \"{}\")]`: make them the same, or drop one (the contract reads serde's)",
                    ours.value, theirs.value
                ));
        }
    }
}

// Two members with one JSON name would make one of them unreachable.
fn check_json_names(
    cx: &Ctxt,
    names: impl Iterator<Item = (impl AsRef<str>, proc_macro2::TokenStream)>,
) {
    let mut seen = BTreeSet::new();
    for (name, tokens) in names {
        let name = name.as_ref().to_owned();
        if !seen.insert(name.clone()) {
            cx.error_spanned_by(tokens, format!("two members have the JSON name `{name}` after renaming: give one a different `rename`"));
        }
    }
}

// `clarify`/`decline` mark enum variants; on a struct they mean nothing.
fn check_misplaced_outcome_flags(cx: &Ctxt, cont: &Container<'_>) {
    for flag in &cont.attrs.misplaced {
        cx.error_spanned_by(flag, format!(
            "`{flag}` marks a variant of a contract enum, not a struct: put it on the variant (`#[contract({flag})] NeedsClarification`) and name the enum field with `outcome = FIELD`"
        ));
    }
}

// Rules, edits and context belong to structs.
fn check_struct_only(cx: &Ctxt, cont: &Container<'_>) {
    let a = &cont.attrs;
    for w in &a.whens {
        cx.error_spanned_by(&w.tokens, "`when` applies to contract structs, not enums");
    }
    for o in &a.orders {
        cx.error_spanned_by(&o.tokens, "`order` applies to contract structs, not enums");
    }
    for e in &a.edits {
        cx.error_spanned_by(&e.tokens, "`edit` applies to contract structs, not enums");
    }
    if let Some(o) = &a.outcome {
        cx.error_spanned_by(o, "`outcome` applies to contract structs: on the enum, mark variants with `clarify` / `decline`");
    }
    if let Some(c) = &a.context {
        cx.error_spanned_by(c, "`context` applies to contract structs, not enums");
    }
    if let Some(c) = &a.check {
        cx.error_spanned_by(c, "`check` applies to contract structs, not enums");
    }
    for flag in &a.misplaced {
        cx.error_spanned_by(flag, format!("`{flag}` goes on a variant, not on the enum"));
    }
}

fn check_field(cx: &Ctxt, cont: &Container<'_>, f: &Field<'_>) {
    if let Ty::Unsupported(why) = &f.kind {
        cx.error_spanned_by(f.ty, format!("unsupported field type: {why}"));
        return;
    }
    let a = &f.attrs;
    let inner = f.kind.strip_option();
    let numeric = matches!(inner, Ty::Int(_) | Ty::Float);

    // `min`/`max` are numeric bounds the field's type must be able to hold.
    for bound in [&a.min, &a.max].into_iter().flatten() {
        if !numeric {
            cx.error_spanned_by(bound, format!(
                "`min`/`max` bound numbers, and `{}` is {}; for lengths use `min_len`/`max_len`",
                f.ident, f.kind.describe()
            ));
            continue;
        }
        check_number_fits(cx, f, bound);
    }
    if let (Some(min), Some(max)) = (&a.min, &a.max)
        && numeric
        && lit_number(&min.value) > lit_number(&max.value)
    {
        cx.error_spanned_by(
            max,
            format!(
                "`max` is below `min` on `{}`: no value could pass; swap them",
                f.ident
            ),
        );
    }

    // `min_len`/`max_len` count characters of strings or items of arrays.
    for bound in [&a.min_len, &a.max_len].into_iter().flatten() {
        if !matches!(inner, Ty::String | Ty::Vec(_)) {
            cx.error_spanned_by(
                bound,
                format!(
                    "`min_len`/`max_len` apply to strings and `Vec`s, and `{}` is {}{}",
                    f.ident,
                    f.kind.describe(),
                    if numeric {
                        "; for numbers use `min`/`max`"
                    } else {
                        ""
                    }
                ),
            );
        }
    }
    if let (Some(min), Some(max)) = (&a.min_len, &a.max_len)
        && min.value > max.value
    {
        cx.error_spanned_by(
            max,
            format!(
                "`max_len` is below `min_len` on `{}`: no value could pass; swap them",
                f.ident
            ),
        );
    }

    // `equals` and `one_of` take literals of the field's own type.
    if let Some(eq) = &a.equals {
        check_literal_type(cx, f, eq, "equals");
    }
    if let Some(list) = &a.one_of {
        if list.value.is_empty() {
            cx.error_spanned_by(list, "`one_of` needs at least one value");
        }
        if !matches!(inner, Ty::String | Ty::Int(_)) {
            cx.error_spanned_by(
                list,
                format!(
                    "`one_of` applies to strings and integers, and `{}` is {}{}",
                    f.ident,
                    f.kind.describe(),
                    if matches!(inner, Ty::Contract) {
                        "; a contract enum already lists its values"
                    } else {
                        ""
                    }
                ),
            );
        } else {
            let mut seen = Vec::new();
            for lit in &list.value {
                check_literal_type(cx, f, lit, "one_of");
                if seen.contains(&&lit.value) {
                    cx.error_spanned_by(lit, "this value is listed twice in `one_of`");
                }
                seen.push(&lit.value);
            }
        }
    }

    // `optional` lets the key be absent: an `Option` becomes `None`, any
    // other type needs `default` to have a value.
    if let Some(opt) = &a.optional
        && !f.kind.is_option()
        && a.default.is_none()
    {
        cx.error_spanned_by(opt, format!(
                "`optional` on `{}`, which is not an `Option`, needs a value when the key is absent: make it `Option<..>` or add `default`",
                f.ident
            ));
    }
    if let Some(d) = &a.default {
        if a.optional.is_none() {
            cx.error_spanned_by(d, "`default` only applies to an absent key: add `optional`");
        } else if f.kind.is_option() {
            cx.error_spanned_by(
                d,
                "an `optional` `Option` is already `None` when absent: remove `default`",
            );
        }
    }

    // `evidence` quotes the source text, so it needs a string and a context.
    if let Some(ev) = &a.evidence {
        if !matches!(inner, Ty::String) {
            cx.error_spanned_by(ev, format!(
                "`evidence` checks that a string occurs in the source text, and `{}` is {}: use `String` or `Option<String>`",
                f.ident, f.kind.describe()
            ));
        }
        if cont.attrs.context.is_none() {
            cx.error_spanned_by(ev, "`evidence` needs the source text from a trusted context: add `#[contract(context = YourContext)]` to the struct and implement `contract_runtime::EvidenceSource` for it");
        }
    }

    // `quarantine` drops a failing value to `None`, so the field must be an `Option`.
    if let Some(q) = &a.quarantine
        && !f.kind.is_option()
    {
        cx.error_spanned_by(q, format!(
                "`quarantine` drops a failing value to `None`, and `{}` is not an `Option`: make it `Option<..>`",
                f.ident
            ));
    }
}

fn lit_number(lit: &Lit) -> f64 {
    match lit {
        Lit::Int(i) => *i as f64,
        Lit::Float(f) => *f,
        _ => 0.0,
    }
}

fn check_number_fits(cx: &Ctxt, f: &Field<'_>, lit: &crate::attr::SpannedLit) {
    match (f.kind.strip_option(), &lit.value) {
        (Ty::Int(t), Lit::Int(v)) if (*v < t.min || *v > t.max) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{}` cannot hold {v}: its values run from {} to {}",
                    type_name(f),
                    t.min,
                    t.max
                ),
            );
        }
        (Ty::Int(_), Lit::Int(_)) => {}
        (Ty::Int(_), other) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{}` is an integer field, and this is {}: write an integer",
                    f.ident,
                    other.kind()
                ),
            );
        }
        (Ty::Float, Lit::Int(_) | Lit::Float(_)) => {}
        (Ty::Float, other) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{}` is a float field, and this is {}: write a number",
                    f.ident,
                    other.kind()
                ),
            );
        }
        _ => {}
    }
}

fn type_name(f: &Field<'_>) -> String {
    let ty = match crate::ty::option_inner(f.ty) {
        Some(inner) => inner,
        None => f.ty,
    };
    ty.to_token_stream().to_string().replace(' ', "")
}

fn check_literal_type(cx: &Ctxt, f: &Field<'_>, lit: &crate::attr::SpannedLit, attr: &str) {
    let ok = match (f.kind.strip_option(), &lit.value) {
        (Ty::String, Lit::Str(_))
        | (Ty::Bool, Lit::Bool(_))
        | (Ty::Float, Lit::Int(_) | Lit::Float(_)) => true,
        (Ty::Int(_), Lit::Int(_)) => {
            check_number_fits(cx, f, lit);
            true
        }
        _ => false,
    };
    if !ok {
        let hint = match f.kind.strip_option() {
            Ty::String => "a string literal",
            Ty::Int(_) => "an integer literal",
            Ty::Float => "a number literal",
            Ty::Bool => "`true` or `false`",
            _ => "",
        };
        if hint.is_empty() {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{attr}` applies to strings, numbers and booleans, and `{}` is {}",
                    f.ident,
                    f.kind.describe()
                ),
            );
        } else {
            cx.error_spanned_by(
                lit,
                format!(
                    "`{attr}` on `{}` takes {hint}, and this is {}",
                    f.ident,
                    lit.value.kind()
                ),
            );
        }
    }
}

fn lookup<'c, 'a>(
    cx: &Ctxt,
    cont: &'c Container<'a>,
    ident: &syn::Ident,
    what: &str,
) -> Option<&'c Field<'a>> {
    let found = cont.field(ident);
    if found.is_none() {
        let names: Vec<String> = cont.fields().iter().map(|f| f.ident.to_string()).collect();
        cx.error_spanned_by(
            ident,
            format!(
                "{what} names `{ident}`, which is not a field of `{}`; its fields are: {}",
                cont.ident,
                names.join(", ")
            ),
        );
    }
    found
}

// `when(FIELD = VALUE, require(..), forbid(..))`: the condition's field and
// values must exist, required/forbidden fields must be nullable, and no
// field may be both required and forbidden under one condition.
fn check_when(cx: &Ctxt, cont: &Container<'_>) {
    // (condition field, value) → field → (required?, tokens)
    let mut demands: BTreeMap<
        (String, String),
        BTreeMap<String, (bool, proc_macro2::TokenStream)>,
    > = BTreeMap::new();
    for w in &cont.attrs.whens {
        let Some(cond) = lookup(cx, cont, &w.field, "`when`") else {
            continue;
        };
        check_condition_values(cx, cond, &w.values);
        for (list, required) in [(&w.require, true), (&w.forbid, false)] {
            for target in list {
                let Some(t) = lookup(
                    cx,
                    cont,
                    target,
                    if required { "`require`" } else { "`forbid`" },
                ) else {
                    continue;
                };
                if !t.kind.is_option() {
                    cx.error_spanned_by(target, format!(
                        "`{}` on `{target}`, which is never null: {}; make it `Option<..>` or drop it from the rule",
                        if required { "require" } else { "forbid" },
                        if required { "the rule could never fail" } else { "the rule could never pass" }
                    ));
                }
                for value in &w.values {
                    let key = (w.field.to_string(), value.key());
                    let entry = demands.entry(key).or_default();
                    match entry.get(&target.to_string()) {
                        Some((prev, _)) if *prev != required => {
                            cx.error_spanned_by(target, format!(
                                "`{target}` is both required and forbidden when `{}` is `{}`: no document could pass; remove one",
                                w.field,
                                value.to_token_stream().to_string().replace(' ', "")
                            ));
                        }
                        _ => {
                            entry.insert(target.to_string(), (required, target.to_token_stream()));
                        }
                    }
                }
            }
        }
    }
}

fn check_condition_values(cx: &Ctxt, cond: &Field<'_>, values: &[CondValue]) {
    let kind = cond.kind.strip_option();
    for value in values {
        match (kind, value) {
            (Ty::Contract, CondValue::Path(_)) => {} // rustc checks the variant exists
            (Ty::String, CondValue::Lit(lit)) => match (&lit.value, &cond.attrs.one_of) {
                (Lit::Str(s), Some(list)) => {
                    if !list.value.iter().any(|l| l.value == Lit::Str(s.clone())) {
                        let allowed: Vec<String> = list.value.iter().map(|l| l.tokens.to_string()).collect();
                        cx.error_spanned_by(lit, format!(
                            "\"{s}\" is not one of the values `{}` allows: {}",
                            cond.ident,
                            allowed.join(", ")
                        ));
                    }
                }
                (Lit::Str(_), None) => cx.error_spanned_by(lit, format!(
                    "a condition on the string field `{}` needs `one_of = [..]` on that field, so the value can be checked at compile time",
                    cond.ident
                )),
                _ => cx.error_spanned_by(lit, format!("`{}` is a string field: compare it with a string literal", cond.ident)),
            },
            (Ty::Bool, CondValue::Lit(lit)) if matches!(lit.value, Lit::Bool(_)) => {}
            (Ty::Int(_), CondValue::Lit(lit)) if matches!(lit.value, Lit::Int(_)) => {
                check_number_fits(cx, cond, lit);
                if let Some(list) = &cond.attrs.one_of
                    && !list.value.iter().any(|l| l.value == lit.value) {
                        cx.error_spanned_by(lit, format!("this value is not in the `one_of` of `{}`", cond.ident));
                    }
            }
            (Ty::Contract, CondValue::Lit(lit)) => cx.error_spanned_by(lit, format!(
                "`{}` is a contract enum: name a variant (`{}::Variant`), not a literal",
                cond.ident,
                type_name(cond)
            )),
            (_, value) => cx.error_spanned_by(value, format!(
                "`when` conditions compare a contract enum, a string with `one_of`, a boolean or an integer, and `{}` is {}",
                cond.ident,
                cond.kind.describe()
            )),
        }
    }
}

// `order(a <= b)`: two distinct fields of one ordered type.
fn check_order(cx: &Ctxt, cont: &Container<'_>) {
    for o in &cont.attrs.orders {
        let first = lookup(cx, cont, &o.first, "`order`");
        let second = lookup(cx, cont, &o.second, "`order`");
        let (Some(a), Some(b)) = (first, second) else {
            continue;
        };
        if a.ident == b.ident {
            cx.error_spanned_by(&o.tokens, "`order` compares two different fields");
            continue;
        }
        for f in [a, b] {
            if !f.kind.is_ordered() {
                cx.error_spanned_by(
                    &o.tokens,
                    format!(
                        "`order` needs ordered fields (numbers, strings, dates), and `{}` is {}",
                        f.ident,
                        f.kind.describe()
                    ),
                );
            }
        }
        if a.kind.is_ordered() && b.kind.is_ordered() && type_name(a) != type_name(b) {
            cx.error_spanned_by(
                &o.tokens,
                format!(
                    "`order` compares fields of one type, and `{}` is `{}` while `{}` is `{}`",
                    a.ident,
                    type_name(a),
                    b.ident,
                    type_name(b)
                ),
            );
        }
    }
}

// `outcome = FIELD`: the field must hold a contract enum (rustc confirms the
// enum derives Contract through a trait bound spanned at the attribute).
fn check_outcome(cx: &Ctxt, cont: &Container<'_>) {
    let Some(name) = &cont.attrs.outcome else {
        return;
    };
    let Some(f) = lookup(cx, cont, name, "`outcome`") else {
        return;
    };
    if !matches!(f.kind.strip_option(), Ty::Contract) {
        cx.error_spanned_by(name, format!(
            "`outcome` needs a field whose type is a contract enum (with `clarify`/`decline` variants), and `{}` is {}",
            f.ident,
            f.kind.describe()
        ));
    }
}

fn check_context(cx: &Ctxt, cont: &Container<'_>) {
    if let (Some(check), None) = (&cont.attrs.check, &cont.attrs.context) {
        cx.error_spanned_by(check, "`check` needs the trusted context it checks against: add `context = YourContext` (the function takes `(&Self, &YourContext)`)");
    }
}

/// Splits an RFC 6901 pointer into unescaped segments, or says what is wrong.
pub fn pointer_segments(pointer: &str) -> Result<Vec<String>, String> {
    if pointer.is_empty() {
        return Err(
            "the empty pointer names the whole document; a policy lists the fields it may change"
                .into(),
        );
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(format!(
            "a JSON Pointer starts with `/`: write \"/{pointer}\""
        ));
    };
    rest.split('/')
        .map(|seg| {
            let mut out = String::new();
            let mut chars = seg.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => return Err("`~` must be followed by `0` (for `~`) or `1` (for `/`) in a JSON Pointer".to_owned()),
                    }
                } else {
                    out.push(c);
                }
            }
            Ok(out)
        })
        .collect()
}

// `edit(NAME = [..])`: names unique, lists non-empty and without repeats,
// pointers well-formed and resolving to a field. The first segment is
// checked here; deeper ones through nested contract types by a `const`
// assertion in the generated code.
fn check_edit(cx: &Ctxt, cont: &Container<'_>) {
    let mut names = BTreeSet::new();
    for e in &cont.attrs.edits {
        if !names.insert(e.name.to_string()) {
            cx.error_spanned_by(
                &e.name,
                format!("two edit policies are named `{}`: rename one", e.name),
            );
        }
        if e.pointers.is_empty() {
            cx.error_spanned_by(
                &e.tokens,
                format!(
                    "edit policy `{}` allows nothing: list at least one pointer, or remove it",
                    e.name
                ),
            );
        }
        let mut seen = BTreeSet::new();
        for lit in &e.pointers {
            let pointer = lit.value();
            if !seen.insert(pointer.clone()) {
                cx.error_spanned_by(
                    lit,
                    format!("`{pointer}` is listed twice in policy `{}`", e.name),
                );
                continue;
            }
            let segments = match pointer_segments(&pointer) {
                Ok(s) => s,
                Err(why) => {
                    cx.error_spanned_by(lit, format!("malformed JSON Pointer `{pointer}`: {why}"));
                    continue;
                }
            };
            let Some(first) = segments.first() else {
                continue;
            };
            let Some(field) = cont.field_by_json_name(first) else {
                let names: Vec<&str> = cont.fields().iter().map(|f| f.json_name.as_str()).collect();
                cx.error_spanned_by(lit, format!(
                    "edit pointer `{pointer}` does not resolve: `{}` has no field `{first}`; its fields are: {}",
                    cont.ident,
                    names.join(", ")
                ));
                continue;
            };
            if segments.len() > 1 {
                match field.kind.strip_option() {
                    Ty::Contract => {} // checked through the nested type's shape
                    Ty::Vec(_) | Ty::Map(_) => cx.error_spanned_by(lit, format!(
                        "edit pointer `{pointer}` points inside `/{first}`, an {}: collections change as a whole; allow `/{first}` instead",
                        if matches!(field.kind.strip_option(), Ty::Vec(_)) { "array" } else { "object map" }
                    )),
                    _ => cx.error_spanned_by(lit, format!(
                        "edit pointer `{pointer}` does not resolve: `/{first}` is {}, which has no fields",
                        field.kind.describe()
                    )),
                }
            }
        }
    }
}
