// npm run conformance -- [--program "CMD"] [--quick] [--timeout S] [name ...]
// Runs every golden script of test/fixtures/scripts.tsv (input, flags and the reference C's output,
// listed for any language: test/PORTING.md) on a program — CMD, or without --program this port,
// compiled fresh from micromax.ts — and compares its stdout with the C's, byte for byte: one line a
// script, then a summary. Needs no C: the expected bytes are in test/fixtures/golden/.
// Exit 0 when every script matches, 1 when one differs, 2 when it cannot run them (bad arguments, a
// program that cannot run, or that does not end within --timeout on a script). Stopped by a signal,
// it ends the programs it runs first.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildPort } from '../support/calls.ts';
import { Exit, TIMEOUT_S, cannot as stopWith, fail, quietPipe, readOptions, timeLimit } from '../support/options.ts';
import { MARGIN, OVERRAN, ROOT, atMost, couldNotRun, endOnSignals, firstByte, firstDifference, inputAt, run, runProgram,
  stopStarted, type Result } from '../support/run.ts';
import { MANIFEST, readManifest, type Script } from '../support/scripts.ts';

const USAGE = `usage: npm run conformance -- [--program "CMD"] [--quick] [--timeout S] [name ...]
Runs the golden scripts of test/fixtures/scripts.tsv on a program and compares its output with the
reference C's, byte for byte: one line a script, then a summary.
  --program "CMD"  the program under test, a shell command line (test/PORTING.md says what it must
                   do); each script's flags are appended. Default: this port, fresh from micromax.ts
  --quick          leave out the scripts at the C's default node limit (when slow or long: about 20
                   to 45 s each for the C)
  --timeout S      each script's run must end within S seconds (default ${TIMEOUT_S}): a run that does
                   not stops the whole run (exit 2)
  name             only these scripts (default: all of them)
Exit 0 when all match, 1 when one differs, 2 when it cannot run them.`;

const { values, positionals } = readOptions('conformance', USAGE, {
  program: { type: 'string' }, quick: { type: 'boolean' }, timeout: { type: 'string' },
}, Infinity);
const usage = (msg: string): never => fail('conformance', msg);
const cannot = (msg: string): never => stopWith('conformance', msg);
if (values.program !== undefined && !values.program.trim()) usage('--program wants a command');
const all = readManifest(), names: string[] = [...positionals];
const unknown = names.find((n) => !all.some((s) => s.name === n));
if (unknown !== undefined) usage(`no script named '${unknown}' in ${path.relative(ROOT, MANIFEST)}`);
const chosen = all.filter((s) => (!names.length || names.includes(s.name)) && !(values.quick && s.slow));
const program = values.program;
const limitMs = timeLimit('conformance', values.timeout);
const label = program ?? 'this port (micromax.ts)';
let gone = false;
quietPipe(() => { gone = true; });
endOnSignals();
const say = (line: string): void => { if (!gone) console.log(line); };

let over = false;                                      // the run has stopped: start no more scripts

/** The program run on a script: its flags appended, its input on stdin. */
function runOn(s: Script): Promise<Result> {
  if (over) return Promise.resolve({ stdout: Buffer.alloc(0), stderr: '', code: null, signal: null });
  const input = fs.readFileSync(path.join(ROOT, s.input));
  if (program === undefined) return run(process.execPath, [buildPort(), ...s.flags], input, limitMs);
  return runProgram(program, s.flags, input, { bytes: fs.statSync(path.join(ROOT, s.expected)).size + MARGIN }, limitMs);
}

/** One line for a script: ok, or where its output first differs. */
function verdict(s: Script, r: Result, ms: number): { ok: boolean; line: string } {
  const want = fs.readFileSync(path.join(ROOT, s.expected));
  const diff = firstDifference(want, r.stdout, 0, ['C', 'program'], r.overran);
  const time = `${(ms / 1000).toFixed(1)} s`;
  const name = s.name.padEnd(22);
  if (diff === undefined && r.code === 0) return { ok: true, line: `ok     ${name} ${String(want.length).padStart(8)} bytes  ${time}` };
  const at = firstByte(want, r.stdout);
  const first = diff === undefined ? `the same ${want.length} bytes` : `${diff.split('\n')[0]}, in ${inputAt(want,
    fs.readFileSync(path.join(ROOT, s.input)), at!)}`;
  const code = r.overran ? `; ${OVERRAN}` : r.code === 0 ? '' : `; it ended with ${r.signal ?? `exit ${r.code}`}, the C with exit 0`;
  return { ok: false, line: `DIFFER ${name} ${first}${code}` };
}

async function main(): Promise<number> {
  if (!chosen.length) usage('no script left to run');
  say(`${chosen.length} scripts of ${path.relative(ROOT, MANIFEST)} on ${label}:`);
  const gate = atMost(2), t0 = Date.now();
  const runs = chosen.map((s) => gate(async () => {
    const t = Date.now(), r = await runOn(s);
    return { r, ms: Date.now() - t };
  }));
  const failed: string[] = [];
  for (const [k, s] of chosen.entries()) {
    const { r, ms: took } = await runs[k];
    if (r.timedOut) cannot(`${program === undefined ? 'the port' : `the program (${program})`} did not finish ${s.name} in ${limitMs / 1000} s (--timeout S gives it longer)`);
    const why = program === undefined ? undefined : couldNotRun(r);
    if (why) cannot(`the program cannot run: ${program}: ${why}`);
    const v = verdict(s, r, took);
    say(v.line);
    if (!v.ok) failed.push(s.name);
  }
  const took = `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  if (!failed.length) say(`all ${chosen.length} scripts identical to the C (${took})`);
  else {
    say(`${failed.length} of ${chosen.length} scripts differ: ${failed.join(', ')} (${took})`);
    const s = chosen.find((x) => x.name === failed[0])!;
    say(`to see where: npm run compare -- ${program === undefined ? '' : `--program ${JSON.stringify(program)} `}` +
      `${s.flags.join(' ')} ${s.input}`.replace(/ {2,}/g, ' '));
  }
  return failed.length ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (err) {
  over = true;
  stopStarted();                                       // (the script run beside the one that failed)
  if (err instanceof Exit) throw err;
  cannot(err instanceof Error ? err.message : String(err));
}
