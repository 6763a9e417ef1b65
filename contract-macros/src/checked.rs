//! The checked model: what `check` returns and `expand/` reads. Every name a
//! rule, condition, outcome or edit policy wrote is resolved here to the
//! member it means, and every member carries what check decided about it
//! (its constraints typed, its absence, nullability, quarantine and
//! evidence), so a generator looks nothing up, decides nothing again, and
//! cannot miss.
use proc_macro2::Span;
use syn::{Ident, LitStr};

use crate::model::Variant;
use crate::ty::Ty;

/// `format = ".."`'s formats, as the attribute names them.
pub use crate::attr::StringFormat;

/// A contract that passed every check.
pub struct Contract<'c> {
    pub ident: &'c Ident,
    /// The input's generics, each type parameter bounded by `Contract`.
    pub generics: syn::Generics,
    /// The lifetime of a contract that borrows from the text: its
    /// `'static` form is the `Contract`, the others `BorrowedContract`s.
    pub lifetime: Option<&'c syn::Lifetime>,
    pub doc: Option<&'c str>,
    pub body: Body<'c>,
}

pub enum Body<'c> {
    Struct(Struct<'c>),
    Enum(&'c [Variant<'c>]),
    Union(Union<'c>),
}

/// A tagged union: an enum with data and `tag = ".."`.
pub struct Union<'c> {
    /// The tag member's JSON name.
    pub tag: &'c str,
    /// The tag names a tool (the hidden union of a tools enum): a name no
    /// variant has is `unknown_tool`, not `unknown_variant`.
    pub tool_names: bool,
    pub variants: Vec<UnionVariant<'c>>,
    pub max_bytes: Option<u64>,
    pub max_depth: Option<u64>,
    /// The trusted context type (`context = T`).
    pub context: Option<&'c syn::Type>,
    /// The business check (`check = path`), `fn(&Union, &T)`.
    pub check_fn: Option<&'c syn::Path>,
}

/// A tools enum: each variant a tool.
pub struct Tools<'c> {
    pub tools: Vec<Tool<'c>>,
    /// At most this many calls in one batch.
    pub max_calls: Option<u64>,
    pub max_bytes: Option<u64>,
    pub max_depth: Option<u64>,
    pub context: Option<&'c syn::Type>,
    /// `check = path`, `fn(&Enum, &Ctx)`.
    pub check_fn: Option<&'c syn::Path>,
    /// `batch_check = path`, `fn(&[Enum], &Ctx)`.
    pub batch_check: Option<&'c syn::Path>,
}

/// One tool: its variant and members (as a union variant's, without
/// rules: the hidden arguments struct holds them), its `max_calls`.
pub struct Tool<'c> {
    pub union: UnionVariant<'c>,
    pub max_calls: Option<u64>,
}

/// One variant of a tagged union, its members checked as a struct's.
pub struct UnionVariant<'c> {
    pub variant: &'c Variant<'c>,
    pub members: Members<'c>,
    pub whens: Vec<WhenRule<'c>>,
    pub orders: Vec<OrderRule<'c>>,
}

/// What sits beside the tag.
pub enum Members<'c> {
    /// Nothing: the object holds the tag alone.
    Unit,
    /// A struct-like variant's own members.
    Struct(Vec<Member<'c>>),
    /// A newtype variant's contract struct (its members and rules).
    Newtype(&'c syn::Type),
}

pub struct Struct<'c> {
    pub members: Vec<Member<'c>>,
    pub max_bytes: Option<u64>,
    pub max_depth: Option<u64>,
    pub version: Option<u64>,
    pub whens: Vec<WhenRule<'c>>,
    pub orders: Vec<OrderRule<'c>>,
    pub outcome: Option<Outcome<'c>>,
    /// The trusted context type (`context = T`).
    pub context: Option<&'c syn::Type>,
    /// The business check (`check = path`).
    pub check_fn: Option<&'c syn::Path>,
    pub policies: Vec<Policy<'c>>,
}

/// `when(FIELD = VALUE, require(..), forbid(..))`.
pub struct WhenRule<'c> {
    pub condition: Member<'c>,
    pub values: Vec<CondValue<'c>>,
    pub require: Vec<Member<'c>>,
    pub forbid: Vec<Member<'c>>,
}

/// A condition's value, of the condition member's type.
pub enum CondValue<'c> {
    /// A variant of the member's contract enum.
    Variant(&'c syn::Path),
    /// A literal of the member's type (in its `one_of`, if it has one).
    Lit(Literal),
}

/// `order(first <= second)` or `order(first < second)`.
pub struct OrderRule<'c> {
    pub first: Member<'c>,
    pub second: Member<'c>,
    pub strict: bool,
}

/// `outcome = FIELD`.
pub struct Outcome<'c> {
    pub member: Member<'c>,
    /// The attribute's own token for the field (errors from rustc point there).
    pub at: proc_macro2::Span,
}

/// `edit(NAME = ["/ptr", ..])`.
pub struct Policy<'c> {
    /// The name `edit_policy(name)` takes.
    pub name: String,
    /// The associated const, spanned at the policy's name.
    pub const_ident: Ident,
    pub pointers: Vec<PolicyPointer<'c>>,
}

pub struct PolicyPointer<'c> {
    pub lit: &'c LitStr,
    pub text: String,
    /// Unescaped segments; the first names `member`.
    pub segments: Vec<String>,
    pub member: Member<'c>,
}

