//! The business stage: [`Business`], how a contract's checks reach the
//! contracts nested in it, and its errors: `evidence` quotes and what a
//! `check` function returned, recorded at the checked value's pointer.
use std::collections::BTreeMap;

use serde_json::Value;

use crate::code;
use crate::error::{Error, Stage};
use crate::json::Path;
use crate::json_type::Collector;
use crate::outcome::{Violation, ViolationKind, Violations};
use crate::schema::bound::Binding;

/// The business checks of a value found at `path` in a document checked
/// against the trusted context `C`: its `evidence` members, its `check`
/// function, then those of the contracts nested in it.
///
/// The derive implements it for every contract: for `C` = its declared
/// `context`, or, when it declares none, as a no-op for any `C` (a contract
/// without a context has no business checks of its own, and holds no
/// context for those nested in it). A contract that declares a context
/// therefore nests only contracts with the same context or none; any other
/// is a compile error at the field.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` declares a business context other than `{C}`, the context of the contract that holds it",
    label = "its business checks could not run against `{C}`",
    note = "a contract nested in one with `context = {C}` declares the same context, or none"
)]
pub trait Business<C: ?Sized> {
    /// Runs the checks, recording their errors at pointers below `path`.
    fn business_at(&mut self, ctx: &C, path: &Path<'_>, cx: &mut Collector);

    /// Adds the type's `one_of = ctx.FIELD` members, and those of the
    /// contracts it holds, to `nested`, at schema pointers below `at` that
    /// read through each nested contract as if it were inlined (see
    /// [`Nested`]). Nothing for a type without any.
    fn bindings_below(_ctx: &C, _at: &str, _nested: &mut Nested)
    where
        Self: Sized,
    {
    }
}

impl<C: ?Sized, T: Business<C>> Business<C> for Option<T> {
    #[inline]
    fn business_at(&mut self, ctx: &C, path: &Path<'_>, cx: &mut Collector) {
        if let Some(v) = self {
            v.business_at(ctx, path, cx);
        }
    }

    // An `Option`'s schema holds its value's (in `anyOf`, or beside `null`):
    // the resolution finds it.
    fn bindings_below(ctx: &C, at: &str, nested: &mut Nested) {
        T::bindings_below(ctx, at, nested);
    }
}

// A recursive contract's `Box`: the checks of the value it holds. The
// recursion is as deep as the document, which its limits bound.
impl<C: ?Sized, T: Business<C>> Business<C> for Box<T> {
    #[inline]
    fn business_at(&mut self, ctx: &C, path: &Path<'_>, cx: &mut Collector) {
        (**self).business_at(ctx, path, cx);
    }

    fn bindings_below(ctx: &C, at: &str, nested: &mut Nested) {
        T::bindings_below(ctx, at, nested);
    }
}

impl<C: ?Sized, T: Business<C>> Business<C> for Vec<T> {
    fn business_at(&mut self, ctx: &C, path: &Path<'_>, cx: &mut Collector) {
        for (i, v) in self.iter_mut().enumerate() {
            v.business_at(ctx, &path.index(i), cx);
        }
    }

    fn bindings_below(ctx: &C, at: &str, nested: &mut Nested) {
        T::bindings_below(ctx, &Nested::below(at, "/items"), nested);
    }
}

impl<C: ?Sized, T: Business<C>> Business<C> for BTreeMap<String, T> {
    fn business_at(&mut self, ctx: &C, path: &Path<'_>, cx: &mut Collector) {
        for (k, v) in self.iter_mut() {
            v.business_at(ctx, &path.key(k), cx);
        }
    }

