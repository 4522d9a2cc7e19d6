// Byte-identity of the port with the C on every scripted input (35; 36 in the long run: 924 plies,
// castling, en passant, promotions, mates, stalemate, 300-ply engine games), against the golden
// transcripts (made by running the C) always, and against the C itself, live, when `MICROMAX_C`
// names its source and gcc is here; and `micromax.ts` through tsx, as a learner runs a changed
// copy, on three of them. `fixtures/scripts.tsv` names every input and golden file; the golden
// files are the reference C's (by sha256).
//
// time: 194 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { REFERENCE_SHA256, cSource, isReference, sha256, whyNoC } from './support/c-oracle.ts';
import { firstDifference, portArgs, run, runC, runPort, sourceCommand, type Result } from './support/run.ts';
import { MANIFEST, SCRIPTS, goldenPath, readManifest, scriptInput, scriptPath, variant, type Script } from './support/scripts.ts';

const noC = whyNoC();
// The golden files are the reference C's output: only it can say one is stale.
const notReference = !noC && !isReference(cSource()!) ? `MICROMAX_C is not the reference micromax-3.2.c ` +
  `(sha256 ${sha256(cSource()!).slice(0, 16)}..., not ${REFERENCE_SHA256.slice(0, 16)}...): its output is not the golden files'` : '';
// What micromax.ts itself, through tsx, is checked on: a game traced, the refusals, promotion.
const FROM_SOURCE = ['engine-1e4', 'illegal-inputs', 'promotion'];
// The quick run (npm run test:quick) leaves out the two scripts at the default limit; npm test
// leaves out the one that takes 45 s a side (default-e2e4), which the long run adds.
const quickRun = process.env.MICROMAX_QUICK === '1';
const longRun = process.env.MICROMAX_LONG === '1';
const leftOut = (s: Script): string | false => {
  if (quickRun && s.slow) return 'left out of the quick run';
  if (!longRun && s.long) return 'only in the long run (MICROMAX_LONG=1)';
  return false;
};
const RUN = SCRIPTS.filter((x) => !leftOut(x));
// The C itself at the default limit (default-trace: 22 s) runs only in the long run; npm test
// compares the port with its golden file, which npm run golden made from the C.
const liveLeftOut = (s: Script): string | false => {
  if (leftOut(s)) return leftOut(s);
  if (!longRun && s.slow) return 'the C at the default limit: only in the long run (MICROMAX_LONG=1)';
  return false;
};
const LIVE = RUN.filter((x) => !liveLeftOut(x));
const port = new Map<string, Promise<Result>>();
const ours = (s: Script): Promise<Result> => {
  if (!port.has(s.name)) port.set(s.name, runPort(scriptInput(s), portArgs(variant(s))));
  return port.get(s.name)!;
};
// The C's run of a script, made once: the live diff and the golden files' check share it.
const c = new Map<string, Promise<Result>>();
const theirs = (s: Script): Promise<Result> => {
  if (!c.has(s.name)) c.set(s.name, runC(scriptInput(s), variant(s)));
  return c.get(s.name)!;
};

// The two scripts at the default limit take about half a minute a side: start them now, so that
// they run while the others are checked (node sorts the files, and this one runs near the end).
for (const s of RUN.filter((x) => x.slow)) {
  void ours(s);
  if (!noC && !liveLeftOut(s)) void theirs(s);
}

for (const s of SCRIPTS) {
  test(`golden ${s.name}: ${s.about}`, { skip: leftOut(s) }, async () => {
    if (!noC && !liveLeftOut(s)) void theirs(s);        // the C's run beside the port's: both cores
    const r = await ours(s);
    assert.equal(r.code, 0, `exit code ${r.code} ${r.signal ?? ''}\n${r.stderr}`);
    assert.equal(r.stderr, '');
    const diff = firstDifference(fs.readFileSync(goldenPath(s)), r.stdout);
    assert.equal(diff, undefined, diff);
  });
  test(`live C ${s.name}`, { skip: noC ? `live diffs skipped: ${noC}` : liveLeftOut(s) }, async () => {
    const [them, r] = await Promise.all([theirs(s), ours(s)]);
    assert.equal(them.code, 0, `the C exited ${them.code}`);
    const diff = firstDifference(them.stdout, r.stdout);
    assert.equal(diff, undefined, `${diff}${notReference ? `\n(${notReference})` : ''}`);
  });
}

test('the golden transcripts are the reference C\'s, for the current scripts',
  { skip: noC ? `skipped: ${noC}` : notReference ? `skipped: ${notReference}` : false }, async () => {
    // Every script run live: the C's runs are the live tests' (above), made once.
    for (const s of LIVE) {
      const them = await theirs(s);
      assert.ok(them.stdout.equals(fs.readFileSync(goldenPath(s))), `${s.name}: the reference C (sha256 checked) no longer ` +
        `prints ${path.relative(process.cwd(), goldenPath(s))}: the file was changed; npm run golden remakes it from the reference C`);
    }
  });

test('the list of scripts (test/fixtures/scripts.tsv) names every input and golden file, and only those', () => {
  const rows = readManifest(MANIFEST), dir = path.dirname(MANIFEST);
  assert.deepEqual(rows.map((s) => s.name), SCRIPTS.map((s) => s.name));
  for (const s of rows) {
    assert.ok(fs.existsSync(scriptPath(s)) && fs.existsSync(goldenPath(s)), s.name);
    assert.equal(path.basename(s.input), `${s.name}.in`);
    assert.equal(path.basename(s.expected), `${s.name}.out`);
  }
  const files = (sub: string, ext: string): string[] => fs.readdirSync(path.join(dir, sub)).filter((f) => f.endsWith(ext)).sort();
  assert.deepEqual(files('inputs', '.in'), rows.map((s) => `${s.name}.in`).sort());
  assert.deepEqual(files('golden', '.out'), rows.map((s) => `${s.name}.out`).sort());
  // a reader without TypeScript: six tab-separated columns, flags '-' or --nodes N and --trace
  for (const line of fs.readFileSync(MANIFEST, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).slice(1)) {
    assert.match(line, /^[a-z0-9-]+\t(-|--nodes \d+|--trace|--nodes \d+ --trace)\tinputs\/\S+\tgolden\/\S+\t(always|slow|long)\t[^\t]+$/);
  }
  assert.throws(() => readManifest(path.join(dir, 'golden', 'keytable.txt')), /header/);
});

// The tests run dist/micromax.js (what npm start runs, built from micromax.ts); a learner runs
// micromax.ts, or a changed copy, through tsx.
test(`micromax.ts through tsx (no build step) prints ${FROM_SOURCE.join(', ')} byte for byte`, async () => {
  for (const s of SCRIPTS.filter((x) => FROM_SOURCE.includes(x.name))) {
    const [cmd, argv] = sourceCommand(portArgs(variant(s)));
    const r = await run(cmd, argv, scriptInput(s));
    assert.equal(r.code, 0, `${s.name}: exit code ${r.code}\n${r.stderr}`);
    const diff = firstDifference(fs.readFileSync(goldenPath(s)), r.stdout);
    assert.equal(diff, undefined, `${s.name}: ${diff}`);
  }
});

test('no input at all: one board, exit 0', async () => {
  const r = await runPort('');
  assert.equal(r.code, 0);
  assert.equal(r.stdout.toString().split('\n').length, 9);
});
