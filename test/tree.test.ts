// `npm run tree` (`test/tools/tree.ts`) against what it draws from: its tags checked call by call
// against this file's own reading of the raw call stream (`test/support/calls.ts`) and `D()`'s
// arithmetic; passes by depth; the nested null-move search against the program's own `--trace`
// lines; the board against chess.js; `--call` against `D()` run directly on the engine; `--pass`,
// `--path`, `--no-board` and `--brief` against the whole drawing focused or cut by hand; `--help`;
// a line's count of calls against those drawn below it; `--stream --at N`'s board after the call's
// move (against chess.js, and a port that castles a bishop onto f1, found by the stream's SUM), a
// `%` header line; a `--path` move no call made said, exit 2 (a promotion named by its q); a
// promotion's q on pass lines and the result; the legend's move → N.
//
// time: 60 s

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Chess } from 'chess.js';
import { I, S, instrumentPort, parse, runCalls, square, transpiled, type Call, type PassEnd, type Take } from './support/calls.ts';
import { PIECES, TAG, traceFigures } from './support/tree.ts';
import { ROOT, runPortSync, toolArgv } from './support/run.ts';
import { begin, engine, fen } from '../micromax.ts';

const MATE = 'k7/p1K5/1P6/8/8/8/8/8 w - - 0 1';           // the guide's mate in one
const CASTLE = 'k7/8/b7/8/8/8/8/4K2R w K - 0 1';           // a black bishop eyes f1: e1g1 crosses it
const QUEEN = 'rnb1kbnr/pppppppp/8/8/8/4q3/PPPPPPPP/RNBQKBNR w KQkq - 0 1'; // the guide's queen on e3
const FOOLS_MATE = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
const PROMOTION = 'k7/4P3/8/8/8/8/8/K7 w - - 0 1';        // white's pawn on e7 promotes
const LOYD_MOVES = 'e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6';