    fn bindings_below(ctx: &C, at: &str, nested: &mut Nested) {
        T::bindings_below(ctx, &Nested::below(at, "/additionalProperties"), nested);
    }
}

/// The bound members of a contract and of the contracts it holds, as
/// [`Business::bindings_below`] finds them for `Contract::__bindings`.
///
/// A member's binding is first written at a *logical* pointer: the schema
/// path through the members that lead to it, as if each nested contract's
/// schema were inlined (`/properties/first/properties/id`,
/// `/properties/rest/items/properties/id`). [`Nested::finish`] resolves
/// each one in the full schema, following `$ref` (and an `Option`'s
/// `anyOf`), to the one place it is bound (`/$defs/Pick/properties/id`):
/// a contract's definition is shared by all its uses, so two logical
/// pointers may meet there, and the first is kept. A recursive contract is
/// entered once on each path (its `$ref` leads back to a place already
/// bound), and at most [`Nested::MAX_VISITS`] contracts in all are
/// entered: past that, the rest stay checked locally only.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Nested {
    /// The contracts entered on the path to the one being read.
    path: Vec<&'static str>,
    visits: usize,
    /// Whether a binding was found below a member, whose pointer must be
    /// resolved.
    below_a_member: bool,
    out: Vec<Binding>,
    /// Whether `evidence` members are collected ([`Nested::for_evidence`]),
    /// their pointers, and the source text they quote.
    wants_evidence: bool,
    evidence: Vec<String>,
    source: Option<String>,
}

/// The `evidence` members of a contract and of the contracts it holds (their
/// pointers into the full schema), and the source text they quote; what
/// `Contract::grammar_with` writes as substrings of the source.
#[doc(hidden)]
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub pointers: Vec<String>,
    pub source: Option<String>,
}

impl Nested {
    /// The most contracts entered while collecting one contract's bindings.
    pub const MAX_VISITS: usize = 4096;

    /// Nothing found yet.
    pub fn new() -> Self {
        Nested::default()
    }

    /// `at` followed by `suffix`.
    pub fn below(at: &str, suffix: &str) -> String {
        let mut out = String::with_capacity(at.len() + suffix.len());
        out.push_str(at);
        out.push_str(suffix);
        out
    }

    /// Nothing found yet, collecting the `evidence` members too (see
    /// [`Nested::evidence`]).
    pub fn for_evidence() -> Self {
        Nested {
            wants_evidence: true,
            ..Nested::default()
        }
    }

    /// Enters the contract `name` (its type's name); `false`, and nothing
    /// entered, when it is already on the path (recursion) or too many
    /// have been entered.
    pub fn enter(&mut self, name: &'static str) -> bool {
        if self.visits >= Self::MAX_VISITS || self.path.contains(&name) {
            return false;
        }
        self.visits += 1;
        self.path.push(name);
        true
    }

    /// Leaves the contract entered last.
    pub fn leave(&mut self) {
        self.path.pop();
    }

    /// The binding of `values` at `pointer` (the member's, in its contract's
    /// schema) below `at`.
    pub fn push(&mut self, at: &str, pointer: &'static str, values: Vec<Value>) {
        if at.is_empty() {
            self.out.push(Binding::new(pointer, values));
        } else {
            self.below_a_member = true;
            self.out
                .push(Binding::new(Nested::below(at, pointer), values));
        }
    }

    /// The `evidence` member at `pointer` (the member's, in its contract's
    /// schema) below `at`, quoting `source` (the context's source text,
    /// copied once; nothing is recorded unless [`Nested::for_evidence`]).
    pub fn evidence(&mut self, at: &str, pointer: &'static str, source: &str) {
        if !self.wants_evidence {
            return;
        }
        if self.source.is_none() {
            self.source = Some(source.to_owned());
        }
        if !at.is_empty() {
            self.below_a_member = true;
        }
        self.evidence.push(Nested::below(at, pointer));
    }

    /// The `evidence` members at their pointers into `full()`, the
    /// contract's full schema (read only when one lies below a member), each
    /// once, with the source text.
    pub fn finish_evidence(self, full: impl FnOnce() -> Value) -> Evidence {
        let mut pointers: Vec<String> = Vec::with_capacity(self.evidence.len());
        let full = self.below_a_member.then(full);
        for logical in self.evidence {
            let pointer = match &full {
                Some(full) => crate::schema::bound::resolve(full, &logical),
                None => Some(logical),
            };
            if let Some(pointer) = pointer
                && !pointers.contains(&pointer)
            {
                pointers.push(pointer);
            }
        }
        Evidence {
            pointers,
            source: self.source,
        }
    }

