// No input can break it: 1 MB lines, random binary, 500 and 2,000 short lines, a reader that goes
// away, bad options. Each run must end (a hang guard kills it after HANG_S: a guard, not a speed
// bound, so a loaded machine cannot fail it; no `process.exit()`), stay within bounded memory (peak
// RSS measured with GNU time when it is here) and exit as documented. A line costs no more after
// many, measured, not assumed: the same lines, N and 4N of them, cost as much a line. And a GUI
// test with a failure or a hang planted ends the run.
//
// Where the C is defined (lines of at most 8 bytes), the output is compared with the C's on the
// same input cut to 8 bytes a line.
//
// time: 35 s

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { whyNoC } from './support/c-oracle.ts';
import { parseTranscript, seededRandom } from './support/boards.ts';
import { atMost, firstDifference, portCommand, run, runC, ROOT, timedRun, type Result } from './support/run.ts';

const noC = whyNoC();
const HANG_S = 600;                                     // a run still going after this has hung
const PEAK_MB = 1024;                                   // each run stays below this much memory
/** How many short lines in the smaller run (the larger has 4 times as many). Every line clears the
 *  64 MiB of locks, as the C does: about 4 ms of CPU a line. MICROMAX_ROBUST_LINES sets another count. */
const SHORT_LINES = Number(process.env.MICROMAX_ROBUST_LINES ?? 500);

interface Measured extends Result { seconds: number; cpuS?: number; peakMB?: number }

/** Runs the port on the input, timed, with its CPU time and peak RSS when GNU time is here. */
async function measured(input: Buffer, args: string[]): Promise<Measured> {
  const [cmd, argv] = portCommand(args);
  const t = await timedRun(cmd, argv, input, HANG_S * 1000);
  const peakMB = t.rssKB === undefined ? undefined : t.rssKB / 1024;
  return { ...t.res, seconds: t.ms / 1000, cpuS: t.cpuS, peakMB };
}

/** Fails unless the run ended by itself, quietly, with exit code 0, in bounded memory; says what
 *  it measured. */
function bounded(r: Measured, what: string): string {
  const took = `${r.seconds.toFixed(1)} s`;
  assert.equal(r.signal, null, `${what}: killed by ${r.signal} after ${took} (hang guard ${HANG_S} s)`);
  assert.equal(r.code, 0, `${what}: exit code ${r.code}\n${r.stderr}`);
  assert.equal(r.stderr, '', `${what}: stderr`);
  if (r.peakMB !== undefined) assert.ok(r.peakMB < PEAK_MB, `${what}: peak RSS ${r.peakMB.toFixed(0)} MB`);
  const cpu = r.cpuS === undefined ? '' : `, ${r.cpuS.toFixed(1)} s CPU`;
  const peak = r.peakMB === undefined ? 'not measured (no GNU time)' : `${r.peakMB.toFixed(0)} MB`;
  return `${what}: ${took}${cpu}, peak RSS ${peak}`;
}

/** The input with every line cut to its first 8 bytes: what the port reads of it, and what the
 *  C can read without overflowing its line buffer. */
function cutLines(input: Buffer, keep = 8): Buffer {
  const out: number[] = [];
  let run = 0;
  for (const byte of input) {
    if (byte <= 10) { out.push(byte); run = 0; } else if (run++ < keep) out.push(byte);
  }
  return Buffer.from(out);
}

/** n bytes none of which ends a line. */
function lineBytes(n: number, seed: number): Buffer {
  const rng = seededRandom(seed), out = Buffer.alloc(n);
  for (let k = 0; k < n; k++) out[k] = 11 + rng.int(245);
  return out;
}

const MB = 1 << 20;

test('lines of 1 MB: it ends, in bounded memory; the first 8 bytes count, as the C reads them', async (t) => {
  const input = Buffer.concat([
    Buffer.from('e2e4'), lineBytes(MB - 4, 1), Buffer.from('\n\n'),     // a move, then the engine's
    Buffer.from('g1f3'), Buffer.alloc(MB - 4, 'x'), Buffer.from('\n\n'),
    lineBytes(MB, 2),                                                    // and the end mid-line
  ]);
  const args = ['--nodes', '300'];
  const r = await measured(input, args);
  t.diagnostic(bounded(r, `${(input.length / MB).toFixed(1)} MB in 5 lines`));
  const boards = parseTranscript(r.stdout);
  assert.deepEqual(boards.problems, []);
  assert.equal(boards.boards.length, 6);
  assert.notEqual(boards.boards[1].join(), boards.boards[0].join(), 'e2e4 was not played');
  if (!noC) {
    const c = await runC(cutLines(input), { nodes: 300 });
    assert.equal(c.code, 0);
    const diff = firstDifference(c.stdout, r.stdout);
    assert.equal(diff, undefined, diff);
  } else t.diagnostic(`not compared with the C: ${noC}`);
});

