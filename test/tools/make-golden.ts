// MICROMAX_C=../shared/reference/micromax-3.2.c npm run golden -- [name ...]
// Regenerates test/fixtures/golden/ (every script's, or the named ones') from the C named by
// MICROMAX_C — never from the port — and the key table's facts. Exit 2 without the C.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { whyNoC } from '../support/c-oracle.ts';
import { fail, readOptions } from '../support/options.ts';
import { ROOT, runC } from '../support/run.ts';
import { SCRIPTS, goldenPath, scriptInput, variant } from '../support/scripts.ts';
import { T_SUMS_PATH, cKeyTable } from '../support/keytable.ts';

const USAGE = `usage: MICROMAX_C=path/to/micromax-3.2.c npm run golden -- [name ...]
  name   a script of test/support/scripts.ts (default: all of them)`;
const only: string[] = readOptions('make-golden', USAGE, {}, SCRIPTS.length).positionals;
const unknown = only.find((name) => !SCRIPTS.some((s) => s.name === name));
if (unknown !== undefined) fail('make-golden', `no script named '${unknown}'`);
const why = whyNoC();
if (why) fail('make-golden', why);
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
