//! Stack room for recursive contracts.
//!
//! A recursive contract (`Box<Self>`, `Option<Box<Self>>`, `Vec<Self>`, a
//! `BTreeMap<String, Self>`, or a cycle of contracts through one of them)
//! is decoded, encoded and checked by code that recurses once per level of
//! the value. How much stack a level takes depends on the contract (every
//! member has its slot in an unoptimised build) and on the profile, so no
//! fixed depth is safe on a fixed stack: a contract with 17 members nested
//! to [`Limits::MAX_DEPTH`](crate::Limits::MAX_DEPTH) takes about 3.9 MiB
//! of stack in a debug build, and overflows a 2 MiB thread.
//!
//! Every recursion of a contract passes through `Box`, `Vec` or `BTreeMap`
//! (a type that holds itself by value has no size and is refused by rustc),
//! so their [`JsonType`](crate::json_type::JsonType) impls are where the room is
//! made: before they decode, encode or check their content they measure
//! how much stack the work has taken since it started on this thread (the
//! distance between the address of a local there and one here: no
//! `unsafe`, no platform call) and, past [`BUDGET`], run the content on a
//! new thread with a [`SEGMENT`] of stack (`std::thread::scope`, so that
//! the content borrows what it needs; the caller waits for it, and a panic
//! there continues here). On that thread the work has `SEGMENT` less
//! [`RED_ZONE`] before it moves again. The question costs a thread-local
//! read and a subtraction, once per `Box`, `Vec` or map (not per item); a
//! decode skips it in the first [`UNCHECKED_DEPTH`] levels of a document,
//! where the documents of non-recursive contracts stay, so that their
//! decode pays nothing for it (BENCHMARKS.md, "Recursive contracts").
//!
//! What moves to another thread must be sendable: every
//! [`JsonType`](crate::json_type::JsonType) is `Send + Sync` (the
//! supertraits; they are plain data), and so are the reader and the
//! collector.
//!
//! What this guarantees, and what it does not (dropping a deep value built
//! in code), is in the crate docs ("Recursive contracts and the stack"),
//! with an example that unlinks a long chain.
use std::cell::Cell;

/// How much stack the work may take on a thread it did not start itself
/// (the caller's, of unknown size) before it continues on a new one: the
/// caller needs this much room, plus the [`UNCHECKED_DEPTH`] levels and a
/// level's leaf calls, when it calls in.
pub const BUDGET: usize = 16 * 1024;

/// Room kept free at the end of a [`SEGMENT`]. It must cover one level of
/// a contract (the frames between two indirections, with the leaf calls a
/// level makes: a pattern match, a date parse, recording an error): a level
/// of the 17-member recursion test contract, with errors, takes about
/// 3.8 KiB in a debug build (measured: 399 KiB of stack for 100 levels,
/// 1153 KiB for 300), so this is room for about 30 of them; a member adds
/// tens of bytes to its struct's frame.
pub const RED_ZONE: usize = 128 * 1024;

/// The stack of each thread the work continues on.
pub const SEGMENT: usize = 8 * 1024 * 1024;

thread_local! {
    // Where the work started on this thread (the address of a local of its
    // outermost `with_room`; 0 when none runs) and how much stack it may
    // take from there.
    static ROOM: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

// The address of a local of the caller's frame: where the stack is now.
#[inline(always)]
fn here() -> usize {
    let local = 0u8;
    std::hint::black_box(&local) as *const u8 as usize
}

// Forgets where the work started when the outermost `with_room` returns
// (or unwinds), so that the next work on this thread measures afresh.
struct Started;

impl Drop for Started {
    fn drop(&mut self) {
        ROOM.set((0, 0));
    }
}

/// Runs `f`, on a new thread with a [`SEGMENT`] of stack when the work has
/// taken more than its budget of this thread's stack.
#[inline]
pub fn with_room<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let at = here();
    let (start, budget) = ROOM.get();
    if start == 0 {
        ROOM.set((at, BUDGET));
        let _started = Started;
        return f();
    }
    if start.abs_diff(at) < budget {
        return f();
    }
    elsewhere(f)
}

// `f` on a new thread, with the work's start there; in place if no thread
// can be made (the stack may then run out, as it would without this). A
// panic of `f` continues on the calling thread.
#[cold]
#[inline(never)]
fn elsewhere<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let slot = std::sync::Mutex::new(Some(f));
    let ran = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .stack_size(SEGMENT)
            .spawn_scoped(scope, || {
                ROOM.set((here(), SEGMENT - RED_ZONE));
                take(&slot).map(|f| f())
            });
        match spawned.map(|thread| thread.join()) {
            Ok(Ok(r)) => r,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            Err(_) => None,
        }
    });
    if let Some(r) = ran {
        return r;
    }
    // No thread could be made: the closure was never taken, so it is
    // still in the slot.
    match take(&slot) {
        Some(f) => f(),
        None => unreachable!("the closure runs once: on the new thread, or here"),
    }
}

// The closure out of its slot (a panic never happens while it is locked,
// so the lock is never poisoned; if it were, the closure is still there).
fn take<F>(slot: &std::sync::Mutex<Option<F>>) -> Option<F> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
}

/// Documents nested less than this are decoded without asking for room.
pub const UNCHECKED_DEPTH: usize = 16;

/// [`with_room`] for a decode at nesting `depth`: shallow documents skip
/// the question.
#[inline]
pub fn with_room_at<R: Send>(depth: usize, f: impl FnOnce() -> R + Send) -> R {
    if depth < UNCHECKED_DEPTH {
        f()
    } else {
        with_room(f)
    }
}
