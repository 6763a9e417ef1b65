//! The runtime's modules form a stack: a module names only modules of its
//! own layer or of lower ones, and no two modules name each other. The
//! layers are read from `src/layers.md`, the list the crate docs include
//! ("Layers"), so that list is the only copy. Inside every module the
//! submodules' paths to each other form no circle (no list: acyclic is the
//! rule). The sources are parsed with `syn`: every `use` tree and every
//! `crate::`, `super::` and `self::` path in code or in a macro's tokens
//! counts; items behind `#[cfg(test)]` do not, nor `$crate::` paths in a
//! `macro_rules!` body (they name the crate from wherever the macro
//! expands: for an exported macro, the user's crate).
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

#[path = "layers/check.rs"]
mod check;
#[path = "layers/source.rs"]
mod source;

use check::{Edges, Findings, check, circles, layers};
use source::{Files, Module, module_tree};

/// The runtime as the tests see it: `src/layers.md`, every `.rs` file
/// under `src/` read into its module tree, and what the rules find in it.
struct Runtime {
    list: String,
    modules: Vec<Module>,
    findings: Findings,
}

fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();
    let read = RUNTIME.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let io = |e: std::io::Error| e.to_string();
        let list = std::fs::read_to_string(src.join("layers.md")).map_err(io)?;
        let mut files = Files::new();
        let mut dirs = vec![src.clone()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).map_err(io)? {
                let path = entry.map_err(io)?.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let rel = path.strip_prefix(&src).map_err(|e| e.to_string())?;
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    files.insert(rel, std::fs::read_to_string(&path).map_err(io)?);
                }
            }
        }
        let modules = module_tree(&files)?;
        let findings = check(&layers(&list), &modules);
        Ok(Runtime {
            list,
            modules,
            findings,
        })
    });
    match read {
        Ok(runtime) => runtime,
        Err(e) => panic!("reading src/: {e}"),
    }
}

fn files_of(files: &[(&str, &str)]) -> Files {
    files
        .iter()
        .map(|(f, t)| ((*f).to_owned(), (*t).to_owned()))
        .collect()
}

/// The findings for a crate of in-memory files under the given list.
fn findings_of(list: &str, files: &[(&str, &str)]) -> Findings {
    match module_tree(&files_of(files)) {
        Ok(modules) => check(&layers(list), &modules),
        Err(e) => panic!("{e}"),
    }
}

const TWO_LAYERS: &str = "1. **[`low`]** and **`low_too`**\n2. **`high`**\n3. **`lib`**\n";

// The runtime itself.

#[test]
fn the_layer_list_names_each_module_of_src_once() {
    let findings = &runtime().findings;
    assert_eq!(findings.listed_twice, Vec::<String>::new(), "listed twice");
    assert_eq!(findings.absent, Vec::<String>::new(), "listed, not in src/");
}

#[test]
fn every_module_has_a_layer() {
    assert!(
        !layers(&runtime().list).is_empty(),
        "src/layers.md is empty"
    );
    assert_eq!(runtime().findings.unlisted, Vec::<String>::new());
}

#[test]
fn layers_have_no_upward_edge() {
    let findings = &runtime().findings;
    assert!(
        findings.upward.is_empty() && findings.mutual.is_empty(),
        "edges against the stack: {:?} {:?}",
        findings.upward,
        findings.mutual
    );
}

