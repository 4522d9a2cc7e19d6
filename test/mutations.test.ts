// Bugs planted in the C (`test/support/mutations.ts`: twenty-two, each a textual edit of
// `MICROMAX_C` made here, at test time): `compare` finds each behavioural one (the differing field
// marked), with the C as `MICROMAX_C` and run as a program under test (`--program`); five harmless
// rewrites, and the store's depth that no mode can see (`a->D<d`), are identical; a C it cannot
// read is exit 2 in one line. `conformance --calls`, with no C, finds in one run the six porters'
// kinds of bug (unsigned chars, a colour-dependent e.p. square, another random generator, a term
// left out of a key, a division that floors, a node limit tested with `<=`: only
// `node-limit-exact`) on five scripts; the five bugs of a Java port's first run (an exception and a
// stack overflow when a castling is played, `readLine()`'s line ends, a table 8 entries short, keys
// with sign extension) are each refuted by `conformance --calls --quick`, exit 1, by the scripts
// that show it and only them (nine), crashes said as `CRASH` and the scripts after them run; a
// missing program is exit 2 in one line. In the long run: the table in `test/PORTING.md`, which
// mode finds which bug, recomputed, and `conformance --calls` on the quick run's 30 scripts for
// every bug, which must find all twenty-two.
//
// time: 131 s

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { compareStreams } from './support/calls-diff.ts';
import { buildCallsC, buildPort, fromArray, runCalls } from './support/calls.ts';
import { cSource, whyNoC } from './support/c-oracle.ts';
import { MUTATIONS, UNSEEN, mutate, type Mutation } from './support/mutations.ts';
import { ROOT, atMost, run, toolArgv } from './support/run.ts';

const noC = whyNoC() ? `skipped: ${whyNoC()}` : false;
// The long run runs the changed C on every quick script (conformance --calls --quick), 20 to 40 s a
// bug (the C clears its 16M-entry table at every input line), and recomputes the guide's table.
const longRun = process.env.MICROMAX_LONG === '1';
const GAME = 'e2e4 e7e5 g1f3 b8c6 f1c4 g8f6', NODES = 3000;    // the table's game: castling is searched
const INPUT = GAME.split(' ').map((m) => `${m}\n`).join('') + '\n';
const GUIDE = path.join(ROOT, 'test', 'PORTING.md');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-mutations-'));
const gate = atMost(2);
const named = (name: string): Mutation => MUTATIONS.find((m) => m.name === name)!;

/** The mutation's C, written to the temporary folder (once). */
const files = new Map<string, string>();
function cOf(m: Mutation): string {
  if (!files.has(m.name)) {
    const file = path.join(dir, `${m.name}.c`);
    fs.writeFileSync(file, mutate(fs.readFileSync(cSource()!, 'utf8'), m));
    files.set(m.name, file);
  }
  return files.get(m.name)!;
}

interface Ran { stdout: string; stderr: string; code: number | null }
/** A tool of test/tools/ run as the tests run it (toolArgv), `env` added to the environment. */
async function tool(name: string, args: string[], env: NodeJS.ProcessEnv = {}, input = ''): Promise<Ran> {
  const r = await gate(() => run(process.execPath, toolArgv(name, args), input, 120_000, { ...process.env, ...env }));
  return { stdout: r.stdout.toString('latin1'), stderr: r.stderr, code: r.code };
}
const noStack = (r: Ran): void => assert.doesNotMatch(r.stderr, /\n\s+at |Error:/, r.stderr);

// ---- the table -------------------------------------------------------------------------------------

type Modes = { bytes: boolean; trace: boolean; calls: boolean; compare: boolean; conformance: boolean; conformanceCalls: boolean };
const COLUMNS = ['bytes', 'trace', 'calls', 'compare', 'conformance', 'conformanceCalls'] as const;

/** conformance --calls --quick on a program: which scripts' bytes differ, which scripts' calls, which crashed, which
 *  were ok, and the exit. */
async function conformance(bin: string, names: string[] = []): Promise<{ bytes: string[]; calls: string[]; crashed: string[];
  ok: string[]; code: number | null; out: Ran }> {
  const r = await tool('conformance', ['--calls', '--quick', '--program', bin, ...names]);
  const lines = r.stdout.split('\n');
  const name = (l: string): string => l.split(/ +/)[1];
  const differ = lines.filter((l) => l.startsWith('DIFFER ')), crashed = lines.filter((l) => l.startsWith('CRASH '));
  return { bytes: differ.filter((l) => / bytes differ: /.test(l)).map(name), calls: differ.filter((l) => /; calls differ/.test(l)).map(name),
    crashed: crashed.map(name), ok: lines.filter((l) => l.startsWith('ok ')).map(name), code: r.code, out: r };
}

