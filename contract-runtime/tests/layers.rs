//! The runtime's modules form a stack: a module names only modules of its
//! own layer or of lower ones, and no two modules name each other. The
//! layers are read from `src/layers.md`, the list the crate docs include
//! ("Layers"), so that list is the only copy.
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
