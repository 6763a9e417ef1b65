//! How the layers test reads the source: comments, string contents and
//! test items left out, the module tree followed from `lib.rs`, and the
//! module paths each file names.
use std::path::Path;

/// A source file's text with comments removed and string and character
/// literals emptied of everything but the characters a file name uses, so
/// that braces and paths inside them count for nothing.
pub fn code_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == '"'
            || (c == 'r' && matches!(next, Some('"' | '#')) && !word_before(&chars, i))
        {
            // `"…"`, `r"…"`, `r#"…"#`.
            let raw = c == 'r';
            let mut hashes = 0;
            if raw {
                i += 1;
                while chars.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
                if chars.get(i) != Some(&'"') {
                    out.push('r');
                    continue;
                }
            }
            i += 1;
            out.push('"');
            while i < chars.len() {
                let s = chars[i];
                if !raw && s == '\\' {
                    i += 2;
                    continue;
                }
                if s == '"' && (0..hashes).all(|h| chars.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                let kept = s.is_alphanumeric() || matches!(s, '_' | '.' | '/' | '-');
                out.push(if kept { s } else { ' ' });
                i += 1;
            }
            out.push('"');
        } else if c == '\'' {
            // A character literal (`'x'`, `'\n'`, `'\u{7f}'`), not a lifetime.
            let end = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.push_str("' '");
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn word_before(chars: &[char], at: usize) -> bool {
    at > 0 && is_word(chars[at - 1])
}

/// `code` without the items behind `#[cfg(test)]` or `#[cfg(all(test, …))]`.
pub fn without_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    loop {
        let at = ["#[cfg(test)]", "#[cfg(all(test,"]
            .iter()
            .filter_map(|a| rest.find(a))
            .min();
        let Some(at) = at else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        // The attribute itself, then the item: up to its `;` or its
        // closing brace, past any further attributes.
        let mut depth = 0usize;
        let mut end = rest.len();
        let mut in_attr = 0usize;
        for (i, c) in rest.char_indices() {
            match c {
                '[' => in_attr += 1,
                ']' => in_attr = in_attr.saturating_sub(1),
                '{' if in_attr == 0 => depth += 1,
                '}' if in_attr == 0 => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if in_attr == 0 && depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
}

/// One module of the crate: its path from the crate root, its file
/// (relative to `src/`) and that file's code without comments or tests.
pub struct Module {
    pub path: Vec<String>,
    pub file: String,
    pub code: String,
}

/// The crate's modules, found by following the `mod NAME;` declarations
/// outside tests from `lib.rs`.
pub fn module_tree() -> std::io::Result<Vec<Module>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = Vec::new();
    let mut todo = vec![(Vec::<String>::new(), "lib.rs".to_owned())];
    while let Some((path, file)) = todo.pop() {
        let text = std::fs::read_to_string(src.join(&file))?;
        let code = without_tests(&code_of(&text));
        // Where this file's children live.
        let dir = match file.rsplit_once('/') {
            _ if file == "lib.rs" => String::new(),
            Some((dir, "mod.rs")) => format!("{dir}/"),
            Some((dir, name)) => format!("{dir}/{}/", name.trim_end_matches(".rs")),
            None => format!("{}/", file.trim_end_matches(".rs")),
        };
        let tokens: Vec<&str> = code
            .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
            .filter(|t| !t.is_empty())
            .collect();
        for (i, t) in tokens.iter().enumerate() {
            let Some(name) = tokens.get(i + 1).and_then(|n| n.strip_suffix(';')) else {
                continue;
            };
            if *t != "mod" || !name.chars().all(is_word) {
                continue;
            }
            // `#[path = "FILE"]` just before the declaration.
            let declared = tokens[i.saturating_sub(6)..i]
                .iter()
                .position(|t| *t == "#[path")
                .and_then(|p| tokens.get(i.saturating_sub(6) + p + 2))
                .map(|f| f.trim_end_matches(']').trim_matches('"').to_owned());
            let child = match declared {
                Some(f) => format!("{dir}{f}"),
                None if src.join(format!("{dir}{name}.rs")).is_file() => format!("{dir}{name}.rs"),
                None => format!("{dir}{name}/mod.rs"),
            };
            let mut child_path = path.clone();
            child_path.push(name.to_owned());
            todo.push((child_path, child));
        }
        modules.push(Module { path, file, code });
    }
    Ok(modules)
}

/// The module paths a piece of code names with `crate::`, `super::` or
/// `self::`, resolved from `here` (inline `mod NAME { … }` blocks count),
/// each with the text that names it.
pub fn named_paths(here: &[String], code: &str) -> Vec<(Vec<String>, String)> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    // The brace depth inside each enclosing inline module.
    let mut inline: Vec<usize> = Vec::new();
    let mut module: Vec<String> = here.to_vec();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            depth += 1;
        } else if c == '}' {
            if inline.last() == Some(&depth) {
                inline.pop();
                module.pop();
            }
            depth = depth.saturating_sub(1);
        } else if is_word(c) && !word_before(&chars, i) {
            let word: String = chars[i..].iter().take_while(|c| is_word(**c)).collect();
            let after = i + word.chars().count();
            if word == "mod" {
                let rest: String = chars[after..].iter().collect();
                let name: String = rest
                    .trim_start()
                    .chars()
                    .take_while(|c| is_word(*c))
                    .collect();
                let tail = rest.trim_start()[name.len()..].trim_start();
                if !name.is_empty() && tail.starts_with('{') {
                    module.push(name);
                    inline.push(depth + 1);
                }
            } else if matches!(word.as_str(), "crate" | "super" | "self")
                && !(i > 0 && chars[i - 1] == ':')
                && chars.get(after) == Some(&':')
                && chars.get(after + 1) == Some(&':')
            {
                let base = match word.as_str() {
                    "crate" => Vec::new(),
                    "super" => module[..module.len().saturating_sub(1)].to_vec(),
                    _ => module.clone(),
                };
                let mut j = after + 2;
                let mut paths = Vec::new();
                use_tree(&chars, &mut j, base, &mut paths);
                let text: String = chars[i..j].iter().collect();
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                for p in paths {
                    found.push((p, text.clone()));
                }
                i = j;
                continue;
            }
            i = after;
            continue;
        }
        i += 1;
    }
    found
}

