#![allow(non_upper_case_globals)]

//! The one place that calls libclang through clang-sys. Everything here is a
//! safe wrapper: callers see owned Rust values, never raw clang handles.

use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_uint, c_void};
use std::path::{Path, PathBuf};
use std::ptr;

use clang_sys::*;

use crate::c::{Builtin, Enum, Field, Shape, Type};
use crate::diag::Error;

/// Makes sure libclang is loaded for the calling thread (clang-sys keeps the
/// loaded library per thread in its `runtime` mode).
fn ensure_loaded() -> Result<(), Error> {
    if is_loaded() {
        return Ok(());
    }
    load().map_err(|e| {
        Error::new(format!("cannot load libclang: {e}"))
            .hint("install it (`apt-get install -y libclang-dev`) or set LIBCLANG_PATH")
    })
}

/// Whether libclang can be loaded here, and why not if not: the check a
/// fetch makes before it starts, so that one error names all it lacks.
#[cfg(feature = "fetch")]
pub fn available() -> Result<(), String> {
    if is_loaded() {
        return Ok(());
    }
    load()
}

/// One parsed translation unit.
pub struct Unit {
    index: CXIndex,
    tu: CXTranslationUnit,
}

impl Drop for Unit {
    fn drop(&mut self) {
        // SAFETY: both handles were created by `Unit::parse` and are disposed once.
        unsafe {
            clang_disposeTranslationUnit(self.tu);
            clang_disposeIndex(self.index);
        }
    }
}

/// A source position, resolved through macro expansions to where the text was written.
#[derive(Clone, Debug)]
pub struct Location {
    pub file: PathBuf,
    pub line: u32,
    pub offset: u32,
}

/// A borrowed cursor; valid while its `Unit` lives.
#[derive(Clone, Copy)]
pub struct Cursor<'u> {
    raw: CXCursor,
    _unit: &'u Unit,
}

fn take_string(s: CXString) -> String {
    // SAFETY: `s` is a live CXString; it is disposed right after copying.
    unsafe {
        let p = clang_getCString(s);
        let out = if p.is_null() {
            String::new()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        };
        clang_disposeString(s);
        out
    }
}

/// Which of clang's errors a parse passes over, by the file the error is in
/// and its message; the parse then goes on after a fatal one.
pub type Passed<'a> = &'a dyn Fn(&Path, &str) -> bool;

impl Unit {
    /// Parses `source` (an in-memory file named `name`) with `args`; `extra`
    /// are more in-memory files, `(absolute path, contents)`, that it may
    /// include. Errors carry clang's own `file:line: message` lines.
    pub fn parse(
        name: &str,
        source: &str,
        args: &[String],
        extra: &[(String, &str)],
    ) -> Result<Unit, Error> {
        Unit::parse_passing(name, source, args, extra, None)
    }

    /// [`Unit::parse`], passing over the errors that `passed` names (and
    /// going on after a fatal one): a header read out of its compiler's
    /// include tree, whose `#include`s of files not fetched are not there.
    pub fn parse_passing(
        name: &str,
        source: &str,
        args: &[String],
        extra: &[(String, &str)],
        passed: Option<Passed<'_>>,
    ) -> Result<Unit, Error> {
        ensure_loaded()?;
        let c_name = CString::new(name).map_err(|_| Error::new("file name contains NUL"))?;
        let c_source = CString::new(source).map_err(|_| Error::new("source contains NUL"))?;
        let c_extra: Vec<(CString, &str)> = extra
            .iter()
            .map(|(path, text)| CString::new(path.as_str()).map(|p| (p, *text)))
            .collect::<Result<_, _>>()
            .map_err(|_| Error::new("file name contains NUL"))?;
        let c_args: Vec<CString> = args
            .iter()
            .map(|a| CString::new(a.as_str()))
            .collect::<Result<_, _>>()
            .map_err(|_| Error::new("clang argument contains NUL"))?;
        let arg_ptrs: Vec<*const c_char> = c_args.iter().map(|a| a.as_ptr()).collect();
        let mut unsaved = vec![CXUnsavedFile {
            Filename: c_name.as_ptr(),
            Contents: c_source.as_ptr(),
            Length: source.len() as _,
        }];
        for (path, text) in &c_extra {
            unsaved.push(CXUnsavedFile {
                Filename: path.as_ptr(),
                Contents: text.as_ptr().cast(),
                Length: text.len() as _,
            });
        }
        // SAFETY: every pointer handed to libclang outlives the call.
        unsafe {
            let index = clang_createIndex(0, 0);
            let mut tu: CXTranslationUnit = ptr::null_mut();
            let mut flags = CXTranslationUnit_DetailedPreprocessingRecord
                | CXTranslationUnit_SkipFunctionBodies;
            if passed.is_some() {
                flags |= CXTranslationUnit_KeepGoing;
            }
            let rc = clang_parseTranslationUnit2(
                index,
                c_name.as_ptr(),
                arg_ptrs.as_ptr(),
                arg_ptrs.len() as _,
                unsaved.as_mut_ptr(),
                unsaved.len() as _,
                flags,
                &mut tu,
            );
            if rc != CXError_Success || tu.is_null() {
                clang_disposeIndex(index);
                let what = match rc {
                    CXError_Crashed => "libclang crashed",
                    CXError_InvalidArguments => "libclang refused its arguments",
                    CXError_ASTReadError => "libclang could not read the input as C",
                    _ => "libclang failed",
                };
                return Err(Error::new(format!(
                    "{what} (error code {rc}) with the arguments {args:?}"
                ))
                .hint("cushim parses the headers as C11; check the extra clang arguments (`--clang-arg`), which must not change the language (e.g. `-x c++`)"));
            }
            let unit = Unit { index, tu };
            let errors = unit.errors(passed);
            if !errors.is_empty() {
                return Err(Error::new(format!(
                    "the header does not compile:\n{}",
                    errors.join("\n")
                ))
                .hint("fix the header, or check the include paths and defines passed to clang"));
            }
            Ok(unit)
        }
    }

