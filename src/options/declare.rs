//! The macro that turns the table of options ([`super::table`]) into code.
//!
//! Each option is declared once, as one entry of the table: its field of
//! [`super::Options`] and the field's default, its place in a recorded
//! command and the flags it writes there, its `cushim generate` arguments
//! (clap's derive attributes, so that `--help`, the man page and the
//! completions read as they did) and how they make the field, its `Builder`
//! methods, the flag each method stands for in a build script's hints, and
//! the `Builder` calls that exercise it in the tests. The table's section
//! `headers` holds the options that `cushim list` and `cushim doctor` take as
//! well ([`super::SourceArgs`]); the section `generate` holds the others
//! ([`super::GenerateArgs`]), after a `cli { ... }` of flags that set no
//! option (`--all`).
//!
//! The grammar of an entry, in order:
//!
//! ```text
//! /// The field's doc.
//! field: Type = default;
//! record RANK |value, default, flags| { ...push the flags that give `value`... }
//! cli { ...clap fields... } |args, library| expression making the field;
//! builder { ...`pub fn name(mut self, ...) -> Self { ... }` methods... }
//! hints { "--flag" => method, ... }
//! examples |builder| [builder.method(...), ...]
//! ```
//!
//! `RANK` orders the entries in a recorded command (the command line lists
//! them in the table's order); `flags` is a [`super::Written`]. `library` is
//! the one library the options are for (`--lib` may name several).
//!
//! The table is the body of `options_table!`, which hands it to
//! [`declare_options!`] with the part to expand where it is called:
//! `options` (the struct, its default, the recorded flags, the hints and the
//! clap structs, in [`super`]) or `builder` (the methods of `Builder`, in
//! `builder.rs`). The methods' bodies name `Builder`'s private fields: they
//! compile where `builder` is expanded, the only place they are meant for.

