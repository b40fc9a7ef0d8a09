//! The vocabulary of C facts that every stage shares: the types of function
//! signatures, the constants of a status enum and the shape of a named type.
//! Parse produces them, the IR and `diff` hold them, and each emitter renders
//! them in its own language; C spelling lives here, because it is a fact.

// nanoserde's derived reader of an `Option` field trips this style lint,
// and a derive's impl takes no attribute from its item.
#![allow(clippy::question_mark)]

use std::fmt;

/// C's arithmetic types plus the fixed-width typedefs that every target maps natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub enum Builtin {
    /// `void`.
    Void,
    /// `bool`.
    Bool,
    /// `char`.
    Char,
    /// `signed char`.
    SChar,
    /// `unsigned char`.
    UChar,
    /// `short`.
    Short,
    /// `unsigned short`.
    UShort,
    /// `int`.
    Int,
    /// `unsigned int`.
    UInt,
    /// `long`.
    Long,
    /// `unsigned long`.
    ULong,
    /// `long long`.
    LongLong,
    /// `unsigned long long`.
    ULongLong,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `size_t`, `uintptr_t`.
    Usize,
    /// `wchar_t`: its own type in C++, so a C++ pair spells it by name; 32
    /// bits where cushim parses (Rust's `c_int`, as bindgen's).
    WChar,
    /// `ssize_t`, `ptrdiff_t`, `intptr_t`.
    Isize,
    /// `int8_t`.
    I8,
    /// `int16_t`.
    I16,
    /// `int32_t`.
    I32,
    /// `int64_t`.
    I64,
    /// `uint8_t`.
    U8,
    /// `uint16_t`.
    U16,
    /// `uint32_t`.
    U32,
    /// `uint64_t`.
    U64,
}

/// A parameter or return type. Example: `Pointer { is_const: true, pointee: Builtin(Char) }` for `const char *`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub enum Type {
    /// An arithmetic type or `void`.
    Builtin(Builtin),
    /// A typedef, struct or enum declared by the header. Example: `CUdeviceptr`.
    Named(String),
    /// A pointer. Example: `const char *` is a const-pointee pointer to `Char`.
    Pointer {
        /// Whether the pointee is `const`.
        is_const: bool,
        /// What it points to.
        pointee: Box<Type>,
    },
    /// A pointer to a function written inline in a signature.
    FnPointer {
        /// The return type.
        ret: Box<Type>,
        /// The parameter types.
        params: Vec<Type>,
    },
}

impl Type {
    /// The type name when this is a declared type. Example: `Some("CUresult")`.
    pub fn named(&self) -> Option<&str> {
        match self {
            Type::Named(n) => Some(n),
            _ => None,
        }
    }
}

/// One constant of the status enum. Example: `CUDA_ERROR_OUT_OF_MEMORY = 2`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct StatusCode {
    /// Example: `CUDA_ERROR_OUT_OF_MEMORY`.
    pub name: String,
    /// Example: `2`.
    pub value: i64,
    /// The Doxygen brief, if any. Example: `The API call failed because it was unable to allocate enough memory`.
    pub doc: Option<String>,
}

/// An enum the headers declare, by the name bindgen gives it: what the Rust
/// emitter renders in the enum style asked for. Example: `cudaError_enum`
/// (`repr: UInt`, `[("CUDA_SUCCESS", 0), ...]`, aliases `["CUresult"]`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub struct Enum {
    /// The tag, or for `typedef enum { ... } CUfoo;` the typedef. Example: `cudaError_enum`.
    pub name: String,
    /// The integer type C gives it. Example: `UInt`.
    pub repr: Builtin,
    /// Its constants in declaration order, duplicates included. Example: `("CUDA_SUCCESS", 0)`.
    pub constants: Vec<(String, i64)>,
    /// The typedefs that name it, at any depth, sorted. Example: `["CUresult"]`.
    pub aliases: Vec<String>,
    /// A set of bits that programs combine with `|` (the library
    /// description tells them by name). Example: `true` for `CUctx_flags_enum`.
    pub flags: bool,
}

impl Enum {
    /// Whether `name` names this enum: its own name or one of its typedefs.
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|a| a == name)
    }
}

/// The ABI of a named type that signatures use: what `diff` compares between releases.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub enum Shape {
    /// A struct or union. Example: `CUuuid` → `struct { bytes: char[16] } (16 bytes)`.
    Record {
        /// `union` rather than `struct`.
        union: bool,
        /// Each field's name and type, in declaration order.
        fields: Vec<(String, Field)>,
        /// `sizeof`, in bytes. Example: `16`.
        size: i64,
    },
    /// An enum's constants, in declaration order. Example: `[("CU_JIT_THREADS_PER_BLOCK", 1)]`.
    Enum(Vec<(String, i64)>),
    /// Anything else, as C spells it. Example: `unsigned long long`.
    Other(String),
}