    /// clang's error and fatal diagnostics, formatted as `file:line:col:
    /// error: ...`, but those that `passed` names.
    fn errors(&self, passed: Option<Passed<'_>>) -> Vec<String> {
        let mut out = Vec::new();
        // SAFETY: the TU is live; each diagnostic is disposed after use; the
        // out-pointer is a valid local.
        unsafe {
            for i in 0..clang_getNumDiagnostics(self.tu) {
                let d = clang_getDiagnostic(self.tu, i);
                let pass = passed.is_some_and(|passed| {
                    let mut file: CXFile = ptr::null_mut();
                    clang_getExpansionLocation(
                        clang_getDiagnosticLocation(d),
                        &mut file,
                        ptr::null_mut(),
                        ptr::null_mut(),
                        ptr::null_mut(),
                    );
                    !file.is_null()
                        && passed(
                            Path::new(&take_string(clang_getFileName(file))),
                            &take_string(clang_getDiagnosticSpelling(d)),
                        )
                });
                if !pass && clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error {
                    let opts = CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn;
                    out.push(take_string(clang_formatDiagnostic(d, opts)));
                }
                clang_disposeDiagnostic(d);
            }
        }
        out
    }

    /// The target triple this unit was read for: libclang's default (the
    /// machine cushim runs on), or the one a `--target` argument names.
    /// Example: `x86_64-pc-linux-gnu`.
    pub fn triple(&self) -> String {
        // SAFETY: the TU is live; the target info is disposed after use.
        unsafe {
            let info = clang_getTranslationUnitTargetInfo(self.tu);
            let triple = take_string(clang_TargetInfo_getTriple(info));
            clang_TargetInfo_dispose(info);
            triple
        }
    }

    /// Every file this unit read that is not a system header, in inclusion order.
    pub fn user_files(&self) -> Vec<PathBuf> {
        extern "C" fn visit(
            file: CXFile,
            _stack: *mut CXSourceLocation,
            _n: c_uint,
            data: CXClientData,
        ) {
            // SAFETY: `data` is the `Vec` passed below, alive for the whole visit.
            let v = unsafe { &mut *(data as *mut Vec<CXFile>) };
            v.push(file);
        }
        let mut files: Vec<CXFile> = Vec::new();
        let mut out = Vec::new();
        // SAFETY: the TU is live; the callback only pushes into `files`.
        unsafe {
            clang_getInclusions(
                self.tu,
                visit,
                &mut files as *mut Vec<CXFile> as *mut c_void,
            );
            for f in files {
                let start = clang_getLocationForOffset(self.tu, f, 0);
                if clang_Location_isInSystemHeader(start) != 0 {
                    continue;
                }
                let path = PathBuf::from(take_string(clang_getFileName(f)));
                if path.is_file() && !out.contains(&path) {
                    out.push(path);
                }
            }
        }
        out
    }

    /// The names of the typedefs, structs, unions and enums declared outside
    /// system headers.
    pub fn declared_types(&self) -> std::collections::BTreeSet<String> {
        let mut out = std::collections::BTreeSet::new();
        for c in self.root().children() {
            // SAFETY: plain queries on live cursors.
            let declares_type = unsafe {
                matches!(
                    clang_getCursorKind(c.raw),
                    CXCursor_TypedefDecl
                        | CXCursor_StructDecl
                        | CXCursor_UnionDecl
                        | CXCursor_EnumDecl
                ) && clang_Location_isInSystemHeader(clang_getCursorLocation(c.raw)) == 0
            };
            let name = c.spelling();
            if declares_type && !name.is_empty() && !name.contains(' ') {
                out.insert(name);
            }
        }
        out
    }

