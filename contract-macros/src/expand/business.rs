//! The business stage and the outcome: the `Business` impl (`evidence`,
//! nested contracts, `check`), `Contract::__business` that runs it at the
//! root, and `Contract::__outcome`.
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::{Place, private, private_at};
use crate::checked::{Member, Members, Struct, Union};
use crate::pointer;

/// `Contract::__outcome`, when the struct names its `outcome` member.
pub fn outcome_fn(s: &Struct<'_>) -> TokenStream {
    let p = private();
    if s.outcome.is_none() {
        return TokenStream::new();
    }
    let kind = outcome_body(s);
    quote! {
        fn __outcome(&self) -> #p::OutcomeKind {
            #kind
        }
    }
}

/// The decision of a struct's value (`self`): its `outcome` member's, or
/// accept.
pub fn outcome_body(s: &Struct<'_>) -> TokenStream {
    let p = private();
    let Some(outcome) = &s.outcome else {
        return quote!(#p::OutcomeKind::Accept);
    };
    // The one use of the `OutcomeEnum` bound, spanned at `outcome = FIELD`
    // (the attribute's own token for the field), so a type that is not a
    // contract enum is reported there, once.
    let mut name = outcome.member.ident.clone();
    name.set_span(outcome.at);
    let at = private_at(outcome.at);
    quote_spanned!(outcome.at=> #at::OutcomeEnum::outcome_kind(&self.#name))
}

/// The business stage of one contract: its `Business` impl, and the
/// `Contract::__business` item that runs it at the root.
pub struct Stage {
    pub business_impl: TokenStream,
    pub contract_fn: TokenStream,
}

/// A struct's business stage: its `evidence` members, its nested
/// contracts, then its `check` function.
pub fn of_struct(ident: &syn::Ident, generics: &syn::Generics, s: &Struct<'_>) -> Stage {
    let place = |f: &Member<'_>| {
        let ident = f.ident;
        quote!(self.#ident)
    };
    let Some(context) = s.context else {
        return no_context(ident, generics);
    };
    let members = member_checks(&s.members, &place, context);
    let drops = quarantine_drops(&s.members, &place);
    let drops = (!drops.is_empty()).then(|| {
        quote! {
            match __contract_v.pointer.as_str() {
                #(#drops)*
                _ => {}
            }
        }
    });
    let check = s.check_fn.map(|path| check_call(path, drops));
    let bound = bound_checks(&s.members, &place);
    let members_at: Vec<(String, &Member<'_>)> =
        s.members.iter().map(|f| (String::new(), f)).collect();
    let (below, bindings) = bindings_fns(&members_at, &[], context);
    let mut stage = with_context(
        ident,
        generics,
        context,
        quote!(#members #check #bound),
        below,
    );
    stage.contract_fn.extend(bindings);
    stage
}

/// A tagged union's business stage: the chosen variant's `evidence`
/// members and nested contracts (a newtype variant's struct runs its own
/// checks, at the union's pointer: its members sit beside the tag), then the
/// union's `check` function.
pub fn of_union(ident: &syn::Ident, generics: &syn::Generics, u: &Union<'_>) -> Stage {
    let Some(context) = u.context else {
        return no_context(ident, generics);
    };
    let place = |f: &Member<'_>| {
        let binding = f.binding();
        quote!((*#binding))
    };
    let arms = u.variants.iter().map(|v| {
        let pattern = v.pattern();
        let body = match &v.members {
            Members::Unit => TokenStream::new(),
            Members::Struct(fields) => member_checks(fields, &place, context),
            Members::Newtype(ty) => {
                let at = private_at(ty.span());
                quote_spanned! {ty.span()=>
                    <#ty as #at::Business<#context>>::business_at(__contract_inner, __contract_ctx, __contract_path, __contract_cx);
                }
            }
        };
        quote!(#pattern => { #body })
    });
    // A review reason the check gives for a quarantined member of the
    // chosen variant drops that member's value.
    let drop_arms: Vec<TokenStream> = u
        .variants
        .iter()
        .filter_map(|v| {
            let Members::Struct(fields) = &v.members else {
                return None;
            };
            let drops = quarantine_drops(fields, &place);
            if drops.is_empty() {
                return None;
            }
            let pattern = v.pattern();
            Some(quote! {
                #pattern => match __contract_v.pointer.as_str() {
                    #(#drops)*
                    _ => {}
                },
            })
        })
        .collect();
    let rest = (drop_arms.len() < u.variants.len()).then(|| quote!(_ => {}));
    let drops = (!drop_arms.is_empty()).then(|| {
        quote! {
            match self {
                #(#drop_arms)*
                #rest
            }
        }
    });
    let check = u.check_fn.map(|path| check_call(path, drops));
    // The bound members of the chosen variant, after the `check` function
    // (whose reason at a pointer stands for `not_in_context` there).
    let bound_arms: Vec<TokenStream> = u
        .variants
        .iter()
        .filter_map(|v| {
            let Members::Struct(fields) = &v.members else {
                return None;
            };
            let checks = bound_checks(fields, &place);
            if checks.is_empty() {
                return None;
            }
            let pattern = v.pattern();
            Some(quote!(#pattern => { #checks }))
        })
        .collect();
    let bound = (!bound_arms.is_empty()).then(|| {
        let rest = (bound_arms.len() < u.variants.len()).then(|| quote!(_ => {}));
        quote! {
            match self {
                #(#bound_arms)*
                #rest
            }
        }
    });
    let body = quote! {
        match self {
            #(#arms)*
        }
        #check
        #bound
    };
    // A variant's members are at `/oneOf/<index>` of the union's schema.
    let bound: Vec<(String, &Member<'_>)> = u
        .variants
        .iter()
        .enumerate()
        .flat_map(|(i, v)| {
            let fields: &[Member<'_>] = match &v.members {
                Members::Struct(fields) => fields,
                Members::Unit | Members::Newtype(_) => &[],
            };
            fields.iter().map(move |f| (format!("/oneOf/{i}"), f))
        })
        .collect();
    // A newtype variant's struct is inlined at `/oneOf/<index>`: its
    // bindings (when it declares the union's context) under that prefix.
    let newtypes: Vec<(String, &syn::Type)> = u
        .variants
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match &v.members {
            Members::Newtype(ty) => Some((format!("/oneOf/{i}"), *ty)),
            Members::Unit | Members::Struct(_) => None,
        })
        .collect();
    let (below, bindings) = bindings_fns(&bound, &newtypes, context);
    let mut stage = with_context(ident, generics, context, body, below);
    stage.contract_fn.extend(bindings);
    stage
}

/// The `one_of = ctx.FIELD` checks of `members`: each value (each item of
/// a `Vec`) one of the context field's values, or `not_in_context`.
pub fn bound_checks(members: &[Member<'_>], place: Place<'_>) -> TokenStream {
    let p = private();
    let checks = members.iter().filter_map(|f| {
        let b = f.bound.as_ref()?;
        let (at, json, tokens) = (place(f), f.json_name, &b.tokens);
        let contains = quote_spanned! {b.field.span()=>
            #p::bound_contains(__contract_allowed, __contract_v)
        };
        let one = |index: TokenStream| {
            quote! {
                if !#contains {
                    #p::not_in_context(__contract_cx, __contract_path, #json, #index);
                }
            }
        };
        let value = if b.items {
            let check = one(quote!(#p::Some(__contract_i)));
            quote! {
                for (__contract_i, __contract_v) in __contract_vs.iter().enumerate() {
                    #check
                }
            }
        } else {
            one(quote!(#p::None))
        };
        let (name, bind) = if b.items {
            (quote!(__contract_vs), quote!(let __contract_vs = &#at;))
        } else {
            (quote!(__contract_v), quote!(let __contract_v = &#at;))
        };
        let body = if f.nullable {
            quote!(if let #p::Some(#name) = &#at { #value })
        } else {
            quote!(#bind #value)
        };
        Some(quote! {
            {
                let ctx = __contract_ctx;
                let __contract_allowed = &#tokens;
                #body
            }
        })
    });
    quote!(#(#checks)*)
}

/// `Business::bindings_below` (the bound members of `members`, each under
/// its prefix; then, below each member, those of the contracts it holds;
/// then those of each newtype variant's struct, under its prefix) and
/// `Contract::__bindings`, which collects them from the root and resolves
/// them in the full schema; nothing when no member is bound or holds a
/// contract. With the `evidence` members, found the same way for
/// `Contract::__evidence`.
fn bindings_fns(
    members: &[(String, &Member<'_>)],
    newtypes: &[(String, &syn::Type)],
    context: &syn::Type,
) -> (TokenStream, TokenStream) {
    let p = private();
    let own: Vec<TokenStream> = members
        .iter()
        .filter_map(|(prefix, f)| {
            let b = f.bound.as_ref()?;
            let items = if b.items { "/items" } else { "" };
            let pointer = format!("{prefix}/properties{}{items}", pointer::member(f.json_name));
            let tokens = &b.tokens;
            let values = quote_spanned!(b.field.span()=> #p::bound_values(__contract_allowed));
            Some(quote! {
                {
                    let __contract_allowed = &#tokens;
                    __contract_n.push(__contract_at, #pointer, #values);
                }
            })
        })
        .collect();
    let nested = members
        .iter()
        .filter(|(_, f)| f.kind.may_nest())
        .map(|(prefix, f)| {
            let pointer = format!("{prefix}/properties{}", pointer::member(f.json_name));
            (pointer, f.ty)
        })
        .chain(newtypes.iter().map(|(prefix, ty)| (prefix.clone(), *ty)))
        .map(|(pointer, ty)| {
            let at = private_at(ty.span());
            quote_spanned! {ty.span()=>
                <#ty as #at::Business<#context>>::bindings_below(
                    ctx,
                    &#at::Nested::below(__contract_at, #pointer),
                    __contract_n,
                );
            }
        });
    let nested: Vec<TokenStream> = nested.collect();
    let evidence: Vec<TokenStream> = members
        .iter()
        .filter(|(_, f)| f.evidence.is_some())
        .map(|(prefix, f)| {
            let pointer = format!("{prefix}/properties{}", pointer::member(f.json_name));
            quote! {
                __contract_n.evidence(
                    __contract_at,
                    #pointer,
                    #p::EvidenceSource::source_text(ctx),
                );
            }
        })
        .collect();
    let mut contract_fn = TokenStream::new();
    let mut below = TokenStream::new();
    if !own.is_empty() || !nested.is_empty() || !evidence.is_empty() {
        below = quote! {
            fn bindings_below(ctx: &#context, __contract_at: &str, __contract_n: &mut #p::Nested) {
                if !__contract_n.enter(::core::any::type_name::<Self>()) {
                    return;
                }
                #(#own)*
                #(#evidence)*
                #(#nested)*
                __contract_n.leave();
            }
        };
    }
    if !own.is_empty() || !nested.is_empty() {
        contract_fn.extend(quote! {
            fn __bindings(ctx: &Self::Context) -> #p::Vec<#p::Binding> {
                let mut __contract_n = #p::Nested::new();
                <Self as #p::Business<#context>>::bindings_below(ctx, "", &mut __contract_n);
                __contract_n.finish(<Self as #p::Contract>::json_schema)
            }
        });
    }
    if !evidence.is_empty() || !nested.is_empty() {
        contract_fn.extend(quote! {
            fn __evidence(ctx: &Self::Context) -> #p::Evidence {
                let mut __contract_n = #p::Nested::for_evidence();
                <Self as #p::Business<#context>>::bindings_below(ctx, "", &mut __contract_n);
                __contract_n.finish_evidence(<Self as #p::Contract>::json_schema)
            }
        });
    }
    (below, contract_fn)
}

/// Without a context a contract has no business checks, and none to pass
/// to the contracts it holds: its impl is a no-op for any context (an enum
/// of unit variants has none either).
pub fn no_context(ident: &syn::Ident, generics: &syn::Generics) -> Stage {
    let p = private();
    let mut with_c = generics.clone();
    with_c
        .params
        .insert(0, syn::parse_quote!(__ContractC: ?::core::marker::Sized));
    let (impl_generics, _, _) = with_c.split_for_impl();
    let (_, ty_generics, where_clause) = generics.split_for_impl();
    Stage {
        business_impl: quote! {
            #[automatically_derived]
            impl #impl_generics #p::Business<__ContractC> for #ident #ty_generics #where_clause {
                #[inline]
                fn business_at(&mut self, _: &__ContractC, _: &#p::Path<'_>, _: &mut #p::Collector) {}
            }
        },
        contract_fn: TokenStream::new(),
    }
}

pub fn with_context(
    ident: &syn::Ident,
    generics: &syn::Generics,
    context: &syn::Type,
    body: TokenStream,
    below: TokenStream,
) -> Stage {
    let p = private();
    // A type parameter's values run their checks with this context too.
    let mut bounded = generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    let where_clause = bounded.make_where_clause();
    for param in &params {
        where_clause
            .predicates
            .push(syn::parse_quote!(#param: #p::Business<#context>));
    }
    let (impl_generics, ty_generics, where_clause) = bounded.split_for_impl();
    Stage {
        business_impl: quote! {
            #[automatically_derived]
            impl #impl_generics #p::Business<#context> for #ident #ty_generics #where_clause {
                fn business_at(
                    &mut self,
                    __contract_ctx: &#context,
                    __contract_path: &#p::Path<'_>,
                    __contract_cx: &mut #p::Collector,
                ) {
                    let _ = (&__contract_ctx, &__contract_path, &__contract_cx);
                    #body
                }

                #below
            }
        },
        contract_fn: quote! {
            fn __business(&mut self, __contract_ctx: &Self::Context, __contract_cx: &mut #p::Collector) {
                <Self as #p::Business<#context>>::business_at(self, __contract_ctx, &#p::Path::Root, __contract_cx);
            }
        },
    }
}

/// The `evidence` checks of `members`, then their nested contracts' checks
/// (spanned at the member's type, where a context mismatch is reported).
pub fn member_checks(members: &[Member<'_>], place: Place<'_>, context: &syn::Type) -> TokenStream {
    let p = private();
    let evidence = members.iter().filter_map(|f| {
        let ev = f.evidence?;
        let (at, json) = (place(f), f.json_name);
        let source = quote_spanned!(ev=> #p::EvidenceSource::source_text(__contract_ctx));
        let quarantine = f.quarantine;
        let value = if f.nullable {
            quote!(#p::Option::as_deref(&#at))
        } else {
            quote!(#p::Some(::core::ops::Deref::deref(&#at)))
        };
        let drop_value = if quarantine && f.nullable {
            quote!(#at = #p::None;)
        } else {
            TokenStream::new()
        };
        Some(quote! {
            if let #p::Some(__contract_quote) = #value {
                if !#p::evidence(__contract_cx, __contract_path, #source, __contract_quote, #json, #quarantine) {
                    #drop_value
                }
            }
        })
    });
    let nested = members.iter().filter(|f| f.kind.may_nest()).map(|f| {
        let (at, ty, json) = (place(f), f.ty, f.json_name);
        let p = private_at(ty.span());
        quote_spanned! {ty.span()=>
            <#ty as #p::Business<#context>>::business_at(&mut #at, __contract_ctx, &__contract_path.key(#json), __contract_cx);
        }
    });
    quote! {
        #(#evidence)*
        #(#nested)*
    }
}

/// `pointer => place = None,` for each quarantined `Option` member: a
/// review reason the check gives for one drops its value, as a value
/// failure in decoding or missing evidence does.
fn quarantine_drops(members: &[Member<'_>], place: Place<'_>) -> Vec<TokenStream> {
    let p = private();
    members
        .iter()
        .filter(|f| f.quarantine && f.nullable)
        .map(|f| {
            let pointer = pointer::member(f.json_name);
            let at = place(f);
            quote!(#pointer => #at = #p::None,)
        })
        .collect()
}

/// The call of the `check` function; `drops` (matching `__contract_v`'s
/// pointer) runs for each review reason it gives.
pub fn check_call(path: &syn::Path, drops: Option<TokenStream>) -> TokenStream {
    let p = private();
    let call = quote_spanned!(path.span()=> #path(&*self, __contract_ctx));
    let drop_quarantined = drops.map(|drops| {
        quote! {
            for __contract_v in &__contract_vs.0 {
                if __contract_v.kind == #p::ViolationKind::Review {
                    #drops
                }
            }
        }
    });
    quote! {
        if let #p::Err(__contract_e) = #call {
            let __contract_vs = #p::Violations::from(__contract_e);
            #drop_quarantined
            #p::violations(__contract_cx, __contract_path, __contract_vs);
        }
    }
}
