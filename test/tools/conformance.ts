// npm run conformance -- [--program "CMD"] [--calls] [--quick] [--timeout S] [name ...]
// npm run conformance -- --list [--quick] [name ...]
// Runs every golden script of `test/fixtures/scripts.tsv` (input, flags and the reference C's
// output, listed for any language: test/PORTING.md) on a program — CMD, or without `--program` this
// port, compiled fresh from `micromax.ts` — and compares its stdout with the C's, byte for byte;
// with `--calls` its call stream too (`--calls PATH`), call by call, with the C's as
// `test/fixtures/calls/` ships it (whole, or its first calls for a script whose whole stream is too
// big to ship): one line a script, a summary, then the first failure in full (a crash, a call, or
// bytes against the stored output; under a call, the `tree` command that draws both searches as a
// page). Needs no C: the expected bytes and calls are in `test/fixtures/`. A program that crashes
// is `CRASH` on its script's line, a script past `--timeout` is said so on its line, and the run
// goes on. `--list` says what each script costs (the C's time, its bytes and calls) and what
// `--calls` checks of it.
//
// Exit 0 when every script matches, 1 when one differs, 2 when it cannot run them (bad arguments, a
// program that cannot run) or, none differing, a script did not end within --timeout. Stopped by a
// signal, it ends the programs it runs first.
//
// time: 40 s for the C; minutes to hours for a slow port

import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareStreams, type Verdict } from '../support/calls-diff.ts';
import { buildPort, fromArray, howEnded, runCalls, type Running, type Side } from '../support/calls.ts';
import { Exit, TIMEOUT_S, cannot as stopWith, fail, quietPipe, readOptions, timeLimit } from '../support/options.ts';
import { MARGIN, OVERRAN, ROOT, atMost, cannotStart, crashOf, crashReport, endOnSignals, firstByte, firstDifference, inputAt,
  inputLineAt, run, runProgram, stderrGist, stopStarted, type Result } from '../support/run.ts';
import { MANIFEST, goldenPath, readManifest, scriptInput, variant, type Script } from '../support/scripts.ts';
import { conformanceLines } from '../support/tree-against.ts';
import { STREAM_LIST, readStreamList, storedLines, streamFile, type Stored } from '../support/stored-calls.ts';

const USAGE = `usage: npm run conformance -- [--program "CMD"] [--calls] [--quick] [--timeout S] [name ...]
       npm run conformance -- --list [--quick] [name ...]
Runs the golden scripts of test/fixtures/scripts.tsv on a program and compares its output with the
reference C's, byte for byte, and with --calls its calls of D(), call by call: one line a script,
then a summary. No C is needed: the C's output and calls are in test/fixtures/.
  --program "CMD"  the program under test, a shell command line (test/PORTING.md says what it must
                   do); each script's flags are appended. Default: this port, fresh from micromax.ts
  --calls          compare the program's call stream too (CMD gets --calls PATH as well), with the
                   C's stored in test/fixtures/calls/: whole, or its first calls when the whole is
                   too big to ship (--list says which)
  --quick          leave out the costly scripts: those at the C's default node limit (slow or long:
                   about 20 to 45 s each for the C) and the engine games whose call streams are
                   stored in part: --list says which (test/fixtures/calls/streams.tsv, quick no)
  --timeout S      each run of the program must end within S seconds (default ${TIMEOUT_S}): a script
                   that does not is said so, and the run goes on to the next
  --list           run nothing: each script's cost (the C's time, its output's bytes, its calls) and
                   what --calls checks of it
  name             only these scripts (default: all of them)
Exit 0 when all match, 1 when one differs, 2 when it cannot run them (or, none differing, one did
not finish in time).`;