    /// Every enum defined in a file for which `ours` holds, by the name
    /// bindgen gives it (the tag, or the typedef of an untagged enum), with
    /// its integer type, constants and typedefs. An enum with neither a tag
    /// nor a typedef is left to bindgen, which numbers it. `flags` is left
    /// false: the library description decides it.
    pub fn enums(&self, ours: impl Fn(&Path) -> bool) -> Vec<Enum> {
        let children = self.root().children();
        let in_ours = |c: &Cursor<'_>| c.location().is_some_and(|l| ours(&l.file));
        // SAFETY: plain queries on live cursors and types.
        unsafe {
            let mut decls: Vec<(CXCursor, Enum)> = Vec::new();
            for c in &children {
                if clang_getCursorKind(c.raw) != CXCursor_EnumDecl
                    || clang_isCursorDefinition(c.raw) == 0
                    || clang_Cursor_isAnonymous(c.raw) != 0
                    || !in_ours(c)
                    || decls
                        .iter()
                        .any(|(d, _)| clang_equalCursors(*d, c.raw) != 0)
                {
                    continue;
                }
                let repr = clang_getCanonicalType(clang_getEnumDeclIntegerType(c.raw));
                let unsigned = matches!(
                    repr.kind,
                    CXType_UChar | CXType_UShort | CXType_UInt | CXType_ULong | CXType_ULongLong
                );
                let constants = c
                    .children()
                    .into_iter()
                    .filter(|k| clang_getCursorKind(k.raw) == CXCursor_EnumConstantDecl)
                    .map(|k| {
                        let value = if unsigned {
                            // Bit for bit: an unsigned 64-bit constant above i64::MAX
                            // reads back with `as u64`.
                            clang_getEnumConstantDeclUnsignedValue(k.raw) as i64
                        } else {
                            clang_getEnumConstantDeclValue(k.raw)
                        };
                        (k.spelling(), value)
                    })
                    .collect();
                let name = c.spelling();
                decls.push((
                    c.raw,
                    Enum {
                        // An untagged enum takes its typedef's name below.
                        name: if name.is_empty() || name.contains(' ') {
                            String::new()
                        } else {
                            name
                        },
                        repr: match convert(repr) {
                            Ok(Type::Builtin(b)) => b,
                            _ => Builtin::UInt,
                        },
                        constants,
                        aliases: Vec::new(),
                        flags: false,
                    },
                ));
            }
            for c in &children {
                if c.kind() != Kind::Typedef || !in_ours(c) {
                    continue;
                }
                let underlying = clang_getTypedefDeclUnderlyingType(c.raw);
                let target = clang_getTypeDeclaration(clang_getCanonicalType(underlying));
                let Some((_, e)) = decls
                    .iter_mut()
                    .find(|(d, _)| clang_equalCursors(*d, target) != 0)
                else {
                    continue;
                };
                let alias = c.spelling();
                if e.name.is_empty() {
                    e.name = alias;
                } else if alias != e.name && !e.aliases.contains(&alias) {
                    e.aliases.push(alias);
                }
            }
            decls
                .into_iter()
                .map(|(_, mut e)| {
                    e.aliases.sort();
                    e
                })
                .filter(|e| !e.name.is_empty())
                .collect()
        }
    }

    /// Every non-system `#define`, in source order: its name, whether it is
    /// function-like, and its body's tokens (kind and spelling).
    fn macro_definitions(&self) -> Vec<MacroDefinition> {
        let mut out = Vec::new();
        for c in self.root().children() {
            // SAFETY: plain queries on live cursors; the tokens are disposed after use.
            unsafe {
                if clang_getCursorKind(c.raw) != CXCursor_MacroDefinition
                    || clang_Location_isInSystemHeader(clang_getCursorLocation(c.raw)) != 0
                {
                    continue;
                }
                let mut tokens: *mut CXToken = ptr::null_mut();
                let mut count: c_uint = 0;
                clang_tokenize(
                    self.tu,
                    clang_getCursorExtent(c.raw),
                    &mut tokens,
                    &mut count,
                );
                // The first token is the name.
                let body = (1..count as usize)
                    .map(|i| {
                        let token = *tokens.add(i);
                        (
                            clang_getTokenKind(token),
                            take_string(clang_getTokenSpelling(self.tu, token)),
                        )
                    })
                    .collect();
                if !tokens.is_null() {
                    clang_disposeTokens(self.tu, tokens, count);
                }
                out.push(MacroDefinition {
                    name: c.spelling(),
                    function_like: clang_Cursor_isMacroFunctionLike(c.raw) != 0,
                    body,
                });
            }
        }
        out
    }

    /// The integer that a non-system `#define NAME <integer>` gives, if any.
    pub fn macro_value(&self, name: &str) -> Option<u32> {
        let found = self
            .macro_definitions()
            .into_iter()
            .find(|m| m.name == name)?;
        found.body.first().and_then(|(_, t)| t.parse().ok())
    }

