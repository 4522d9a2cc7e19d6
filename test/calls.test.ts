// The call stream (`test/support/calls.ts`) and its tools, `npm run tree`, `npm run compare --
// --calls` and `npm run calls`: the streams of the C and the port are identical on real searches
// (castling, en passant, promotion); on three changed copies of the C the first differing call is
// named right (every call before it the same in both whole streams, that one not), its differing
// field first, the moves to it and the calls around it in the order made; every line of a stream is
// in the documented format; its header, the node limit (and in a file, the input's sha256); `npm
// run calls`, `--stored`, `--stream`, `tree --stream --at` and `--call` with z 9; `tree`'s passes
// are the program's own `--trace` lines, and what `--depth` hides is counted right; the
// instrumented C prints the plain C's bytes. The C's streams stored for `conformance --calls`
// (`test/support/stored-calls.ts`, `fixtures/calls/`) are a few MB, listed whole and still the
// reference C's: the quick run's streams in every run, the six stored in part and their call counts
// in the long run.
//
// time: 188 s

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { compareStreams } from './support/calls-diff.ts';
import { cSource, isReference, whyNoC } from './support/c-oracle.ts';
import { buildCallsC, fromArray, Lines, parse, runCalls, square, type Call, type Event } from './support/calls.ts';
import { traceFigures } from './support/tree.ts';
import { ROOT, atMost, run, runPortSync, toolArgv } from './support/run.ts';
import { SCRIPTS, goldenPath, scriptInput } from './support/scripts.ts';
import { STREAMS, makeStored, readStreamList, storedLines, type Stored } from './support/stored-calls.ts';

const MATE = 'k7/p1K5/1P6/8/8/8/8/8 w - - 0 1';           // the guide's mate in one
const tool = (name: string, args: string[], env: NodeJS.ProcessEnv = process.env): ReturnType<typeof spawnSync> =>
  spawnSync(process.execPath, toolArgv(name, args),
    { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 1 << 28 });
const tree = (...args: string[]): { out: string[]; err: string; status: number | null } => {
  const r = tool('tree', args), lines = String(r.stdout).split('\n');
  return { out: lines.slice(lines.indexOf('') + 1, -1), err: String(r.stderr), status: r.status }; // (below heading)
};
const level = (l: string): number => l.search(/\S/) / 2;

