//! A decode of a valid document allocates nothing beyond the owned parts of
//! the result (its `String`s and `Vec` buffers), and an edit check of a large
//! candidate holds about what its decode holds (no tree of the candidate): a
//! counting global allocator proves it.
// A global allocator can only be written with `unsafe`; it forwards to the
// system allocator and counts, nothing more.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use contract_examples::settings::{self, Settings};
use contract_examples::vacation::VacationRequest;
use contract_runtime::Contract;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    // Bytes allocated and not yet freed since counting began (frees of
    // older blocks make it negative), and its highest value.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grew(bytes: isize) {
    let live = LIVE.with(|l| {
        l.set(l.get() + bytes);
        l.get()
    });
    PEAK.with(|p| p.set(p.get().max(live)));
}

fn size(bytes: usize) -> isize {
    isize::try_from(bytes).unwrap_or(isize::MAX)
}

// SAFETY: every method forwards to `System` with the caller's arguments, so
// `System`'s guarantees hold; the counters are const-initialised thread
// locals of `Copy` types, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
            grew(size(layout.size()));
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if COUNTING.with(Cell::get) {
            grew(-size(layout.size()));
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
            // The old block is live until the new one holds its bytes.
            grew(size(new_size));
            grew(-size(layout.size()));
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_of(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    COUNT.with(Cell::get)
}

/// The most bytes `f` held allocated at once.
fn peak_bytes_of(f: impl FnOnce()) -> usize {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    usize::try_from(PEAK.with(Cell::get)).unwrap_or(0)
}

/// Settings documents of exactly 1 MiB, the contract's `max_bytes`, whose
/// `channels` (or an unknown member) hold many small values: as a
/// `serde_json::Value`, each would take tens of MiB.
fn large_candidates() -> Vec<String> {
    let max = Settings::LIMITS.max_bytes;
    let head = r#"{"notifications":{"email":false},"retry_limit":3,"#;
    let shapes = [
        (r#""channels":["#, "[0],"),
        (r#""channels":["#, r#"{"a":0},"#),
        (r#""channels":["#, r#""a","#),
        (r#""channels":["email","sms"],"extra":["#, r#"{"a":0},"#),
    ];
    shapes
        .iter()
        .map(|(key, unit)| {
            let mut doc = format!("{head}{key}");
            while doc.len() + unit.len() + 2 <= max {
                doc.push_str(unit);
            }
            doc.pop();
            doc.push_str("]}");
            doc.push_str(&" ".repeat(max - doc.len()));
            doc
        })
        .collect()
}

#[test]
fn an_edit_check_of_a_large_candidate_holds_about_what_its_decode_holds() {
    let baseline: serde_json::Value = serde_json::from_str(settings::BASELINE).unwrap();
    for candidate in large_candidates() {
        assert_eq!(candidate.len(), Settings::LIMITS.max_bytes);
        let decode = peak_bytes_of(|| {
            // Valid for the `channels` of strings; rejected otherwise.
            drop(Settings::from_json(&candidate));
        });
        let edit = peak_bytes_of(|| {
            assert!(
                Settings::DISABLE_EMAIL
                    .check(&baseline, &candidate)
                    .is_err()
            );
        });
        let changed = peak_bytes_of(|| {
            let changed =
                contract_runtime::diff::changed_paths_str(&baseline, &candidate, &Settings::LIMITS)
                    .unwrap();
            assert!(changed.len() <= 2, "{changed:?}");
        });
        let shape = &candidate[..80];
        assert!(
            edit <= decode + (64 << 10),
            "{shape}: edit {edit} bytes, decode {decode}"
        );
        assert!(changed < 64 << 10, "{shape}: changed paths {changed} bytes");
    }
}

#[test]
fn a_valid_document_without_strings_allocates_nothing() {
    let raw = r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12","clarification_question":null}"#;
    let n = allocations_of(|| {
        let v = VacationRequest::from_json(raw);
        assert!(v.is_ok());
    });
    assert_eq!(n, 0);
}

#[test]
fn a_valid_document_allocates_only_its_strings() {
    let raw = r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which dates?"}"#;
    let n = allocations_of(|| {
        let v = VacationRequest::check(raw);
        assert_eq!(v.kind().as_str(), "clarify");
    });
    assert_eq!(n, 1, "one String: the question");
}

#[test]
fn an_escaped_string_allocates_its_buffer_only() {
    let raw = r#"{"status":"needs_clarification","start_date":null,"end_date":null,"clarification_question":"Which \"dates\"?"}"#;
    let n = allocations_of(|| {
        let v = VacationRequest::from_json(raw).unwrap();
        assert_eq!(
            v.clarification_question.as_deref(),
            Some("Which \"dates\"?")
        );
    });
    // The unescaped buffer becomes the field's String.
    assert_eq!(n, 1);
}

#[test]
fn a_document_with_many_errors_allocates_only_the_list_of_errors() {
    // Five schema errors at short pointers, none of them in a string that
    // would be kept: the errors' pointers and messages allocate nothing.
    let raw =
        r#"{"notifications":{"email":"no","push":true},"retry_limit":-1,"channels":[7,2,null]}"#;
    let n = allocations_of(|| {
        let rejection = Settings::from_json(raw).unwrap_err();
        assert_eq!(
            rejection.pointers(),
            [
                "/notifications/email",
                "/notifications/push",
                "/retry_limit",
                "/channels/0",
                "/channels/1",
                "/channels/2"
            ]
        );
    });
    // The `Vec` of errors, the `Vec` the channels were read into, and the
    // one `pointers()` returns.
    assert_eq!(n, 3);
}

#[test]
fn rule_errors_borrow_their_texts() {
    // Three `when` violations and an `order` one: each rule's words are
    // written once, on its first violation, then borrowed by every error.
    let raw = r#"{"status":"complete","start_date":"2027-06-12","end_date":null,"clarification_question":"Why?"}"#;
    let order = r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-01","clarification_question":null}"#;
    let first = VacationRequest::from_json(raw).unwrap_err();
    assert_eq!(first.pointers(), ["/end_date", "/clarification_question"]);
    assert_eq!(
        VacationRequest::from_json(order).unwrap_err().pointers(),
        ["/end_date"]
    );
    for doc in [raw, order] {
        let n = allocations_of(|| {
            let rejection = VacationRequest::from_json(doc).unwrap_err();
            assert!(rejection.errors.iter().all(|e| matches!(
                e.message,
                std::borrow::Cow::Borrowed(_)
            ) && matches!(
                e.expected,
                std::borrow::Cow::Borrowed(_)
            )));
            drop(rejection);
        });
        // The `Vec` of errors and the clarification question's `String`.
        assert_eq!(n, if doc == raw { 2 } else { 1 }, "{doc}");
    }
    assert_eq!(
        first.errors[0].message,
        "must not be null when `status` is `complete`"
    );
}