    /// Every non-system `#define NAME TARGET` whose body is one identifier:
    /// `(NAME, TARGET)`, in source order. Example: `("nvmlInit", "nvmlInit_v2")`.
    pub fn alias_macros(&self) -> Vec<(String, String)> {
        self.macro_definitions()
            .into_iter()
            .filter(|m| !m.function_like)
            .filter_map(|m| match m.body.as_slice() {
                [(kind, target)] if *kind == CXToken_Identifier => {
                    Some((m.name.clone(), target.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// Every non-system `#define` whose body uses MSVC's own spellings of
    /// packing or alignment, `__pragma(...)` or `__declspec(align(...))`,
    /// which GCC and Clang for MinGW do not read; by name, in source order.
    /// Example: CUPTI's `PACKED_ALIGNMENT` read for Windows.
    pub fn msvc_layout_macros(&self) -> Vec<String> {
        self.macro_definitions()
            .into_iter()
            .filter(|m| {
                let body: Vec<&str> = m.body.iter().map(|(_, t)| t.as_str()).collect();
                body.contains(&"__pragma")
                    || body
                        .windows(3)
                        .any(|w| w[0] == "__declspec" && w[1] == "(" && w[2] == "align")
            })
            .map(|m| m.name)
            .collect()
    }

    pub fn root(&self) -> Cursor<'_> {
        // SAFETY: the TU is live.
        Cursor {
            raw: unsafe { clang_getTranslationUnitCursor(self.tu) },
            _unit: self,
        }
    }
}

/// The kinds of top-level declaration the parser cares about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Function,
    Typedef,
    Variable,
    /// `extern "C" { ... }` (C++), whose children are declarations; also
    /// any other declaration libclang does not expose (before libclang 15,
    /// a linkage specification is one of those).
    LinkageSpec,
    Other,
}

impl<'u> Cursor<'u> {
    fn wrap(&self, raw: CXCursor) -> Cursor<'u> {
        Cursor {
            raw,
            _unit: self._unit,
        }
    }

    /// The direct children of this cursor.
    pub fn children(&self) -> Vec<Cursor<'u>> {
        extern "C" fn visit(c: CXCursor, _p: CXCursor, data: CXClientData) -> CXChildVisitResult {
            // SAFETY: `data` is the `Vec` passed below, alive for the whole visit.
            let v = unsafe { &mut *(data as *mut Vec<CXCursor>) };
            v.push(c);
            CXChildVisit_Continue
        }
        let mut raw: Vec<CXCursor> = Vec::new();
        // SAFETY: the callback only pushes into `raw`.
        unsafe {
            clang_visitChildren(
                self.raw,
                visit,
                &mut raw as *mut Vec<CXCursor> as *mut c_void,
            );
        }
        raw.into_iter().map(|c| self.wrap(c)).collect()
    }

    pub fn kind(&self) -> Kind {
        // SAFETY: plain query on a live cursor.
        match unsafe { clang_getCursorKind(self.raw) } {
            CXCursor_FunctionDecl => Kind::Function,
            CXCursor_TypedefDecl => Kind::Typedef,
            CXCursor_VarDecl => Kind::Variable,
            CXCursor_LinkageSpec | CXCursor_UnexposedDecl => Kind::LinkageSpec,
            _ => Kind::Other,
        }
    }

    /// The declared name after macro expansion (for `cuMemAlloc(...)` under
    /// `#define cuMemAlloc cuMemAlloc_v2`, this is `cuMemAlloc_v2`).
    pub fn spelling(&self) -> String {
        // SAFETY: plain query on a live cursor.
        take_string(unsafe { clang_getCursorSpelling(self.raw) })
    }

    /// Where the declaration's name was written, looking through macros.
    pub fn location(&self) -> Option<Location> {
        // SAFETY: plain queries on a live cursor; out-pointers are valid locals.
        unsafe {
            let loc = clang_getCursorLocation(self.raw);
            let mut file: CXFile = ptr::null_mut();
            let (mut line, mut column, mut offset) = (0, 0, 0);
            clang_getExpansionLocation(loc, &mut file, &mut line, &mut column, &mut offset);
            if file.is_null() {
                return None;
            }
            Some(Location {
                file: PathBuf::from(take_string(clang_getFileName(file))),
                line,
                offset,
            })
        }
    }

    pub fn is_deprecated(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_getCursorAvailability(self.raw) == CXAvailability_Deprecated }
    }

    /// The Doxygen `\brief` text, if any.
    pub fn brief(&self) -> Option<String> {
        // SAFETY: plain query on a live cursor.
        let s = take_string(unsafe { clang_Cursor_getBriefCommentText(self.raw) });
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        (!s.is_empty()).then_some(s)
    }

    /// Parameters of a function declaration: (name, type, canonical C spelling).
    pub fn params(&self) -> Result<Vec<(String, Type, String)>, String> {
        // SAFETY: plain queries on a live function cursor.
        unsafe {
            let n = clang_Cursor_getNumArguments(self.raw);
            let mut out = Vec::new();
            for i in 0..n.max(0) as c_uint {
                let arg = clang_Cursor_getArgument(self.raw, i);
                let ty = clang_getCursorType(arg);
                let name = take_string(clang_getCursorSpelling(arg));
                out.push((name, convert(ty)?, canonical(ty)));
            }
            Ok(out)
        }
    }

    /// Whether a function of CUDA code (a parse with `-x cuda`) is for the
    /// device alone: `__device__` without `__host__`.
    pub fn is_device_only(&self) -> bool {
        // SAFETY: plain query on live cursors.
        let kinds: Vec<CXCursorKind> = self
            .children()
            .iter()
            .map(|c| unsafe { clang_getCursorKind(c.raw) })
            .collect();
        kinds.contains(&CXCursor_CUDADeviceAttr) && !kinds.contains(&CXCursor_CUDAHostAttr)
    }

    /// Whether a C++ function has C linkage (`extern "C"`): its symbol is
    /// its name, not a mangled one.
    pub fn has_c_linkage(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        take_string(unsafe { clang_Cursor_getMangling(self.raw) }) == self.spelling()
    }

    /// Whether it is declared `static` (an inline wrapper: no export).
    pub fn is_static(&self) -> bool {
        // SAFETY: plain query on a live cursor.
        unsafe { clang_Cursor_getStorageClass(self.raw) == CX_SC_Static }
    }

    /// Whether a variable is declared `extern` without a definition here:
    /// an object some library defines. Example: cuTENSOR's
    /// `extern const cutensorComputeDescriptor_t CUTENSOR_COMPUTE_DESC_32F;`.
    pub fn is_extern_declaration(&self) -> bool {
        // SAFETY: plain queries on a live cursor.
        unsafe {
            clang_Cursor_getStorageClass(self.raw) == CX_SC_Extern
                && clang_isCursorDefinition(self.raw) == 0
        }
    }

    /// The strings of its `annotate` attributes. Example: `["dllimport"]`
    /// for a declaration whose `__declspec(dllimport)` the parse for
    /// Windows reads as `__attribute__((annotate("dllimport")))`.
    pub fn annotations(&self) -> Vec<String> {
        self.children()
            .into_iter()
            // SAFETY: plain query on a live cursor.
            .filter(|c| unsafe { clang_getCursorKind(c.raw) } == CXCursor_AnnotateAttr)
            .map(|c| c.spelling())
            .collect()
    }

    /// A variable's type.
    pub fn variable_type(&self) -> Result<Type, String> {
        // SAFETY: plain query on a live cursor.
        unsafe { convert(clang_getCursorType(self.raw)) }
    }

    /// For a function whose body is `return f(...);` (an inline wrapper),
    /// the `f` it calls. The parse skips function bodies, so the body is
    /// read from the file right after the declarator: comments, `{`, then
    /// the first `return`, an identifier and `(`.
    pub fn returned_call(&self) -> Option<String> {
        // SAFETY: plain queries on a live cursor.
        let (path, end) = unsafe {
            let end = clang_getRangeEnd(clang_getCursorExtent(self.raw));
            let mut file: CXFile = ptr::null_mut();
            let mut offset: c_uint = 0;
            clang_getSpellingLocation(
                end,
                &mut file,
                ptr::null_mut(),
                ptr::null_mut(),
                &mut offset,
            );
            if file.is_null() {
                return None;
            }
            (
                PathBuf::from(take_string(clang_getFileName(file))),
                offset as usize,
            )
        };
        let text = std::fs::read(path).ok()?;
        let after = text.get(end..)?;
        let after = String::from_utf8_lossy(&after[..after.len().min(4096)]);
        // Comments may stand between the declarator and the body.
        let mut rest: &str = &after;
        loop {
            rest = rest.trim_start();
            if let Some(r) = rest.strip_prefix("//") {
                rest = r.split_once('\n').map_or("", |(_, r)| r);
            } else if let Some(r) = rest.strip_prefix("/*") {
                rest = r.split_once("*/").map_or("", |(_, r)| r);
            } else {
                break;
            }
        }
        let body = rest.strip_prefix('{')?;
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let at = body
            .match_indices("return")
            .map(|(i, _)| i)
            .find(|&i| !body[..i].ends_with(word) && !body[i + 6..].starts_with(word))?;
        let rest = body[at + 6..].trim_start();
        let len = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
        let (callee, tail) = rest.split_at(len);
        (crate::c::is_identifier(callee) && tail.trim_start().starts_with('('))
            .then(|| callee.to_string())
    }

    pub fn is_variadic(&self) -> bool {
        // SAFETY: plain queries on a live cursor.
        unsafe {
            let ty = clang_getCursorType(self.raw);
            // C's `f()` declares no prototype, which libclang calls variadic;
            // the libraries' headers mean `f(void)` by it.
            ty.kind != CXType_FunctionNoProto && clang_isFunctionTypeVariadic(ty) != 0
        }
    }

    /// Return type of a function declaration.
    pub fn result(&self) -> Result<(Type, String), String> {
        // SAFETY: plain query on a live cursor.
        unsafe {
            let ty = clang_getCursorResultType(self.raw);
            Ok((convert(ty)?, canonical(ty)))
        }
    }

    /// The named types (typedefs, structs, unions, enums) this function's
    /// signature mentions, directly or behind pointers, with a description of
    /// each that changes when its ABI does.
    pub fn signature_types(&self, out: &mut std::collections::BTreeMap<String, Shape>) {
        // SAFETY: plain queries on a live function cursor.
        unsafe {
            collect_named(clang_getCursorResultType(self.raw), out);
            for i in 0..clang_Cursor_getNumArguments(self.raw).max(0) as c_uint {
                collect_named(
                    clang_getCursorType(clang_Cursor_getArgument(self.raw, i)),
                    out,
                );
            }
        }
    }

    /// The constants of the enum a function returns (`CUresult` → `cudaError_enum`),
    /// or, with `field`, of the enum that field of the struct it returns
    /// holds (`CUfileError_t`'s `err`): name, value and Doxygen brief. Empty
    /// when there is no such enum.
    pub fn result_enum_constants(&self, field: Option<&str>) -> Vec<(String, i64, Option<String>)> {
        // SAFETY: plain queries on live cursors and types.
        unsafe {
            let mut ty = clang_getCanonicalType(clang_getCursorResultType(self.raw));
            if let Some(field) = field {
                if ty.kind != CXType_Record {
                    return Vec::new();
                }
                let record = self.wrap(clang_getTypeDeclaration(ty));
                let Some(member) = record.children().into_iter().find(|c| {
                    clang_getCursorKind(c.raw) == CXCursor_FieldDecl && c.spelling() == field
                }) else {
                    return Vec::new();
                };
                ty = clang_getCanonicalType(clang_getCursorType(member.raw));
            }
            if ty.kind != CXType_Enum {
                return Vec::new();
            }
            let decl = self.wrap(clang_getTypeDeclaration(ty));
            decl.children()
                .into_iter()
                .filter(|c| clang_getCursorKind(c.raw) == CXCursor_EnumConstantDecl)
                .map(|c| {
                    (
                        c.spelling(),
                        clang_getEnumConstantDeclValue(c.raw),
                        c.brief(),
                    )
                })
                .collect()
        }
    }

    /// For `typedef R (*PFN)(A, B)`: the canonical spellings `[R, A, B]`;
    /// `None` when the typedef is not a pointer to a function prototype.
    pub fn fn_pointer_signature(&self) -> Option<Vec<String>> {
        // SAFETY: plain queries on a live typedef cursor.
        unsafe {
            let under = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(self.raw));
            if under.kind != CXType_Pointer {
                return None;
            }
            let f = clang_getPointeeType(under);
            if f.kind != CXType_FunctionProto && f.kind != CXType_FunctionNoProto {
                return None;
            }
            let mut sig = vec![canonical(clang_getResultType(f))];
            for i in 0..clang_getNumArgTypes(f).max(0) as c_uint {
                sig.push(canonical(clang_getArgType(f, i)));
            }
            Some(sig)
        }
    }
}

