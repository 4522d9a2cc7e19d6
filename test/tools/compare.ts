// npm run compare -- [--calls] [--nodes N] [--trace] [--moves "e2e4 e7e5 ..."] [input-file]
// Runs the C (built from MICROMAX_C, cached) and the port on the same input — a file, stdin, or
// with --moves the game's moves as typed lines followed by an empty line (micro-Max's move) — and
// says whether their outputs are byte-identical; with --moves also which move both played (how to
// replay a move the engine chose in a GUI). With --calls it compares every call of D() instead,
// as both programs make them (test/support/calls.ts), and names the first call that differs.
// Exit 0 identical, 1 different, 2 when it cannot compare (no MICROMAX_C, no gcc, bad arguments).

import * as fs from 'node:fs';
import { replay } from '../support/boards.ts';
import { compareCalls } from '../support/calls-diff.ts';
import { whyNoC } from '../support/c-oracle.ts';
import { exit, fail, moveList, readOptions, whole } from '../support/options.ts';
import { firstDifference, portArgs, runC, runPort } from '../support/run.ts';

const USAGE = `usage: npm run compare -- [--calls] [--nodes N] [--trace] [--moves "e2e4 e7e5 ..."] [input-file]
  --calls       compare every call of D(), not the output, and name the first that differs
  --nodes N     both programs stop deepening after N nodes (default: the C's 1e7)
  --trace       both print the C's commented-out line after each root pass
  --moves "..." the input is these moves, typed, then an empty line (micro-Max's move)
  input-file    the input (default: stdin)`;
function usage(msg: string): never {
  return fail('compare', msg);
}

const { values, positionals } = readOptions('compare', USAGE, {
  calls: { type: 'boolean' }, nodes: { type: 'string' }, trace: { type: 'boolean' }, moves: { type: 'string' },
}, 1);
const nodes = whole('compare', 'nodes', values.nodes, 1), trace = values.trace ?? false, calls = values.calls ?? false;
const moves = moveList('compare', values.moves, true), file = positionals[0];
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
if (calls) exit(await compareCalls(input, nodes));
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
  exit(0);
}
if (diff) console.log(diff);
exit(1);
