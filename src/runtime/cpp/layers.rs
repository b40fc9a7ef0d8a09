//! What each part of the C++ runtime defines and uses, read from its text:
//! enough C++ for the runtime's own code, not a parser of the language.
//!
//! A name is defined by the first part that defines it at namespace scope
//! (a function with its body, a type, an enumerator, a variable, an alias, a
//! macro), or by a header part that declares it (the C entry points that the
//! source defines last). A declaration in a source part introduces nothing:
//! a function declared ahead of a later part's definition is the forward
//! reference the layering forbids.

use std::collections::BTreeMap;

/// A token of C++ outside comments and literals.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Token<'a> {
    Name(&'a str),
    Punct(char),
    /// A string or character literal.
    Literal,
    /// A preprocessor directive, its continued lines included.
    Directive(&'a str),
}

/// The tokens of `code`.
fn tokens(code: &str) -> Vec<Token<'_>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            let start = i;
            while i < bytes.len() && (bytes[i] != b'\n' || bytes[i - 1] == b'\\') {
                i += 1;
            }
            out.push(Token::Directive(&code[start..i]));
            continue;
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        if code[i..].starts_with("//") {
            i = code[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if code[i..].starts_with("/*") {
            i = code[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |n| i + 2 + n + 2);
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(Token::Literal);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(Token::Name(&code[start..i]));
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
        } else {
            if !c.is_ascii_whitespace() {
                out.push(Token::Punct(char::from(c)));
            }
            i += 1;
        }
    }
    out
}

/// What one part defines, declares and uses.
#[derive(Default, Debug)]
pub(super) struct Facts {
    /// Defined at namespace scope, or as a macro.
    pub defines: Vec<String>,
    /// Declared at namespace scope without a definition.
    pub declares: Vec<String>,
    /// Every name used: in code, and in conditions of directives (a macro's
    /// body is expanded where a pair uses it, after the whole header, so
    /// what it names is not a use here).
    pub uses: Vec<String>,
}

/// The name before the first `(` of a statement, past any
/// `__attribute__((...))`: a function's.
fn function_name<'a>(statement: &[Token<'a>]) -> Option<&'a str> {
    let mut i = 0;
    while i < statement.len() {
        match statement[i] {
            Token::Name("__attribute__") => {
                let mut depth = 0;
                i += 1;
                while i < statement.len() {
                    match statement[i] {
                        Token::Punct('(') => depth += 1,
                        Token::Punct(')') => depth -= 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
                continue;
            }
            Token::Punct('(') => {
                return match statement[..i].last() {
                    Some(Token::Name(n)) => Some(n),
                    _ => None,
                };
            }
            _ => i += 1,
        }
    }
    None
}

/// The names a statement at namespace scope that ends with `;` defines
/// (`true`) or declares (`false`).
fn statement_names<'a>(statement: &[Token<'a>]) -> Vec<(&'a str, bool)> {
    let name = |t: &Token<'a>| match t {
        Token::Name(n) => Some(*n),
        _ => None,
    };
    let words: Vec<&str> = statement.iter().filter_map(name).collect();
    match words.as_slice() {
        [] | ["using", "namespace", ..] => return Vec::new(),
        ["using", alias, ..] if statement.get(2) == Some(&Token::Punct('=')) => {
            return vec![(alias, true)]
        }
        ["using", .., last] => return vec![(last, false)],
        _ => {}
    }
    let has = |c: char| statement.contains(&Token::Punct(c));
    if words.first() == Some(&"extern") && !has('=') {
        return function_name(statement)
            .or(words.last().copied())
            .map(|n| vec![(n, false)])
            .unwrap_or_default();
    }
    if matches!(
        words.first(),
        Some(&("struct" | "class" | "union" | "enum"))
    ) && !has('=')
    {
        return words.get(1).map(|n| vec![(*n, false)]).unwrap_or_default();
    }
    if has('(') && !has('=') {
        return function_name(statement)
            .map(|n| vec![(n, false)])
            .unwrap_or_default();
    }
    // Variables: each declarator's name, before its `=`; a pointer to a
    // function names itself inside `(*...)`.
    let mut names = Vec::new();
    let mut depth = 0;
    let mut last = None;
    let mut in_pointer = false;
    for (i, t) in statement.iter().enumerate() {
        match t {
            Token::Punct('(') => {
                depth += 1;
                in_pointer = statement.get(i + 1) == Some(&Token::Punct('*'));
            }
            Token::Punct(')') => {
                if in_pointer && depth == 1 {
                    names.extend(last.take());
                }
                in_pointer = false;
                depth -= 1;
            }
            Token::Punct('=' | ',') if depth == 0 => {
                names.extend(last.take());
            }
            Token::Name(n) if depth == 0 || in_pointer => last = Some(*n),
            _ => {}
        }
    }
    if !has('=') {
        names.extend(last);
    }
    names.into_iter().map(|n| (n, true)).collect()
}

