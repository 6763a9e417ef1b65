//! The checked model: what `check` returns and `expand/` reads. Every name a
//! rule, condition, outcome or edit policy wrote is resolved here to the
//! member it means, so a generator looks nothing up and cannot miss.
use syn::{Ident, LitStr};

use crate::attr::Lit;
use crate::model::{Member, Variant};

/// A contract that passed every check.
pub struct Contract<'c> {
    pub ident: &'c Ident,
    /// The input's generics, each type parameter bounded by `Contract`.
    pub generics: syn::Generics,
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
    pub variants: Vec<UnionVariant<'c>>,
    pub max_bytes: Option<u64>,
    pub max_depth: Option<u64>,
    /// The trusted context type (`context = T`).
    pub context: Option<&'c syn::Type>,
    /// The business check (`check = path`), `fn(&Union, &T)`.
    pub check_fn: Option<&'c syn::Path>,
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
    Struct(&'c [Member<'c>]),
    /// A newtype variant's contract struct (its members and rules).
    Newtype(&'c syn::Type),
}

pub struct Struct<'c> {
    pub members: &'c [Member<'c>],
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
    pub condition: &'c Member<'c>,
    pub values: Vec<CondValue<'c>>,
    pub require: Vec<&'c Member<'c>>,
    pub forbid: Vec<&'c Member<'c>>,
}

/// A condition's value, of the condition member's type.
pub enum CondValue<'c> {
    /// A variant of the member's contract enum.
    Variant(&'c syn::Path),
    /// A literal of the member's type (in its `one_of`, if it has one).
    Lit(&'c Lit),
}

/// `order(first <= second)` or `order(first < second)`.
pub struct OrderRule<'c> {
    pub first: &'c Member<'c>,
    pub second: &'c Member<'c>,
    pub strict: bool,
}

/// `outcome = FIELD`.
pub struct Outcome<'c> {
    pub member: &'c Member<'c>,
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
    pub member: &'c Member<'c>,
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
