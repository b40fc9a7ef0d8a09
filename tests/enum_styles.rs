//! cushim's enums have bindgen's shapes: for each style, the enum items of the
//! 13.5 module (rendered from the IR) equal those bindgen itself writes for
//! the pinned header with that style, item for item, plus only what cushim
//! adds on purpose: a `Debug` that prints C names for every newtype, and the
//! bit operators for a flag enum as a newtype.

use crate::common;

use std::collections::BTreeSet;

use bindgen::EnumVariation;
use cushim::EnumStyle;
use quote::ToTokens;

/// bindgen's own output for the 13.5 header, with cushim's settings but this
/// enum style.
fn bindgen_items(style: EnumVariation, prepend: bool) -> Vec<syn::Item> {
    bindgen_items_deriving(style, prepend, cushim::Derives::default())
}

/// The same, with bindgen's derive options set as `derives` says.
fn bindgen_items_deriving(
    style: EnumVariation,
    prepend: bool,
    derives: cushim::Derives,
) -> Vec<syn::Item> {
    let include = common::include_dir("13.5");
    let dir = include.canonicalize().unwrap().display().to_string();
    // Every header of the driver, with the system's own OpenGL, EGL and VDPAU
    // headers (which .ci/run installs), not cushim's stand-ins.
    let all = [
        "cuda.h",
        "cudaProfiler.h",
        "GL/gl.h",
        "cudaGL.h",
        "EGL/egl.h",
        "EGL/eglext.h",
        "cudaEGL.h",
        "vdpau/vdpau.h",
        "cudaVDPAU.h",
    ]
    .map(|h| format!("#include <{h}>\n"))
    .concat();
    // Each option set as its flag would be: only when on (bindgen's setters
    // also turn others on or off).
    let mut builder = bindgen::Builder::default();
    for (on, set) in [
        (
            derives.partialeq,
            bindgen::Builder::derive_partialeq as fn(_, _) -> _,
        ),
        (derives.eq, bindgen::Builder::derive_eq),
        (derives.hash, bindgen::Builder::derive_hash),
        (derives.partialord, bindgen::Builder::derive_partialord),
        (derives.ord, bindgen::Builder::derive_ord),
    ] {
        if on {
            builder = set(builder, true);
        }
    }
    let text = builder
        .header_contents("driver-headers.h", &all)
        .clang_args(["-x", "c", "-std=c11"])
        .clang_arg(format!("-I{dir}"))
        .allowlist_file(format!("{}/.*", regex_lite::escape(&dir)))
        .blocklist_function(".*")
        .blocklist_type("PFN_.*")
        .default_enum_style(style)
        .prepend_enum_name(prepend)
        .derive_default(true)
        .layout_tests(false)
        .generate_comments(false)
        .generate_cstr(true)
        .generate()
        .unwrap()
        .to_string();
    syn::parse_file(&text).unwrap().items
}

/// The items of the `sys` module of cushim's 13.5 module in this style.
fn cushim_items(style: EnumStyle, prepend: bool) -> Vec<syn::Item> {
    cushim_items_of(
        cushim::Builder::new()
            .default_enum_style(style)
            .prepend_enum_name(prepend),
    )
}

/// The items of the `sys` module of the 13.5 module that `builder` asks for.
fn cushim_items_of(builder: cushim::Builder) -> Vec<syn::Item> {
    let options = builder
        .cuda_version("13.5")
        .languages(&[cushim::Language::Rust]);
    let generated = cushim::generate(options.options()).unwrap();
    let file = syn::parse_file(&generated.files[0].contents).unwrap();
    file.items
        .into_iter()
        .find_map(|item| match item {
            syn::Item::Mod(m) if m.ident == "sys" => m.content.map(|(_, items)| items),
            _ => None,
        })
        .expect("a sys module")
}

fn tokens(t: &impl ToTokens) -> String {
    t.to_token_stream()
        .to_string()
        .replace(":: std :: os :: raw ::", ":: core :: ffi ::")
        .replace(":: std :: ops ::", ":: core :: ops ::")
}

