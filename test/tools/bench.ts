// npm run bench -- [--quick] [--reps N]
//
// Times the port against the C (built from `MICROMAX_C` at -O2) on the same traced searches, and
// fails (exit 1) unless every output is byte-identical; prints the README's performance tables, in
// Markdown, and a note on the machine.
//
// C and the port run one after the other, alternating, never side by side: the machine is shared,
// so only paired, interleaved runs and their medians say anything.
//
// What is measured, and how:
// - wall time: the whole process (start-up, the typed moves, the search), by hrtime around it;
// - nodes/s: the last trace line's node count over the search alone, i.e. the wall time minus
//   the median wall time of the same input without its final empty line (no search);
// - peak RSS and CPU time: GNU time (`/usr/bin/time -v -o FILE`); without it, the port's own
//   process.resourceUsage() at exit (through an --import hook) and n/a for the C;
// - start-up: from spawn until the first board arrives on stdout, with empty input (the C's
//   stdout is a pipe, fully buffered, so it shows its first board when it exits at end of input);
// - hash clearing: every line clears the 16M-entry table before its legality check, so
//   (time of 201 rejected lines `a1a1` - time of 1) / 200 is the cost of one line.
//
// time: 25 min

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Chess } from 'chess.js';
import { buildC, portArgs, whyNoC, type Variant } from '../support/c-oracle.ts';
import { boardOf, parseBoards, sameBoard, showBoard, type Board } from '../support/boards.ts';
import { Exit, readOptions, whole } from '../support/options.ts';
import { firstDifference, haveGnuTime, portCommand, ROOT, sourceCommand, timedRun, type Result, type Timed } from '../support/run.ts';

// ---- the positions ----------------------------------------------------------------------------
// Both sides' moves are typed (given here in SAN, turned into micro-Max's from-to squares by
// chess.js, which also checks that each is legal); one empty line then makes the engine move.
// The root node limit only stops the search between iterations, so a --nodes value picks the
// last iteration that is started; each value below sits inside the range that gives that depth.
// `replies` empty lines follow (default 1): the engine moves that many times in a row.

interface Position { name: string; label: string; san: string; nodes: number; quick: boolean; replies?: number }

const POSITIONS: Position[] = [
  {
    // 6 ply ends at 417,877 nodes (~0.2 s), 7 ply at 3,692,719 (~1.5 s), 8 ply at 31,241,063
    // (~13 s): no limit gives one search of 2-10 s here, so the engine plays both first moves,
    // 1.e4 (7 ply, 3,692,719 nodes) and 1...Nc6 (7 ply, 4,980,936 nodes), ~4 s in all.
    name: 'initial', label: 'initial position, the engine plays both sides\' first moves', san: '',
    nodes: 2e6, quick: true, replies: 2,
  },
  {
    // Open Sicilian, Najdorf, English Attack after 9...O-O; 6 ply ends at 2,116,908 nodes,
    // 7 ply at 10,891,326 (~4-5 s).
    name: 'open', label: 'open middlegame (Sicilian Najdorf), White to move',
    san: 'e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O',
    nodes: 5e6, quick: false,
  },
  {
    // King's Indian, Mar del Plata, locked centre after 12...f4; 6 ply ends at 2,610,073 nodes,
    // 7 ply at 11,583,588 (~5 s).
    name: 'closed', label: 'closed middlegame (King\'s Indian), White to move',
    san: 'd4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6 d5 Ne7 Ne1 Nd7 Nd3 f5 Bd2 Nf6 f3 f4',
    nodes: 5e6, quick: false,
  },
  {
    // Scotch with queens, knights, one pair of bishops and a pair of rooks traded: rook and
    // knight against rook and bishop, six pawns each; 7 ply ends at 1,766,689 nodes,
    // 8 ply at 7,661,336 (~3 s).
    name: 'endgame', label: 'endgame (R+N vs R+B, 6 pawns each), Black to move',
    san: 'e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nxd4 Qxd4 Qf6 Qxf6 Nxf6 Nc3 Bb4 Bd2 Bxc3 Bxc3 Nxe4 Bxg7 Rg8 ' +
      'Bd4 d5 f3 Nd6 Bd3 Bf5 Bxf5 Nxf5 Bf2 O-O-O O-O-O Rge8 Rhe1 Rxe1 Rxe1',
    nodes: 4e6, quick: true,
  },
  {
    // The first engine move of `printf 'e2e4\n\n'` at the original's own limit (1e7): 8 ply,
    // 72,152,464 nodes, ~27 s for the C. Longer than the others, it shows the steady state,
    // where the port's start-up and JIT warm-up weigh little.
    name: 'default', label: 'after 1.e4, the default limit (the original\'s 1e7), Black to move', san: 'e4',
    nodes: 1e7, quick: false,
  },
];