#[test]
fn submodules_import_each_other_in_no_circle() {
    let circles = &runtime().findings.circles;
    assert!(
        circles.is_empty(),
        "submodules in a circle:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_module_tree_is_found_from_lib_rs() {
    let modules = &runtime().modules;
    for file in [
        "cli/check.rs",
        "schema/provider/lower.rs",
        "stream/plan/rules.rs",
        "private.rs",
    ] {
        assert!(modules.iter().any(|m| m.file == file), "{file} not found");
    }
    assert!(
        !modules.iter().any(|m| m.file.contains("tests")),
        "a test module counted"
    );
}

// Each rule, broken on purpose.

#[test]
fn a_module_missing_from_the_list_is_found() {
    let findings = findings_of(
        TWO_LAYERS,
        &[
            ("lib.rs", "mod low; mod low_too; mod high; mod stray;"),
            ("low.rs", ""),
            ("low_too.rs", ""),
            ("high.rs", ""),
            ("stray/mod.rs", ""),
        ],
    );
    assert_eq!(findings.unlisted, ["stray"]);
    assert!(findings.absent.is_empty());
}

#[test]
fn a_listed_module_the_crate_lacks_is_found() {
    let findings = findings_of(
        TWO_LAYERS,
        &[
            ("lib.rs", "mod low; mod high;"),
            ("low.rs", ""),
            ("high.rs", ""),
            // A file no `mod` declares is not a module.
            ("low_too.rs", ""),
        ],
    );
    assert_eq!(findings.absent, ["low_too"]);
    assert!(findings.unlisted.is_empty());
}

#[test]
fn a_module_listed_twice_is_found() {
    let findings = findings_of(
        "1. **`low`**\n2. **`low`**\n3. **`lib`**\n",
        &[("lib.rs", "mod low;"), ("low.rs", "")],
    );
    assert_eq!(findings.listed_twice, ["low"]);
}

#[test]
fn an_upward_path_is_found_with_the_text_that_makes_it() {
    let findings = findings_of(
        TWO_LAYERS,
        &[
            ("lib.rs", "mod low; mod low_too; mod high;"),
            ("low.rs", "fn f() -> crate::high::H { todo!() }"),
            ("low_too.rs", "use crate::low::L;"),
            ("high.rs", "use crate::{low_too::{self as T, X}};"),
        ],
    );
    assert_eq!(
        findings.upward,
        ["low -> high (low.rs: crate::high::H)"],
        "{findings:?}"
    );
    assert!(findings.mutual.is_empty());
}

#[test]
fn two_modules_naming_each_other_are_found() {
    let findings = findings_of(
        TWO_LAYERS,
        &[
            ("lib.rs", "mod low; mod low_too; mod high;"),
            ("low.rs", "pub fn f() { crate::low_too::g() }"),
            (
                "low_too.rs",
                "pub fn g() { println!(\"{}\", crate::low::X) }",
            ),
            ("high.rs", ""),
        ],
    );
    assert_eq!(findings.mutual, ["low <-> low_too"]);
    assert!(findings.upward.is_empty());
}

#[test]
fn a_circle_between_submodules_is_found() {
    let findings = findings_of(
        "1. **`outer`**\n2. **`lib`**\n",
        &[
            ("lib.rs", "mod outer;"),
            ("outer/mod.rs", "mod a; mod b; mod c;"),
            ("outer/a.rs", "use super::b::B;"),
            ("outer/b.rs", "type T = crate::outer::c::C;"),
            ("outer/c.rs", "fn f() { super::a::f() }"),
        ],
    );
    assert_eq!(findings.circles.len(), 1, "{findings:?}");
    for file in ["outer/a.rs", "outer/b.rs", "outer/c.rs"] {
        assert!(findings.circles[0].contains(file), "{findings:?}");
    }
}

#[test]
fn a_circle_through_an_inline_module_is_found() {
    let findings = findings_of(
        "1. **`outer`**\n2. **`lib`**\n",
        &[
            ("lib.rs", "mod outer;"),
            (
                "outer/mod.rs",
                "mod a; pub mod inline { pub fn f() { super::a::g() } }",
            ),
            ("outer/a.rs", "pub fn g() { super::inline::f() }"),
        ],
    );
    assert_eq!(findings.circles.len(), 1, "{findings:?}");
    assert!(findings.circles[0].contains("outer/mod.rs (mod inline)"));
}

#[test]
fn a_test_module_names_nothing() {
    let findings = findings_of(
        TWO_LAYERS,
        &[
            ("lib.rs", "mod low; mod low_too; mod high;"),
            (
                "low.rs",
                "#[cfg(test)] mod tests { use crate::high::H; }\n\
                 #[cfg(all(test, feature = \"x\"))] fn t() { crate::high::f() }\n\
                 #[cfg(not(test))] fn n() { crate::low_too::f() }",
            ),
            ("low_too.rs", ""),
            ("high.rs", ""),
        ],
    );
    assert!(findings.upward.is_empty(), "{findings:?}");
}

#[test]
fn a_macro_definition_names_only_what_it_names_from_this_crate() {
    let findings = findings_of(
        TWO_LAYERS,
        &[
            ("lib.rs", "mod low; mod low_too; mod high;"),
            (
                "low.rs",
                "macro_rules! m { () => { $crate::high::X }; }\n\
                 macro_rules! n { () => { crate::high::Y }; }",
            ),
            ("low_too.rs", ""),
            ("high.rs", ""),
        ],
    );
    assert_eq!(findings.upward, ["low -> high (low.rs: crate::high::Y)"]);
}

#[test]
fn a_path_attribute_is_followed() {
    let modules = module_tree(&files_of(&[
        ("lib.rs", "#[path = \"elsewhere.rs\"] mod named;"),
        ("elsewhere.rs", "mod child;"),
        // A file named by `#[path]` keeps its children beside it.
        ("child.rs", "use crate::named::X;"),
    ]))
    .unwrap();
    let files: Vec<(&[String], &str)> = modules
        .iter()
        .map(|m| (m.path.as_slice(), m.file.as_str()))
        .collect();
    assert!(files.contains(&(&["named".to_owned()][..], "elsewhere.rs")));
    let child = ["named".to_owned(), "child".to_owned()];
    assert!(files.contains(&(&child[..], "child.rs")), "{files:?}");
}

#[test]
fn paths_are_read_through_groups_renames_expressions_types_and_macros() {
    let code = "use super::{a::{A, b::B}, c as C, self as D};\n\
         use super::e::*;\n\
         // super::commented::X\n\
         fn f(x: self::g::T) -> super::h::U {\n\
             super::i::f(); self.m(); crate::d::j::k();\n\
             let s = \"super::string::l\";\n\
             format!(\"{}\", $crate::l::m(super::{n::N, o}));\n\
         }\n\
         mod inner { use super::super::p::P; }\n\
         #[cfg(test)]\nmod tests { use super::super::t::T; }\n";
    let modules = module_tree(&files_of(&[
        ("lib.rs", "mod d;"),
        ("d/mod.rs", "mod x;"),
        ("d/x.rs", code),
    ]))
    .unwrap();
    let named: BTreeSet<String> = modules
        .iter()
        .filter(|m| m.file.starts_with("d/x.rs"))
        .flat_map(|m: &Module| &m.named)
        .map(|n| n.target.join("::"))
        .collect();
    let expected: BTreeSet<String> = [
        "d::a::A",
        "d::a::b::B",
        "d::c",
        "d",
        "d::e",
        "d::x::g::T",
        "d::h::U",
        "d::i::f",
        "d::j::k",
        "l::m",
        "d::n::N",
        "d::o",
        "d::p::P",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(named, expected);
}

#[test]
fn a_circle_names_every_submodule_in_it() {
    let mut edges = Edges::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "d")] {
        edges.insert((from.to_owned(), to.to_owned()), BTreeSet::new());
    }
    assert_eq!(
        circles(&edges),
        vec![vec!["a".to_owned(), "b".into(), "c".into()]]
    );
}