/// What an item says about an enum, one entry per fact; nothing for an item
/// that is no enum's. `Debug` impls and derives are left out (compared apart).
fn entries(items: &[syn::Item], enums: &BTreeSet<String>) -> Vec<String> {
    let ours = |ty: &syn::Type| enums.contains(&tokens(ty));
    let mut out = Vec::new();
    for item in items {
        match item {
            syn::Item::Enum(e) if enums.contains(&e.ident.to_string()) => out.push(tokens(e)),
            syn::Item::Struct(s) if enums.contains(&s.ident.to_string()) => {
                let mut s = s.clone();
                s.attrs.retain(|a| !a.path().is_ident("derive"));
                out.push(tokens(&s));
            }
            syn::Item::Impl(i) if ours(&i.self_ty) => match &i.trait_ {
                Some((path, _)) => {
                    let name = path.segments.last().unwrap().ident.to_string();
                    if name != "Debug" {
                        out.push(format!("impl {name} for {}", tokens(&i.self_ty)));
                    }
                }
                None => {
                    for c in &i.items {
                        out.push(format!("{}::{}", tokens(&i.self_ty), tokens(c)));
                    }
                }
            },
            syn::Item::Const(c) if ours(&c.ty) => out.push(tokens(c)),
            syn::Item::Type(t) if enums.contains(&t.ident.to_string()) => out.push(tokens(t)),
            // The opaque structs that the runtime declares: compared apart
            // (`opaque_structs_are_the_runtimes_with_bindgens_shape`).
            syn::Item::Use(u) if tokens(u).starts_with(OPAQUE_USE) => {}
            syn::Item::Use(u) => out.push(tokens(u)),
            _ => {}
        }
    }
    out.sort();
    out
}

/// How a module re-exports one of the runtime's opaque structs, as tokens.
const OPAQUE_USE: &str = "pub use cushim_runtime :: opaque ::";

/// Each struct of `items` that is declared only, as bindgen writes it (one
/// field, `_unused: [u8; 0]`), by name, without its derives.
fn declared_only(items: &[syn::Item]) -> std::collections::BTreeMap<String, String> {
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) if tokens(&s.fields).replace(' ', "") == "{_unused:[u8;0],}" => {
                let mut s = s.clone();
                s.attrs.retain(|a| a.path().is_ident("repr"));
                Some((s.ident.to_string(), tokens(&s)))
            }
            _ => None,
        })
        .collect()
}

/// Every struct that bindgen declares only in the 13.5 driver's headers is
/// one the module re-exports from the runtime, and the runtime's struct has
/// bindgen's shape (`#[repr(C)]`, one empty array field), so its layout is
/// bindgen's; the module declares none itself.
#[test]
fn opaque_structs_are_the_runtimes_with_bindgens_shape() {
    let newtype = EnumVariation::NewType {
        is_bitfield: false,
        is_global: false,
    };
    let theirs = declared_only(&bindgen_items(newtype, true));
    let ours = cushim_items(EnumStyle::NewType, true);
    assert!(declared_only(&ours).is_empty());
    let shared: BTreeSet<String> = ours
        .iter()
        .filter_map(|item| match item {
            syn::Item::Use(u) => tokens(u)
                .strip_prefix(OPAQUE_USE)
                .map(|rest| rest.trim().trim_end_matches(';').trim().to_string()),
            _ => None,
        })
        .collect();
    assert!(shared.contains("CUctx_st") && shared.contains("CUstream_st"));
    assert_eq!(shared, theirs.keys().cloned().collect::<BTreeSet<_>>());
    let runtime =
        std::fs::read_to_string(common::root().join("cushim-runtime/src/opaque.rs")).unwrap();
    let runtime = declared_only(&syn::parse_file(&runtime).unwrap().items);
    for (name, shape) in &theirs {
        assert_eq!(runtime.get(name), Some(shape), "{name}");
    }
}

/// Whether `items` define `Debug` for `name` by hand.
fn has_debug_impl(items: &[syn::Item], name: &str) -> bool {
    items.iter().any(|item| match item {
        syn::Item::Impl(i) => {
            tokens(&i.self_ty) == name
                && i.trait_
                    .as_ref()
                    .is_some_and(|(p, _)| p.segments.last().unwrap().ident == "Debug")
        }
        _ => false,
    })
}

