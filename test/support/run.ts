// Runs the port and the C on the same input bytes, for the tests, the compare command and the bench.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildC, portArgs, type Variant } from './c-oracle.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Every program the tests start gets glibc's huge pages for large allocations, as `npm start`
// and `npm run bench` do: the port's 176 MiB table then costs a third of the system time to
// map and clear (0.1 s against 0.25 s a start), and the suite starts the port hundreds of times.
process.env.GLIBC_TUNABLES ??= 'glibc.malloc.hugetlb=1';

export interface Result { stdout: Buffer; stderr: string; code: number | null; signal: string | null }

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
export function run(cmd: string, argv: string[], input: Buffer | string, timeoutMs = 600_000): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd: ROOT });
    const out: Buffer[] = [], err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.stdin.on('error', () => { /* the program may stop reading early */ });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString(), code, signal });
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

/** Where two outputs first differ, or undefined when they are byte-identical. */
export function firstDifference(a: Buffer, b: Buffer, context = 2): string | undefined {
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
  return `first difference at byte ${at}, line ${line} (C ${a.length} bytes, port ${b.length} bytes)\n` +
    `--- C:\n${show(a)}\n--- port:\n${show(b)}`;
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
