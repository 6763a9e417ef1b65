//! What the derive needs to know of a field's type, read from its syntax.
use syn::{GenericArgument, PathArguments, Type};

#[derive(Clone, Debug)]
pub enum Ty {
    Bool,
    Int(IntTy),
    Float,
    String,
    Date,
    /// `contract_runtime::DateTime`: an instant, ordered with its own kind only.
    DateTime,
    Option(Box<Ty>),
    Vec(Box<Ty>),
    Map(Box<Ty>),
    /// `Box<T>`: the indirection a recursive contract needs.
    Boxed(Box<Ty>),
    /// Another contract type (struct or enum, maybe generic, or a type
    /// parameter), checked by rustc through a trait bound.
    Contract,
    /// Not supported; the message says what to write instead.
    Unsupported(String),
}

#[derive(Clone, Copy, Debug)]
pub struct IntTy {
    pub min: i128,
    pub max: i128,
}

impl Ty {
    pub fn of(ty: &Type) -> Ty {
        match ty {
            Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return Ty::Unsupported("an empty type path".into());
                };
                let name = last.ident.to_string();
                let args: Vec<&Type> = match &last.arguments {
                    PathArguments::None => Vec::new(),
                    PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .filter_map(|a| match a {
                            GenericArgument::Type(t) => Some(t),
                            _ => None,
                        })
                        .collect(),
                    PathArguments::Parenthesized(_) => {
                        return Ty::Unsupported("a function type".into());
                    }
                };
                match (name.as_str(), args.as_slice()) {
                    ("bool", []) => Ty::Bool,
                    ("u8", []) => Ty::int(0, u8::MAX.into()),
                    ("u16", []) => Ty::int(0, u16::MAX.into()),
                    ("u32", []) => Ty::int(0, u32::MAX.into()),
                    ("u64" | "usize", []) => Ty::int(0, u64::MAX.into()),
                    ("i8", []) => Ty::int(i8::MIN.into(), i8::MAX.into()),
                    ("i16", []) => Ty::int(i16::MIN.into(), i16::MAX.into()),
                    ("i32", []) => Ty::int(i32::MIN.into(), i32::MAX.into()),
                    ("i64" | "isize", []) => Ty::int(i64::MIN.into(), i64::MAX.into()),
                    ("u128" | "i128", []) => Ty::Unsupported(
                        "128-bit integers (JSON numbers from a model are read as 64-bit; use `u64` or `i64`)".into(),
                    ),
                    ("f32" | "f64", []) => Ty::Float,
                    ("String", []) => Ty::String,
                    ("Date" | "NaiveDate", []) => Ty::Date,
                    ("DateTime", []) => Ty::DateTime,
                    ("Option", [inner]) => match Ty::of(inner) {
                        Ty::Option(_) => Ty::Unsupported(
                            "`Option<Option<T>>` (JSON has one null: use `Option<T>`, with `#[contract(optional)]` if the key may also be absent)".into(),
                        ),
                        Ty::Unsupported(why) => Ty::Unsupported(why),
                        inner => Ty::Option(Box::new(inner)),
                    },
                    ("Vec", [inner]) => match Ty::of(inner) {
                        Ty::Unsupported(why) => Ty::Unsupported(why),
                        inner => Ty::Vec(Box::new(inner)),
                    },
                    ("BTreeMap", [key, value]) => {
                        if !matches!(Ty::of(key), Ty::String) {
                            return Ty::Unsupported("a map whose keys are not `String` (JSON object keys are strings: use `BTreeMap<String, T>`)".into());
                        }
                        match Ty::of(value) {
                            Ty::Unsupported(why) => Ty::Unsupported(why),
                            inner => Ty::Map(Box::new(inner)),
                        }
                    }
                    ("HashMap" | "IndexMap", _) => Ty::Unsupported(
                        "`HashMap` (use `BTreeMap<String, T>`, whose order is deterministic)".into(),
                    ),
                    ("Box", [inner]) => match Ty::of(inner) {
                        Ty::Unsupported(why) => Ty::Unsupported(why),
                        inner => Ty::Boxed(Box::new(inner)),
                    },
                    // A string borrowed from the text where it can be.
                    ("Cow", [inner]) if is_str(inner) => Ty::String,
                    ("Box" | "Rc" | "Arc" | "Cow", _) => Ty::Unsupported(format!(
                        "`{name}<..>` (use the inner type directly, or `Box<..>` for a type that holds itself)"
                    )),
                    ("HashSet" | "BTreeSet" | "VecDeque", _) => Ty::Unsupported(format!(
                        "`{name}` (use `Vec<T>`)"
                    )),
                    ("char", []) => Ty::Unsupported("`char` (use `String` with `min_len = 1, max_len = 1`)".into()),
                    ("str", []) => Ty::Unsupported("`str` (use `String`)".into()),
                    ("Value", []) => Ty::Unsupported(
                        "`serde_json::Value` (a contract declares every shape; declare a nested contract struct)".into(),
                    ),
                    // A contract type, or a type parameter (bounded by
                    // `Contract`), or a generic contract (`Page<Ticket>`).
                    _ => Ty::Contract,
                }
            }
            // A string borrowed from the text (a contract with a lifetime).
            Type::Reference(r)
                if r.mutability.is_none()
                    && is_str(&r.elem)
                    && r.lifetime.as_ref().is_some_and(|l| l.ident != "static") =>
            {
                Ty::String
            }
            Type::Reference(r) if r.mutability.is_none() && is_str(&r.elem) => Ty::Unsupported(
                "`&'static str` (no text read at run time lives that long: use `String`, or declare the contract's lifetime, `struct Name<'a>`, and borrow from the text with `&'a str` or `Cow<'a, str>`)".into(),
            ),
            Type::Reference(_) => Ty::Unsupported(
                "a reference other than `&'a str` (use an owned type such as `String`, or `Cow<'a, str>` for a string borrowed from the text)".into(),
            ),
            Type::Tuple(t) if t.elems.is_empty() => Ty::Unsupported("`()`".into()),
            Type::Tuple(_) => Ty::Unsupported(
                "a tuple (declare a nested contract struct with named fields)".into(),
            ),
            Type::Array(_) | Type::Slice(_) => {
                Ty::Unsupported("an array or slice (use `Vec<T>` with `min_len`/`max_len`)".into())
            }
            Type::Paren(p) => Ty::of(&p.elem),
            Type::Group(g) => Ty::of(&g.elem),
            _ => Ty::Unsupported("this kind of type".into()),
        }
    }

    fn int(min: i128, max: i128) -> Ty {
        Ty::Int(IntTy { min, max })
    }

    /// The type under one `Option`, if any.
    pub fn strip_option(&self) -> &Ty {
        match self {
            Ty::Option(inner) => inner,
            other => other,
        }
    }

    pub fn is_option(&self) -> bool {
        matches!(self, Ty::Option(_))
    }

    /// Types `order(a <= b)` can compare.
    pub fn is_ordered(&self) -> bool {
        matches!(
            self.strip_option(),
            Ty::Int(_) | Ty::Float | Ty::String | Ty::Date | Ty::DateTime
        )
    }

    /// Whether the type may contain contract structs (whose rules must run).
    pub fn may_nest(&self) -> bool {
        match self {
            Ty::Contract => true,
            Ty::Option(t) | Ty::Vec(t) | Ty::Map(t) | Ty::Boxed(t) => t.may_nest(),
            _ => false,
        }
    }

    pub fn describe(&self) -> &'static str {
        match self.strip_option() {
            Ty::Bool => "a boolean",
            Ty::Int(_) => "an integer",
            Ty::Float => "a float",
            Ty::String => "a string",
            Ty::Date => "a date",
            Ty::DateTime => "a date-time",
            Ty::Vec(_) => "a `Vec`",
            Ty::Map(_) => "a map",
            Ty::Boxed(_) => "a `Box`",
            Ty::Contract => "a contract type",
            Ty::Option(_) | Ty::Unsupported(_) => "this type",
        }
    }
}

