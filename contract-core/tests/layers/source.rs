//! How the layers test reads the source: every file parsed with `syn`, the
//! module tree followed from `lib.rs` (`mod NAME;`, `#[path = "…"]`, inline
//! `mod NAME { … }`), items behind `#[cfg(test)]` left out, and the module
//! paths each module names.
use std::collections::BTreeMap;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};
use syn::{Attribute, ImplItem, Item, ItemMod, ItemUse, Meta, TraitItem, UseTree};

/// Source files by their path relative to `src/` (`schema/mod.rs`).
pub type Files = BTreeMap<String, String>;

/// A path a module names, resolved from the crate root, with the text
/// that names it (`use super::a::B` is `super::a::B`).
#[derive(Debug)]
pub struct Named {
    pub target: Vec<String>,
    pub text: String,
}

/// One module of the crate.
#[derive(Debug)]
pub struct Module {
    /// From the crate root: `["schema", "provider"]`; the root is `[]`.
    pub path: Vec<String>,
    /// Its file relative to `src/`; an inline module is `FILE (mod NAME)`.
    pub file: String,
    pub named: Vec<Named>,
}

/// The crate's modules, found by following the module declarations outside
/// tests from `lib.rs`.
pub fn module_tree(files: &Files) -> Result<Vec<Module>, String> {
    let mut modules = Vec::new();
    // (module path, file, whether the file's children live beside it)
    let mut todo = vec![(Vec::new(), "lib.rs".to_owned(), true)];
    while let Some((path, file, owns_dir)) = todo.pop() {
        let text = files
            .get(&file)
            .ok_or_else(|| format!("`{}` needs {file}, which is missing", path.join("::")))?;
        let ast = syn::parse_file(text).map_err(|e| format!("{file}: {e}"))?;
        let file_dir = match file.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/"),
            None => String::new(),
        };
        // A file that owns its directory (`lib.rs`, `mod.rs`, one named by
        // `#[path]`) keeps its children beside it; `a.rs` keeps them in `a/`.
        let dir = if owns_dir || file.ends_with("/mod.rs") {
            file_dir.clone()
        } else {
            format!("{}/", file.trim_end_matches(".rs"))
        };
        let mut reader = Reader {
            files,
            file: &file,
            file_dir,
            dir,
            inline: 0,
            module: path.clone(),
            current: 0,
            modules: vec![Module {
                path,
                file: file.clone(),
                named: Vec::new(),
            }],
            declared: Vec::new(),
        };
        for item in &ast.items {
            reader.visit_item(item);
        }
        todo.extend(reader.declared);
        modules.extend(reader.modules);
    }
    Ok(modules)
}

/// Reads one file: the modules it holds (itself and its inline modules),
/// what each names, and the files it declares.
struct Reader<'a> {
    files: &'a Files,
    file: &'a str,
    /// The directory of the file, and where the current module's
    /// `mod NAME;` files live.
    file_dir: String,
    dir: String,
    /// How many inline modules deep the reader is.
    inline: usize,
    module: Vec<String>,
    /// The index in `modules` of the module being read.
    current: usize,
    modules: Vec<Module>,
    declared: Vec<(Vec<String>, String, bool)>,
}

impl Reader<'_> {
    /// Records `words` (`super`, `a`, `B`) if they start from `crate`,
    /// `super` or `self`; a lone `self` is a value, not a module.
    fn name(&mut self, words: &[String]) {
        let Some((first, rest)) = words.split_first() else {
            return;
        };
        let mut target = match first.as_str() {
            "crate" => Vec::new(),
            "super" if !self.module.is_empty() => self.module[..self.module.len() - 1].to_vec(),
            "self" if !rest.is_empty() => self.module.clone(),
            _ => return,
        };
        for word in rest {
            match word.as_str() {
                "super" => {
                    target.pop();
                }
                "self" => {}
                _ => target.push(word.clone()),
            }
        }
        self.modules[self.current].named.push(Named {
            target,
            text: words.join("::"),
        });
    }

    /// Every path a use tree ends in, from the `words` before it.
    fn use_tree(&mut self, tree: &UseTree, words: &mut Vec<String>) {
        match tree {
            UseTree::Path(p) => {
                words.push(p.ident.to_string());
                self.use_tree(&p.tree, words);
                words.pop();
            }
            UseTree::Name(n) => self.name_with(words, n.ident.to_string()),
            UseTree::Rename(r) => self.name_with(words, r.ident.to_string()),
            UseTree::Glob(_) => self.name(words),
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(tree, words);
                }
            }
        }
    }

    fn name_with(&mut self, words: &mut Vec<String>, last: String) {
        words.push(last);
        self.name(words);
        words.pop();
    }

    /// The paths in a macro's tokens: `crate::a::b`, `$crate::a`,
    /// `super::{a, b::C}`, in nested groups too. In a `macro_rules!`
    /// body, `$crate::…` names the crate where the macro expands, so it
    /// does not count.
    fn scan(&mut self, tokens: TokenStream, definition: bool) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            let start = match &tokens[i] {
                TokenTree::Group(g) => {
                    self.scan(g.stream(), definition);
                    None
                }
                TokenTree::Ident(_) if definition && dollar(&tokens, i) => None,
                TokenTree::Ident(id) if !path_separator(&tokens, i.saturating_sub(2)) => {
                    let word = id.to_string();
                    matches!(word.as_str(), "crate" | "super" | "self").then_some(word)
                }
                _ => None,
            };
            i += 1;
            let Some(start) = start else {
                continue;
            };
            let mut words = vec![start];
            while path_separator(&tokens, i) {
                match tokens.get(i + 2) {
                    Some(TokenTree::Ident(next)) => words.push(next.to_string()),
                    Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                        let parse = Punctuated::<UseTree, syn::Token![,]>::parse_terminated;
                        for tree in parse.parse2(g.stream()).unwrap_or_default() {
                            self.use_tree(&tree, &mut words);
                        }
                        words.clear();
                    }
                    _ => break,
                }
                i += 3;
            }
            if words.len() > 1 {
                self.name(&words);
            }
        }
    }
}

