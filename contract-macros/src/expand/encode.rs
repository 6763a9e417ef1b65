//! Encoding: the body of `Field::encode`, a JSON value with the contract's
//! names.
use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::checked::{Member, Members, Union};
use crate::model::Variant;

/// A struct encodes as an object with a key per member.
pub fn struct_body() -> TokenStream {
    let p = private();
    quote! {
        let mut __contract_map = #p::Map::new();
        <Self as #p::ObjectMembers>::encode_members(self, &mut __contract_map);
        #p::Value::Object(__contract_map)
    }
}

/// Inserts each member into `__contract_map`; `place(i, member)` is the
/// member's value (`self.name`, or a variant's binding).
pub fn members(
    members: &[Member<'_>],
    place: impl Fn(usize, &Member<'_>) -> TokenStream,
) -> TokenStream {
    let p = private();
    let places = members.iter().enumerate().map(|(i, f)| place(i, f));
    let names = members.iter().map(|f| f.json_name);
    // `<T as Field>`, not `Field::encode`: a field type that is not a
    // contract is then reported at the type, as every other use reports it.
    let tys = members.iter().map(|f| f.ty);
    quote! {
        #( #p::put(__contract_map, #names, <#tys as #p::JsonType>::encode(&#places)); )*
    }
}

/// An enum encodes as its variant's name.
pub fn enum_body(variants: &[Variant<'_>]) -> TokenStream {
    let p = private();
    let idents = variants.iter().map(|v| v.ident);
    let names = variants.iter().map(|v| v.json_name.as_str());
    quote! {
        #p::Value::String(#p::String::from(match self {
            #( Self::#idents => #names, )*
        }))
    }
}

/// A tagged union encodes as an object: the tag first, then the variant's
/// members.
pub fn union_body(u: &Union<'_>) -> TokenStream {
    let p = private();
    let tag = u.tag;
    let arms = u.variants.iter().map(|v| {
        let pattern = v.pattern();
        let name = v.variant.json_name.as_str();
        let rest = match &v.members {
            Members::Unit => TokenStream::new(),
            Members::Struct(fields) => members(fields, |_, f| {
                let binding = f.binding();
                quote!((*#binding))
            }),
            Members::Newtype(ty) => quote! {
                <#ty as #p::ObjectMembers>::encode_members(__contract_inner, __contract_map);
            },
        };
        quote! {
            #pattern => {
                __contract_map.insert(#p::String::from(#tag), #p::Value::String(#p::String::from(#name)));
                #rest
            }
        }
    });
    quote! {
        let mut __contract_object = #p::Map::new();
        let __contract_map = &mut __contract_object;
        match self {
            #(#arms)*
        }
        #p::Value::Object(__contract_object)
    }
}
