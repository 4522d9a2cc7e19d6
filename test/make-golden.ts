// Regenerates test/golden/ from the C named by MICROMAX_C — never from the port.
// Run: MICROMAX_C=../shared/reference/micromax-3.2.c npm run golden [-- name ...]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { whyNoC } from './c-oracle.ts';
import { ROOT, runC } from './run.ts';
import { SCRIPTS, goldenPath, scriptInput, variant } from './scripts.ts';
import { T_SUMS_PATH, cKeyTable } from './keytable.ts';

const why = whyNoC();
if (why) { console.error(`make-golden: ${why}`); process.exit(2); }

const only = process.argv.slice(2);
fs.mkdirSync(path.join(ROOT, 'test', 'golden'), { recursive: true });
for (const s of SCRIPTS.filter((x) => !only.length || only.includes(x.name))) {
  const t0 = Date.now();
  const r = await runC(scriptInput(s), variant(s));
  if (r.code !== 0) throw new Error(`${s.name}: the C exited ${r.code} ${r.signal ?? ''}`);
  fs.writeFileSync(goldenPath(s), r.stdout);
  console.log(`${s.name.padEnd(22)} ${String(r.stdout.length).padStart(8)} bytes  ${Date.now() - t0} ms`);
}
fs.writeFileSync(T_SUMS_PATH, cKeyTable() + '\n');
console.log(`key table facts from the C: ${T_SUMS_PATH}`);
