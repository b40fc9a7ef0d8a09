//! The `Debug` of the enums of generated modules.

/// Writes an enum value as the header names it: the constant with that value
/// (`CUDA_ERROR_INVALID_VALUE`); for a set of flags, the constants whose bits
/// it holds (`CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST`); and what no constant
/// names as the type with its value (`cudaError_enum(12345)`).
///
/// `names` holds each value once, with its first name, in the header's order.
///
/// # Errors
/// The formatter's.
pub fn fmt_enum<T>(
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

#[cfg(test)]
mod tests {
    use super::fmt_enum;

    struct Shown<'a>(u32, &'a [(u32, &'a str)], bool);

    impl ::core::fmt::Debug for Shown<'_> {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            fmt_enum(f, "flags_enum", self.0, self.1, self.2)
        }
    }

    const NAMES: &[(u32, &str)] = &[
        (0, "AUTO"),
        (1, "SPIN"),
        (2, "YIELD"),
        (7, "MASK"),
        (8, "MAP_HOST"),
    ];

    #[test]
    fn a_known_value_prints_its_first_name_and_an_unknown_one_its_type() {
        assert_eq!(format!("{:?}", Shown(7, NAMES, false)), "MASK");
        assert_eq!(format!("{:?}", Shown(0, NAMES, true)), "AUTO");
        assert_eq!(format!("{:?}", Shown(9, NAMES, false)), "flags_enum(9)");
        assert_eq!(
            format!("{:#?}", Shown(9, NAMES, false)),
            "flags_enum(\n    9,\n)"
        );
    }

    #[test]
    fn flags_print_the_constants_whose_bits_they_hold_and_the_rest() {
        assert_eq!(format!("{:?}", Shown(9, NAMES, true)), "SPIN | MAP_HOST");
        assert_eq!(
            format!("{:?}", Shown(11, NAMES, true)),
            "SPIN | YIELD | MAP_HOST"
        );
        assert_eq!(
            format!("{:?}", Shown(8 | 64, NAMES, true)),
            "MAP_HOST | flags_enum(64)"
        );
        assert_eq!(format!("{:?}", Shown(64, NAMES, true)), "flags_enum(64)");
    }
}
