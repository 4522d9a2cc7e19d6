// A short run of the fuzzer (`test/support/fuzz.ts`) inside `npm test`: 16 scripts, always with the
// same seed (random bytes, odd terminators, short and empty lines, odd spellings of moves, legal
// moves, input ending mid-line). The port must exit 0 with nothing on stderr and a well-formed
// transcript, chess.js must agree with every move and refusal, and the output must be the C's (when
// the C is here). `npm run fuzz` runs many more, with a new seed each time.
//
// time: 38 s

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whyNoC } from './support/c-oracle.ts';
import { describeFailure, describeSummary, fuzz, makeScript, type Summary } from './support/fuzz.ts';

const SEED = 20240601;
const COUNT = 16;                                      // npm run fuzz runs 1000 by default
const noC = whyNoC();
let summary: Summary | undefined;

test('fuzz: the scripts keep to what the C defines (lines of at most 8 bytes)', () => {
  for (let k = 0; k < 200; k++) {
    const { input } = makeScript(SEED, k);
    let run = 0;
    for (const byte of input) { run = byte <= 10 ? 0 : run + 1; assert.ok(run <= 8, `script ${k}: a line of ${run} bytes`); }
  }
});

test(`fuzz: ${COUNT} scripts, seed ${SEED}: exit 0, no stderr, moves legal`, async (t) => {
  summary = await fuzz({ count: COUNT, seed: SEED, jobs: 2, withC: !noC });
  t.diagnostic(describeSummary(summary));
  const failures = summary.failed.map(describeFailure);
  const own = summary.failed.filter((o) => o.failures.some((f) => !f.startsWith('c: ')));
  assert.equal(own.length, 0, failures.join('\n'));
  assert.ok(summary.engineMoves > 50 && summary.typedMoves > 50, 'the scripts hardly played');
});

test(`fuzz: ${COUNT} scripts, seed ${SEED}: byte-identical to the C`, { skip: noC ? `skipped: ${noC}` : false }, () => {
  assert.ok(summary, 'the fuzz run did not happen');
  assert.equal(summary.comparedWithC, COUNT);
  const diffs = summary.failed.filter((o) => o.failures.some((f) => f.startsWith('c: ')));
  assert.equal(diffs.length, 0, diffs.map(describeFailure).join('\n'));
});
