//! Keys of a member loop matched as raw bytes: the field whose key comes
//! when it is not the one predicted, and which names are written as they are.
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::super::private;
use crate::checked::Member;

/// `__contract_lookup`: the field whose key comes next when it is not the
/// one predicted, matched as raw bytes (`"name":`, as a predicted key) by
/// the key's first byte, then its whole text; `usize::MAX` (nothing
/// consumed) for any other key, or one written otherwise (escaped, with
/// whitespace before its `:`), which the member loop then reads and matches
/// unescaped. The key's opening quote is the next byte.
pub(super) fn lookup(fields: &[Member<'_>]) -> TokenStream {
    let p = private();
    let dispatch = raw_dispatch(
        fields
            .iter()
            .enumerate()
            .filter(|(_, f)| plain(f.json_name))
            .map(|(i, f)| (format!("\"{}\":", f.json_name), quote!(return #i;))),
    );
    // Unoptimised, none: the key is read in full and its name searched
    // (what the dispatch finds, it finds too), one function less per
    // contract to compile.
    quote! {
        #[cfg(not(debug_assertions))]
        fn __contract_lookup(__contract_r: &mut #p::Reader<'_>) -> usize {
            #dispatch
            usize::MAX
        }
        #[cfg(debug_assertions)]
        use #p::no_lookup as __contract_lookup;
    }
}

/// A `match` on the byte after the next quote that tries each raw text
/// (`"name":` for a key, `"value"` for a string) with `eat_key` and runs
/// the code given with it on a match; nothing is consumed otherwise. Each
/// text starts with its quote.
pub(super) fn raw_dispatch(cases: impl IntoIterator<Item = (String, TokenStream)>) -> TokenStream {
    let mut by_byte: Vec<(u8, Vec<TokenStream>)> = Vec::new();
    for (quoted, matched) in cases {
        // The byte after the opening quote: the text's first, or the
        // closing quote of `""`.
        let Some(&first) = quoted.as_bytes().get(1) else {
            continue;
        };
        let raw = Literal::byte_string(quoted.as_bytes());
        let test = quote!(if __contract_r.eat_key(#raw) { #matched });
        match by_byte.iter_mut().find(|(b, _)| *b == first) {
            Some((_, tests)) => tests.push(test),
            None => by_byte.push((first, vec![test])),
        }
    }
    let arms = by_byte.iter().map(|(b, tests)| {
        let b = Literal::u8_suffixed(*b);
        quote!(#b => { #( #tests )* })
    });
    quote! {
        match __contract_r.key_byte() {
            #( #arms )*
            _ => {}
        }
    }
}

/// A key as it appears raw in a document, with its quotes, or empty (never
/// matched raw) when the name would need escaping in JSON.
pub(super) fn quoted_key(name: &str) -> Vec<u8> {
    if plain(name) {
        format!("\"{name}\"").into_bytes()
    } else {
        Vec::new()
    }
}

/// Whether a name is written in JSON as it is, without escapes: only such
/// a name is matched as raw bytes.
pub(super) fn plain(name: &str) -> bool {
    name.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\')
}