/// The canonical C spelling, with array parameters decayed to pointers as the ABI sees them.
fn canonical(ty: CXType) -> String {
    // SAFETY: plain queries on a live type.
    unsafe {
        let c = clang_getCanonicalType(ty);
        if c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray {
            let element = canonical(clang_getArrayElementType(c));
            let is_const = clang_isConstQualifiedType(c) != 0 && !element.starts_with("const ");
            return format!("{}{element} *", if is_const { "const " } else { "" });
        }
        take_string(clang_getTypeSpelling(c))
    }
}

/// Names of C typedefs that stand for Rust primitives; bindgen maps them the same way.
fn std_typedef(name: &str) -> Option<Builtin> {
    Some(match name {
        "size_t" => Builtin::Usize,
        "wchar_t" => Builtin::WChar,
        "ssize_t" | "ptrdiff_t" | "intptr_t" => Builtin::Isize,
        "uintptr_t" => Builtin::Usize,
        "int8_t" => Builtin::I8,
        "int16_t" => Builtin::I16,
        "int32_t" => Builtin::I32,
        "int64_t" => Builtin::I64,
        "uint8_t" => Builtin::U8,
        "uint16_t" => Builtin::U16,
        "uint32_t" => Builtin::U32,
        "uint64_t" => Builtin::U64,
        _ => return None,
    })
}

