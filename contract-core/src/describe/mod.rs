//! A contract as the decoder sees it, as `&'static` data: every field's
//! Rust type (integer and float kinds exactly), its constraints typed as
//! the field compares them, and the struct's `when` and `order` rules. The
//! derive writes one [`Description`] per contract ([`Described`]) and each
//! field type names its own [`Type`] (`JsonType::TYPE`), so what reads it
//! (the stream's plan, and `schema::object`, which writes each object's
//! constraint keywords, docs and rules from it) knows what the decoder
//! checks without reading it back from the JSON Schema.
//!
//! Decoding does not read it: generated decoders stay monomorphic code;
//! this is the same knowledge, as data. Not public API: generated code
//! names it through `__private`.
use std::any::TypeId;

use serde_json::Value;

/// A field type, as the decoder reads it.
#[derive(Debug, Clone, Copy)]
pub enum Type {
    /// `bool`.
    Bool,
    /// An integer type.
    Int(Int),
    /// `f32` or `f64`.
    Float(Float),
    /// `String`.
    String,
    /// A calendar date (`Date` and the foreign date types): `YYYY-MM-DD`.
    Date,
    /// An RFC 3339 date-time (`DateTime`).
    DateTime,
    /// Any JSON value: nothing is known of it (the default of a type that
    /// does not describe itself).
    Any,
    /// `Option<T>`: `null` or the inner type.
    Option(&'static Type),
    /// `Vec<T>`: an array of the inner type.
    Array(&'static Type),
    /// `BTreeMap<String, T>`: an object of any keys, each value of the
    /// inner type.
    Map(&'static Type),
    /// `Box<T>`: the inner type's JSON.
    Boxed(&'static Type),
    /// A contract (struct, enum or tagged union), through a function so
    /// that recursive and generic contracts are no constant cycle.
    Contract(fn() -> &'static Description),
}

/// An integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    /// `u8`.
    U8,
    /// `u16`.
    U16,
    /// `u32`.
    U32,
    /// `u64` and `usize`.
    U64,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64` and `isize`.
    I64,
}

impl Int {
    /// The type's range, `(MIN, MAX)`.
    pub const fn range(self) -> (i128, i128) {
        match self {
            Int::U8 => (0, u8::MAX as i128),
            Int::U16 => (0, u16::MAX as i128),
            Int::U32 => (0, u32::MAX as i128),
            Int::U64 => (0, u64::MAX as i128),
            Int::I8 => (i8::MIN as i128, i8::MAX as i128),
            Int::I16 => (i16::MIN as i128, i16::MAX as i128),
            Int::I32 => (i32::MIN as i128, i32::MAX as i128),
            Int::I64 => (i64::MIN as i128, i64::MAX as i128),
        }
    }
}

/// A float type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    /// `f32`: the value narrowed from the `f64` written.
    F32,
    /// `f64`.
    F64,
}

/// A literal of a constraint or a rule, typed as the field compares it.
#[derive(Debug, Clone, Copy)]
pub enum Literal {
    /// A bound or value of an integer field (every supported integer type
    /// converts to `i128` without loss).
    Int(i128),
    /// A bound or value of a float field.
    Float(f64),
    /// A value of a string field.
    Str(&'static str),
    /// A value of a boolean field.
    Bool(bool),
}

/// A `format` a string field can declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// WHATWG HTML's "valid e-mail address" (`decode::is_email`).
    Email,
    /// `8-4-4-4-12` hexadecimal digits (`decode::is_uuid`).
    Uuid,
}

impl Format {
    /// The name `format` takes in the attribute and in the schema.
    pub fn name(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uuid => "uuid",
        }
    }
}

/// A contract type that describes itself: the derive implements it.
pub trait Described: 'static {
    /// The contract, as the decoder sees it.
    const DESCRIPTION: Description;
}

/// `T`'s description: what [`Type::Contract`] holds for `T`.
pub fn description_of<T: Described>() -> &'static Description {
    const { &T::DESCRIPTION }
}

/// One contract.
#[derive(Debug)]
pub struct Description {
    /// The Rust name.
    pub name: &'static str,
    /// The type's identity (a generic contract's instantiations differ).
    pub id: fn() -> TypeId,
    /// What its JSON is.
    pub body: Body,
}

/// What a contract's JSON is.
#[derive(Debug)]
pub enum Body {
    /// A struct: a closed object of its members.
    Struct(Object),
    /// An enum of unit variants: one of the variants' JSON names.
    Enum(&'static [&'static str]),
    /// A tagged union.
    Union(Union),
}

/// A closed object: a struct's, or a union variant's members beside the tag.
#[derive(Debug)]
pub struct Object {
    /// The members, in declaration order.
    pub members: &'static [Member],
    /// `when` rules, in declaration order.
    pub whens: &'static [When],
    /// `order` rules, in declaration order.
    pub orders: &'static [Order],
    /// The struct's doc comment (a union variant's is the variant's own,
    /// beside its tag, so `None` here).
    pub doc: Option<&'static str>,
    /// `#[contract(version = N)]` of a struct.
    pub version: Option<u64>,
    /// The path of a struct's `check` function, as written (spaces removed).
    pub check: Option<&'static str>,
}

/// A member of an object.
#[derive(Debug)]
pub struct Member {
    /// The JSON key.
    pub name: &'static str,
    /// The field's type.
    pub ty: &'static Type,
    /// The key may be absent (`optional`).
    pub optional: bool,
    /// The field's doc comment.
    pub doc: Option<&'static str>,
    /// A failing value becomes null and a review reason (`quarantine`).
    pub quarantine: bool,
    /// The value must occur in the source text (`evidence`).
    pub evidence: bool,
    /// The constraints, in the order the decoder checks them. On an
    /// array (`Vec`, maybe in an `Option`), `MinLen`/`MaxLen` count its
    /// items and every other constraint applies to each item.
    pub constraints: &'static [Constraint],
}

/// One constraint of a member's value.
#[derive(Debug, Clone, Copy)]
pub enum Constraint {
    /// `min`: below it is `below_minimum`.
    Min(Literal),
    /// `max`: above it is `above_maximum`.
    Max(Literal),
    /// `min_len`: characters of a string, items of an array.
    MinLen(u64),
    /// `max_len`: characters of a string, items of an array.
    MaxLen(u64),
    /// `equals` (`not_equal`).
    Equals(Literal),
    /// `one_of` (`not_one_of`).
    OneOf(&'static [Literal]),
    /// `pattern`: as written (ECMA-262), and as the decoder's matcher reads it.
    Pattern {
        /// The pattern in the schema.
        written: &'static str,
        /// The pattern `regex-lite` compiles.
        engine: &'static str,
    },
    /// `format`.
    Format(Format),
}

/// `when(condition = values.., require(..), forbid(..))`, over member
/// indices of its object.
#[derive(Debug)]
pub struct When {
    /// The member the condition reads.
    pub condition: usize,
    /// The condition's values, as JSON (a variant of an enum member by its
    /// JSON name).
    pub values: fn() -> Vec<Value>,
    /// Members that must not be null when the condition holds.
    pub require: &'static [usize],
    /// Members that must be null when the condition holds.
    pub forbid: &'static [usize],
}

/// `order(first <= second)` (`<` when `strict`), over member indices.
#[derive(Debug)]
pub struct Order {
    /// The member that comes first.
    pub first: usize,
    /// The member that comes second.
    pub second: usize,
    /// `<` rather than `<=`.
    pub strict: bool,
}

/// A tagged union.
#[derive(Debug)]
pub struct Union {
    /// The tag member's JSON name.
    pub tag: &'static str,
    /// The variants, in declaration order.
    pub variants: &'static [Variant],
    /// The code of a tag that names no variant (`unknown_variant`, or
    /// `unknown_tool` for a tools enum).
    pub unknown: &'static str,
}

/// A union variant.
#[derive(Debug)]
pub struct Variant {
    /// The tag's value naming it.
    pub name: &'static str,
    /// What sits beside the tag.
    pub members: VariantMembers,
}

/// What sits beside a variant's tag.
#[derive(Debug)]
pub enum VariantMembers {
    /// Nothing.
    Unit,
    /// The variant's own members and rules.
    Struct(Object),
    /// A contract struct's members and rules (its [`Type`]).
    Newtype(&'static Type),
}

/// An object of no members and no rules: a unit variant's.
pub static NO_MEMBERS: Object = Object {
    members: &[],
    whens: &[],
    orders: &[],
    doc: None,
    version: None,
    check: None,
};

impl Description {
    /// A struct's object (of no members for an enum or a union).
    pub fn struct_object(&'static self) -> &'static Object {
        match &self.body {
            Body::Struct(object) => object,
            Body::Enum(_) | Body::Union(_) => &NO_MEMBERS,
        }
    }

    /// The object beside the tag of a union's variant `index`: its own
    /// members', of no members for a unit variant (and for a newtype
    /// variant, whose members are its contract's, or no such variant).
    pub fn variant_object(&'static self, index: usize) -> &'static Object {
        let Body::Union(union) = &self.body else {
            return &NO_MEMBERS;
        };
        match union.variants.get(index).map(|v| &v.members) {
            Some(VariantMembers::Struct(object)) => object,
            _ => &NO_MEMBERS,
        }
    }
}

impl Type {
    /// The type under any `Box`.
    pub fn unboxed(&self) -> &Type {
        let mut ty = self;
        while let Type::Boxed(inner) = ty {
            ty = inner;
        }
        ty
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json_type::JsonType;

    #[derive(crate::Contract, Debug)]
    #[contract(order(low <= high))]
    struct Ranged {
        #[contract(min = 1)]
        low: u8,
        high: Option<u8>,
        #[contract(optional, max_len = 3, pattern = "^a")]
        tags: Option<Vec<String>>,
        next: Option<Box<Ranged>>,
    }

    fn body_of<T: JsonType>() -> &'static Body {
        match T::TYPE {
            Type::Contract(f) => &f().body,
            other => panic!("not a contract: {other:?}"),
        }
    }

    #[test]
    fn a_struct_describes_each_member_with_its_exact_type_and_constraints() {
        let Body::Struct(object) = body_of::<Ranged>() else {
            panic!("a struct");
        };
        let [low, high, tags, next] = object.members else {
            panic!("four members");
        };
        assert_eq!(low.name, "low");
        assert!(matches!(low.ty, Type::Int(Int::U8)));
        assert!(matches!(
            low.constraints,
            [Constraint::Min(Literal::Int(1))]
        ));
        assert!(matches!(high.ty, Type::Option(Type::Int(Int::U8))));
        assert!(tags.optional && !low.optional);
        assert!(matches!(tags.ty, Type::Option(Type::Array(Type::String))));
        assert!(matches!(
            tags.constraints,
            [
                Constraint::MaxLen(3),
                Constraint::Pattern { written: "^a", .. }
            ]
        ));
        // The recursion goes through a function: the same description.
        let Type::Option(Type::Boxed(Type::Contract(f))) = next.ty else {
            panic!("a boxed contract");
        };
        assert_eq!((f().id)(), TypeId::of::<Ranged>());
        assert!(matches!(
            object.orders,
            [Order {
                first: 0,
                second: 1,
                strict: false
            }]
        ));
    }

    #[test]
    fn every_integer_kind_states_its_rust_range() {
        assert_eq!(Int::U8.range(), (0, 255));
        assert_eq!(Int::I8.range(), (-128, 127));
        assert_eq!(Int::U64.range(), (0, i128::from(u64::MAX)));
        assert_eq!(
            Int::I64.range(),
            (i128::from(i64::MIN), i128::from(i64::MAX))
        );
    }
}