/** Which modes find the mutation (true: found). The C's instrumented build, run without --calls,
 *  prints the plain C's bytes (calls.test.ts checks it), so one build serves every mode. */
async function modes(m: Mutation, port: { bytes: Buffer; trace: Buffer; calls: string[] }): Promise<Modes> {
  const bin = buildCallsC(cOf(m));
  const [bytes, trace] = await Promise.all([[], ['--trace']].map((t) =>
    gate(() => run(bin, ['--nodes', String(NODES), ...t], INPUT))));
  const c = runCalls('C', INPUT, { nodes: NODES }, { MICROMAX_C: cOf(m) });
  const v = await compareStreams({ label: 'C', lines: c.lines }, { label: 'port', lines: fromArray(port.calls) });
  c.stop();
  const conf = await conformance(bin);
  assert.equal(conf.code, conf.bytes.length || conf.calls.length || conf.crashed.length ? 1 : 0, conf.out.stdout + conf.out.stderr);
  // (a crash is a difference: the C always exits 0)
  const found = { bytes: !bytes.stdout.equals(port.bytes) || bytes.code !== 0, trace: !trace.stdout.equals(port.trace) || trace.code !== 0,
    calls: !v.same };
  return { ...found, compare: found.bytes || found.calls, conformance: !!(conf.bytes.length || conf.crashed.length),
    conformanceCalls: !!(conf.bytes.length || conf.calls.length || conf.crashed.length) };
}

const mark = (found: boolean): string => found ? 'found' : '—';
const cell = (s: string): string => s.replace(/\|/g, '\\|');   // (a | in a Markdown table's cell)
const edits = (m: Mutation): string => m.same ? 'five rewrites, below' : m.shown ? cell(m.shown)
  : m.edits.map(([a, b]) => `\`${cell(a)}\` → \`${cell(b)}\``).join('; ');
const row = (m: Mutation, f: Modes): string => `| \`${m.name}\`${m.porters || m.java ? ' (ports)' : ''}: ` +
  `${m.same ? m.what.replace(/:.*$/, '') : m.what} | ${edits(m)} | ${COLUMNS.map((k) => mark(f[k])).join(' | ')} |`;

// The table runs every mutation four ways (half a minute of both cores): it is the guide's, checked in
// the long run, which CI runs on every change; the tests below run the tools on the bugs each time.
test('the guide\'s table: which mode of compare finds each planted bug, and no rewrite',
  { skip: noC || (!longRun && 'only in the long run (MICROMAX_LONG=1)'), timeout: 600_000 },
  async () => {
    const [bytes, trace] = await Promise.all([[], ['--trace']].map((t) =>
      run(process.execPath, [buildPort(), '--nodes', String(NODES), ...t], INPUT)));
    const p = runCalls('port', INPUT, { nodes: NODES }), calls: string[] = [];
    for (let l = await p.lines.next(); l !== undefined; l = await p.lines.next()) calls.push(l);
    assert.ok(calls.filter((l) => l[0] === '>').length < 1_000_000, 'within the calls compare runs after identical bytes');
    const found = await Promise.all(MUTATIONS.map((m) => modes(m, { bytes: bytes.stdout, trace: trace.stdout, calls })));
    const table = MUTATIONS.map((m, k) => row(m, found[k]));
    const text = fs.readFileSync(GUIDE, 'utf8');
    const guideRows = text.split('\n').filter((l) => /^\| `[\w-]+`( \(ports\))?: /.test(l));
    assert.deepEqual(guideRows, table, `test/PORTING.md's table should read:\n${table.join('\n')}`);
    for (const [k, m] of MUTATIONS.entries()) {
      const any = COLUMNS.some((c) => found[k][c]);
      if (m.same) assert.ok(!any, `${m.name}: a rewrite must be found by no mode`);
      else assert.ok(found[k].conformanceCalls, `${m.name}: conformance --calls --quick must find every bug`);
    }
    // the sentence under the table counts its columns
    const bugs = MUTATIONS.flatMap((m, k) => m.same ? [] : [found[k]]);
    const n = (c: (typeof COLUMNS)[number]): number => bugs.filter((b) => b[c]).length;
    const flat = text.replace(/\s+/g, ' ');
    const sentence = `On this one game the bytes find ${n('bytes')} of the ${bugs.length} bugs, with \`--trace\` ` +
      `${n('trace')}, \`--calls\` ${n('calls')}, and \`compare\` as it runs by default ${n('compare')}; the golden scripts ` +
      `find ${n('conformance')} byte for byte, and \`conformance --calls --quick\` ${n('conformanceCalls') === bugs.length
        ? 'every one of them' : n('conformanceCalls')}, in one run, with no C.`;
    assert.ok(flat.includes(sentence), `the sentence under the table should read: ${sentence}`);
    const rewritten = named('rewritten');
    for (const [a, b] of rewritten.edits) assert.ok(flat.includes(`\`${a}\` → \`${b}\``), `the guide lists ${a} → ${b}`);
  });

