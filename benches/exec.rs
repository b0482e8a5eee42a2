//! Throughput of the exec simulator: a 100,000-command batch per release.

use clawpolicy::OpenClawVersion;
use clawpolicy::exec::{Ask, ExecRequest, Security, evaluate};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const BATCH: usize = 100_000;

/// A deterministic mix of simple, chained, wrapped and unanalysable commands.
fn commands() -> Vec<String> {
    let exes =
        ["ls -la", "head -n 5", "git status", "grep -e foo", "cat x.txt", "tr a-z A-Z", "python3 -c 1", "rm -rf build"];
    let joins = [" | ", " && ", "; "];
    let wraps = ["", "nice -n 5 ", "sh -c '", "sudo ", "env A=1 "];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    (0..BATCH)
        .map(|_| {
            let wrap = wraps[next(wraps.len())];
            let mut cmd = format!("{wrap}{}", exes[next(exes.len())]);
            if wrap.ends_with('\'') {
                cmd.push('\'');
            }
            for _ in 0..next(3) {
                cmd.push_str(joins[next(joins.len())]);
                cmd.push_str(exes[next(exes.len())]);
            }
            if next(10) == 0 {
                cmd.push_str(" > out.txt");
            }
            cmd
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let commands = commands();
    let mut group = c.benchmark_group("exec-batch");
    group.sample_size(10);
    group.throughput(Throughput::Elements(BATCH as u64));
    for version in OpenClawVersion::ALL {
        let mut base = ExecRequest::new("", "/tmp");
        base.site.path_var = Some("/usr/bin:/bin".into());
        base.what_if.security = Some(Security::Allowlist);
        base.what_if.ask = Some(Ask::OnMiss);
        base.what_if.host = Some("gateway".into());
        base.what_if.allow = vec!["/usr/bin/ls".into(), "git".into(), "/usr/bin/cat".into()];
        group.bench_function(format!("{version} x{BATCH}"), |b| {
            b.iter(|| {
                for cmd in &commands {
                    let mut r = base.clone();
                    r.command.clone_from(cmd);
                    std::hint::black_box(evaluate(&r, version).ok());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
