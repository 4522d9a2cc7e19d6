// npm run compare -- [--program "CMD"] [--calls [--stream FILE]] [--nodes N] [--trace] [--bytes]
//                    [--moves "e2e4 e7e5 ..."] [input-file]
// Runs the C (built from `MICROMAX_C`, cached) and a program — this port, compiled fresh from
// `micromax.ts`, or with `--program` any program that follows test/PORTING.md — on the same input
// (a file, stdin, or with `--moves` the game's moves as typed lines, then an empty line:
// micro-Max's move) and says whether their outputs are byte-identical, where they first differ (the
// input line, by its text, and the moves before it), and with `--moves` which move both played.
// When the bytes are identical and the program is the port, it goes on to compare the calls of
// `D()` (up to a million). With `--calls` it compares every call of `D()` (test/support/calls.ts),
// the program's written to `--calls PATH`, or a stream file's (`--stream`, refused when its header
// names other settings), and names the first call that differs, under it the `tree` command that
// draws both searches as a page.
//
// Exit 0 identical, 1 different, 2 when it cannot compare (no MICROMAX_C, no gcc, a C it cannot
// build or instrument, a program that cannot run or does not end within --timeout, bad arguments):
// one line on stderr, no stack. Stopped by a signal, it ends what it runs first.
//
// time: seconds

import * as fs from 'node:fs';
import { inputLines, replay } from '../support/boards.ts';
import { compareStreams, type Source, type Verdict } from '../support/calls-diff.ts';
import { buildPort, howEnded, resultOf, runCalls, type Running, type Side } from '../support/calls.ts';
import { CannotCompare, cSource, isReference, nodeLimitOf, sha256Of, whyNoC } from '../support/c-oracle.ts';
import { BadLine, HEADER, Lines, parse, type Event } from '../support/calls.ts';
import { Exit, TIMEOUT_S, cannot as stopWith, exit, fail, moveList, nodeCount, quietPipe, readInput, readOptions, timeLimit,
  userPath } from '../support/options.ts';
import { MARGIN, OVERRAN, cannotStart, crashOf, crashReport, endOnSignals, firstByte, firstDifference, inputAt, portArgs, run, runC,
  runProgram, type Result } from '../support/run.ts';
import { compareLines } from '../support/tree-against.ts';

const USAGE = `usage: npm run compare -- [--program "CMD"] [--calls [--stream FILE]] [--nodes N] [--trace] [--bytes]
                          [--timeout S] [--moves "e2e4 e7e5 ..."] [input-file]
Runs the C (built from MICROMAX_C) and a program on the same input: do they print the same bytes?
With --calls: do they make the same calls of D()? Names the first byte, or call, that differs.
  --program "CMD"  the program under test, a shell command line (test/PORTING.md says what it must
                   do); --nodes N and --trace, when given, are appended to it (nothing else).
                   Default: this port, compiled fresh from micromax.ts
  --calls          compare every call of D(), not the output (CMD gets --calls PATH too)
  --stream FILE    with --calls: the other side is this file, the call stream a program wrote on
                   the same input and --nodes
  --nodes N        both stop deepening after N nodes (default: the C's 1e7), as micromax takes it
  --trace          both print the C's commented-out line after each root pass
  --bytes          bytes only: do not go on to the calls when the bytes are identical
  --timeout S      each run, the program's and the C's, must end within S seconds (default ${TIMEOUT_S}):
                   one that does not cannot be compared (exit 2)
  --moves "..."    the input is these moves, typed, then an empty line (micro-Max's move)
  input-file       the input (default: stdin)
Exit 0 identical, 1 different, 2 cannot compare (bad arguments, no MICROMAX_C or gcc, a C it cannot
build, a program that cannot run or does not end in time).`;

const CAP = 1_000_000;                                 // calls compared after identical bytes, at most
const RATED = 100_000;                                 // calls compared, at least, for a rate to be said

