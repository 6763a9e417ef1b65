//! One contract of a command: its name on the command line, and how its
//! context is built from `--context` (and `--source`). [`entry`] makes one;
//! its methods say where the context comes from.
//!
//! The context hooks are typed by the contract's context type, checked when
//! the entry is made: a hook whose type is not the contract's `Context` is
//! reported by [`super::main_with`] before anything runs (exit code 2), so a
//! mistake shows on the first run of the binary, whatever its arguments.
use std::any::TypeId;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::checker::{Checker, Decision, Replay, replay};
use super::patch::PatchSchema;
pub(super) use super::setup::edit_setup;
use super::setup::{PatchForm, one_line};
pub use super::setup::{Setup, SetupError};
use crate::json::{self, Limits};
use crate::schema::Provider;
use crate::{Contract, OutcomeKind, diff};

/// The longest `--context` value: a few trusted values, not a document.
pub const MAX_CONTEXT_BYTES: usize = 64 << 10;

pub(super) use super::bound::AnyContext;

/// How a tools contract checks a batch of calls per line (`--calls`):
/// without a context, and against the one a hook built.
#[derive(Clone, Copy)]
pub(super) struct CallsMode {
    pub plain: fn() -> Checker,
    pub with_context: fn(AnyContext) -> Option<Checker>,
}

/// Builds the context from the setup (`--context`, `--source`).
type MakeContext = Arc<dyn Fn(&str, &Setup) -> Result<AnyContext, SetupError> + Send + Sync>;

/// One contract of the command, as [`entry`] makes it: its name, a line
/// of description, and type-erased access to its schema, edit policies
/// and checks.
#[derive(Clone)]
pub struct Entry {
    name: String,
    description: String,
    context: Option<String>,
    needs_source: bool,
    limits: Limits,
    schema: fn() -> Value,
    policies: fn() -> Vec<PolicyInfo>,
    plain: fn(&Setup) -> Result<Checker, SetupError>,
    patch_schema: fn(&Setup, Option<Provider>) -> Result<PatchSchema, SetupError>,
    with_context: fn(AnyContext) -> Option<Checker>,
    make_context: Option<MakeContext>,
    context_type: (TypeId, &'static str),
    problem: Option<String>,
    /// The tools a `--sse` transcript's tool calls are checked against
    /// ([`Entry::with_tool_calls`]).
    pub(super) tool_calls: Option<ToolCalls>,
    /// Set for a tools enum (`cli::tools`): `--calls` applies.
    pub(super) calls: Option<CallsMode>,
    bound: super::bound::BoundFns,
}

/// One tool call's argument pieces replayed through `T::stream_call(name)`.
pub(super) type ToolCalls = fn(&str, &[&str]) -> Replay;

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("context", &self.context)
            .field("needs_source", &self.needs_source)
            .finish_non_exhaustive()
    }
}

/// The contract `T` under `name` on the command line, checked without a
/// context: parse, schema and rule stages ([`Contract::check`]), and edit
/// mode when `T` declares edit policies. A contract with a business stage
/// adds its context with [`Entry::with_context`], [`Entry::with_context_from`]
/// or [`Entry::with_source`].
///
/// `T::Context` must be `Send + Sync` (one checker serves every thread of
/// `--jobs`).
pub fn entry<T>(name: impl Into<String>) -> Entry
where
    T: Contract,
    T::Context: Sized + Send + Sync + 'static,
{
    Entry {
        name: name.into(),
        description: T::NAME.to_owned(),
        context: None,
        needs_source: false,
        limits: T::LIMITS,
        schema: T::json_schema,
        policies: policies::<T>,
        plain: prepare_plain::<T>,
        patch_schema: super::patch::schema::<T>,
        with_context: bind_context::<T>,
        make_context: None,
        context_type: (
            TypeId::of::<T::Context>(),
            std::any::type_name::<T::Context>(),
        ),
        problem: None,
        tool_calls: None,
        calls: None,
        bound: super::bound::BoundFns::of::<T>(),
    }
}