/// A field's type.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "emit", derive(nanoserde::DeJson, nanoserde::SerJson))]
pub enum Field {
    /// As C spells it. Example: `unsigned int`.
    Spelled(String),
    /// An anonymous struct, union or enum, described inline (never by its source location).
    Anonymous(Box<Shape>),
    /// An array of `len` elements. Example: `char[16]`.
    Array(Box<Field>, i64),
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Spelled(s) => write!(f, "{s}"),
            Field::Anonymous(shape) => write!(f, "{shape}"),
            Field::Array(element, len) => write!(f, "{element}[{len}]"),
        }
    }
}

impl Shape {
    /// The parts that can change on their own: each field (`bytes: char[16]`)
    /// and the size (`(16 bytes)`) of a record, each constant (`A = 1`) of an
    /// enum, or the whole spelling.
    pub fn members(&self) -> Vec<String> {
        match self {
            Shape::Record { fields, size, .. } => fields
                .iter()
                .map(|(name, ty)| format!("{name}: {ty}"))
                .chain(std::iter::once(format!("({size} bytes)")))
                .collect(),
            Shape::Enum(constants) => constants
                .iter()
                .map(|(name, value)| format!("{name} = {value}"))
                .collect(),
            Shape::Other(spelling) => vec![spelling.clone()],
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Record {
                union,
                fields,
                size,
            } => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|(name, ty)| format!("{name}: {ty}"))
                    .collect();
                let kind = if *union { "union" } else { "struct" };
                write!(f, "{kind} {{ {} }} ({size} bytes)", fields.join("; "))
            }
            Shape::Enum(constants) => {
                let constants: Vec<String> = constants
                    .iter()
                    .map(|(name, value)| format!("{name} = {value}"))
                    .collect();
                write!(f, "enum {{ {} }}", constants.join(", "))
            }
            Shape::Other(spelling) => write!(f, "{spelling}"),
        }
    }
}

/// Whether `s` is an ASCII C identifier. Example: `cuInit`; not `2d`, `cu-x` or `cuÄ`.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn builtin_c(b: Builtin) -> &'static str {
    match b {
        Builtin::Void => "void",
        Builtin::Bool => "bool",
        Builtin::Char => "char",
        Builtin::SChar => "signed char",
        Builtin::UChar => "unsigned char",
        Builtin::Short => "short",
        Builtin::UShort => "unsigned short",
        Builtin::Int => "int",
        Builtin::UInt => "unsigned int",
        Builtin::Long => "long",
        Builtin::ULong => "unsigned long",
        Builtin::LongLong => "long long",
        Builtin::ULongLong => "unsigned long long",
        Builtin::Float => "float",
        Builtin::Double => "double",
        Builtin::Usize => "size_t",
        Builtin::WChar => "wchar_t",
        Builtin::Isize => "ptrdiff_t",
        Builtin::I8 => "int8_t",
        Builtin::I16 => "int16_t",
        Builtin::I32 => "int32_t",
        Builtin::I64 => "int64_t",
        Builtin::U8 => "uint8_t",
        Builtin::U16 => "uint16_t",
        Builtin::U32 => "uint32_t",
        Builtin::U64 => "uint64_t",
    }
}

impl Type {
    /// The C declaration of `name` with this type; an empty `name` gives the
    /// type alone. Examples: `const char *pStr`, `CUresult`, `void (*callback)(CUstream, void *)`.
    pub fn declare(&self, name: &str) -> String {
        let join = |ty: &str, name: &str| {
            if name.is_empty() {
                ty.to_string()
            } else if ty.ends_with('*') {
                format!("{ty}{name}")
            } else {
                format!("{ty} {name}")
            }
        };
        match self {
            Type::Builtin(b) => join(builtin_c(*b), name),
            Type::Named(n) => join(n, name),
            Type::Pointer { .. } => join(&self.pointer_spelling(), name),
            Type::FnPointer { ret, params } => {
                let params: Vec<String> = params.iter().map(|p| p.declare("")).collect();
                let params = if params.is_empty() {
                    "void".to_string()
                } else {
                    params.join(", ")
                };
                format!("{} (*{name})({params})", ret.declare(""))
            }
        }
    }

    /// `const char *`: a pointer's spelling, with `const` for a const pointee.
    fn pointer_spelling(&self) -> String {
        match self {
            Type::Pointer { is_const, pointee } => {
                match &**pointee {
                    // `const char *const *`: a const pointer pointee takes `const` after its `*`.
                    p @ Type::Pointer { .. } => {
                        let inner = p.pointer_spelling();
                        format!("{inner}{}*", if *is_const { "const " } else { "" })
                    }
                    p => format!(
                        "{}{} *",
                        if *is_const { "const " } else { "" },
                        p.declare("")
                    ),
                }
            }
            other => other.declare(""),
        }
    }
}

impl fmt::Display for Type {
    /// The type as C spells it alone. Example: `const char **`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.declare(""))
    }
}
