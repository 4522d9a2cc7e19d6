// `test/PORTING.md`, the guide for testers and porters, kept true: its worked example's commands
// run as a reader runs them (bash, from the project's folder, `MICROMAX_C` set), and what it shows
// each printing there, line by line (… stands for what changes from run to run); every command and
// option it names exists; the stream format it documents, the header too, is the one the C and the
// port write (`support/calls.ts`'s); its formulas read right under C's precedence and are the
// reference logger's own; what it says of a line and of the trace record (`=`) is what the C holds;
// every `when` of the scripts said, and what `--quick` leaves out run by `conformance` as said; its
// cost table is `conformance --list`'s and its counts `streams.tsv`'s; glibc's `random()` as it
// describes it gives the C's first values and key table, `T`'s first bytes and the keys of a2a3 as
// the C's stream has them; step 4's command, a script's flags pasted, runs for every flag set of
// `scripts.tsv`; section 6's table is one block; the quick run's cost, the full run's totals and
// what only it sees; a crash is a difference, a program that cannot start exit 2; `main()` passes E
// -128 as it says; every path it names is there from the project's root.
//
// time: 52 s

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cSource, traceOf, whyNoC } from './support/c-oracle.ts';
import { ROOT, toolArgv } from './support/run.ts';
import { MANIFEST, SCRIPTS } from './support/scripts.ts';
import { readStreamList, storedLines } from './support/stored-calls.ts';

const GUIDE = fs.readFileSync(path.join(ROOT, 'test', 'PORTING.md'), 'utf8');
const noC = whyNoC() ? `skipped: ${whyNoC()}` : false;

/** The text of a section of the guide ('1.' for section 1). */
function section(name: string): string {
  const start = GUIDE.indexOf(`\n## ${name}`);
  assert.ok(start >= 0, `the guide has a section ${name}`);
  const end = GUIDE.indexOf('\n## ', start + 1);
  return GUIDE.slice(start, end < 0 ? undefined : end);
}

/** The fenced blocks of a section of the guide, in order: their language and text. */
function blocks(name: string): { lang: string; text: string }[] {
  return [...section(name).matchAll(/\n```(\w+)\n([\s\S]*?)\n```\n/g)].map((m) => ({ lang: m[1], text: m[2] }));
}

