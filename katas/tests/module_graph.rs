//! The modules of `katas/src` depend on one another without a circle (issue 25): a module names
//! another through `crate::name` in its code (comments and its own tests aside), and following
//! those names never leads back to where it started.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module name → the modules its code names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: BTreeSet<String> = std::fs::read_dir(&src)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path.file_stem()?.to_str()?.to_string();
            let module = path.is_dir() || path.extension().is_some_and(|x| x == "rs");
            (module && !name.ends_with("_tests") && name != "lib").then_some(name)
        })
        .collect();
    let mut graph = BTreeMap::new();
    for module in &modules {
        let file = src.join(format!("{module}.rs"));
        let file = if file.exists() {
            file
        } else {
            src.join(module).join("mod.rs")
        };
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        let named: BTreeSet<String> = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| l.split("crate::").skip(1))
            .map(|rest| {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .filter(|m| m != module && modules.contains(m))
            .collect();
        graph.insert(module.clone(), named);
    }
    graph
}

#[test]
fn the_modules_of_katas_form_no_circle() {
    let graph = graph();
    assert!(graph.contains_key("session") && graph.contains_key("judge"));
    // Depth-first search for a back edge, reporting the circle it closes.
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in &graph[node] {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        if let Some(circle) = visit(module, &graph, &mut Vec::new(), &mut done) {
            panic!("an import circle: {}", circle.join(" → "));
        }
    }
}
