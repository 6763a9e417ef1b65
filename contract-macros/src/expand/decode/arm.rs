//! A member's arm with its checks written inline (a quarantined field, an
//! `f32` with checks), for the member loop of `super::members`.
use proc_macro2::TokenStream;
use quote::quote;

use super::super::checks::Checks;
use super::super::private;
use crate::checked::Member;

/// A member's read with its checks written inline (see
/// `checks::inline_only`): the value read in a frame of its own
/// (`own_frame`), as the runtime's `member` does.
pub(super) fn inline_arm(
    f: &Member<'_>,
    v: &TokenStream,
    checks: Checks,
    borrowed: Option<&syn::Lifetime>,
) -> TokenStream {
    let p = private();
    let (ty, json) = (f.ty, f.json_name);
    // An array's checks run while it is read (`Checks::array`); other
    // fields' are written inline on the decoded value.
    let range = checks.range;
    let array = checks.array.zip(checks.table);
    let checks = match array {
        Some(_) => TokenStream::new(),
        None => checks.inline,
    };
    // A quarantined field's value failures may yet be absorbed: a
    // decode told to stop at its errors does not stop inside it.
    let (mark, unshield) = if f.quarantine {
        (
            quote!(__contract_cx.mark_quarantined()),
            quote!(__contract_cx.end_quarantined();),
        )
    } else {
        (quote!(__contract_cx.mark()), TokenStream::new())
    };
    let on_fail = if f.quarantine {
        // A quarantined value that fails only its value checks is dropped
        // to `None` with a review reason; a structural error (a wrong
        // type, a missing or unknown key, at any depth) still rejects.
        quote! {
            if __contract_cx.quarantine_since(__contract_mark) {
                #v.value = #p::Some(#p::None);
            } else {
                __contract_ok = false;
            }
        }
    } else {
        quote!(__contract_ok = false;)
    };
    // An `f32` with bounds is read and checked as the f64 the document
    // wrote, then narrowed: `1.00000001` must fail `max = 1` although it
    // rounds to `1.0f32`.
    let bounded_f32 = range.is_some() && f.f32;
    let (decode_ty, store) = if !bounded_f32 {
        (quote!(#ty), quote!(#v.value = #p::Some(__contract_x);))
    } else if f.nullable {
        (
            quote!(#p::Option<f64>),
            quote! {
                #v.value = match __contract_x {
                    #p::Some(__contract_y) => #p::narrow_f32(__contract_y, &__contract_p, __contract_cx).map(#p::Some),
                    #p::None => #p::Some(#p::None),
                };
            },
        )
    } else {
        (
            quote!(f64),
            quote!(#v.value = #p::narrow_f32(__contract_x, &__contract_p, __contract_cx);),
        )
    };
    let (items, array_only) = match borrowed {
        None => (quote!(read_array_items), quote!(read_array)),
        Some(_) => (
            quote!(read_borrowed_array_items),
            quote!(read_borrowed_array),
        ),
    };
    let read = match (array, borrowed) {
        (Some((true, table)), _) => {
            quote!(#p::#items::<#decode_ty>(__contract_r, &__contract_p, __contract_cx, #table))
        }
        (Some((false, table)), _) => {
            quote!(#p::#array_only::<#decode_ty>(__contract_r, &__contract_p, __contract_cx, #table))
        }
        (None, None) => {
            quote!(<#decode_ty as #p::JsonType>::decode(__contract_r, &__contract_p, __contract_cx))
        }
        (None, Some(lt)) => {
            quote!(<#decode_ty as #p::BorrowDecode<#lt>>::decode_borrowed(__contract_r, &__contract_p, __contract_cx))
        }
    };
    // A type error of a value whose field declares `min`/`max` names the
    // declared range.
    let range = range.map(|range| {
        let messages = super::super::lit::type_messages(&range);
        quote! {
            if __contract_cx.failed_since(__contract_mark) {
                static __CONTRACT_RANGE: #p::TypeMessages = #messages;
                #p::declared_range(__contract_cx, __contract_mark, &__contract_p, &__CONTRACT_RANGE);
            }
        }
    });
    // The text may end right after a wrong type (a stream's prefix).
    let range_on_err = range
        .as_ref()
        .map(|range| quote!(if __contract_read.is_err() { #range }));
    // The member's value is read in a frame of its own (`own_frame`):
    // unoptimised, the loop's frame would otherwise hold every member's
    // temporaries, and a recursive contract pays its frame per level.
    quote! {
        #p::own_frame(|| {
            if #v.seen {
                return #p::Err(#p::duplicate_key(__contract_at, __contract_path, #json));
            }
            #v.seen = true;
            let __contract_p = __contract_path.key(#json);
            let __contract_mark = #mark;
            let __contract_read =
                #read;
            #range_on_err
            if let #p::Some(__contract_x) = __contract_read? {
                #checks
                #store
            }
            #range
            #unshield
            if __contract_cx.failed_since(__contract_mark) {
                #on_fail
                __contract_cx.check_stop()?;
            }
            #p::Ok(true)
        })
    }
}