// 64 kB hold every byte value about 256 times, and about 2,800 line ends of every kind.
test('64 kB of random binary: it ends, in bounded memory, exit 0', async (t) => {
  const rng = seededRandom(200), input = Buffer.alloc(64 * 1024);
  for (let k = 0; k < input.length; k++) input[k] = rng.int(256);
  const r = await measured(input, ['--nodes', '100']);
  t.diagnostic(bounded(r, `64 kB random (${input.filter((b) => b <= 10).length} line ends)`));
  assert.deepEqual(parseTranscript(r.stdout).problems, []);
});

/** A first line e2e4, then n - 1 short lines (0 to 3 move letters and digits, most ended by a
 *  newline, some by NUL or tab): every one is read as a move. Seeded: a longer run starts with
 *  the lines of a shorter one. */
function shortLines(n: number): Buffer {
  const rng = seededRandom(100_000);
  const letters = [...Buffer.from('abcdefgh12345678')];
  const parts: Buffer[] = [];
  for (let k = 0; k < n; k++) {
    const size = rng.int(4);
    const line = Buffer.alloc(size + 1);
    for (let j = 0; j < size; j++) line[j] = rng.pick(letters);
    line[size] = rng.chance(0.9) ? 10 : rng.pick([0, 9]);
    parts.push(k === 0 ? Buffer.from('e2e4\n') : line);
  }
  return Buffer.concat(parts);
}

/** What a run cost: its CPU time where GNU time measures it (other work on the machine barely
 *  changes that), else its wall time. */
const cost = (r: Measured): number => r.cpuS ?? r.seconds;

/** Runs n short lines; the run must end well with one board a line. */
async function shortRun(t: { diagnostic: (s: string) => void }, n: number): Promise<Measured> {
  const input = shortLines(n);
  const r = await measured(input, ['--nodes', '100']);
  t.diagnostic(bounded(r, `${n} lines (${input.length} bytes)`));
  const out = parseTranscript(r.stdout);
  assert.deepEqual(out.problems, [], `${n} lines`);
  assert.equal(out.boards.length, n + 1, `${n} lines`);
  return r;
}

// A line's cost must not grow with the lines before it. Quadratic growth would make a line of the
// last three quarters of the long run cost 5 times one of the short run; it must stay under 2.5.
test(`${SHORT_LINES} and ${4 * SHORT_LINES} short lines: exit 0, bounded memory, no line dearer than the first`,
  async (t) => {
    const one = await shortRun(t, 1);                      // start-up and the first move
    const short = await shortRun(t, SHORT_LINES);
    const long = await shortRun(t, 4 * SHORT_LINES);
    const early = (cost(short) - cost(one)) / (SHORT_LINES - 1);
    const late = (cost(long) - cost(short)) / (3 * SHORT_LINES);
    const unit = short.cpuS === undefined ? 'wall' : 'CPU';
    t.diagnostic(`ms of ${unit} a line: ${(1000 * early).toFixed(2)} in the short run, ` +
      `${(1000 * late).toFixed(2)} in the last ${3 * SHORT_LINES} lines of the long one`);
    assert.ok(late < 2.5 * early, `a line costs ${(late / early).toFixed(1)} times more after many lines`);
    if (short.peakMB !== undefined && long.peakMB !== undefined) {
      const growth = long.peakMB - short.peakMB;
      assert.ok(growth < 64, `peak RSS grew ${growth.toFixed(0)} MB over ${3 * SHORT_LINES} more lines`);
    }
  });