interface Drawn { out: string[]; heading: string[]; err: string; status: number | null }
function tree(...args: string[]): Drawn {
  const r = spawnSync(process.execPath, toolArgv('tree', args),
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
  const lines = r.stdout.split('\n'), gap = /^(root|call) /.test(lines[0]) ? -1 : lines.indexOf('');   // --no-board: none
  return { out: lines.slice(gap + 1, -1), heading: lines.slice(0, Math.max(gap, 0)), err: r.stderr, status: r.status };
}
const indent = (l: string): number => l.search(/\S/) / 2;

// ---- the stream, read here --------------------------------------------------------------------

interface SPass { end: PassEnd; kids: number[]; takes: Take[] }
interface SCall { c: Call; kids: number[]; passes: SPass[]; v: number; N: number; up: number }

/** Every call of the run's first drawn call (after `checks` calls from main()), with its passes. */
async function stream(input: string, env: NodeJS.ProcessEnv, checks: number, nodes?: number): Promise<SCall[]> {
  const r = runCalls('port', input, { nodes }, env), calls: SCall[] = [], open: number[] = [];
  const skip = { left: checks, depth: 0 };               // the typed moves' checks, passed over
  let cur: { kids: number[]; takes: Take[] }[] = [];
  for (let l = await r.lines.next(); l !== undefined; l = await r.lines.next()) {
    if (skip.depth || (!open.length && l[0] === '>' && skip.left)) {
      if (l[0] === '>') skip.depth++;
      else if (l[0] === '<' && --skip.depth === 0) skip.left--;
      continue;
    }
    const e = parse(l);
    if (e.t === '>') {
      const up = open.at(-1) ?? -1;
      calls.push({ c: e, kids: [], passes: [], v: 0, N: 0, up });
      if (up >= 0) { calls[up].kids.push(calls.length - 1); cur.at(-1)!.kids.push(calls.length - 1); }
      open.push(calls.length - 1); cur.push({ kids: [], takes: [] });
    } else if (e.t === '#') cur.at(-1)!.takes.push(e);
    else if (e.t === '!') {
      calls[open.at(-1)!].passes.push({ end: e, ...cur.at(-1)! });
      cur[cur.length - 1] = { kids: [], takes: [] };
    } else if (e.t === '<') {
      const k = open.pop()!;
      cur.pop();
      calls[k].v = e.v; calls[k].N = e.N;
      if (!open.length) break;
    }
  }
  r.child.kill();
  return calls;
}

const moveOf = (X: number, Y: number): string => (X & 0x77) === (Y & 0x77) ? '' : square(X & 0x77) + square(Y & 0x77);
/** The move D() slips in first in a call's pass k, by its own rules: the best move it holds then (the
 *  probe's entry for the first pass, unless it starts at depth 0; the last pass's after), if a non-castling. */
function hintOf(s: SCall, k: number): string {
  let X = 0, Y = 0;
  const p = s.c.probe;
  if (k > 0) ({ X, Y } = s.passes[k - 1].end);
  else if (p && p.d !== undefined) {
    const d = p.d >= s.c.n ? s.c.n - 1 : p.d;
    X = p.X!; Y = d ? p.Y! : 0;
  }
  return Y & S ? moveOf(X, Y) : '';
}

/** What the tags of each call should be, from the stream and D()'s arithmetic alone. */
function expected(calls: SCall[]): { own: string[]; passes: { d: number; tags: string[] }[] }[] {
  const hinted = new Set<number>();
  for (const s of calls) {
    s.passes.forEach((p, k) => {
      const first = p.kids[0], best = hintOf(s, k);
      if (first !== undefined && best && calls[first].c.move.slice(0, 4) === best) hinted.add(first);
    });
  }
  return calls.map((s, i) => {
    const own = [s.c.move === 'null' ? TAG.nullMove : '', hinted.has(i) ? TAG.hint : '',
      s.N === s.c.N && !s.kids.length ? TAG.answer : ''].filter(Boolean);
    return { own, passes: s.passes.map((p) => ({ d: p.end.d, tags: passTags(calls, s, p, hinted) })) };
  });
}

/** A pass's tags, with its best score recomputed from its replies' results as D() computes it. */
function passTags(calls: SCall[], s: SCall, p: SPass, hinted: Set<number>): string[] {
  const e = s.c.e, l = s.c.l;
  let m = p.end.d > 1 ? -I : e;
  for (const k of p.kids) {
    assert.ok(m < l, `a reply searched after m reached l: call ${s.c.move} ${JSON.stringify(s.c)}`);
    let v = 0 - calls[k].v;                                    // (not -0)
    v -= +(v > e);
    if (hinted.has(k) || v > m) m = v;
  }
  if (p.takes.length) m = I;
  assert.equal(m, p.end.m, `the pass's score, recomputed: ${JSON.stringify(s.c)}`);
  if (p.end.cut) assert.ok(m >= l, 'a cut-off below l');
  if (p.end.d <= 1 && e >= l) assert.ok(p.end.cut, 'standing pat at or above l cuts off at the first square');
  for (const t of p.takes.filter((x) => !x.king)) assert.ok(!(s.c.E & 0x88) && Math.abs(t.y - s.c.E) < 2, 'castling');
  const takes = p.takes.map((t) => `${t.king ? TAG.king : TAG.castling} (${square(t.x)}${square(t.y)})`);
  return [...m === -I ? [TAG.noMove] : [], ...new Set(takes), ...p.end.d <= 1 && m === e ? [TAG.pat] : [],
    ...p.end.cut ? [TAG.cut] : []];
}

// ---- the tree, read back ---------------------------------------------------------------------

/** Each call line's tags, in order: its own, and its passes' by depth (drawn as pass lines, numbered by
 *  depth, or on its one line, where a call that ran one pass does not number it: depth 0 here). */
function drawnTags(out: string[]): { move: string; own: string[]; passes: Map<number, string[]> }[] {
  const calls: { move: string; own: string[]; passes: Map<number, string[]>; level: number }[] = [], open: number[] = [];
  for (const l of out) {
    const call = /^( *)(\S+) +D\([^)]*\) +(.*)$/.exec(l), pass = /^( *)pass (\d+) done: [^;]*(?:; (.*))?$/.exec(l);
    if (call) {
      const [probeAndTags, after] = call[3].split('→ ');
      const tags = after === undefined ? probeAndTags.split(/ {2,}/)[1] : after.split(/ {2}/)[1];
      const listed = tags ? tags.split('; ') : [];
      const c = { move: call[2], own: listed.filter((t) => !/ in pass/.test(t) && isOwn(t)),
        passes: new Map<number, string[]>(), level: indent(l) };
      for (const t of listed.filter((t) => !isOwn(t))) {
        const m = / in passes? ([\d, ]+)$/.exec(t), name = m ? t.slice(0, m.index) : t;
        for (const d of m ? m[1].split(', ').map(Number) : [0]) c.passes.set(d, [...c.passes.get(d) ?? [], name]);
      }
      calls.push(c);
      if (after === undefined) open.push(calls.length - 1);
    } else if (pass) {
      const c = calls[open.at(-1)!];
      assert.equal(indent(l), c.level + 1, l);
      if (pass[3]) c.passes.set(Number(pass[2]), pass[3].split('; '));
    } else if (/^ *→ |^returns /.test(l)) open.pop();
  }
  return calls.map(({ move, own, passes }) => ({ move, own, passes }));
}
const isOwn = (t: string): boolean => t === TAG.nullMove || t === TAG.hint || t === TAG.answer;

/** A pass scored by the null move is drawn after it: the last call drawn in that pass is the null move. */
function nullBeforePass(out: string[]): void {
  out.forEach((l, k) => {
    if (!/^ *pass \d+ done: .* after the null move/.test(l)) return;
    let j = k - 1;
    while (j >= 0 && (indent(out[j]) > indent(l) || /^ *→ /.test(out[j]))) j--;
    assert.match(out[j], new RegExp(`^ {${2 * indent(l)}}null {2}D\\(`), `${out[j]}\n${l}`);
  });
}

