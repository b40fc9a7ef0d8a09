fn main() {
    let a: Vec<String> = std::env::args().collect();
    let input = cushim::parse::Input { header: a[1].clone().into(), typedefs: a.get(2).map(Into::into), clang_args: vec![] };
    let t = std::time::Instant::now();
    let raw = match cushim::parse::parse(&input) { Ok(r) => r, Err(e) => { eprintln!("{e}"); std::process::exit(1) } };
    eprintln!("parse {:?}", t.elapsed());
    let api = match cushim::ir::build(&raw, "x", "y", String::new(), &Default::default()) { Ok(r) => r, Err(e) => { eprintln!("{e}"); std::process::exit(1) } };
    for d in &api.diagnostics { eprintln!("{d}"); }
    for f in &api.functions { println!("{} {} {} {:?} {:?} {}", f.name, f.symbol, f.proc_name, f.version, f.per_thread, f.deprecated); }
}