impl Entry {
    /// In `--sse` mode, the tool calls of a transcript are checked as calls
    /// of the tools enum `T`, each through
    /// [`T::stream_call(name)`](crate::tools::Tools::stream_call) with its
    /// argument deltas (one decision per call), instead of being refused as
    /// not a reply. `T` is often the entry's own contract; any tools enum
    /// works (the reply, if the transcript has one, is still this entry's).
    /// The calls are checked without a context (no business stage).
    ///
    /// ```
    /// use contract_runtime::Contract;
    /// use contract_runtime::cli::{Cli, entry};
    ///
    /// #[derive(Contract, Debug)]
    /// #[contract(tools)]
    /// enum Tool { lookup { word: String } }
    ///
    /// let dir = std::env::temp_dir().join(format!("with-tool-calls-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let file = dir.join("calls.sse");
    /// std::fs::write(&file, concat!(
    ///     "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c1\",",
    ///     "\"function\":{\"name\":\"lookup\",\"arguments\":\"{\\\"word\\\": 7\"}}]}}]}\n\n",
    ///     "data: [DONE]\n\n",
    /// )).unwrap();
    /// let cli = Cli::new([entry::<Tool>("tool").with_tool_calls::<Tool>()]);
    /// let (mut out, mut err) = (Vec::new(), Vec::new());
    /// cli.run(["tool".into(), "--sse".into(), file.clone().into_os_string()], &mut out, &mut err);
    /// let line: serde_json::Value = serde_json::from_slice(&out).unwrap();
    /// assert_eq!((line["call"].as_u64(), line["name"].as_str()), (Some(0), Some("lookup")));
    /// assert_eq!(line["errors"][0]["pointer"], "/arguments/word");
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn with_tool_calls<T>(mut self) -> Self
    where
        T: crate::tools::Tools,
    {
        self.tool_calls = Some(replay_call::<T>);
        self
    }

    /// One line for `--list`: what the model is asked for (the contract's
    /// type name unless given).
    pub fn about(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// What `--context` must hold, as `--list` shows it
    /// (`{"tenant": "<tenant id>"}`); `JSON` unless given.
    pub fn context_example(mut self, example: impl Into<String>) -> Self {
        self.context = Some(example.into());
        self
    }

    /// The context is `--context JSON`, deserialized with serde into `C`,
    /// the contract's context type. The JSON is read strictly first (no
    /// duplicate key, at most [`MAX_CONTEXT_BYTES`]); `#[serde(deny_unknown_fields)]`
    /// on `C` refuses unknown keys.
    pub fn with_context<C>(self) -> Self
    where
        C: DeserializeOwned + Send + Sync + 'static,
    {
        self.hook::<C>(false, |name, setup| {
            let value = json::parse(context_text(name, setup)?.as_bytes(), &CONTEXT_LIMITS)
                .map_err(|r| invalid_context(name, &one_line(&r)))?;
            serde_json::from_value::<C>(value).map_err(|e| invalid_context(name, &e.to_string()))
        })
    }

    /// The context is built by `make` from `--context JSON` read as the
    /// contract `A`, as strict as a model's output (every key present, no
    /// unknown key, no coercion); `make` may refuse it with a message.
    pub fn with_context_from<A, C>(
        self,
        make: impl Fn(A) -> Result<C, String> + Send + Sync + 'static,
    ) -> Self
    where
        A: Contract,
        C: Send + Sync + 'static,
    {
        self.hook::<C>(false, move |name, setup| {
            make(context_arg::<A>(name, setup)?).map_err(|e| invalid_context(name, &e))
        })
    }

    /// As [`Entry::with_context_from`], with the text of `--source FILE`
    /// too (the e-mail or page the model read, that `evidence` fields
    /// quote): both options are then required.
    pub fn with_source<A, C>(
        self,
        make: impl Fn(A, String) -> Result<C, String> + Send + Sync + 'static,
    ) -> Self
    where
        A: Contract,
        C: Send + Sync + 'static,
    {
        self.hook::<C>(true, move |name, setup| {
            let Some(source) = &setup.source else {
                return Err(SetupError(format!(
                    "{name} needs --source FILE (the text the model read)"
                )));
            };
            let arg = context_arg::<A>(name, setup)?;
            make(arg, source.clone()).map_err(|e| invalid_context(name, &e))
        })
    }

    fn hook<C: Send + Sync + 'static>(
        mut self,
        needs_source: bool,
        make: impl Fn(&str, &Setup) -> Result<C, SetupError> + Send + Sync + 'static,
    ) -> Self {
        if TypeId::of::<C>() != self.context_type.0 {
            self.problem = Some(format!(
                "the context hook of `{}` builds `{}`, but the contract's context is `{}`",
                self.name,
                std::any::type_name::<C>(),
                self.context_type.1
            ));
        }
        self.needs_source = needs_source;
        self.context.get_or_insert_with(|| "JSON".to_owned());
        self.make_context = Some(Arc::new(move |name: &str, setup: &Setup| {
            make(name, setup).map(|c| Arc::new(c) as AnyContext)
        }));
        self
    }

    /// The name on the command line (`close-ticket`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The line `--list` shows.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// What `--context` must hold, or `None` when the contract takes none.
    pub fn context(&self) -> Option<&str> {
        self.context.as_deref()
    }

