// No input can break it: very long lines, random binary, very many lines, a reader that goes
// away, bad options. Each run must end in bounded time and memory (peak RSS measured with GNU
// time when it is here) and exit as documented. Where the C is defined (lines of at most 8
// bytes), the output is compared with the C's on the same input cut to 8 bytes a line.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { whyNoC } from './support/c-oracle.ts';
import { parseTranscript, seededRandom } from './support/boards.ts';
import { firstDifference, portCommand, run, runC, ROOT, timedRun, type Result } from './support/run.ts';

const noC = whyNoC();
const LIMIT_S = 60;                                     // each run must end within this
const PEAK_MB = 1024;                                   // ... and stay below this much memory
/** How many short lines: 20,000 take about 20 s (every line clears the 64 MiB of locks, as the C
 *  does); more only repeat the same check. MICROMAX_ROBUST_LINES sets another count. */
const SHORT_LINES = Number(process.env.MICROMAX_ROBUST_LINES ?? 20_000);
const SHORT_LIMIT_S = Math.max(LIMIT_S, (LIMIT_S * SHORT_LINES) / 20_000);

interface Measured extends Result { seconds: number; peakMB?: number }

/** Runs the port on the input, timed, with its peak RSS when GNU time is here. */
async function measured(input: Buffer, args: string[], limitS = LIMIT_S): Promise<Measured> {
  const [cmd, argv] = portCommand(args);
  const t = await timedRun(cmd, argv, input, 2 * limitS * 1000);
  return { ...t.res, seconds: t.ms / 1000, peakMB: t.rssKB === undefined ? undefined : t.rssKB / 1024 };
}

function bounded(r: Measured, what: string, limitS = LIMIT_S): string {
  assert.equal(r.signal, null, `${what}: killed by ${r.signal} after ${r.seconds.toFixed(1)} s`);
  assert.equal(r.code, 0, `${what}: exit code ${r.code}\n${r.stderr}`);
  assert.equal(r.stderr, '', `${what}: stderr`);
  assert.ok(r.seconds < limitS, `${what}: ${r.seconds.toFixed(1)} s`);
  if (r.peakMB !== undefined) assert.ok(r.peakMB < PEAK_MB, `${what}: peak RSS ${r.peakMB.toFixed(0)} MB`);
  return `${what}: ${r.seconds.toFixed(1)} s, peak RSS ${r.peakMB === undefined ? 'not measured (no GNU time)' : `${r.peakMB.toFixed(0)} MB`}`;
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

test('lines of 1 MB: bounded time and memory; the first 8 bytes count, as the C reads them', async (t) => {
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

test('200 kB of random binary: bounded time and memory, exit 0', async (t) => {
  const rng = seededRandom(200), input = Buffer.alloc(200 * 1024);
  for (let k = 0; k < input.length; k++) input[k] = rng.int(256);
  const r = await measured(input, ['--nodes', '100']);
  t.diagnostic(bounded(r, `200 kB random (${input.filter((b) => b <= 10).length} line ends)`));
  assert.deepEqual(parseTranscript(r.stdout).problems, []);
});

test(`${SHORT_LINES} short lines: bounded time and memory, exit 0`, async (t) => {
  const rng = seededRandom(100_000), parts: Buffer[] = [];
  for (let k = 0; k < SHORT_LINES; k++) {
    const n = rng.int(4), line = Buffer.alloc(n + 1);
    for (let j = 0; j < n; j++) line[j] = rng.pick([...Buffer.from('abcdefgh12345678')]);
    line[n] = rng.chance(0.9) ? 10 : rng.pick([0, 9]);
    parts.push(k === 0 ? Buffer.from('e2e4\n') : line);    // every later line is read as a move
  }
  const input = Buffer.concat(parts);
  const r = await measured(input, ['--nodes', '100'], SHORT_LIMIT_S);
  t.diagnostic(bounded(r, `${SHORT_LINES} lines (${input.length} bytes)`, SHORT_LIMIT_S) +
    `, ${(1000 * r.seconds / SHORT_LINES).toFixed(2)} ms a line`);
  const out = parseTranscript(r.stdout);
  assert.deepEqual(out.problems, []);
  assert.equal(out.boards.length, SHORT_LINES + 1);
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
    const timer = setTimeout(() => child.kill('SIGKILL'), 2 * LIMIT_S * 1000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    const seconds = (performance.now() - start) / 1000;
    // the subshell writes the code file after the port has gone: wait for it a little
    for (let k = 0; k < 50 && !fs.existsSync(codeFile); k++) await new Promise((r) => setTimeout(r, 100));
    t.diagnostic(`ended after ${seconds.toFixed(1)} s`);
    assert.equal(code, 0);
    assert.equal(Buffer.concat(out).toString('latin1'), ' r n b q k b n r \n + + + + + + + + \n . . . . . . . . \n');
    assert.ok(seconds < LIMIT_S / 2, `${seconds.toFixed(1)} s`);
    assert.equal(fs.readFileSync(codeFile, 'utf8').trim(), '0', 'the port\'s exit code');
    assert.equal(fs.readFileSync(errFile, 'utf8'), '', 'stderr');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

for (const args of [['--nodes', '0'], ['--nodes', '-5'], ['--nodes', 'abc'], ['--nodes'], ['--nodes', '1e40'],
  ['--bogus'], ['--nodes', '1.5'], ['--nodes', ''], ['--nodes=0'], ['--trace=yes']]) {
  test(`bad option ${JSON.stringify(args.join(' '))}: a message on stderr, exit code 2`, async () => {
    const [cmd, argv] = portCommand(args);
    const r = await run(cmd, argv, 'e2e4\n', 30_000);
    assert.equal(r.code, 2, `exit code ${r.code}\n${r.stderr}`);
    assert.equal(r.stdout.length, 0, 'nothing on stdout');
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    assert.match(lines[0] ?? '', /^micromax: \S/, 'a one-line message first');
    assert.ok(lines.length <= 2 && lines.slice(1).every((l) => /^usage: /.test(l)), `stderr:\n${r.stderr}`);
    assert.doesNotMatch(r.stderr, /^\s+at /m, 'a stack trace');
  });
}

test('good options: --nodes=1e3 (the = form of --nodes 1e3) and --trace are taken', async () => {
  const [cmd, argv] = portCommand(['--trace', '--nodes=1e3']);
  const r = await run(cmd, argv, '\n', 30_000);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout.toString(), / ply, +\d+ searched/);
});