/** The typed lines of a position, and the board micro-Max should print after each of them. */
function script(pos: Position): { moves: string[]; boards: Board[] } {
  const game = new Chess();
  const boards = [boardOf(game.fen())], moves: string[] = [];
  for (const san of pos.san.split(' ').filter(Boolean)) {
    const m = game.move(san);                          // throws on an illegal move
    moves.push(m.from + m.to);
    boards.push(boardOf(game.fen()));
  }
  return { moves, boards };
}

/** Depth and node count of each search: its last trace line (the count starts again at each). */
function searches(out: Buffer): { ply: number; nodes: number }[] {
  const all = [...out.toString('latin1').matchAll(/^ *(\d+) ply, +(\d+) searched/gm)]
    .map(m => ({ ply: Number(m[1]), nodes: Number(m[2]) }));
  if (!all.length) throw new Error('no trace line in the output');
  return all.filter((t, k) => k === all.length - 1 || all[k + 1].nodes <= t.nodes);
}

// ---- running and timing ------------------------------------------------------------------------

let tmpDir: string | undefined;
function scratch(): string {
  tmpDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-bench-'));
  return tmpDir;
}
let statsSeq = 0;

/** Runs cmd on input, timed (see timedRun); without GNU time, the port reports its own usage. */
async function timed(cmd: string, argv: string[], input: string, isPort: boolean): Promise<Timed> {
  if (haveGnuTime || !isPort) return timedRun(cmd, argv, input);
  const stats = path.join(scratch(), `stats-${statsSeq++}`);
  const out = await timedRun(cmd, ['--import', usageHook(stats), ...argv], input); // node's options first
  if (fs.existsSync(stats)) {
    const u = JSON.parse(fs.readFileSync(stats, 'utf8')) as { maxRSS: number; cpuUs: number };
    fs.rmSync(stats);
    out.rssKB = u.maxRSS; out.cpuS = u.cpuUs / 1e6;
  }
  return out;
}

/** An --import module that writes the process's peak RSS (kB) and CPU time (us) to file at exit. */
function usageHook(file: string): string {
  const js = `import{writeFileSync}from'node:fs';process.on('exit',()=>{const u=process.resourceUsage();` +
    `writeFileSync(${JSON.stringify(file)},JSON.stringify({maxRSS:u.maxRSS,cpuUs:u.userCPUTime+u.systemCPUTime}))})`;
  return 'data:text/javascript,' + encodeURIComponent(js);
}

/** Milliseconds from spawn until the first stdout chunk, the program getting empty input. */
function startUp(cmd: string, argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let first: number | undefined;
    const child = spawn(cmd, argv, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const err: Buffer[] = [];
    child.stdout.on('data', () => { first ??= Number(process.hrtime.bigint() - t0) / 1e6; });
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', code => {
      if (code !== 0 || first === undefined) {
        reject(new Error(`${cmd} ${argv.join(' ')}: exit ${code}, ${first === undefined ? 'no output' : ''}\n` +
          Buffer.concat(err).toString()));
      } else resolve(first);
    });
    child.stdin.end();
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((p, q) => p - q), h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

class Mismatch extends Error {}

/** Fails unless the run ended well and printed exactly what the reference printed. */
function check(what: string, ref: Result, got: Result): void {
  if (got.code !== 0 || got.signal) {
    throw new Mismatch(`${what}: exit ${got.code}${got.signal ? `, signal ${got.signal}` : ''}\n${got.stderr}`);
  }
  const diff = firstDifference(ref.stdout, got.stdout);
  if (diff) throw new Mismatch(`${what}: output differs from the C\n${diff}`);
}

