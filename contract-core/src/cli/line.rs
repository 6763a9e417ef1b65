//! One raw line checked: its size, UTF-8 and byte-order mark first, then
//! the contract; what checking mode does for each line, on one thread or on
//! many.
use super::checker::{Checker, Decision};
use crate::Rejection;
use crate::json::{self, Limits};

/// Checks one raw line: size, UTF-8 and byte-order mark first (without
/// holding more than the limit), then the contract.
pub fn check_line(checker: &Checker, bytes: &[u8], len: usize) -> Decision {
    let limits: Limits = checker.limits();
    if let Err(rejection) = json::check_size(len, &limits) {
        return rejected(checker, rejection);
    }
    match json::prepare(bytes, &limits) {
        Ok(text) => checker.check(text),
        Err(rejection) => rejected(checker, rejection),
    }
}

/// The decision on a line rejected before the contract saw it; in edit
/// mode it changed nothing.
fn rejected(checker: &Checker, rejection: Rejection) -> Decision {
    let mut decision = Decision::from_rejection(rejection);
    if checker.edit_mode() {
        decision.changed = Some(Vec::new());
    }
    decision
}