const { values, positionals } = readOptions('conformance', USAGE, {
  program: { type: 'string' }, quick: { type: 'boolean' }, timeout: { type: 'string' }, calls: { type: 'boolean' },
  list: { type: 'boolean' },
}, Infinity);
const usage = (msg: string): never => fail('conformance', msg);
const cannot = (msg: string): never => stopWith('conformance', msg);
if (values.program !== undefined && !values.program.trim()) usage('--program wants a command');
if (values.list && (values.program !== undefined || values.calls || values.timeout !== undefined)) {
  usage('--list runs nothing: it takes only --quick and names');
}
const all = readManifest(), names: string[] = [...positionals];
const unknown = names.find((n) => !all.some((s) => s.name === n));
if (unknown !== undefined) usage(`no script named '${unknown}' in ${path.relative(ROOT, MANIFEST)}`);
const costs = new Map(readStreamList().map((r) => [r.name, r]));
/** Does --quick run this script? Not at the default node limit, nor marked costly in streams.tsv. */
const quick = (s: Script): boolean => !s.slow && costs.get(s.name)?.quick !== false;
const chosen = all.filter((s) => (!names.length || names.includes(s.name)) && !(values.quick && !quick(s)));
const program = values.program;
const limitMs = timeLimit('conformance', values.timeout);
const label = program ?? 'this port (micromax.ts)';
const who = program === undefined ? 'the port' : `the program (${program})`;
let gone = false;
quietPipe(() => { gone = true; });
endOnSignals();
const say = (line: string): void => { if (!gone) console.log(line); };
const count = (n: number): string => n.toLocaleString('en-US');
const secs = (s: number): string => s < 60 ? `${s.toFixed(s < 10 ? 1 : 0)} s` : `${(s / 60).toFixed(s < 600 ? 1 : 0)} min`;

// ---- --list: what each script costs ----------------------------------------------------------------

/** What --calls checks of a script: all its calls, the first ones, or none (and why). */
function callsChecked(s: Script, c: Stored | undefined): string {
  if (!c) return `bytes only: no stream stored (npm run calls -- --make ${s.name} makes it from the reference C)`;
  if (c.stored === c.calls) return `all ${count(c.calls)}`;
  return `the first ${count(c.stored)} of ${count(c.calls)} (the whole stream is too big to ship)`;
}

function list(): number {
  const when = (s: Script): string => s.long ? 'long' : s.slow ? 'slow' : 'always';
  const bytes = (s: Script): number => fs.statSync(goldenPath(s)).size;
  say(`${chosen.length} scripts of ${path.relative(ROOT, MANIFEST)}; the C's CPU time on each (this project's machine, ` +
    `${path.relative(ROOT, STREAM_LIST)}), and a port 100 times slower's:`);
  say(`${'name'.padEnd(22)} ${'when'.padEnd(6)} quick ${'output'.padStart(9)} ${'the C'.padStart(7)} ${'100x'.padStart(8)}  calls --calls checks`);
  for (const s of chosen) {
    const c = costs.get(s.name);
    const time = c ? [secs(c.seconds).padStart(7), secs(100 * c.seconds).padStart(8)] : ['?'.padStart(7), '?'.padStart(8)];
    say(`${s.name.padEnd(22)} ${when(s).padEnd(6)} ${(quick(s) ? 'yes' : 'no').padEnd(5)} ${String(bytes(s)).padStart(9)} ` +
      `${time.join(' ')}  ${callsChecked(s, c)}`);
  }
  const total = chosen.reduce((t, s) => t + (costs.get(s.name)?.seconds ?? 0), 0);
  const longest = Math.max(0, ...chosen.map((s) => costs.get(s.name)?.seconds ?? 0));
  const part = chosen.some((s) => { const c = costs.get(s.name); return c && c.stored < c.calls; });
  say(`in all: the C ${secs(total)} of CPU; a port 100 times slower ${secs(100 * total)}, two scripts at a time about ` +
    `${secs(100 * Math.max(total / 2, longest))}; --calls adds its stream's writing${part ? ' and, for a script whose ' +
    'stream is stored in part, a run to its stored calls' : ''}`);
  return 0;
}

// ---- running the scripts ---------------------------------------------------------------------------

let over = false;                                      // the run has stopped: start no more scripts
const gate = atMost(2);

/** The outcome of a script: its bytes, its calls (with --calls), how long it took, and whether a
 *  run did not finish in time. */
interface Outcome { bytes?: Result; calls?: Verdict; callsNote?: string; ms: number; late?: boolean }

/** f, with its answer for each script kept: a script's files are read once, though its runs, its
 *  verdicts and the summary all use them. */
function perScript<T>(f: (s: Script) => T): (s: Script) => T {
  const kept = new Map<string, T>();
  return (s) => {
    if (!kept.has(s.name)) kept.set(s.name, f(s));
    return kept.get(s.name)!;
  };
}
const expectedOf = perScript((s) => fs.readFileSync(goldenPath(s)));
const inputOf = perScript(scriptInput);