/// Whether `name` is a type of the C library that a signature keeps by
/// name, though a system header declares it: what it stands for differs
/// between C libraries (`FILE` is glibc's `struct _IO_FILE`, MinGW's
/// `struct _iobuf`), and every one of them declares the name.
fn c_library_type(name: &str) -> bool {
    name == "FILE"
}

thread_local! {
    /// While set, the typedef names a signature may keep; any other typedef
    /// is spelled as its canonical type. A platform's parse (`-D_WIN32`) sets
    /// it to the names the plain parse declares, so that a typedef only that
    /// platform declares (`HGPUNV`) needs no declaration of its own.
    static KNOWN_TYPEDEFS: std::cell::RefCell<Option<std::collections::BTreeSet<String>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with only `known` typedef names kept in signatures (see `KNOWN_TYPEDEFS`).
pub fn with_known_typedefs<T>(
    known: std::collections::BTreeSet<String>,
    f: impl FnOnce() -> T,
) -> T {
    KNOWN_TYPEDEFS.with(|k| *k.borrow_mut() = Some(known));
    let out = f();
    KNOWN_TYPEDEFS.with(|k| *k.borrow_mut() = None);
    out
}

fn typedef_is_known(name: &str) -> bool {
    KNOWN_TYPEDEFS.with(|k| k.borrow().as_ref().is_none_or(|set| set.contains(name)))
}

/// Converts a clang type into the language-neutral IR type.
/// An unknown shape is an error, reported by the caller with the declaration's location.
fn convert(ty: CXType) -> Result<Type, String> {
    // SAFETY: plain queries on live types.
    unsafe {
        let t = match ty.kind {
            CXType_Void => Type::Builtin(Builtin::Void),
            CXType_Bool => Type::Builtin(Builtin::Bool),
            CXType_Char_S | CXType_Char_U => Type::Builtin(Builtin::Char),
            CXType_SChar => Type::Builtin(Builtin::SChar),
            CXType_UChar => Type::Builtin(Builtin::UChar),
            CXType_Short => Type::Builtin(Builtin::Short),
            CXType_UShort => Type::Builtin(Builtin::UShort),
            CXType_Int => Type::Builtin(Builtin::Int),
            CXType_UInt => Type::Builtin(Builtin::UInt),
            CXType_Long => Type::Builtin(Builtin::Long),
            CXType_ULong => Type::Builtin(Builtin::ULong),
            CXType_LongLong => Type::Builtin(Builtin::LongLong),
            CXType_ULongLong => Type::Builtin(Builtin::ULongLong),
            CXType_Float => Type::Builtin(Builtin::Float),
            CXType_Double => Type::Builtin(Builtin::Double),
            CXType_Pointer => {
                let pointee = clang_getPointeeType(ty);
                let pc = clang_isConstQualifiedType(pointee) != 0;
                let canon = clang_getCanonicalType(pointee);
                if canon.kind == CXType_FunctionProto || canon.kind == CXType_FunctionNoProto {
                    return fn_pointer(canon);
                }
                Type::Pointer {
                    is_const: pc,
                    pointee: Box::new(convert(pointee)?),
                }
            }
            CXType_ConstantArray | CXType_IncompleteArray => Type::Pointer {
                is_const: clang_isConstQualifiedType(ty) != 0
                    || clang_isConstQualifiedType(clang_getArrayElementType(ty)) != 0,
                pointee: Box::new(convert(clang_getArrayElementType(ty))?),
            },
            CXType_Elaborated => return convert(clang_Type_getNamedType(ty)),
            CXType_Typedef => {
                let decl = clang_getTypeDeclaration(ty);
                let name = take_string(clang_getCursorSpelling(decl));
                let in_system = clang_Location_isInSystemHeader(clang_getCursorLocation(decl)) != 0;
                match std_typedef(&name) {
                    Some(b) => Type::Builtin(b),
                    None if c_library_type(&name) => Type::Named(name),
                    None if in_system || !typedef_is_known(&name) => {
                        return convert(clang_getCanonicalType(ty))
                    }
                    None => Type::Named(name),
                }
            }
            CXType_Record | CXType_Enum => {
                let decl = clang_getTypeDeclaration(ty);
                let name = take_string(clang_getCursorSpelling(decl));
                if name.is_empty() || name.contains(' ') {
                    return Err(format!(
                        "anonymous type `{}`",
                        take_string(clang_getTypeSpelling(ty))
                    ));
                }
                Type::Named(name)
            }
            _ => {
                return Err(format!(
                    "unsupported C type `{}`",
                    take_string(clang_getTypeSpelling(ty))
                ))
            }
        };
        Ok(t)
    }
}

fn fn_pointer(f: CXType) -> Result<Type, String> {
    // SAFETY: plain queries on a live function type.
    unsafe {
        if clang_isFunctionTypeVariadic(f) != 0 {
            return Err("variadic callback type".into());
        }
        let ret = convert(clang_getResultType(f))?;
        let mut params = Vec::new();
        for i in 0..clang_getNumArgTypes(f).max(0) as c_uint {
            params.push(convert(clang_getArgType(f, i))?);
        }
        Ok(Type::FnPointer {
            ret: Box::new(ret),
            params,
        })
    }
}

/// Reads the identifier that starts at byte `offset` of `file`.
pub fn identifier_at(
    file: &Path,
    offset: u32,
    cache: &mut std::collections::HashMap<PathBuf, Vec<u8>>,
) -> Option<String> {
    if !cache.contains_key(file) {
        let bytes = std::fs::read(file).ok()?;
        cache.insert(file.to_path_buf(), bytes);
    }
    let bytes = cache.get(file)?;
    let rest = bytes.get(offset as usize..)?;
    let len = rest
        .iter()
        // Bytes of a non-ASCII letter too, so that the whole name is read.
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b >= 0x80)
        .count();
    (len > 0).then(|| String::from_utf8_lossy(&rest[..len]).into_owned())
}