/// Expands one part of the table of options; see the module's doc for the
/// grammar.
macro_rules! declare_options {
    (
        $part:ident;
        headers {
            $(
                $(#[doc = $sdoc:literal])*
                $sfield:ident: $sty:ty = $sdefault:expr;
                record $srank:literal |$sval:pat_param, $sdef:pat_param, $sw:pat_param| $swrite:block
                cli { $($scli:tt)* } |$sa:pat_param, $sl:pat_param| $sread:expr;
                builder {
                    $( $(#[$($sma:tt)*])* pub fn $smethod:ident $ssig:tt -> Self $sbody:block )*
                }
                hints { $($sflag:literal => $shint:ident),* $(,)? }
                examples |$sb:ident| [$($sexample:expr),+ $(,)?]
            )*
        }
        generate {
            cli { $($gextra:tt)* }
            $(
                $(#[doc = $gdoc:literal])*
                $gfield:ident: $gty:ty = $gdefault:expr;
                record $grank:literal |$gval:pat_param, $gdef:pat_param, $gw:pat_param| $gwrite:block
                cli { $($gcli:tt)* } |$ga:pat_param, $gl:pat_param| $gread:expr;
                builder {
                    $( $(#[$($gma:tt)*])* pub fn $gmethod:ident $gsig:tt -> Self $gbody:block )*
                }
                hints { $($gflag:literal => $ghint:ident),* $(,)? }
                examples |$gb:ident| [$($gexample:expr),+ $(,)?]
            )*
        }
    ) => {
        $crate::options::declare::keep_part! {
            $part;
            options {
                /// Everything that decides what cushim generates: one field per
                /// entry of the table of options.
                #[derive(Clone, Debug, PartialEq, Eq)]
                pub struct Options {
                    $( $(#[doc = $sdoc])* pub $sfield: $sty, )*
                    $( $(#[doc = $gdoc])* pub $gfield: $gty, )*
                }

                impl Default for Options {
                    fn default() -> Self {
                        Options {
                            $( $sfield: $sdefault, )*
                            $( $gfield: $gdefault, )*
                        }
                    }
                }

                impl Options {
                    /// Pushes each option's flags onto `written`, each entry at
                    /// its rank.
                    fn write_flags(&self, written: &mut Written) {
                        let defaults = Options::default();
                        $({
                            written.rank = $srank;
                            let ($sval, $sdef, $sw) = (&self.$sfield, &defaults.$sfield, &mut *written);
                            $swrite
                        })*
                        $({
                            written.rank = $grank;
                            let ($gval, $gdef, $gw) = (&self.$gfield, &defaults.$gfield, &mut *written);
                            $gwrite
                        })*
                    }
                }

                /// Each flag of `cushim generate` and the [`Options`] setter of `Builder`
                /// that does the same, so that errors in a build script name the method.
                pub const FLAG_METHODS: &[(&str, &str)] = &[
                    $( $( ($sflag, concat!("Builder::", stringify!($shint))), )* )*
                    $( $( ($gflag, concat!("Builder::", stringify!($ghint))), )* )*
                ];

                #[cfg(feature = "cli")]
                /// Where the headers come from. At most one of these.
                #[derive(Args, Debug, Clone, Default, PartialEq, Eq)]
                pub struct SourceArgs {
                    $( $($scli)* )*
                }

                #[cfg(feature = "cli")]
                impl SourceArgs {
                    /// The options these flags describe for `library`, one of
                    /// [`Self::libraries`], with every other option at its default.
                    pub fn options_for(
                        &self,
                        library: &'static $crate::library::Library,
                    ) -> Result<Options, Error> {
                        Ok(Options {
                            $( $sfield: {
                                let ($sa, $sl) = (self, library);
                                $sread
                            }, )*
                            ..Options::default()
                        })
                    }
                }

                #[cfg(feature = "cli")]
                /// `cushim generate`'s flags.
                #[derive(Args, Debug, Clone, PartialEq, Eq)]
                pub struct GenerateArgs {
                    /// Where the headers come from, and the filters.
                    #[command(flatten)]
                    pub source: SourceArgs,
                    $($gextra)*
                    $( $($gcli)* )*
                }

                #[cfg(feature = "cli")]
                impl GenerateArgs {
                    /// The options these flags describe for `library`, one of the libraries
                    /// that `--lib` names ([`SourceArgs::libraries`]).
                    pub fn options_for(
                        &self,
                        library: &'static $crate::library::Library,
                    ) -> Result<Options, Error> {
                        Ok(Options {
                            $( $gfield: {
                                let ($ga, $gl) = (self, library);
                                $gread
                            }, )*
                            ..self.source.options_for(library)?
                        })
                    }
                }
            }
            builder {
                impl Builder {
                    $( $( $(#[$($sma)*])* pub fn $smethod $ssig -> Self $sbody )* )*
                    $( $( $(#[$($gma)*])* pub fn $gmethod $gsig -> Self $gbody )* )*

                    /// The methods that the table of options declares.
                    #[cfg(test)]
                    pub(crate) const OPTION_METHODS: &'static [&'static str] = &[
                        $( $( stringify!($smethod), )* )*
                        $( $( stringify!($gmethod), )* )*
                    ];

                    /// Each option's field and a Builder that sets it, from the
                    /// examples of the table of options.
                    #[cfg(test)]
                    pub(crate) fn option_examples() -> Vec<(&'static str, Builder)> {
                        vec![
                            $( $( (stringify!($sfield), {
                                let $sb = Builder::new();
                                $sexample
                            }), )+ )*
                            $( $( (stringify!($gfield), {
                                let $gb = Builder::new();
                                $gexample
                            }), )+ )*
                        ]
                    }
                }
            }
        }
    };
}

/// Keeps the part of the expanded table that `$part` names.
macro_rules! keep_part {
    (options; options { $($options:tt)* } builder { $($builder:tt)* }) => {
        $($options)*
    };
    (builder; options { $($options:tt)* } builder { $($builder:tt)* }) => {
        $($builder)*
    };
}

pub(crate) use declare_options;
pub(crate) use keep_part;