async function checkTags(args: string[], input: string, env: NodeJS.ProcessEnv, checks: number, nodes?: number):
  Promise<Record<string, number>> {
  const t = tree(...args, '--depth', '999', '--limit', '0');
  assert.equal(t.status, 0, t.err);
  nullBeforePass(t.out);
  const calls = await stream(input, env, checks, nodes), want = expected(calls), got = drawnTags(t.out);
  assert.equal(got.length, calls.length);
  const seen: Record<string, number> = {};
  got.forEach((g, i) => {
    const w = want[i], where = `call ${i + 1} (${g.move} ${JSON.stringify(calls[i].c)})`;
    assert.deepEqual(g.own.sort(), w.own.sort(), where);
    // the passes' tags by depth (a one-line call that ran one pass does not name it)
    const only = g.passes.get(0);
    if (only) {
      assert.equal(w.passes.length, 1, `${where}: tags of an unnamed pass`);
      g.passes.delete(0);
      g.passes.set(w.passes[0].d, only);
    }
    const byDepth = (m: Iterable<[number, string[]]>): [number, string[]][] =>
      [...m].filter(([, t]) => t.length).map(([d, t]): [number, string[]] => [d, t.slice().sort()]).sort((x, y) => x[0] - y[0]);
    assert.deepEqual(byDepth(g.passes), byDepth(w.passes.map((p) => [p.d, p.tags])), `${where} passes`);
    for (const tag of [...w.own, ...w.passes.flatMap((p) => p.tags)]) {
      const name = tag.replace(/ \([a-h1-8]{4}\)$/, '');
      seen[name] = (seen[name] ?? 0) + 1;
    }
  });
  return seen;
}

// ---- tests --------------------------------------------------------------------------------------

test('tree: every tag is where the stream says D() did that, and only there', async () => {
  const seen: Record<string, number> = {};
  const add = (s: Record<string, number>): void => {
    for (const [k, n] of Object.entries(s)) seen[k] = (seen[k] ?? 0) + n;
  };
  add(await checkTags(['--fen', MATE], '\n', { MICROMAX_FEN: MATE }, 0));
  add(await checkTags(['--moves', 'e2e4 e7e5', '--nodes', '1000'], 'e2e4\ne7e5\n\n', {}, 2, 1000));
  add(await checkTags(['--fen', CASTLE, '--nodes', '300'], '\n', { MICROMAX_FEN: CASTLE }, 0, 300));
  add(await checkTags(['--moves', LOYD_MOVES], LOYD_MOVES.split(' ').join('\n') + '\n\n', {}, 19));
  add(await checkTags(['--call', 'D(8, -8000, -50, 0, 128, 128, 3)'], '\n',
    { MICROMAX_CALL: `8 -8000 -50 0 ${S} ${S} 3` }, 0));
  for (const tag of Object.values(TAG)) assert.ok(seen[tag] > 0, `never seen: ${tag} (${JSON.stringify(seen)})`);
});

test('tree: the null move after a root pass is a root search of its own, drawn nested and numbered from 1', () => {
  const t = tree('--moves', LOYD_MOVES);                 // Loyd's stalemate: black has no legal move
  assert.equal(t.status, 0, t.err);
  const at = t.out.findIndex((l) => /^ {2}null {2}D\(8, -8000, 8000, 0, 128, 8, 1\) /.test(l));
  assert.ok(at > 0 && t.out[at].endsWith(`  ${TAG.nullMove}`), t.out.join('\n'));
  const end = t.out.findIndex((l, k) => k > at && /^ {2}→ /.test(l));
  const inner = t.out.slice(at + 1, end), outer = t.out.filter((l) => /^ {2}pass /.test(l));
  const numbers = (ls: string[]): number[] => ls.map((l) => Number(/pass (\d+) done/.exec(l)?.[1]));
  assert.ok(inner.length >= 2 && inner.every((l) => /^ {4}pass \d+ done: \d+ nodes?, /.test(l)), inner.join('\n'));
  assert.deepEqual(numbers(inner), inner.map((_, k) => k + 1));
  assert.deepEqual(numbers(outer), outer.map((_, k) => k + 1));
  assert.match(t.out[end + 1], new RegExp(`^ {2}pass ${outer.length} done: \\d+ nodes, score -8000, ` +
    `(-?\\d+) after the null move; ${TAG.noMove.replace(/[()]/g, '\\$&')}$`));
  // every pass line, outer and nested, in the order drawn, is a line the program itself prints with --trace
  const figures = (ls: string[]): number[][] => ls.flatMap((l) => {
    const m = /(-?\d+) ply, +(\d+) searched, +(-?\d+) by/.exec(l);
    return m ? [m.slice(1).map(Number)] : traceFigures(l);
  });
  const traced = String(runPortSync(LOYD_MOVES.split(' ').join('\n') + '\n\n', ['--trace']).stdout).split('\n');
  assert.deepEqual(figures(t.out), figures(traced));
  assert.ok(figures(traced).length === inner.length + outer.length);
});

/** The rows of the board a tree draws, as FEN's first field. */
const placement = (heading: string[]): string => heading.slice(1, 9).map((l) => l.slice(2)
  .replace(/\.+/g, (dots) => String(dots.length))).join('/');