/// Records `ty` and what it names, through pointers and arrays.
fn collect_named(ty: CXType, out: &mut std::collections::BTreeMap<String, Shape>) {
    // SAFETY: plain queries on live types.
    unsafe {
        match ty.kind {
            CXType_Pointer => collect_named(clang_getPointeeType(ty), out),
            CXType_ConstantArray | CXType_IncompleteArray => {
                collect_named(clang_getArrayElementType(ty), out)
            }
            CXType_Elaborated => collect_named(clang_Type_getNamedType(ty), out),
            CXType_Typedef | CXType_Record | CXType_Enum => {
                let decl = clang_getTypeDeclaration(ty);
                if clang_Location_isInSystemHeader(clang_getCursorLocation(decl)) != 0 {
                    return;
                }
                let name = take_string(clang_getCursorSpelling(decl));
                if name.is_empty() || out.contains_key(&name) {
                    return;
                }
                out.insert(name.clone(), Shape::Other(String::new()));
                let description = describe(clang_getCanonicalType(ty), 0);
                out.insert(name, description);
            }
            _ => {}
        }
    }
}

/// The ABI of a type: size, fields with their types, enum values. Anonymous
/// members are described inline, never by their source location.
fn describe(ty: CXType, depth: u32) -> Shape {
    // SAFETY: plain queries on live types and cursors; the visitor only pushes.
    unsafe {
        match ty.kind {
            CXType_Record if depth < 4 => {
                extern "C" fn field(c: CXCursor, data: CXClientData) -> CXVisitorResult {
                    // SAFETY: `data` is the `Vec` passed below.
                    let v = unsafe { &mut *(data as *mut Vec<CXCursor>) };
                    v.push(c);
                    CXVisit_Continue
                }
                let mut fields: Vec<CXCursor> = Vec::new();
                clang_Type_visitFields(ty, field, &mut fields as *mut Vec<CXCursor> as *mut c_void);
                let decl = clang_getTypeDeclaration(ty);
                Shape::Record {
                    union: clang_getCursorKind(decl) == CXCursor_UnionDecl,
                    fields: fields
                        .into_iter()
                        .map(|f| {
                            let fty = clang_getCanonicalType(clang_getCursorType(f));
                            (
                                take_string(clang_getCursorSpelling(f)),
                                spell(fty, depth + 1),
                            )
                        })
                        .collect(),
                    size: clang_Type_getSizeOf(ty),
                }
            }
            CXType_Enum => {
                let decl = clang_getTypeDeclaration(ty);
                let mut items: Vec<CXCursor> = Vec::new();
                extern "C" fn visit(
                    c: CXCursor,
                    _p: CXCursor,
                    data: CXClientData,
                ) -> CXChildVisitResult {
                    // SAFETY: `data` is the `Vec` passed below.
                    let v = unsafe { &mut *(data as *mut Vec<CXCursor>) };
                    v.push(c);
                    CXChildVisit_Continue
                }
                clang_visitChildren(decl, visit, &mut items as *mut Vec<CXCursor> as *mut c_void);
                Shape::Enum(
                    items
                        .into_iter()
                        .filter(|c| clang_getCursorKind(*c) == CXCursor_EnumConstantDecl)
                        .map(|c| {
                            (
                                take_string(clang_getCursorSpelling(c)),
                                clang_getEnumConstantDeclValue(c),
                            )
                        })
                        .collect(),
                )
            }
            _ => Shape::Other(spell(ty, depth).to_string()),
        }
    }
}

/// A field's type: its spelling, or its shape when it is anonymous.
fn spell(ty: CXType, depth: u32) -> Field {
    // SAFETY: plain queries on live types.
    unsafe {
        let decl = clang_getTypeDeclaration(ty);
        let anonymous = clang_getCursorKind(decl) != CXCursor_NoDeclFound
            && clang_Cursor_isAnonymous(decl) != 0;
        match ty.kind {
            CXType_Record | CXType_Enum if anonymous && depth < 4 => {
                Field::Anonymous(Box::new(describe(ty, depth)))
            }
            CXType_ConstantArray => Field::Array(
                Box::new(spell(
                    clang_getCanonicalType(clang_getArrayElementType(ty)),
                    depth,
                )),
                clang_getArraySize(ty),
            ),
            _ => Field::Spelled(take_string(clang_getTypeSpelling(ty))),
        }
    }
}

/// One `#define` of the headers ([`Unit::macro_definitions`]).
struct MacroDefinition {
    name: String,
    function_like: bool,
    /// The tokens after the name, with their kinds.
    body: Vec<(CXTokenKind, String)>,
}
