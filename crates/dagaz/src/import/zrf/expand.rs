//! Reading a ZRF file: its forms, the files it includes, and `define`
//! macros expanded, each form remembering the expansion that made it so
//! errors can name the chain of macros.

use std::collections::HashMap;

use crate::notation::sexpr::{self, Sexp, SexpKind};

use super::ZrfError;

/// Deepest macro nesting accepted.
const MAX_DEPTH: usize = 64;
/// Most forms an expansion may produce.
const MAX_FORMS: usize = 2_000_000;

/// A source file: its name and text.
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// One macro call: which macro, where it was called (file, byte offset),
/// and the expansion the call itself came from (0: none).
#[derive(Clone, Debug)]
pub struct Expansion {
    pub name: String,
    pub file: u16,
    pub at: usize,
    pub parent: u32,
}

/// The files read and the expansions made, for locating errors.
#[derive(Default)]
pub struct Sources {
    pub files: Vec<SourceFile>,
    /// Index 0 is unused (origin 0 means "written where it stands").
    pub expansions: Vec<Expansion>,
}

impl Sources {
    /// "file:line:column" of a byte offset.
    pub fn place(&self, file: u16, at: usize) -> String {
        let Some(f) = self.files.get(file as usize) else {
            return "?".into();
        };
        let mut at = at.min(f.text.len());
        while !f.text.is_char_boundary(at) {
            at -= 1;
        }
        let line = f.text[..at].matches('\n').count() + 1;
        let col = f.text[..at].rfind('\n').map_or(at, |i| at - i - 1) + 1;
        format!("{}:{line}:{col}", f.name)
    }

    /// Where a form is, with the macro calls that produced it.
    pub fn locate(&self, form: &Sexp) -> String {
        let mut out = self.place(form.file, form.span.start);
        let mut origin = form.origin;
        while let Some(e) = self.expansions.get(origin as usize).filter(|_| origin != 0) {
            out += &format!(
                "\n  in macro '{}' called at {}",
                e.name,
                self.place(e.file, e.at)
            );
            origin = e.parent;
        }
        out
    }
}

/// A `define`: its body forms.
struct Macro {
    body: Vec<Sexp>,
}