const { values, positionals } = readOptions('compare', USAGE, {
  program: { type: 'string' }, calls: { type: 'boolean' }, stream: { type: 'string' }, nodes: { type: 'string' },
  trace: { type: 'boolean' }, bytes: { type: 'boolean' }, moves: { type: 'string' }, timeout: { type: 'string' },
}, 1);
const opt = {
  program: values.program, calls: values.calls ?? false, stream: values.stream, trace: values.trace ?? false,
  bytes: values.bytes ?? false, nodes: nodeCount('compare', values.nodes),
  moves: moveList('compare', values.moves, true), file: positionals[0], ms: timeLimit('compare', values.timeout),
};
const usage = (msg: string): never => fail('compare', msg);
/** Cannot compare, for a reason other than the command line: one line, exit 2. */
const cannot = (msg: string): never => stopWith('compare', msg);
if (opt.moves && opt.file !== undefined) usage('give --moves or an input file, not both');
if (opt.calls && opt.trace) usage('--calls compares the passes too: leave out --trace');
if (opt.stream !== undefined && !opt.calls) usage('--stream is for --calls');
if (opt.stream !== undefined && opt.program !== undefined) usage('give --program or --stream, not both');
if (opt.calls && opt.bytes) usage('give --calls or --bytes, not both');
if (opt.program !== undefined && !opt.program.trim()) usage('--program wants a command');
const why = whyNoC();
if (why) cannot(why);
const label = opt.program !== undefined || opt.stream !== undefined ? 'other' : 'port';
const running: Running[] = [];
const stopAll = (): void => running.forEach((r) => r.stop());
let gone = false;                                      // stdout's reader went away (| head -1)
quietPipe(() => { gone = true; stopAll(); });
endOnSignals();

const input = readInput('compare', opt.moves, opt.file);

/** What the tester should know about the C, said on stderr with the verdict: a failure is one line
 *  and nothing else. */
function notes(): string[] {
  const said: string[] = [];
  const limit = nodeLimitOf(fs.readFileSync(cSource()!, 'utf8'));
  if (limit !== undefined && limit !== 1e7) {          // (N<2e7: --nodes replaces it, or the C stops there)
    said.push(`the C's own node limit is ${limit}, not 1e7${opt.nodes !== undefined ? ` (--nodes ${opt.nodes} replaces it)` : ''}`);
  }
  if (!isReference(cSource()!)) said.push('MICROMAX_C is not the reference micromax-3.2.c (its sha256 differs)');
  if (unsaid) said.push(unsaid);
  return said;
}

/** A run that did not end in time: who, and how to give it more. */
function tooSlow(who: 'the C' | 'other'): CannotCompare {
  const what = who === 'the C' ? 'the C' : opt.program !== undefined ? `the program (${opt.program})` : 'the port';
  return new CannotCompare(`${what} did not finish in ${opt.ms / 1000} s (--timeout S gives it longer)`);
}

// ---- bytes ---------------------------------------------------------------------------------

/** The program's run: the port (fresh from micromax.ts) or CMD, with --nodes and --trace. */
function runOther(limit: { bytes: number }): Promise<Result> {
  const args = portArgs({ nodes: opt.nodes, trace: opt.trace });
  if (opt.program === undefined) return run(process.execPath, [buildPort(), ...args], input, opt.ms);
  return runProgram(opt.program, args, input, limit, opt.ms);
}

/** What the C printed, counted: boards, trace lines, input lines answered. */
function amount(out: Buffer): string {
  const lines = out.toString('latin1').split('\n').slice(0, -1);
  const boards = lines.filter((l) => /^( \S){8} $/.test(l)).length / 8 | 0;
  const traces = lines.filter((l) => / ply, /.test(l)).length;
  const lines_ = inputLines(input).length;
  return `${out.length} bytes: ${plural(boards, 'board')}${opt.trace ? `, ${plural(traces, 'trace line')}` : ''}, ` +
    `${lines_ ? `the answers to ${plural(lines_, 'input line')}` : 'no input line'}`;
}
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

