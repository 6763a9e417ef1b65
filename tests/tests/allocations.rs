//! A decode of a valid document allocates nothing beyond the owned parts of
//! the result (its `String`s and `Vec` buffers): a counting global allocator
//! proves it.
// A global allocator can only be written with `unsafe`; it forwards to the
// system allocator and counts, nothing more.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use contract_examples::vacation::VacationRequest;
use contract_runtime::Contract;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every method forwards to `System` with the caller's arguments, so
// `System`'s guarantees hold; the counters are const-initialised thread
// locals of `Copy` types, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
        }
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            COUNT.with(|c| c.set(c.get() + 1));
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
