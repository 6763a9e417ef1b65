//! What generated code names. Not public API: no stability promise.
//!
//! Only re-exports: each item lives in the module of its stage.
//!
//! The engine is not public API: its modules cannot be named from outside
//! the crate (the decoder's `member`, the `Collector`'s `save`/`rollback`),
//! ```compile_fail,E0603
//! use contract_runtime::decode::member;
//! ```
//! ```compile_fail,E0432
//! use contract_runtime::core::Collector;
//! ```
//! the schema builder's `Definition` is sealed: only contracts implement it,
//! ```compile_fail,E0277
//! struct NotAContract;
//! impl contract_runtime::schema::Definition for NotAContract {
//!     const NAME: &'static str = "NotAContract";
//!     fn body(_: &mut contract_runtime::schema::SchemaGen) -> contract_runtime::__private::Value {
//!         contract_runtime::__private::Value::Null
//!     }
//! }
//! ```
//! and a match on an enum that will grow needs a wildcard arm.
//! ```compile_fail,E0004
//! use contract_runtime::Stage;
//! fn order(stage: Stage) -> u8 {
//!     match stage {
//!         Stage::Parse => 0,
//!         Stage::Schema => 1,
//!         Stage::Rule => 2,
//!         Stage::Business => 3,
//!         Stage::Edit => 4,
//!     }
//! }
//! ```
//! ```compile_fail,E0004
//! use contract_runtime::OutcomeKind;
//! fn accepted(kind: OutcomeKind) -> bool {
//!     match kind {
//!         OutcomeKind::Accept => true,
//!         OutcomeKind::Clarify | OutcomeKind::Decline | OutcomeKind::Review | OutcomeKind::Reject => false,
//!     }
//! }
//! ```
pub use crate::__impl_json_schema as impl_json_schema;
pub use crate::__type_messages as type_messages;
pub use crate::EvidenceSource;
pub use crate::business::{
    Business, Evidence, Nested, bound_contains, evidence, not_in_context, violations,
};
pub use crate::code;
pub use crate::contract::{BorrowedContract, Contract, OutcomeEnum, decode_document};
pub use crate::decode::{
    Absent, ArrayField, BorrowArray, BorrowDecode, BorrowMembers, Check, Checkable, DecodeVariant,
    Format, LenCheck, Length, Literal, Pattern, Slot, Tag, TypeMessages, check_format,
    check_pattern, declared_range, decode_union, discard_keys, field_error, invalid_type_of,
    meet_tag, member, member_array, member_array_items, member_borrowed_array,
    member_borrowed_array_items, member_index, member_unchecked, missing_key, narrow_f32,
    no_lookup, not_one_of, own_frame, present_all, read_array, read_array_items,
    read_borrowed_array, read_borrowed_array_items, undeclared_member, wrong_type,
};
pub use crate::describe::{
    Body as DescribedBody, Constraint, Described, Description, Float as FloatKind, Int as IntKind,
    Member as DescribedMember, Object as DescribedObject, Order as DescribedOrder, Type,
    Union as DescribedUnion, Variant as DescribedVariant, VariantMembers, When as DescribedWhen,
    description_of,
};
pub use crate::edit::EditPolicy;
pub use crate::encode::put;
pub use crate::error::{Rejection, Stage};
pub use crate::json::{KeySet, Limits, ParseError, Path, Peek, Reader, duplicate_key};
pub use crate::json_type::{Collector, JsonType, ObjectMembers, TagSeen};
pub use crate::outcome::{Outcome, OutcomeKind, Violation, ViolationKind, Violations};
pub use crate::rules::{OrderKind, RuleTexts, WhenKind, order_error, when_error};
pub use crate::schema::bound::{Binding, BoundValue, bound_values};
pub use crate::schema::object::{SchemaFn, check_rule, object_schema};
#[cfg(feature = "schemars")]
pub use crate::schema::schemars::json_schema as schemars_json_schema;
pub use crate::schema::{
    RULES_KEY, SchemaGen, constrain, generic_name, nullable, tagged, when_then,
};
pub use crate::shape::{Shape, Unresolved, follow, names_contain};
pub use crate::tools::{
    BindingsOf, ContractBindings, Meta, NoBindings, ReadArguments, Tool, Tools, encode_call,
};
#[cfg(feature = "schemars")]
pub use ::schemars;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};
pub use serde_json::{Map, Value, json};
pub use std::borrow::Cow;
pub use std::format;
pub use std::string::String;
pub use std::vec::Vec;
