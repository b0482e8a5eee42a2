#!/usr/bin/env node
// Runs the clawpolicy binary of this platform, which npm installed as the optional dependency
// @clawpolicy/<platform>-<arch> (no install script, no download). Arguments, standard streams,
// the exit code and a terminating signal pass through unchanged.
'use strict';

const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const path = require('node:path');

/** Exit code when no binary can be run, as clawpolicy's own "could not answer". */
const EXIT_CANNOT_RUN = 2;

function fail(message) {
  process.stderr.write(`clawpolicy: ${message}\n`);
  process.exit(EXIT_CANNOT_RUN);
}

function binaryPath() {
  // An explicit binary (a cargo build, a distribution package) wins, as for biome and esbuild.
  if (process.env.CLAWPOLICY_BINARY) return process.env.CLAWPOLICY_BINARY;
  const platformPackage = `@clawpolicy/${process.platform}-${process.arch}`;
  const executable = process.platform === 'win32' ? 'clawpolicy.exe' : 'clawpolicy';
  let manifest;
  try {
    manifest = require.resolve(`${platformPackage}/package.json`);
  } catch {
    fail(
      `no prebuilt binary for ${process.platform}-${process.arch}: the package ${platformPackage} is not installed.\n` +
        'It is an optional dependency of clawpolicy: reinstall without --omit=optional / --no-optional,\n' +
        'or set CLAWPOLICY_BINARY to a clawpolicy binary built with `cargo install`.',
    );
  }
  return path.join(path.dirname(manifest), 'bin', executable);
}

const binary = binaryPath();
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });

// A signal sent to this process alone (a CI runner cancelling the job) reaches the binary too.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const forward = (signal) => child.kill(signal);
for (const signal of forwarded) process.on(signal, forward);

child.on('error', (error) => fail(`cannot run ${binary}: ${error.message}`));
child.on('exit', (code, signal) => {
  if (signal === null) {
    process.exitCode = code;
    return;
  }
  // Die of the same signal, so the caller sees what it would have seen without this launcher;
  // should the signal not end the process, the shell's convention 128 + signal number remains.
  for (const s of forwarded) process.off(s, forward);
  process.exitCode = 128 + (constants.signals[signal] ?? 0);
  process.kill(process.pid, signal);
});