test('a reader that goes away: the port stops soon, quietly, with exit code 0', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-pipe-'));
  try {
    const inFile = path.join(dir, 'in'), codeFile = path.join(dir, 'code'), errFile = path.join(dir, 'err');
    fs.writeFileSync(inFile, '\n'.repeat(100_000));      // engine against engine, for minutes
    const [cmd, argv] = portCommand(['--nodes', '300']);
    const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
    const script = `(${[cmd, ...argv].map(q).join(' ')} < ${q(inFile)} 2> ${q(errFile)}; echo $? > ${q(codeFile)}) | head -n 3`;
    const start = performance.now();
    const child = spawn('sh', ['-c', script], { cwd: ROOT });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_S * 1000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const seconds = (performance.now() - start) / 1000;
    // the subshell writes the code file after the port has gone: wait for what it writes (not for a
    // fixed time: under load the port's exit may take seconds), up to a minute
    const written = (): boolean => fs.existsSync(codeFile) && fs.readFileSync(codeFile, 'utf8').endsWith('\n');
    for (let k = 0; k < 600 && !written(); k++) await new Promise((r) => setTimeout(r, 100));
    t.diagnostic(`ended after ${seconds.toFixed(1)} s`);
    assert.equal(code, 0);
    assert.equal(Buffer.concat(out).toString('latin1'), ' r n b q k b n r \n + + + + + + + + \n . . . . . . . . \n');
    // playing the whole input would take 100,000 lines of at least 4 ms each: over 400 s
    assert.ok(seconds < 120, `${seconds.toFixed(1)} s`);
    assert.equal(fs.readFileSync(codeFile, 'utf8').trim(), '0', 'the port\'s exit code');
    assert.equal(fs.readFileSync(errFile, 'utf8'), '', 'stderr');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Node's process.exit() can hang for good (nodejs/node#54918): it stops V8's helper threads while
// the heap lives, and a helper caught compiling waits for a garbage collection that never comes.
// On Node 24 under load, 7 of 200 starts with a bad option hung so before the program stopped
// calling it; the GUI modes ended the same way. Four at a time, to load the machine.
const EXITS = 16, SESSIONS = 8;
test(`it always ends: no process.exit() in the program or the tools; ${EXITS} bad options and ${SESSIONS} GUI sessions, each over within 30 s`, async (t) => {
  const files = ['micromax.ts', ...['test/tools', 'test/support'].flatMap((d) => fs.readdirSync(path.join(ROOT, d))
    .filter((f) => f.endsWith('.ts')).map((f) => path.join(d, f)))];
  for (const f of files) {
    const code = fs.readFileSync(path.join(ROOT, f), 'utf8').split('\n').map((l) => l.replace(/\/\/.*/, ''));
    assert.equal(code.findIndex((l) => /process\.(exit|reallyExit|abort)\(/.test(l)), -1, `${f} calls process.exit()`);
  }
  const jobs: (() => Promise<[string, Result]>)[] = [];
  const one = (what: string, args: string[], input: string) => async (): Promise<[string, Result]> => {
    const [cmd, argv] = portCommand(args);
    return [what, await run(cmd, argv, input, 30_000)];
  };
  for (let k = 0; k < EXITS; k++) jobs.push(one('--bogus', ['--bogus'], ''));
  for (let k = 0; k < SESSIONS; k++) {
    const gui = k % 2 ? 'uci' : 'xboard';
    const search = gui === 'uci' ? 'uci\nposition startpos\ngo movetime 300\n' : 'xboard\nprotover 2\nst 1\ngo\n';
    // half end with quit in the middle of the search, half with the end of the input
    jobs.push(one(`--${gui}`, [`--${gui}`], k % 4 < 2 ? search : search + 'quit\n'));
  }
  const fourAtATime = atMost(4);
  const results = await Promise.all(jobs.map((job) => fourAtATime(job)));
  const hung = results.filter(([, r]) => r.signal !== null);
  t.diagnostic(`${results.length} runs, ${hung.length} killed after 30 s`);
  assert.deepEqual(hung.map(([what]) => what), [], 'runs that did not end');
  for (const [what, r] of results) assert.equal(r.code, what === '--bogus' ? 2 : 0, `${what}: exit ${r.code}\n${r.stderr}`);
});

test('good options: --nodes=1e3 (the = form of --nodes 1e3) and --trace are taken', async () => {
  const [cmd, argv] = portCommand(['--trace', '--nodes=1e3']);
  const r = await run(cmd, argv, '\n', 30_000);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout.toString(), / ply, +\d+ searched/);
});

// A failing GUI test must end the run, not hang it: a copy of a real GUI test with a failing
// assertion planted (or a wait that never ends) is run as npm test runs it, and must end red
// within a minute, the failure named. Each plant leaves something alive when it strikes: the
// engine process of the UCI client's game, the engine thread of the FEN test. The copy's
// imports are made absolute, so it runs from a temporary folder; the run's per-test timeout is
// short here (the plant that hangs would wait out npm test's own, which the check reads).
const PLANTS: { file: string; test: string; find: string; put: string; hangs?: boolean }[] = [
  { file: 'gui-clock.test.ts', test: 'a whole game through a UCI client', hangs: false,
    find: "assert.match(engine.id.name ?? '', /^micro-Max 3\\.2/);", put: "assert.match(engine.id.name ?? '', /^a planted failure/);" },
  { file: 'gui-protocol.test.ts', test: 'what a FEN sets up is what the C', hangs: false,
    find: 'assert.ok(got.legal, `${name}: ${m.san}`);', put: 'assert.ok(!got.legal, `a planted failure: ${m.san}`);' },
  { file: 'gui-clock.test.ts', test: 'a whole game through a UCI client', hangs: true,
    find: 'await engine.isready();', put: 'await new Promise(() => {});' },
];
const PLANT_TIMEOUT_MS = 15_000;

/** The test file with `find` replaced by `put` and every import made absolute. */
function planted(file: string, find: string, put: string): string {
  const source = fs.readFileSync(path.join(ROOT, 'test', file), 'utf8');
  assert.equal(source.split(find).length, 2, `${file} no longer holds the line to plant over: ${find}`);
  return source.replace(find, put).replace(/ from '([^']+)';/g, (all, spec: string) => {
    if (spec.startsWith('node:')) return all;
    const url = spec.startsWith('.') ? pathToFileURL(path.join(ROOT, 'test', spec)).href : import.meta.resolve(spec);
    return ` from '${url}';`;
  });
}

