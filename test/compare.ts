// npm run compare -- [--calls] [--nodes N] [--trace] [--moves "e2e4 e7e5 ..."] [input-file]
// Runs the C (built from MICROMAX_C, cached) and the port on the same input — a file, stdin, or
// with --moves the game's moves as typed lines followed by an empty line (micro-Max's move) — and
// says whether their outputs are byte-identical; with --moves also which move both played (how to
// replay a move the engine chose in a GUI). With --calls it compares every call of D() instead,
// as both programs make them (test/calls.ts), and names the first call that differs.
// Exit 0 identical, 1 different, 2 when it cannot compare (no MICROMAX_C, no gcc, bad arguments).

import * as fs from 'node:fs';
import { replay } from './boards.ts';
import { compareCalls } from './calls-diff.ts';
import { whyNoC } from './c-oracle.ts';
import { firstDifference, portArgs, runC, runPort } from './run.ts';

function usage(msg: string): never {
  console.error(`compare: ${msg}\nusage: npm run compare -- [--calls] [--nodes N] [--trace] [--moves "e2e4 e7e5 ..."] [input-file]`);
  process.exit(2);
}

const args = process.argv.slice(2);
let nodes: number | undefined, trace = false, calls = false, file: string | undefined, moves: string[] | undefined;
for (let a = 0; a < args.length; a++) {
  if (args[a] === '--trace') trace = true;
  else if (args[a] === '--calls') calls = true;
  else if (args[a] === '--nodes') {
    nodes = Number(args[++a]);
    if (!Number.isInteger(nodes) || nodes < 1 || nodes > 2147483647) usage(`bad --nodes value '${args[a]}'`);
  } else if (args[a] === '--moves') {
    moves = (args[++a] ?? '').trim().split(/\s+/).filter(Boolean);
    const bad = moves.find((m) => !/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(m));
    if (bad !== undefined) usage(`'${bad}' is not a move like e2e4`);
  } else if (args[a].startsWith('-')) usage(`unknown option '${args[a]}'`);
  else if (file === undefined) file = args[a];
  else usage('give at most one input file');
}
if (moves && file !== undefined) usage('give --moves or an input file, not both');
if (calls && trace) usage('--calls compares the passes too: leave out --trace');
const why = whyNoC();
if (why) usage(why);

let input: Buffer;
try {
  input = moves ? Buffer.from(moves.map((m) => `${m}\n`).join('') + '\n') : file === undefined ? fs.readFileSync(0) : fs.readFileSync(file);
} catch (err) {
  usage(`cannot read ${file ?? 'stdin'}: ${(err as Error).message}`);
}
if (calls) process.exit(await compareCalls(input, nodes));
const v = { nodes, trace };
const [c, ours] = await Promise.all([runC(input, v), runPort(input, portArgs(v))]);
const diff = firstDifference(c.stdout, ours.stdout);
if (c.code !== ours.code) console.log(`exit codes differ: C ${c.code}, port ${ours.code}`);
if (diff === undefined && c.code === ours.code) {
  console.log(`identical (${c.stdout.length} bytes)`);
  if (moves) {
    const r = replay(c.stdout, input), last = r.moves.at(-1);
    console.log(last && last.by === 'engine' && last.index === r.boards.length - 1
      ? `after the ${moves.length} moves both play ${last.from}${last.to}${last.promotion ?? ''}` : 'micro-Max plays no move there');
  }
  process.exit(0);
}
if (diff) console.log(diff);
process.exit(1);
