//! String attributes against the field's type: `pattern` and `format`.
use proc_macro2::Span;
use syn::LitStr;

use super::member::pattern_on_items;
use crate::ctxt::Ctxt;
use crate::model::Member;
use crate::pattern;
use crate::ty::Ty;

// `pattern` and `format` check a string, so the field must be a `String` or
// an `Option<String>`; `pattern` also takes a `Vec<String>` (or an
// `Option<Vec<String>>`), where every item must match (a `Vec`'s other
// attributes bound the array, not its items). A pattern must parse and
// mean the same to JSON Schema's ECMA-262 matchers (`pattern.rs`); and next
// to `equals`/`one_of`, which already close the set of values, they could
// only contradict them.
pub(super) fn check_strings(cx: &Ctxt, f: &Member<'_>) {
    let a = &f.attrs;
    let inner = f.kind.strip_option();
    let what = [
        a.pattern.as_ref().map(|p| ("pattern", p.attr().clone())),
        a.format.as_ref().map(|p| ("format", p.attr().clone())),
    ];
    for (name, attr) in what.into_iter().flatten() {
        let items_of_strings = name == "pattern" && pattern_on_items(inner);
        if !matches!(inner, Ty::String) && !items_of_strings {
            let instead = match (name, inner) {
                ("format", Ty::Vec(item)) if matches!(**item, Ty::String) => {
                    "; `format` does not apply to a `Vec`'s items: use `pattern` (which every item must match), or declare the items as a field of a contract struct"
                }
                ("pattern", Ty::Vec(_)) => {
                    "; on a `Vec`, `pattern` checks the items of a `Vec<String>` only: make the items strings, declare them as a field of a contract struct, or remove it"
                }
                (_, Ty::Date | Ty::DateTime) => "; its type already fixes its format: remove it",
                _ => "; remove it",
            };
            cx.error_spanned_by(
                &attr,
                format!(
                    "`{name}` checks a string, and `{}` is {}{instead}",
                    f.ident,
                    f.kind.describe()
                ),
            );
        } else if let Some(closed) = a
            .equals
            .as_ref()
            .map(|e| ("equals", e.attr()))
            .or(a.one_of.as_ref().map(|o| ("one_of", o.attr())))
        {
            cx.error_spanned_by(
                &attr,
                format!(
                    "`{name}` next to `{}` on `{}`: the listed values are the only ones allowed, so `{name}` could only refuse some of them; remove one of the two",
                    closed.0, f.ident
                ),
            );
        }
    }
    if let Some(p) = &a.pattern
        && let Err(refusal) = pattern::engine_form(&p.value.value())
    {
        cx.syn_error(syn::Error::new(
            span_in(&p.value, refusal.range),
            format!(
                "`pattern = {}`: {}; `contract_runtime`'s docs (Patterns) list what is refused and why",
                p.value.token(),
                refusal.message
            ),
        ));
    }
}

// The span of `range` (bytes of the pattern) inside the literal, where the
// pattern's bytes are the literal's source bytes (a raw string, or a string
// without escapes) and the compiler can point inside a literal
// (`Literal::subspan` is `None` on stable Rust today); the whole literal
// otherwise.
fn span_in(lit: &LitStr, range: std::ops::Range<usize>) -> Span {
    let token = lit.token();
    let source = token.to_string();
    let start = if let Some(raw) = source.strip_prefix('r') {
        let hashes = raw.bytes().take_while(|b| *b == b'#').count();
        Some(2 + hashes)
    } else if source.starts_with('"') && !source.contains('\\') {
        Some(1)
    } else {
        None
    };
    let end = range.end.max(range.start + 1);
    start
        .and_then(|s| token.subspan(s + range.start..s + end))
        .unwrap_or_else(|| lit.span())
}