    /// Whether `--source FILE` is needed.
    pub fn needs_source(&self) -> bool {
        self.needs_source
    }

    /// Size and depth limits of one document.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A mistake in how the entry was made (a context hook of the wrong
    /// type), or `None`.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// The JSON Schema (draft 2020-12) to send to the model provider.
    pub fn schema(&self) -> Value {
        (self.schema)()
    }

    /// The edit policies the contract declares.
    pub fn edit_policies(&self) -> Vec<PolicyInfo> {
        (self.policies)()
    }

    /// The schema of the patches the setup's policy allows against its
    /// baseline (`setup.patch` says which kind), for `provider` or before
    /// any provider's rewrite.
    pub(super) fn patch_schema(
        &self,
        setup: &Setup,
        provider: Option<Provider>,
    ) -> Result<PatchSchema, SetupError> {
        self.accepts(false, false, setup.baseline.is_some(), setup.edit.is_some())?;
        (self.patch_schema)(setup, provider)
    }

    /// Binds a setup: parses and checks `--context`, the source and the
    /// baseline, and finds the edit policy.
    pub fn checker(&self, setup: &Setup) -> Result<Checker, SetupError> {
        self.ready(setup, true)?;
        if self.make_context.is_none() {
            return (self.plain)(setup);
        }
        let context = self.context_of(setup)?;
        if setup.edit.is_some() {
            // Edit mode checks the candidate against the baseline and the
            // policy; the context was still read, so a bad one is refused.
            return (self.plain)(setup);
        }
        (self.with_context)(context).ok_or_else(|| self.wrong_context())
    }

    /// Whether the contract is a tools enum, whose lines `--calls` reads
    /// as batches of calls.
    pub fn takes_calls(&self) -> bool {
        self.calls.is_some()
    }

    /// Binds a setup for `--calls`: each document is then a batch of tool
    /// calls, `[{"id","name","arguments"}]` (see [`tools`](super::tools)).
    /// Edit mode does not apply.
    pub fn calls_checker(&self, setup: &Setup) -> Result<Checker, SetupError> {
        let Some(calls) = self.calls else {
            return Err(SetupError(format!(
                "{} is not a tools enum: --calls needs one",
                self.name
            )));
        };
        if setup.baseline.is_some() || setup.edit.is_some() {
            return Err(SetupError(
                "--baseline and --edit do not apply to --calls".into(),
            ));
        }
        self.ready(setup, false)?;
        if self.make_context.is_none() {
            return Ok((calls.plain)());
        }
        let context = self.context_of(setup)?;
        (calls.with_context)(context).ok_or_else(|| self.wrong_context())
    }

    /// The setup's options are ones the contract takes (`--baseline` and
    /// `--edit` only when `with_edit`), and the contract has no problem
    /// that refuses every setup.
    fn ready(&self, setup: &Setup, with_edit: bool) -> Result<(), SetupError> {
        self.accepts(
            setup.context.is_some(),
            setup.source.is_some(),
            with_edit && setup.baseline.is_some(),
            with_edit && setup.edit.is_some(),
        )?;
        match &self.problem {
            Some(problem) => Err(SetupError(problem.clone())),
            None => Ok(()),
        }
    }

    /// A context made for another contract than this one.
    fn wrong_context(&self) -> SetupError {
        SetupError(format!(
            "the context of `{}` is not `{}`",
            self.name, self.context_type.1
        ))
    }

    /// The context the setup's `--context` (and `--source`) make, checked
    /// as [`Entry::checker`] checks them; `()` for a contract without one.
    fn context_of(&self, setup: &Setup) -> Result<AnyContext, SetupError> {
        let Some(make) = &self.make_context else {
            return Ok(Arc::new(()));
        };
        if let Some(context) = &setup.context
            && context.len() > MAX_CONTEXT_BYTES
        {
            return Err(SetupError(format!(
                "--context is {} bytes; the limit is {MAX_CONTEXT_BYTES}",
                context.len()
            )));
        }
        make(&self.name, setup)
    }

    /// The contract's exports bound to the setup's context (see
    /// [`Contract::json_schema_for_with`]).
    pub fn bound(&self, setup: &Setup) -> Result<super::bound::Bound, SetupError> {
        self.ready(setup, false)?;
        let context = self.context_of(setup)?;
        Ok(super::bound::Bound::new(self.bound, context, &self.name))
    }

