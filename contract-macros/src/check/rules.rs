//! Container rules: `when`, `order`, `outcome`, `check`.
use std::collections::BTreeMap;

use quote::ToTokens;

use super::field::{check_number_fits, type_name};
use super::member::literal;
use crate::attr::{CondExpr, Lit, Order, When};
use crate::checked::{self, OrderRule, Outcome, WhenRule};
use crate::ctxt::Ctxt;
use crate::model::{Container, Member};
use crate::suggest;
use crate::ty::Ty;

/// The members rules may name: a struct's, or a tagged union variant's.
pub(super) struct Scope<'s, 'c> {
    /// How messages name the owner: `Refund`, `Step::CloseTicket`.
    pub owner: String,
    pub members: &'c [Member<'c>],
    /// The same members checked, one for one.
    pub checked: &'s [checked::Member<'c>],
}

// A field named by a container attribute must exist (by its Rust name).
fn lookup<'s, 'c>(
    cx: &Ctxt,
    scope: &Scope<'s, 'c>,
    ident: &syn::Ident,
    what: &str,
) -> Option<(&'c Member<'c>, &'s checked::Member<'c>)> {
    let found = scope
        .members
        .iter()
        .zip(scope.checked)
        .find(|(m, _)| m.ident == ident);
    if found.is_none() {
        let names: Vec<String> = scope.members.iter().map(|f| f.ident.to_string()).collect();
        let instead = match suggest::closest(&ident.to_string(), names.iter().map(String::as_str)) {
            Some(close) => format!("did you mean `{close}`?"),
            None => format!("its fields are: {}", names.join(", ")),
        };
        cx.error_spanned_by(
            ident,
            format!(
                "{what} names `{ident}`, which is not a field of `{}`; {instead}",
                scope.owner
            ),
        );
    }
    found
}

// `when(FIELD = VALUE, require(..), forbid(..))`: the condition's field and
// values must exist, required/forbidden fields must be nullable, and no
// field may be both required and forbidden under one condition (in one
// rule or across rules).
pub(super) fn check_when<'c>(
    cx: &Ctxt,
    scope: &Scope<'_, 'c>,
    whens: &'c [When],
) -> Vec<WhenRule<'c>> {
    let mut rules = Vec::new();
    // (condition field, value) → field → required?
    let mut demands: BTreeMap<(String, String), BTreeMap<String, bool>> = BTreeMap::new();
    for w in whens {
        let Some((cond, checked_cond)) = lookup(cx, scope, &w.field, "`when`") else {
            continue;
        };
        check_condition_values(cx, cond, &w.values);
        let mut rule = WhenRule {
            condition: checked_cond.clone(),
            values: w
                .values
                .iter()
                .map(|v| condition_value(checked_cond.kind, v))
                .collect(),
            require: Vec::new(),
            forbid: Vec::new(),
        };
        for (list, required) in [(&w.require, true), (&w.forbid, false)] {
            let what = if required { "require" } else { "forbid" };
            for target in list {
                let Some((t, checked_t)) = lookup(cx, scope, target, &format!("`{what}`")) else {
                    continue;
                };
                if required {
                    rule.require.push(checked_t.clone());
                } else {
                    rule.forbid.push(checked_t.clone());
                }
                if !t.kind.is_option() {
                    cx.error_spanned_by(target, format!(
                        "`{what}({target})`, and `{target}` is never null, so the rule could never {}: make it `Option<..>`, or remove it from the rule",
                        if required { "fail" } else { "pass" }
                    ));
                }
                let mut conflicts = Vec::new();
                for value in &w.values {
                    let key = (w.field.to_string(), value.key());
                    let entry = demands.entry(key).or_default();
                    match entry.get(&target.to_string()) {
                        Some(prev) if *prev != required => {
                            conflicts.push(value.to_token_stream().to_string().replace(' ', ""))
                        }
                        _ => {
                            entry.insert(target.to_string(), required);
                        }
                    }
                }
                if !conflicts.is_empty() {
                    cx.error_spanned_by(target, format!(
                        "`{target}` is both required and forbidden when `{}` is {}: no document could pass; remove one of the two",
                        w.field,
                        conflicts.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(" or ")
                    ));
                }
            }
        }
        rules.push(rule);
    }
    rules
}

