//! A contract's exports bound to one request's context, type-erased for
//! the command: `--schema CONTRACT [--provider P [--request]] --context
//! JSON [--source FILE]` and `--grammar CONTRACT --context JSON --source
//! FILE` (see [`crate::schema::bound`] and [`crate::schema::grammar`]).
use std::any::Any;
use std::sync::Arc;

use serde_json::Value;

use crate::Contract;
use crate::schema::{Export, ExportError, Provider};

/// A context of any type, as the hooks build it.
pub(super) type AnyContext = Arc<dyn Any + Send + Sync>;

type Full = fn(&AnyContext) -> Option<Result<Value, ExportError>>;
type ForProvider = fn(&AnyContext, Provider) -> Option<Result<Export, ExportError>>;
type Grammar = fn(&AnyContext) -> Option<Result<String, ExportError>>;

/// `T`'s bound exports, each `None` for a context of another type.
#[derive(Clone, Copy)]
pub(super) struct BoundFns {
    full: Full,
    for_provider: ForProvider,
    grammar: Grammar,
}

impl BoundFns {
    pub(super) fn of<T>() -> Self
    where
        T: Contract,
        T::Context: Sized + Send + Sync + 'static,
    {
        BoundFns {
            full: |ctx| Some(T::json_schema_with(ctx.downcast_ref::<T::Context>()?)),
            for_provider: |ctx, provider| {
                Some(T::json_schema_for_with(
                    provider,
                    ctx.downcast_ref::<T::Context>()?,
                ))
            },
            grammar: |ctx| Some(T::grammar_with(ctx.downcast_ref::<T::Context>()?)),
        }
    }
}

/// A contract's exports for one request, as [`Entry::bound`](super::Entry::bound) makes them.
pub struct Bound {
    fns: BoundFns,
    context: AnyContext,
    name: String,
}

impl std::fmt::Debug for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bound")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Bound {
    pub(super) fn new(fns: BoundFns, context: AnyContext, name: &str) -> Self {
        Bound {
            fns,
            context,
            name: name.to_owned(),
        }
    }

    fn done<R>(&self, result: Option<Result<R, ExportError>>) -> Result<R, String> {
        match result {
            Some(result) => result.map_err(|e| e.to_string()),
            None => Err(format!(
                "the context of `{}` is not the contract's",
                self.name
            )),
        }
    }

    /// The full schema bound to the context.
    pub fn schema(&self) -> Result<Value, String> {
        self.done((self.fns.full)(&self.context))
    }

    /// The export for `provider` bound to the context.
    pub fn export(&self, provider: Provider) -> Result<Export, String> {
        self.done((self.fns.for_provider)(&self.context, provider))
    }

    /// The llguidance grammar bound to the context and its source.
    pub fn grammar(&self) -> Result<String, String> {
        self.done((self.fns.grammar)(&self.context))
    }
}