/// The names a directive defines (`#define`) or uses (in a condition),
/// and its kind.
fn directive(text: &str, facts: &mut Facts) -> String {
    let text = text.replace("\\\n", " ");
    let toks = tokens(text.trim_start().trim_start_matches('#'));
    let name = |t: &Token| match t {
        Token::Name(n) => Some(n.to_string()),
        _ => None,
    };
    match toks.as_slice() {
        [Token::Name("define"), Token::Name(defined), ..] => {
            facts.defines.push(defined.to_string())
        }
        [Token::Name("if" | "ifdef" | "ifndef" | "elif"), rest @ ..] => {
            facts
                .uses
                .extend(rest.iter().filter_map(name).filter(|n| n != "defined"));
        }
        _ => {}
    }
    toks.first().and_then(name).unwrap_or_default()
}

/// Reads one part. The branches of a conditional are read alike, each from
/// the braces open at its `#if`.
pub(super) fn facts(text: &str) -> Facts {
    let mut facts = Facts::default();
    let toks = tokens(text);
    // The braces open at namespace scope: `true` for a namespace or an
    // `extern "C"` block, whose contents are at namespace scope too.
    let mut scopes: Vec<bool> = Vec::new();
    let mut statement: Vec<Token> = Vec::new();
    // Inside the body of an enum at namespace scope: its enumerators.
    let mut enum_depth = None;
    // The state at each open `#if`.
    let mut conditionals = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if let Token::Directive(text) = t {
            match directive(text, &mut facts).as_str() {
                "if" | "ifdef" | "ifndef" => {
                    conditionals.push((scopes.clone(), statement.clone(), enum_depth));
                }
                "elif" | "else" => {
                    if let Some((s, st, e)) = conditionals.last() {
                        (scopes, statement, enum_depth) = (s.clone(), st.clone(), *e);
                    }
                }
                "endif" => {
                    conditionals.pop();
                }
                _ => {}
            }
            continue;
        }
        let previous = i.checked_sub(1).map(|p| toks[p]);
        if let Token::Name(n) = t {
            let member = previous == Some(Token::Punct('.'))
                || (previous == Some(Token::Punct('>'))
                    && i >= 2
                    && toks[i - 2] == Token::Punct('-'));
            if !member {
                facts.uses.push(n.to_string());
            }
            if enum_depth == Some(scopes.len()) && matches!(previous, Some(Token::Punct('{' | ',')))
            {
                facts.defines.push(n.to_string());
            }
        }
        let open = scopes.iter().all(|s| *s);
        match t {
            Token::Punct('{') => {
                if open {
                    let words: Vec<Token> = statement.clone();
                    let transparent = matches!(words.first(), Some(Token::Name("namespace")))
                        || words == [Token::Name("extern"), Token::Literal];
                    if !transparent {
                        let first = words.iter().find_map(|t| match t {
                            Token::Name(n) => Some(*n),
                            _ => None,
                        });
                        if let Some(n) = function_name(&words) {
                            facts.defines.push(n.to_string());
                        } else if let Some(kind @ ("struct" | "class" | "union" | "enum")) = first {
                            let name = words.iter().skip(1).find_map(|t| match t {
                                Token::Name(n) if *n != "class" => Some(*n),
                                _ => None,
                            });
                            facts.defines.extend(name.map(String::from));
                            if kind == "enum" {
                                enum_depth = Some(scopes.len() + 1);
                            }
                        } else if let Some(Token::Name(n)) = words.last() {
                            facts.defines.push(n.to_string());
                        }
                    }
                    statement.clear();
                    scopes.push(transparent);
                } else {
                    scopes.push(false);
                }
            }
            Token::Punct('}') => {
                if enum_depth == Some(scopes.len()) {
                    enum_depth = None;
                }
                scopes.pop();
                if scopes.iter().all(|s| *s) {
                    statement.clear();
                }
            }
            Token::Punct(';') if open => {
                for (name, defined) in statement_names(&statement) {
                    if defined {
                        facts.defines.push(name.to_string());
                    } else {
                        facts.declares.push(name.to_string());
                    }
                }
                statement.clear();
            }
            t if open => statement.push(*t),
            _ => {}
        }
    }
    facts
}

/// Where the layering of `parts` (bottom first; `header(name)`: a header
/// part) is broken: each use of a name in a part before the one that
/// introduces it. The header is whole before the source starts, so what
/// the source introduces is no use of the header's (a field or a parameter
/// of the same name).
pub(super) fn forward_uses(parts: &[(&str, String)], header: impl Fn(&str) -> bool) -> Vec<String> {
    let facts: Vec<Facts> = parts.iter().map(|(_, text)| facts(text)).collect();
    let mut introduced: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, f) in facts.iter().enumerate() {
        let declared = if header(parts[i].0) {
            &f.declares[..]
        } else {
            &[]
        };
        for name in f.defines.iter().chain(declared) {
            introduced.entry(name).or_insert(i);
        }
    }
    let mut found = Vec::new();
    for (i, f) in facts.iter().enumerate() {
        let mut seen: Vec<&str> = Vec::new();
        for name in &f.uses {
            match introduced.get(name.as_str()) {
                Some(&at)
                    if at > i
                        && !seen.contains(&name.as_str())
                        && (header(parts[at].0) || !header(parts[i].0)) =>
                {
                    seen.push(name);
                    found.push(format!(
                        "{} uses `{name}`, which the later {} introduces",
                        parts[i].0, parts[at].0
                    ));
                }
                _ => {}
            }
        }
    }
    found
}
