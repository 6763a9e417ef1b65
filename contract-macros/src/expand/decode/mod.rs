//! Decoding: the body of `Field::decode` for a struct (one pass over the
//! object's keys, value checks as each value is read), for a union, and
//! (`strings`) for an enum.
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, format_ident, quote};

use super::checks;
use super::private;
use crate::checked::{Absent, Member, Members, Union};

// A member's arm with its checks inline; keys matched as raw bytes.
mod arm;
mod keys;
mod run;
mod strings;

use arm::inline_arm;
use keys::{lookup, plain, quoted_key};
use run::run;
pub use strings::enum_body;
use strings::equal_first;

/// How a decoder reads the text: through `JsonType` (any text, which a
/// `Cow` field then owns), or, for a contract with a lifetime, borrowing
/// from the text of that lifetime (`BorrowDecode`), each field that names
/// the lifetime through its `BorrowDecode` impl.
#[derive(Clone, Copy)]
pub enum Mode<'a> {
    Owned,
    Borrowed(&'a syn::Lifetime),
}

impl<'a> Mode<'a> {
    /// The lifetime a value of type `ty` is read with, if it borrows.
    fn borrowing(self, borrows: bool) -> Option<&'a syn::Lifetime> {
        match self {
            Mode::Borrowed(lt) if borrows => Some(lt),
            _ => None,
        }
    }

    /// The reader's type.
    fn reader(self) -> TokenStream {
        let p = private();
        match self {
            Mode::Owned => quote!(#p::Reader<'_>),
            Mode::Borrowed(lt) => quote!(#p::Reader<#lt>),
        }
    }
}

fn local(prefix: &str, i: usize) -> syn::Ident {
    format_ident!("__contract_{}{}", prefix, i)
}

/// A struct's `decode`: an object, then its members through
/// `ObjectMembers::decode_members` (the one member loop, which newtype
/// variants call too). Unoptimised, that is one more small frame per
/// level; a recursive contract's deep levels run on threads of their own
/// (`contract_runtime::stack`), so the stack a document needs stays bounded.
pub fn struct_body(mode: Mode<'_>) -> TokenStream {
    let p = private();
    let members = match mode {
        Mode::Owned => quote!(<Self as #p::ObjectMembers>::decode_members),
        Mode::Borrowed(lt) => quote!(<Self as #p::BorrowMembers<#lt>>::decode_members_borrowed),
    };
    quote! {
        match __contract_r.peek()? {
            #p::Peek::Object => {}
            __contract_other => {
                // The error's work is not generic: no copy of it per contract.
                #p::wrong_type(__contract_r, __contract_path, __contract_cx, "an object", __contract_other)?;
                return #p::Ok(#p::None);
            }
        }
        let __contract_more = __contract_r.begin_object()?;
        #members(
            __contract_r,
            __contract_path,
            __contract_cx,
            __contract_more,
            #p::None,
            &mut #p::TagSeen::new(),
        )
    }
}

/// The members of an object after its `{`, into `ctor { .. }` (`Self`, or a
/// union's variant): one pass over the keys, value checks as each value is
/// read. In scope: `__contract_more` (a member follows), `__contract_tag`
/// (the union's tag to skip once, if any) and `__contract_tag_seen`.
pub fn members(
    fields: &[Member<'_>],
    ctor: &TokenStream,
    tag: &TokenStream,
    tag_seen: &TokenStream,
    mode: Mode<'_>,
) -> TokenStream {
    let p = private();
    // Every field's `Slot`, in one tuple: unoptimised, each early return
    // then drops one value instead of one per field.
    let values: Vec<_> = (0..fields.len())
        .map(|i| {
            let i = syn::Index::from(i);
            quote!(__contract_slots.#i)
        })
        .collect();
    let taken: Vec<_> = (0..fields.len()).map(|i| local("v", i)).collect();
    let tys: Vec<_> = fields.iter().map(|f| f.ty).collect();
    let names: Vec<_> = fields.iter().map(|f| f.json_name).collect();
    let indices: Vec<_> = (0..fields.len()).collect();
    // Each member's read, an expression of type `Result<bool, ParseError>`
    // (whether it was read without error).
    let reads = fields.iter().enumerate().map(|(i, f)| {
        let (v, json, ty) = (&values[i], f.json_name, f.ty);
        let checks = checks::of(f);
        let borrowed = mode.borrowing(f.borrows);
        // Most fields: one call to the runtime's member reader, with the
        // field's checks as a static table.
        if !checks::inline_only(f) {
            let decode = match borrowed {
                None => quote!(<#ty as #p::JsonType>::decode),
                Some(lt) => quote!(<#ty as #p::BorrowDecode<#lt>>::decode_borrowed),
            };
            let decode = equal_first(f, decode, borrowed.is_some());
            return match (checks.table, checks.array) {
                (Some(table), Some(items)) => {
                    let member = match (items, borrowed.is_some()) {
                        (true, false) => quote!(member_array_items),
                        (false, false) => quote!(member_array),
                        (true, true) => quote!(member_borrowed_array_items),
                        (false, true) => quote!(member_borrowed_array),
                    };
                    quote!(#p::#member(__contract_r, __contract_path, __contract_cx, __contract_at, #json, &mut #v, #table))
                }
                (Some(table), None) => quote! {
                    #p::member(__contract_r, __contract_path, __contract_cx, __contract_at, #json, &mut #v, #decode, #table)
                },
                (None, _) => quote! {
                    #p::member_unchecked(__contract_r, __contract_path, __contract_cx, __contract_at, #json, &mut #v, #decode)
                },
            };
        }
        inline_arm(f, v, checks, borrowed)
    });
    let reads: Vec<TokenStream> = reads.collect();
    let arms = reads
        .iter()
        .enumerate()
        .map(|(i, read)| quote!(#i => #read,));
    let run = run(fields, &reads);
    // Optional members take their value when absent; the required ones
    // are tested together, one call for all (their `seen` flags, and a
    // static table of their names).
    let mut absent: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let v = &values[i];
            match f.absent {
                Absent::None => Some(quote!(if !#v.seen { #v.value = #p::Some(#p::None); })),
                Absent::Default => {
                    let ty = f.ty;
                    Some(quote!(if !#v.seen { #v.value = #p::Some(<#ty as ::core::default::Default>::default()); }))
                }
                Absent::Missing => None,
            }
        })
        .collect();
    let (required_seen, required): (Vec<_>, Vec<_>) = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.absent, Absent::Missing))
        .map(|(i, f)| {
            let (v, json) = (&values[i], f.json_name);
            let absent = if f.nullable {
                quote!(#p::Absent::Nullable)
            } else {
                quote!(#p::Absent::Field)
            };
            (quote!(#v.seen), quote!((#json, #absent)))
        })
        .unzip();
    if !required.is_empty() {
        absent.push(quote! {
            __contract_ok &= #p::present_all(
                __contract_cx,
                __contract_path,
                &[ #( #required_seen ),* ],
                &[ #( #required ),* ],
            );
        });
    }
    let idents: Vec<_> = fields.iter().map(|f| f.ident).collect();
    let slots = if fields.is_empty() {
        TokenStream::new()
    } else {
        quote!(let mut __contract_slots: ( #( #p::Slot<#tys>, )* ) = ( #( #p::Slot::<#tys>::NEW, )* );)
    };
    // Every value, or `None` (one of them failed). Unoptimised, matched
    // in the slots where they are: a tuple of them built first, then
    // matched, is a third more code for the compiler. Optimised, moved out
    // into that tuple: matched in place, the slots stay in memory and the
    // member loop takes more instructions (6 to 38 a document on the
    // seeds). Either way the same moves of the same values.
    let take = if fields.is_empty() {
        quote!(#p::Ok(#p::Some(#ctor {})))
    } else {
        quote! {
            #[cfg(debug_assertions)]
            return match __contract_slots {
                ( #( #p::Slot { value: #p::Some(#taken), .. }, )* ) => {
                    #p::Ok(#p::Some(#ctor { #( #idents: #taken ),* }))
                }
                _ => #p::Ok(#p::None),
            };
            #[cfg(not(debug_assertions))]
            {
                let ( #( #p::Some(#taken), )* ) = ( #( #values.value, )* ) else {
                    return #p::Ok(#p::None);
                };
                #p::Ok(#p::Some(#ctor { #( #idents: #taken ),* }))
            }
        }
    };
    // Each key as a compact document writes it, `"name":`, tried first when
    // it is the field expected next, and `,"name":` right after the value
    // of the field before it (a name that would need escaping in JSON is
    // never predicted). Each is a byte-string literal, an array of known
    // length, so the comparison compiles to a few integer compares.
    let predicted = fields.iter().enumerate().filter_map(|(i, f)| {
        let first = Literal::byte_string(format!("\"{}\":", f.json_name).as_bytes());
        let following = Literal::byte_string(format!(",\"{}\":", f.json_name).as_bytes());
        // The first field never follows another (after an undeclared
        // key, `next` is 0 too: its key is then looked up).
        plain(f.json_name).then(|| {
            if i == 0 {
                return quote!(0 => !__contract_comma && __contract_r.eat_key(#first),);
            }
            quote! {
                #i => if __contract_comma {
                    __contract_r.eat_key(#following)
                } else {
                    __contract_r.eat_key(#first)
                },
            }
        })
    });
    let lookup = lookup(fields);
    // A union's tag met in the member loop (only when `#tag` is `Some`):
    // whether it was read without error.
    let meet = quote! {{
        let __contract_met = #p::meet_tag(__contract_r, __contract_path, __contract_at, #tag, #tag_seen);
        // A union's variant decoded on a guess, which the tag says is
        // wrong: nothing more is read.
        if #tag_seen.wrong_guess() {
            return #p::Ok(#p::None);
        }
        __contract_met
    }};
    let undeclared = quote! {
        #p::undeclared_member(
            __contract_r,
            __contract_path,
            __contract_cx,
            &mut __contract_unknown,
            __contract_at,
            __contract_unknown_len,
            #tag,
            #tag_seen,
        )
    };
    // The index of a key that is not the predicted one: another field's
    // written as predicted keys are, else the key read and matched
    // (`usize::MAX - 1` a union's tag, `usize::MAX` an undeclared key).
    let other_key = quote! {
        match __contract_lookup(__contract_r) {
            __contract_i if __contract_i != usize::MAX => __contract_i,
            _ => {
                let __contract_read = __contract_r.read_key()?;
                // Optimised, a `match` on the key; unoptimised, the
                // runtime's search of the same names in the same order
                // (one function less per contract to compile).
                #[cfg(not(debug_assertions))]
                let __contract_i = {
                    fn __contract_index(__contract_key: &str) -> usize {
                        match __contract_key {
                            #( #names => #indices, )*
                            _ => usize::MAX,
                        }
                    }
                    __contract_index(__contract_read)
                };
                #[cfg(debug_assertions)]
                let __contract_i = #p::member_index(__contract_read, &[ #( #names ),* ]);
                if __contract_i == usize::MAX {
                    if #tag == #p::Some(__contract_read) {
                        // A union's tag: met as it is, no key kept.
                        usize::MAX - 1
                    } else {
                        // A union's variant decoded on a guess meets a
                        // key it does not declare before the tag: the
                        // guess is wrong, nothing is recorded.
                        if #tag_seen.unexpected_key(__contract_read) {
                            return #p::Ok(#p::None);
                        }
                        // Taken again below as a slice of the input
                        // (copied only if it has escapes), rather than
                        // copied here.
                        __contract_unknown_len = __contract_read.len();
                        usize::MAX
                    }
                } else {
                    __contract_i
                }
            }
        }
    };
    let count = fields.len();
    quote! {
        #slots
        let mut __contract_ok = true;
        // Made at the first undeclared key (a set in every frame would be
        // stored and tested at every object read).
        let mut __contract_unknown: #p::Option<#p::KeySet> = #p::None;
        // The length of the undeclared key just read (its offset is
        // `__contract_at`): no key is held across members.
        let mut __contract_unknown_len: usize = 0;
        // Models write keys in schema order: try the next field's key as
        // raw bytes first, and fall back to reading and matching the key.
        let mut __contract_next: usize = 0;
        let mut __contract_at = 0;
        // A function, not a `match` in this frame: unoptimised, each
        // comparison's temporaries would sit in it. It sets the offset of
        // the key it tries (after the `,` when `comma`). One function for
        // both forms: optimised, it is inlined where `comma` is known.
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn __contract_predicted(__contract_r: &mut #p::Reader<'_>, __contract_next: usize, __contract_at: &mut usize, __contract_comma: bool) -> bool {
            *__contract_at = __contract_r.offset() + usize::from(__contract_comma);
            match __contract_next {
                #( #predicted )*
                _ => false,
            }
        }
        #lookup
        // Optimised: each key that is not predicted starts a run of
        // members in declaration order (`run`); a document in that order
        // is one run.
        #[cfg(not(debug_assertions))]
        while __contract_more {
            let __contract_index: usize = match __contract_next {
                __contract_i if __contract_predicted(__contract_r, __contract_i, &mut __contract_at, false) => __contract_i,
                _ => #other_key,
            };
            if __contract_index == usize::MAX - 1 {
                // Only when `#tag` is `Some`; the tag takes no field's
                // place: the key after it is predicted as if it were not
                // there.
                __contract_ok &= #meet?;
            } else if __contract_index >= #count {
                // An undeclared key: the first field is expected next.
                __contract_next = 0;
                __contract_ok &= #undeclared?;
            } else {
                #run
            }
            __contract_more = __contract_r.object_more()?;
        }
        // Unoptimised: one member an iteration (a run's nested blocks cost
        // the debug profile's compile time more than its dispatch saves).
        #[cfg(debug_assertions)]
        let mut __contract_eaten = false;
        #[cfg(debug_assertions)]
        while __contract_more {
            let __contract_index: usize = match __contract_next {
                __contract_i if __contract_eaten || __contract_predicted(__contract_r, __contract_i, &mut __contract_at, false) => __contract_i,
                _ => #other_key,
            };
            // The tag takes no field's place: the key after it is
            // predicted as if it were not there.
            if __contract_index != usize::MAX - 1 {
                __contract_next = __contract_index.wrapping_add(1);
            }
            // Whether the member was read without error; one `?` for all.
            let __contract_read: #p::Result<bool, #p::ParseError> = match __contract_index {
                #( #arms )*
                // Only when `#tag` is `Some`.
                __contract_tag_index if __contract_tag_index == usize::MAX - 1 => #meet,
                _ => #undeclared,
            };
            __contract_ok &= __contract_read?;
            __contract_eaten = __contract_predicted(__contract_r, __contract_next, &mut __contract_at, true);
            if !__contract_eaten {
                __contract_more = __contract_r.object_more()?;
            }
        }
        #p::discard_keys(__contract_unknown);
        // The end of the object in a frame of its own, as each member's value.
        #p::own_frame(move || {
            #( #absent )*
            if !__contract_ok {
                return #p::Ok(#p::None);
            }
            #take
        })
    }
}

/// A tagged union reads an object and hands it to `decode_union`, which
/// finds the tag and calls `__contract_variants` with the variant it names.
/// Each variant's member loop is a function of its own: unoptimised, a
/// function's frame holds the locals of every branch, and a recursive union
/// would pay for all its variants at each level (the recursion tests' 2 MiB
/// stack).
pub fn union_body(
    ident: &syn::Ident,
    generics: &syn::Generics,
    u: &Union<'_>,
    mode: Mode<'_>,
) -> TokenStream {
    let p = private();
    // The nested functions cannot see the impl's type parameters: each
    // declares them again, and is called with them. A lifetime is
    // inferred (it is late-bound where the reader has it, and cannot be
    // named in a call).
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let turbofish = if generics.type_params().next().is_some() {
        ty_generics.as_turbofish().into_token_stream()
    } else {
        TokenStream::new()
    };
    let reader = mode.reader();
    let this = quote!(#ident #ty_generics);
    let tag = u.tag;
    let unknown = super::unknown_tag_code(u);
    let names: Vec<_> = u
        .variants
        .iter()
        .map(|v| v.variant.json_name.as_str())
        .collect();
    let expected = expected_names(&names);
    let quoted = Literal::byte_string(&quoted_key(tag));
    let quoted_names = names.iter().map(|n| Literal::byte_string(&quoted_key(n)));
    let tag_expr = quote!(#p::Some(#tag));
    let tag_seen = quote!(__contract_tag_seen);
    // Each variant's member names, for `decode_union` to guess the variant
    // from a member written before the tag.
    let member_names = u.variants.iter().map(|v| match &v.members {
        Members::Unit => quote!(&[]),
        Members::Struct(fields) => {
            let names = fields.iter().map(|f| f.json_name);
            quote!(&[#(#names),*])
        }
        Members::Newtype(ty) => quote!(<#ty as #p::ObjectMembers>::MEMBER_NAMES),
    });
    let arms = u.variants.iter().enumerate().map(|(i, v)| {
        let variant = v.variant.ident;
        let body = match &v.members {
            Members::Unit => members(&[], &quote!(#ident::#variant), &tag_expr, &tag_seen, mode),
            Members::Struct(fields) => {
                members(fields, &quote!(#ident::#variant), &tag_expr, &tag_seen, mode)
            }
            Members::Newtype(ty) => {
                let decode = match mode.borrowing(crate::ty::borrows(ty)) {
                    None => quote!(<#ty as #p::ObjectMembers>::decode_members),
                    Some(lt) => quote!(<#ty as #p::BorrowMembers<#lt>>::decode_members_borrowed),
                };
                quote! {
                #p::Result::map(
                    #decode(
                        __contract_r, __contract_path, __contract_cx, __contract_more, #p::Some(#tag), __contract_tag_seen,
                    ),
                    |__contract_v| #p::Option::map(__contract_v, #ident::#variant),
                )
                }
            }
        };
        quote! {
            #i => {
                #[allow(unused_mut)]
                fn __contract_variant #impl_generics (
                    __contract_r: &mut #reader,
                    __contract_path: &#p::Path<'_>,
                    __contract_cx: &mut #p::Collector,
                    mut __contract_more: bool,
                    __contract_tag_seen: &mut #p::TagSeen,
                ) -> #p::Result<#p::Option<#this>, #p::ParseError> #where_clause {
                    #body
                }
                __contract_variant #turbofish (
                    __contract_r,
                    __contract_path,
                    __contract_cx,
                    __contract_more,
                    __contract_tag_seen,
                )
            }
        }
    });
    let table = quote! {
        #p::Tag {
            name: #tag,
            quoted: #quoted,
            variants: &[#(#names),*],
            quoted_variants: &[#(#quoted_names),*],
            members: &[#(#member_names),*],
            expected: #expected,
            unknown: #unknown,
        }
    };
    // A `static` cannot name a type parameter (a newtype variant's
    // `Inner<T>`); a `const` block, promoted to `'static`, can.
    let (tag_item, tag_ref) = if !generics.params.is_empty() {
        (TokenStream::new(), quote!(&const { #table }))
    } else {
        (
            quote!(static __CONTRACT_TAG: #p::Tag = #table;),
            quote!(&__CONTRACT_TAG),
        )
    };
    quote! {
        #tag_item
        match __contract_r.peek()? {
            #p::Peek::Object => {}
            __contract_other => {
                // The error's work is not generic: no copy of it per contract.
                #p::wrong_type(__contract_r, __contract_path, __contract_cx, "an object", __contract_other)?;
                return #p::Ok(#p::None);
            }
        }
        fn __contract_variants #impl_generics (
            __contract_r: &mut #reader,
            __contract_path: &#p::Path<'_>,
            __contract_cx: &mut #p::Collector,
            __contract_variant: usize,
            __contract_more: bool,
            __contract_tag_seen: &mut #p::TagSeen,
        ) -> #p::Result<#p::Option<#this>, #p::ParseError> #where_clause {
            match __contract_variant {
                #(#arms)*
                _ => #p::Ok(#p::None),
            }
        }
        #p::decode_union(__contract_r, __contract_path, __contract_cx, #tag_ref, __contract_variants #turbofish)
    }
}

/// `one of: "a", "b"`.
fn expected_names(names: &[&str]) -> String {
    format!(
        "one of: {}",
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}