/// A member of a struct or of a union variant (a key of its JSON object),
/// with every decision check made about it.
#[derive(Clone)]
pub struct Member<'c> {
    pub ident: &'c Ident,
    pub ty: &'c syn::Type,
    /// What the value is, with any `Option` stripped (`nullable` says
    /// whether there was one).
    pub kind: &'c Ty,
    /// The value may be `null` (the field is an `Option`).
    pub nullable: bool,
    /// The value is an `f32` (bounds compare the `f64` the document wrote).
    pub f32: bool,
    /// The type names the contract's lifetime: decoded borrowing from the
    /// text (`BorrowDecode`), not through `JsonType::decode`.
    pub borrows: bool,
    /// The key in JSON, after `rename` / `rename_all`.
    pub json_name: &'c str,
    pub doc: Option<&'c str>,
    pub absent: Absent,
    /// `quarantine`: a value that fails its checks is dropped to `None`.
    pub quarantine: bool,
    /// `evidence`, spanned at the attribute: the string must occur in the
    /// context's source text.
    pub evidence: Option<Span>,
    /// The value's constraints, in the order they are checked (each kind
    /// at most once).
    pub constraints: Vec<Constraint>,
    /// `one_of = ctx.FIELD`: the value is one of a context field's values.
    pub bound: Option<Bound<'c>>,
}

/// `one_of = ctx.FIELD` on a member: checked in the business stage, and
/// bound into the exports made for one request.
#[derive(Clone)]
pub struct Bound<'c> {
    /// The context's field.
    pub field: &'c Ident,
    /// `ctx.FIELD` as written: rustc's errors about the field's type point there.
    pub tokens: &'c proc_macro2::TokenStream,
    /// The member is a `Vec` (maybe in an `Option`): each item is bound.
    pub items: bool,
}

/// What an absent key means.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Absent {
    /// An error: the key is required.
    Missing,
    /// `optional` on an `Option`: `None`.
    None,
    /// `optional, default`: `Default::default()`.
    Default,
}

/// A constraint on a member's value: what the schema states, the decoder
/// checks and the description names. Generators read these with an
/// exhaustive `match`, so a new constraint is a compile error wherever it
/// must be handled.
#[derive(Clone)]
pub enum Constraint {
    /// `min`/`max`: a number within bounds (of the member's kind).
    Range(Bounds<Number>),
    /// `min_len`/`max_len`: a string's characters or an array's items.
    Length { bounds: Bounds<u64>, counts: Counts },
    /// `equals`: exactly this value.
    Equals(Literal),
    /// `one_of`: one of these values (at least one, none twice).
    OneOf(Vec<Literal>),
    /// `pattern`: a string in which the pattern finds a match.
    Pattern(Pattern),
    /// `format`: a string of a named format.
    Format(StringFormat),
}

/// A lower bound, an upper bound, or both (both inclusive).
#[derive(Clone, Copy)]
pub enum Bounds<T> {
    AtLeast(T),
    AtMost(T),
    Between(T, T),
}

impl<T: Copy> Bounds<T> {
    /// The bounds written, `None` without either.
    pub fn of(min: Option<T>, max: Option<T>) -> Option<Self> {
        match (min, max) {
            (Some(min), Some(max)) => Some(Bounds::Between(min, max)),
            (Some(min), None) => Some(Bounds::AtLeast(min)),
            (None, Some(max)) => Some(Bounds::AtMost(max)),
            (None, None) => None,
        }
    }

    pub fn min(&self) -> Option<T> {
        match *self {
            Bounds::AtLeast(min) | Bounds::Between(min, _) => Some(min),
            Bounds::AtMost(_) => None,
        }
    }

    pub fn max(&self) -> Option<T> {
        match *self {
            Bounds::AtMost(max) | Bounds::Between(_, max) => Some(max),
            Bounds::AtLeast(_) => None,
        }
    }
}

/// What a length counts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Counts {
    /// A string's characters (`minLength`).
    Characters,
    /// An array's items (`minItems`).
    Items,
}

/// A number of the member's kind: an integer for an integer member, a
/// float (an integer literal converted) for a float member.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

/// A literal of the member's kind (numbers as [`Number`] makes them).
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Int(i128),
    Float(f64),
    Str(String),
    Bool(bool),
}

impl From<Number> for Literal {
    fn from(n: Number) -> Self {
        match n {
            Number::Int(i) => Literal::Int(i),
            Number::Float(f) => Literal::Float(f),
        }
    }
}

/// `pattern = ".."`, accepted by `pattern.rs`.
#[derive(Clone)]
pub struct Pattern {
    /// As written (in the schema and in messages).
    pub written: String,
    /// The form the runtime's matcher reads.
    pub engine: String,
    /// The pattern checks each item of a `Vec<String>`, not the value.
    pub on_items: bool,
}

impl Member<'_> {
    /// The local a union variant's pattern binds this member to.
    pub fn binding(&self) -> Ident {
        let name = self.ident.to_string();
        let unraw = match name.strip_prefix("r#") {
            Some(stripped) => Ident::new(stripped, self.ident.span()),
            None => self.ident.clone(),
        };
        quote::format_ident!("__contract_m_{}", unraw)
    }
}

impl UnionVariant<'_> {
    /// The pattern matching this variant, binding its members (by
    /// reference) to their `Member::binding`s, or its newtype to
    /// `__contract_inner`.
    pub fn pattern(&self) -> proc_macro2::TokenStream {
        let ident = self.variant.ident;
        match &self.members {
            Members::Unit => quote::quote!(Self::#ident),
            Members::Newtype(_) => quote::quote!(Self::#ident(__contract_inner)),
            Members::Struct(members) => {
                let idents = members.iter().map(|m| m.ident);
                let bindings = members.iter().map(Member::binding);
                quote::quote!(Self::#ident { #(#idents: #bindings),* })
            }
        }
    }
}