/** The program run on a script, its flags appended, its input on stdin: its output. */
function bytesRun(s: Script): Promise<Result> {
  if (over) return Promise.resolve({ stdout: Buffer.alloc(0), stderr: '', code: null, signal: null });
  if (program === undefined) return run(process.execPath, [buildPort(), ...s.flags], inputOf(s), limitMs);
  return runProgram(program, s.flags, inputOf(s), { bytes: expectedOf(s).length + MARGIN }, limitMs);
}

/** The program run on a script with --calls PATH as well: its stream compared with the stored one as
 *  it is written. `whole`: the stored stream is all of the C's, and this run's output is the
 *  script's too (the stream is read to its end); else the run stops once the stored calls are
 *  compared. */
async function callsRun(s: Script, stored: string[], whole: boolean): Promise<{ v: Verdict; r?: Result; late: boolean }> {
  if (over) return { v: { same: true, calls: 0, lines: 0, capped: false, empty: false, report: [] }, late: false };
  const side: Side = program === undefined ? 'port' : { program };
  const r: Running = runCalls(side, inputOf(s), variant(s));
  r.limit.bytes = expectedOf(s).length + MARGIN;
  let late = false;
  const timer = setTimeout(() => { late = true; r.stop(); }, limitMs);
  try {
    const ended = async (): Promise<string> => `${who} ended: ${await howEnded(r)}`;
    const v = await compareStreams({ label: 'C', lines: fromArray(stored) }, { label: 'program', lines: r.lines, ended },
      { input: inputOf(s), prefix: !whole });
    if (!whole) {
      r.stop();
      return { v, late };
    }
    while (r.lines.ready() ?? await r.lines.next()) { /* the rest of the stream: the output is what counts now */ }
    const code = await r.done;
    return { v, r: { stdout: await r.stdout, stderr: await r.stderr, code, signal: r.signal(), overran: r.overran() }, late };
  } catch (err) {                                      // (the stream, stopped at --timeout while it was read)
    if (!late) throw err;
    return { v: { same: false, calls: 0, lines: 0, capped: false, empty: false, report: [] }, late };
  } finally {
    clearTimeout(timer);
  }
}

/** A script's runs: the bytes, and with --calls the calls; in one run of the program when the C's
 *  whole stream is stored, else two (the second stopped after the stored calls). Its time is its
 *  runs', not their wait for their turn; the stored stream is read only when its run starts. */
async function check(s: Script): Promise<Outcome> {
  const c = values.calls ? costs.get(s.name) : undefined;
  let ms = 0;
  const timed = <T>(job: () => Promise<T>) => gate(async () => {
    const t = Date.now();
    try { return await job(); } finally { ms += Date.now() - t; }
  });
  if (!c) {
    const bytes = await timed(() => bytesRun(s));
    return { bytes, ms, late: bytes.timedOut, ...values.calls ? { callsNote: 'not checked: no stream stored' } : {} };
  }
  const stored = (): string[] => storedLines(s.name) ?? cannot(`${path.relative(ROOT, streamFile(s.name))} is missing (npm run calls ` +
    `-- --make ${s.name} makes it from the reference C)`);
  const calls = (whole: boolean) => timed(() => callsRun(s, stored(), whole));
  if (c.stored === c.calls) {
    const { v, r, late } = await calls(true);
    return { bytes: r, calls: v, ms, late };
  }
  const [bytes, part] = await Promise.all([timed(() => bytesRun(s)), calls(false)]);
  return { bytes, calls: part.v, ms, late: bytes.timedOut || part.late };
}

/** The bytes' verdict: undefined when they are the C's, else where they first differ. */
function bytesVerdict(s: Script, r: Result): string | undefined {
  const want = expectedOf(s);
  const diff = firstDifference(want, r.stdout, 0, ['C', 'program'], r.overran);
  if (diff === undefined) return undefined;
  const first = `${diff.split('\n')[0]}, in ${inputAt(want, inputOf(s), firstByte(want, r.stdout)!)}`;
  return r.overran ? `${first}; ${OVERRAN}` : first;
}