#[test]
fn every_enum_style_has_bindgens_items() {
    let (api, _) = cushim::load(cushim::Builder::new().cuda_version("13.5").options()).unwrap();
    let enums: BTreeSet<String> = api.enums.iter().map(|e| e.name.clone()).collect();
    let flags: BTreeSet<String> = api
        .enums
        .iter()
        .filter(|e| e.flags)
        .map(|e| e.name.clone())
        .collect();
    assert!(
        enums.len() > 100
            && flags.contains("CUctx_flags_enum")
            && !flags.contains("cudaError_enum")
    );
    let cases = [
        (EnumStyle::Consts, EnumVariation::Consts, true),
        (EnumStyle::Consts, EnumVariation::Consts, false),
        (
            EnumStyle::NewType,
            EnumVariation::NewType {
                is_bitfield: false,
                is_global: false,
            },
            true,
        ),
        (
            EnumStyle::NewTypeGlobal,
            EnumVariation::NewType {
                is_bitfield: false,
                is_global: true,
            },
            true,
        ),
        (
            EnumStyle::NewTypeGlobal,
            EnumVariation::NewType {
                is_bitfield: false,
                is_global: true,
            },
            false,
        ),
        (
            EnumStyle::Bitfield,
            EnumVariation::NewType {
                is_bitfield: true,
                is_global: false,
            },
            true,
        ),
        (
            EnumStyle::Rust,
            EnumVariation::Rust {
                non_exhaustive: false,
            },
            true,
        ),
        (
            EnumStyle::RustNonExhaustive,
            EnumVariation::Rust {
                non_exhaustive: true,
            },
            true,
        ),
    ];
    for (style, variation, prepend) in cases {
        let theirs = bindgen_items(variation, prepend);
        let ours = cushim_items(style, prepend);
        let expected = entries(&theirs, &enums);
        let mut got = entries(&ours, &enums);
        let newtype = matches!(style, EnumStyle::NewType | EnumStyle::NewTypeGlobal);
        if newtype {
            // cushim's own addition: a flag enum gets the bit operators.
            got.retain(|e| {
                let extra = ["BitOr", "BitOrAssign", "BitAnd", "BitAndAssign"]
                    .iter()
                    .any(|t| flags.iter().any(|f| *e == format!("impl {t} for {f}")));
                !extra
            });
        }
        let missing: Vec<&String> = expected.iter().filter(|e| !got.contains(e)).collect();
        let extra: Vec<&String> = got.iter().filter(|e| !expected.contains(e)).collect();
        assert!(
            missing.is_empty() && extra.is_empty() && got.len() == expected.len(),
            "{style} (prepend {prepend}): bindgen has {} entries, cushim {}\nonly bindgen's: {:#?}\nonly cushim's: {:#?}",
            expected.len(),
            got.len(),
            &missing[..missing.len().min(10)],
            &extra[..extra.len().min(10)]
        );
        let debug_by_hand = matches!(
            style,
            EnumStyle::NewType | EnumStyle::NewTypeGlobal | EnumStyle::Bitfield
        );
        for name in &enums {
            assert_eq!(
                has_debug_impl(&ours, name),
                debug_by_hand,
                "{style}: {name}"
            );
        }
    }
}

/// Each struct, union and enum newtype's derived traits, by name.
fn derives_of(items: &[syn::Item]) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let mut out = std::collections::BTreeMap::new();
    for item in items {
        let (name, attrs) = match item {
            syn::Item::Struct(s) => (s.ident.to_string(), &s.attrs),
            syn::Item::Union(u) => (u.ident.to_string(), &u.attrs),
            _ => continue,
        };
        let mut traits = BTreeSet::new();
        for a in attrs.iter().filter(|a| a.path().is_ident("derive")) {
            let list: syn::punctuated::Punctuated<syn::Path, syn::Token![,]> = a
                .parse_args_with(syn::punctuated::Punctuated::parse_terminated)
                .unwrap();
            traits.extend(list.iter().map(tokens));
        }
        out.insert(name, traits);
    }
    out
}

/// A bindgen user's derive options (`--with-derive-eq --with-derive-hash
/// --with-derive-ord`, and others) give every struct, union and enum of the
/// module the traits that bindgen itself derives for it from the same
/// header; with none, the module is the default one. cushim's own enum
/// newtypes print `Debug` by hand, so `Debug` is left out of the comparison
/// for them.
#[test]
fn derive_options_give_bindgens_derives() {
    let none = cushim::Derives::default();
    let cases = [
        none,
        cushim::Derives {
            eq: true,
            hash: true,
            ord: true,
            ..none
        },
        cushim::Derives {
            partialeq: true,
            ..none
        },
        cushim::Derives {
            hash: true,
            partialord: true,
            ..none
        },
        cushim::Derives { ord: true, ..none },
    ];
    let newtype = EnumVariation::NewType {
        is_bitfield: false,
        is_global: false,
    };
    for derives in cases {
        let theirs = derives_of(&bindgen_items_deriving(newtype, true, derives));
        let ours_items = cushim_items_of(
            cushim::Builder::new()
                .derive_partialeq(derives.partialeq)
                .derive_eq(derives.eq)
                .derive_hash(derives.hash)
                .derive_partialord(derives.partialord)
                .derive_ord(derives.ord),
        );
        let ours = derives_of(&ours_items);
        assert!(ours.len() > 100, "{}", ours.len());
        let mut compared = 0;
        for (name, traits) in &ours {
            let Some(expected) = theirs.get(name) else {
                continue;
            };
            let (mut traits, mut expected) = (traits.clone(), expected.clone());
            if has_debug_impl(&ours_items, name) {
                traits.remove("Debug");
                expected.remove("Debug");
            }
            assert_eq!(traits, expected, "{name} with {derives:?}");
            compared += 1;
        }
        assert!(compared > 100, "{compared} items compared");
    }
}
