//! The modules of the runtime and of the derive form a tree: no file
//! imports, directly or through others, a file that imports it. Checked on
//! the sources, so a new import circle fails CI with the circle named.
//!
//! An edge is a `crate::…`/`super::…` path in a file's code (comments and
//! `#[cfg(test)]` modules aside) to another module; a path through a
//! re-export (`pub use`) counts as an edge to the module that defines the
//! item, and re-exports themselves are not edges (they are the facade).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`crate::schema::hash`) -> its source text.
fn modules(src: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let rel = file.strip_prefix(src).expect("inside src");
            let mut parts: Vec<String> = rel
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            let name = std::iter::once("crate".to_owned())
                .chain(parts)
                .collect::<Vec<_>>()
                .join("::");
            (
                name,
                code_of(&std::fs::read_to_string(&file).expect("read")),
            )
        })
        .collect()
}

/// The text without comments and without the `#[cfg(test)]` module.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path the code names: `use` statements (re-exports marked), with
/// groups (`crate::{a, b::c}`) expanded and relative paths resolved, and
/// `crate::…`/`super::…` paths anywhere in the code.
fn paths(module: &str, code: &str, mods: &BTreeMap<String, String>) -> Vec<(Vec<String>, bool)> {
    let here: Vec<String> = module.split("::").map(str::to_owned).collect();
    let mut out = Vec::new();
    for stmt in code.split(';') {
        let Some(start) = stmt.lines().rev().find(|l| {
            let l = l.trim_start();
            l.starts_with("use ") || l.starts_with("pub use ") || l.starts_with("pub(crate) use ")
        }) else {
            continue;
        };
        let from = stmt.rfind(start).unwrap_or(0);
        let text = stmt[from..].trim_start();
        let reexport = text.starts_with("pub use ");
        let path = text.split_once("use ").map_or("", |(_, p)| p).trim();
        let first: String = path
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let (base, rest) = match first.as_str() {
            "crate" | "super" | "self" => continue, // the scan below sees these
            _ if mods.contains_key(&format!("{module}::{first}")) => (here.clone(), path),
            _ => continue, // another crate
        };
        expand(&base, rest, reexport, &mut out);
    }
    for (i, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        let before = &code[..i];
        if before.ends_with('$') || before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let statement = before.rsplit([';', '}']).next().unwrap_or("");
        let reexport = statement.trim_start().starts_with("pub use");
        let mut base = here.clone();
        let rest = if let Some(rest) = code[i..].strip_prefix("super::") {
            base.pop();
            rest
        } else {
            base = vec!["crate".to_owned()];
            &code[i + "crate::".len()..]
        };
        expand(&base, rest, reexport, &mut out);
    }
    out
}

/// Expands one path (and its `{…}` group, if any) after `base`.
fn expand(base: &[String], rest: &str, reexport: bool, out: &mut Vec<(Vec<String>, bool)>) {
    let mut path = base.to_vec();
    let mut s = rest;
    loop {
        let ident: String = s
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if ident.is_empty() {
            if let Some(group) = s.strip_prefix('{') {
                let mut depth = 1;
                let end = group
                    .char_indices()
                    .find(|(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map_or(group.len(), |(j, _)| j);
                let mut depth = 0;
                let mut start = 0;
                let inner = &group[..end];
                for (j, c) in inner.char_indices().chain(std::iter::once((end, ','))) {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            expand(&path, inner[start..j].trim(), reexport, out);
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            break;
        }
        s = &s[ident.len()..];
        if ident != "self" {
            path.push(ident);
        }
        match s.strip_prefix("::") {
            Some(next) => s = next,
            None => break,
        }
    }
    out.push((path, reexport));
}

/// The module a path lands in: its longest module prefix, followed
/// through that module's re-exports.
fn resolve(
    path: &[String],
    mods: &BTreeMap<String, String>,
    reexports: &BTreeMap<(String, String), Vec<String>>,
    hops: usize,
) -> Option<String> {
    let mut k = path.len();
    while k > 0 && !mods.contains_key(&path[..k].join("::")) {
        k -= 1;
    }
    let module = path[..k].join("::");
    if hops < 8 {
        if let Some(item) = path.get(k) {
            if let Some(target) = reexports.get(&(module.clone(), item.clone())) {
                let mut next = target.clone();
                next.extend(path[k + 1..].iter().cloned());
                return resolve(&next, mods, reexports, hops + 1);
            }
        }
    }
    (k > 0).then_some(module)
}

fn cycle_in(src: &Path) -> Option<Vec<String>> {
    let mods = modules(src);
    let mut reexports = BTreeMap::new();
    for (module, code) in &mods {
        for (path, reexport) in paths(module, code, &mods) {
            if let (true, Some(name)) = (reexport, path.last()) {
                reexports.insert((module.clone(), name.clone()), path.clone());
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &mods {
        for (path, reexport) in paths(module, code, &mods) {
            if reexport {
                continue;
            }
            if let Some(target) = resolve(&path, &mods, &reexports, 0) {
                if &target != module && target != "crate" {
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
    }
    // Depth-first search for a back edge.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(pos) = stack.iter().position(|s| s == m) {
            let mut cycle = stack[pos..].to_vec();
            cycle.push(m.to_owned());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        stack.push(m.to_owned());
        for next in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, edges, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(m.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    mods.keys()
        .find_map(|m| visit(m, &edges, &mut Vec::new(), &mut done))
}

fn src(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src")
}

#[test]
fn runtime_modules_form_a_tree() {
    if let Some(cycle) = cycle_in(&src("binform")) {
        panic!("import circle in binform: {}", cycle.join(" -> "));
    }
}

#[test]
fn derive_modules_form_a_tree() {
    if let Some(cycle) = cycle_in(&src("binform-derive")) {
        panic!("import circle in binform-derive: {}", cycle.join(" -> "));
    }
}

/// The checker itself finds a circle (a test that could not fail would
/// prove nothing).
#[test]
fn the_checker_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("binform-tree-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("b")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a; mod b;\npub use a::Thing;\n").unwrap();
    std::fs::write(
        dir.join("a.rs"),
        "use crate::b::helper;\npub struct Thing;\n",
    )
    .unwrap();
    std::fs::write(dir.join("b/mod.rs"), "mod inner;\npub use inner::helper;\n").unwrap();
    std::fs::write(
        dir.join("b/inner.rs"),
        "// crate::nothing in a comment\nuse crate::{Thing as _};\npub fn helper() {}\n",
    )
    .unwrap();
    let cycle = cycle_in(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        cycle.map(|c| c.join(" -> ")),
        Some("crate::a -> crate::b::inner -> crate::a".to_owned())
    );
}
