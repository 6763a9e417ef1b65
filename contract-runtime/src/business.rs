//! The business stage's errors: `evidence` quotes and what a `check`
//! function returned, recorded by the generated `__business` of a contract.
use crate::code;
use crate::core::Collector;
use crate::error::{Error, Stage};
use crate::json::Path;
use crate::outcome::{Violation, ViolationKind, Violations};

/// Checks an `evidence` string against the source text; `false` (and an
/// error, or a review reason when the field is quarantined) when it is no
/// evidence. An empty or whitespace-only quote is no evidence, although it
/// occurs in every text.
#[inline]
pub fn evidence(
    cx: &mut Collector,
    source: &str,
    quote: &str,
    name: &str,
    quarantine: bool,
) -> bool {
    let blank = quote.trim().is_empty();
    if !blank && source.contains(quote) {
        return true;
    }
    evidence_not_found(cx, name, quarantine, blank);
    false
}

/// Records an `evidence` string that is blank or missing from the source:
/// a business error, or a review reason when the field is quarantined.
#[cold]
#[inline(never)]
fn evidence_not_found(cx: &mut Collector, name: &str, quarantine: bool, blank: bool) {
    let pointer = Path::Root.key(name).to_pointer();
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

/// Records the violations a `check` function returned.
pub fn violations(cx: &mut Collector, violations: Violations) {
    for v in violations.0 {
        match v.kind {
            ViolationKind::Business => cx.push(
                Error::new(Stage::Business, v.pointer, v.code, v.message)
                    .with_expected("a value consistent with the application's records"),
            ),
            ViolationKind::Review => cx.review(v),
        }
    }
}