test('tree: the mate in one, and what --depth hides is counted', () => {
  const all = tree('--fen', MATE, '--depth', '9', '--limit', '0'), one = tree('--fen', MATE);
  assert.equal(all.status, 0, all.err);
  assert.equal(one.out.at(-1), 'returns 3999, best b6b7, after 54 nodes and 57 calls');
  assert.equal(all.out.at(-1), one.out.at(-1));
  const calls = (ls: string[]): string[] => ls.filter((l) => / D\(/.test(l));
  assert.equal(calls(all.out).length, 57);
  assert.ok(calls(one.out).every((l) => level(l) <= 1) && calls(one.out).length === 20, one.out.join('\n'));
  const probe = /^ {4}null  D\(8, -8000, 8000, 0, 128, b7, 1\)/;            // the null-move probe after b6b7
  assert.ok(all.out.some((l) => probe.test(l)));
  // each call shown at depth 1 says how many calls it made: the full tree shows that many beneath it
  const deep = calls(all.out), starts = deep.flatMap((l, k) => level(l) === 1 ? [k] : []);
  const shown = calls(one.out).filter((l) => level(l) === 1);
  assert.equal(shown.length, starts.length);
  shown.forEach((l, k) => {
    const made = Number(/→ -?\d+ \((\d+) calls?\)/.exec(l)?.[1] ?? 0), end = starts[k + 1] ?? deep.length;
    assert.equal(end - starts[k] - 1, made, l);
    assert.ok(deep[starts[k]].startsWith(l.slice(0, 40)));
  });
  const rootPasses = (ls: string[]): string[] => ls.filter((l) => /^  pass \d done/.test(l));
  assert.deepEqual(rootPasses(all.out), rootPasses(one.out));
});

test('tree: after moves, its passes are the program\'s own (--trace)', () => {
  const t = tree('--moves', 'e2e4 e7e5', '--nodes', '3000', '--depth', '0');
  assert.equal(t.status, 0, t.err);
  const passes = t.out.filter((l) => /pass \d+ done/.test(l)).flatMap(traceFigures);
  const traced = String(runPortSync('e2e4\ne7e5\n\n', ['--nodes', '3000', '--trace']).stdout).split('\n')
    .map((l) => /^ *(-?\d+) ply, +(\d+) searched, +(-?\d+) by/.exec(l)).filter((m) => m !== null)
    .map((m) => m.slice(1).map(Number));
  assert.ok(passes.length >= 3);
  assert.deepEqual(passes, traced);
  assert.match(t.out[0], /^root  D\(8, -8000, 8000, 0, e6, 8, 0\) +empty$/); // E: e7e5 skipped e6 (O = 0x24)
});

test('tree: --limit stops early; bad moves, FEN and options exit 2 with a reason', () => {
  const t = tree('--limit', '5', '--nodes', '100000');
  assert.equal(t.status, 0, t.err);
  assert.equal(t.out.length, 6);
  assert.equal(t.out[5], '(stopped at --limit 5; --limit 0 shows all)');
  const bad = [
    [['--moves', 'e2e4 e2e4'], /micro-Max does not accept e2e4 there \(move 2\)/],
    [['--moves', 'e2e9'], /'e2e9' is not a move like e2e4/],
    [['--fen', '8/8 w'], /bad FEN: the board needs 8 ranks, not 2/],
    [['--depth', '-1'], /--depth wants a whole number from 0 to 2147483647, not '-1'/],
    [['--fast'], /unknown option '--fast'/],
    [['--nodes'], /--nodes wants a value/],
    [['x'], /unexpected argument 'x'/],
    [['--depth=-1'], /--depth wants a whole number from 0 to \d+, not '-1'/],
  ] as const;
  for (const [args, why] of bad) {
    const r = tree(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.err, why);
    assert.deepEqual(r.out, []);
  }
});

const noC = whyNoC() ? `skipped: ${whyNoC()}` : false;

test('compare --calls: identical on real searches (castling, en passant, promotion)', { skip: noC }, () => {
  for (const args of [['--nodes', '20000', '--moves', 'e2e4 e7e5'], ...['castle-queenside', 'en-passant', 'promotion']
    .map((s) => ['--nodes', '2000', `test/fixtures/inputs/${s}.in`])]) {
    const r = tool('compare', ['--calls', ...args]);
    assert.equal(r.status, 0, String(r.stdout) + String(r.stderr));
    assert.match(String(r.stdout), /^identical: \d{4,} calls\n$/, args.join(' '));
  }
});

/** Every call of a stream, in order: its line, the line of its return, and its caller's index. */
interface Made { line: string; ret: string; up: number }
async function allCalls(side: 'C' | 'port', input: string, nodes: number, env: NodeJS.ProcessEnv): Promise<Made[]> {
  const r = runCalls(side, input, { nodes }, env), open: number[] = [];
  const calls: Made[] = [];
  for (let l = await r.lines.next(); l !== undefined; l = await r.lines.next()) {
    if (l[0] === '>') { calls.push({ line: l, ret: '', up: open.at(-1) ?? -1 }); open.push(calls.length - 1); }
    else if (l[0] === '<') calls[open.pop()!].ret = l;
  }
  return calls;
}

test('compare --calls: a changed C is caught at the first call that differs', { skip: noC }, async () => {
  const src = fs.readFileSync(cSource()!, 'utf8'), dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-changed-'));
  const changes = [['v-=9*(', 'v-=8*(', 'arguments'], ['v-=v>e;', 'v-=2*(v>e);', 'result'],
    ['if(m>=l)goto C;', 'if(m>l)goto C;', 'calls']];            // (a cut-off later: one more call)
  for (const [from, to, what] of changes) {
    assert.ok(src.includes(from));
    const file = path.join(dir, `${what}.c`), env = { ...process.env, MICROMAX_C: file };
    fs.writeFileSync(file, src.replace(from, to));
    const r = tool('compare', ['--calls', '--nodes', '3000', '--moves', 'e2e4'], env), out = String(r.stdout);
    assert.equal(r.status, 1, out + String(r.stderr));
    const [, within, at, where] = /^first difference: (inside )?call (\d+) \(ply \d+\),[^\n]*\n {2}differs: [^\n]*\n {2}in [^\n]*\n {2}reached by ([a-h1-8q ]+)\n/
      .exec(out) ?? [];
    assert.ok(at, out);
    assert.equal(!!within, what !== 'arguments', out);
    // the same streams, whole: the calls before it are the same in both, and that one is not
    const [c, p] = await Promise.all([allCalls('C', 'e2e4\n\n', 3000, env), allCalls('port', 'e2e4\n\n', 3000, env)]);
    const n = Number(at) - 1;
    for (let k = 0; k < n; k++) assert.equal(c[k].line, p[k].line, `call ${k + 1}`);
    const inside = (s: typeof c): number =>                   // calls made within call n
      s.filter((_, k) => { while (k >= 0 && k !== n) k = s[k].up; return k === n; }).length - 1;
    if (what === 'arguments') assert.notEqual(c[n].line, p[n].line);
    else if (what === 'result') assert.ok(c[n].line === p[n].line && c[n].ret !== p[n].ret, `${c[n].ret} ${p[n].ret}`);
    else assert.ok(c[n].line === p[n].line && inside(c) > inside(p), `${inside(c)} ${inside(p)}`);
    // and the moves that lead to it are those of its callers, from below the call from main()
    const moves: string[] = [];
    for (let k = n; p[k].up >= 0; k = p[k].up) moves.unshift(p[k].line.split(' ')[1]);
    assert.equal(where, moves.join(' '));
    assert.match(out, {                                       // (a changed result shows first in its pass's end)
      arguments: /^[^\n]*\n {2}differs: [^\n]*\(C -?\w+, port -?\w+\)[^]*\n {2}C: {6}a call: move \S+, k [^\n]*\n {2}port: {3}a call: /,
      result: /^[^\n]*\n {2}differs: m \(C -?\d+, port -?\d+\)[^]*\n {2}C: {6}a pass end: d \d+, m -?\d+[^\n]*\n {2}port: {3}a pass end: /,
      calls: /^[^\n]*\n {2}differs: the kind of line \(C a call, port a pass end\)[^]*\n {2}C: {6}a call: move \S+[^\n]*\n {2}port: {3}a pass end: [^\n]*, c 1,/ }[what]!);
    // the calls around it, in the order they were made, then the spot itself
    const listed = out.slice(out.indexOf('\nthe calls around it, in the order they were made'));
    // its last line is the command that draws this difference in a browser (npm run tree's page)
    const page = /\nto see that call on the board, [^\n]*: [^\n]*npm run tree -- --c [^\n]*--against port --html \S+\n$/.exec(listed);
    assert.ok(page, `the page command ends the report:${listed}`);
    const around = listed.slice(0, page.index + 1);
    const numbers = [...around.matchAll(/^ +(\d+) +\d+ /gm)].map((m) => Number(m[1]));
    assert.ok(numbers.length >= 2, around);
    assert.deepEqual(numbers, [...numbers].sort((p, q) => p - q), `in the order made:${around}`);
    assert.ok(within || numbers.at(-1) === Number(at), around);  // (inside a call: the calls it made are after it)
    assert.match(around, within ? new RegExp(`\\n +${at} +\\d+ [^\\n]*   <- the difference is inside this call, in its pass \\d+\\n(.*\\n)* +\\d+  -> here, in call ${at}: the streams differ \\(above\\)\\n$`)
      : new RegExp(`   <- its caller\\n[^]*\\n +${at} +\\d+  \\S+ +-> this call differs \\(above\\)\\n$`));
    assert.match(out, /\n {2}then (call \d+|the call): C returns -?\d+ \(N \d+\); port returns -?\d+ \(N \d+\)\n/);
  }
  fs.rmSync(dir, { recursive: true });
});

test('the calls around a difference are listed in the order they were made: the call it is inside, then the last ones it made',
  async () => {
    // castle-kingside's stream as the C wrote it, and a copy whose first pass end of the first call from main() says another score
    const lines = storedLines('castle-kingside')!;
    let ply = 0, at = -1, made = 0, top = 0, inTop = 0, pass = 0;   // (calls made; the call from main(), calls made in it, its passes)
    for (const [k, l] of lines.entries()) {
      if (l[0] === '>') {
        if (ply++ === 0) { top = made + 1; inTop = 0; pass = 0; } else inTop++;
        made++;
      } else if (l[0] === '<') ply--;
      else if (l[0] === '!' && ply === 1 && ++pass && inTop > 7) { at = k; break; }
    }
    const other = [...lines];
    other[at] = other[at].replace(/^! (\d+) (-?\d+) /, (_m, d: string, m: string) => `! ${d} ${Number(m) + 1} `);
    const v = await compareStreams({ label: 'C', lines: fromArray(lines) }, { label: 'other', lines: fromArray(other) });
    assert.equal(v.same, false);
    assert.match(v.report[0], new RegExp(`^first difference: inside call ${top} \\(ply 0\\), in its pass ${pass}, `));
    assert.match(v.report[1], /^ {2}differs: m \(C -?\d+, other -?\d+\)$/);
    const around = v.report.slice(v.report.findIndex((l) => l.startsWith('the calls around it, in the order they were made')) + 1);
    const numbers = around.slice(0, -1).map((l) => Number(/^ +(\d+) /.exec(l)?.[1]));
    assert.deepEqual(numbers, [top, ...Array.from({ length: 5 }, (_, k) => made - 4 + k)], around.join('\n'));
    assert.match(around[0], new RegExp(`   <- the difference is inside this call, in its pass ${pass}$`));
    assert.match(around.at(-1)!, new RegExp(`^ +0  -> here, in call ${top}: the streams differ \\(above\\)$`));
  });

// ---- the stream as PORTING.md documents it ---------------------------------------------------------

/** A line written again from its fields, by the documented format (an implementation apart from
 *  support/calls.ts's): squares by name, X and Y as a square, +8, ±128. */
function written(e: Event): string {
  const sq = (v: number): string => v >= 0 && v < 128 && !(v & 0x88) ? square(v) : String(v);
  const ch = (v: number): string => {
    const u = v & 255;
    return square(u & 0x77) + (u & 8 ? '+8' : '') + (u & 128 ? (v < 0 ? '-128' : '+128') : '');
  };
  switch (e.t) {
    case '@': return `@ ${e.b.join(' ')}`;
    case '>': {
      const p = e.probe;
      const probe = !p ? 'f' : p.d === undefined ? `e ${p.slot} ${p.left}` : `h ${p.slot} ${p.left} ${p.d} ${p.v} ${ch(p.X!)} ${ch(p.Y!)}`;
      return `> ${e.move} ${e.k} ${e.q} ${e.l} ${e.e} ${e.J} ${e.Z} ${sq(e.E)} ${sq(e.z)} ${e.n} ${e.N} ${e.sum} ${probe}${e.hint ? ' ^' : ''}`;
    }
    case '#': return `# ${e.king ? 1 : 0} ${sq(e.x)} ${sq(e.y)}`;
    case '!': return `! ${e.d} ${e.m} ${e.cut ? 1 : 0} ${ch(e.X)} ${ch(e.Y)}`;
    case 's': return `s ${e.slot} ${e.d} ${e.v} ${ch(e.X)} ${ch(e.Y)}`;
    case '=': return `= ${e.d} ${e.N} ${e.m} ${ch(e.X)} ${ch(e.Y)}`;
    case '<': return `< ${e.v} ${e.N}`;
    case '%': return `% micro-Max 3.2 calls: nodes ${e.nodes}${e.input === undefined ? '' : `, input sha256 ${e.input}`}`;
  }
}

test('the stream is in the documented format: every line written again from its fields is the same', { skip: noC }, async () => {
  const seen = new Set<string>();
  for (const [s, nodes] of [['castle-kingside', 1000], ['promotion', 1000], ['en-passant', 1000]] as const) {
    const r = runCalls('C', fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'inputs', `${s}.in`)), { nodes });
    let board: number[] = [], ply = 0;
    for (let l = await r.lines.next(); l !== undefined; l = await r.lines.next()) {
      const e = parse(l);
      assert.equal(written(e), l);
      seen.add(e.t === '>' ? `> ${e.probe ? e.probe.d === undefined ? 'e' : 'h' : 'f'}${e.hint ? '^' : ''}` : e.t);
      if (e.t === '@') board = e.b;
      if (e.t === '>' && ply === 0) {                     // SUM, by its definition, of the board from main()
        assert.equal(e.sum, board.reduce((t, v, i) => t + (i + 1) * v, 0));
      }
      if (e.t === '>' && e.probe) {                       // the slot is in the 8 the fold (k*E^J) starts
        const j = (e.k * e.E ^ e.J) & 16777224 - 9;
        assert.ok(e.probe.slot > j && e.probe.slot <= j + 8, l);
        assert.equal(e.probe.left, 8 - (e.probe.slot - j - 1), l);
      }
      if (e.t === '>') ply++;
      if (e.t === '<') ply--;
    }
    assert.equal(await r.done, 0);
  }
  assert.deepEqual([...seen].sort(), ['%', '!', '#', '<', '=', '> e', '> e^', '> h', '> h^', '@', 's'].sort());
});