test('tree: the position as chess.js sees it, squares by name, J and Z only with --keys', () => {
  const t = tree('--moves', 'e2e4 e7e5', '--nodes', '1000', '--depth', '2', '--limit', '0');
  assert.equal(t.status, 0, t.err);
  const game = new Chess();
  for (const m of ['e2e4', 'e7e5']) game.move({ from: m.slice(0, 2), to: m.slice(2) });
  assert.equal(placement(t.heading), game.fen().split(' ')[0]);
  assert.equal(t.heading[9], `  abcdefgh  ${PIECES}`);
  assert.match(PIECES, /^P pawn \(the game prints white's as \*, black's as \+\), N knight, B bishop, R rook, Q queen, K king; black in lower case$/);
  assert.match(t.heading.join('\n'), /J, Z left out: --keys/);
  const calls = t.out.flatMap((l) => {
    const m = /^ *(\S+) +D\((\d+), (-?\d+), (-?\d+), (-?\d+), (\S+), (\S+), (\d+)\) +(.*)$/.exec(l);
    return m ? [{ level: indent(l), move: m[1], E: m[6], z: m[7], rest: m[9] }] : [];
  });
  assert.ok(calls.length > 100);
  const big = new Set(game.moves({ verbose: true }).filter((m) => m.flags.includes('b')).map((m) => m.from + m.to));
  for (const c of calls) {
    assert.match(c.E, /^([a-h][1-8]|128|-128)$/, c.move);
    assert.match(c.z, /^([a-h][1-8]|128|8)$/, c.move);
    if (/^[a-h][1-8][a-h][1-8]/.test(c.move)) assert.equal(c.z, c.move.slice(2, 4));   // z: where the move went
    if (c.level === 1 && big.has(c.move)) {             // a double step hands on the square it skipped
      const skipped = `${c.move[0]}${(Number(c.move[1]) + Number(c.move[3])) / 2}`;   // (a hint's F is S)
      assert.equal(c.E, c.rest.includes(TAG.hint) ? '128' : skipped);
    }
    assert.match(c.rest, /^(empty|full|d \d+ v (≥ |≤ )?-?\d+( [a-h][1-8][a-h][1-8])?)( |$)/, c.move);
  }
  assert.ok(calls.some((c) => c.level === 1 && big.has(c.move) && c.E !== '128'));
  assert.equal(calls[0].E, 'e6');                        // e7e5 skipped e6
  // a first think's E, the C's unset O (0, which the engine reads as a8), is shown as 0, and --call takes it
  const opening = tree('--nodes', '30', '--limit', '1', '--no-board');
  assert.match(opening.out[0], /^root {2}D\(8, -8000, 8000, 0, 0, 8, 0\) /);
  assert.deepEqual(tree('--call', 'D(8, -8000, 8000, 0, 0, 128, 1)', '--no-board').out,
    tree('--call', 'D(8, -8000, 8000, 0, a8, 128, 1)', '--no-board').out);
  for (const l of t.out.filter((x) => / best /.test(x))) assert.match(l, /best [a-h][1-8][a-h][1-8](,|;|$)/);
  const keys = tree('--moves', 'e2e4 e7e5', '--nodes', '1000', '--limit', '1', '--keys');
  assert.match(keys.out[0], /^root {2}D\(8, -8000, 8000, 0, 1, 1, e6, 8, 0\) /);
  assert.match(keys.heading.join('\n'), /J, Z shown: --keys/);
});