// `str`, by its last path segment.
fn is_str(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("str"))
}

/// Whether `ty` names a lifetime other than `'static`: a field of a
/// contract with a lifetime that borrows from the text (`&'a str`,
/// `Option<Cow<'a, str>>`, `Vec<Line<'a>>`).
pub fn borrows(ty: &Type) -> bool {
    fn names_lifetime(tokens: proc_macro2::TokenStream) -> bool {
        let mut after_quote = false;
        for tt in tokens {
            match tt {
                proc_macro2::TokenTree::Punct(p) if p.as_char() == '\'' => {
                    after_quote = true;
                    continue;
                }
                proc_macro2::TokenTree::Ident(i) if after_quote && i != "static" => return true,
                proc_macro2::TokenTree::Group(g) if names_lifetime(g.stream()) => return true,
                _ => {}
            }
            after_quote = false;
        }
        false
    }
    names_lifetime(quote::ToTokens::to_token_stream(ty))
}

/// Whether `ty` holds the type named `ident` (or `Self`) by value: not
/// behind a `Box`, a collection, a reference or a pointer. Such a type has
/// infinite size (rustc's E0072).
pub fn holds_by_value(ty: &Type, ident: &syn::Ident) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            if matches!(
                last.ident.to_string().as_str(),
                "Box"
                    | "Vec"
                    | "BTreeMap"
                    | "HashMap"
                    | "Rc"
                    | "Arc"
                    | "VecDeque"
                    | "BTreeSet"
                    | "HashSet"
                    | "Cow"
            ) {
                return false;
            }
            if p.path.segments.len() == 1 && (last.ident == *ident || last.ident == "Self") {
                return true;
            }
            match &last.arguments {
                PathArguments::AngleBracketed(a) => a.args.iter().any(|a| match a {
                    GenericArgument::Type(t) => holds_by_value(t, ident),
                    _ => false,
                }),
                _ => false,
            }
        }
        Type::Tuple(t) => t.elems.iter().any(|t| holds_by_value(t, ident)),
        Type::Array(a) => holds_by_value(&a.elem, ident),
        Type::Paren(p) => holds_by_value(&p.elem, ident),
        Type::Group(g) => holds_by_value(&g.elem, ident),
        _ => false,
    }
}

/// Inner type tokens of `Option<T>` (for `Option::<T>::None` and the like).
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(a) = &last.arguments else {
        return None;
    };
    a.args.iter().find_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    })
}
