// MICROMAX_C=../shared/reference/micromax-3.2.c npm run golden -- [name ...]
// Regenerates `test/fixtures/golden/` (every script's of `test/fixtures/scripts.tsv`, or the named
// ones') and the key table's facts from the C named by `MICROMAX_C`, never from the port. Only the
// reference `micromax-3.2.c` may write them, known by its sha256: a changed C (a tester's mutant, a
// copy from the web) is refused. Exit 2 without the reference C.
//
// time: minutes

import * as fs from 'node:fs';
import * as path from 'node:path';
import { REFERENCE_SHA256, cSource, sha256, whyNoC } from '../support/c-oracle.ts';
import { fail, readOptions } from '../support/options.ts';
import { ROOT, runC } from '../support/run.ts';
import { SCRIPTS, goldenPath, scriptInput, variant } from '../support/scripts.ts';
import { T_SUMS_PATH, cKeyTable } from '../support/keytable.ts';

const USAGE = `usage: MICROMAX_C=path/to/micromax-3.2.c npm run golden -- [name ...]
  name   a script of test/fixtures/scripts.tsv (default: all of them)
Only the reference micromax-3.2.c (sha256 ${REFERENCE_SHA256.slice(0, 16)}...) may write the golden files.`;
const only: string[] = readOptions('make-golden', USAGE, {}, SCRIPTS.length).positionals;
const unknown = only.find((name) => !SCRIPTS.some((s) => s.name === name));
if (unknown !== undefined) fail('make-golden', `no script named '${unknown}'`);
const why = whyNoC();
if (why) fail('make-golden', why);
const sum = sha256(cSource()!);
if (sum !== REFERENCE_SHA256) {
  fail('make-golden', `MICROMAX_C is not the reference micromax-3.2.c (its sha256 is ${sum.slice(0, 16)}..., the ` +
    `reference's ${REFERENCE_SHA256.slice(0, 16)}...): the golden files are the reference's output, and stay so`);
}
fs.mkdirSync(path.join(ROOT, 'test', 'fixtures', 'golden'), { recursive: true });
for (const s of SCRIPTS.filter((x) => !only.length || only.includes(x.name))) {
  const t0 = Date.now();
  const r = await runC(scriptInput(s), variant(s));
  if (r.code !== 0) throw new Error(`${s.name}: the C exited ${r.code} ${r.signal ?? ''}`);
  fs.writeFileSync(goldenPath(s), r.stdout);
  console.log(`${s.name.padEnd(22)} ${String(r.stdout.length).padStart(8)} bytes  ${Date.now() - t0} ms`);
}
fs.writeFileSync(T_SUMS_PATH, cKeyTable() + '\n');
console.log(`key table facts from the C: ${T_SUMS_PATH}`);