/// Reads the rest of a path or use tree from `chars[*at..]` (just after a
/// `::`), pushing every path it ends in onto `out`.
fn use_tree(chars: &[char], at: &mut usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let skip_ws = |at: &mut usize| {
        while chars.get(*at).is_some_and(|c| c.is_whitespace()) {
            *at += 1;
        }
    };
    loop {
        skip_ws(at);
        if chars.get(*at) == Some(&'{') {
            *at += 1;
            loop {
                skip_ws(at);
                match chars.get(*at) {
                    Some('}') => {
                        *at += 1;
                        return;
                    }
                    Some(',') => *at += 1,
                    None => return,
                    _ => {
                        use_tree(chars, at, prefix.clone(), out);
                        // Past an `as NAME` to the next entry.
                        while chars.get(*at).is_some_and(|c| !matches!(c, ',' | '}')) {
                            *at += 1;
                        }
                    }
                }
            }
        }
        let word: String = chars[*at..].iter().take_while(|c| is_word(**c)).collect();
        if word.is_empty() {
            // `*` or the end of the path.
            if chars.get(*at) == Some(&'*') {
                *at += 1;
            }
            out.push(prefix);
            return;
        }
        *at += word.chars().count();
        match word.as_str() {
            "super" => {
                prefix.pop();
            }
            "self" => {}
            _ => prefix.push(word),
        }
        if chars.get(*at) == Some(&':') && chars.get(*at + 1) == Some(&':') {
            *at += 2;
        } else {
            // `as NAME` and whatever follows are not part of the path.
            out.push(prefix);
            return;
        }
    }
}
