//! Stack room for recursive contracts.
//!
//! A recursive contract (`Box<Self>`, `Option<Box<Self>>`, `Vec<Self>`, a
//! `BTreeMap<String, Self>`, or a cycle of contracts through one of them)
//! is decoded, encoded and checked by code that recurses once per level of
//! the value. How much stack a level takes depends on the contract (every
//! member has its slot in an unoptimised build) and on the profile, so no
//! fixed depth is safe on a fixed stack: a contract with 17 members nested
//! to [`Limits::MAX_DEPTH`](crate::Limits::MAX_DEPTH) overflows a 2 MiB
//! thread in a debug build.
//!
//! Every recursion of a contract passes through `Box`, `Vec` or `BTreeMap`
//! (a type that holds itself by value has no size and is refused by rustc),
//! so their [`JsonType`](crate::json_type::JsonType) impls are where the room is
//! made: before they decode, encode or check their content they ask how
//! much of the thread's stack is left and, below [`RED_ZONE`], run the
//! content on a fresh [`SEGMENT`] allocated for it (`stacker`, the crate
//! rustc uses for the same purpose; the segment is freed when the content
//! returns). The question costs a thread-local read, a read of the stack
//! pointer and a comparison, once per `Box`, `Vec` or map (not per item);
//! a decode skips it in the first [`UNCHECKED_DEPTH`] levels of a
//! document, where the documents of non-recursive contracts stay, so that
//! their decode pays nothing for it (BENCHMARKS.md, "Stack room").
//!
//! What this guarantees, and what it does not (dropping a deep value built
//! in code), is in the crate docs ("Recursive contracts and the stack"),
//! with an example that unlinks a long chain.

/// Below this much stack left, recursion continues on a new segment. It
/// must cover one level of a contract (the frames between two
/// indirections, with the leaf calls a level makes: a pattern match, a date
/// parse, recording an error): a level of the 17-member recursion test
/// contract, with errors, takes about 3.8 KiB in a debug build (measured:
/// 399 KiB of stack for 100 levels, 1153 KiB for 300), so this is room for
/// about 30 of them; a member adds tens of bytes to its struct's frame.
pub const RED_ZONE: usize = 128 * 1024;

/// The size of each segment allocated when the stack runs low.
pub const SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f`, on a new stack segment when less than [`RED_ZONE`] is left.
#[inline]
pub fn with_room<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// Documents nested less than this are decoded without asking for room.
pub const UNCHECKED_DEPTH: usize = 16;

/// [`with_room`] for a decode at nesting `depth`: shallow documents skip
/// the question.
#[inline]
pub fn with_room_at<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    if depth < UNCHECKED_DEPTH {
        f()
    } else {
        with_room(f)
    }
}