/** The inline code spans of a text (outside fenced blocks). */
const spans = (text: string): string[] =>
  [...text.replace(/\n```[\s\S]*?\n```\n/g, '\n').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

/** Where a C expression mixes a bitwise operator and a comparison at one level of parentheses: C
 *  binds the comparison first (`x & 7 < 3` is `x & (7 < 3)`), which a formula never means. */
function precedenceTrap(expr: string): string | undefined {
  const levels: { bits: boolean; compares: boolean }[] = [{ bits: false, compares: false }];
  const tokens = expr.match(/->|&&|\|\||==|!=|<=|>=|<<|>>|[()[\]&|^<>]|[^()[\]&|^<>=!-]+|[=!-]/g) ?? [];
  for (const t of tokens) {
    const at = levels[levels.length - 1];
    if (t === '(' || t === '[') levels.push({ bits: false, compares: false });
    else if (t === ')' || t === ']') levels.pop();
    else if (t === '&' || t === '|' || t === '^') at.bits = true;
    else if (['<', '>', '<=', '>=', '==', '!='].includes(t)) at.compares = true;
    if (at && at.bits && at.compares) return expr;
  }
  return undefined;
}

/** Each line of `want` is in `got`, in order; … in a line matches anything. */
function shows(got: string, want: string, what: string): void {
  const lines = got.split('\n');
  let at = 0;
  for (const w of want.split('\n')) {
    const re = new RegExp(`^${w.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    const found = lines.findIndex((l, k) => k >= at && re.test(l));
    assert.ok(found >= 0, `${what}: the guide shows ${JSON.stringify(w)}, not printed (after line ${at}):\n${got}`);
    at = found + 1;
  }
}

test('the worked example: every command runs and prints what the guide shows', { skip: noC, timeout: 300_000 }, () => {
  const all = blocks('5. A worked example');
  const sh = all.filter((b) => b.lang === 'sh');
  assert.ok(sh.length >= 5, 'the worked example has its commands');
  // run in one shell, as a reader pastes them; each block's output marked off
  const script = ['set -u', 'exec 2>&1', ...sh.map((b, k) => `echo "@@@ ${k}"\n${b.text}`), 'echo "@@@ end"', 'rm -rf "$W"'].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env }, timeout: 280_000 });
  const out = r.stdout + r.stderr;
  assert.match(r.stdout, /@@@ end\n$/, out);          // (stderr goes with stdout, in order)
  assert.doesNotMatch(out, /\n\s+at |Error:/, 'no stack anywhere');
  const parts = r.stdout.split(/^@@@ \S+\n/m).slice(1);
  // each sh block is followed by the text block of what it prints
  let k = -1;
  for (const b of all) {
    if (b.lang === 'sh') k++;
    else shows(parts[k], b.text, `block ${k + 1}`);
  }
});

test('the guide names only commands and options that exist, and says the stream as the tools write it', () => {
  const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as object);
  for (const [, name] of GUIDE.matchAll(/npm run (?:-s )?([\w:-]+)/g)) assert.ok(scripts.includes(name), `npm run ${name}`);
  const usage = (tool: string): string => spawnSync(process.execPath, toolArgv(tool, ['--help']), { cwd: ROOT, encoding: 'utf8' }).stdout;
  const helps: Record<string, string> = {};
  for (const [, tool, rest] of GUIDE.matchAll(/npm run (?:-s )?(compare|calls|conformance|tree) -- ([^`\n]*)/g)) {
    helps[tool] ??= usage(tool);
    for (const [, option] of rest.matchAll(/(--[a-z]+)/g)) {
      assert.match(helps[tool], new RegExp(`\\n {2}${option}[ =]`), `${tool} ${option}`);
    }
  }
  // the line kinds of the guide's table are the ones the stream format (test/support/calls.ts) has
  const kinds = [...GUIDE.matchAll(/^\| `([%@>#!s=<]) /gm)].map((m) => m[1]);
  assert.deepEqual(kinds.sort(), ['%', '!', '#', '<', '=', '>', '@', 's'].sort());
  const calls = fs.readFileSync(path.join(ROOT, 'test', 'support', 'calls.ts'), 'utf8');
  for (const line of ['% micro-Max 3.2 calls: nodes N', '@ b0 .. b63', '> MOVE k q l e J Z E z n N SUM PROBE [^]', '# w x y',
    '! d m c X Y', 's SLOT d v X Y', '= d N m X Y', '< v N', 'e SLOT i', 'h SLOT i d v X Y']) {
    assert.ok(calls.includes(line), `calls.ts documents ${line}`);
    assert.ok(GUIDE.includes(line.replace('..', '…')), `the guide documents ${line}`);
  }
});

test('the guide\'s formulas read right in C, and the MOVE rule is the reference logger\'s own', () => {
  const rules = section('1.') + section('4.');
  assert.deepEqual(spans(rules).filter((x) => precedenceTrap(x)), [], 'write (o[x] & 7) < 3, not o[x] & 7 < 3');
  assert.equal(precedenceTrap('o[x] & 7 < 3'), 'o[x] & 7 < 3');                 // (the check itself)
  assert.equal(precedenceTrap('(o[x] & 7) < 3 && (b[z] & 7) == 7'), undefined);
  // the MOVE rule's formulas, each in the instrumented C's logger (support/calls.ts), and its names one set
  const move = /\n- \*\*MOVE\*\*[\s\S]*?\n(?=- \*\*|\n)/.exec(section('4.'))?.[0] ?? '';
  const logger = fs.readFileSync(path.join(ROOT, 'test', 'support', 'calls.ts'), 'utf8');
  const formulas = spans(move).filter((x) => /[&|<>=!]/.test(x));
  assert.ok(formulas.length >= 5, move);
  for (const f of formulas) assert.ok(logger.includes(f), `the MOVE rule's \`${f}\` is the C logger's`);
  // every name a formula uses is D()'s argument or named in the rule's prose (`x`, the from-square)
  const named = new Set([...'kqleJZEzn', ...spans(move).filter((x) => /^[A-Za-z]$/.test(x))]);
  for (const f of formulas) {
    for (const [name] of f.matchAll(/\b[A-Za-z]\b/g)) assert.ok(named.has(name), `\`${f}\` uses ${name}, which the rule does not name`);
  }
});

