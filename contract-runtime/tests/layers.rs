//! The runtime's modules form a stack: a module names only modules of its
//! own layer or of lower ones, and no two modules name each other. The
//! layers are read from `src/layers.md`, the list the crate docs include
//! ("Layers"), so that list is the only copy. Inside every directory module
//! the submodules' imports form no circle (no list: acyclic is the rule).
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

/// The layers, low to high, read from `src/layers.md`: each numbered item
/// is a layer, its modules are the names in bold (`**`name`**` or
/// `**[`name`]…**`).
fn layers() -> &'static [Vec<String>] {
    static LAYERS: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    LAYERS.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/layers.md");
        // An unreadable list is an empty one, which the tests below refuse.
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let mut layers: Vec<Vec<String>> = Vec::new();
        for line in text.lines() {
            let trimmed = line.trim_start();
            let numbered = trimmed
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
            if numbered && line == trimmed {
                layers.push(Vec::new());
            } else if line.is_empty() || line == trimmed {
                continue;
            }
            let Some(layer) = layers.last_mut() else {
                continue;
            };
            for bold in trimmed.split("**").skip(1).step_by(2) {
                let name = bold.trim_start_matches('[');
                if let Some(name) = name.strip_prefix('`').and_then(|n| n.split('`').next()) {
                    layer.push(name.to_owned());
                }
            }
        }
        layers
    })
}

fn layer(module: &str) -> Option<usize> {
    layers().iter().position(|l| l.iter().any(|m| m == module))
}

// `crate::NAME` paths outside comments and test modules, per top-level module.
fn edges() -> std::io::Result<BTreeMap<String, BTreeSet<String>>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap_or(&path);
            let first = rel.components().next().map(|c| c.as_os_str());
            let first = first.and_then(|f| f.to_str()).unwrap_or_default();
            let module = first.trim_end_matches(".rs").to_owned();
            let text = std::fs::read_to_string(&path)?;
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                let mut rest = line;
                while let Some(at) = rest.find("crate::") {
                    rest = &rest[at + "crate::".len()..];
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if name != module && layer(&name).is_some() {
                        edges.entry(module.clone()).or_default().insert(name);
                    }
                }
                // `use crate::{a::X, b::Y}`
                if let Some(list) = line.split("use crate::{").nth(1) {
                    for item in list.split(',') {
                        let name = item.trim().split("::").next().unwrap_or("");
                        if name != module && layer(name).is_some() {
                            edges
                                .entry(module.clone())
                                .or_default()
                                .insert(name.to_owned());
                        }
                    }
                }
            }
        }
    }
    Ok(edges)
}

/// The top-level modules of `src/`: a file `NAME.rs` or a directory `NAME/`.
fn modules() -> std::io::Result<BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(src)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if path.is_dir() {
            modules.insert(name.to_owned());
        } else if let Some(stem) = name.strip_suffix(".rs") {
            modules.insert(stem.to_owned());
        }
    }
    Ok(modules)
}

#[test]
fn the_layer_list_names_each_module_of_src_once() {
    let listed: Vec<&String> = layers().iter().flatten().collect();
    let unique: BTreeSet<String> = listed.iter().map(|m| (*m).clone()).collect();
    assert_eq!(
        listed.len(),
        unique.len(),
        "a module listed twice: {listed:?}"
    );
    assert_eq!(
        unique,
        modules().unwrap(),
        "src/layers.md and the modules of src/ differ"
    );
}

#[test]
fn every_module_has_a_layer() {
    for (module, targets) in edges().unwrap() {
        assert!(layer(&module).is_some(), "`{module}` is in no layer");
        for t in targets {
            assert!(layer(&t).is_some(), "`{t}` is in no layer");
        }
    }
}

#[test]
fn layers_have_no_upward_edge() {
    let edges = edges().unwrap();
    let mut upward = Vec::new();
    for (module, targets) in &edges {
        for target in targets {
            if layer(target) > layer(module) {
                upward.push(format!("{module} -> {target}"));
            }
            if edges.get(target).is_some_and(|t| t.contains(module)) {
                upward.push(format!("{module} <-> {target}"));
            }
        }
    }
    assert!(upward.is_empty(), "edges against the stack: {upward:?}");
}

// Inside each directory module, the submodules' imports form no circle.

#[path = "layers/source.rs"]
mod source;

use source::{code_of, module_tree, named_paths, without_tests};

/// For each directory module below the crate root, the edges between its
/// submodules: `(from, to)` to the imports that make them.
type Graphs = BTreeMap<Vec<String>, BTreeMap<(String, String), BTreeSet<String>>>;

