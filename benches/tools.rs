//! Benchmarks for the tool-policy resolver: one `tools` call on a realistic multi-agent config
//! (load + resolve + report), and a 10,000-context batch. Figures go in docs/performance.md.

use std::path::{Path, PathBuf};

use clawpolicy::OpenClawVersion;
use clawpolicy::batch::tools::ToolsBatch;
use clawpolicy::config::loading;
use clawpolicy::policy::{self, SessionContext};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn single_call(c: &mut Criterion) {
    let config = fixtures().join("examples/team.json5");
    let ctx = SessionContext {
        agent_id: Some("support".into()),
        session_key: Some("agent:support:telegram:group:-1001234567890".into()),
        ..Default::default()
    };
    c.bench_function("tools: load team.json5 + resolve one session", |b| {
        b.iter(|| {
            let opts = loading::process_options(OpenClawVersion::V2026_9);
            let loaded = loading::load_files(std::slice::from_ref(&config), &opts).unwrap();
            policy::resolve(OpenClawVersion::V2026_9, loaded.config(), &ctx).unwrap()
        })
    });
}

fn batch(c: &mut Criterion) {
    let dir = fixtures().join("conformance");
    let text = std::fs::read_to_string(dir.join("tools-2026.9.cases.jsonl")).unwrap();
    let cases: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let batch: Vec<&Value> = cases.iter().cycle().take(10_000).collect();
    let mut group = c.benchmark_group("tools batch");
    group.sample_size(10);
    group.bench_function("10,000 contexts (conformance cases, cycled)", |b| {
        b.iter(|| {
            let tools = ToolsBatch::new(loading::process_options(OpenClawVersion::V2026_9), dir.clone());
            for case in &batch {
                let line = tools.answer(case);
                criterion::black_box(serde_json::to_string(&line).unwrap());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, single_call, batch);
criterion_main!(benches);
