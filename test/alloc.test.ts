// When the 176 MiB hash table cannot be had, the program says so in one line on stderr and exits 1.
//
// A real shortage cannot be staged here (under `ulimit -v` Node itself fails to start first), so a
// preloaded hook makes the large typed arrays throw the RangeError V8 throws on failure.
//
// time: 3 s

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT } from './support/run.ts';

const HOOK = 'data:text/javascript,' + encodeURIComponent(
  'const Real = Int32Array; globalThis.Int32Array = class extends Real { constructor(...a) {' +
  ' if (typeof a[0] === "number" && a[0] > 1e7) throw new RangeError("Array buffer allocation failed");' +
  ' super(...a); } };');

test('no memory for the hash table: one line on stderr, exit 1, nothing on stdout', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', HOOK, path.join(ROOT, 'micromax.ts')],
    { cwd: ROOT, input: 'e2e4\n', encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^micromax: cannot allocate the hash table \(Array buffer allocation failed\)\n$/);
});