const escaped = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** node --test on one file, as npm test runs it (not as a test of this run: NODE_TEST_CONTEXT
 *  would make it report to this one), only the tests named; after 60 s its whole process group
 *  (the runner, the file's process, the engines it started) is killed. */
function runTests(file: string, name: string): Promise<Result> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const args = ['--import', 'tsx', '--test', '--test-reporter=tap', `--test-timeout=${PLANT_TIMEOUT_MS}`, `--test-name-pattern=${name}`, file];
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [], err: Buffer[] = [];
    const killAll = (): void => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* all gone */ } };
    const timer = setTimeout(killAll, 60_000);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString(), code, signal });
    });
  });
}

test('a failing GUI test ends the run: planted failures and a planted hang end red within a minute, each named', async (t) => {
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const name of ['test', 'test:quick', 'test:long']) {
    const ms = Number(/--test-timeout=(\d+)/.exec(scripts[name])?.[1]);
    assert.ok(ms > 0 && ms <= 600_000, `npm run ${name} has no per-test timeout of at most 10 minutes: ${scripts[name]}`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-planted-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');   // ESM, as the project's tests
  const seen: string[] = [];
  for (const [k, p] of PLANTS.entries()) {
    const copy = path.join(dir, `planted-${k}.test.ts`);
    fs.writeFileSync(copy, planted(p.file, p.find, p.put));
    const start = performance.now();
    const r = await runTests(copy, p.test);
    const seconds = (performance.now() - start) / 1000, out = r.stdout.toString();
    seen.push(`${p.file}${p.hangs ? ' (a hang)' : ''}: exit ${r.code} after ${seconds.toFixed(1)} s`);
    assert.equal(r.signal, null, `${p.file}, planted: the run was still going after 60 s\n${out.slice(-3000)}`);
    assert.equal(r.code, 1, `${p.file}, planted: exit ${r.code}\n${out.slice(-3000)}`);
    // (Node 20's runner times out the whole file too: a hang may be named by the file, not the test)
    const names = p.hangs ? [p.test, copy] : [p.test];
    assert.ok(names.some((n) => new RegExp(`not ok \\d+ - ${escaped(n)}`).test(out)), out.slice(-3000));
    assert.match(out, p.hangs ? /timed out after/ : /a planted failure/, out.slice(-3000));
    // a failure that ends only by the timeout (Node 20 times out the file) left something running
    if (!p.hangs) assert.doesNotMatch(out, /timed out after/, `${p.file}: ended by the timeout, not by itself`);
  }
  t.diagnostic(seen.join('; '));
});
