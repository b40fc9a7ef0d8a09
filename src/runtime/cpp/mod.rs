//! The C++ runtime, as real source: `cushim_runtime.h` and `cushim_runtime.cpp`
//! carry no template tag. The generator writes both, verbatim, beside every C++
//! pair (the same bytes whatever the library), and a program compiles the
//! source once whatever the number of pairs. The unit tests of the runtime
//! module compile it with g++ around a hand-written description.

/// The runtime header's file name, as pairs include it.
pub const HEADER_NAME: &str = "cushim_runtime.h";
/// The runtime source's file name.
pub const SOURCE_NAME: &str = "cushim_runtime.cpp";
/// The runtime header's text.
pub const HEADER: &str = include_str!("cushim_runtime.h");
/// The runtime source's text.
pub const SOURCE: &str = include_str!("cushim_runtime.cpp");
