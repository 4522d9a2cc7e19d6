// npm run compare -- [--nodes N] [--trace] [input-file]
// Runs the C (built from MICROMAX_C, cached) and the port on the same input — a file,
// or stdin — and says whether their outputs are byte-identical. Exit 0 identical,
// 1 different, 2 when it cannot compare (no MICROMAX_C, no gcc, bad arguments).

import * as fs from 'node:fs';
import { whyNoC } from './c-oracle.ts';
import { firstDifference, portArgs, runC, runPort } from './run.ts';

function usage(msg: string): never {
  console.error(`compare: ${msg}\nusage: npm run compare -- [--nodes N] [--trace] [input-file]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let nodes: number | undefined, trace = false, file: string | undefined;
for (let a = 0; a < args.length; a++) {
  if (args[a] === '--trace') trace = true;
  else if (args[a] === '--nodes') {
    nodes = Number(args[++a]);
    if (!Number.isInteger(nodes) || nodes < 1 || nodes > 2147483647) usage(`bad --nodes value '${args[a]}'`);
  } else if (args[a].startsWith('-')) usage(`unknown option '${args[a]}'`);
  else if (file === undefined) file = args[a];
  else usage('give at most one input file');
}
const why = whyNoC();
if (why) usage(why);

let input: Buffer;
try { input = file === undefined ? fs.readFileSync(0) : fs.readFileSync(file); } catch (err) {
  usage(`cannot read ${file ?? 'stdin'}: ${(err as Error).message}`);
}
const v = { nodes, trace };
const [c, ours] = await Promise.all([runC(input, v), runPort(input, portArgs(v))]);
const diff = firstDifference(c.stdout, ours.stdout);
if (c.code !== ours.code) console.log(`exit codes differ: C ${c.code}, port ${ours.code}`);
if (diff === undefined && c.code === ours.code) {
  console.log(`identical (${c.stdout.length} bytes)`);
  process.exit(0);
}
if (diff) console.log(diff);
process.exit(1);