    /// Whether the contract takes the options given (`--context`,
    /// `--source`, `--baseline`, `--edit`), checked before any file is read.
    pub fn accepts(
        &self,
        context: bool,
        source: bool,
        baseline: bool,
        edit: bool,
    ) -> Result<(), SetupError> {
        if context && self.context.is_none() {
            return Err(SetupError(format!("{} takes no --context", self.name)));
        }
        if source && !self.needs_source {
            return Err(SetupError(format!("{} takes no --source", self.name)));
        }
        if (baseline || edit) && self.edit_policies().is_empty() {
            return Err(SetupError(format!(
                "{} declares no edit policy: --baseline and --edit do not apply",
                self.name
            )));
        }
        match (baseline, edit) {
            (true, false) => Err(SetupError("--baseline needs --edit POLICY".into())),
            (false, true) => Err(SetupError("--edit needs --baseline FILE".into())),
            _ => Ok(()),
        }
    }
}

/// An edit policy's name and the pointers it allows to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PolicyInfo {
    /// The policy's name (`disable_email`).
    pub name: &'static str,
    /// The pointers it allows to change.
    pub paths: &'static [&'static str],
}

fn policies<T: Contract>() -> Vec<PolicyInfo> {
    T::edit_policies()
        .iter()
        .map(|p| PolicyInfo {
            name: p.name(),
            paths: p.paths(),
        })
        .collect()
}

/// Without a context: `check`, or its edit policy in edit mode.
fn prepare_plain<T: Contract>(setup: &Setup) -> Result<Checker, SetupError> {
    if let Some(checker) = prepare_edit::<T>(setup)? {
        return Ok(checker);
    }
    Ok(Checker::of::<T>(
        |raw| Decision::from_outcome(T::check(raw)),
        |pieces| replay(T::stream(), pieces),
    ))
}

/// Every stage, business included, against the context a hook built.
fn bind_context<T>(context: AnyContext) -> Option<Checker>
where
    T: Contract,
    T::Context: Sized + Send + Sync + 'static,
{
    let ctx: Arc<T::Context> = context.downcast().ok()?;
    let streamed = Arc::clone(&ctx);
    Some(Checker::of::<T>(
        move |raw| Decision::from_outcome(T::check_with(raw, &ctx)),
        move |pieces| replay(T::stream_with(&streamed), pieces),
    ))
}

/// Edit mode, when the setup asks for it: both `--baseline` and `--edit`,
/// a policy the contract declares, and a baseline the contract accepts.
fn prepare_edit<T: Contract>(setup: &Setup) -> Result<Option<Checker>, SetupError> {
    let Some((policy, baseline)) = edit_setup::<T>(setup)? else {
        return Ok(None);
    };
    let limits = T::LIMITS;
    if setup.patch != PatchForm::Full {
        return Ok(Some(super::patch::checker(
            policy,
            baseline,
            setup.patch,
            limits,
        )));
    }
    Ok(Some(Checker {
        limits,
        edit_mode: true,
        replay: None,
        check: Box::new(move |raw| match policy.check(&baseline, raw) {
            Ok(edit) => Decision {
                changed: Some(edit.changed),
                ..Decision::of(OutcomeKind::Accept)
            },
            Err(rejection) => {
                // What the candidate would have changed, when it parses
                // (found while it is scanned: no tree of it is built).
                let changed = diff::changed_paths_str(&baseline, raw, &limits)
                    .map(|changed| changed.into_iter().collect())
                    .unwrap_or_default();
                Decision {
                    changed: Some(changed),
                    ..Decision::from_rejection(rejection)
                }
            }
        }),
    }))
}

/// Limits of `--context` read as JSON.
const CONTEXT_LIMITS: Limits = Limits {
    max_bytes: MAX_CONTEXT_BYTES,
    max_depth: 64,
};

fn context_text<'a>(name: &str, setup: &'a Setup) -> Result<&'a str, SetupError> {
    setup.context.as_deref().ok_or_else(|| {
        SetupError(format!(
            "{name} needs --context (trusted values the model cannot choose)"
        ))
    })
}

fn invalid_context(name: &str, why: &str) -> SetupError {
    SetupError(format!("--context for {name} is not valid: {why}"))
}

/// `--context` read with a contract of its own, so it is as strict as a
/// model's output: every key present, no unknown key, no coercion.
fn context_arg<A: Contract>(name: &str, setup: &Setup) -> Result<A, SetupError> {
    A::from_json(context_text(name, setup)?).map_err(|r| invalid_context(name, &one_line(&r)))
}

// One tool call's arguments through `T::stream_call(name)`; an unknown
// tool is decided by its name, before any byte of its arguments.
fn replay_call<T: crate::tools::Tools>(name: &str, pieces: &[&str]) -> Replay {
    match T::stream_call(name) {
        Ok(stream) => replay(stream, pieces),
        Err(rejection) => Replay {
            stopped_at: Some(0),
            read: 0,
            total: pieces.iter().map(|p| p.len()).sum(),
            decision: Decision::from_rejection(rejection),
        },
    }
}
