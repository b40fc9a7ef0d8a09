fn main() {
    std::process::exit(cushim::cli::run(std::env::args_os()));
}