const log = (s: string): void => { process.stderr.write(s + '\n'); };
const sec = (ms: number): string => (ms / 1000).toFixed(2);
const mb = (kb: number | undefined): string => kb === undefined ? 'n/a' : `${(kb / 1024).toFixed(0)} MiB`;

// ---- the benchmark -----------------------------------------------------------------------------

interface Row {
  pos: Position; ply: string; nodes: number;
  cMs: number; pMs: number; ratio: number; cpuRatio?: number;
  cNps: number; pNps: number; cRss?: number; pRss?: number;
}

async function benchPosition(pos: Position, reps: number): Promise<Row> {
  const { moves, boards } = script(pos);
  const v: Variant = { nodes: pos.nodes, trace: true, opt: 'O2' };
  const cExe = buildC(v);
  const [pCmd, pArgv] = portCommand(portArgs(v)); // what npm start runs
  const typed = moves.map(m => m + '\n').join('');
  const replies = pos.replies ?? 1;
  const search = typed + '\n'.repeat(replies), base = typed; // with and without the engine's moves
  const c: Timed[] = [], p: Timed[] = [], cBase: Timed[] = [], pBase: Timed[] = [];
  for (let r = 0; r < reps; r++) {
    for (const [input, cs, ps, kind] of [[search, c, p, 'search'], [base, cBase, pBase, 'typed moves only']] as const) {
      const ct = await timed(cExe, [], input, false);
      if (ct.res.code !== 0 || ct.res.signal) throw new Error(`C failed on ${pos.name}: exit ${ct.res.code}\n${ct.res.stderr}`);
      if (cs.length) check(`${pos.name} (${kind}), C run ${r + 1}`, cs[0].res, ct.res); // C is deterministic
      cs.push(ct);
      const pt = await timed(pCmd, pArgv, input, true);
      check(`${pos.name} (${kind}), port run ${r + 1}`, cs[0].res, pt.res);
      ps.push(pt);
      log(`  ${pos.name} ${kind} ${r + 1}/${reps}: C ${sec(ct.ms)} s, port ${sec(pt.ms)} s`);
    }
    if (r === 0) {                                       // the typed moves were all played
      const printed = parseBoards(c[0].res.stdout);
      for (let k = 0; k < boards.length; k++) {
        if (!printed[k] || !sameBoard(printed[k], boards[k])) {
          throw new Error(`${pos.name}: board after typed line ${k} is not the expected one` +
            ` (move ${moves[k - 1] ?? '-'} rejected?)\nexpected:\n${showBoard(boards[k])}\nprinted:\n` +
            (printed[k] ? showBoard(printed[k]) : '(none)'));
        }
      }
      const after = printed.slice(boards.length);        // one new board per engine move
      if (after.length !== replies || after.some((bd, k) => sameBoard(bd, printed[boards.length - 1 + k]))) {
        throw new Error(`${pos.name}: the engine did not make its ${replies} move(s)`);
      }
    }
  }
  const found = searches(c[0].res.stdout);
  if (found.length !== replies) throw new Error(`${pos.name}: ${found.length} searches traced, not ${replies}`);
  const ply = found.map(t => t.ply).join(' + '), nodes = found.reduce((sum, t) => sum + t.nodes, 0);
  const searchMs = (ts: Timed[], bs: Timed[]): number => median(ts.map(t => t.ms)) - median(bs.map(t => t.ms));
  const opt = (xs: (number | undefined)[]): number | undefined =>
    xs.every((x): x is number => x !== undefined) ? median(xs) : undefined;
  const cpu = c.map((t, k) => t.cpuS !== undefined && p[k].cpuS !== undefined ? p[k].cpuS! / t.cpuS : undefined);
  return {
    pos, ply, nodes,
    cMs: median(c.map(t => t.ms)), pMs: median(p.map(t => t.ms)),
    ratio: median(c.map((t, k) => p[k].ms / t.ms)), cpuRatio: opt(cpu),
    cNps: nodes / searchMs(c, cBase) * 1000, pNps: nodes / searchMs(p, pBase) * 1000,
    cRss: opt(c.map(t => t.rssKB)), pRss: opt(p.map(t => t.rssKB)),
  };
}