test('tree: --help exits 0 and says every option and every tag; a bad option exits 2', () => {
  const h = spawnSync(process.execPath, toolArgv('tree', ['--help']),
    { cwd: ROOT, encoding: 'utf8' });
  assert.equal(h.status, 0);
  assert.equal(h.stderr, '');
  for (const tag of Object.values(TAG)) assert.ok(h.stdout.includes(tag), tag);
  const synopsis = h.stdout.split('\n').filter((l, k, all) => all.slice(0, k + 1).every((x) => /^(usage:| +\[)/.test(x)));
  const options = [...synopsis.join(' ').matchAll(/--([\w-]+)/g)].map((m) => m[1]);
  assert.deepEqual(options, ['moves', 'fen', 'call', 'nodes', 'depth', 'limit', 'keys', 'pass', 'path', 'no-board',
    'brief']);
  for (const o of options) assert.match(h.stdout, new RegExp(`\\n {2}--${o} `), o);
  const bad = tree('--trace');
  assert.equal(bad.status, 2);
  assert.match(bad.err, /^tree: unknown option '--trace' \(see --help\)\n$/);
});

test('tree: a line\'s (N calls) counts every call below it, at all depths, as the legend and --help say', () => {
  const t = tree('--fen', MATE, '--depth', '9', '--limit', '0');
  assert.equal(t.status, 0, t.err);
  assert.ok(t.heading.some((l) => l.includes('→ result (calls below it, at all depths)')), t.heading.join('\n'));
  const help = spawnSync(process.execPath, toolArgv('tree', ['--help']),
    { cwd: ROOT, encoding: 'utf8' });
  assert.match(help.stdout.replace(/\s+/g, ' '), /→ the result \(calls below it, at all depths\)/);
  // a call's count, against the call lines drawn below it, down to the deepest (--depth 9 draws them all)
  const isCall = (l: string): boolean => /^ *\S+ +D\(/.test(l);
  let checked = 0, deeper = 0;
  t.out.forEach((l, k) => {
    if (!isCall(l) || indent(l) === 0) return;
    if (l.includes('→')) return assert.doesNotMatch(l, /\(\d+ calls?\)/, 'a call on one line: none below it');
    let end = k + 1;                                      // its calls drawn on the lines below, then its → line
    while (!(indent(t.out[end]) === indent(l) && t.out[end].trim().startsWith('→'))) end++;
    const below = t.out.slice(k + 1, end).filter(isCall), count = Number(/\((\d+) calls?\)/.exec(t.out[end])?.[1]);
    assert.equal(count, below.length, `${l.trim()}: ${count} calls, ${below.length} drawn below it`);
    deeper += +below.some((x) => indent(x) > indent(l) + 1);
    checked++;
  });
  assert.ok(checked > 3 && deeper > 0, `${checked} calls checked, ${deeper} with calls two plies below`);
});

/** D() run on the engine itself, from a FEN, on an empty hash table with the keys main() gives. */
function direct(position: string, k: number, q: number, l: number, e: number, E: number, z: number, n: number): number {
  const { D, A, board } = engine, p = fen(position);
  assert.ok(typeof p !== 'string', String(p));
  board.set(p.b);
  A.K.fill(0);
  return D(k, q, l, e, 1, 1, E, z, n);
}
const returned = (t: Drawn): number => Number(/^returns (-?\d+)/.exec(t.out.at(-1) ?? '')?.[1]);

test('tree --call: the guide\'s examples, each against D() run on the engine itself', () => {
  begin();
  const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  // from the opening, depth 3, l = -50: it cuts off in every pass, pass 1 standing pat
  const cut = tree('--call', 'D(8, -8000, -50, 0, 128, 128, 3)');
  assert.equal(cut.status, 0, cut.err);
  assert.equal(returned(cut), direct(START, 8, -I, -50, 0, S, S, 3));
  const passes = cut.out.filter((l) => /^ {2}pass/.test(l));
  assert.deepEqual(passes.map((l) => l.endsWith(TAG.cut)), [true, true, true]);
  assert.ok(passes[0].includes(TAG.pat) && !passes[1].includes(TAG.pat));
  const before = (k: number): number => cut.out.indexOf(passes[k]) - (k ? cut.out.indexOf(passes[k - 1]) + 1 : 1);
  assert.deepEqual([0, 1, 2].map(before), [0, 1, 1]);  // the replies searched in each pass
  assert.deepEqual(tree('--call', 'D(k=8, l=-50, q=-8000, e=0, E=128, z=128, n=3)').out, cut.out);
  // a black queen on e3, e = 0: depth 1 sees nothing, depth 2 or a recapture onto z = e3 sees the queen
  const e3 = 0x54;
  for (const [call, z, n] of [['128, 1', S, 1], ['128, 2', S, 2], ['e3, 1', e3, 1]] as const) {
    const t = tree('--fen', QUEEN, '--call', `D(8, -8000, 8000, 0, 128, ${call})`);
    assert.equal(t.status, 0, t.err);
    assert.equal(returned(t), direct(QUEEN, 8, -I, I, 0, S, z, n), call);
  }
  // fool's mate: no legal move, and the null move takes the king (its pass drawn even with the null move hidden)
  const mated = tree('--fen', FOOLS_MATE, '--call', 'D(8, -8000, 8000, 0, 128, 128, 2)', '--depth', '0');
  assert.equal(returned(mated), direct(FOOLS_MATE, 8, -I, I, 0, S, S, 2));
  assert.equal(returned(mated), -I / 2);
  assert.ok(mated.out.includes(`  pass 2 done: score -8000, -4000 after the null move; ${TAG.noMove}`),
    mated.out.join('\n'));
});

test('tree --call: a bad call is refused with a reason, exit 2 and nothing drawn', () => {
  const bad = [
    ['D(8, -8000, -50, 0, 128, 128)', /7 arguments here \(k, q, l, e, E, z, n\), not 6/],
    ['D(8, 50, -50, 0, 128, 128, 3)', /the window is empty: q \(50\) must be below l \(-50\)/],
    ['D(9, -8000, -50, 0, 128, 128, 3)', /k is 8 \(white\) or 16 \(black\)/],
    ['D(8, -8000, -50, 0, i9, 128, 3)', /E is a square \(e3\), or 128, -128 or 0 for none/],
    ['D(8, -8000, -50, 0, 128, 10, 3)', /z is a square \(e3\), 128 for no last move, 8 for a root search, or 9 for a/],
    ['D(8, -8000, -50, 0, 128, 128, 0)', /n is 1 or more/],
    ['D(8, -8000, -50, 0, 128, 128, 99)', /n is a depth from 1 to 98/],
    ['D(k=8, J=1)', /J and Z are not given/],
    ['D(k=8, q=-8000, l=-50, e=0, E=128, z=128)', /missing n/],
    ['D(8, q=-8000, l=-50, e=0, E=128, z=128, n=3)', /give all the arguments in order, or all by name/],
  ] as const;
  for (const [call, why] of bad) {
    const r = tree('--call', call);
    assert.equal(r.status, 2, call);
    assert.match(r.err, new RegExp(`^tree: --call: .*${why.source}.* \\(see --help\\)\\n$`), call);
    assert.deepEqual([...r.heading, ...r.out], [], call);
  }
});

test('tree: a castling across an attacked square is tagged where the reply lands on it, and refused', () => {
  const t = tree('--fen', CASTLE);
  assert.equal(t.status, 0, t.err);
  assert.match(t.out.find((l) => /^ {2}e1g1 /.test(l)) ?? '', new RegExp(`${TAG.castling} \\(a6f1\\)`));
  assert.equal(t.out.filter((l) => l.includes(TAG.castling)).length, 1);
  const game = new Chess(CASTLE);
  assert.throws(() => game.move('O-O'));                 // chess.js: castling through check
  const typed = tree('--fen', CASTLE, '--moves', 'e1g1');
  assert.equal(typed.status, 2);
  assert.match(typed.err, /micro-Max does not accept e1g1 there \(move 1\)/);
});

// ---- focus: --pass, --path, --no-board, --brief -----------------------------------------------------

/** What --pass and --path should leave of a whole drawing, worked out here from its lines alone: the
 *  first call's line and result; of its passes, pass `pass` (its line, and the lines above it since the
 *  pass before); of the calls below, those whose moves, ply by ply, are the path's (with all below). */
function focusByHand(out: string[], pass?: number, path?: string[][]): string[] {
  const kept: string[] = [], chain: string[] = [];
  let group: string[] = [];
  const onPath = (level: number): boolean => chain.slice(1, level + 1).every((m, k) => !path?.[k] || path[k].includes(m));
  for (const l of out) {
    const level = indent(l), call = /^ *(\S+) +D\(/.exec(l), top = /^ {2}pass (\d+) done/.exec(l);
    if (level === 0) { kept.push(l); continue; }
    if (top) {
      if (pass === undefined || Number(top[1]) === pass) kept.push(...group, l);
      group = [];
    } else if (call) {
      chain[level] = call[1];
      if (onPath(level)) group.push(l);
    } else if (/^ *→ /.test(l)) {
      if (onPath(level)) group.push(l);
    } else if (onPath(level - 1)) group.push(l);                // a pass line of the call at level - 1
  }
  return kept;
}

test('tree --pass, --path: only that pass of the first call, only the calls along those moves', () => {
  const whole = tree('--fen', MATE, '--depth', '2');
  assert.equal(whole.status, 0, whole.err);
  const cases: [string | undefined, string | undefined][] = [['3', 'c7d6'], ['2', undefined], [undefined, 'b6b7,c7b7'],
    [undefined, 'c7d6 a7b6'], ['3', 'b6b7 null'], ['1', undefined], ['3', 'c7d6,b6a7 a8a7']];
  for (const [pass, path] of cases) {
    const args = [...pass ? ['--pass', pass] : [], ...path ? ['--path', path] : []];
    const t = tree('--fen', MATE, '--depth', '2', ...args);
    assert.equal(t.status, 0, t.err);
    const want = focusByHand(whole.out, pass ? Number(pass) : undefined, path?.split(' ').map((p) => p.split(',')));
    assert.deepEqual(t.out, want, args.join(' '));
    assert.deepEqual(t.heading, whole.heading, 'the heading stays');
    assert.ok(t.out.length < whole.out.length && t.out.at(-1) === whole.out.at(-1), args.join(' '));
  }
  // each pass is named by its depth: the hint's call in pass 3 finds its depth-1 entry and runs pass 2 alone
  const hint = tree('--fen', MATE, '--depth', '2', '--pass', '3', '--path', 'c7d6', '--no-board');
  assert.match(hint.out[1], /^ {2}c7d6 {2}D\(16, -8001, 8000, -7, 128, d6, 2\) +d 1 v -7 +hint \(best move first\)$/);
  assert.deepEqual(hint.out.filter((l) => /^ {4}pass /.test(l)).map((l) => /pass (\d+)/.exec(l)![1]), ['2']);
});

test('tree --no-board: the same tree without the heading; bad --pass and --path exit 2 with a reason', () => {
  const [whole, bare] = [tree('--nodes', '30'), tree('--nodes', '30', '--no-board')];
  assert.equal(bare.status, 0, bare.err);
  assert.ok(whole.heading.length > 9);
  assert.deepEqual([bare.heading, bare.out], [[], whole.out]);
  const bad = [
    [['--pass', '0'], /--pass wants a whole number from 1 to 99, not '0'/],
    [['--pass', '100'], /--pass wants a whole number from 1 to 99, not '100'/],
    [['--path', 'e2e9'], /--path: 'e2e9' is not a move like e2e4 \(or null\)/],
    [['--path', ' '], /--path: give the moves, one a ply/],
  ] as const;
  for (const [args, why] of bad) {
    const r = tree(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.err, why);
    assert.deepEqual([...r.heading, ...r.out], [], args.join(' '));
  }
});

test('tree --path: a move no call along the path made is said, with the moves made there (a promotion by its q), exit 2', () => {
  const cases: [string[], RegExp][] = [
    [['--nodes', '20', '--path', 'c2c5'], /^tree: --path: no call at ply 1 is c2c5, so nothing is drawn along it \(the moves made there: a2a3 a2a4 /],
    [['--fen', PROMOTION, '--nodes', '200', '--path', 'e7e8'],
      /^tree: --path: no call at ply 1 is e7e8 \(a promotion is named with its q: e7e8q\), so nothing is drawn along it/],
    [['--fen', MATE, '--pass', '3', '--path', 'b6b7 a8a7'],
      /^tree: --path: no call at ply 2 after b6b7 is a8a7, so nothing is drawn along it \(the moves made there: a8b8 a8b7 a7a6 a7a5 null\)\n$/],
    [['--fen', MATE, '--path', 'c7d6,c7d5'], /^tree: --path: no call at ply 1 is c7d5, /],
  ];
  for (const [args, said] of cases) {
    const r = tree(...args, '--no-board');
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.err, said, args.join(' '));
    assert.match(r.out.at(-1) ?? '', /^returns /, 'the tree is drawn all the same');
  }
  // a path whose every move was made: nothing said; the page is written, and refused with the same words
  const ok = tree('--fen', PROMOTION, '--nodes', '200', '--path', 'e7e8q', '--no-board');
  assert.deepEqual([ok.status, ok.err], [0, '']);
  const page = path.join(os.tmpdir(), `micromax-tree-path-${process.pid}.html`);
  const refused = tree('--nodes', '20', '--path', 'c2c5', '--html', page);
  assert.equal(refused.status, 2);
  assert.ok(!fs.existsSync(page), 'no page for a path that draws nothing');
});

test('tree: a promotion has one name, with its q, on call lines, pass lines and the result; the legend says what move → N is', () => {
  const t = tree('--fen', PROMOTION, '--nodes', '200', '--depth', '2', '--limit', '0');
  assert.equal(t.status, 0, t.err);
  const named = t.out.join('\n');
  assert.ok(!/\be7e8(?!q)/.test(named), 'e7e8 named without its q');
  assert.match(named, /^ {2}pass 2 done: .*best e7e8q$/m);
  assert.match(t.out.at(-1)!, /^returns -?\d+, best e7e8q, /);
  assert.ok(t.out.some((l) => /^ {2}e7e8q D\(/.test(l)), 'the move line');
  // a black pawn too, and a probe's stored best move (the hint's call finds pass 2's entry)
  const black = tree('--fen', 'k7/8/8/8/8/8/4p3/K7 b - - 0 1', '--nodes', '200', '--depth', '1', '--limit', '0');
  assert.match(black.out.at(-1)!, /best e2e1q, /);
  assert.ok(!/\be2e1(?!q)/.test(black.out.join('\n')));
  // move → N, in the legend whenever replies are drawn, --brief too; not with --depth 0
  const arrow = /^move → N: the reply's result, the position's value for the side to move there, the mover's opponent; so the mover's best move shows the lowest N\.$/;
  for (const args of [[], ['--brief'], ['--depth', '0']]) {
    const r = tree('--fen', MATE, ...args);
    assert.equal(r.heading.some((l) => arrow.test(l)), !args.includes('--depth'), args.join(' '));
  }
  // and it holds: the root's best move is the one whose reply returned the least (c7d6 → -7 in pass 2)
  const pass2 = tree('--fen', MATE, '--pass', '2', '--brief');
  const replies = pass2.out.filter((l) => /^ {2}\S+ +→ /.test(l)).map((l) => /^ {2}(\S+) +→ (-?\d+)/.exec(l)!.slice(1));
  const lowest = replies.reduce((a, b) => Number(b[1]) < Number(a[1]) ? b : a);
  assert.match(pass2.out.find((l) => /pass 2 done/.test(l))!, new RegExp(`best ${lowest[0]}$`));
});

/** What --brief should leave of a whole drawing, worked out here from each line alone: a call's move (and
 *  its result, when drawn on one line); a pass's depth, score and best move; the result and best move. */
function briefByHand(out: string[]): string[] {
  return out.map((l) => {
    const pad = l.slice(0, l.search(/\S/));
    const call = /^ *(\S+) +D\([^)]*\) .*?(?:→ (-?\d+).*)?$/.exec(l);
    if (call) return call[2] === undefined ? `${pad}${call[1]}` : `${pad}${call[1].padEnd(5)} → ${call[2]}`;
    const pass = /^( *pass \d+ done: )(?:\d+ nodes?, )?(score [^;]*)/.exec(l);
    if (pass) return pass[1] + pass[2];
    const end = /^( *→ -?\d+)(?: \(\d+ calls?\))?$/.exec(l);
    if (end) return end[1];
    return /^returns -?\d+(, best \w+)?/.exec(l)?.[0] ?? `not a line of the tree: ${l}`;
  });
}

test('tree --brief: each line\'s move and score alone, focused like the whole; the heading without the legend', () => {
  const cases = [['--fen', MATE, '--depth', '2'], ['--fen', MATE, '--depth', '0'], ['--nodes', '20', '--pass', '2'],
    ['--fen', MATE, '--depth', '2', '--pass', '3', '--path', 'b6b7'], ['--call', 'D(8, -8000, -50, 0, 128, 128, 3)']];
  for (const args of cases) {
    const [whole, brief] = [tree(...args), tree(...args, '--brief')];
    assert.equal(brief.status, 0, brief.err);
    assert.deepEqual(brief.out, briefByHand(whole.out), args.join(' '));
    assert.ok(brief.out.every((l) => !/\bD\(|\bempty\b|\d+ (calls?|nodes?)\b/.test(l)) && !brief.out.some((l) =>
      Object.values(TAG).some((t) => l.includes(t))), args.join(' '));
    assert.deepEqual(brief.heading, whole.heading.filter((l) => !l.startsWith('Each call:')), 'the legend of a full line goes');
    assert.equal(brief.heading.length, whole.heading.length - 1);
  }
  const both = tree('--brief', '--keys');
  assert.equal(both.status, 2);
  assert.match(both.err, /--brief leaves out the arguments, so --keys would show nothing/);
});

// ---- --stream --at N: the board of the call, after its move (issue 33, item 6) ----------------------

const CASTLE_FREE = 'k7/8/8/8/8/8/8/4K2R w K - 0 1';     // white may castle short: e1g1, the rook to f1

/** The call stream of an instrumented port (micromax.ts as it is, or `edit`ed) thinking once from `position`,
 *  written to a file in `dir`. */
function portStream(dir: string, name: string, position: string, nodes: number, edit?: [string, string]): string {
  let src = fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8');
  if (edit) {
    assert.equal(src.split(edit[0]).length, 2, `${edit[0]} is in micromax.ts once`);
    src = src.replace(edit[0], edit[1]);
  }
  const program = transpiled(instrumentPort(src), `micromax-calls-${name}`);
  const file = path.join(dir, `${name}.calls`);
  const r = spawnSync(process.execPath, [program, '--nodes', String(nodes)], { input: '\n',
    stdio: ['pipe', 'ignore', 'inherit', fs.openSync(file, 'w')], env: { ...process.env, MICROMAX_FEN: position } });
  assert.equal(r.status, 0);
  return file;
}
/** The stream's numbers of the first call whose move is `move` and which makes a call, and of that call. */
function callNumbers(file: string, move: string): [number, number] {
  let n = 0, depth = 0, at = 0, atDepth = 0;
  for (const l of fs.readFileSync(file, 'latin1').split('\n')) {
    if (l[0] === '<') { if (--depth < atDepth) at = 0; continue; }
    if (l[0] !== '>') continue;
    n++; depth++;
    if (at && depth === atDepth + 1) return [at, n];
    if (!at && l.startsWith(`> ${move} `)) { at = n; atDepth = depth; }
  }
  throw new Error(`no call ${move} with a call inside in ${file}`);
}
/** The lines of the heading's second board (the call's, after its move), and the line below it. */
function afterBoard(heading: string[]): { title: string; rows: string; note: string } {
  const at = heading.findIndex((l) => l.startsWith('The board of call '));
  assert.ok(at > 0, heading.join('\n'));
  return { title: heading[at], rows: placement(heading.slice(at, at + 9)), note: heading[at + 10] };
}

test('tree --stream --at N: the board after the call\'s move, each move made as D() makes it, checked against the stream\'s sum', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-tree-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = portStream(dir, 'port', CASTLE_FREE, 300);
  const [castles, reply] = callNumbers(file, 'e1g1');
  const at = tree('--stream', file, '--at', String(castles), '--limit', '1');
  assert.equal(at.status, 0, at.err);
  assert.equal(placement(at.heading), new Chess(CASTLE_FREE).fen().split(' ')[0], 'first the position main() searched');
  const game = new Chess(CASTLE_FREE);
  game.move('O-O');
  const after = afterBoard(at.heading);
  assert.equal(after.title, `The board of call ${castles}, after e1g1, each move made as D() makes it:`);
  assert.equal(after.rows, game.fen().split(' ')[0]);
  assert.match(after.note, new RegExp(`^ {2}\\(the stream's sum of every board on the way, \\d+ at call ${castles}, agrees\\)$`));
  // a ply deeper: both moves made
  const below = tree('--stream', file, '--at', String(reply), '--limit', '1');
  const move = /reached by e1g1 (\S+) from this position/.exec(below.heading[0])?.[1];
  assert.ok(move, below.heading[0]);
  game.move({ from: move.slice(0, 2), to: move.slice(2, 4) });
  assert.equal(afterBoard(below.heading).rows, game.fen().split(' ')[0]);
  // the first ply's call has the position main() searched as its board: no second board
  assert.ok(!tree('--stream', file, '--limit', '1').heading.some((l) => l.startsWith('The board of call ')));
});

test('tree --stream --at N: a port whose castling puts a bishop on f1 shows on the board, at the call that made it', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-tree-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = portStream(dir, 'bishop', CASTLE_FREE, 300, ['if (!(G & M)) { b[F] = k + 6;', 'if (!(G & M)) { b[F] = k + 5;']);
  const [castles, reply] = callNumbers(file, 'e1g1');
  const at = afterBoard(tree('--stream', file, '--at', String(castles), '--limit', '1').heading);
  assert.equal(at.rows, 'k7/8/8/8/8/8/8/5RK1', 'the board as D() makes the move');
  assert.match(at.note, /^ {2}the program's board differs: at this call the stream's sum is \d+, this board's \d+: it fits this board with f1 holding B \(code 13\), not R \(code 14\)$/);
  const deeper = afterBoard(tree('--stream', file, '--at', String(reply), '--limit', '1').heading);
  assert.match(deeper.note, new RegExp(`^ {2}the program's board differs: at call ${castles}, after e1g1, the stream's sum is \\d+`));
});

test('tree --stream: a first line starting with % (the stream\'s settings) is passed over', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-tree-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = portStream(dir, 'port', CASTLE_FREE, 300), headed = path.join(dir, 'headed.calls');
  fs.writeFileSync(headed, `% micro-Max 3.2 calls: nodes 300\n${fs.readFileSync(file, 'latin1')}`);
  const [plain, withHeader] = [file, headed].map((f) => tree('--stream', f, '--at', '4', '--limit', '0'));
  assert.equal(withHeader.status, 0, withHeader.err);
  assert.deepEqual(withHeader.out, plain.out);
  assert.deepEqual(withHeader.heading.slice(1), plain.heading.slice(1));
  const [first, think] = [file, headed].map((f) => tree('--stream', f, '--limit', '0'));
  assert.deepEqual(think.out, first.out);
});
