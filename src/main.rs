fn main() -> std::process::ExitCode {
    clawpolicy::cli::run()
}