/// Whether `tokens[at]` follows a `$`.
fn dollar(tokens: &[TokenTree], at: usize) -> bool {
    at > 0 && matches!(&tokens[at - 1], TokenTree::Punct(p) if p.as_char() == '$')
}

/// Whether `tokens[at..]` starts with `::`.
fn path_separator(tokens: &[TokenTree], at: usize) -> bool {
    let colon =
        |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == ':');
    colon(tokens.get(at)) && colon(tokens.get(at + 1))
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item(&mut self, item: &'ast Item) {
        if !test_only(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast ImplItem) {
        let attrs: &[Attribute] = match item {
            ImplItem::Const(i) => &i.attrs,
            ImplItem::Fn(i) => &i.attrs,
            ImplItem::Type(i) => &i.attrs,
            ImplItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast TraitItem) {
        let attrs: &[Attribute] = match item {
            TraitItem::Const(i) => &i.attrs,
            TraitItem::Fn(i) => &i.attrs,
            TraitItem::Type(i) => &i.attrs,
            TraitItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast ItemMod) {
        let name = item.ident.to_string();
        let mut path = self.module.clone();
        path.push(name.clone());
        let declared = path_attr(&item.attrs);
        let Some((_, items)) = &item.content else {
            // `#[path]` is relative to the file's directory, or inside an
            // inline module to where that module's files live.
            let (file, owns_dir) = match declared {
                Some(p) if self.inline == 0 => (format!("{}{p}", self.file_dir), true),
                Some(p) => (format!("{}{p}", self.dir), true),
                None if self.files.contains_key(&format!("{}{name}.rs", self.dir)) => {
                    (format!("{}{name}.rs", self.dir), false)
                }
                None => (format!("{}{name}/mod.rs", self.dir), true),
            };
            self.declared.push((path, file, owns_dir));
            return;
        };
        self.modules.push(Module {
            path: path.clone(),
            file: format!("{} (mod {name})", self.file),
            named: Vec::new(),
        });
        let outer = (self.current, self.dir.clone());
        self.current = self.modules.len() - 1;
        self.dir = match declared {
            Some(p) => format!("{}{}/", self.dir, p.trim_end_matches('/')),
            None => format!("{}{name}/", self.dir),
        };
        self.inline += 1;
        let module = std::mem::replace(&mut self.module, path);
        for item in items {
            self.visit_item(item);
        }
        self.module = module;
        self.inline -= 1;
        (self.current, self.dir) = outer;
    }

    fn visit_item_use(&mut self, item: &'ast ItemUse) {
        if item.leading_colon.is_none() {
            self.use_tree(&item.tree, &mut Vec::new());
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            let words: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.name(&words);
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        let definition = mac.path.is_ident("macro_rules");
        self.scan(mac.tokens.clone(), definition);
    }
}

fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Whether an item is compiled only for tests: `#[cfg(test)]`,
/// `#[cfg(all(test, …))]`.
pub fn test_only(attrs: &[Attribute]) -> bool {
    fn requires_test(meta: &Meta) -> bool {
        let nested = |list: &syn::MetaList| -> Vec<Meta> {
            let parse = Punctuated::<Meta, syn::Token![,]>::parse_terminated;
            list.parse_args_with(parse)
                .map(|metas| metas.into_iter().collect())
                .unwrap_or_default()
        };
        match meta {
            Meta::Path(p) => p.is_ident("test"),
            Meta::List(list) if list.path.is_ident("all") => nested(list).iter().any(requires_test),
            Meta::List(list) if list.path.is_ident("any") => {
                let all = nested(list);
                !all.is_empty() && all.iter().all(requires_test)
            }
            _ => false,
        }
    }
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && attr.parse_args::<Meta>().is_ok_and(|m| requires_test(&m))
    })
}

/// The file of `#[path = "FILE"]`.
fn path_attr(attrs: &[Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}
