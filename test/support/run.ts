// Runs the port, the C and a program under test on the same input bytes, for the tests, the compare
// command and the bench: where outputs differ, by input line; a crash in words (how it died, its
// stderr's first and last lines, how far it was the C's); timing with GNU time.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputLines, replay } from './boards.ts';
import { buildC, portArgs, type Variant } from './c-oracle.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Every program the tests start gets glibc's huge pages for large allocations, as `npm start`
// and `npm run bench` do: the port's 176 MiB table then costs a third of the system time to
// map and clear (0.1 s against 0.25 s a start), and the suite starts the port hundreds of times.
process.env.GLIBC_TUNABLES ??= 'glibc.malloc.hugetlb=1';

export interface Result {
  stdout: Buffer; stderr: string; code: number | null; signal: string | null;
  overran?: boolean;                                   // stopped for printing more than its limit
  timedOut?: boolean;                                  // stopped for not ending within its time
}

// ---- what a tool starts ends with it ----------------------------------------------------------

// Every program a tool runs, and whether it leads a process group of its own (a program under test,
// run through a shell: ending the shell alone would leave the program running).
const live = new Map<ChildProcess, boolean>();
/** Keeps `child` on the list of what the tool runs, until it ends. */
export function started(child: ChildProcess, group = false): ChildProcess {
  live.set(child, group);
  child.on('close', () => live.delete(child));
  return child;
}
const tidyUps: (() => void)[] = [];
/** `f` runs when the tool is stopped by a signal (an 'exit' handler does not run then). */
export const onStopped = (f: () => void): void => { tidyUps.push(f); };

/** A tool stopped by SIGINT, SIGTERM or SIGHUP (Ctrl-C, `timeout`, a closed terminal) ends every
 *  program it runs — the C, the port, a program under test and all its process group — and its
 *  named pipes, then ends by the same signal: with no handler left, the signal's default action
 *  ends the process (Node's exit call is never made: options.ts says why), and whoever started
 *  the tool sees how it ended. */
export function endOnSignals(): void {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      stopStarted();
      for (const f of tidyUps) f();
      process.kill(process.pid, sig);
    });
  }
}

/** Ends every program the tool runs now. */
export function stopStarted(): void {
  for (const [child, group] of live) stopChild(child, group);
}

