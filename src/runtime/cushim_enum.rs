/// Writes an enum value as the header names it: the constant with that value
/// (`CUDA_ERROR_INVALID_VALUE`); for a set of flags, the constants whose bits
/// it holds (`CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST`); and what no constant
/// names as the type with its value (`cudaError_enum(12345)`).
///
/// `names` holds each value once, with its first name, in the header's order.
fn cushim_fmt_enum<T>(
    f: &mut ::core::fmt::Formatter<'_>,
    type_name: &str,
    value: T,
    names: &[(T, &str)],
    flags: bool,
) -> ::core::fmt::Result
where
    T: Copy
        + Default
        + PartialEq
        + ::core::fmt::Debug
        + ::core::ops::BitAnd<Output = T>
        + ::core::ops::BitOr<Output = T>
        + ::core::ops::Not<Output = T>,
{
    if let Some((_, name)) = names.iter().find(|(v, _)| *v == value) {
        return f.write_str(name);
    }
    let zero = T::default();
    let mut covered = zero;
    let mut first = true;
    if flags {
        for &(bits, name) in names {
            // Each constant that adds bits the value holds and the names so far do not.
            if bits != zero && value & bits == bits && bits & !covered != zero {
                if !first {
                    f.write_str(" | ")?;
                }
                f.write_str(name)?;
                covered = covered | bits;
                first = false;
            }
        }
    }
    let rest = value & !covered;
    if first || rest != zero {
        if !first {
            f.write_str(" | ")?;
        }
        f.debug_tuple(type_name).field(&rest).finish()?;
    }
    Ok(())
}