test('section 1 says what a line is as the C reads it; the = record lists the trace printf\'s arguments, and its example is a ' +
  'pass of the C\'s own', { skip: noC }, () => {
  const c = fs.readFileSync(cSource()!, 'utf8');
  const end = /getchar\(\)\)\s*>\s*(\d+)\)/.exec(c);
  assert.ok(end, 'the C\'s input loop');
  assert.match(section('1.'), new RegExp(`A \\*\\*line\\*\\* of input[^.]*the first byte ≤ ${end[1]} `));
  const row = GUIDE.split('\n').find((l) => l.startsWith('| `= d N m X Y`')) ?? '';
  for (const arg of traceOf(c).args.split(',')) assert.ok(row.includes(`\`${arg.trim()}\``), `the = row names ${arg}`);
  // `= 1 41 1385 h1 g1` is the second pass promotion's stream stores, and the trace line the golden file has for it
  const [, record, traced] = /: `(= [^`]+)` is the trace's `([^`]+)`/.exec(row) ?? [];
  assert.equal(record, storedLines('promotion')!.filter((l) => l[0] === '=')[1]);
  const trace = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'golden', 'promotion.out'), 'latin1').split('\n')
    .filter((l) => / ply, /.test(l))[1];
  assert.equal(traced, trace.trim());
  assert.match(row, /as squares' names, where the trace prints them in hex/);
});

test('section 1 and the commands\' table: a program that cannot start is exit 2, one that crashes a difference; flush', () => {
  const one = section('1.').replace(/\s+/g, ' ');
  assert.match(one, /A CMD that the shell cannot find or run \(exit 127 or 126\) cannot be compared: exit 2/);
  assert.match(one, /has \*\*crashed\*\*, printed or not: a difference, exit 1, reported per script \(`CRASH`\)/);
  assert.match(one, /Flush stdout before each read of input, and flush the stream/);
  assert.match(GUIDE.replace(/\s+/g, ' '), /a program that cannot start \(the shell cannot find it or run it: exit 127 or 126\)/);
});

test('the guide names every `when` of the scripts, and what --quick leaves out; conformance runs them as it says', { timeout: 60_000 },
  () => {
    const three = section('3.');
    for (const when of new Set(SCRIPTS.map((x) => (x.long ? 'long' : x.slow ? 'slow' : 'always')))) {
      assert.ok(three.includes(`\`${when}\``), `section 3 says what \`${when}\` means`);
    }
    const conformance = (...args: string[]): string[] => spawnSync(process.execPath,
      toolArgv('conformance', ['--program', 'true', ...args]), { cwd: ROOT, encoding: 'utf8' })
      .stdout.split('\n').filter((l) => l.startsWith('DIFFER')).map((l) => l.split(/ +/)[1]);
    const all = conformance(), quick = conformance('--quick');
    const costly = readStreamList().filter((r) => !r.quick).map((r) => r.name);
    assert.deepEqual(all, SCRIPTS.map((x) => x.name), 'without --quick: every row, slow and long ones too');
    assert.deepEqual(quick, SCRIPTS.filter((x) => !x.slow && !costly.includes(x.name)).map((x) => x.name),
      '--quick: neither slow nor long rows, nor those streams.tsv marks quick no');
    const flat = three.replace(/\s+/g, ' ');
    assert.match(flat, /`--quick` leaves out both, `slow` and `long`, and the rows that/);
    const left = SCRIPTS.filter((x) => !x.slow && costly.includes(x.name)).map((x) => `\`${x.name}\``);
    const named = left.length > 1 ? `${left.slice(0, -1).join(', ')} and ${left.at(-1)}` : left.join('');
    assert.ok(flat.includes(`(today ${named})`), `section 3 names the rows --quick leaves out: (today ${named})`);
  });