// ---- the commands, as a tester runs them -----------------------------------------------------------

test('compare finds planted bugs in MICROMAX_C, marking the fields that differ; rewrites are identical', { skip: noC, timeout: 300_000 },
  async () => {
    const env = (name: string): NodeJS.ProcessEnv => ({ MICROMAX_C: cOf(named(name)) });
    const args = ['--nodes', String(NODES), '--moves', GAME];
    const script = ['--calls', '--nodes', '1000', 'test/fixtures/inputs/castle-out-of-check.in'];
    const [castling, nullMove] = await Promise.all([tool('compare', script, env('castling-test')),
      tool('compare', script, env('null-move-Z'))]);     // (the guide: what the game's calls miss)
    for (const r of [castling, nullMove]) assert.equal(r.code, 1, r.stdout + r.stderr);
    const [fold, mark_, uchar, same, sameCalls, sameTrace] = await Promise.all([
      tool('compare', ['--calls', ...args], env('key-fold')),
      tool('compare', ['--calls', ...args], env('castling-mark')),
      tool('compare', args, env('unsigned-chars')),                       // the default: bytes, then the calls
      tool('compare', args, env('rewritten')),
      tool('compare', ['--calls', ...args], env('rewritten')),
      tool('compare', ['--trace', '--nodes', '1e4', '--moves', GAME], env('rewritten')),
    ]);
    for (const r of [fold, mark_, uchar, same, sameCalls, sameTrace]) noStack(r);
    assert.equal(fold.code, 1, fold.stdout + fold.stderr);
    assert.match(fold.stdout, /^first difference: call 2 \(ply 1\), line 6 of each stream\n {2}differs: slot \(C \d+, port \d+\)\n {2}in the legality check of input line 1 "e2e4", after no moves\n {2}reached by a2a3\n/);
    assert.equal(mark_.code, 1, mark_.stdout + mark_.stderr);
    // (the C marks the castling e1g1 as no castling: bit 7 set, its signed char below 0)
    assert.match(mark_.stdout, /\n {2}C: {6}a pass end: d 2, m 25, c 0, X e1, Y g1-128\n {2}port: {3}a pass end: d 2, m 25, c 0, X e1, Y g1\n/);
    assert.match(mark_.stdout, /^first difference: inside call 145 \(ply 0\), in its pass 2, line 785 of each stream\n {2}differs: Y \(C g1-128, port g1\)\n {2}in the think for input line 7 "" \(micro-Max moves\), after the moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6\n/);
    assert.equal(uchar.code, 1, uchar.stdout + uchar.stderr);
    assert.match(uchar.stdout, /^identical \(\d+ bytes: [^\n]*\n[^\n]*\nbut the calls of D\(\) differ:\nfirst difference: /);
    assert.match(uchar.stdout, /differs: Y \(C (\w+)\+128, port \1-128: the same byte, read signed on one side and unsigned/);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /\nand call by call: identical \(\d+ calls\)\n$/);
    assert.equal(sameCalls.code, 0, sameCalls.stdout + sameCalls.stderr);
    assert.equal(sameTrace.code, 0, sameTrace.stdout + sameTrace.stderr);
  });

test('the same through --program: a changed C built as a program under test, and one that cannot run', { skip: noC, timeout: 300_000 },
  async () => {
    const bin = (name: string): string => buildCallsC(cOf(named(name)));
    const args = ['--nodes', String(NODES), '--moves', GAME];
    // the C built plainly: no --nodes, and at the end of input it prints boards for ever
    const plain = path.join(dir, 'plain');
    const gcc = spawnSync('gcc', ['-O2', '-std=gnu89', '-w', '-fwrapv', '-fno-strict-aliasing', '-include', 'stdio.h',
      '-include', 'stdlib.h', '-o', plain, cSource()!], { encoding: 'utf8' });
    assert.equal(gcc.status, 0, gcc.stderr);
    const typed = [path.join(dir, 'typed.in')];             // (no empty line: no search at its own limit)
    fs.writeFileSync(typed[0], 'e2e4\ne7e5\n');
    const [endless, endlessCalls] = await Promise.all([tool('compare', ['--program', plain, '--nodes', '1000', ...typed]),
      tool('compare', ['--calls', '--program', plain, '--nodes', '1000', ...typed])]);
    for (const r of [endless, endlessCalls]) noStack(r);
    assert.equal(endless.code, 1, endless.stdout + endless.stderr);
    assert.match(endless.stdout, /^\(it was stopped after printing 16 kB more than the C: does it end at the end of input\? [^\n]*\n/);
    assert.match(endless.stdout, /\nfirst difference at byte \d+, line \d+ \(C (\d+) bytes, other more than \d+ bytes \(stopped reading\)\)\n/);
    assert.equal(endlessCalls.code, 2, endlessCalls.stdout + endlessCalls.stderr);
    assert.match(endlessCalls.stderr, /^compare: the program \([^\n]*\) wrote no call stream to --calls PATH, not even its header line \([^\n]*\); it was stopped after printing 16 kB/);
    const [knight, fold, same, sameCalls, conform, missing, missingCalls, missingConf] = await Promise.all([
      tool('compare', ['--program', bin('knight-4'), ...args]),
      tool('compare', ['--calls', '--program', bin('key-fold'), ...args]),
      tool('compare', ['--program', bin('rewritten'), '--trace', ...args]),
      tool('compare', ['--calls', '--program', bin('rewritten'), ...args]),
      tool('conformance', ['--program', bin('stand-pat'), 'promotion', 'char-wrap']),
      tool('compare', ['--program', './no-such-port', ...args]),
      tool('compare', ['--calls', '--program', 'no-such-port --fast', ...args]),
      tool('conformance', ['--program', './no-such-port', 'char-wrap']),
    ]);
    for (const r of [knight, fold, same, sameCalls, conform, missing, missingCalls, missingConf]) noStack(r);
    assert.equal(knight.code, 1, knight.stdout + knight.stderr);
    assert.match(knight.stdout, /^first difference at byte \d+, line \d+ \(C \d+ bytes, other \d+ bytes\)\n/);
    assert.match(knight.stdout, /\nin the answer to input line 7 "" \(micro-Max moves\), after the moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6\n/);
    const shown = /For the table's `knight-4`[^`]*`[^`]*`\):\n\n```text\n([\s\S]*?)\n```/.exec(fs.readFileSync(GUIDE, 'utf8'));
    assert.equal(shown?.[1], knight.stdout.trimEnd(), 'test/PORTING.md section 2 shows this run');
    assert.equal(fold.code, 1, fold.stdout + fold.stderr);
    assert.match(fold.stdout, /\n {2}differs: slot \(C \d+, other \d+\)\n/);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /\nonly the output, with each root pass's line, was compared: --calls adds /);
    assert.equal(sameCalls.code, 0, sameCalls.stdout + sameCalls.stderr);
    assert.match(sameCalls.stdout, /^identical: \d+ calls\n$/);
    assert.equal(conform.code, 1, conform.stdout + conform.stderr);
    assert.match(conform.stdout, /\nDIFFER promotion +first difference at byte \d+, [^\n]*\nok {5}char-wrap +432 bytes/);
    assert.match(conform.stdout, /\n1 of 2 scripts differ: promotion \(/);
    for (const r of [missing, missingCalls, missingConf]) {
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /^(compare|conformance): the program cannot run: [^\n]*not found \(exit 127\)[^\n]*\n$/);
    }
  });

test('a C it cannot read or build: exit 2, one line naming the spot or gcc\'s error', { skip: noC, timeout: 120_000 }, async () => {
  const src = fs.readFileSync(cSource()!, 'utf8'), write = (name: string, text: string): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const noTrace = write('no-trace.c', src.replace(/\/\*if\(z==8\)printf\([^\n]*?\*\//, ''));
  const noProbe = write('no-probe.c', src.replace('if(a->K)', 'if(0!=a->K)'));
  const broken = write('broken.c', src.replace('int j,r,m,v,d,h,i=8,F,G;', 'int j,r,m,v,d,h,i=8,F,G'));
  const args = ['--nodes', '1000', '--moves', 'e2e4'];
  const [calls, probe, bytes, gcc] = await Promise.all([
    tool('compare', ['--calls', ...args], { MICROMAX_C: noTrace }),
    tool('compare', ['--calls', ...args], { MICROMAX_C: noProbe }),
    tool('compare', args, { MICROMAX_C: noTrace }),
    tool('compare', args, { MICROMAX_C: broken }),
  ]);
  for (const r of [calls, probe, bytes, gcc]) noStack(r);
  const last = (r: Ran): string => r.stderr.split('\n').filter(Boolean).at(-1)!;
  assert.equal(calls.code, 2);
  assert.equal(last(calls), 'compare: cannot find the commented-out trace line (`/*if(z==8)printf(...);*/`) in the C (MICROMAX_C): is it micro-Max 3.2?');
  assert.equal(probe.code, 2);
  assert.match(last(probe), /^compare: cannot find the hash probe's use \(`if\(a->K\)`\) in the C/);
  assert.equal(bytes.code, 0, 'the bytes compare without the trace line');
  assert.match(bytes.stdout, /\nthe calls were not compared: cannot find the commented-out trace line/);
  assert.equal(gcc.code, 2);
  assert.match(last(gcc), /^compare: gcc failed on the C: MICROMAX_C:\d+:\d+: error: /);
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

// ---- the porters' kind of bug, found by the one command a porter runs first ---------------------------

// The quick scripts whole take the C 20 to 40 s a mutation (the table's last columns, in the long run);
// here five scripts where each of these bugs shows: a castling searched, a black e.p. capture,
// an engine move, a stalemate, a root pass that ends on the node limit.
const FEW = ['castle-kingside', 'en-passant', 'char-wrap', 'stalemate', 'node-limit-exact'];

test('conformance --calls finds each porters\' bug in one run, naming the first call that differs; a rewrite, and the store\'s depth, are identical',
  { skip: noC, timeout: 300_000 }, async () => {
    const porters = MUTATIONS.filter((m) => m.porters);
    assert.deepEqual(porters.map((m) => m.name), ['unsigned-chars', 'ep-colour', 'other-random', 'key-term', 'floor-div', 'node-limit-le']);
    const bins = [...porters, named('rewritten'), UNSEEN].map((m) => buildCallsC(cOf(m)));
    const runs = await Promise.all(bins.map((bin) => conformance(bin, longRun ? [] : FEW)));
    for (const [k, m] of porters.entries()) {
      const r = runs[k];
      noStack(r.out);
      assert.equal(r.code, 1, `${m.name}: ${r.out.stdout}${r.out.stderr}`);
      assert.ok(r.calls.length > 0, `${m.name}: its calls differ somewhere:\n${r.out.stdout}`);
      assert.match(r.out.stdout, /\nDIFFER [\w-]+ +bytes (ok \(\d+\)|differ: [^\n]*); calls differ (at|inside) call \d+ \(ply \d+\)[^\n]*, line \d+: [^\n]*\(C [^\n]*, program [^\n]*\)/);
      assert.match(r.out.stdout, /\nthe first call that differs in [\w-]+, in full:\n {2}first difference: /);
      assert.doesNotMatch(r.out.stdout + r.out.stderr, /undefined/);
    }
    // the bytes alone miss three of them on these scripts: what --calls is for
    assert.deepEqual(runs.slice(0, porters.length).map((r) => r.bytes.length > 0), [false, true, false, false, true, true]);
    // a pass more only where one ends on the limit: node-limit-exact's, and nowhere else
    const le = runs[porters.findIndex((m) => m.name === 'node-limit-le')];
    assert.deepEqual([le.bytes, le.calls, le.crashed], [['node-limit-exact'], ['node-limit-exact'], []], le.out.stdout);
    for (const r of runs.slice(porters.length)) {
      assert.equal(r.code, 0, r.out.stdout + r.out.stderr);
      assert.match(r.out.stdout, /\nall \d+ scripts identical to the C, byte for byte \([\d,]+ bytes\) and call by call \([\d,]+ calls/);
    }
  });

// ---- the bugs of a Java port's first run: each refuted by the quick run, crashes included -------------------

// The scripts where each shows (the quick run's others are ok: a long run checks all of them), with two where none
// does, so that a crash is seen in mid-run with scripts after it.
const JAVA_FEW = ['castle-kingside', 'stale-buffer', 'crlf-line-ends', 'cr-line-ends', 'eof-after-1', 'eof-after-2', 'eof-after-3',
  'table-edge', 'random-games'];
const REFUTED: Record<string, { crashed: string[]; differ: string[] }> = {
  'crash-exception': { crashed: ['castle-kingside', 'castle-queenside', 'castle-black-refused'], differ: [] },
  'crash-stack': { crashed: ['castle-kingside', 'castle-queenside', 'castle-black-refused'], differ: [] },
  'cr-newline': { crashed: [], differ: ['crlf-line-ends', 'cr-line-ends', 'eof-after-1', 'eof-after-3'] },
  'table-short': { crashed: ['table-edge'], differ: [] },
  'key-sign': { crashed: [], differ: ['*'] },                                 // (every script: its keys differ at call 2)
};

test('conformance --calls --quick refutes each bug of a Java port\'s first run, exit 1, naming each script; a crash is said as one, ' +
  'and the scripts after it run', { skip: noC, timeout: 300_000 }, async () => {
  const java = MUTATIONS.filter((m) => m.java);
  assert.deepEqual(java.map((m) => m.name), Object.keys(REFUTED));
  const runs = await Promise.all(java.map((m) => conformance(buildCallsC(cOf(m)), longRun ? [] : JAVA_FEW)));
  for (const [k, m] of java.entries()) {
    const r = runs[k], want = REFUTED[m.name], all = [...r.ok, ...r.crashed, ...new Set([...r.bytes, ...r.calls])];
    const among = (names: string[]): string[] => names[0] === '*' ? all : names.filter((n) => longRun || JAVA_FEW.includes(n));
    noStack(r.out);
    assert.doesNotMatch(r.out.stdout + r.out.stderr, /undefined/);
    assert.equal(r.code, 1, `${m.name}: ${r.out.stdout}${r.out.stderr}`);
    assert.deepEqual(r.crashed, among(want.crashed), `${m.name}: the scripts that crash\n${r.out.stdout}`);
    assert.deepEqual([...new Set([...r.bytes, ...r.calls])].sort(), among(want.differ).filter((n) => !r.crashed.includes(n)).sort(),
      `${m.name}: the scripts that differ\n${r.out.stdout}`);
    assert.equal(all.length, longRun ? r.ok.length + r.crashed.length + new Set([...r.bytes, ...r.calls]).size : JAVA_FEW.length,
      `${m.name}: every script has its line, the ones after a crash too\n${r.out.stdout}`);
    if (want.crashed.length) {
      assert.match(r.out.stdout, /\nCRASH  [\w-]+ +crashed \((exit 1|exit 139, a shell's way of saying signal SIGSEGV|signal SIGSEGV)\)[^\n]*; its bytes were the C's for [\d,]+ of [\d,]+[^\n]*; its calls the C's for [\d,]+ of [\d,]+  /);
      assert.match(r.out.stdout, /\nin [\w-]+, the program crashed: [^\n]*, where the C exits 0\n/);
    }
  }
  // the first line of a Java trace names the error, not its last line (`at MicroMax.main`)
  assert.match(runs[0].out.stdout, /\nCRASH  castle-kingside +crashed \(exit 1\): Exception in thread "main" java\.lang\.ArrayIndexOutOfBoundsException: Index 136 /);
  // test/PORTING.md, section 3, shows table-short's line as conformance prints it (its time aside)
  const shown = /\nCRASH  table-edge .*  (?=[\d.]+ s\n)/.exec(runs[3].out.stdout)?.[0].slice(1);
  assert.ok(shown && fs.readFileSync(GUIDE, 'utf8').includes(shown), `section 3 shows ${shown}`);
  assert.match(shown, /crashed \(exit 1\): Exception in thread "main" java\.lang\.ArrayIndexOutOfBoundsException: Index 16777216 out of bounds for length 16777216; its bytes were the C's for [\d,]+ of 1,872 \(it stopped in the answer to input line 12\)/);
});
