//! The rules the layers test holds the module tree to: the layer list and
//! the top-level modules agree, no path goes up the stack, no two
//! top-level modules name each other, and inside every module its
//! submodules name each other in no circle.
use std::collections::{BTreeMap, BTreeSet};

use crate::source::Module;

/// The layers, low to high, read from the text of `src/layers.md`: each
/// numbered item is a layer, its modules are the names in bold
/// (`**`name`**` or `**[`name`]…**`).
pub fn layers(list: &str) -> Vec<Vec<String>> {
    let mut layers: Vec<Vec<String>> = Vec::new();
    for line in list.lines() {
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
}

/// What breaks the rules, each entry one finding in words.
#[derive(Debug, Default)]
pub struct Findings {
    /// Modules the list names more than once.
    pub listed_twice: Vec<String>,
    /// Top-level modules (`lib` for the crate root) the list lacks.
    pub unlisted: Vec<String>,
    /// Modules the list names that the crate lacks.
    pub absent: Vec<String>,
    /// `a -> b` where `b`'s layer is above `a`'s, with the paths.
    pub upward: Vec<String>,
    /// `a <-> b`: two top-level modules naming each other.
    pub mutual: Vec<String>,
    /// Submodules of one module naming each other in a circle.
    pub circles: Vec<String>,
}

/// Edges between the modules of one graph: `(from, to)` to the
/// `FILE: path` texts that make them.
pub type Edges = BTreeMap<(String, String), BTreeSet<String>>;

pub fn check(layers: &[Vec<String>], modules: &[Module]) -> Findings {
    let mut findings = Findings::default();
    let layer = |name: &str| layers.iter().position(|l| l.iter().any(|m| m == name));

    let listed: Vec<&String> = layers.iter().flatten().collect();
    let mut seen = BTreeSet::new();
    for name in &listed {
        if !seen.insert(name.as_str()) {
            findings.listed_twice.push((*name).clone());
        }
    }

    // A top-level module goes by its file's name (`#[path = "private.rs"]
    // mod __private;` is `private`), the crate root by `lib`.
    let mut top: BTreeMap<&str, String> = BTreeMap::new();
    for module in modules.iter().filter(|m| m.path.len() == 1) {
        let file = module.file.split(['/', ' ']).next().unwrap_or_default();
        let name = if module.file.contains(" (mod ") {
            module.path[0].clone()
        } else {
            file.trim_end_matches(".rs").to_owned()
        };
        top.insert(&module.path[0], name);
    }
    let present: BTreeSet<&str> = top.values().map(String::as_str).chain(["lib"]).collect();
    findings.unlisted = present.difference(&seen).map(|m| m.to_string()).collect();
    findings.absent = seen.difference(&present).map(|m| m.to_string()).collect();

    let mut edges = Edges::new();
    for module in modules {
        let from = match module.path.first() {
            Some(first) => top[first.as_str()].clone(),
            None => "lib".to_owned(),
        };
        for named in &module.named {
            let Some(to) = named.target.first().and_then(|t| top.get(t.as_str())) else {
                continue;
            };
            if *to != from {
                edges
                    .entry((from.clone(), to.clone()))
                    .or_default()
                    .insert(format!("{}: {}", module.file, named.text));
            }
        }
    }
    for ((from, to), texts) in &edges {
        if let (Some(low), Some(high)) = (layer(from), layer(to))
            && high > low
        {
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            findings
                .upward
                .push(format!("{from} -> {to} ({})", texts.join("; ")));
        }
        if from < to && edges.contains_key(&(to.clone(), from.clone())) {
            findings.mutual.push(format!("{from} <-> {to}"));
        }
    }

    let files: BTreeMap<&[String], &str> = modules
        .iter()
        .map(|m| (m.path.as_slice(), m.file.as_str()))
        .collect();
    for (parent, edges) in submodule_graphs(modules) {
        for circle in circles(&edges) {
            let file = |name: &String| {
                let mut path = parent.clone();
                path.push(name.clone());
                files.get(path.as_slice()).copied().unwrap_or_default()
            };
            let names: Vec<&str> = circle.iter().map(file).collect();
            let mut through = Vec::new();
            for ((from, to), texts) in &edges {
                if circle.contains(from) && circle.contains(to) {
                    through.extend(texts.iter().map(String::as_str));
                }
            }
            findings.circles.push(format!(
                "in `{}`, {} form a circle through:\n    {}",
                parent.join("::"),
                names.join(", "),
                through.join("\n    ")
            ));
        }
    }
    findings
}

/// For each module below the crate root, the edges between its
/// submodules (the crate root's are the layers' business).
fn submodule_graphs(modules: &[Module]) -> BTreeMap<Vec<String>, Edges> {
    let known: BTreeSet<&[String]> = modules.iter().map(|m| m.path.as_slice()).collect();
    let mut graphs: BTreeMap<Vec<String>, Edges> = BTreeMap::new();
    for module in modules {
        for named in &module.named {
            let target = &named.target;
            let common = module
                .path
                .iter()
                .zip(target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == 0 || common >= module.path.len() || common >= target.len() {
                continue;
            }
            let from = &module.path[common];
            let to = &target[common];
            if from == to || !known.contains(&target[..=common]) {
                continue;
            }
            graphs
                .entry(module.path[..common].to_vec())
                .or_default()
                .entry((from.clone(), to.clone()))
                .or_default()
                .insert(format!("{}: {}", module.file, named.text));
        }
    }
    graphs
}

/// The strongly connected components of more than one node (Tarjan).
pub fn circles(edges: &Edges) -> Vec<Vec<String>> {
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