test('section 3\'s cost table is what conformance --list prints, and its figures are streams.tsv\'s', () => {
  const r = spawnSync(process.execPath, toolArgv('conformance', ['--list']),
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const listed = blocks('3.').find((b) => b.text.startsWith(`${SCRIPTS.length} scripts of test/fixtures/scripts.tsv; the C's`));
  assert.equal(listed?.text, r.stdout.trimEnd(), 'section 3 shows npm run conformance -- --list as it prints');
  const rows = readStreamList(), whole = rows.filter((x) => x.stored === x.calls);
  const stored = rows.reduce((t, x) => t + x.stored, 0);
  const flat = GUIDE.replace(/\s+/g, ' ');
  assert.ok(flat.includes(`that the stored streams hold, ${stored.toLocaleString('en-US')} of them`), `the stored calls: ${stored}`);
  assert.ok(flat.includes(`${whole.length} of the ${SCRIPTS.length}`), `${whole.length} of the scripts are stored whole`);
  assert.ok(flat.includes(`For the ${rows.length - whole.length} whose whole stream is bigger`));
  const big = Math.max(...whole.map((x) => x.calls));
  assert.ok(flat.includes(`every script's below ${(Math.ceil(big / 10000) * 10000).toLocaleString('en-US')} calls`));
});

test('section 7\'s figures: glibc\'s random() as the guide describes it gives the C\'s first values and key table', () => {
  // r[0] = 1; r[i] = 16807 r[i-1] mod (2^31 - 1), i = 1..30; r[i] = r[i-31], i = 31..33;
  // r[i] = r[i-31] + r[i-3] (32 bits), i >= 34; output k = r[k+344] >> 1: written from the guide's words
  const seven = section('7.').replace(/\s+/g, ' ');
  for (const rule of ['`r[0] = 1`', '`r[i] = 16807 · r[i-1] mod 2147483647` for i = 1 to 30', '`r[i] = r[i-31]` for i = 31 to 33',
    '`r[i] = r[i-31] + r[i-3]`, wrapping at 32 bits, for i ≥ 34', 'the k-th output (k = 0, 1, …) is `r[k+344] >> 1`, unsigned']) {
    assert.ok(seven.includes(rule), `section 7 says ${rule}`);
  }
  const r: number[] = [1];
  for (let i = 1; i <= 30; i++) r.push(Number((16807n * BigInt(r[i - 1])) % 2147483647n));
  for (let i = 31; i <= 33; i++) r.push(r[i - 31]);
  const out = (k: number): number => {
    while (r.length <= k + 344) r.push((r[r.length - 31] + r[r.length - 3]) >>> 0);
    return r[k + 344] >>> 1;
  };
  const facts = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'golden', 'keytable.txt'), 'utf8');
  const first = /^random (.*)$/m.exec(facts)![1];
  assert.equal([0, 1, 2, 3, 4].map(out).join(' '), first);
  assert.ok(seven.includes(`The first five are ${first}.`), 'the guide gives the first five');
  const T = new Int8Array(1035);
  for (let i = 136; i < 1035; i++) T[i] = out(i - 136) >> 9;
  const view = new DataView(T.buffer), ints = /^T-int32 (.*)$/m.exec(facts)![1].split(' ');
  assert.deepEqual([136, 500, 1031].map((o) => String(view.getInt32(o, true))), ints);
  assert.ok(seven.includes(`the ints at offsets 136, 500 and 1031 are ${ints[0]}, ${ints[1]} and ${ints[2]}`));
  // the check values: T's first bytes (the table so made is the C's: its sha256), and the keys of a2a3 by K(A,B)
  assert.equal(createHash('sha256').update(T).digest('hex'), /^T-sha256 (.*)$/m.exec(facts)![1]);
  assert.ok(seven.includes(`\`T[136]\` to \`T[143]\`, as signed chars, ${[...T.subarray(136, 144)].join(' ')}`), 'T\'s first bytes');
  const K = (at: number): number => view.getInt32(at, true);
  const sq = (name: string): number => 16 * (56 - name.charCodeAt(1)) + name.charCodeAt(0) - 97;   // a3: 80
  const at = (square: string, piece: number, A = 0): number => square === '' ? 0 : sq(square) + A + (piece & 8) + 128 * (piece & 7);
  const [before, after] = [32 + 8 + 1, 8 + 1];
  const J = (1 + K(at('a3', after)) - K(at('a2', before)) - K(sq('a3'))) | 0, Z = (1 + K(at('a3', after, 8)) - K(at('a2', before, 8))) | 0;
  const slot = (((16 * 128) ^ J) & (16777224 - 9)) + 1;
  const call2 = storedLines('castle-kingside')!.filter((l) => l[0] === '>')[1].split(' ');
  assert.deepEqual([call2[1], call2[6], call2[7], call2[14]], ['a2a3', String(J), String(Z), String(slot)], 'the C\'s call 2');
  const sum = (name: string, a: number, b: number, v: number): string => `\`${name} = 1 + K(${a}) - K(${b}) = 1 + ${K(a)} - ${K(b)} = ${v}\``;
  assert.ok(seven.includes(sum('J', at('a3', after), at('a2', before), J)), sum('J', at('a3', after), at('a2', before), J));
  assert.ok(seven.includes(sum('Z', at('a3', after, 8), at('a2', before, 8), Z)), sum('Z', at('a3', after, 8), at('a2', before, 8), Z));
  assert.ok(seven.includes(`\`(16*128^J)&U-9\`, ${slot - 1}, and takes slot ${slot}`));
  assert.equal(K(sq('a3')), 0, 'K(a3, 0) reads T[80], 0');
});

