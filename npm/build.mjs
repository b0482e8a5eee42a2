#!/usr/bin/env node
// Stages the npm packages from a cargo build: `clawpolicy` (the launcher, platform-independent)
// and `@clawpolicy/<platform>-<arch>` (the binary for one platform), with the version of
// Cargo.toml. Run it once per platform of a release, with that platform's binary; the launcher
// package is the same from every run.
//
//   node npm/build.mjs [--binary PATH] [--target RUST_TARGET] [--out DIR] [--platform-only]
//
// --binary  the clawpolicy executable (default: target/<target>/release/clawpolicy, or
//           target/release/clawpolicy when --target is not given)
// --target  the Rust target the binary was built for (default: rustc's host); it names the
//           platform package and says whether a Linux binary needs glibc
// --out     where to write the package directories (default: target/npm)
// --platform-only  stage only the platform package: for a cross-compiled binary, which cannot
//           run here to render the launcher package's man pages

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The npm platforms with a package, by the Rust targets that build them. */
const PLATFORMS = {
  'linux-x64': { os: 'linux', cpu: 'x64', targets: ['x86_64-unknown-linux-musl', 'x86_64-unknown-linux-gnu'] },
  'linux-arm64': { os: 'linux', cpu: 'arm64', targets: ['aarch64-unknown-linux-musl', 'aarch64-unknown-linux-gnu'] },
  'darwin-x64': { os: 'darwin', cpu: 'x64', targets: ['x86_64-apple-darwin'] },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64', targets: ['aarch64-apple-darwin'] },
  'win32-x64': { os: 'win32', cpu: 'x64', targets: ['x86_64-pc-windows-msvc', 'x86_64-pc-windows-gnu'] },
};

function fail(message) {
  console.error(`npm/build.mjs: ${message}`);
  process.exit(2);
}

/** The version of the crate: the `version` key of Cargo.toml's [package] table. */
function crateVersion() {
  const manifest = readFileSync(path.join(repo, 'Cargo.toml'), 'utf8');
  const table = manifest.split(/^\[/m).find((section) => section.startsWith('package]'));
  const version = table?.match(/^version\s*=\s*"([^"]+)"/m)?.[1];
  return version ?? fail('no [package] version in Cargo.toml');
}

function hostTarget() {
  const info = execFileSync('rustc', ['-vV'], { encoding: 'utf8' });
  return info.match(/^host: (\S+)$/m)?.[1] ?? fail('rustc -vV names no host');
}

function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

const common = (version) => ({
  version,
  license: 'MIT',
  keywords: ['openclaw', 'linter', 'policy', 'security', 'cli'],
});

function stagePlatform({ out, version, target, binary }) {
  const [name, platform] = Object.entries(PLATFORMS).find(([, p]) => p.targets.includes(target)) ?? [];
  if (!name) fail(`no npm platform for the Rust target ${target} (known: ${Object.values(PLATFORMS).flatMap((p) => p.targets).join(', ')})`);
  const executable = target.includes('windows') ? 'clawpolicy.exe' : 'clawpolicy';
  const dir = path.join(out, `clawpolicy-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  copyFileSync(binary, path.join(dir, 'bin', executable));
  chmodSync(path.join(dir, 'bin', executable), 0o755);
  writeJson(path.join(dir, 'package.json'), {
    name: `@clawpolicy/${name}`,
    ...common(version),
    description: `The ${name} binary of clawpolicy (${target}); install clawpolicy instead.`,
    os: [platform.os],
    cpu: [platform.cpu],
    // A binary linked against glibc cannot run on musl systems (Alpine); a musl one is static.
    ...(target.endsWith('linux-gnu') ? { libc: ['glibc'] } : {}),
    files: [`bin/${executable}`],
    preferUnplugged: true,
  });
  writeFileSync(
    path.join(dir, 'README.md'),
    `# @clawpolicy/${name}\n\nThe \`clawpolicy\` binary for ${name}, built for \`${target}\`. Install the \`clawpolicy\` package, which picks this one on ${name}.\n`,
  );
  return dir;
}

function stageLauncher({ out, version, binary }) {
  const dir = path.join(out, 'clawpolicy');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  copyFileSync(path.join(repo, 'npm/clawpolicy/bin/clawpolicy.js'), path.join(dir, 'bin/clawpolicy.js'));
  chmodSync(path.join(dir, 'bin/clawpolicy.js'), 0o755);
  copyFileSync(path.join(repo, 'npm/clawpolicy/README.md'), path.join(dir, 'README.md'));
  // The man pages are the same on every platform: rendered by this build's binary.
  execFileSync(binary, ['man', '--output-dir', path.join(dir, 'man')], { stdio: 'inherit' });
  const pages = readdirSync(path.join(dir, 'man')).sort().map((page) => `man/${page}`);
  writeJson(path.join(dir, 'package.json'), {
    name: 'clawpolicy',
    ...common(version),
    description: 'Lint and simulate OpenClaw tool policy and exec approvals, offline.',
    bin: { clawpolicy: 'bin/clawpolicy.js' },
    man: pages,
    files: ['bin/clawpolicy.js', 'man'],
    engines: { node: '>=18' },
    optionalDependencies: Object.fromEntries(Object.keys(PLATFORMS).map((name) => [`@clawpolicy/${name}`, version])),
  });
  return dir;
}

const { values } = parseArgs({
  options: {
    binary: { type: 'string' },
    target: { type: 'string' },
    out: { type: 'string' },
    'platform-only': { type: 'boolean', default: false },
  },
});
const target = values.target ?? hostTarget();
const defaultBinary = path.join(repo, 'target', ...(values.target ? [target] : []), 'release', 'clawpolicy');
const binary = path.resolve(values.binary ?? (target.includes('windows') ? `${defaultBinary}.exe` : defaultBinary));
if (!existsSync(binary)) fail(`no binary at ${binary}: run \`cargo build --release\` first, or pass --binary`);
const out = path.resolve(values.out ?? path.join(repo, 'target/npm'));
const version = crateVersion();
mkdirSync(out, { recursive: true });
console.log(stagePlatform({ out, version, target, binary }));
if (!values['platform-only']) console.log(stageLauncher({ out, version, binary }));