    /// The bindings at their pointers into `full()`, the contract's full
    /// schema (read only when a binding lies below a member).
    pub fn finish(self, full: impl FnOnce() -> Value) -> Vec<Binding> {
        if !self.below_a_member {
            return self.out;
        }
        let full = full();
        let mut out: Vec<Binding> = Vec::with_capacity(self.out.len());
        for b in self.out {
            let Some(pointer) = crate::schema::bound::resolve(&full, &b.pointer) else {
                continue;
            };
            if out.iter().any(|kept| kept.pointer == pointer) {
                continue;
            }
            out.push(Binding::new(pointer, b.values));
        }
        out
    }
}

/// Checks an `evidence` string against the source text; `false` (and an
/// error at `path`'s member `name`, or a review reason when the field is
/// quarantined) when it is no evidence. An empty or whitespace-only quote is
/// no evidence, although it occurs in every text.
#[inline]
pub fn evidence(
    cx: &mut Collector,
    path: &Path<'_>,
    source: &str,
    quote: &str,
    name: &str,
    quarantine: bool,
) -> bool {
    let blank = quote.trim().is_empty();
    if !blank && source.contains(quote) {
        return true;
    }
    evidence_not_found(cx, path, name, quarantine, blank);
    false
}

/// Records an `evidence` string that is blank or missing from the source:
/// a business error, or a review reason when the field is quarantined.
#[cold]
#[inline(never)]
fn evidence_not_found(
    cx: &mut Collector,
    path: &Path<'_>,
    name: &str,
    quarantine: bool,
    blank: bool,
) {
    let pointer = path.key(name).to_pointer();
    let message = if blank {
        "the quote is empty or only whitespace, which is no evidence"
    } else {
        "the quoted text does not occur verbatim in the source"
    };
    if quarantine {
        cx.review(Violation::review(
            &pointer,
            code::EVIDENCE_NOT_FOUND,
            message,
        ));
    } else {
        cx.push(
            Error::new(Stage::Business, pointer, code::EVIDENCE_NOT_FOUND, message)
                .with_expected("a verbatim, non-empty quote of the source text"),
        );
    }
}

/// Records the violations a `check` function returned for the value at
/// `path`: their pointers, relative to that value, are put below `path`.
pub fn violations(cx: &mut Collector, path: &Path<'_>, violations: Violations) {
    let prefix = path.to_pointer();
    for mut v in violations.0 {
        if !prefix.is_empty() {
            v.pointer.insert_str(0, &prefix);
        }
        match v.kind {
            ViolationKind::Business => cx.push(
                Error::new(Stage::Business, v.pointer, v.code, v.message)
                    .with_expected("a value consistent with the application's records"),
            ),
            ViolationKind::Review => cx.review(v),
        }
    }
}

/// Whether `value` is one of `allowed`, a field of the trusted context
/// that a member binds with `one_of = ctx.FIELD` (any collection whose
/// items compare with the member's value: `Vec<u64>`, `BTreeSet<String>`,
/// `[&str; N]`, ..).
#[inline]
pub fn bound_contains<'v, I, V>(allowed: I, value: &'v V) -> bool
where
    I: IntoIterator,
    I::Item: PartialEq<&'v V>,
    V: ?Sized,
{
    allowed.into_iter().any(|a| a == value)
}

/// Records a value that is none of its context field's values
/// (`one_of = ctx.FIELD`): a `business` error `not_in_context` at the
/// member `name` of `path` (at its item `index` for a `Vec`), unless the
/// contract's `check` function already gave a reason at that pointer (its
/// code says more than `not_in_context` does, and stands for it).
#[cold]
#[inline(never)]
pub fn not_in_context(cx: &mut Collector, path: &Path<'_>, name: &str, index: Option<usize>) {
    let member = path.key(name);
    let pointer = match index {
        Some(i) => member.index(i).pointer(),
        None => member.pointer(),
    };
    if cx.has_reason_at(&pointer) {
        return;
    }
    cx.push(
        Error::new(
            Stage::Business,
            pointer,
            code::NOT_IN_CONTEXT,
            "the value is not one of the values the application allows for this request",
        )
        .with_expected("one of the values the request allows"),
    );
}