async function bytes(): Promise<number> {
  const limit = { bytes: 1 << 28 };                    // the program's output: the C's and a margin, at most
  const [c, other] = await Promise.all([runC(input, { nodes: opt.nodes, trace: opt.trace }, opt.ms).then((r) => {
    limit.bytes = r.stdout.length + MARGIN;
    return r;
  }), runOther(limit)]);
  // A program stopped at the first cap (it printed that much before the C was done) is shown cut
  // to the C's size and the margin, as one stopped after: the size reported does not depend on
  // which of the two ended first.
  if (other.overran) other.stdout = other.stdout.subarray(0, limit.bytes);
  if (other.timedOut) throw tooSlow('other');
  if (c.timedOut) throw tooSlow('the C');
  const cannot = opt.program !== undefined ? cannotStart(other) : undefined;
  if (cannot) throw new CannotCompare(`the program cannot run: ${opt.program}: ${cannot}`);
  if (c.code !== 0) throw new CannotCompare(`the C exited ${c.signal ?? c.code} on this input`);
  const diff = firstDifference(c.stdout, other.stdout, 2, ['C', label], other.overran);
  const crash = crashOf(other);
  if (diff !== undefined || crash) {
    if (other.overran) console.log(`(${OVERRAN})`);
    if (crash) for (const l of crashReport(other, crash, c.stdout, input, label === 'port' ? 'the port' : 'the program')) console.log(l);
    if (diff !== undefined) {
      console.log(diff);
      console.log(`in ${inputAt(c.stdout, input, firstByte(c.stdout, other.stdout)!)}`);
    }
    console.log(`(--calls names the first call of D() that differs${opt.program === undefined ? '' :
      ', if the program writes the call stream: test/PORTING.md'})`);
    return 1;
  }
  console.log(`identical (${amount(c.stdout)})`);
  if (opt.moves) {
    const r = replay(c.stdout, input), last = r.moves.at(-1);
    console.log(last && last.by === 'engine' && last.index === r.boards.length - 1
      ? `after the ${opt.moves.length} move${opt.moves.length === 1 ? '' : 's'} both play ${last.from}${last.to}` +
        `${last.promotion ?? ''}` : 'micro-Max plays no move there');
  }
  if (opt.program !== undefined || opt.bytes) {
    const more = opt.trace ? 'only the output, with each root pass\'s line, was compared: --calls adds every call of D()'
      : 'only the output was compared: --trace adds each root pass\'s line, --calls every call of D()';
    console.log(`${more}${opt.program !== undefined ? ' (a program that writes the call stream: test/PORTING.md)' : ''}`);
    return 0;
  }
  let v: Verdict;
  try {
    v = await streams(CAP);
  } catch (err) {                                      // (a C the calls cannot be read from: the bytes still hold)
    if (!(err instanceof CannotCompare)) throw err;
    console.log(`the calls were not compared: ${err.message}`);
    return 0;
  }
  if (v.same) {
    console.log(v.capped ? `and call by call: the first ${v.calls} calls identical (the search goes on: --calls compares them all)`
      : `and call by call: identical (${v.calls} calls)`);
    return 0;
  }
  console.log('but the calls of D() differ:');
  reportFirstCall(v);
  return 1;
}

// ---- calls ---------------------------------------------------------------------------------

/** How a program ended, for a stream that stops early. */
const ending = (r: Running, who: string) => async (): Promise<string> => {
  const cut = r.lines.cut === undefined ? '' : `; its line ${r.lines.cut} was cut short (no newline)`;
  return `${who} ended: ${await howEnded(r)}${cut}`;
};