fn submodule_graphs() -> std::io::Result<(Graphs, BTreeMap<Vec<String>, String>)> {
    let modules = module_tree()?;
    let files: BTreeMap<Vec<String>, String> = modules
        .iter()
        .map(|m| (m.path.clone(), m.file.clone()))
        .collect();
    let mut graphs = Graphs::new();
    for module in &modules {
        for (target, text) in named_paths(&module.path, &module.code) {
            let common = module
                .path
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == 0 || common >= module.path.len() || common >= target.len() {
                continue;
            }
            let from = module.path[common].clone();
            let to = target[common].clone();
            let parent = module.path[..common].to_vec();
            let mut to_path = parent.clone();
            to_path.push(to.clone());
            if from == to || !files.contains_key(&to_path) {
                continue;
            }
            graphs
                .entry(parent)
                .or_default()
                .entry((from, to))
                .or_default()
                .insert(format!("{}: {text}", module.file));
        }
    }
    Ok((graphs, files))
}

/// The strongly connected components of more than one node (Tarjan).
fn circles(edges: &BTreeMap<(String, String), BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        next: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, node: &'a str) {
        let n = w.index.len();
        w.index.insert(node, n);
        w.low.insert(node, n);
        w.stack.push(node);
        for next in w.next.get(node).cloned().unwrap_or_default() {
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[node].min(w.low[next]);
                w.low.insert(node, low);
            } else if w.stack.contains(&next) {
                let low = w.low[node].min(w.index[next]);
                w.low.insert(node, low);
            }
        }
        if w.low[node] == w.index[node] {
            let mut component = Vec::new();
            while let Some(top) = w.stack.pop() {
                component.push(top.to_owned());
                if top == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut walk = Walk {
        next: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for (from, to) in edges.keys() {
        walk.next
            .entry(from.as_str())
            .or_default()
            .push(to.as_str());
        walk.next.entry(to.as_str()).or_default();
    }
    let nodes: Vec<&str> = walk.next.keys().copied().collect();
    for node in nodes {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.found
}

#[test]
fn the_module_tree_is_found_from_lib_rs() {
    let (_, files) = submodule_graphs().unwrap();
    for file in [
        "cli/check.rs",
        "schema/provider/lower.rs",
        "stream/plan/rules.rs",
        "private.rs",
    ] {
        assert!(
            files.values().any(|f| f == file),
            "{file} not found: {files:?}"
        );
    }
    assert!(
        !files.values().any(|f| f.ends_with("tests.rs")),
        "a test file counted"
    );
}

#[test]
fn submodules_import_each_other_in_no_circle() {
    let (graphs, files) = submodule_graphs().unwrap();
    let mut failures = Vec::new();
    for (parent, edges) in &graphs {
        for circle in circles(edges) {
            let file = |name: &String| {
                let mut path = parent.clone();
                path.push(name.clone());
                files.get(&path).cloned().unwrap_or_default()
            };
            let names: Vec<String> = circle.iter().map(file).collect();
            let mut imports = Vec::new();
            for ((from, to), texts) in edges {
                if circle.contains(from) && circle.contains(to) {
                    imports.extend(texts.iter().cloned());
                }
            }
            failures.push(format!(
                "in `{}`, {} form a circle through:\n    {}",
                parent.join("::"),
                names.join(", "),
                imports.join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "submodules in a circle:\n{}",
        failures.join("\n")
    );
}

#[test]
fn imports_are_read_through_groups_renames_and_inline_modules() {
    let here: Vec<String> = vec!["d".into(), "x".into()];
    let code = code_of(
        "use super::{a::{A, b::B}, c as C, self as D};\n\
         // super::commented::X\n\
         fn f() { super::e::f(); self::g::h(); crate::d::i::j(); let s = \"super::k::l\"; }\n\
         mod inner { use super::super::m::N; }\n\
         #[cfg(test)]\nmod tests { use super::super::t::T; }\n",
    );
    let named: BTreeSet<Vec<String>> = named_paths(&here, &without_tests(&code))
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let path = |p: &str| p.split("::").map(str::to_owned).collect::<Vec<_>>();
    let expected: BTreeSet<Vec<String>> = [
        "d::a::A",
        "d::a::b::B",
        "d::c",
        "d",
        "d::e::f",
        "d::x::g::h",
        "d::i::j",
        "d::m::N",
    ]
    .into_iter()
    .map(path)
    .collect();
    assert_eq!(named, expected);
}

#[test]
fn a_circle_names_every_submodule_in_it() {
    let mut edges = BTreeMap::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "d")] {
        edges.insert((from.to_owned(), to.to_owned()), BTreeSet::new());
    }
    assert_eq!(
        circles(&edges),
        vec![vec!["a".to_owned(), "b".into(), "c".into()]]
    );
}