/// Reads `text` (named `name`), its includes (through `include`, which
/// returns a file's text given its name as written), and expands every
/// macro call. Returns the top-level forms other than `define`,
/// `include` and `version`.
pub fn read(
    name: &str,
    text: &str,
    include: &dyn Fn(&str) -> Option<String>,
    sources: &mut Sources,
) -> Result<Vec<Sexp>, ZrfError> {
    sources.expansions.push(Expansion {
        name: String::new(),
        file: 0,
        at: 0,
        parent: 0,
    });
    let mut macros = HashMap::new();
    let mut forms = Vec::new();
    load_file(name, text, include, sources, &mut macros, &mut forms, 0)?;
    let mut out = Vec::new();
    let mut budget = MAX_FORMS;
    for f in forms {
        expand_into(&f, &macros, sources, 0, &mut budget, &mut out)?;
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn load_file(
    name: &str,
    text: &str,
    include: &dyn Fn(&str) -> Option<String>,
    sources: &mut Sources,
    macros: &mut HashMap<String, Macro>,
    forms: &mut Vec<Sexp>,
    depth: usize,
) -> Result<(), ZrfError> {
    let file = sources.files.len() as u16;
    sources.files.push(SourceFile {
        name: name.to_string(),
        text: text.to_string(),
    });
    let parsed = sexpr::parse(text, file).map_err(|e| ZrfError {
        message: e.message,
        at: sources.place(file, e.span.start),
    })?;
    for form in parsed {
        match form.head() {
            Some((h, args)) if h == "define" => {
                let Some((name, body)) = args.split_first() else {
                    return Err(ZrfError::at(sources, &form, "define needs a name"));
                };
                let Some(n) = name.atom() else {
                    return Err(ZrfError::at(sources, name, "a macro's name is a word"));
                };
                macros.insert(
                    n.to_string(),
                    Macro {
                        body: body.to_vec(),
                    },
                );
            }
            Some((h, args)) if h == "include" => {
                let [what] = args else {
                    return Err(ZrfError::at(sources, &form, "include takes one file name"));
                };
                let path = what.text().unwrap_or("");
                if depth > 8 {
                    return Err(ZrfError::at(sources, &form, "includes nested too deep"));
                }
                let Some(inner) = include(path) else {
                    return Err(ZrfError::at(
                        sources,
                        &form,
                        format!(
                            "cannot read the included file '{path}' (a name relative to the folder of the file converted, without '..')"
                        ),
                    ));
                };
                load_file(path, &inner, include, sources, macros, forms, depth + 1)?;
            }
            Some((h, _)) if h == "version" => {}
            _ => forms.push(form),
        }
    }
    Ok(())
}

/// Expands `form` into `out`: a macro call is replaced by its body
/// (arguments substituted), spliced in place.
fn expand_into(
    form: &Sexp,
    macros: &HashMap<String, Macro>,
    sources: &mut Sources,
    depth: usize,
    budget: &mut usize,
    out: &mut Vec<Sexp>,
) -> Result<(), ZrfError> {
    if *budget == 0 {
        return Err(ZrfError::at(
            sources,
            form,
            "the macros expand to too much text",
        ));
    }
    *budget -= 1;
    let SexpKind::List(items) = &form.kind else {
        out.push(form.clone());
        return Ok(());
    };
    let called = items
        .first()
        .and_then(|h| h.atom())
        .and_then(|h| macros.get(h).map(|m| (h, m)));
    if let Some((name, m)) = called {
        if depth >= MAX_DEPTH {
            return Err(ZrfError::at(
                sources,
                form,
                format!(
                    "macro '{name}' nests deeper than {MAX_DEPTH} calls (does it call itself?)"
                ),
            ));
        }
        let args: Vec<String> = items[1..].iter().map(|a| a.to_string()).collect();
        // Arguments are copied into the body: their size counts against the
        // budget, so that doubling macros stop.
        let size: usize = args.iter().map(String::len).sum();
        if size > *budget {
            return Err(ZrfError::at(
                sources,
                form,
                format!("macro '{name}' expands to more than {MAX_FORMS} forms"),
            ));
        }
        *budget -= size;
        let id = sources.expansions.len() as u32;
        sources.expansions.push(Expansion {
            name: name.to_string(),
            file: form.file,
            at: form.span.start,
            parent: form.origin,
        });
        for b in &m.body {
            let substituted = substitute(b, &args, id, sources, form)?;
            expand_into(&substituted, macros, sources, depth + 1, budget, out)?;
        }
        return Ok(());
    }
    let mut expanded = Vec::with_capacity(items.len());
    for item in items {
        expand_into(item, macros, sources, depth, budget, &mut expanded)?;
    }
    out.push(Sexp {
        kind: SexpKind::List(expanded),
        ..form.clone()
    });
    Ok(())
}

/// A macro body's form with `$1…$9` replaced by the call's arguments
/// (as text, wherever they occur in atoms and strings), marked as made
/// by expansion `id`.
fn substitute(
    b: &Sexp,
    args: &[String],
    id: u32,
    sources: &Sources,
    call: &Sexp,
) -> Result<Sexp, ZrfError> {
    let replace = |s: &str| -> Result<String, ZrfError> {
        if !s.contains('$') {
            return Ok(s.to_string());
        }
        let mut out = String::new();
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, chars.peek().and_then(|d| d.to_digit(10))) {
                ('$', Some(k)) if k >= 1 => {
                    chars.next();
                    let Some(a) = args.get(k as usize - 1) else {
                        return Err(ZrfError::at(
                            sources,
                            call,
                            format!(
                                "the macro uses ${k}, but the call gives {} arguments",
                                args.len()
                            ),
                        ));
                    };
                    out += a;
                }
                _ => out.push(c),
            }
        }
        Ok(out)
    };
    let kind = match &b.kind {
        SexpKind::Atom(a) => {
            let text = replace(a)?;
            // An argument that is a list (`(leap (n ne))`) stays a list.
            if text.starts_with('(') {
                let parsed = sexpr::parse(&text, b.file).ok();
                match parsed.as_deref() {
                    Some([one]) => one.kind.clone(),
                    _ => SexpKind::Atom(text),
                }
            } else {
                SexpKind::Atom(text)
            }
        }
        SexpKind::Str(s) => SexpKind::Str(replace(s)?),
        SexpKind::List(items) => SexpKind::List(
            items
                .iter()
                .map(|i| substitute(i, args, id, sources, call))
                .collect::<Result<_, _>>()?,
        ),
    };
    Ok(Sexp {
        kind,
        span: b.span.clone(),
        file: b.file,
        origin: id,
    })
}