test('section 7\'s out-of-range read: main() passes E = -128 after almost every move (the C\'s own stored stream)', () => {
  const lines = storedLines('random-games')!, tops: string[] = [];        // (183 typed moves: a check each)
  let ply = 0;
  for (const l of lines) {
    if (l[0] === '>' && ply++ === 0) tops.push(l.split(' ')[8]);
    else if (l[0] === '<') ply--;
  }
  const minus = tops.filter((E) => E === '-128').length;
  assert.ok(tops.length > 100 && minus / tops.length > 0.9, `${minus} of ${tops.length} calls from main() have E -128`);
  assert.match(section('7.').replace(/\s+/g, ' '), /128 stored in a char is -128\. So the C reads `b\[-128\]`/);
});

test('every path the guide names is there from the project\'s root', () => {
  assert.doesNotMatch(GUIDE, /this folder/, 'the project\'s root, not "this folder"');
  assert.match(GUIDE, /Run every command from the project's root/);
  const paths = spans(GUIDE).filter((x) => /^(\.\.\/|test\/|micromax\.ts$|package\.json$)/.test(x) && !/[ $*…]/.test(x));
  assert.ok(paths.length >= 6, paths.join(' '));
  for (const p of paths) assert.ok(fs.existsSync(path.join(ROOT, p)), `${p} is there from the project's root`);
});

test('section 6\'s table is one block of rows: no line inside it that is not a row', () => {
  const lines = section('6.').split('\n');
  const head = lines.findIndex((l) => l.startsWith('| planted change |'));
  assert.ok(head > 0, 'section 6 has its table');
  const end = lines.findIndex((l, k) => k > head && !l.startsWith('|'));
  assert.equal(lines[end], '', `the table ends at an empty line, not at: ${lines[end]}`);
  assert.ok(lines.slice(end).every((l) => !/^\| `[\w-]+`/.test(l)), 'no row of the table after a line that is not one');
});

test('section 3\'s figures: the quick run\'s cost in step 4 and section 3, the full run\'s totals, what only the full run sees', () => {
  const quick = spawnSync(process.execPath, toolArgv('conformance', ['--list', '--quick']),
    { cwd: ROOT, encoding: 'utf8' }).stdout.trim().split('\n').at(-1)!;
  const [, all, hundred, two] = /^in all: the C (.+?) of CPU; a port 100 times slower (.+?), two scripts at a time about (.+?);/
    .exec(quick) ?? [];
  assert.ok(two, quick);
  const flat = GUIDE.replace(/\s+/g, ' ');
  assert.ok(flat.includes(`for a port 100 times slower than the C, two scripts at a time about ${two};`), `step 4 says ${two}`);
  assert.ok(flat.includes(`\`in all: the C ${all} of CPU; a port 100 times slower ${hundred}, two scripts at a time about ${two}\``));
  // the full run's summary: every golden file's bytes, every stored call
  const rows = readStreamList(), whole = rows.filter((r) => r.stored === r.calls).length;
  const bytes = SCRIPTS.reduce((t, x) => t + fs.statSync(path.join(ROOT, x.expected)).size, 0);
  const calls = rows.reduce((t, r) => t + r.stored, 0), n = (x: number): string => x.toLocaleString('en-US');
  assert.ok(flat.includes(`\`all ${SCRIPTS.length} scripts identical to the C, byte for byte (${n(bytes)} bytes) and call by call ` +
    `(${n(calls)} calls: all of ${whole} scripts, the first ones of ${rows.length - whole})\``), 'section 3\'s summary');
  assert.ok(flat.includes(`\`all ${SCRIPTS.length} scripts identical to the C, byte for byte (…) and call by call (…)\``), 'step 5');
  // what only the full run sees: the scripts --quick leaves out, last-pass's nodes, the two long searches' calls
  const full = section('3.').slice(section('3.').indexOf('### What only the full run sees')).replace(/\s+/g, ' ');
  const out = SCRIPTS.filter((x) => x.slow || rows.find((r) => r.name === x.name)?.quick === false);
  assert.ok(full.includes(`\`--quick\` leaves out ${out.length} of the ${SCRIPTS.length} scripts`), full);
  for (const x of out) assert.ok(full.includes(`\`${x.name}\``), `it names ${x.name}`);
  const last = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'golden', 'last-pass.out'), 'latin1').split('\n')
    .filter((l) => / ply, /.test(l)).at(-1)!;
  const [, depth, nodes] = /^ *(\d+) ply, +(\d+) searched/.exec(last) ?? [];
  assert.equal(depth, '96', 'last-pass ends with its last pass, d = 97: the trace\'s 96 ply');
  assert.ok(full.includes(`\`last-pass\`'s search at its last pass, after ${n(Number(nodes))} nodes`), `last-pass: ${nodes} nodes`);
  assert.ok(flat.includes('So the last pass is d = 97, the trace\'s `96 ply`'));
  const million = (name: string): string => `${(rows.find((r) => r.name === name)!.calls / 1e6).toFixed(1)} million`;
  assert.ok(full.includes(`\`default-trace\`, ${million('default-trace')}`) && full.includes(`\`default-e2e4\`, ${million('default-e2e4')}`));
});

