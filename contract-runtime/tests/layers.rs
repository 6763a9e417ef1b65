//! The runtime's modules form a stack (see the crate docs, "Layers"): a
//! module names only modules of its own layer or of lower ones, and no
//! two modules name each other.
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, low to high, as the crate docs list them.
const LAYERS: &[&[&str]] = &[
    &["error"],
    &["code", "pointer", "shape", "date", "fingerprint", "stack"],
    &["json", "outcome", "feedback"],
    &["schema", "diff", "compat"],
    &["core"],
    &["decode", "rules", "business"],
    &["pipeline"],
    &["edit", "stream"],
    &["contract"],
    &["report", "retry", "checked"],
    &["cli"],
    &["private", "lib"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
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