/** The other side's stream: the port's or CMD's, run live, or the file's. */
function otherSource(): { source: Source; run?: Running } {
  if (opt.stream !== undefined) {
    const file = userPath(opt.stream);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new CannotCompare(`--stream: no file ${opt.stream}`);
    madeFor(file);
    return { source: { label, lines: new Lines(fs.createReadStream(file)) } };
  }
  const side: Side = opt.program === undefined ? 'port' : { program: opt.program };
  const r = runCalls(side, input, { nodes: opt.nodes });
  running.push(r);
  return { source: { label, lines: r.lines, ended: ending(r, `the ${label === 'port' ? 'port' : 'program'}`) }, run: r };
}

/** A stream file's settings, from its header (its first line), are this run's: the node limit, and
 *  the input when the header names it (a file made by npm run calls does; a program's own does not:
 *  said in a note). A stream made for other settings is refused, in one line: its first difference
 *  would be plausible and wrong. */
function madeFor(file: string): void {
  const fd = fs.openSync(file, 'r'), head = Buffer.alloc(512);
  const first = head.subarray(0, fs.readSync(fd, head, 0, head.length, 0)).toString('latin1').split('\n')[0];
  fs.closeSync(fd);
  const name = opt.stream!;
  let h: Event | undefined;
  try {
    h = first.startsWith('%') ? parse(first) : undefined;
  } catch (err) {
    if (!(err instanceof BadLine)) throw err;
    throw new CannotCompare(`--stream: ${name}: its header is not '${HEADER} nodes N[, input sha256 HEX]': ` +
      `${JSON.stringify(first.slice(0, 100))}`);
  }
  if (h?.t !== '%') {
    throw new CannotCompare(`--stream: ${name} does not say which --nodes it was made for: its first line is not the header ` +
      `'${HEADER} nodes N' (test/PORTING.md, section 4)`);
  }
  const nodes = opt.nodes ?? nodeLimitOf(fs.readFileSync(cSource()!, 'utf8')) ?? 1e7;
  if (h.nodes !== nodes) {
    throw new CannotCompare(`--stream: ${name} was made at --nodes ${h.nodes}, and this compare runs the C at ` +
      `${opt.nodes === undefined ? `its own limit, ${nodes} (no --nodes given)` : `--nodes ${nodes}`}: give --nodes ${h.nodes}, or make the stream again`);
  }
  const sha = sha256Of(input);
  if (h.input !== undefined && h.input !== sha) {
    throw new CannotCompare(`--stream: ${name} was made for another input (its header's sha256 ${h.input.slice(0, 12)}…, ` +
      `this input's ${sha.slice(0, 12)}…): give the input it was made for`);
  }
  if (h.input === undefined) unsaid = `${name}'s header does not name its input, so it could not be checked (npm run calls -- ` +
    '--program CMD ... --out FILE writes a stream file that does)';
}
let unsaid: string | undefined;                        // a note: what a stream file's header did not say

/** The two streams compared, both sides stopped when the comparison has taken longer than
 *  --timeout: the C's stream waits for the other's reader, so the one to blame is the side
 *  that had not ended then. */