test('step 4\'s command for a script\'s stream, its flags pasted as scripts.tsv has them, runs for every script', { timeout: 120_000 },
  (t) => {
    const flat = GUIDE.replace(/\s+/g, ' ');
    const line = /\n {3}(npm run calls -- --program "CMD" FLAGS test\/fixtures\/inputs\/NAME\.in --out mine\.calls)\n/.exec(GUIDE)?.[1];
    assert.ok(line, 'step 4 gives the command');
    assert.match(flat, /whose flags are FLAGS in `test\/fixtures\/scripts\.tsv` \(the column as it stands, `--nodes 1000 --trace`; nothing for `-`\)/);
    // a stand-in for CMD: it writes the header to --calls PATH and says what it was given
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-pasted-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const cmd = path.join(dir, 'stand-in');
    fs.writeFileSync(cmd, `#!/bin/sh\necho "$*" > ${dir}/args\nwhile [ "$1" != --calls ]; do shift; done\n` +
      'echo "% micro-Max 3.2 calls: nodes 1" > "$2"\n', { mode: 0o755 });
    const byFlags = new Map<string, string>();                  // (the command differs from script to script only in FLAGS and NAME)
    for (const x of SCRIPTS) {
      const raw = fs.readFileSync(MANIFEST, 'utf8').split('\n').find((l) => l.startsWith(`${x.name}\t`))!.split('\t')[1];
      assert.ok(fs.existsSync(path.join(ROOT, 'test', 'fixtures', 'inputs', `${x.name}.in`)), x.name);
      if (!byFlags.has(raw)) byFlags.set(raw, x.name);
    }
    for (const [raw, name] of byFlags) {
      const pasted: string = line!.replace('"CMD"', JSON.stringify(cmd)).replace('FLAGS', raw === '-' ? '' : raw).replace('NAME', name)
        .replace('mine.calls', path.join(dir, 'mine.calls')).replace(/ {2,}/g, ' ');
      const r: ReturnType<typeof spawnSync> = spawnSync('bash', ['-c', pasted], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, `${pasted}\n${r.stdout}${r.stderr}`);
      const args = fs.readFileSync(path.join(dir, 'args'), 'utf8').trim();
      assert.match(args, new RegExp(`^${raw === '-' ? '' : `${raw} `}--calls \\S+$`), `${name}: the program gets the script's flags`);
    }
    assert.ok(byFlags.size >= 4, [...byFlags.keys()].join(', '));
  });
