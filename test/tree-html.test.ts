// `npm run tree -- --html FILE` (`test/tools/tree.ts`, `test/support/tree-html*.ts`): the page's
// data is read back by the format its writer documents and compared call for call with the port's
// call stream, read here on its own: every number and pass, every board (by the stream's SUM),
// every move's gain (by `D()`'s arithmetic on the engine's own centre table), every window and the
// call that set it; `--call`, `--pass`, `--path`, `--stream --at`; what `--pass` and `--path` leave
// out counted per pass against the stream; a 3,000-node page under 2 MB, bigger ones refused with
// how to narrow them; the companion's sentences it quotes. Then Debian's chromium, driven by
// playwright-core, opens pages from disk: calls selected by arrow key, click and `#call-N` show the
// stream's values; no console error, nothing fetched; a screenshot in the temporary directory, the
// open time as a diagnostic; calls below a call and a pass's moves searched told apart, what an
// option left out said as not drawn (never 0), the move that set a window named when not drawn; the
// reader's list: the header's count with `--depth 0`, move → N, why the first call is call 34 after
// two typed moves, the board's check-sum and the slot in plain words, no sideways scrolling at 1400
// and 1000 px, a quote's example figures left out, a promotion's q on pass lines. Pages of two
// searches (`--against`, `--program`): a copy with a knight worth 4 and a porter's stream with one
// wrong field (Z), each side's calls its stream's, the first difference the first line where the
// two streams differ and the one `compare --calls` reports (with `MICROMAX_C`: the C changed the
// same way) and `conformance --calls` reports, whose printed command draws it; in chromium it opens
// there, both boards and numbers shown, the differing fields marked, arrow keys, clicks and links;
// two searches of 3,000 calls and more each under 3 MB, the open time as a diagnostic.
//
// Without chromium the browser tests are skipped, unless MICROMAX_GUI_TESTS=1 (set by CI) makes
// that a failure.
//
// time: 95 s

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { I, parse, runCalls, sqText, type Call, type Pass, type PassEnd, type Side, type Store, type Take } from './support/calls.ts';
import { cSource, whyNoC } from './support/c-oracle.ts';
import { applyEdits, changeOf } from './support/exercises.ts';
import { SCRIPTS } from './support/scripts.ts';
import { storedLines } from './support/stored-calls.ts';
import { ROOT, toolArgv } from './support/run.ts';
import { WORDS, sentenceOf, slug } from './support/tree-html.ts';
import { MAX_BYTES, MAX_TWO_BYTES } from './support/tree-html-page.ts';
import { begin, engine } from '../micromax.ts';

const MATE = 'k7/p1K5/1P6/8/8/8/8/8 w - - 0 1';
const CASTLE_FREE = 'k7/8/8/8/8/8/8/4K2R w K - 0 1';
const PROMOTION = 'k7/4P3/8/8/8/8/8/K7 w - - 0 1';
const EN_PASSANT = 'e2e4 a7a6 e4e5 d7d5';                 // white may take d5 en passant: e5d6
const CHROMIUM = '/usr/bin/chromium';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-tree-html-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The tool, run to completion. */
function tool(...args: string[]): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, toolArgv('tree', args), { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28,
    timeout: 200_000 });                                 // (a tool that hangs fails its test, and ends)
  return { status: r.status, out: r.stdout, err: r.stderr };
}

// ---- the stream, read here --------------------------------------------------------------------------

interface SPass { end?: PassEnd; takes: Take[]; store?: Store; trace?: Pass; nullV?: number; kids: SCall[] }
interface SCall { no: number; up?: SCall; c: Call; passes: SPass[]; v?: number; after?: number; inside: number; pass?: SPass }

/** Every call of a stream, numbered from 1 in the order of its lines. */
function readStream(lines: string[]): SCall[] {
  const all: SCall[] = [], open: SCall[] = [];
  for (const l of lines) {
    if (!l || l[0] === '%') continue;
    const e = parse(l), top = open.at(-1);
    if (e.t === '>') {
      const call: SCall = { no: all.length + 1, up: top, c: e, passes: [], inside: 0 };
      for (const o of open) o.inside++;
      if (top) {
        let pass = top.passes.at(-1);
        if (e.move !== 'null' && (!pass || pass.end)) top.passes.push(pass = { takes: [], kids: [] });
        pass!.kids.push(call);
        call.pass = pass;
      }
      all.push(call);
      open.push(call);
    } else if (e.t === '<') {
      const c = open.pop()!;
      c.v = e.v; c.after = e.N;
      if (c.c.move === 'null') c.pass!.nullV = e.v;
    } else if (e.t === '#' || e.t === '!') {
      let pass = top!.passes.at(-1);
      if (!pass || pass.end) top!.passes.push(pass = { takes: [], kids: [] });
      if (e.t === '#') pass.takes.push(e); else pass.end = e;
    } else if (e.t === 's') top!.passes.at(-1)!.store = e;
    else if (e.t === '=') top!.passes.at(-1)!.trace = e;
  }
  return all;
}
/** The calls of one call's search: it and every call inside it. */
function searchOf(all: SCall[], first: SCall): SCall[] {
  const at = all.indexOf(first);
  return all.slice(at, at + first.inside + 1);
}
/** The port's stream for this input. */
async function portLines(input: string, nodes?: number, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const r = runCalls('port', input, { nodes }, env), out: string[] = [];
  for (let l = await r.lines.next(); l !== undefined; l = await r.lines.next()) out.push(l);
  await r.done;
  return out;
}

// ---- the page's data, read back by its documented format (test/support/tree-html-page.ts) ---------

interface DPass { d: number; m: number; cut: number; X: number; Y: number; store: number[] | 0; takes: number[][] | 0; trace: number[] | 0; final: number | null;
  hidden: [number, number, string] | 0 }
interface DCall {
  no: number; up: number; pass: number; move: string; k: number; q: number; l: number; e: number; E: number; z: number;
  n: number; N: number; probe: number | number[]; v: number | null; after: number | null; inside: number;
  changes: number[] | 0 | -1; best: number | null; passes: DPass[]; gain: number[] | 0; hint: number; sumOk: number;
  sum?: number;                                          // the stream's SUM, given when the board does not agree
  J?: number; Z?: number; board: number[];
  bestBy?: { no: number; move: string };                 // the call whose score is `best` (none: the pass's start)
}
interface PageData { title: string; command: string; keys: boolean; counted: number; board: number[] | null;
  centre: number[]; words: Record<string, [string, string, string]>; calls: unknown[][] }

function pageDataOf(file: string): PageData {
  const html = fs.readFileSync(file, 'utf8');
  const m = /<script type="application\/json" id="data">([^<]*)<\/script>/.exec(html);
  assert.ok(m, `${file}: no data`);
  return JSON.parse(m[1]) as PageData;
}
function decode(data: PageData): DCall[] {
  const out: DCall[] = [];
  data.calls.forEach((r, i) => {
    const f = r as [number, number, number, string, number, number, number, number, number, number, number, number,
      number | number[], number | null, number | null, number, number[] | 0 | -1, number | null | [number, number, string?],
      unknown[][], number[] | 0, number, number | [number, number], number, number];
    const passes = f[18].map((p) => ({ d: p[0], m: p[1], cut: p[2], X: p[3], Y: p[4], store: p[5] ?? 0, takes: p[6] ?? 0,
      trace: p[7] ?? 0, final: p.length > 8 ? p[8] : null, hidden: p[9] ?? 0 }) as DPass);
    const no = (i ? out[i - 1].no : 0) + f[0], b = f[17];
    // the best so far: m alone, or [m, how many calls back the call that set it is, its move when not drawn]
    const by = Array.isArray(b) ? { no: no - b[1], move: b[2] ?? out.find((o) => o.no === no - b[1])?.move ?? '(not found)' } : undefined;
    const up = f[1] ? i - f[1] : -1;
    const board = f[16] === -1 ? [] : up < 0 ? [...data.board!] : [...out[up].board];
    if (f[16] && f[16] !== -1 && board.length) for (let k = 0; k < f[16].length; k += 2) board[f[16][k]] = f[16][k + 1];
    out.push({ no, up, pass: f[2], move: f[3], k: f[4], q: f[5], l: f[6], e: f[7], E: f[8],
      z: f[9], n: f[10], N: f[11], probe: f[12], v: f[13], after: f[14], inside: f[15], changes: f[16],
      best: Array.isArray(b) ? b[0] : b, bestBy: by, passes, gain: f[19] ?? 0, hint: f[20] ?? 0,
      ...Array.isArray(f[21]) ? { sum: f[21][0], sumOk: f[21][1] } : { sumOk: f[21] ?? 1 }, ...data.keys ? { J: f[22], Z: f[23] } : {}, board });
  });
  return out;
}