/** The calls' verdict in a few words: 'ok (7566)', or the first differing call and its fields. */
function callsVerdict(s: Script, v: Verdict): { ok: boolean; text: string } {
  const c = costs.get(s.name)!;
  const whole = c.stored === c.calls;
  if (v.same && (whole || v.capped)) return { ok: true, text: `calls ok (${whole ? count(v.calls) : `the first ${count(v.calls)} of ${count(c.calls)}`})` };
  if (v.same) return { ok: false, text: `calls differ: the program's stream ends after ${count(v.calls)} calls, the C's goes on to ${count(c.calls)}` };
  if (v.empty) return { ok: false, text: 'calls differ: the program wrote no call stream to --calls PATH, not even its header line (test/PORTING.md, section 4)' };
  const first = v.report[0]?.replace(/^first difference: /, '').replace(/, line (\d+) of each stream/, ', line $1') ?? '';
  const fields = v.report.find((l) => l.startsWith('  differs: '))?.slice('  differs: '.length) ?? '';
  return { ok: false, text: `calls differ ${/^(call|the header)/.test(first) ? 'at ' : ''}${first}: ${fields}` };
}

/** A crashed script's line: how it died, the line of its stderr that names the error, and how far its
 *  bytes and its calls were the C's. */
function crashVerdict(s: Script, r: Result, how: string, v: Verdict | undefined): string {
  const want = expectedOf(s), said = stderrGist(r.stderr);
  const same = firstByte(want, r.stdout) ?? want.length;
  const where = !r.stdout.length ? ' (it printed nothing)' : same === r.stdout.length && same < want.length
    ? ` (it stopped in the answer to input line ${inputLineAt(want, same)})` : '';
  const bytes = `its bytes were the C's for ${count(same)} of ${count(want.length)}${where}`;
  const c = costs.get(s.name);
  const calls = !v || !c ? '' : v.ends === 'program' || v.empty
    ? `; its calls the C's for ${count(v.calls)} of ${count(c.stored === c.calls ? c.calls : c.stored)}`
    : `; its ${callsVerdict(s, v).text}`;
  return `crashed (${how})${said ? `: ${said}` : ''}; ${bytes}${calls}`;
}

/** The report of the first call that differs, in full: the one place the tool prints it. */
function reportFirstCall(name: string, v: Verdict): void {
  say(`the first call that differs in ${name}, in full:`);
  for (const l of [...v.report, ...conformanceLines(name, program, v)]) say(`  ${l}`);
}

/** The first byte that differs, against the C's output as stored (no C needed): the lines around it in
 *  both outputs, and the input line the C was answering there. */
function reportFirstByte(s: Script, r: Result): void {
  const want = expectedOf(s);
  say(`the first byte that differs in ${s.name}, against the C's output stored in ${s.expected}:`);
  const diff = firstDifference(want, r.stdout, 2, ['C', 'program'], r.overran) ?? '';
  for (const l of diff.split('\n')) say(`  ${l}`);
  say(`  in ${inputAt(want, inputOf(s), firstByte(want, r.stdout)!)}`);
}

/** What a failed script shows in full after the summary: a crash (and where its calls stopped), else
 *  its first differing call, else its first differing byte. */
function reportFirst(s: Script, o: Outcome, crash: string | undefined): void {
  if (crash) {
    for (const l of crashReport(o.bytes!, crash, expectedOf(s), inputOf(s), `in ${s.name}, the program`)) say(l);
    if (o.calls && !o.calls.same && !o.calls.empty) reportFirstCall(s.name, o.calls);
    return;
  }
  if (o.calls && !o.calls.same && !o.calls.empty) return reportFirstCall(s.name, o.calls);
  if (o.bytes && bytesVerdict(s, o.bytes) !== undefined) {
    reportFirstByte(s, o.bytes);
    if (!values.calls) {
      say(`to see the first call that differs: npm run conformance --${program === undefined ? '' : ` --program ${JSON.stringify(program)}`} ` +
        `--calls ${s.name} (no C needed)`);
    }
  }
}