/** Per-line cost of clearing the hash table (and the legality check of a rejected move). */
async function benchClear(reps: number): Promise<{ c: number[]; p: number[]; cT: number[][]; pT: number[][] }> {
  const cExe = buildC({ opt: 'O2' });
  const [pCmd, pArgv] = portCommand();
  const one = 'a1a1\n', many = 'a1a1\n'.repeat(201);
  const cT: number[][] = [[], []], pT: number[][] = [[], []];
  let ref1: Result | undefined, refN: Result | undefined;
  for (let r = 0; r < reps; r++) {
    for (const [k, input] of [[0, one], [1, many]] as const) {
      const ct = await timed(cExe, [], input, false);
      const pt = await timed(pCmd, pArgv, input, true);
      const ref = k ? (refN ??= ct.res) : (ref1 ??= ct.res);
      check(`hash clearing (${k ? 201 : 1} lines), C run ${r + 1}`, ref, ct.res);
      check(`hash clearing (${k ? 201 : 1} lines), port run ${r + 1}`, ref, pt.res);
      cT[k].push(ct.ms); pT[k].push(pt.ms);
    }
    log(`  hash clearing ${r + 1}/${reps}: C ${cT[0][r].toFixed(0)}/${cT[1][r].toFixed(0)} ms, ` +
      `port ${pT[0][r].toFixed(0)}/${pT[1][r].toFixed(0)} ms (1/201 lines)`);
  }
  const per = (t: number[][]): number[] => t[0].map((x, k) => (t[1][k] - x) / 200);
  return { c: per(cT), p: per(pT), cT, pT };
}

async function benchStartUp(reps: number): Promise<{ name: string; ms: number }[]> {
  const [nodeCmd, nodeArgv] = sourceCommand();
  const [jsCmd, jsArgv] = portCommand();
  const tsxBin = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const launchers: { name: string; cmd: string; argv: string[] }[] = [
    { name: 'C (-O2)', cmd: buildC({ opt: 'O2' }), argv: [] },
    { name: '`node dist/micromax.js` (what `npm start` runs, built by `npm run build`)', cmd: jsCmd, argv: jsArgv },
    { name: '`npm start`', cmd: 'npm', argv: ['start', '--silent'] },
    { name: '`node --import tsx micromax.ts` (no build step)', cmd: nodeCmd, argv: nodeArgv },
    { name: '`tsx micromax.ts` (node_modules/.bin)', cmd: tsxBin, argv: ['micromax.ts'] },
    { name: '`npx tsx micromax.ts`', cmd: 'npx', argv: ['tsx', 'micromax.ts'] },
  ];
  const times = launchers.map(() => [] as number[]);
  for (let r = 0; r < reps; r++) {
    for (let k = 0; k < launchers.length; k++) times[k].push(await startUp(launchers[k].cmd, launchers[k].argv));
    log(`  start-up ${r + 1}/${reps}: ` + times.map(t => t[r].toFixed(0)).join(', ') + ' ms');
  }
  return launchers.map((l, k) => ({ name: l.name, ms: median(times[k]) }));
}