// ---- D()'s arithmetic, on the engine's own tables --------------------------------------------------

begin();                                                   // init(): the board, its centre table
const W = [0, 1, 1, 3, -1, 3, 5, 9];
const centre = (s: number): number => engine.board[s + 8];          // init()'s table, in the board's right half
const to64 = (s: number): number => 8 * (s >> 4) + (s & 7);
const sq = (name: string): number => 16 * (56 - name.charCodeAt(1)) + name.charCodeAt(0) - 97;
const sum = (b: number[]): number => b.reduce((t, u, i) => t + (i + 1) * u, 0);
const scoreFor = (up: Call, v: number): number => 0 - v - +(0 - v > up.e);   // (0 - v: never -0, as C's ints)

/** The best score m of the caller's pass when call s was made, as D() keeps it, and the call whose score
 *  it is (none: the pass's start, -8000, or e for a pass of depth 1). */
function bestSoFar(s: SCall): { m: number; by?: SCall } {
  const up = s.up!, pass = s.pass!;
  let m = pass.end!.d > 1 ? -I : up.c.e, by: SCall | undefined;
  for (const k of pass.kids.slice(0, pass.kids.indexOf(s))) {
    if (up.c.z !== 9 && (k.c.hint || scoreFor(up.c, k.v!) > m)) { m = scoreFor(up.c, k.v!); by = k; }
  }
  return { m, by };
}

/** The page's data against the stream's calls, one for one; returns how many calls and moves were checked. */
function compare(page: DCall[], stream: SCall[], keys = false): { calls: number; gains: number } {
  assert.equal(page.length, stream.length, 'one page call a stream call');
  const index = new Map(stream.map((s, i) => [s, i]));
  let gains = 0;
  page.forEach((p, i) => {
    const s = stream[i], c = s.c, at = `call ${s.no} (${c.move})`;
    assert.deepEqual([p.no, p.up, p.move, p.k, p.q, p.l, p.e, p.E, p.z, p.n, p.N, p.hint, p.v, p.after, p.inside],
      [s.no, s.up && index.has(s.up) ? index.get(s.up) : -1, c.move, c.k, c.q, c.l, c.e, c.E, c.z, c.n, c.N, +c.hint, s.v, s.after, s.inside], at);
    if (keys) assert.deepEqual([p.J, p.Z], [c.J, c.Z], at);
    const probe = !c.probe ? 0 : c.probe.d === undefined ? [c.probe.slot, c.probe.left]
      : [c.probe.slot, c.probe.left, c.probe.d, c.probe.v, c.probe.X, c.probe.Y];
    assert.deepEqual(p.probe, probe, at);
    // the passes: each '!' line, its king captures, its store, its trace line, the null move's verdict
    const slot = c.probe ? c.probe.slot : 0;
    assert.deepEqual(p.passes.map((x) => [x.d, x.m, x.cut, x.X, x.Y, x.store ? [x.store.length > 4 ? x.store[4] : slot, ...x.store.slice(0, 4)] : 0,
      x.takes || [], x.trace || 0, x.final]), s.passes.map((x) => [x.end!.d, x.end!.m, +x.end!.cut, x.end!.X, x.end!.Y,
      x.store ? [x.store.slot, x.store.d, x.store.v, x.store.X, x.store.Y] : 0, x.takes.map((t) => [+t.king, t.x, t.y]),
      x.trace ? [x.trace.d, x.trace.N, x.trace.m, x.trace.X, x.trace.Y] : 0, x.nullV === undefined ? null : Math.trunc(-x.nullV / 2)]), at);
    assert.ok(p.passes.every((x) => x.hidden === 0), `${at}: nothing hidden`);
    // the board: its sum is the stream's, whatever moves made it
    assert.equal(sum(p.board), c.sum, `${at}: the board's sum`);
    assert.equal(p.sumOk, 1, at);
    if (p.up < 0) return;
    const up = stream[p.up], pass = s.pass!;
    assert.equal(p.pass, pass.end?.d, `${at}: the pass that made it`);
    // the best m of that pass when the call was made, worked out here, and the window it gave
    const { m, by } = bestSoFar(s);
    assert.equal(p.best, m, `${at}: the caller's best so far`);
    assert.deepEqual(p.bestBy, by && { no: by.no, move: by.c.move }, `${at}: the call whose score it is`);
    if (c.move === 'null') {
      assert.deepEqual([c.q, c.l, c.e, c.n, p.board], [-I, I, 0, 1, page[p.up].board], at);
      return;
    }
    assert.deepEqual([c.q, c.l], [0 - up.c.l - +(up.c.l > up.c.e), m > up.c.q ? 0 - m : 0 - up.c.q], `${at}: the window`);
    // the gain: D()'s steps on the caller's board and this one
    const before = page[p.up].board, x = sq(c.move.slice(0, 2)), y = sq(c.move.slice(2, 4)), u = before[to64(x)], t7 = u & 7;
    const H = t7 < 3 && y === up.c.E ? y ^ 16 : y, taken = before[to64(H)];
    const partner = (s2: number): number => +((s2 & 0x88) !== 0 || p.board[to64(s2)] !== u);
    const parts = {
      centre: t7 < 6 ? centre(x) - centre(y) : 0, pawn: t7 < 3 ? -9 * (partner(x - 2) + partner(x + 2) - 1) + 0 : 0,   // (+ 0: never -0)
      castling: t7 === 4 && Math.abs(x - y) === 2 ? 30 : 0, capture: 99 * W[taken & 7], promotion: c.move.length === 5 ? 799 : 0,
    };
    const total = parts.centre + parts.pawn + parts.castling + parts.capture + parts.promotion;
    assert.equal(0 - up.c.e - total, c.e, `${at}: e = -(caller's e) - what the move earned`);
    const g = p.gain as number[], field = (k: number): number => g[k] ?? 0;
    assert.deepEqual([field(0), field(1), field(4), field(5), field(6), field(7), field(8)],
      [parts.centre, parts.pawn, parts.castling, taken, parts.capture, parts.promotion, +(H !== y)], `${at}: the gain's parts`);
    if (t7 < 3) assert.deepEqual([field(2), field(3)], [partner(x - 2), partner(x + 2)], at);
    gains++;
  });
  return { calls: page.length, gains };
}

/** A focused page (--pass, --path) against the whole stream: each pass of a drawn call counts the calls it
 *  made that are not drawn, and all the calls below those, and names the option that left them out; each
 *  drawn call names the call whose score set its caller's best so far, drawn or not. Returns how many
 *  passes left calls out. */
function compareFocused(page: DCall[], all: SCall[], focus: { pass?: number }): number {
  const byNo = new Map(all.map((s) => [s.no, s])), drawn = new Set(page.map((p) => p.no));
  let hiding = 0;
  page.forEach((p, i) => {
    const s = byNo.get(p.no)!, at = `call ${s.no} (${s.c.move})`;
    assert.equal(p.passes.length, s.passes.length, at);
    p.passes.forEach((x, j) => {
      const kids = s.passes[j].kids, hid = kids.filter((k) => !drawn.has(k.no));
      assert.equal(page.filter((k) => k.up === i && k.pass === x.d).length, kids.length - hid.length, `${at}, pass ${x.d}: drawn`);
      const why = p.up < 0 && focus.pass !== undefined && x.d !== focus.pass ? 'pass' : 'path';
      assert.deepEqual(x.hidden, hid.length ? [hid.length, hid.reduce((n, k) => n + 1 + k.inside, 0), why] : 0, `${at}, pass ${x.d}: not drawn`);
      hiding += +(hid.length > 0);
    });
    if (p.up < 0) return;
    const { m, by } = bestSoFar(s);
    assert.deepEqual([p.best, p.bestBy], [m, by && { no: by.no, move: by.c.move }], `${at}: the caller's best so far, and whose`);
  });
  return hiding;
}

/** The page the tool writes for these arguments, read back. */
function page(name: string, ...args: string[]): { data: PageData; calls: DCall[]; file: string; bytes: number; err: string } {
  const file = path.join(dir, `${name}.html`);
  const r = tool(...args, '--html', file, '--limit', '1');
  assert.equal(r.status, 0, r.err);
  const data = pageDataOf(file);
  return { data, calls: decode(data), file, bytes: fs.statSync(file).size, err: r.err };
}

