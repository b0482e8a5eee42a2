//! Benchmarks for the CI commands on a 50-agent fleet (`fixtures/bench/fleet-50*.json5`, made by
//! `generate.py`): `lint` (every rule, as the command runs them), `matrix` (enumerate and resolve
//! every agent × context) and `diff` (both sides, tool changes, built-in exec probes). Config
//! loading is measured apart. Figures go in docs/performance.md.

use std::path::{Path, PathBuf};

use clawpolicy::config::loading::{self, LoadedFiles};
use clawpolicy::config::path::KeyPath;
use clawpolicy::fleet::probe::BUILTIN_PROBES;
use clawpolicy::lint::{self, LintContext, Selection, suppress::Suppressions};
use clawpolicy::{OpenClawVersion, fleet::contexts, fleet::diff, fleet::matrix};
use criterion::{Criterion, criterion_group, criterion_main};

const V: OpenClawVersion = OpenClawVersion::V2026_9;

fn fleet(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench").join(name)
}

fn load(name: &str) -> LoadedFiles {
    loading::load_files(&[fleet(name)], &loading::process_options(V)).unwrap()
}

fn fleet_benches(c: &mut Criterion) {
    let (base, head) = (load("fleet-50.json5"), load("fleet-50-head.json5"));
    let mut group = c.benchmark_group("fleet of 50 agents");
    group.sample_size(10);
    group.bench_function("load and validate one config", |b| b.iter(|| load("fleet-50.json5")));
    group.bench_function("lint: every rule, as the command selects them", |b| {
        b.iter(|| {
            let ctx = LintContext::new(V, base.loaded(), base.issues(), None)
                .with_validation_warnings(base.validation_warnings());
            let selection = Selection { finding_cap: Some(lint::FINDINGS_PER_RULE_AND_FILE), ..Selection::default() };
            lint::lint(&ctx, &selection, &Suppressions::default())
        })
    });
    group.bench_function("matrix: enumerate, resolve and tabulate", |b| {
        b.iter(|| {
            let sessions = contexts::Sessions::new(V, base.config());
            matrix::build(&sessions, &sessions.contexts_of(sessions.agents(), &[]))
        })
    });
    let probes: Vec<String> = BUILTIN_PROBES.iter().map(|p| p.to_string()).collect();
    let (base_locate, base_nearest) = (|p: &KeyPath| base.locate(p), |p: &KeyPath| base.locate_nearest(p));
    let (head_locate, head_nearest) = (|p: &KeyPath| head.locate(p), |p: &KeyPath| head.locate_nearest(p));
    group.bench_function("diff: both sides, tool changes, exec probes", |b| {
        b.iter(|| {
            let options = diff::Options {
                plugin_tools: &[],
                jobs: &[],
                agents: &[],
                probes: &probes,
                approvals: clawpolicy::exec::ApprovalsInput::None,
                cwd: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
            };
            diff::diff(
                &diff::Config { value: base.config(), version: V, locate: &base_locate, locate_nearest: &base_nearest },
                &diff::Config { value: head.config(), version: V, locate: &head_locate, locate_nearest: &head_nearest },
                &options,
            )
            .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, fleet_benches);
criterion_main!(benches);
