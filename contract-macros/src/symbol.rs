//! The names of `#[contract(..)]` attributes.

pub const CONTRACT: &str = "contract";
pub const SERDE: &str = "serde";

// container
pub const RENAME_ALL: &str = "rename_all";
pub const MAX_BYTES: &str = "max_bytes";
pub const MAX_DEPTH: &str = "max_depth";
pub const VERSION: &str = "version";
pub const OUTCOME: &str = "outcome";
pub const WHEN: &str = "when";
pub const ORDER: &str = "order";
pub const EDIT: &str = "edit";
pub const CONTEXT: &str = "context";
pub const CHECK: &str = "check";
pub const TAG: &str = "tag";
pub const REQUIRE: &str = "require";
pub const FORBID: &str = "forbid";
pub const TOOLS: &str = "tools";
pub const MAX_CALLS: &str = "max_calls";
pub const BATCH_CHECK: &str = "batch_check";
/// Hidden: the union a tools enum is read through (its tag names a tool).
pub const TOOL_NAMES: &str = "__tool_names";

// field
pub const RENAME: &str = "rename";
pub const OPTIONAL: &str = "optional";
pub const DEFAULT: &str = "default";
pub const MIN: &str = "min";
pub const MAX: &str = "max";
pub const MIN_LEN: &str = "min_len";
pub const MAX_LEN: &str = "max_len";
pub const EQUALS: &str = "equals";
pub const ONE_OF: &str = "one_of";
pub const EVIDENCE: &str = "evidence";
pub const QUARANTINE: &str = "quarantine";
pub const PATTERN: &str = "pattern";
pub const FORMAT: &str = "format";

// variant
pub const CLARIFY: &str = "clarify";
pub const DECLINE: &str = "decline";

/// Every name, for "did you mean" hints in unknown-attribute errors.
pub const CONTAINER: &[&str] = &[
    RENAME_ALL,
    MAX_BYTES,
    MAX_DEPTH,
    VERSION,
    OUTCOME,
    WHEN,
    ORDER,
    EDIT,
    CONTEXT,
    CHECK,
    TAG,
    TOOLS,
    MAX_CALLS,
    BATCH_CHECK,
];
pub const FIELD: &[&str] = &[
    RENAME, OPTIONAL, DEFAULT, MIN, MAX, MIN_LEN, MAX_LEN, EQUALS, ONE_OF, EVIDENCE, QUARANTINE,
    PATTERN, FORMAT,
];
pub const VARIANT: &[&str] = &[RENAME, CLARIFY, DECLINE, WHEN, ORDER, MAX_CALLS];