// ---- the data ----------------------------------------------------------------------------------------

test('tree --html: the page holds every call of the search, each number the stream\'s, each board and gain D()\'s', async (t) => {
  const cases: { name: string; args: string[]; input: string; nodes?: number; env?: NodeJS.ProcessEnv; what: string }[] = [
    { name: 'mate', args: ['--fen', MATE], input: '\n', env: { MICROMAX_FEN: MATE }, what: 'the mate in one' },
    { name: 'castle', args: ['--fen', CASTLE_FREE, '--nodes', '300'], input: '\n', nodes: 300, env: { MICROMAX_FEN: CASTLE_FREE }, what: 'castling' },
    { name: 'promotion', args: ['--fen', PROMOTION, '--nodes', '200'], input: '\n', nodes: 200, env: { MICROMAX_FEN: PROMOTION }, what: 'a promotion' },
    { name: 'ep', args: ['--moves', EN_PASSANT, '--nodes', '500', '--keys'], input: EN_PASSANT.split(' ').join('\n') + '\n\n', nodes: 500,
      what: 'en passant, after typed moves, with --keys' },
    { name: 'opening', args: ['--nodes', '3000'], input: '\n', nodes: 3000, what: 'the opening, 3,000 nodes' },
  ];
  const seen = { castling: 0, promotion: 0, enPassant: 0, capture: 0, pawn: 0 };
  for (const c of cases) {
    const p = page(c.name, ...c.args);
    const all = readStream(await portLines(c.input, c.nodes, c.env ?? {}));
    const think = all.find((s) => !s.up && s.c.z === 8)!;
    const checked = compare(p.calls, searchOf(all, think), c.args.includes('--keys'));
    assert.equal(p.data.counted, think.inside + 1, 'the page counts every call');
    for (const d of p.calls) {
      const g = d.gain as number[];
      if (!g) continue;
      seen.castling += +((g[4] ?? 0) > 0); seen.promotion += +((g[7] ?? 0) > 0); seen.enPassant += +((g[8] ?? 0) > 0);
      seen.capture += +((g[6] ?? 0) > 0); seen.pawn += +(g[1] !== undefined);
    }
    t.diagnostic(`${c.what}: ${checked.calls} calls, ${checked.gains} moves' gains, ${(p.bytes / 1024).toFixed(0)} kB`);
  }
  assert.ok(Object.values(seen).every((n) => n > 0), `every kind of move met: ${JSON.stringify(seen)}`);
});

test('tree --html: --call, --pass and --path focus the page as they focus the text; --stream --at N draws call N on its board', async (t) => {
  // one call on an empty table
  const one = page('call', '--call', 'D(8, -8000, -50, 0, 128, 128, 3)');
  const callStream = readStream(await portLines('\n', undefined, { MICROMAX_CALL: '8 -8000 -50 0 128 128 3' }));
  compare(one.calls, searchOf(callStream, callStream[0]));
  // --pass 3 --path c7d6,c7c6: the first call, and of its calls those in pass 3 along those moves, with all below
  const focus = page('focus', '--fen', MATE, '--pass', '3', '--path', 'c7d6,c7c6');
  const all = readStream(await portLines('\n', undefined, { MICROMAX_FEN: MATE }));
  const kept = searchOf(all, all[0]).filter((s) => {
    let top = s;
    while (top.up?.up) top = top.up;
    return s === all[0] || (top.pass!.end!.d === 3 && ['c7d6', 'c7c6'].includes(top.c.move));
  });
  assert.ok(kept.length > 3 && kept.length < all.length / 2, `${kept.length} of ${all.length}`);
  assert.deepEqual(focus.calls.map((c) => c.no), kept.map((s) => s.no));
  // (the counts inside each call are the whole search's, drawn or not)
  assert.equal(focus.data.counted, all[0].inside + 1);
  // --stream --at N: call N of a stream file, numbered as the stream numbers it, on the board its moves made
  const file = path.join(dir, 'opening.calls'), lines = await portLines('\n', 3000);
  fs.writeFileSync(file, `% micro-Max 3.2 calls: nodes 3000\n${lines.join('\n')}\n`);
  const stream = readStream(lines), deep = stream.find((s) => s.up?.up?.up && s.inside > 3 && s.c.move !== 'null')!;
  const at = page('at', '--stream', file, '--at', String(deep.no));
  compare(at.calls, searchOf(stream, deep));
  assert.equal(at.calls[0].no, deep.no);
  // a stream that names no move ('?', as another program may write): no board below the first call, and none drawn
  fs.writeFileSync(file, lines.map((l) => l.replace(/^> (?!- )\S+/, '> ?')).join('\n') + '\n');
  const unknown = page('unknown', '--stream', file, '--at', String(deep.no));
  assert.deepEqual(unknown.calls.map((c) => [c.no, c.board.length, c.sumOk, c.sum]),
    at.calls.map((c) => [c.no, 0, -1, searchOf(stream, deep).find((x) => x.no === c.no)!.c.sum]));
  t.diagnostic(`--call: ${one.calls.length} calls; focused: ${focus.calls.length} of ${all.length}; --at ${deep.no}: ${at.calls.length} calls`);
});

/** The mate's last step: black, after b6b7, its king in check (the companion's mate page). */
const B7 = 'k7/pPK5/8/8/8/8/8/8 b - - 0 1';

test('tree --html: what --pass and --path leave out is counted as not drawn, never as none; the call that set a window is named, drawn or not', async (t) => {
  // --call, --pass 2: the call's pass 1 made one call, a8b7, that --pass leaves out
  const mate = page('hid-mate', '--fen', B7, '--call', 'D(16, -8000, 8000, 0, 128, b7, 2)', '--pass', '2');
  const mateAll = readStream(await portLines('\n', undefined, { MICROMAX_FEN: B7, MICROMAX_CALL: '16 -8000 8000 0 128 17 2' }));
  compareFocused(mate.calls, mateAll, { pass: 2 });
  assert.deepEqual(mate.calls[0].passes[0].hidden, [1, 1, 'pass'], 'pass 1: one call, not drawn');
  // the opening, --pass 2 --path c2c4,g1f3: c2c4's l is minus c2c3's score, c2c3 not drawn
  const score = page('hid-score', '--nodes', '20', '--pass', '2', '--path', 'c2c4,g1f3');
  const scoreAll = readStream(await portLines('\n', 20));
  compareFocused(score.calls, scoreAll, { pass: 2 });
  const c2c4 = score.calls.find((c) => c.move === 'c2c4')!;
  assert.deepEqual([c2c4.l, c2c4.best, c2c4.bestBy?.move], [-12, 12, 'c2c3']);
  // the mate in one, --pass 3 --path c7d6,c7c6: calls left out by both options, at the first ply
  const deep = page('hid-deep', '--fen', MATE, '--pass', '3', '--path', 'c7d6,c7c6');
  const deepAll = readStream(await portLines('\n', undefined, { MICROMAX_FEN: MATE }));
  const hiding = compareFocused(deep.calls, deepAll, { pass: 3 });
  assert.deepEqual(deep.calls[0].passes.map((x) => x.hidden && x.hidden[2]), [0, 'pass', 'path'], '(a root\'s pass 1: no recapture)');
  t.diagnostic(`${hiding} passes of the mate in one's focused page leave calls out`);
});

test(`tree --html: a 3,000-node search's page is under ${MAX_BYTES / 1e6} MB; a bigger one is refused, saying how to narrow it`, () => {
  const p = page('size', '--nodes', '3000');
  assert.ok(p.bytes < MAX_BYTES, `${p.bytes} bytes`);
  assert.match(p.err, /^tree: wrote \S+size\.html \(\d+ calls, \d+ kB\): open it in a browser\n$/);
  const file = path.join(dir, 'big.html'), after = ['--moves', 'e2e4 e7e5', '--nodes', '3000'];
  const big = tool(...after, '--html', file, '--limit', '1');
  assert.equal(big.status, 2, big.err);
  assert.match(big.err, /^tree: --html: the page would be \d+\.\d MB \(\d+ calls\), more than 2 MB, which a browser opens slowly: narrow it to one pass of the first call \(--pass P\), to the calls along some moves \(--path "e2e4 e7e5"\), or a smaller search \(--nodes N\)\n$/);
  assert.ok(!fs.existsSync(file), 'no page written');
  assert.match(big.out, /^root /m, 'the text is drawn all the same');
  for (const narrow of [['--pass', '4'], ['--path', 'b1c3']]) {
    const r = tool(...after, ...narrow, '--html', file, '--limit', '1');
    assert.equal(r.status, 0, r.err);
    assert.ok(fs.statSync(file).size < MAX_BYTES);
    fs.rmSync(file);
  }
  // far bigger: refused as it is read, before the whole search is
  const huge = tool('--nodes', '10000', '--html', file, '--limit', '1');
  assert.equal(huge.status, 2);
  assert.match(huge.err, /^tree: --html: the page would hold more than 60000 calls, far more than it can show well: narrow it to one pass of the first call \(--pass P\), to the calls along some moves \(--path "e2e4 e7e5"\), or a smaller search \(--nodes N\)\n$/);
});