function machineNote(): string {
  const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const gcc = spawnSync('gcc', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  const version = (pkg: string): string => {
    try {
      return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
    } catch { return '?'; }
  };
  const load = os.loadavg().map(x => x.toFixed(2)).join(' ');
  return `Machine: ${model}, ${os.cpus().length} logical CPUs (load average at start ${load}); ` +
    `node ${process.version}, typescript ${version('typescript')}, tsx ${version('tsx')}; ${gcc}.`;
}

const USAGE = `usage: npm run bench -- [--quick] [--reps N]
  --quick   smoke run: 1 repetition, two positions, fewer start-up runs
  --reps N  alternating C/port runs per position (default 3)`;

async function main(): Promise<number> {
  const { values } = readOptions('bench', USAGE, { quick: { type: 'boolean' }, reps: { type: 'string' } });
  const quick = values.quick ?? false;
  let reps = whole('bench', 'reps', values.reps, 1);
  reps ??= quick ? 1 : 3;
  const why = whyNoC();
  if (why) {
    process.stderr.write(`bench: cannot run the C oracle: ${why}\n` +
      'bench: set MICROMAX_C to the path of micromax-3.2.c and install gcc\n');
    return 2;
  }
  const note = machineNote();
  log(`bench: the port runs on Node ${process.version} (${process.execPath})`);
  const positions = POSITIONS.filter(p => !quick || p.quick);
  const startReps = quick ? 3 : Math.max(5, 3 * reps);

  const rows: Row[] = [];
  for (const pos of positions) {
    log(`${pos.name}: --nodes ${pos.nodes}, ${reps} alternating C/port runs`);
    rows.push(await benchPosition(pos, reps));
  }
  log(`hash clearing: 1 and 201 rejected lines, ${reps} runs`);
  const clear = await benchClear(reps);
  log(`start-up: ${startReps} runs of each launcher`);
  const starts = await benchStartUp(startReps);

  const lines: string[] = [];
  const runs = `${reps} alternating run${reps > 1 ? 's' : ''}`;
  lines.push(`### Benchmark: port on Node ${process.version} vs C (-O2), median of ${runs}`, '');
  lines.push('| position | --nodes | searched (last trace line) | C wall | port wall | port/C wall | port/C search | port/C CPU | C nodes/s | port nodes/s | C peak RSS | port peak RSS |');
  lines.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    lines.push(`| ${r.pos.label} | ${r.pos.nodes.toExponential().replace('e+', 'e')} | ${r.nodes.toLocaleString('en-US')} (${r.ply} ply) | ` +
      `${sec(r.cMs)} s | ${sec(r.pMs)} s | ${r.ratio.toFixed(2)} | ${(r.cNps / r.pNps).toFixed(2)} | ${r.cpuRatio?.toFixed(2) ?? 'n/a'} | ` +
      `${(r.cNps / 1e6).toFixed(2)} M | ${(r.pNps / 1e6).toFixed(2)} M | ${mb(r.cRss)} | ${mb(r.pRss)} |`);
  }
  lines.push('', `The port ran on Node ${process.version}. All outputs (boards and per-iteration trace lines, ` +
    'node counts included) byte-identical to the C.');
  lines.push('Wall: the whole process (start-up, typed moves, search). Nodes/s: over the search alone (wall time ' +
    'minus that of the same input without the final empty line); port/C search is the ratio of those. CPU: user+system. ' +
    `GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? '(unset)'} (npm run bench sets glibc.malloc.hugetlb=1: huge pages for the port's hash arrays; the C's table is static and gets none). ` +
    (haveGnuTime ? 'Peak RSS and CPU: GNU time (`/usr/bin/time -v`).'
      : 'Peak RSS and CPU of the port: its own process.resourceUsage() at exit (no GNU time here: n/a for the C).'));

  const med = (xs: number[]): string => `${median(xs).toFixed(1)} ms`;
  const pPer = median(clear.p);
  lines.push('', '| start-up (spawn to first board on stdout) | median of ' + startReps + ' |', '|---|--:|');
  for (const s of starts) lines.push(`| ${s.name} | ${Number.isNaN(s.ms) ? 'n/a' : s.ms.toFixed(0) + ' ms'} |`);
  lines.push('', '| per input line (clear the hash, check a rejected move `a1a1`) | 1 line | 201 lines | per line |',
    '|---|--:|--:|--:|');
  lines.push(`| C (-O2) | ${med(clear.cT[0])} | ${med(clear.cT[1])} | ${med(clear.c)} |`);
  lines.push(`| port (\`node dist/micromax.js\`) | ${med(clear.pT[0])} | ${med(clear.pT[1])} | ${med(clear.p)} |`);
  lines.push('', `Port per-line cost ${pPer.toFixed(1)} ms: target <= 15 ms ${pPer <= 15 ? 'met' : 'NOT met'}.`);
  lines.push('', note);
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  // an Exit (--help, a bad option) carries its own code; anything else is a failure
  code = err instanceof Exit ? err.code : 1;
  if (err instanceof Mismatch) {
    process.stderr.write(`\nbench: FAIL: outputs are not byte-identical\n${err.message}\n`);
  } else if (!(err instanceof Exit)) {
    process.stderr.write(`\nbench: FAIL: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  }
} finally {
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
}
process.exitCode = code;