fn condition_value<'c>(kind: &Ty, expr: &'c CondExpr) -> checked::CondValue<'c> {
    match expr {
        CondExpr::Path(path) => checked::CondValue::Variant(path),
        CondExpr::Lit(lit) => checked::CondValue::Lit(literal(kind, &lit.value)),
    }
}

// A condition's value must be one the field can hold: a variant of its enum
// (rustc checks the variant exists), a string of its `one_of`, a boolean or
// an integer in range (and in its `one_of`, if any).
fn check_condition_values(cx: &Ctxt, cond: &Member<'_>, values: &[CondExpr]) {
    let kind = cond.kind.strip_option();
    let ident = cond.ident;
    for value in values {
        let lit = match value {
            CondExpr::Path(_) if matches!(kind, Ty::Contract) => continue,
            CondExpr::Lit(lit) => Some(lit),
            CondExpr::Path(_) => None,
        };
        match (kind, lit.map(|l| &l.value)) {
            (Ty::Contract, _) => cx.error_spanned_by(value, format!(
                "`{ident}` is a contract enum: name a variant (`{}::Variant`), not a literal",
                type_name(cond)
            )),
            (Ty::String, Some(Lit::Str(s))) => match &cond.attrs.one_of {
                Some(list) if !list.value.iter().any(|l| l.value == Lit::Str(s.clone())) => {
                    let allowed: Vec<String> = list.value.iter().map(|l| l.tokens.to_string()).collect();
                    cx.error_spanned_by(value, format!(
                        "\"{s}\" is not a value `{ident}` allows: write one of its `one_of` values: {}",
                        allowed.join(", ")
                    ));
                }
                Some(_) => {}
                None => cx.error_spanned_by(value, format!(
                    "a condition on the string field `{ident}` needs `one_of = [..]` on that field, so the value can be checked at compile time: add it"
                )),
            },
            (Ty::String, _) => cx.error_spanned_by(value, format!(
                "`{ident}` is a string field: compare it with a string literal of its `one_of`"
            )),
            (Ty::Bool, Some(Lit::Bool(_))) => {}
            (Ty::Bool, _) => cx.error_spanned_by(value, format!(
                "`{ident}` is a boolean field: compare it with `true` or `false`"
            )),
            (Ty::Int(_), Some(Lit::Int(_))) => {
                let Some(lit) = lit else { continue };
                check_number_fits(cx, cond, lit);
                if let Some(list) = &cond.attrs.one_of
                    && !list.value.iter().any(|l| l.value == lit.value)
                {
                    let allowed: Vec<String> = list.value.iter().map(|l| l.tokens.to_string()).collect();
                    cx.error_spanned_by(value, format!(
                        "this is not a value `{ident}` allows: write one of its `one_of` values: {}",
                        allowed.join(", ")
                    ));
                }
            }
            (Ty::Int(_), _) => cx.error_spanned_by(value, format!(
                "`{ident}` is an integer field: compare it with an integer literal"
            )),
            _ => cx.error_spanned_by(value, format!(
                "`when` conditions test a contract enum, a string with `one_of`, a boolean or an integer, and `{ident}` is {}: state the condition on a field of one of those types",
                cond.kind.describe()
            )),
        }
    }
}

