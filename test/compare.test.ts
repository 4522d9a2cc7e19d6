// The compare command: identical, different (as firstDifference reports it), and unable to compare.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { whyNoC } from './support/c-oracle.ts';
import { ROOT, firstDifference } from './support/run.ts';

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