/** Ends a child at once: its process group too when it leads one. */
function stopChild(child: ChildProcess, group: boolean): void {
  if (group) killGroup(child);
  else if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The command line that runs the port as the tests do: dist/micromax.js, what `npm start` runs,
 *  compiled from micromax.ts by `npm run build`. It starts in a third of the CPU time tsx takes
 *  (0.25 s against 0.7 s), and the suite starts it hundreds of times. The first call runs npm's
 *  `prestart`, which rebuilds it when micromax.ts is newer, as `npm start` does: a changed
 *  micromax.ts is what is tested. */
let built = false;
export function portCommand(args: string[] = []): [string, string[]] {
  if (!built) {
    const r = spawnSync('npm', ['run', '-s', 'prestart'], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run prestart failed:\n${r.stdout}${r.stderr}`);
    built = true;
  }
  return [process.execPath, [path.join(ROOT, 'dist', 'micromax.js'), ...args]];
}

/** micromax.ts itself, through the tsx loader, as a learner runs a changed copy (no build step). */
export function sourceCommand(args: string[] = []): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', path.join(ROOT, 'micromax.ts'), ...args]];
}

/** Node's arguments that start the tool test/tools/<name>.ts with `args`, as the tests start it:
 *  dist/tools/<name>.mjs, the tool and all it imports bundled into one file by `npm run build:tools`
 *  (npm test's pretest), when that build is newer than every file it was made from; otherwise the
 *  source through tsx, as its npm script runs it (a test file run alone, or a tool changed since).
 *  The bundle starts in a third of tsx's CPU time (0.2 s against 0.65 s), and the suite starts
 *  tools hundreds of times. Its place keeps ROOT: dist/tools/ is two folders down, as test/support/. */
export function toolArgv(name: string, args: string[] = []): string[] {
  toolsBuilt ??= toolsBuildIsFresh();
  if (toolsBuilt) return [path.join(ROOT, 'dist', 'tools', `${name}.mjs`), ...args];
  return ['--import', 'tsx', path.join(ROOT, 'test', 'tools', `${name}.ts`), ...args];
}
let toolsBuilt: boolean | undefined;

/** Whether dist/tools/ holds a build of every tool newer than each source its build lists (esbuild's
 *  metafile, dist/tools/meta.json, names every file bundled): checked once a process. */
function toolsBuildIsFresh(): boolean {
  const dir = path.join(ROOT, 'dist', 'tools');
  const mtime = (file: string): number => fs.statSync(file).mtimeMs;
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as
      { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
    const tools = fs.readdirSync(path.join(ROOT, 'test', 'tools')).filter((f) => f.endsWith('.ts'));
    const outputs = tools.map((f) => path.join(dir, f.replace(/\.ts$/, '.mjs')));
    const sources = [...new Set([...Object.keys(meta.inputs), ...tools.map((f) => `test/tools/${f}`)])];
    const built = Math.min(...outputs.map(mtime));
    return sources.every((f) => mtime(path.join(ROOT, f)) < built);
  } catch {
    return false;                                      // no build, or a part of it or a source gone
  }
}

export function runPortSync(input: Buffer | string, args: string[] = [], timeoutMs = 600_000): Result {
  const [cmd, argv] = portCommand(args);
  return finish(spawnSync(cmd, argv, { cwd: ROOT, input, maxBuffer: 1 << 30, timeout: timeoutMs }));
}

export function runCSync(input: Buffer | string, v: Variant = {}, timeoutMs = 600_000): Result {
  return finish(spawnSync(buildC(v), [], { input, maxBuffer: 1 << 30, timeout: timeoutMs }));
}

function finish(r: ReturnType<typeof spawnSync>): Result {
  if (r.error && (r.error as NodeJS.ErrnoException).code !== 'EPIPE') throw r.error;
  return { stdout: r.stdout as Buffer, stderr: String(r.stderr ?? ''), code: r.status, signal: r.signal };
}

/** Asynchronous run (lets the C and the port run side by side on two cores). */
export function run(cmd: string, argv: string[], input: Buffer | string, timeoutMs = 600_000,
  env: NodeJS.ProcessEnv = process.env): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: ROOT, env });
    started(child);
    const out: Buffer[] = [], err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.stdin.on('error', () => { /* the program may stop reading early */ });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString(), code, signal, timedOut });
    });
    child.stdin.end(input);
  });
}

export function runPort(input: Buffer | string, args: string[] = [], timeoutMs?: number): Promise<Result> {
  const [cmd, argv] = portCommand(args);
  return run(cmd, argv, input, timeoutMs);
}

export function runC(input: Buffer | string, v: Variant = {}, timeoutMs?: number): Promise<Result> {
  return run(buildC(v), [], input, timeoutMs);
}

/** A gate that lets at most n jobs run at once, the others waiting their turn in order (the
 *  machine may have two cores, and a test's programs must not crowd each other out). */
export function atMost(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let free = n;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (free > 0) free--;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/** A program under test (test/PORTING.md): a shell command line, with arguments appended, run in
 *  the folder `npm run` was started from. It is stopped once it has printed more than
 *  `limit.bytes` (which may change as it runs: the C's output and a margin, once the C is done),
 *  for one that never ends at the end of input prints boards for ever; what it printed is then
 *  kept to that many bytes (the report says "more than N bytes"). It is stopped too when it has not
 *  ended after `timeoutMs`. */
export function runProgram(command: string, args: string[], input: Buffer | string, limit = { bytes: 1 << 28 },
  timeoutMs = 600_000): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn([command, ...args].join(' '), { cwd: process.env.INIT_CWD ?? process.cwd(), shell: true,
      detached: true });                               // its own process group: the shell and what it runs
    started(child, true);
    const out = new Capped(limit), err = new HeadAndTail();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; killGroup(child); }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => { if (out.add(d)) killGroup(child); });
    child.stderr.on('data', (d: Buffer) => err.add(d));
    child.stdin.on('error', () => { /* the program may stop reading early */ });
    child.on('error', () => { /* cannot start: close comes with its code */ });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: out.bytes(), stderr: err.text(), code, signal, overran: out.overran, timedOut });
    });
    child.stdin.end(input);
  });
}

/** A program's stdout, kept to `limit.bytes` (a limit that may change while it runs): add() says
 *  when the program has printed more, and should be stopped; what came after is not kept. */
export class Capped {
  private parts: Buffer[] = [];
  private size = 0;
  overran = false;
  constructor(private limit: { bytes: number }) {}
  /** Keeps `d`; true the first time the output goes past the limit. */
  add(d: Buffer): boolean {
    if (this.overran) return false;
    this.parts.push(d);
    this.size += d.length;
    this.overran = this.size > this.limit.bytes;
    return this.overran;
  }
  bytes(): Buffer {
    const all = Buffer.concat(this.parts);
    return this.overran ? all.subarray(0, this.limit.bytes) : all;
  }
}

/** Ends a program started in its own process group (`detached`), the shell and all it started:
 *  killing the shell alone would leave the program running. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** What a report adds for a program stopped for printing too much. */
export const OVERRAN = 'it was stopped after printing 16 kB more than the C: does it end at the end of input? ' +
  '(test/PORTING.md, section 1)';
export const MARGIN = 1 << 14;

/** The size of an output in a report: "1152 bytes", or for one stopped at its limit "more than
 *  17536 bytes (stopped reading)". */
export const sizeOf = (out: Buffer, overran = false): string =>
  overran ? `more than ${out.length} bytes (stopped reading)` : `${out.length} bytes`;

/** A program's stderr as a report quotes it: its first 8 kB (a stack trace's first line names the
 *  error: Java's StackOverflowError, Rust's panic) and its last 8 kB (Python names it last), a line
 *  '…' between them when more was written. */
export class HeadAndTail {
  private head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private skipped = false;
  constructor(private keep = 8192) {}
  add(d: Buffer): void {
    if (this.headSize < this.keep) {
      const take = d.subarray(0, this.keep - this.headSize);
      this.head.push(take);
      this.headSize += take.length;
      d = d.subarray(take.length);
    }
    if (!d.length) return;
    this.tail.push(d);
    this.tailSize += d.length;
    while (this.tailSize - this.tail[0].length >= this.keep) {
      this.tailSize -= this.tail.shift()!.length;
      this.skipped = true;
    }
  }
  text(): string {
    const head = Buffer.concat(this.head).toString(), tail = Buffer.concat(this.tail).toString();
    return this.skipped ? `${head}\n…\n${tail.slice(tail.indexOf('\n') + 1)}` : head + tail;
  }
}

/** Why a program cannot be run at all, or undefined when it started: the shell could not find it
 *  (exit 127) or run it (exit 126). A program that started and then failed crashed (crashOf): that is
 *  a difference from the C, said per script, not a run that cannot be made. */
export function cannotStart(r: Result): string | undefined {
  const said = stderrGist(r.stderr);
  const why = said ? `: ${said}` : '';
  if (r.code === 127) return `not found (exit 127)${why}`;
  if (r.code === 126) return `cannot be run (exit 126)${why}`;
  return undefined;
}

/** How a program under test died, in a few words ('exit 1', 'signal SIGSEGV', 'exit 134, a shell's
 *  way of saying signal SIGABRT'), or undefined when it ended as the C always does, with exit 0, or
 *  was stopped by the tools themselves (--timeout, or printing 16 kB more than the C). */
export function crashOf(r: Result): string | undefined {
  if (r.timedOut || r.overran || (r.code === 0 && !r.signal)) return undefined;
  if (r.signal) return `signal ${r.signal}`;
  const shells = r.code !== null && r.code > 128 ? signalNamed(r.code - 128) : undefined;  // (sh -c: 128 + the signal)
  return `exit ${r.code}${shells ? `, a shell's way of saying signal ${shells}` : ''}`;
}

/** The name of signal number n (11: SIGSEGV), if there is one. */
export const signalNamed = (n: number): string | undefined =>
  Object.entries(os.constants.signals).find(([, k]) => k === n)?.[0];

/** A line of stderr that names an error, as languages word it: Java's `…Exception`, `…Error`, Python's
 *  `IndexError:`, Rust's `panicked`, Go's `panic:`, C#'s `Unhandled exception`, a shell's
 *  `Segmentation fault`. */
const ERROR = /error|exception|panic|fault|abort|overflow|out of (range|bounds)/i;

/** stderr's lines, without the empty ones, each cut to 200 characters. */
const linesOf = (text: string): string[] =>
  text.split('\n').map((l) => l.replace(/\s+$/, '')).filter(Boolean).map((l) => l.slice(0, 200));

/** Where in stderr's lines the error is named: the first line that names one (Node prints the
 *  source line first, Python the traceback), else the first. */
function errorAt(lines: string[]): number {
  return Math.max(0, lines.findIndex((l) => ERROR.test(l) && !/^Traceback \(most recent call last\)/.test(l)));
}

/** The lines of stderr a report shows: the first `n` (the error, where most languages name it), the
 *  line that names the error when it is further down, and the last (where Python names it), '…'
 *  where lines are left out. */
export function stderrLines(text: string, n = 3): string[] {
  const lines = linesOf(text);
  if (lines.length <= n + 1) return lines;
  const at = errorAt(lines);
  return [...lines.slice(0, n), ...at >= n && at < lines.length - 1 ? ['…', lines[at]] : [], '…', lines.at(-1)!];
}

/** The words of stderr that name the error, in one line: the line that names it, with the next
 *  when it ends in a colon (Rust's `panicked at src/main.rs:9:5:`, then the message). */
export function stderrGist(text: string): string | undefined {
  const lines = linesOf(text), at = errorAt(lines);
  if (!lines.length) return undefined;
  return lines[at].endsWith(':') && lines[at + 1] !== undefined ? `${lines[at]} ${lines[at + 1].trim()}` : lines[at];
}

/** A crash in a report's words: how the program died (the C always exits 0), how far its output
 *  was the C's (`want`, on `input`; without it, how much it printed), and the lines of its stderr
 *  that name the error. */
export function crashReport(r: Result, how: string, want: Buffer | undefined, input: Buffer, who = 'the program'): string[] {
  const same = want ? firstByte(want, r.stdout) ?? want.length : 0;
  const out = [`${who} crashed: ${how}, where the C exits 0`];
  if (!r.stdout.length) {
    out.push(`  it printed nothing${want ? `, where the C prints ${want.length} bytes` : ''} (a program whose stdout is buffered ` +
      'loses what it printed when it crashes: flush it before each read, test/PORTING.md section 1)');
  } else if (!want) {
    out.push(`  it printed ${r.stdout.length} bytes`);
  } else if (same === want.length) {
    out.push(`  its output was all the C's, ${same} bytes: it crashed as it ended`);
  } else if (same === r.stdout.length) {
    out.push(`  its output was the C's, ${same} of ${want.length} bytes: it stopped in ${inputAt(want, input, same)}`);
  } else out.push(`  its output was the C's for ${same} of ${want.length} bytes, then differs`);
  const lines = stderrLines(r.stderr);
  out.push(lines.length ? '  its stderr:' : '  it wrote nothing on stderr');
  for (const l of lines) out.push(`    ${l}`);
  return out;
}

/** Where two outputs first differ, or undefined when they are byte-identical; `cut` when b is only
 *  the start of what its program printed (stopped at its limit). */
export function firstDifference(a: Buffer, b: Buffer, context = 2, labels = ['C', 'port'], cut = false): string | undefined {
  if (a.equals(b)) return undefined;
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const line = a.subarray(0, at).toString('latin1').split('\n').length;
  const show = (buf: Buffer): string => {
    const lines = buf.toString('latin1').split('\n');
    return lines.slice(Math.max(0, line - 1 - context), line + context)
      .map((l, k) => `${String(Math.max(1, line - context) + k).padStart(6)} | ${JSON.stringify(l).slice(1, -1)}`)
      .join('\n');
  };
  return `first difference at byte ${at}, line ${line} (${labels[0]} ${sizeOf(a)}, ${labels[1]} ${sizeOf(b, cut)})\n` +
    `--- ${labels[0]}:\n${show(a)}\n--- ${labels[1]}:\n${show(b)}`;
}

/** Which input line the C's output at byte `at` answers (1 = the first; 0: the first board, before
 *  any input), counting the boards (8 lines ' x x x x x x x x ') printed before it. */
export function inputLineAt(out: Buffer, at: number): number {
  const lines = out.subarray(0, at).toString('latin1').split('\n').slice(0, -1);
  let boards = 0, rows = 0;
  for (const l of lines) {
    rows = /^( \S){8} $/.test(l) ? rows + 1 : 0;
    if (rows === 8) { boards++; rows = 0; }
  }
  return boards;
}

/** Where the C's output at byte `at` is: 'the answer to input line 3 "e7e5", after the moves e2e4 b8c6'. */
export function inputAt(out: Buffer, input: Buffer, at: number): string {
  const k = inputLineAt(out, at), lines = inputLines(input);
  if (k === 0) return 'the first board, before any input is read';
  const line = lines[k - 1];
  const text = line ? `${JSON.stringify(line.bytes.toString('latin1'))}${line.by === 'engine' ? ' (micro-Max moves)' : ''}`
    : '(past the end of the input)';
  let moves: string[];
  try {
    moves = replay(out, input).moves.filter((m) => (m.line ?? Infinity) < k - 1).map((m) => `${m.from}${m.to}`);
  } catch {
    moves = lines.slice(0, k - 1).filter((l) => l.by === 'typed').map((l) => `${l.from}${l.to}`);
  }
  return `the answer to input line ${k} ${text}, after ${moves.length ? `the moves ${moves.join(' ')}` : 'no moves'}`;
}

/** Where two outputs first differ: the byte, or undefined when they are the same. */
export function firstByte(a: Buffer, b: Buffer): number | undefined {
  if (a.equals(b)) return undefined;
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  return at;
}

/** GNU time, for peak memory and CPU time, when it is installed. */
export const GNU_TIME = '/usr/bin/time';
export const haveGnuTime = spawnSync(GNU_TIME, ['-v', '-o', os.devNull, 'true'], { stdio: 'ignore' }).status === 0;

export interface Timed { res: Result; ms: number; rssKB?: number; cpuS?: number }
let timedSeq = 0;

/** Runs cmd on input: wall time by hrtime; peak RSS (kB) and user+system CPU time by GNU time
 *  when it is installed (undefined otherwise). */
export async function timedRun(cmd: string, argv: string[], input: Buffer | string, timeoutMs?: number): Promise<Timed> {
  const stats = path.join(os.tmpdir(), `micromax-time-${process.pid}-${timedSeq++}`);
  const t0 = process.hrtime.bigint();
  const res = haveGnuTime ? await run(GNU_TIME, ['-v', '-o', stats, cmd, ...argv], input, timeoutMs)
    : await run(cmd, argv, input, timeoutMs);
  const out: Timed = { res, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
  if (haveGnuTime && fs.existsSync(stats)) {
    const text = fs.readFileSync(stats, 'utf8');
    fs.rmSync(stats, { force: true });
    const num = (re: RegExp): number | undefined => { const m = re.exec(text); return m ? Number(m[1]) : undefined; };
    out.rssKB = num(/Maximum resident set size \(kbytes\): (\d+)/);
    const user = num(/User time \(seconds\): ([\d.]+)/), sys = num(/System time \(seconds\): ([\d.]+)/);
    if (user !== undefined && sys !== undefined) out.cpuS = user + sys;
  }
  return out;
}

export { portArgs };
