// Most of a run's time went to allocating and freeing small strings and maps (a fleet's sessions
// each build their own); mimalloc does that in a fraction of glibc's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    clawpolicy::cli::run()
}