async function streams(cap?: number): Promise<Verdict> {
  const c = runCalls('C', input, { nodes: opt.nodes });
  running.push(c);
  const other = otherSource();
  void c.stdout.then((out) => { if (other.run && opt.program !== undefined) other.run.limit.bytes = out.length + MARGIN; });
  let late: 'the C' | 'other' | undefined;
  const timer = setTimeout(() => {
    late = other.run && !other.run.ended() ? 'other' : 'the C';
    stopAll();
  }, opt.ms);
  let v: Verdict;
  try {
    v = await compareStreams({ label: 'C', lines: c.lines, ended: ending(c, 'the C') }, other.source, { input, cap });
  } catch (err) {                                      // (a stream stopped while it was read)
    throw late ? tooSlow(late) : err;
  } finally {
    clearTimeout(timer);
  }
  if (late) throw tooSlow(late);
  const cut = other.source.lines instanceof Lines ? other.source.lines.cut : undefined;
  if (opt.stream !== undefined && cut !== undefined && !v.same && v.lines === cut - 1) {
    throw new CannotCompare(`--stream: ${opt.stream} is cut short: its line ${cut} has no newline at the end (the ` +
      `program stopped while writing it?)${cut > 1 ? `; the ${cut - 1} lines before it are the C's` : ''}`);
  }
  // (a stream that ended first ended with its program: how it ended says whether it crashed)
  if (!v.same && other.run && (v.ends === label || v.empty)) await other.run.done;
  if (v.empty) {                                       // nothing to compare with: why?
    if (!other.run) throw new CannotCompare(`--stream: ${opt.stream} is empty`);
    const r = await resultOf(other.run);
    stopAll();
    const cannot = cannotStart(r);
    if (cannot) throw new CannotCompare(`the program cannot run: ${opt.program}: ${cannot}`);
    if (crashOf(r)) return v;                          // (a crash is a difference: calls() reports it)
    const how = other.run.overran() ? '' : `, and ${await howEnded(other.run)}`;
    const more = other.run.overran() ? `; ${OVERRAN}` : '';
    const whose = opt.program === undefined ? 'the port' : `the program (${opt.program})`;
    throw new CannotCompare(`${whose} wrote no call stream to --calls PATH, not even its header line${how} (see test/PORTING.md, ` +
      `section 4)${more}`);
  }
  if (!v.same || v.capped) stopAll();
  return v;
}

/** The report of the first call that differs: the one place the tool prints it. */
function reportFirstCall(v: Verdict): void {
  for (const l of [...v.report, ...compareLines(opt, v)]) console.log(l);
}

async function calls(): Promise<number> {
  const t0 = Date.now();
  const v = await streams();
  const [c, other] = [running[0], running[1] as Running | undefined];
  const crashed = other && !v.same && (v.ends === label || v.empty) ? await resultOf(other) : undefined;
  const crash = crashed ? crashOf(crashed) : undefined;
  if (crash) {                                         // a program that died: how, and how far it was the C's
    for (const l of crashReport(crashed!, crash, undefined, input, label === 'port' ? 'the port' : 'the program')) console.log(l);
    if (v.empty) console.log('  it wrote no call stream, not even its header line');
    else console.log(`  its calls were the C's for ${v.calls} calls`);
  }
  if (!v.same) {
    if (!v.empty) reportFirstCall(v);
    return 1;
  }
  const [cOut, cCode] = await Promise.all([c.stdout, c.done]);
  if (other) {
    const [oOut, oCode] = await Promise.all([other.stdout, other.done]);
    const diff = firstDifference(cOut, oOut, 2, ['C', label], other.overran());
    if (diff || cCode !== oCode) {
      console.log(`the calls are identical (${v.calls}), but the output is not${cCode !== oCode ? `: exit codes C ${cCode}, ${label} ${oCode}` : ''}`);
      if (diff) console.log(diff);
      return 1;
    }
  } else if (cCode !== 0) throw new CannotCompare(`the C exited ${c.signal() ?? cCode} on this input`);
  console.log(`identical: ${v.calls} calls`);
  const s = (Date.now() - t0) / 1000;
  // (a rate only where the calls, not the programs' start, take the time)
  process.stderr.write(`compared in ${s.toFixed(1)} s${v.calls >= RATED ? `, ${Math.round(v.calls / s)} calls a second` : ''}\n`);
  return 0;
}

async function main(): Promise<number> {
  return opt.calls ? calls() : bytes();
}

try {
  process.exitCode = await main();
  for (const note of notes()) process.stderr.write(`compare: note: ${note}\n`);
} catch (err) {
  stopAll();
  if (err instanceof Exit) throw err;
  if (gone) exit(typeof process.exitCode === 'number' ? process.exitCode : 0); // (what was stopped, ends so)
  if (err instanceof CannotCompare) cannot(err.message);
  cannot(`could not compare: ${err instanceof Error ? err.message : String(err)}`);
}
