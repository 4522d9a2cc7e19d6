// npm run fuzz -- [--count N] [--seed S] [--jobs J] [--index I] [--show]
//
// Fuzzing (`test/support/fuzz.ts` makes and checks the scripts): N seeded random input scripts run
// through the port, each checked for a clean exit, legal moves and refusals (chess.js), and the C's
// bytes when `MICROMAX_C` names the C. Script I of seed S is the same on every machine: a failure
// prints both, and `--seed S --index I --show` runs that script alone and shows it.
//
// Exit 0 when every script passed, 1 when one failed, 2 on bad arguments.
//
// time: minutes

import { whyNoC } from '../support/c-oracle.ts';
import { describeFailure, describeSummary, fuzz, makeScript } from '../support/fuzz.ts';
import { exit, readOptions, whole } from '../support/options.ts';
import { portArgs } from '../support/run.ts';

const USAGE = `usage: npm run fuzz -- [--count N] [--seed S] [--jobs J] [--index I] [--show]
  --count N   how many scripts (default 1000)
  --seed S    the seed (default: from the clock; printed)
  --jobs J    scripts run at once (default 2)
  --index I   run script I of the seed alone
  --show      with --index: print the script's arguments and input`;

const { values } = readOptions('fuzz', USAGE, {
  count: { type: 'string' }, seed: { type: 'string' }, jobs: { type: 'string' },
  index: { type: 'string' }, show: { type: 'boolean' },
});
const opt = {
  count: whole('fuzz', 'count', values.count, 1) ?? 1000,
  seed: whole('fuzz', 'seed', values.seed, 0) ?? Date.now() % 1_000_000_007,
  jobs: whole('fuzz', 'jobs', values.jobs, 1, 64) ?? 2,
  only: whole('fuzz', 'index', values.index, 0),
};

const noC = whyNoC();
const what = opt.only !== undefined ? `script ${opt.only}` : `${opt.count} scripts`;
console.log(`fuzz: seed ${opt.seed}, ${what}, ${opt.jobs} jobs; ${noC ? `not compared with the C: ${noC}` : 'compared with the C'}`);
if (values.show && opt.only !== undefined) {
  const s = makeScript(opt.seed, opt.only);
  console.log(`args: ${portArgs(s.variant).join(' ')}`);
  console.log(`input (${s.input.length} bytes): ${JSON.stringify(s.input.toString('latin1'))}`);
}
const sum = await fuzz({ ...opt, onFailure: (o) => console.log(describeFailure(o)) });
console.log(describeSummary(sum));
exit(sum.failed.length || !sum.scripts ? 1 : 0);
