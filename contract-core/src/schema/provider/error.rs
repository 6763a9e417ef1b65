//! Why an export fails: `ExportError`.
use std::fmt;

use super::Provider;

/// Why a schema cannot be exported for a provider.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExportError {
    /// The provider needs an object at the root (OpenAI).
    RootNotObject {
        /// The provider.
        provider: Provider,
    },
    /// The root is a tagged union (`anyOf`), which the provider forbids at
    /// the root (OpenAI).
    RootUnion {
        /// The provider.
        provider: Provider,
    },
    /// A construct the provider cannot take, and that cannot be dropped
    /// without changing what the model may produce.
    Unsupported {
        /// The provider.
        provider: Provider,
        /// RFC 6901 pointer into the full schema.
        pointer: String,
        /// What is unsupported and what to do instead.
        reason: &'static str,
    },
    /// The contract contains itself, and the provider does not take that.
    Recursive {
        /// The provider.
        provider: Provider,
        /// Pointer of the definition that refers back to itself (`""` is the root).
        pointer: String,
    },
    /// A size limit of the provider is exceeded.
    Limit {
        /// The provider.
        provider: Provider,
        /// Which limit (`"levels of object nesting"`).
        limit: &'static str,
        /// The provider's maximum.
        max: usize,
        /// What the schema has.
        found: usize,
    },
    /// One tool's arguments cannot be exported
    /// ([`Tools::tool_definitions`](crate::tools::Tools::tool_definitions)).
    Tool {
        /// The tool's name.
        name: &'static str,
        /// Why its arguments' schema cannot be exported.
        source: Box<ExportError>,
    },
    /// A member bound to the context (`one_of = ctx.FIELD`) has no value
    /// to take in this request: the context's field is empty, so no
    /// document could be accepted.
    EmptyBinding {
        /// Pointer into the full schema of the bound member's value.
        pointer: String,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::RootNotObject { provider } => write!(
                f,
                "{provider} needs an object at the root of the schema: wrap the value in a contract struct"
            ),
            ExportError::RootUnion { provider } => write!(
                f,
                "{provider} forbids `anyOf` at the root, and a tagged union is one: wrap the union in a struct field (`struct Reply {{ step: Step }}`) and export that struct"
            ),
            ExportError::Unsupported {
                provider,
                pointer,
                reason,
            } if pointer.is_empty() => {
                write!(f, "{provider} cannot take the schema at the root: {reason}")
            }
            ExportError::Unsupported {
                provider,
                pointer,
                reason,
            } => write!(
                f,
                "{provider} cannot take the schema at `{pointer}`: {reason}"
            ),
            ExportError::Recursive { provider, pointer } if pointer.is_empty() => write!(
                f,
                "{provider} does not take this recursive schema (the root contains itself)"
            ),
            ExportError::Recursive { provider, pointer } => write!(
                f,
                "{provider} does not take this recursive schema (the definition at `{pointer}` contains itself)"
            ),
            ExportError::Limit {
                provider,
                limit,
                max,
                found,
            } => write!(
                f,
                "{provider} takes at most {max} {limit}; this schema has {found}"
            ),
            ExportError::Tool { name, source } => write!(f, "tool `{name}`: {source}"),
            ExportError::EmptyBinding { pointer } => write!(
                f,
                "the member at `{pointer}` is bound to a field of the context that holds no value: no document could be accepted for this request"
            ),
        }
    }
}

impl std::error::Error for ExportError {}