async function main(): Promise<number> {
  if (!chosen.length) usage('no script left to run');
  if (values.list) return list();
  say(`${chosen.length} script${chosen.length === 1 ? '' : 's'} of ${path.relative(ROOT, MANIFEST)} on ${label}` +
    `${values.calls ? ', byte for byte and call by call' : ''}:`);
  const t0 = Date.now();
  const runs = chosen.map((s) => check(s));
  const failed: string[] = [], late: string[] = [], crashed: string[] = [], blank: string[] = [];
  let first: { s: Script; o: Outcome; crash?: string } | undefined, bytesSeen = 0, callsSeen = 0;
  const by = { whole: 0, part: 0, none: 0 };          // the scripts whose calls were checked whole, in part, not at all
  for (const [k, s] of chosen.entries()) {
    const o = await runs[k];
    const name = s.name.padEnd(22), time = secs(o.ms / 1000);
    if (o.late) {
      say(`TIME   ${name} ${who} did not finish in ${limitMs / 1000} s (--timeout S gives it longer)`);
      late.push(s.name);
      continue;
    }
    const start = program === undefined || !o.bytes ? undefined : cannotStart(o.bytes);
    if (start) cannot(`the program cannot run: ${program}: ${start}`);
    const crash = o.bytes ? crashOf(o.bytes) : undefined;
    const bytes = o.bytes ? bytesVerdict(s, o.bytes) : undefined;
    const calls = o.calls ? callsVerdict(s, o.calls) : undefined;
    const ok = !crash && bytes === undefined && (calls?.ok ?? true);
    const line = crash ? crashVerdict(s, o.bytes!, crash, o.calls)
      : !values.calls ? bytes ?? `${String(expectedOf(s).length).padStart(8)} bytes`
        : `${bytes === undefined ? `bytes ok (${expectedOf(s).length})` : `bytes differ: ${bytes}`}; ${calls ? calls.text : `calls ${o.callsNote}`}`;
    say(`${crash ? 'CRASH ' : ok ? 'ok    ' : 'DIFFER'} ${name} ${line}  ${time}`);
    if (!ok) failed.push(s.name);
    if (crash) crashed.push(s.name);
    if (crash && !o.bytes!.stdout.length) blank.push(s.name);
    if (!ok && !first) first = { s, o, crash };
    if (bytes === undefined && !crash) bytesSeen += expectedOf(s).length;
    if (calls?.ok) {
      callsSeen += o.calls!.calls;
      by[o.calls!.capped ? 'part' : 'whole']++;
    } else if (!o.calls) by.none++;
  }
  const took = secs((Date.now() - t0) / 1000);
  const checked = chosen.length - late.length;
  if (!failed.length && !late.length) {
    const which = [...by.whole && (by.part || by.none) ? [`all of ${by.whole} script${by.whole === 1 ? '' : 's'}`] : [],
      ...by.part ? [`the first ones of ${by.part}`] : [], ...by.none ? [`none of ${by.none} (no stream stored)`] : []];
    say(values.calls ? `all ${chosen.length} scripts identical to the C, byte for byte (${count(bytesSeen)} bytes) and call ` +
      `by call (${count(callsSeen)} calls${which.length ? `: ${which.join(', ')}` : ''}) (${took})`
      : `all ${chosen.length} scripts identical to the C, byte for byte (${count(bytesSeen)} bytes) (${took}); --calls checks ` +
        'every call of D() too (no C needed: test/PORTING.md)');
  }
  if (failed.length) {
    say(`${failed.length} of ${checked} scripts differ: ${failed.join(', ')}${crashed.length ? ` (${crashed.length === failed.length
      ? 'all crashed' : `${crashed.length} crashed: ${crashed.join(', ')}`})` : ''} (${took})`);
  } else if (late.length) say(`${checked ? `the other ${checked} scripts identical to the C; ` : ''}${took}`);
  if (late.length) {
    say(`${late.length} script${late.length === 1 ? '' : 's'} did not finish in ${limitMs / 1000} s: ${late.join(', ')} ` +
      '(--timeout S gives each run longer; npm run conformance -- --list says what each costs)');
  }
  if (blank.length === checked && checked > 1) {
    say(`every script crashed before printing a byte: does the program start? (${program}; test/PORTING.md, section 1)`);
  }
  if (first) reportFirst(first.s, first.o, first.crash);
  return failed.length ? 1 : late.length ? 2 : 0;
}

try {
  process.exitCode = await main();
} catch (err) {
  over = true;
  stopStarted();                                       // (the script run beside the one that failed)
  if (err instanceof Exit) throw err;
  cannot(err instanceof Error ? err.message : String(err));
}
