// npm run exercise -- N [file]
// MICROMAX_C=../shared/reference/micromax-3.2.c npm run exercise -- --make
// Checks a learner's changed copy of `micromax.ts` against exercise N of `annotated/exercises.md`:
// runs the copy on the exercise's games (typed moves and empty lines, at a node limit, traced or
// not) and compares what it prints with what micro-Max's C, changed the same way, prints: the
// transcripts stored in `test/fixtures/exercises/`, or the C itself when `MICROMAX_C` is set. Says
// for each game whether it is the same and, if not, the first move, pass or board that differs.
// `--make` writes those fixtures from the C (the changed C and the unchanged one), never from the
// port.
//
// Exit 0 the same on every game, 1 a difference, 2 bad use (no such exercise, no file, no
// fixtures).
//
// time: seconds

import * as fs from 'node:fs';
import * as path from 'node:path';
import { whyNoC } from '../support/c-oracle.ts';
import {
  CHANGES, EXERCISES, FIXTURES, changeOf, checkGame, fixturePath, runCGame, type Change,
} from '../support/exercises.ts';
import { exit, fail, readOptions } from '../support/options.ts';
import { ROOT } from '../support/run.ts';

const DEFAULT_FILE = 'my-micromax.ts';
const numbers = CHANGES.map((c) => c.n).join(', ');
const USAGE = `usage: npm run exercise -- N [file]
       MICROMAX_C=path/to/micromax-3.2.c npm run exercise -- --make
  N       the exercise whose change you made (${numbers}: those that change the engine)
  file    your changed copy of micromax.ts (default: ${DEFAULT_FILE}, in the project's folder)
  --make  write test/fixtures/exercises/ from the C, changed as each exercise says
Your copy runs on the exercise's games; what it prints is compared with what micro-Max's C, changed
the same way, prints (the stored transcripts, or the C itself when MICROMAX_C is set).`;

const { values, positionals } = readOptions('exercise', USAGE, { make: { type: 'boolean' } }, 2);
process.stdout.on('error', () => exit(0));             // a reader that stops early (| head)
if (values.make) exit(await make(positionals));
exit(await check(exerciseOf(positionals[0]), fileOf(positionals[1])));

/** The change exercise named by the first argument, or exit 2 saying why not. */
function exerciseOf(arg: string | undefined): Change {
  if (arg === undefined) fail('exercise', 'which exercise? give its number');
  const n = Number(arg);
  if (!/^\d+$/.test(arg) || n < 1 || n > EXERCISES) {
    fail('exercise', `there is no exercise '${arg}' (1 to ${EXERCISES})`);
  }
  const change = changeOf(n);
  if (!change) {
    fail('exercise', `exercise ${n} changes nothing in the engine: its answer is at the end of ` +
      `annotated/exercises.md (exercises ${numbers} can be checked)`);
  }
  return change;
}

/** The learner's file, from where npm was started; exit 2 when it is not there. */
function fileOf(arg: string | undefined): string {
  const from = process.env.INIT_CWD ?? process.cwd();
  const file = path.resolve(arg === undefined ? ROOT : from, arg ?? DEFAULT_FILE);
  if (!fs.existsSync(file)) {
    const hint = arg === undefined ? `: make your copy first (cp micromax.ts ${DEFAULT_FILE})` : '';
    fail('exercise', `no file ${file}${hint}`);
  }
  return file;
}

/** The file as the learner named it: from where npm was started, unless that climbs out of it. */
function shown(file: string): string {
  const rel = path.relative(process.env.INIT_CWD ?? process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** Runs the copy on every game of the exercise and says how each went: 0 all the same, else 1. */
async function check(change: Change, file: string): Promise<number> {
  const live = whyNoC() === undefined;
  const source = live ? 'the C, changed the same way (MICROMAX_C)' : 'the changed C\'s stored transcripts';
  console.log(`exercise ${change.n}, ${change.title}: ${shown(file)} against ${source}`);
  let differs = 0;
  for (const [k, g] of change.games.entries()) {
    const v = await checkGame(change, g, file, live);
    const flags = `--nodes ${g.nodes}${g.trace ? ' --trace' : ''}`;
    console.log(`game ${k + 1} of ${change.games.length}, ${g.about} (${flags}): ${v.same ? 'the same' : 'differs'}`);
    for (const line of v.words) console.log(`  ${line}`);
    if (!v.same) differs++;
  }
  const games = change.games.length;
  console.log(differs ? `${differs} of ${games} games differ` : 'your copy behaves as the changed C does');
  return differs ? 1 : 0;
}

/** --make: every exercise's games run on the changed C and on the unchanged C, stored. */
async function make(names: string[]): Promise<number> {
  if (names.length) fail('exercise', '--make takes no argument: it writes every exercise\'s fixtures');
  const why = whyNoC();
  if (why) fail('exercise', why);
  fs.mkdirSync(FIXTURES, { recursive: true });
  for (const change of CHANGES) {
    for (const g of change.games) {
      for (const unchanged of [false, true]) {
        const out = await runCGame(change, g, unchanged);
        fs.writeFileSync(fixturePath(change, g, unchanged), out);
        const file = path.relative(ROOT, fixturePath(change, g, unchanged));
        console.log(`${file.padEnd(72)} ${String(out.length).padStart(6)} bytes`);
      }
    }
  }
  return 0;
}