test('tree --html: the companion\'s words the page quotes are sentences of annotated/README.md, linked to their sections', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'annotated', 'README.md'), 'utf8');
  const p = page('words', '--fen', MATE, '--depth', '0');
  for (const [key, [section, holds]] of Object.entries(WORDS)) {
    const sentence = sentenceOf(readme, section, holds);
    assert.ok(readme.replace(/\s+/g, ' ').includes(sentence), `${key}: "${sentence}"`);
    assert.match(sentence, /^[A-Z`*(].*[.:]$/, `${key}: a whole sentence`);
    assert.ok(readme.includes(`\n## ${section}\n`));
    const [html, href, name] = p.data.words[key];
    assert.equal(name, section);
    assert.ok(html.length > 20 && !/[`*]|\]\(/.test(html), `${key}: the marks are HTML: ${html}`);
    assert.ok(href.endsWith(`README.md#${slug(section)}`), href);
  }
  // the link from a page in annotated/pages/ is relative: ../README.md
  const inside = path.join(ROOT, 'annotated', 'pages', 'words-test.html');
  const r = tool('--fen', MATE, '--depth', '0', '--html', inside);
  try {
    assert.equal(r.status, 0, r.err);
    assert.equal(pageDataOf(inside).words.cutoff[1], '../README.md#alpha-beta');
  } finally {
    fs.rmSync(inside, { force: true });
  }
});

// ---- in a browser ----------------------------------------------------------------------------------

const noBrowser = fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (apt-get install chromium)`;
const mustBrowse = process.env.MICROMAX_GUI_TESTS === '1';

/** What the page shows for the call selected: the call's number, its heading, its arguments' cells, the
 *  codes of its board, its result, the link the address bar holds, the row marked in the tree. */
interface Shown { selected: string; title: string; fields: Record<string, string>; codes: number[]; hash: string; row: string }
const SHOWN = (): Shown => {
  const call = document.getElementById('call')!, fields: Record<string, string> = {};
  for (const el of call.querySelectorAll('[data-field]')) fields[(el as HTMLElement).dataset.field!] = el.textContent!;
  const board = call.querySelector('table.board') as HTMLElement | null;
  return { selected: document.body.dataset.selected!, title: fields.title, fields,
    codes: board ? board.dataset.codes!.split(' ').map(Number) : [], hash: location.hash,
    row: document.querySelector('.row.sel')?.id ?? '' };
};

/** What is shown against the stream's call. */
function checkShown(shown: Shown, s: SCall, top: string): void {
  const c = s.c, at = `call ${s.no} (${c.move})`;
  assert.deepEqual([shown.selected, shown.hash, shown.row], [String(s.no), `#call-${s.no}`, `call-${s.no}`], at);
  assert.equal(shown.title, `Call ${s.no}: ${s.up ? c.move : top}, ${c.k === 8 ? 'white' : 'black'} to move`, at);
  const f = shown.fields;
  assert.deepEqual([f.k, f.q, f.l, f.e, f.E, f.z, f.n, f.N].map(String),
    [c.k, c.q, c.l, c.e, c.E === 0 ? '0' : sqText(c.E), sqText(c.z), c.n, c.N].map(String), at);   // (E 0: a first think's)
  assert.equal(sum(shown.codes), c.sum, `${at}: the board shown has the stream's sum`);
  assert.match(f.result, new RegExp(`^Result: ${s.v}[,.]`), at);
  if (s.up && c.move !== 'null') {
    assert.equal(Number(f.earned), 0 - s.up.c.e - c.e, `${at}: what the move earned`);
    const score = scoreFor(s.up.c, s.v!);
    assert.match(f.score, new RegExp(`the move scores −\\(${s.v}\\) = ${0 - s.v!}(, above .* a point less)?: ${score}\\. `), at);
  }
  for (const p of s.passes) assert.ok(f[`m${p.end!.d}`]?.startsWith(String(p.end!.m)), `${at}: pass ${p.end!.d}`);
}

/** Debian's chromium, headless, on a fresh profile, both ended in t.after: its one tab, how to open a page
 *  (and its time to load), what the page shows, and the console errors (or fetches) seen. */
async function browse(t: TestContext): Promise<{ tab: Page; open: (url: string) => Promise<number>; shown: () => Promise<Shown>; errors: string[] }> {
  assert.equal(noBrowser, undefined, noBrowser);
  const { chromium } = await import('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  t.after(async () => {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });
  const tab = browser.pages()[0] ?? await browser.newPage();
  const errors: string[] = [];
  tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  tab.on('pageerror', (e) => errors.push(String(e)));
  tab.on('request', (r) => { if (!r.url().startsWith('file:')) errors.push(`fetched ${r.url()}`); });
  const open = async (url: string): Promise<number> => {
    const start = Date.now();
    await tab.goto(url);
    await tab.waitForSelector('body[data-ready="1"]');
    return Date.now() - start;
  };
  const shown = (): Promise<Shown> => tab.evaluate(SHOWN);
  return { tab, open, shown, errors };
}

test('tree --html in chromium: calls selected by keyboard, click and link show the stream\'s numbers; no console error', {
  skip: noBrowser && !mustBrowse ? `skipped: ${noBrowser}` : false, timeout: 300_000 }, async (t) => {
  const { tab, open, shown, errors } = await browse(t);

  // the mate in one, every call in turn by the arrow key, as the engine made them
  const mate = page('browser-mate', '--fen', MATE);
  const all = readStream(await portLines('\n', undefined, { MICROMAX_FEN: MATE })), calls = searchOf(all, all[0]);
  const url = new URL(`file://${mate.file}`).href;
  await open(url);
  for (const [k, s] of calls.entries()) {
    if (k) await tab.keyboard.press('ArrowDown');
    checkShown(await shown(), s, 'root');
  }
  // ← the caller, → the first call inside
  const deep = calls.find((s) => s.up?.up && s.inside > 0)!;
  await tab.evaluate((no) => { location.hash = `#call-${no}`; }, deep.no);
  await tab.waitForFunction((no) => document.body.dataset.selected === String(no), deep.no);
  checkShown(await shown(), deep, 'root');
  await tab.keyboard.press('ArrowLeft');
  checkShown(await shown(), deep.up!, 'root');
  await tab.keyboard.press('ArrowRight');
  checkShown(await shown(), calls.find((s) => s.up === deep.up)!, 'root');
  // a click on a call's row selects it; a click on its ▸ unfolds and folds its calls (opened afresh: the
  // first call alone unfolded)
  await open(url);
  const second = calls.filter((s) => s.up === calls[0] && s.inside > 0)[1];
  await tab.click(`#call-${second.no} b`);
  checkShown(await shown(), second, 'root');
  const inside = (): Promise<boolean> => tab.evaluate((no) => {
    const box = document.getElementById(`call-${no}`)!.nextElementSibling as HTMLElement;
    return !box.hidden && box.querySelectorAll('.row').length > 0;
  }, second.no);
  assert.equal(await inside(), false);
  await tab.click(`#call-${second.no} .tog`);
  assert.equal(await inside(), true);
  const kid = calls.find((s) => s.up === second)!;
  await tab.click(`#call-${kid.no} b`);
  checkShown(await shown(), kid, 'root');
  await tab.click(`#call-${second.no} .tog`);
  assert.equal(await inside(), false);
  // a link to a call opens the page there, its callers unfolded
  const last = calls.at(-1)!;
  await open(`${url}#call-${last.no}`);
  checkShown(await shown(), last, 'root');
  const shot = path.join(os.tmpdir(), 'micromax-tree-html-screenshot.png');   // (each run's replaces the last)
  await tab.screenshot({ path: shot });
  assert.ok(fs.statSync(shot).size > 10_000);
  t.diagnostic(`the mate in one: ${calls.length} calls stepped through; a screenshot: ${shot}`);

  // the 3,000-node search: how long it takes to open, and calls all over it
  const big = page('browser-opening', '--nodes', '3000');
  const opening = readStream(await portLines('\n', 3000)), think = searchOf(opening, opening[0]);
  const times: number[] = [];
  for (let k = 0; k < 3; k++) times.push(await open(new URL(`file://${big.file}`).href));
  const ready = Number(await tab.evaluate(() => document.body.dataset.readyMs));
  t.diagnostic(`the 3,000-node page: ${(big.bytes / 1e6).toFixed(2)} MB, ${think.length} calls; opened in ${times.join(', ')} ms ` +
    `(its script done ${ready} ms after the navigation began)`);
  for (let k = 0; k < think.length; k += 97) {
    await tab.evaluate((no) => { location.hash = `#call-${no}`; }, think[k].no);
    await tab.waitForFunction((no) => document.body.dataset.selected === String(no), think[k].no);
    checkShown(await shown(), think[k], 'root');
  }
  const from = think.length >> 1;
  await tab.evaluate((no) => { location.hash = `#call-${no}`; }, think[from].no);
  await tab.waitForFunction((no) => document.body.dataset.selected === String(no), think[from].no);
  for (let k = from + 1; k < from + 60; k++) {
    await tab.keyboard.press('ArrowDown');
    checkShown(await shown(), think[k], 'root');
  }
  assert.deepEqual(errors, [], 'console errors, or something fetched');
});

test('tree --html in chromium: "calls" are all below a call, a pass\'s own are its moves searched; what an option left out is said so, never 0; the move that set a window is named', {
  skip: noBrowser && !mustBrowse ? `skipped: ${noBrowser}` : false, timeout: 120_000 }, async (t) => {
  const { tab, open, shown, errors } = await browse(t);
  const at = async (file: string, no: number): Promise<Shown> => {
    await open(`${new URL(`file://${file}`).href}#call-${no}`);
    return shown();
  };
  const passLines = (): Promise<string[]> => tab.evaluate(() => [...document.querySelectorAll('#tree .pass')].map((e) => e.textContent!));
  const heading = (): Promise<string> => tab.evaluate(() => document.querySelector('header')!.textContent!.replace(/\s+/g, ' '));

  // one meaning each: c7c6 has 6 calls below it, at all depths; its pass 2 searched 5 moves, a call each
  const deep = page('seen-deep', '--fen', MATE, '--pass', '3', '--path', 'c7d6,c7c6');
  const c7c6 = await at(deep.file, 31);
  assert.equal(c7c6.fields.title, 'Call 31: c7c6, black to move');
  assert.equal(c7c6.fields.result, 'Result: 3, after 6 calls below it, at all depths.');
  assert.equal(c7c6.fields.moves2, '5');
  const heads = await tab.evaluate(() => [...document.querySelectorAll('#call th')].map((e) => e.textContent!));
  assert.ok(heads.includes('moves searched') && !heads.includes('calls'), heads.join(' | '));

  // --pass 2: the call's pass 1 searched a8b7, left out by --pass: said so, not "0"
  const mate = page('seen-mate', '--fen', B7, '--call', 'D(16, -8000, 8000, 0, 128, b7, 2)', '--pass', '2');
  const first = await at(mate.file, 1);
  assert.equal(first.fields.moves1, '1, not drawn (--pass 2)');
  assert.equal(first.fields.moves2, '5');
  assert.equal(first.fields.result, 'Result: -4000, after 6 calls below it, at all depths; 1 of them not drawn (--pass 2).');
  assert.deepEqual(await passLines(), ['pass 1 done: score 0; its 1 move searched not drawn (--pass 2)',
    'pass 2 done: score -8000, -4000 after the null move']);
  assert.match(await heading(), /Not drawn: 1 of the search's 7 calls \(--pass 2\)\./);

  // --pass 2 --path c2c4,g1f3: c2c4's window was set by c2c3, which --path leaves out; g1f3's by c2c4, drawn
  const score = page('seen-score', '--nodes', '20', '--pass', '2', '--path', 'c2c4,g1f3', '--brief');
  const root = await at(score.file, 1);
  assert.equal(root.fields.moves2, '20, 18 not drawn (--path c2c4,g1f3)');
  assert.equal(root.fields.moves1, '0');                   // (a root's pass 1 searches recaptures: none)
  assert.match((await passLines())[1], /^pass 2 done: 21 nodes, score 14, best c2c4; 18 of its 20 moves searched not drawn \(--path c2c4,g1f3\)$/);
  const c2c4 = await at(score.file, 7);
  assert.match(c2c4.fields['l-how'], /the caller's best so far, m = 12 \(c2c3's score: call 6, not drawn \(--path c2c4,g1f3\)\)/);
  assert.match(c2c4.fields.score, /That beats the best so far \(12, c2c3's\): m = 14\./);
  const g1f3 = await at(score.file, 21);
  assert.match(g1f3.fields['l-how'], /the caller's best so far, m = 14 \(c2c4's score\)/);
  assert.equal(await tab.evaluate(() => document.querySelector('[data-field="l-how"] a')?.getAttribute('href')), '#call-7');
  assert.deepEqual(errors, [], 'console errors, or something fetched');
});

// ---- a page of two searches: --against, --program, and the kit's pointer to it ----------------------

interface TwoData { title: string; command: string; keys: boolean; nodes: [number, number, number, number][];
  first: { node: number; html: string }; sides: (PageData & { label: string; counted: number })[] }
const twoDataOf = (file: string): TwoData => pageDataOf(file) as unknown as TwoData;
/** A side's calls, read back by the page's format. */
const sideCalls = (d: TwoData, k: 0 | 1): DCall[] => decode({ ...d.sides[k], keys: d.keys });

/** A copy of micromax.ts with one change, as a learner saves it (exercise 8's: a knight worth 4). */
function knightCopy(): string {
  const file = path.join(dir, 'my-micromax.ts'), values = 'const values = fixed(0, 1, 1, 3, -1, 3, 5, 9);';
  const text = fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8');
  assert.ok(text.includes(values));
  fs.writeFileSync(file, text.replace(values, 'const values = fixed(0, 1, 1, 4, -1, 3, 5, 9);'));
  return file;
}
/** The knight copy's page at 300 nodes and both streams, made once for the tests that read them. */
let knight: { file: string; copy: string; streams: Promise<[string[], string[]]> } | undefined;
function knightPage(): { file: string; copy: string; streams: Promise<[string[], string[]]> } {
  if (knight) return knight;
  const copy = knightCopy(), file = path.join(dir, 'knight.html');
  const r = tool('--nodes', '300', '--against', copy, '--html', file);
  assert.equal(r.status, 0, r.err);
  knightOut = r.out;
  return knight = { file, copy, streams: Promise.all([portLines('\n', 300), linesOf({ copy }, '\n', 300)]) };
}
let knightOut = '';

/** A stream's lines, as a side writes them. */
async function linesOf(side: Side, input: string, nodes?: number): Promise<string[]> {
  const r = runCalls(side, input, { nodes }), out: string[] = [];
  for (let l = await r.lines.next(); l !== undefined; l = await r.lines.next()) out.push(l);
  await r.done;
  return out;
}

/** Where two streams first differ, worked out here: the line (the header is line 1), the call it is, and the
 *  fields of that call that differ (the two lines are both calls here). */
function firstDifferingCall(a: string[], b: string[]): { line: number; no: number; fields: string[] } {
  let k = 0, no = 0;
  while (a[k] === b[k]) { if (a[k][0] === '>') no++; k++; }
  const [x, y] = [parse(a[k]), parse(b[k])] as Call[];
  assert.ok(x.t === '>' && y.t === '>', `line ${k + 1} is a call on both sides`);
  const fields = (['move', 'k', 'q', 'l', 'e', 'J', 'Z', 'E', 'z', 'n', 'N', 'sum'] as const).filter((f) => x[f] !== y[f]);
  return { line: k + 1, no: no + 1, fields };
}

/** A page of two searches against both streams: each side's calls are its stream's; the first difference is
 *  the node of the stream's first differing call; before it, a call is drawn without the calls below it
 *  (counted, the same in both); the nodes align every call of each side once, the two calls of a node made
 *  by their callers' two calls, by the same move (but the first difference's pair). */
function checkTwo(d: TwoData, streams: [string[], string[]], first: { line: number; no: number; fields: string[] }): void {
  const [ca, cb] = [sideCalls(d, 0), sideCalls(d, 1)], [a, b] = d.nodes[d.first.node];
  const read = streams.map((s) => new Map(readStream(s).map((x) => [x.no, x])));
  for (const [k, calls] of [ca, cb].entries()) {
    const path = new Set<number>();                        // the calls open at the first difference
    for (let u = calls[k ? b : a].up; u >= 0; u = calls[u].up) path.add(u);
    calls.forEach((c, i) => {
      const s = read[k].get(c.no)!, at = `${d.sides[k].label}, call ${c.no}`;
      assert.deepEqual([c.move, c.k, c.q, c.l, c.e, c.E, c.z, c.n, c.N, c.v, c.inside], [s.c.move, s.c.k, s.c.q, s.c.l, s.c.e, s.c.E,
        s.c.z, s.c.n, s.c.N, s.v, s.inside], at);
      assert.equal(sum(c.board), s.c.sum, `${at}: the board`);
      if (c.no >= first.no || path.has(i)) return;
      // returned before the difference: drawn alone, the calls below it counted as the same in both
      const hid = c.passes.reduce((n, p) => n + (p.hidden ? p.hidden[1] : 0), 0);
      assert.deepEqual([calls.some((x) => x.up === i), hid, c.passes.every((p) => !p.hidden || p.hidden[2] === 'same')],
        [false, c.inside, true], `${at}: returned before the difference`);
    });
  }
  assert.deepEqual([ca[a].no, cb[b].no], [first.no, first.no], 'the page opens on the first differing call');
  assert.match(d.first.html, new RegExp(`line ${first.line} of each stream: ${first.fields.map((f) => `<b>${f}</b> \\(`).join('.*; ')}`));
  // the alignment
  const seen = [new Set<number>(), new Set<number>()];
  d.nodes.forEach(([x, y, up, pass], j) => {
    if (x >= 0) seen[0].add(x);
    if (y >= 0) seen[1].add(y);
    if (up < 0) return assert.equal(j, 0);
    const [ux, uy] = d.nodes[up];
    if (x >= 0) assert.deepEqual([ca[x].up, ca[x].pass], [ux, pass]);
    if (y >= 0) assert.deepEqual([cb[y].up, cb[y].pass], [uy, pass]);
    if (x >= 0 && y >= 0 && j !== d.first.node) assert.equal(ca[x].move, cb[y].move);
  });
  assert.deepEqual([seen[0].size, seen[1].size], [ca.length, cb.length], 'every call of each side in one node');
}

test('tree --against a changed copy: the page opens on the first line where the two streams differ, as compare --calls finds it', async (t) => {
  const { copy, file } = knightPage(), streams = await knightPage().streams, r = { out: knightOut };
  const first = firstDifferingCall(...streams), d = twoDataOf(file);
  checkTwo(d, streams, first);
  assert.deepEqual([d.sides[0].label, d.sides[1].label], ['micromax.ts', copy]);
  assert.match(r.out, new RegExp(`^first difference: call ${first.no} \\(ply \\d\\), line ${first.line} of each stream\\n  reached by [a-h1-8 ]+\\n` +
    `  differs: e \\(micromax.ts -?\\d+, ${copy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -?\\d+\\)\\n$`));
  assert.deepEqual(first.fields, ['e'], 'a knight\'s value changes the running score');
  t.diagnostic(`the knight worth 4: first difference at call ${first.no}, line ${first.line}; ${d.nodes.length} nodes`);
  if (whyNoC()) return t.diagnostic(`compare --calls not run: ${whyNoC()}`);
  // the C changed the same way, against the port: compare --calls names the same call, field and values
  const c = path.join(dir, 'knight.c'), input = path.join(dir, 'think.in');
  fs.writeFileSync(c, applyEdits(fs.readFileSync(cSource()!, 'utf8'), changeOf(8)!.c, 'the knight'));
  fs.writeFileSync(input, '\n');
  const cmp = spawnSync(process.execPath, toolArgv('compare', ['--calls', '--nodes', '300', input]),
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, MICROMAX_C: c }, timeout: 200_000 });
  assert.equal(cmp.status, 1, cmp.stderr);
  const [ca, cb] = [sideCalls(d, 0), sideCalls(d, 1)], [a, b] = d.nodes[d.first.node];
  assert.match(cmp.stdout, new RegExp(`^first difference: call ${first.no} \\(ply \\d\\), line ${first.line} of each stream$`, 'm'));
  assert.match(cmp.stdout, new RegExp(`^  differs: e \\(C ${cb[b].e}, port ${ca[a].e}\\)$`, 'm'));
  // and its pointer: the page of the C against the port, opened on that call
  const line = /^to see that call on the board, both searches side by side in a browser: MICROMAX_C=(\S+) npm run tree -- (.*)$/m.exec(cmp.stdout);
  assert.ok(line, cmp.stdout);
  assert.equal(line[1], c);
  const words = shellSplit(line[2]), html = path.join(dir, 'pointed.html');
  assert.deepEqual(words, ['--c', input, '--nodes', '300', '--against', 'port', '--html', 'first-difference.html']);
  const pointed = spawnSync(process.execPath, toolArgv('tree', [...words.slice(0, -1), html]), { cwd: ROOT, encoding: 'utf8',
    env: { ...process.env, MICROMAX_C: c }, timeout: 200_000 });
  assert.equal(pointed.status, 0, pointed.stderr);
  const p = twoDataOf(html), [pa, pb] = p.nodes[p.first.node];
  assert.deepEqual([sideCalls(p, 0)[pa].no, sideCalls(p, 0)[pa].e, sideCalls(p, 1)[pb].e], [first.no, cb[b].e, ca[a].e]);
});

/** A command line's words, as sh splits a line of plain words and double-quoted ones. */
function shellSplit(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]);
}

/** A porter's program whose stream has one wrong field: it writes the C's stored stream of a script with
 *  call `no`'s Z one more, and the script's expected output (its bytes are right). */
function wrongField(script: string, no: number): { program: string; stream: string } {
  const lines = storedLines(script)!;
  let seen = 0;
  const wrong = lines.map((l) => {
    if (l[0] !== '>' || ++seen !== no) return l;
    const w = l.split(' ');
    w[7] = String(Number(w[7]) + 1);                      // > move k q l e J Z ...
    return w.join(' ');
  });
  const stream = path.join(dir, `${script}-wrong-Z.calls`), fake = path.join(dir, 'porter.mjs');
  fs.writeFileSync(stream, wrong.join('\n') + '\n');
  const golden = path.join(ROOT, SCRIPTS.find((s) => s.name === script)!.expected);
  fs.writeFileSync(fake, `import * as fs from 'node:fs';\nconst a = process.argv, at = a.indexOf('--calls');\n` +
    `if (at > 0) fs.writeFileSync(a[at + 1], fs.readFileSync(${JSON.stringify(stream)}));\n` +
    `fs.readFileSync(0);\nfs.writeSync(1, fs.readFileSync(${JSON.stringify(golden)}));\n`);
  return { program: `node ${fake}`, stream };
}

test('tree --stored NAME --program CMD: a porter\'s stream with one wrong field; conformance --calls prints the command, whose page opens where it says', async () => {
  const script = 'castle-kingside', { program, stream } = wrongField(script, 3000);
  const conf = spawnSync(process.execPath, toolArgv('conformance', ['--calls', '--program', program, script]),
    { cwd: ROOT, encoding: 'utf8', timeout: 200_000 });
  assert.equal(conf.status, 1, conf.stdout + conf.stderr);
  const said = /calls differ at call (\d+) \(ply (\d+)\), line (\d+): (.*?) {2}/.exec(conf.stdout);
  assert.ok(said, conf.stdout);
  assert.equal(said[1], '3000');
  assert.match(said[4], /^Z \(C (-?\d+), program (-?\d+)\)$/);
  const line = /^ {2}to see that call on the board, both searches side by side in a browser: npm run tree -- (.*)$/m.exec(conf.stdout);
  assert.ok(line, conf.stdout);
  const words = shellSplit(line[1]);
  assert.deepEqual(words, ['--stored', script, '--program', program, '--html', 'first-difference.html']);
  const streams: [string[], string[]] = [storedLines(script)!, fs.readFileSync(stream, 'utf8').split('\n').slice(0, -1)];
  const first = firstDifferingCall(...streams);
  assert.deepEqual([first.no, first.line, first.fields], [3000, Number(said[3]), ['Z']]);
  for (const [name, args] of [['porter-program', words.slice(0, -2)], ['porter-stream', ['--stored', script, '--against', stream]]] as const) {
    const file = path.join(dir, `${name}.html`);
    const r = tool(...args, '--html', file);
    assert.equal(r.status, 0, r.err);
    const d = twoDataOf(file);
    checkTwo(d, streams, first);
    const [ca, cb] = [sideCalls(d, 0), sideCalls(d, 1)], [a, b] = d.nodes[d.first.node];
    assert.match(said[4], new RegExp(`^Z \\(C ${readStream(streams[0]).find((s) => s.no === ca[a].no)!.c.Z}, program ` +
      `${readStream(streams[1]).find((s) => s.no === cb[b].no)!.c.Z}\\)$`));
    assert.deepEqual(d.sides.map((s) => s.label), ['the stored C', name === 'porter-program' ? 'the program' : stream]);
  }
  // a stream that ends before its search does (a program stopped after the difference): the page says so
  const cut = path.join(dir, 'porter-cut.calls'), file = path.join(dir, 'porter-cut.html');
  fs.writeFileSync(cut, streams[1].slice(0, first.line + 50).join('\n') + '\n');
  const r = tool('--stored', script, '--against', cut, '--html', file);
  assert.equal(r.status, 0, r.err);
  const d = twoDataOf(file), html = fs.readFileSync(file, 'utf8');
  assert.match(html, new RegExp(`${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'s stream ends before its search does\.`));
  assert.equal(sideCalls(d, 1)[0].v, null, 'the cut side\'s think never returns');
  assert.equal(sideCalls(d, 0)[0].v, readStream(streams[0]).find((s) => !s.up && s.no === sideCalls(d, 0)[0].no)!.v);
});

/** What the page of two searches shows of each side's call: its fields, board codes, the fields marked as
 *  differing, and the board's squares marked. */
interface ShownSide { title: string; fields: Record<string, string>; marked: string[]; codes: number[]; squares: number }
const SHOWN_SIDES = (): (ShownSide | null)[] => ['a', 'b'].map((k) => {
  const el = document.querySelector(`#call [data-side="${k}"]`);
  if (!el) return null;
  const fields: Record<string, string> = {}, marked: string[] = [];
  for (const f of el.querySelectorAll('[data-field]')) {
    const name = (f as HTMLElement).dataset.field!;
    fields[name] = f.textContent!;
    if (f.classList.contains('differs')) marked.push(name);
  }
  const board = el.querySelector('table.board') as HTMLElement | null;
  return { title: el.querySelector('h3')!.textContent!, fields, marked, codes: board ? board.dataset.codes!.split(' ').map(Number) : [],
    squares: el.querySelectorAll('table.board td.differs').length };
});

test('tree --against in chromium: it opens on the first difference, both sides\' boards and numbers shown, what differs marked; keys, clicks and links', {
  skip: noBrowser && !mustBrowse ? `skipped: ${noBrowser}` : false, timeout: 300_000 }, async (t) => {
  const { tab, open, errors } = await browse(t);
  const sides = (): Promise<(ShownSide | null)[]> => tab.evaluate(SHOWN_SIDES);
  const selected = (): Promise<string> => tab.evaluate(() => document.body.dataset.selected!);
  /** A side's call shown as its stream has it. */
  const same = (s: ShownSide, c: SCall, at: string): void => {
    assert.deepEqual(['k', 'q', 'l', 'e', 'E', 'z', 'n', 'N'].map((f) => s.fields[f]),
      [c.c.k, c.c.q, c.c.l, c.c.e, c.c.E === 0 ? '0' : sqText(c.c.E), sqText(c.c.z), c.c.n, c.c.N].map(String), at);
    assert.equal(sum(s.codes), c.c.sum, `${at}: the board`);
  };

  // a learner's copy with a knight worth 4: the first difference is e, marked on both sides
  const { copy, file: knight } = knightPage(), streams = await knightPage().streams;
  const [ra, rb] = streams.map((s) => new Map(readStream(s).map((x) => [x.no, x])));
  const first = firstDifferingCall(streams[0], streams[1]), d = twoDataOf(knight);
  await open(new URL(`file://${knight}`).href);
  assert.equal(await selected(), String(first.no), 'opened on the first difference');
  let [a, b] = await sides();
  same(a!, ra.get(first.no)!, 'the port'); same(b!, rb.get(first.no)!, 'the copy');
  assert.ok(a!.marked.includes('e') && b!.marked.includes('e') && !a!.marked.includes('k'), a!.marked.join(' '));
  assert.match(await tab.evaluate(() => document.querySelector('#call [data-field="first"]')!.textContent!),
    new RegExp(`^The first difference: call ${first.no} \\(ply \\d, reached by [a-h1-8 ]+\\), line ${first.line} of each stream: e \\(`));
  // ← its caller (one call of both, the same); → back to its first call; ↓ the next node
  const nodeAt = (no: number): number => d.nodes.findIndex((n) => n[0] >= 0 && sideCalls(d, 0)[n[0]].no === no);
  const ca = sideCalls(d, 0), here = nodeAt(first.no), up = d.nodes[here][2];
  await tab.keyboard.press('ArrowLeft');
  assert.equal(await selected(), String(ca[d.nodes[up][0]].no));
  [a, b] = await sides();
  assert.deepEqual([a!.marked.includes('k'), a!.fields.result === b!.fields.result], [false, false], 'the caller: its result differs');
  await tab.keyboard.press('ArrowRight');
  const firstKid = d.nodes.findIndex((n) => n[2] === up);
  assert.equal(await selected(), d.nodes[firstKid][0] >= 0 ? String(ca[d.nodes[firstKid][0]].no) : `against-${sideCalls(d, 1)[d.nodes[firstKid][1]].no}`);
  await tab.keyboard.press('ArrowDown');
  assert.equal(await selected(), String(ca[d.nodes[firstKid + 1][0]].no));
  // a click on a row; a link to a call before the difference: the calls below it are the same in both, not drawn
  const before = ca.find((c) => c.no < first.no && c.up >= 0 && c.inside > 0 && d.nodes.some((n) => n[0] === ca.indexOf(c)))!;
  await tab.click(`#call-${before.no} b`);
  assert.equal(await selected(), String(before.no));
  await open(`${new URL(`file://${knight}`).href}#call-${before.no}`);
  [a, b] = await sides();
  same(a!, ra.get(before.no)!, 'before'); same(b!, rb.get(before.no)!, 'before');
  assert.deepEqual([a!.marked, b!.squares], [[], 0], 'a call the same in both: nothing marked');
  assert.match(a!.fields.result, new RegExp(`after ${before.inside} calls? below it, at all depths; ${before.inside} of them not drawn \\(the same in both searches\\)\\.$`));
  // a call only one side made: the other side says so
  const alone = d.nodes.findIndex((n) => n[0] < 0 || n[1] < 0);
  if (alone >= 0) {
    const [x, y] = d.nodes[alone];
    const id = x >= 0 ? `call-${ca[x].no}` : `against-call-${sideCalls(d, 1)[y].no}`;
    await open(`${new URL(`file://${knight}`).href}#${id}`);
    const shown = await sides();
    assert.ok(shown[x >= 0 ? 1 : 0]!.fields.none.includes('made no such call here'), id);
  }
  t.diagnostic(`the knight: first difference at call ${first.no}; ${d.nodes.length} nodes, ${alone >= 0 ? 'one-sided calls' : 'no one-sided call'}`);

  // a porter's stream with one wrong field (Z): the page shows the keys, Z marked
  const { stream } = wrongField('castle-kingside', 3000), porter = path.join(dir, 'porter-stream.html');
  if (!fs.existsSync(porter)) assert.equal(tool('--stored', 'castle-kingside', '--against', stream, '--html', porter).status, 0);
  await open(new URL(`file://${porter}`).href);
  assert.equal(await selected(), '3000');
  [a, b] = await sides();
  const [sa, sb] = [readStream(storedLines('castle-kingside')!), readStream(fs.readFileSync(stream, 'utf8').split('\n').slice(0, -1))];
  same(a!, sa.find((s) => s.no === 3000)!, 'the C'); same(b!, sb.find((s) => s.no === 3000)!, 'the porter');
  assert.deepEqual([a!.marked, b!.marked], [['Z'], ['Z']], 'only Z differs, and is marked');
  assert.deepEqual([a!.fields.Z, b!.fields.Z].map(Number), [sa.find((s) => s.no === 3000)!.c.Z, sb.find((s) => s.no === 3000)!.c.Z]);

  // two searches of 3,000 calls and more each: the page's size and how long it takes to open
  const big = path.join(dir, 'browser-knight-big.html');
  assert.equal(tool('--nodes', '3000', '--against', copy, '--html', big).status, 0);
  const bd = twoDataOf(big), bytes = fs.statSync(big).size;
  assert.ok(bd.sides.every((s) => s.calls.length >= 3000), bd.sides.map((s) => s.calls.length).join(', '));
  assert.ok(bytes < MAX_TWO_BYTES, `${bytes} bytes`);
  const times: number[] = [];
  for (let k = 0; k < 3; k++) times.push(await open(new URL(`file://${big}`).href));
  const ready = Number(await tab.evaluate(() => document.body.dataset.readyMs));
  t.diagnostic(`two searches of ${bd.sides.map((s) => s.calls.length).join(' and ')} calls: ${(bytes / 1e6).toFixed(2)} MB; opened in ` +
    `${times.join(', ')} ms (its script done ${ready} ms after the navigation began)`);
  assert.ok(Math.min(...times) < 5000, 'opens in seconds, not more (loosely: the machine is shared)');
  assert.deepEqual(errors, [], 'console errors, or something fetched');
});

test('tree --html in chromium: the reader\'s list: the header\'s count, move → N, call numbers, the board\'s check and the slot in plain words, no sideways scrolling, quotes that hold, a promotion\'s q', {
  skip: noBrowser && !mustBrowse ? `skipped: ${noBrowser}` : false, timeout: 300_000 }, async (t) => {
  const { tab, open, shown, errors } = await browse(t);
  const header = (): Promise<string> => tab.evaluate(() => document.querySelector('header')!.textContent!.replace(/\s+/g, ' '));
  const at = async (file: string, no?: number): Promise<Shown> => {
    await open(`${new URL(`file://${file}`).href}${no === undefined ? '' : `#call-${no}`}`);
    return shown();
  };
  // --depth 0 draws one line of text, and the page every call: its header counts them, and claims no more
  const mate = page('list-depth0', '--fen', MATE, '--depth', '0');
  await at(mate.file);
  const said = await header();
  assert.match(said, new RegExp(`: all ${mate.calls.length} calls of the search it drew, at every depth \\(the text's --depth and --limit shape only what it prints\\)`));
  assert.ok(!/that the text tree draws/.test(said), said);
  assert.match(said, /move → N: the reply's result, the position's value for the side to move there, the mover's opponent; so the mover's best move shows the lowest N\./);
  // the board's check, and the slot, in plain words
  const root = await shown();
  assert.match(root.fields.sum, /^Board checked: it gives the check-sum the engine wrote with this call \(\d+\)\.$/);
  assert.equal(Number(/\((\d+)\)/.exec(root.fields.sum)![1]), sum(root.codes));
  // a quote beside a call holds for that call: a reply whose window is not the companion's example's (-8001 here)
  const other = mate.calls.find((c) => c.up >= 0 && c.move !== 'null' && c.q !== -8001 && Array.isArray(c.probe))!;
  const deep = await at(mate.file, other.no);
  assert.match(deep.fields['probe-slot-how'] ?? '', /its number means nothing of itself/);
  assert.ok(!/stream's sum/.test(await tab.evaluate(() => document.body.textContent!)));
  const quotes = await tab.evaluate(() => [...document.querySelectorAll('blockquote')].map((q) => q.textContent!));
  assert.ok(quotes.some((q) => /window is ours turned round/.test(q)), quotes.join('\n'));
  assert.ok(deep.fields.q !== '-8001' && quotes.every((q) => !/-8001|\bhere\)/.test(q)), quotes.join('\n'));
  // --moves "e2e4 e7e5": the root is call 34, and the header says why
  const moved = page('list-moves', '--moves', 'e2e4 e7e5', '--nodes', '20');
  await at(moved.file);
  assert.equal(moved.calls[0].no, 34);
  assert.match(await header(), /main\(\) first checks each typed move with a search of its own, 33 calls for 2 moves, so this one is call 34\./);
  // the left pane: never wider than itself, deep in the 3,000-node search, at two widths
  const big = page('list-wide', '--nodes', '3000');
  const deepest = big.calls.reduce((x, c) => { let n = 0; for (let u = c.up; u >= 0; u = big.calls[u].up) n++; return n > x[1] ? [c.no, n] : x; }, [0, 0]);
  for (const width of [1400, 1000]) {
    await tab.setViewportSize({ width, height: 900 });
    await at(big.file, deepest[0]);
    const [scroll, client] = await tab.evaluate(() => { const e = document.getElementById('tree')!; return [e.scrollWidth, e.clientWidth]; });
    assert.ok(scroll <= client, `${width} px: the tree pane is ${scroll} px wide in ${client}`);
  }
  t.diagnostic(`the deepest call, ${deepest[0]}, at ply ${deepest[1]}: no sideways scrolling at 1400 and 1000 px`);
  // a promotion: e7e8q on the pass lines and in the passes' table, as on its own line
  const promotion = page('list-promotion', '--fen', PROMOTION, '--nodes', '200');
  await at(promotion.file);
  const passes = await tab.evaluate(() => [...document.querySelectorAll('#tree .pass')].map((e) => e.textContent!));
  assert.ok(passes.some((l) => /best e7e8q\b/.test(l)) && passes.every((l) => !/\be7e8(?!q)/.test(l)), passes.join('\n'));
  assert.ok(!/\be7e8(?!q)/.test(await tab.evaluate(() => document.getElementById('call')!.textContent!)));
  assert.deepEqual(errors, [], 'console errors, or something fetched');
});

test('tree --against: its command line; two searches the same; a copy the instrumentation cannot read; each refusal one line, exit 2', async () => {
  const file = path.join(dir, 'two-refused.html');
  const refused: [string[], RegExp][] = [
    [['--against', 'port'], /^tree: a page of two searches is a page: give --html FILE \(see --help\)\n$/],
    [['--against', 'port', '--program', 'x', '--html', file], /give --against or --program, not both/],
    [['--against', 'port', '--pass', '2', '--html', file], /^tree: --pass is not for a page of two searches: it opens on their first difference itself/],
    [['--stored', 'castle-kingside', '--moves', 'e2e4', '--against', 'port', '--html', file], /--stored runs the script's own input at its --nodes/],
    [['--stored', 'no-such', '--against', 'port', '--html', file], /--stored: no script named 'no-such'/],
    [['--c', '--fen', MATE, '--against', 'port', '--html', file], /--fen and --call set up the port and copies of it only/],
    [['--c', '--nodes', '20'], /^tree: --c is for a page of two searches: give --against or --program/],
    [['input.in'], /^tree: unexpected argument 'input.in'/],
    [['--against', path.join(dir, 'none.ts'), '--html', file], /^tree: --against: no file .*none\.ts\n$/],
    [['--against', path.join(dir, 'none.calls'), '--html', file], /^tree: no file .*none\.calls\n$/],
  ];
  for (const [args, said] of refused) {
    const r = tool(...args);
    assert.deepEqual([r.status, r.out], [2, ''], args.join(' '));
    assert.match(r.err, said, args.join(' '));
    assert.equal(r.err.split('\n').length, 2, `one line: ${r.err}`);
  }
  const noC = spawnSync(process.execPath, toolArgv('tree', ['--c', '--against', 'port', '--html', file]), { cwd: ROOT, encoding: 'utf8',
    env: { ...process.env, MICROMAX_C: '' }, timeout: 60_000 });
  assert.deepEqual([noC.status, noC.stderr], [2, 'tree: --c runs the C: MICROMAX_C is not set (point it at micromax-3.2.c)\n']);
  // a copy whose change moved a line the instrumentation needs: said, with the part it looked for
  const broken = path.join(dir, 'broken.ts');
  fs.writeFileSync(broken, fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8').replace('break C;', 'break C ;'));
  const r = tool('--nodes', '20', '--against', broken, '--html', file);
  assert.equal(r.status, 2);
  assert.match(r.err, /^tree: .*broken\.ts: cannot instrument the port \(cut-off\)/);
  // the same search twice: identical, every call and line; the page opens on the first call
  const same = tool('--nodes', '50', '--against', 'port', '--html', file);
  assert.equal(same.status, 0, same.err);
  const d = twoDataOf(file), calls = readStream(await portLines('\n', 50)).length;
  assert.equal(same.out, `identical: ${calls} calls\n`);
  assert.deepEqual([d.first.node, d.first.html], [0, `The two searches are the same: ${calls} calls, every line of their call streams.`]);
  assert.ok(d.nodes.every(([a, b]) => a === b), 'each call paired with its own copy');
});