test('npm run calls writes the C\'s stream; compare --stream diffs a file with it, field by field', { skip: noC, timeout: 120_000 },
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-streams-'));
    const args = ['--nodes', '2000', '--moves', 'e2e4 e7e5'], file = (n: string): string => path.join(dir, n);
    try {
      const c = tool('calls', [...args, '--out', file('c.calls')]);
      assert.equal(c.status, 0, String(c.stderr));
      assert.match(String(c.stderr), /^\d+ calls \(\d+ lines\) written to /);
      const port = tool('calls', ['--port', ...args]);
      assert.equal(String(port.stdout), fs.readFileSync(file('c.calls'), 'latin1'), 'the port\'s stream is the C\'s');
      const lines = fs.readFileSync(file('c.calls'), 'latin1').split('\n');
      const pass = lines.findIndex((l) => /^! \d+ -?\d+ [01] \S+ [a-h][1-8]-128$/.test(l));
      const edited = lines.slice();
      edited[pass] = edited[pass].replace(/-128$/, '+128');
      fs.writeFileSync(file('edited.calls'), edited.join('\n'));
      fs.writeFileSync(file('unknown-moves.calls'), lines.map((l) => l.replace(/^> \S+/, '> ?')).join('\n'));
      fs.writeFileSync(file('short.calls'), lines.slice(0, 1000).join('\n') + '\n');
      fs.writeFileSync(file('garbage.calls'), `${lines[0]}\nhello\n`);
      const diff = (name: string): ReturnType<typeof tool> => tool('compare', ['--calls', '--stream', file(name), ...args]);
      const [same, ed, moves, short, garbage, none] = ['c.calls', 'edited.calls', 'unknown-moves.calls', 'short.calls',
        'garbage.calls', 'none.calls'].map(diff);
      assert.equal(same.status, 0, String(same.stdout) + String(same.stderr));
      assert.match(String(same.stdout), /^identical: \d+ calls\n$/);
      assert.equal(moves.status, 0, String(moves.stdout) + String(moves.stderr));
      assert.equal(ed.status, 1, String(ed.stdout));
      assert.match(String(ed.stdout), new RegExp(`^first difference: inside call \\d+ \\(ply \\d+\\), in its pass \\d+, line ${pass + 1} of each stream\\n`));
      assert.match(String(ed.stdout), /\n {2}differs: Y \(C ([a-h][1-8])-128, other \1\+128: the same byte, read signed/);
      assert.equal(short.status, 1);
      assert.match(String(short.stdout), /\n {2}differs: one stream ends \(other\)\n/);
      assert.match(String(short.stdout), /\n {2}other: +\(the stream ends\)\n/);
      assert.equal(garbage.status, 1);
      assert.match(String(garbage.stdout), /\n {2}other: +not a line of the call stream \(a line starts with one of % @ > # ! s = <, not "hello"\): "hello"\n/);
      assert.equal(none.status, 2);
      assert.match(String(none.stderr), /^compare: --stream: no file \S+none\.calls\n$/);
      // the tree draws a stream file as it draws the port's own search
      const fromFile = tree('--stream', file('c.calls'), '--limit', '0'), own = tree(...args, '--limit', '0');
      assert.equal(fromFile.status, 0, fromFile.err);
      assert.deepEqual(fromFile.out.slice(1), own.out.slice(1));  // (all but the first call's label)
      const at = tree('--stream', file('c.calls'), '--at', '3', '--limit', '1');
      assert.match(at.out[0], /^call +D\(/);
      assert.equal(tree('--stream', file('c.calls'), '--at', '99999999').status, 2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

test('tree --call with z 9 is main()\'s legality check of the last typed move, as the stream has it', async () => {
  // the stream's check of e7e5 after e2e4: main()'s second call, with its arguments and its calls
  const r = runCalls('port', 'e2e4\ne7e5\n', {}), tops: { call: Call; calls: number; v: number }[] = [];
  let ply = 0;
  for (let l = await r.lines.next(); l !== undefined; l = await r.lines.next()) {
    const e = parse(l);
    if (e.t === '>' && ply++ === 0) tops.push({ call: e, calls: 0, v: 0 });
    else if (e.t === '>') tops.at(-1)!.calls++;
    else if (e.t === '<' && --ply === 0) tops.at(-1)!.v = e.v;
  }
  const c = tops[1].call;
  assert.equal(c.z, 9);
  const t = tree('--moves', 'e2e4 e7e5', '--call', `D(${c.k}, ${c.q}, ${c.l}, ${c.e}, ${square(c.E)}, 9, ${c.n})`,
    '--limit', '0', '--depth', '0');
  assert.equal(t.status, 0, t.err);
  assert.match(t.out[0], new RegExp(`^check D\\(${c.k}, ${c.q}, ${c.l}, ${c.e}, ${square(c.E)}, 9, ${c.n}\\) +empty$`));
  assert.match(t.out.at(-1)!, new RegExp(`^returns ${tops[1].v}(, best \\w+)?, after \\d+ nodes? and ${tops[1].calls + 1} calls$`));
  assert.equal(tops[1].v, 8000, 'main() accepts e7e5');
});

test('the instrumented C, run without --calls, prints the plain C\'s bytes', { skip: noC }, async () => {
  const bin = buildCallsC(cSource());
  for (const s of SCRIPTS.filter((x) => ['castle-kingside', 'promotion', 'eof-mid-line', 'engine-1e4'].includes(x.name))) {
    const r = await run(bin, s.flags, scriptInput(s));
    assert.ok(r.stdout.equals(fs.readFileSync(goldenPath(s))), s.name);
    assert.equal(r.stderr, '');
  }
});

// ---- the header, and the streams stored for conformance --calls -----------------------------------

test('a stream starts with its header: the node limit it ran at; a file npm run calls writes adds the input\'s sha256', { skip: noC },
  async () => {
    const first = async (side: 'C' | 'port', nodes?: number, input = 'e2e4\n'): Promise<string[]> => {
      const r = runCalls(side, input, nodes === undefined ? {} : { nodes }), lines: string[] = [];
      for (let l = await r.lines.next(); l !== undefined && lines.length < 2; l = await r.lines.next()) lines.push(l);
      r.stop();
      return lines;
    };
    for (const side of ['C', 'port'] as const) {
      assert.deepEqual(await first(side, 3000), ['% micro-Max 3.2 calls: nodes 3000', `@ ${[...'54 51 53 55 52 53 51 54'.split(' '),
        ...Array(8).fill('18'), ...Array(32).fill('0'), ...Array(8).fill('9'), '46 43 45 47 44 45 43 46'].join(' ')}`], side);
      assert.deepEqual(await first(side), ['% micro-Max 3.2 calls: nodes 10000000'].concat((await first(side)).slice(1)), side);
      assert.deepEqual(await first(side, 5, ''), ['% micro-Max 3.2 calls: nodes 5'], `${side}: no input, the header alone`);
      assert.deepEqual(parse('% micro-Max 3.2 calls: nodes 5'), { t: '%', nodes: 5 });
    }
    // the instrumented C reads its options in any order: the header comes after them all
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-header-'));
    try {
      const file = path.join(dir, 'x.calls');
      spawnSync(buildCallsC(cSource()), ['--calls', file, '--nodes', '7'], { input: '' });
      assert.equal(fs.readFileSync(file, 'latin1'), '% micro-Max 3.2 calls: nodes 7\n');
      const c = tool('calls', ['--nodes', '1000', '--moves', 'e2e4', '--out', file]);
      assert.equal(c.status, 0, String(c.stderr));
      const sha = createHash('sha256').update('e2e4\n\n').digest('hex');
      assert.equal(fs.readFileSync(file, 'latin1').split('\n')[0], `% micro-Max 3.2 calls: nodes 1000, input sha256 ${sha}`);
      assert.throws(() => parse('% micro-Max 3.2 calls: nodes x'), /a header line is/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

/** A stored stream, decoded, is what streams.tsv says: its calls, and its header the script's node limit and input. */
function asListed(row: Stored, lines: string[]): void {
  assert.equal(lines.filter((l) => l[0] === '>').length, row.stored, row.name);
  assert.ok(row.stored <= row.calls && row.stored > 0, row.name);
  const s = SCRIPTS.find((x) => x.name === row.name)!;
  const sha = createHash('sha256').update(scriptInput(s)).digest('hex');
  assert.equal(lines[0], `% micro-Max 3.2 calls: nodes ${s.nodes ?? 10000000}, input sha256 ${sha}`, row.name);
}

// The reference C's own streams, against the stored ones: whole, or their first calls (the C is
// stopped there). Only the reference C (by its sha256) can say a stored stream is stale.
const notReference = !noC && !isReference(cSource()!) ? 'MICROMAX_C is not the reference micromax-3.2.c: its calls are not the stored ones' : false;

// (Decoding all the streams, 1.5 million lines, takes a loaded machine half a minute: with the
// reference C here, the test after this one decodes each once, and checks it against streams.tsv too.)
test('the stored streams are a few MB, listed in streams.tsv, and each decodes to its lines as the C wrote them', () => {
  const rows = readStreamList();
  assert.deepEqual(rows.map((r) => r.name), SCRIPTS.map((s) => s.name), 'a stream for every golden script, in its order');
  const files = fs.readdirSync(STREAMS).filter((f) => f.endsWith('.calls.br')).sort();
  assert.deepEqual(files, rows.map((r) => `${r.name}.calls.br`).sort(), 'a file for every row, and no other');
  const size = files.reduce((t, f) => t + fs.statSync(path.join(STREAMS, f)).size, 0);
  assert.ok(size < 5 << 20, `${size} bytes: a few MB`);
  if (noC || notReference) for (const r of rows) asListed(r, storedLines(r.name)!);
});

// The quick run's streams (about 300,000 calls) are made again by the C in every run; the six of the
// full run's scripts (200,000 calls each, a minute of a loaded machine's two cores) in the long run.
const LONG = process.env.MICROMAX_LONG === '1';

test(`the stored streams are still what the reference C writes${LONG ? '' : ' (the quick run\'s; the others in the long run)'}`,
  { skip: noC || notReference, timeout: 300_000 }, async () => {
  const gate = atMost(2);
  await Promise.all(readStreamList().filter((row) => LONG || row.quick).map((row) => gate(async () => {
    const s = SCRIPTS.find((x) => x.name === row.name)!;
    const r = runCalls('C', scriptInput(s), { nodes: s.nodes });
    const lines = storedLines(row.name)!;
    asListed(row, lines);
    const v = await compareStreams({ label: 'stored', lines: fromArray(lines) },
      { label: 'C', lines: r.lines }, { prefix: row.stored < row.calls });
    r.stop();
    assert.ok(v.same, `${row.name}: the reference C no longer writes test/fixtures/calls/${row.name}.calls.br (npm run calls ` +
      `-- --make ${row.name} remakes it):\n${v.report.join('\n')}`);
    assert.equal(v.calls, row.stored, `${row.name}: ${v.calls} calls compared`);
    assert.equal(v.capped, row.stored < row.calls, `${row.name}: the C's stream ${v.capped ? 'goes on' : 'ends there'}`);
  })));
});

// The whole streams of engine-1e3, engine-1e4 and mixed-1e4 (7 million calls, 900 MB) are counted in the
// long run, 40 s; the three at 1e5 nodes and more (130 million calls, 17 GB) only by npm run calls -- --make.
test('the stored streams\' call counts are the C\'s (the long run)', { skip: noC || notReference ||
  (!LONG && 'only in the long run (MICROMAX_LONG=1)'), timeout: 600_000 }, async () => {
  for (const row of readStreamList().filter((r) => r.stored < r.calls && r.calls < 5_000_000)) {
    const made = await makeStored(SCRIPTS.find((x) => x.name === row.name)!, 1);
    assert.equal(made.calls, row.calls, row.name);
  }
});

test('npm run calls -- --stored writes a golden script\'s stream as the C wrote it, with no C', { skip: noC }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-stored-'));
  try {
    const env = { ...process.env };
    delete env.MICROMAX_C;
    const stored = tool('calls', ['--stored', 'castle-kingside', '--out', path.join(dir, 's.calls')], env);
    assert.equal(stored.status, 0, String(stored.stderr));
    assert.match(String(stored.stderr), /^7566 calls \(\d+ lines\) written to /);
    const c = tool('calls', ['--nodes', '1000', 'test/fixtures/inputs/castle-kingside.in', '--out', path.join(dir, 'c.calls')]);
    assert.equal(c.status, 0, String(c.stderr));
    assert.ok(fs.readFileSync(path.join(dir, 's.calls')).equals(fs.readFileSync(path.join(dir, 'c.calls'))));
    const bad = tool('calls', ['--stored', 'no-such-script']);
    assert.equal(bad.status, 2);
    assert.equal(String(bad.stderr), "calls: no script named 'no-such-script' in test/fixtures/scripts.tsv (see --help)\n");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// A program quick to end (typed moves only: it writes its whole stream as it exits) while the C's
// first line is awaited: Node resumes a child's pipe that nothing reads yet when the child exits,
// and its data was dropped ('the port wrote no call stream', CI, 1 run in 8 here).
test('a stream is read in full even when its program has ended before the reading starts', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, ['-e', 'require("fs").writeSync(3, "% a header\\n> a call\\n")'],
    { stdio: ['ignore', 'ignore', 'inherit', 'pipe'] });
  const lines = new Lines(child.stdio[3] as NodeJS.ReadableStream);
  await new Promise((done) => child.on('exit', done));
  await new Promise((done) => setTimeout(done, 200));                   // (its stdio flushed by Node)
  const got: string[] = [];
  for (let l = await lines.next(); l !== undefined; l = await lines.next()) got.push(l);
  assert.deepEqual(got, ['% a header', '> a call']);
});
