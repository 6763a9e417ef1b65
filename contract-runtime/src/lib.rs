//! Declare what JSON from a language model must look like — and what it may
//! change — as a Rust type; `#[derive(Contract)]` checks the declaration at
//! compile time and generates the JSON Schema, a strict decoder, the
//! cross-field rules and the edit policies.
//!
//! ```
//! use contract_runtime::{Contract, Date, OutcomeKind};
//!
//! /// A vacation request extracted from an employee's message.
//! #[derive(Contract, Debug)]
//! #[contract(
//!     outcome = status,
//!     when(status = Status::Complete, require(start_date, end_date)),
//!     order(start_date <= end_date),
//! )]
//! struct VacationRequest {
//!     status: Status,
//!     start_date: Option<Date>,
//!     end_date: Option<Date>,
//! }
//!
//! #[derive(Contract, Debug, Clone, Copy, PartialEq)]
//! #[contract(rename_all = "snake_case")]
//! enum Status { Complete, #[contract(clarify)] NeedsClarification }
//!
//! let ok = VacationRequest::check(r#"{"status":"complete","start_date":"2027-06-01","end_date":"2027-06-12"}"#);
//! assert_eq!(ok.kind(), OutcomeKind::Accept);
//!
//! let bad = VacationRequest::check(r#"{"status":"complete","start_date":"2027-06-12","end_date":"2027-06-01"}"#);
//! let rejection = bad.rejection().unwrap();
//! assert_eq!((rejection.errors[0].pointer.as_str(), rejection.errors[0].code), ("/end_date", "order"));
//! ```
//!
//! # Tagged unions
//!
//! An enum with data is a tagged union: `#[contract(tag = "..")]` names the
//! member that says which variant an object is. Struct-like variants take
//! every field attribute, a newtype variant puts its contract struct's
//! members (and rules) beside the tag, a unit variant is the tag alone. The
//! tag may come anywhere in the object; the schema is a `oneOf` of closed
//! objects (provider exports: `anyOf`).
//!
//! ```
//! use contract_runtime::{Contract, OutcomeKind};
//!
//! /// What the assistant wants to do next.
//! #[derive(Contract, Debug, PartialEq)]
//! #[contract(tag = "action", rename_all = "snake_case")]
//! enum Step {
//!     /// Close a resolved ticket.
//!     CloseTicket { #[contract(min = 1)] ticket_id: u64 },
//!     Refund(Refund),
//!     #[contract(decline)]
//!     NoAction,
//! }
//!
//! #[derive(Contract, Debug, PartialEq)]
//! #[contract(order(refund_cents <= order_total_cents))]
//! struct Refund { refund_cents: u32, order_total_cents: u32 }
//!
//! let step = Step::from_json(r#"{"ticket_id":7,"action":"close_ticket"}"#).unwrap();
//! assert_eq!(step, Step::CloseTicket { ticket_id: 7 });
//! assert_eq!(Step::check(r#"{"action":"no_action"}"#).kind(), OutcomeKind::Decline);
//!
//! let wrong = Step::from_json(r#"{"action":"close"}"#).unwrap_err();
//! assert_eq!((wrong.errors[0].pointer.as_str(), wrong.errors[0].code), ("/action", "unknown_variant"));
//! let rule = Step::from_json(r#"{"action":"refund","refund_cents":5,"order_total_cents":4}"#).unwrap_err();
//! assert_eq!((rule.errors[0].pointer.as_str(), rule.errors[0].code), ("/order_total_cents", "order"));
//! ```
//!
//! # Patterns
//!
//! `#[contract(pattern = "..")]` on a `String` or `Option<String>` field: the
//! value must contain a match (a search, as JSON Schema's `pattern`; anchor
//! with `^` and `$`), else `pattern_mismatch` at the field's pointer. On a
//! `Vec<String>` or `Option<Vec<String>>` field every item must match, each
//! at its own pointer (`/codes/3`; schema `items.pattern`). The
//! schema carries the pattern as written; the decoder matches with
//! `regex-lite`, compiled once per field. The derive parses the pattern and
//! refuses, at the literal, what does not parse and every construct whose
//! meaning differs between our matcher and ECMA-262 (JSON Schema's dialect,
//! with the `u` flag):
//!
//! | refused | why |
//! |---|---|
//! | what does not parse, lookaround, backreferences | our matcher has neither |
//! | `\s`, `\S` | ASCII white space to us, Unicode white space to ECMA-262 |
//! | `\p{..}`, `\pL` | Unicode properties, read only with the `u` flag, other names |
//! | `(?i)`, `(?x)`, `(?s)`, `(?m)`, `(?U)`, `(?i:..)` | ECMA-262 has no inline flags |
//! | `\A`, `\z`, `\<`, `\>`, `\b{start}` | not ECMA-262: write `^`, `$`, `\b` |
//! | `(?P<n>..)`, `(?<n>..)` | a name changes nothing that matches: write `(..)` |
//! | `[[:alpha:]]`, `[a[b]]`, `[a&&b]`, `[a--b]`, `[]..]` | POSIX and nested classes, set operations, a leading `]`: read differently |
//! | `\x{..}`, `\U`, `\a`, `\#`, `\-` outside a class, `{,n}`, `^*` | not ECMA-262 syntax |
//! | `a++`, `a**`, `a{2}{3}`, `a?+` (a lazy `a+?`, `a{2}?` is kept) | "nothing to repeat" to ECMA-262 |
//! | what `regex-lite` cannot compile (`^(a{1000}){1000}$`: over its size limit) | the decoder could match nothing |
//!
//! `\d`, `\w`, `\b` and their negations are ASCII in both and kept; `.`
//! matches any character but `\n`, `\r`, U+2028 and U+2029, as in ECMA-262.
//!
//! `format = "email"` (WHATWG HTML's valid e-mail address, [`formats::is_email`])
//! and `format = "uuid"` (`8-4-4-4-12` hexadecimal, either case,
//! [`formats::is_uuid`]) apply to the same field types, with the codes
//! `invalid_email` and `invalid_uuid`. [`DateTime`] is RFC 3339 with an
//! offset (its docs state every rule).
//!
//! ```
//! use contract_runtime::{Contract, DateTime};
//!
//! #[derive(Contract, Debug)]
//! struct Parcel {
//!     #[contract(pattern = "^[A-Z]{2}-[0-9]{4}$")]
//!     code: String,
//!     #[contract(format = "uuid")]
//!     id: Option<String>,
//!     sent_at: DateTime,
//! }
//!
//! let ok = Parcel::from_json(r#"{"code":"AB-1234","id":null,"sent_at":"2027-06-01T09:30:00.5+02:00"}"#);
//! assert_eq!(ok.unwrap().sent_at.offset_minutes(), 120);
//! let bad = Parcel::from_json(r#"{"code":"AB-12345","id":"7","sent_at":"2027-06-01T09:30:00"}"#).unwrap_err();
//! let found: Vec<_> = bad.errors.iter().map(|e| (e.pointer.as_str(), e.code)).collect();
//! assert_eq!(found, [("/code", "pattern_mismatch"), ("/id", "invalid_uuid"), ("/sent_at", "invalid_date_time")]);
//! ```
//!
//! # Borrowed strings
//!
//! A contract with one lifetime (`struct Invoice<'a>`, a tagged union
//! `enum Step<'a>`) takes `&'a str` and `Cow<'a, str>` fields, also in
//! `Option`, `Vec`, `Box` and nested contracts with a lifetime, as serde's
//! `#[serde(borrow)]`: `Invoice::from_json(raw)`, `check` and `check_with`
//! borrow every string without escapes from `raw: &'a str`. A string with
//! escapes is `Cow::Owned`; in a `&str` field it is a `schema` error
//! `borrowed_string` at the value (declare the field `Cow<'a, str>`). Every
//! constraint and rule works as on a `String`; the schema, the exports and
//! `to_json` are the `String` contract's. The `'static` form
//! (`Invoice<'static>`) is the [`Contract`], for what owns its text (a
//! stream: its `Cow`s owned, a `&str` field's strings `borrowed_string`).
//! See [`BorrowedContract`] for the design and an example.
//!
//! # Public API
//!
//! At the root, what a program that declares contracts uses:
//!
//! - [`Contract`] (the trait and its derive): the entry points, `check`,
//!   `check_with`, `from_json`, `to_json`, `json_schema`,
//!   `json_schema_for`, `response_format`, `response_format_for`, `stream`, `edit_policy`,
//!   `idempotency_key`; [`EvidenceSource`], the source text `evidence`
//!   fields quote; [`Limits`], a document's size and depth bounds;
//!   [`BorrowedContract`], the same entry points for a contract with a
//!   lifetime (`&'a str`, `Cow<'a, str>` fields borrowed from the text).
//! - Decisions and errors: [`Outcome`], [`OutcomeKind`], [`Violation`],
//!   [`ViolationKind`], [`Violations`] (what a `check` function returns);
//!   [`Rejection`], [`Error`], [`Stage`]; [`Feedback`], [`FeedbackItem`]
//!   (a rejection rendered for a retry prompt).
//! - Field and value types: [`Date`], [`DateTime`] and their errors
//!   [`DateError`], [`DateTimeError`]; [`Checked`] (a contract behind
//!   serde's `Deserialize`).
//! - Edits: [`EditPolicy`], [`Edit`], [`StaleBaseline`]; [`Fingerprint`],
//!   [`IdempotencyKey`].
//! - [`Provider`]: the model provider an export is for.
//!
//! Modules, for what goes beyond one contract:
//!
//! | module | for |
//! |---|---|
//! | [`code`] | the stable error codes, to match on |
//! | [`error`] | errors as data, [`error::MAX_ERRORS`], [`error::PointerString`] (an error's pointer, inline when short) |
//! | [`json`] | the strict-JSON policy: [`json::parse`] of an untyped document |
//! | [`schema`] | provider exports ([`schema::Export`], [`schema::export_schema`]), the APIs that carry them ([`schema::Api`]), schema versions, [`schema::LOCAL_ONLY`] |
//! | [`compat`] | the changes between two versions of a schema |
//! | [`diff`] | [`diff::changed_paths`]: the pointers where two values differ |
//! | [`edit`] | edit policies and accepted edits |
//! | [`fingerprint`] | fingerprints, idempotency keys, [`fingerprint::canonical`] (RFC 8785) |
//! | [`pointer`](mod@pointer) | RFC 6901 pointers, parsed and escaped |
//! | [`formats`] | the checks of `format = "email"` and `format = "uuid"`, as functions |
//! | [`date`] | [`Date`], [`DateTime`], and conversions to `chrono`, `jiff` and `time` (features) |
//! | [`outcome`], [`feedback`] | decisions, violations; a rejection rendered for a retry prompt |
//! | [`stream`] | a document checked while the model writes it ([`stream::Stream`], [`stream::Progress`]); [`stream::sse`], the four provider APIs' event streams read into its deltas |
//! | [`tools`] | a `#[contract(tools)]` enum: one call, a batch of parallel calls, tool definitions per provider and for MCP ([`tools::Tools`], [`tools::Call`]) |
//! | [`retry`] | a bounded retry loop |
//! | [`report`] | metrics over many outcomes |
//! | `cli` (feature `cli`) | the `contract-check` command over a program's own contracts |
//!
//! Everything else (the decoder, the rule and business stages, the
//! pipeline, the reader) is the engine: private, or hidden in
//! `__private` for the derive's generated code, with no stability promise.
//! Traits generated code implements (`JsonType`, `ObjectMembers`, a
//! contract's `Business` stage, `OutcomeEnum`, the schema builder's
//! `Definition`) are reachable only there: implement [`Contract`] with the
//! derive, never by hand.
//!
//! # The stages
//!
//! 1. **parse** ([`json`]): size and depth limits, UTF-8, no byte-order mark,
//!    no NaN/Infinity, no trailing data, no lone surrogates, no duplicate keys
//!    at any depth, numbers that fit an f64. The first failure stops.
//! 2. **schema**: every declared key present (nullable ones too,
//!    unless `optional`), no unknown keys, no coercion, bounds, lengths in
//!    Unicode scalar values, `equals`, `one_of`, strict dates. Every error is
//!    collected (up to [`error::MAX_ERRORS`]).
//! 3. **rule**: `when(..)` and `order(..)`, run only on a
//!    schema-valid value; every rule runs.
//! 4. **business** ([`Contract::check_with`] only): `evidence`
//!    and the `check` function, against a trusted context the model cannot
//!    choose.
//! 5. **edit** ([`EditPolicy`]): the pointers a proposed document changed must
//!    all be in the policy.
//!
//! The module `pipeline` runs them, in this order, for every entry point.
//!
//! Errors are data ([`Error`]: stage, RFC 6901 pointer, stable code,
//! message); [`Rejection::feedback`] renders them for a retry prompt without
//! values or context; [`retry`] drives a bounded retry loop.
//!
//!
//! # Recursive contracts and the stack
//!
//! Decoding (valid or refused documents, including the
//! streaming path, whose scanner keeps its nesting on the heap and whose
//! outcome is the decoder's), encoding with `to_json`, and the cross-field
//! rules of a recursive contract do not overflow the stack at any depth
//! `max_depth` allows, in debug and release builds, on any thread with at
//! least 128 KiB of stack left when they are called (the unchecked
//! levels of a decode take about half of it: 16 levels of the 17-member
//! test contract, about 60 KiB in a debug build). `Box`, `Vec` and
//! `BTreeMap` continue on a new thread with 8 MiB of stack once the work
//! has taken 16 KiB of the caller's (module `stack`; the caller waits,
//! and a panic there continues on the caller's thread). What a contract
//! holds is plain data, `Send` and `Sync`, so it can move; a context type
//! (`check_with`'s) need not be either.
//!
//! What is not: dropping a value is the compiler's drop glue, which
//! recurses once per level and which no library can hook without a `Drop`
//! impl on the user's type. Values decoded from documents are at most
//! [`Limits::MAX_DEPTH`] deep, and dropping one
//! fits a 2 MiB thread (the recursion tests). A value built in code may be
//! deeper (a chain of 100,000 links overflows a 2 MiB thread when dropped,
//! in debug and release builds alike): unlink it first. The same holds for
//! the `serde_json::Value` that `to_json` returns (its drop glue recurses
//! too), and for the derived `Clone`, `PartialEq` and `Debug`.
//!
//! ```
//! use contract_runtime::Contract;
//!
//! #[derive(Contract)]
//! #[contract(max_depth = 1024)]
//! struct Link {
//!     label: String,
//!     next: Option<Box<Link>>,
//! }
//!
//! std::thread::Builder::new()
//!     .stack_size(2 << 20)
//!     .spawn(|| {
//!         let mut chain = Link { label: String::new(), next: None };
//!         for _ in 1..100_000 {
//!             chain = Link { label: String::new(), next: Some(Box::new(chain)) };
//!         }
//!         // Dropped one link at a time, not by recursion.
//!         let mut next = chain.next.take();
//!         while let Some(mut link) = next {
//!             next = link.next.take();
//!         }
//!     })
//!     .unwrap()
//!     .join()
//!     .unwrap();
//! ```
//!
//! # Glossary
//!
//! One name, one meaning. Public names:
//!
//! | name | what it is |
//! |---|---|
//! | [`Checked`] | a contract's value read through serde (`serde_json::from_str::<Checked<T>>`), every stage but business run |
//! | [`Contract`] | a document type declared with `#[derive(Contract)]`; its methods are the entry points |
//! | tagged union | a contract enum with data and `tag = ".."`: one object per variant, the tag a member of it |
//! | [`Pointer`](pointer::Pointer) | a parsed RFC 6901 pointer (owned segments); the string form is what errors carry |
//! | [`Error`] | one finding: stage, pointer, code, message |
//! | [`Rejection`] | every error of a refused document (never empty) |
//! | [`Violation`] | what a `check` function returns: a business error or a review reason |
//! | [`Outcome`] | the decision on a document: accept, clarify, decline, review or reject |
//! | [`Stream`](stream::Stream) | one document checked while it is written: `push` pieces, `partial`, `finish` |
//! | [`EditPolicy`] | a named allowlist of pointers an edit may change |
//! | [`Edit`] | an accepted edit: value, changed pointers, fingerprints |
//! | [`Change`](compat::Change) | one difference between two versions of a schema |
//! | format | a string field's `format = ".."` (`email`, `uuid`; checks in [`formats`]); what `contract-check` prints is its *output* format (`cli::OutputFormat`, feature `cli`) |
//! | check | a *stage* run on a document (`Contract::check`, `EditPolicy::check`); a `check` *function* is the user's business rule |
//! | diff | a comparison: [`diff::changed_paths`] of two values, [`compat::diff`] of two schemas |
//!
//! Inside the crate (what generated code names through the hidden
//! `__private` module; no stability promise):
//!
//! | name | what it is |
//! |---|---|
//! | `JsonType` (module `json_type`) | a type that can be a field: decode, encode, schema, rules |
//! | `ObjectMembers` (`json_type`) | a contract struct's members, read and written beside a tagged union's tag |
//! | `Collector` (`json_type`) | what the stages of one document record: errors (capped) and review reasons |
//! | `Checkable` (`decode`) | a field type the declared checks (bounds, lengths, `pattern`, `format`) apply to |
//! | `Format` (`decode`) | a string field's declared `format` (`email`, `uuid`) |
//! | `Document` (`pipeline`) | what the pipeline needs of a contract (limits, business stage, outcome) |
//! | `Definition`, `SchemaGen` (`schema`) | what the schema builder needs of a contract (name, body); what collects `$defs` while a schema is built |
//! | `Business` (`business`) | the business stage of a contract nested at a pointer |
//! | `OutcomeEnum` (`contract`) | a contract enum that can be a struct's `outcome` field |
//! | `Reader`, `Path` (`json`) | the strict pull scanner over the document text; a location in it while it is read (borrowed, no allocation) |
//! | `Shape` (`shape`) | a type's JSON shape, to check edit pointers at compile time |
//!
//! # Where a new thing goes
//!
//! - a field type: a `JsonType` impl in the `decode` file of its family (or
//!   a new family file there);
//! - a stage: its errors in a module of its own at the layer of `rules`,
//!   its place in the sequence in `pipeline::run`;
//! - an entry point (a stream of documents): a caller of `pipeline::run`
//!   in the contract layer; a schema keyword that one document checked
//!   while it is written ([`stream`]) should decide early: its plan and
//!   verdict there;
//! - an export: a module under [`schema`], reading the full schema;
//! - a code: a constant in [`code`] (and a row in [`error`]'s table);
//! - a public item: a line in "Public API" above; what only generated code
//!   needs goes in `__private` (`src/private.rs`), not in a public module.
//!
//! # Decisions worth knowing
//!
//! - The decoder is a purpose-built pull scanner driven by generated code,
//!   not `serde`: it must collect every error in one
//!   pass, catch duplicate keys at any depth (serde's derive refuses a
//!   repeated struct field, but a map or a `Value` keeps the last of two,
//!   and a skipped value is not looked at), and tell `7` from `7.0`.
//! - An integer literal is a valid float; a float literal is never an
//!   integer. A number that overflows f64 is a parse error; one that merely
//!   does not fit the field's type is a schema error.
//! - Outcome precedence: reject, then review (quarantined fields, review
//!   reasons), then the `outcome` field's `clarify`/`decline`, then accept.
//! - `quarantine` drops a *value failure* of the field to `None` plus a
//!   review reason: a value of the right JSON type that fails its checks (a
//!   bound, a length, `equals`, `one_of`, `pattern`, `format`, a string that
//!   is not a strict date or date-time,
//!   a number the Rust type cannot hold, such as `300` for a `u8`), an
//!   `evidence` quote that is not in the source, a review reason the `check`
//!   function gives for the field. A *structural* error still rejects, as
//!   for any other field: a wrong JSON type (`7` for a date, `[]` for a
//!   string, `7.5` or `7.0` for an integer, whose schema type is `integer`),
//!   a missing key, an unknown key. Inside a quarantined list or nested
//!   contract the same split holds at any depth: a wrong type anywhere in it
//!   rejects the document; otherwise a value failure anywhere in it drops the
//!   whole value (one review reason per failure). The `when`/`order` rules of
//!   a quarantined nested contract run after decoding and still reject.
//! - An `evidence` quote that is empty or only whitespace is no evidence
//!   (`evidence_not_found`), although it occurs in every text; surrounding
//!   whitespace is kept and must occur verbatim too.
//! - Business checks and `evidence` run for the root contract and for every
//!   contract nested in it that declares the same context (a struct or
//!   tagged union as a field, an `Option`, a `Vec` item, a map value, a
//!   newtype variant's struct), each at its own pointer
//!   (the hidden `Business` trait of module `business`); a nested contract with another context is a
//!   compile error at the field. A contract without a context passes none
//!   on: the checks of contracts nested in it do not run.
//! - Schemas, provider exports and `to_json` keep the declared field order
//!   through the default feature `preserve_order`, which turns on
//!   `serde_json`'s (a `Value` cannot keep it otherwise): providers generate
//!   keys in schema order, so a `reasoning` field declared before `answer`
//!   is written first. Cargo unifies features, so with it every
//!   `serde_json::Map` in the build keeps insertion order (an `IndexMap`);
//!   measured cost: none on `from_json`/`check` (they build no map),
//!   1.2–1.7× the instructions where a `Value` is built (`to_json`,
//!   schemas, `json::parse`), under a microsecond per small document
//!   (BENCHMARKS.md, ARCHITECTURE.md). With `default-features = false`
//!   (and no other crate of the build turning serde_json's feature on),
//!   every object of a schema, an export and `to_json` lists its members by
//!   name; so do [`Checked`]'s errors read from a `Value`, the pins of a
//!   pinned export, and a rule's fields in the exports' sentences.
//!   Decisions, codes, pointers, [`changed_paths`](diff::changed_paths) and
//!   fingerprints ([`fingerprint::canonical`] sorts keys itself) do not
//!   change.
//!
//! # Dependencies
//!
//! Two crates of this repository: `contract-macros` (the derive) and
//! `contract-core` (everything else, re-exported here at the same paths).
//! They are apart so that a clean build compiles the engine while the
//! derive and `syn` compile, instead of after them, as serde does with
//! serde_core (measured in BENCHMARKS.md); write `contract_runtime::…`,
//! never `contract_core::…`. Theirs:
//! `serde_core`/`serde_json` (schemas, values, serializing errors: serde's
//! traits from serde_core, which serde re-exports; serde_json's
//! `raw_value` feature because [`Checked`] needs the exact text of a value
//! inside a larger document, duplicate keys included; serde without its
//! derive, whose proc-macro crate would lengthen a clean build: the crate's
//! few `Serialize` impls are written out, in the derive's exact form),
//! `hmac-sha256` (the SHA-256 of fingerprints and idempotency keys, with no
//! dependencies: `sha2`'s chain cost a clean build about 2.7 s of CPU), `regex-lite` (`pattern`: linear-time
//! matching and ASCII `\d`/`\w`/`\b` as ECMA-262 has them, at a fraction of
//! `regex`'s build time and size, measured in BENCHMARKS.md), and the derive
//! (`syn`, `quote`, `proc-macro2`, `regex-syntax`). Optional features
//! `chrono`, `jiff` and `time` decode those crates' date types with the same
//! strict rule as [`Date`], and convert [`DateTime`] to and from theirs; the
//! optional feature `schemars` (schemars 1.x, without its derive) implements
//! `schemars::JsonSchema` for every contract, for the crates that take a
//! `T: JsonSchema` (module `schema::schemars`, documented on docs.rs). The
//! optional feature `cli` (module `cli`: the `contract-check` command as a
//! library over your own contracts) adds `clap`, the command-line parser
//! most Rust tools use, so the options follow the conventions people
//! expect (`--opt=value`, `--help`, `--version`).
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The crate README's Rust examples run as doctests (the repository's README
// runs from the tests crate, which is not published).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

#[doc(inline)]
pub use contract_core::*;
/// `#[derive(Contract)]`: the attributes are in the crate docs above.
pub use contract_macros::Contract;
