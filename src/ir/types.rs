//! Language-neutral C types of function signatures.

/// C's arithmetic types plus the fixed-width typedefs that every target maps natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Void,
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Float,
    Double,
    /// `size_t`, `uintptr_t`.
    Usize,
    /// `ssize_t`, `ptrdiff_t`, `intptr_t`.
    Isize,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

/// A parameter or return type. Example: `Pointer { is_const: true, pointee: Builtin(Char) }` for `const char *`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Builtin(Builtin),
    /// A typedef, struct or enum declared by the header. Example: `CUdeviceptr`.
    Named(String),
    Pointer {
        is_const: bool,
        pointee: Box<Type>,
    },
    /// A pointer to a function written inline in a signature.
    FnPointer {
        ret: Box<Type>,
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
