//! The engine's modules form a stack with no loop, and
//! `docs/architecture.md` shows exactly the graph the code has: this test
//! reads every `crate::module` path in `src/` (test modules left out) and
//! compares the module graph with the table in the document.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments and without its test module.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a piece of code names: `crate::x` and the first
/// name of each item of `use crate::{x, y::z}`.
fn modules_named(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && !c.is_whitespace() => {
                        out.insert(ident(&group[j..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out.retain(|m| !m.is_empty() && m != "self");
    out
}

/// The module graph of the engine's code.
fn graph_of_code() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    let mut graph = Graph::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let module = first.to_string_lossy().trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        let uses = graph.entry(module.clone()).or_default();
        uses.extend(modules_named(&code).into_iter().filter(|m| *m != module));
    }
    graph
}

/// The graph `docs/architecture.md` shows, between the markers.
fn graph_of_document() -> Graph {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    let start = text.find("<!-- module graph -->").expect("the marker");
    let block = &text[start..];
    let block = &block[block.find("```text").unwrap() + 7..];
    let block = &block[..block.find("```").unwrap()];
    let mut graph = Graph::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (module, uses) = line.split_once(" uses ").unwrap_or((line, ""));
        let uses = uses
            .split(',')
            .map(|u| u.trim().to_string())
            .filter(|u| !u.is_empty() && u != "nothing")
            .collect();
        graph.insert(module.trim().to_string(), uses);
    }
    graph
}

#[test]
fn the_modules_form_a_stack_and_the_document_shows_it() {
    let code = graph_of_code();
    let documented = graph_of_document();
    assert_eq!(
        code, documented,
        "the module graph of the code (left) differs from docs/architecture.md (right)"
    );
    // Listed bottom up, each module uses only modules listed before it.
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/architecture.md");
    let text = std::fs::read_to_string(doc).unwrap();
    let block = &text[text.find("<!-- module graph -->").unwrap()..];
    let mut seen = BTreeSet::new();
    for line in block.lines().skip(2).take_while(|l| !l.starts_with("```")) {
        let module = line.split(" uses ").next().unwrap().trim();
        for used in &code[module] {
            assert!(
                seen.contains(used),
                "{module} uses {used}, which is not below it: a loop or a wrong order"
            );
        }
        seen.insert(module.to_string());
    }
    assert_eq!(seen.len(), code.len());
}

#[test]
fn module_names_are_read_from_paths_and_groups() {
    let code = "use crate::a::B;\nuse crate::{b, c::{D, E}, self};\nlet x = crate::d::f();";
    let got: Vec<String> = modules_named(code).into_iter().collect();
    assert_eq!(got, ["a", "b", "c", "d"]);
}
