//! The business stage's errors: `evidence` quotes and what a `check`
//! function returned, recorded by the generated `__business` of a contract.
use crate::code;
use crate::core::Collector;
use crate::error::{Error, Stage};
use crate::json::Path;
use crate::outcome::{Violation, ViolationKind, Violations};

/// Whether `quote` occurs verbatim in `source`.
#[inline]
pub fn evidence_found(source: &str, quote: &str) -> bool {
    source.contains(quote)
}

/// Records an `evidence` string missing from the source: a business error,
/// or a review reason when the field is quarantined.
#[cold]
#[inline(never)]
pub fn evidence_missing(cx: &mut Collector, name: &str, quarantine: bool) {
    let pointer = Path::Root.key(name).to_pointer();
    let message = "the quoted text does not occur verbatim in the source";
    if quarantine {
        cx.review(Violation::review(
            &pointer,
            code::EVIDENCE_NOT_FOUND,
            message,
        ));
    } else {
        cx.push(
            Error::new(Stage::Business, pointer, code::EVIDENCE_NOT_FOUND, message)
                .with_expected("a verbatim quote of the source text"),
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