// `order(a <= b)`: two distinct fields of one ordered type.
pub(super) fn check_order<'c>(
    cx: &Ctxt,
    scope: &Scope<'_, 'c>,
    orders: &'c [Order],
) -> Vec<OrderRule<'c>> {
    let mut rules = Vec::new();
    for o in orders {
        let first = lookup(cx, scope, &o.first, "`order`");
        let second = lookup(cx, scope, &o.second, "`order`");
        let (Some((a, checked_a)), Some((b, checked_b))) = (first, second) else {
            continue;
        };
        if a.ident == b.ident {
            cx.error_spanned_by(
                &o.tokens,
                "`order` compares a field with itself: name two different fields",
            );
            continue;
        }
        rules.push(OrderRule {
            first: checked_a.clone(),
            second: checked_b.clone(),
            strict: o.strict,
        });
        let kinds = (a.kind.strip_option(), b.kind.strip_option());
        match (a.kind.is_ordered(), b.kind.is_ordered()) {
            // A day has no instant: which `DateTime`s fall before
            // `2027-06-01` depends on a time zone the contract does not know.
            (true, true) if matches!(kinds, (Ty::Date, Ty::DateTime) | (Ty::DateTime, Ty::Date)) => cx.error_spanned_by(
                &o.tokens,
                format!(
                    "`order` cannot compare a `Date` with a `DateTime`: a day is not an instant, and which instants fall on `{}`'s day depends on a time zone; make both `Date` or both `DateTime`",
                    if matches!(kinds.0, Ty::Date) { a.ident } else { b.ident },
                ),
            ),
            (true, true) if last_segment(a) != last_segment(b) => cx.error_spanned_by(
                &o.tokens,
                format!(
                    "`order` compares two fields of one type, and `{}` is `{}` while `{}` is `{}`: order fields of the same type",
                    a.ident,
                    type_name(a),
                    b.ident,
                    type_name(b)
                ),
            ),
            (true, true) => {}
            (false, false) => cx.error_spanned_by(
                &o.tokens,
                format!(
                    "`order` compares numbers, strings or dates, and `{}` is {} and `{}` is {}: remove the rule, or order fields of those types",
                    a.ident,
                    a.kind.describe(),
                    b.ident,
                    b.kind.describe()
                ),
            ),
            (ordered_a, _) => {
                let (f, at) = if ordered_a { (b, &o.second) } else { (a, &o.first) };
                cx.error_spanned_by(
                    at,
                    format!(
                        "`order` compares numbers, strings or dates, and `{}` is {}: remove the rule, or order fields of those types",
                        f.ident,
                        f.kind.describe()
                    ),
                );
            }
        }
    }
    rules
}

/// The inner type's last path segment (`Date` for `Option<contract_runtime::Date>`).
fn last_segment(f: &Member<'_>) -> String {
    let ty = crate::ty::option_inner(f.ty).unwrap_or(f.ty);
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        other => other.to_token_stream().to_string(),
    }
}

// `outcome = FIELD`: the field must hold a contract enum (rustc confirms the
// enum derives Contract through a trait bound spanned at the attribute).
pub(super) fn check_outcome<'c>(
    cx: &Ctxt,
    cont: &'c Container<'c>,
    scope: &Scope<'_, 'c>,
) -> Option<Outcome<'c>> {
    let name = cont.attrs.outcome.as_ref()?;
    let (f, checked) = lookup(cx, scope, name, "`outcome`")?;
    if !matches!(f.kind.strip_option(), Ty::Contract) {
        cx.error_spanned_by(name, format!(
            "`outcome` names the field holding the decision, a contract enum with `clarify`/`decline` variants, and `{}` is {}: declare such an enum (`#[derive(Contract)] enum Status {{ .. }}`) for it, or remove `outcome`",
            f.ident,
            f.kind.describe()
        ));
    }
    Some(Outcome {
        member: checked.clone(),
        at: name.span(),
    })
}

// `check` is called with the trusted context, so one must be declared.
pub(super) fn check_context(cx: &Ctxt, cont: &Container<'_>) {
    if let (Some(check), None) = (&cont.attrs.check_fn, &cont.attrs.context) {
        cx.error_spanned_by(check, "`check` needs the trusted context it checks against: add `context = YourContext` (the function takes `(&Self, &YourContext)`)");
    }
}
