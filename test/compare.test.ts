// The compare command: identical, different (as firstDifference reports it), and unable to compare;
// its --nodes as micromax's; the port never run from a stale dist/; a closed pipe is no error.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { nodeValue, whyNoC } from './support/c-oracle.ts';
import { ROOT, atMost, firstDifference, portCommand, run } from './support/run.ts';

const noC = whyNoC() ? `skipped: ${whyNoC()}` : false;
const gate = atMost(2);

const compare = (args: string[], env: NodeJS.ProcessEnv, input = ''): ReturnType<typeof spawnSync> =>
  spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test', 'tools', 'compare.ts'), ...args],
    { cwd: ROOT, env, input, encoding: 'utf8' });

test('without MICROMAX_C: exit 2 and says why', () => {
  const env = { ...process.env };
  delete env.MICROMAX_C;
  const r = compare(['test/fixtures/inputs/char-wrap.in'], env);
  assert.equal(r.status, 2);
  assert.match(String(r.stderr), /MICROMAX_C is not set/);
});

test('identical outputs: exit 0, how much was compared, then the calls', { skip: whyNoC() ? `skipped: ${whyNoC()}` : false }, () => {
  const r = compare(['--nodes', '1000', 'test/fixtures/inputs/char-wrap.in'], process.env);
  assert.equal(r.status, 0, String(r.stdout) + String(r.stderr));
  assert.equal(String(r.stdout), 'identical (432 bytes: 3 boards, the answers to 2 input lines)\n' +
    'and call by call: identical (2097 calls)\n');
  const piped = compare(['--nodes', '1000', '--trace', '--bytes'], process.env, 'e2e4\n\n');
  assert.equal(piped.status, 0);
  assert.match(String(piped.stdout), /^identical \(\d+ bytes: 3 boards, 4 trace lines, the answers to 2 input lines\)\n/);
  assert.match(String(piped.stdout), /\nonly the output was compared: --trace adds [^\n]*, --calls every call of D\(\)\n$/);
});

test('a difference is located by line, with both sides shown', () => {
  const a = Buffer.from(' r n b \n . . . \n * * * \n'), b = Buffer.from(' r n b \n . . * \n * * * \n');
  const d = firstDifference(a, b, 1) ?? '';
  assert.match(d, /first difference at byte 13, line 2/);
  assert.match(d, /--- C:\n[\s\S]*--- port:\n/);
  assert.ok(d.includes(' . . . ') && d.includes(' . . * '), d);
  assert.equal(firstDifference(a, Buffer.from(a)), undefined);
});

test('--nodes takes what micromax takes (1e4 is 10000), and refuses what it refuses', async () => {
  const values = ['1e4', '10000', ' 100 ', '1e+3', '1000.0', '2147483647', '0', '-5', '1.5', 'x', '2147483648', '1e3x', ''];
  const [cmd, argv] = portCommand();
  const taken = await Promise.all(values.map((v) => gate(() => run(cmd, [...argv, `--nodes=${v}`], ''))));
  values.forEach((v, k) => {
    assert.ok(taken[k].code === 0 || taken[k].code === 2, `micromax --nodes ${v}: exit ${taken[k].code}`);
    assert.equal(nodeValue(v) !== undefined, taken[k].code === 0, `--nodes '${v}': micromax exits ${taken[k].code}`);
  });
  assert.equal(nodeValue('1e4'), 10000);
  const r = compare(['--nodes', '1.5', '--bytes'], process.env);
  assert.equal(r.status, 2);
  assert.equal(String(r.stderr), "compare: --nodes wants a whole number from 1 to 2147483647, not '1.5' (see --help)\n");
});

test('bad arguments: exit 2, one line, no stack', () => {
  for (const [args, why] of [
    [['--stream', 'x.calls'], /--stream is for --calls/],
    [['--calls', '--trace'], /--calls compares the passes too/],
    [['--calls', '--bytes'], /give --calls or --bytes, not both/],
    [['--calls', '--stream', 'x', '--program', 'y'], /give --program or --stream, not both/],
    [['--program', ' '], /--program wants a command/],
    [['--moves', 'e2e4', 'file.in'], /give --moves or an input file, not both/],
    [['--fast'], /unknown option '--fast'/],
  ] as const) {
    const r = compare([...args], process.env);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(String(r.stderr), new RegExp(`^compare: ${why.source}[^\\n]*\\n$`), args.join(' '));
  }
});

test('the port is compiled from micromax.ts as it is: a dist/ newer than it is never run', { skip: noC, timeout: 120_000 },
  () => {
    // a copy of the project whose dist/micromax.js is a stale program, newer than micromax.ts
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-stale-'));
    for (const f of ['micromax.ts', 'package.json', 'tsconfig.json']) fs.copyFileSync(path.join(ROOT, f), path.join(copy, f));
    fs.cpSync(path.join(ROOT, 'test'), path.join(copy, 'test'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    fs.mkdirSync(path.join(copy, 'dist'));
    fs.writeFileSync(path.join(copy, 'dist', 'micromax.js'), 'process.stdout.write("a stale build\\n");\n');
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(copy, 'test', 'tools', 'compare.ts'),
        '--nodes', '1000', '--bytes', '--moves', 'e2e4'], { cwd: copy, env: process.env, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^identical \(432 bytes/);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

test('into a reader that has gone (| true): no EPIPE, no stack; the tools end', { skip: noC, timeout: 120_000 }, () => {
  const tsx = `${JSON.stringify(process.execPath)} --import tsx`;
  for (const line of [`${tsx} test/tools/compare.ts --calls --nodes 3000 --moves e2e4`,
    `${tsx} test/tools/compare.ts --nodes 1000 --moves e2e4`, `${tsx} test/tools/calls.ts --nodes 3000 --moves e2e4`,
    `${tsx} test/tools/conformance.ts char-wrap stale-buffer`]) {
    const s = spawnSync('bash', ['-c', `set -o pipefail; ${line} 2>"$ERR" | true; echo "exit \${PIPESTATUS[0]}"; cat "$ERR"`],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ERR: path.join(os.tmpdir(), `micromax-epipe-${process.pid}`) },
        timeout: 60_000 });
    assert.match(s.stdout, /^exit [01]\n/, `${line}\n${s.stdout}`);
    assert.doesNotMatch(s.stdout, /EPIPE|\n\s+at |Error/, `${line}\n${s.stdout}`);
  }
});
