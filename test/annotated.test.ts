// The annotated companion (annotated/) against the program it explains. The walk-through
// (annotated/micromax.ts.md) must hold every non-blank line of micromax.ts in its ```ts blocks,
// in order, and nothing else; the guide (annotated/README.md) may quote lines of micromax.ts in
// ```ts blocks and nothing else. And the figures the companion quotes (square numbers, piece
// codes, bytes of T, scores, node counts, sizes) are recomputed here from the engine, or looked
// up in the golden transcripts the C produced, and must appear in the text as computed.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { engine, init, legalMoves, random, srandom } from '../micromax.ts';
import { ROOT } from './run.ts';

const { A, D, T, board: b, ch, quot } = engine;

const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');
const SOURCE = read('micromax.ts');
const GUIDE = read('annotated/README.md');
const WALK = read('annotated/micromax.ts.md');
const golden = (name: string): string => read(`test/golden/${name}.out`);

// ---- fenced blocks -------------------------------------------------------------------------

interface Block { lang: string; start: number; lines: { line: number; text: string }[] }

/** The fenced code blocks of a Markdown text; `start` and `line` are 1-based line numbers. */
export function fencedBlocks(md: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  md.split('\n').forEach((text, k) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (open) {
      if (fence && fence[1] === '') { blocks.push(open); open = undefined; } else open.lines.push({ line: k + 1, text });
    } else if (fence) open = { lang: fence[1], start: k + 1, lines: [] };
  });
  if (open) throw new Error(`a fence opened at line ${open.start} is never closed`);
  return blocks;
}

/** Where the ```ts lines of `md` and the lines of `source` (blank lines ignored on both sides)
 *  first disagree, or undefined when they are the same lines in the same order. */
export function compareWalk(md: string, source: string): string | undefined {
  const walk = fencedBlocks(md).filter((blk) => blk.lang === 'ts').flatMap((blk) => blk.lines)
    .filter((l) => l.text.trim() !== '');
  const src = source.split('\n').map((text, k) => ({ line: k + 1, text })).filter((l) => l.text.trim() !== '');
  for (let k = 0; k < Math.max(walk.length, src.length); k++) {
    const w = walk[k], s = src[k];
    if (w && s && w.text === s.text) continue;
    if (!w) return `micromax.ts line ${s.line} is missing from the walk-through (after its ${walk.length} code lines):\n  ${s.text}`;
    if (!s) return `walk-through line ${w.line} is not in micromax.ts (which ends at line ${src.at(-1)?.line}):\n  ${w.text}`;
    return `walk-through line ${w.line} differs from micromax.ts line ${s.line}:\n  walk: ${w.text}\n  .ts:  ${s.text}`;
  }
  return undefined;
}

test('the walk-through holds every line of micromax.ts, in order, and no other code line', () => {
  const diff = compareWalk(WALK, SOURCE);
  assert.equal(diff, undefined, diff);
});

test('the comparison notices a deleted, changed, added or moved line', () => {
  const lines = WALK.split('\n');
  const codeLine = (n: number): number => {                   // index of the n-th ```ts code line
    const all = fencedBlocks(WALK).filter((blk) => blk.lang === 'ts').flatMap((blk) => blk.lines)
      .filter((l) => l.text.trim() !== '');
    return all[n].line - 1;
  };
  const edit = (f: (ls: string[]) => void): string => { const ls = lines.slice(); f(ls); return ls.join('\n'); };
  const at = codeLine(100), next = codeLine(101);
  const cases: [string, string, RegExp][] = [
    ['deleted', edit((ls) => ls.splice(at, 1)), /differs from micromax\.ts line/],
    ['changed', edit((ls) => { ls[at] = ls[at].replace(/\S/, '$& '); }), new RegExp(`walk-through line ${at + 1} differs`)],
    ['added', edit((ls) => ls.splice(at, 0, '  const extra = 1;')), new RegExp(`walk-through line ${at + 1} differs`)],
    ['swapped', edit((ls) => { [ls[at], ls[next]] = [ls[next], ls[at]]; }), /differs from micromax\.ts line/],
    ['moved into a text block', edit((ls) => { ls.splice(at, 1); ls.push('```text', lines[at], '```'); }), /differs/],
    ['last line dropped', WALK.replace(/^export \{[^\n]*\n/m, ''), /is missing from the walk-through/],
    ['a line after the end', WALK + '\n```ts\nconsole.log(1);\n```\n', /is not in micromax\.ts/],
  ];
  for (const [what, md, message] of cases) {
    const diff = compareWalk(md, SOURCE);
    assert.ok(diff !== undefined, `${what}: not noticed`);
    assert.match(diff, message, `${what}: ${diff}`);
  }
  // and on the program's side: a line removed from micromax.ts is reported with its number
  const src = SOURCE.split('\n');
  const k = src.findIndex((l) => l.includes('v -= int(v > e);'));
  const diff = compareWalk(WALK, [...src.slice(0, k), ...src.slice(k + 1)].join('\n'));
  assert.match(diff ?? '', new RegExp(`differs from micromax\\.ts line ${k + 1}:\\n  walk: +v -= int`));
});

test('every fence names its language; ```ts in the guide only quotes lines of micromax.ts', () => {
  const known = new Set(['ts', 'text', 'c', 'sh']);
  for (const [name, md] of [['README.md', GUIDE], ['micromax.ts.md', WALK]]) {
    for (const blk of fencedBlocks(md)) assert.ok(known.has(blk.lang), `${name} line ${blk.start}: fence language '${blk.lang}'`);
  }
  const lines = new Set(SOURCE.split('\n'));
  for (const blk of fencedBlocks(GUIDE).filter((x) => x.lang === 'ts')) {
    for (const l of blk.lines) if (l.text.trim()) assert.ok(lines.has(l.text), `README.md line ${l.line} is not a line of micromax.ts`);
  }
});

// ---- links --------------------------------------------------------------------------------

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- ]/gu, '').replace(/ /g, '-');

function anchors(md: string): Set<string> {
  const seen = new Map<string, number>(), out = new Set<string>();
  let inFence = false;
  for (const line of md.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const h = !inFence && /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]), n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

test('the links between the two files and to their headings resolve', () => {
  const files: Record<string, string> = { 'README.md': GUIDE, 'micromax.ts.md': WALK };
  for (const [name, md] of Object.entries(files)) {
    for (const m of md.matchAll(/\]\(([^)\s]*)\)/g)) {
      const [target, hash] = m[1].split('#');
      if (/^https?:/.test(m[1])) continue;
      if (target === '' || target in files) {
        const doc = target === '' ? md : files[target];
        if (hash !== undefined) assert.ok(anchors(doc).has(hash), `${name}: no heading for ${m[1]}`);
      } else {
        assert.ok(fs.existsSync(path.resolve(ROOT, 'annotated', target)), `${name}: ${m[1]} does not exist`);
      }
    }
  }
});

// ---- figures ------------------------------------------------------------------------------

const squish = (s: string): string => s.replace(/\s+/g, ' ');
const BOTH = squish(GUIDE + '\n' + WALK);
/** The companion must contain `text` (white space compared loosely). */
function says(text: string, where: 'guide' | 'walk' | 'both' = 'both'): void {
  const hay = where === 'guide' ? squish(GUIDE) : where === 'walk' ? squish(WALK) : BOTH;
  assert.ok(hay.includes(squish(text)), `the companion should say:\n${text}`);
}
/** The guide must contain these lines verbatim, one after another (a diagram). */
function draws(diagram: string): void {
  assert.ok(GUIDE.includes(diagram), `the guide should draw:\n${diagram}`);
}

const hex2 = (v: number): string => (v & 255).toString(16).padStart(2, '0');
const name = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));
const square = (n: string): number => 16 * (8 - Number(n[1])) + n.charCodeAt(0) - 97;
const bits8 = (v: number): string => { const s = (v & 255).toString(2).padStart(8, '0'); return `${s.slice(0, 4)} ${s.slice(4)}`; };
const signed = (r: number): string => (r > 0 ? `+${r}` : `${r}`);
const I = 8000, S = 128, M = 136, V = 112;

/** o[] and w[] (the module's steps and values) and n, read from the program text (not exported). */
function sourceArray(decl: RegExp): number[] {
  const m = decl.exec(SOURCE);
  assert.ok(m, `no ${decl} in micromax.ts`);
  return m[1].replace(/\/\/[^\n]*/g, '').split(',').map((x) => Number(x.trim()));
}
const o = sourceArray(/const steps = fixed\(([^)]*)\);/);
const w = sourceArray(/const values = fixed\(([^)]*)\);/);
const PRINT = /const n = '([^']*)';/.exec(SOURCE)?.[1] ?? '';

srandom(1); init();
const START = b.slice();
const TYPE = ['', 'pawn', 'pawn', 'knight', 'king', 'bishop', 'rook', 'queen'];

/** Puts a position on the board: rows of 8 from rank 8, '.' empty, FEN letters (no virgin bits). */
function setUp(rows: string): void {
  for (let s = 0; s < 120; s++) if (!(s & M)) b[s] = 0;
  rows.split('/').forEach((row, r) => [...row].forEach((c, f) => {
    if (c === '.') return;
    const white = c !== c.toLowerCase(), t = 'pnkbrq'.indexOf(c.toLowerCase()) + 2;   // pawn 2, knight 3, ...
    b[16 * r + f] = (t === 2 && white ? 1 : t) + (white ? 8 : 16);                      // a white pawn is type 1
  }));
}
/** D() at a fixed depth, not at the root (z = 128: no last move), on an empty hash table. */
function search(k: number, n: number, z = S): number {
  A.K.fill(0);
  return D(k, -I, I, 0, 1, 1, S, z, n);
}

test('figures: the 0x88 board, its edge test and its walk', () => {
  const grid = ['          a  b  c  d  e  f  g  h  |  right half (no squares)',
    ...[...Array(8)].map((_, r) => `rank ${8 - r}  ` + [...Array(8)].map((_, f) => ` ${hex2(16 * r + f)}`).join('') +
      '  | ' + [...Array(8)].map((_, f) => ` ${hex2(16 * r + f + 8)}`).join(''))].join('\n');
  draws(grid);
  for (const n of ['e2', 'e4', 'a8', 'h1']) says(`${n} is \`0x${hex2(square(n))}\` = ${square(n)}`);
  // the edge examples: what is added, what comes out, which bit says "off the board"
  const edge = (label: string, x: number, r: number, verdict: string): string => {
    const y = x + r, val = y < 0 ? String(y) : `0x${hex2(y)}`;
    const bin = y < 0 ? `…${bits8(y)}` : bits8(y);
    const bit = y & M ? (y & 8 ? 'bit 3 set: off the board' : 'bit 7 set: off the board') : `both clear: ${verdict}`;
    return `0x${hex2(x)} (${label}) ${r < 0 ? '-' : '+'} ${Math.abs(r)}`.padEnd(14) + ` = ${val}`.padEnd(8) +
      ` = ${bin}`.padEnd(14) + ` ${bit}`;
  };
  draws([edge('h1', 0x77, 1, ''), edge('e8', 0x04, -16, ''), edge('h8', 0x07, 18, ''), edge('e2', 0x64, -16, 'e3')].join('\n'));
  assert.equal(name(0x64 - 16), 'e3');
  says('on h8 (`0x07`) jumping +18 lands on `0x19`, which has bit 3 set');
  // the right half: the centre table, and the whole array at the start
  const dump = [...Array(8)].map((_, r) => `rank ${8 - r}  ` + [...Array(8)].map((_, f) => String(b[16 * r + f]).padStart(3)).join('') +
    '   | ' + [...Array(8)].map((_, f) => String(b[16 * r + f + 8]).padStart(3)).join('')).join('\n');
  draws(dump);
  for (let s = 0; s < 128; s++) if (s & 8) assert.equal(b[s], Math.trunc(((s & 7) - 4) ** 2 + ((s >> 4) - 3.5) ** 2));
  says(`0 on e4 and e5, ${b[0 + 8]} in the a-file corners and ${b[7 + 8]} in the h-file corners`);
  assert.equal(b.length, 129);
  // the walk x = x + 9 & ~M
  const walk = (x: number, label: string, note: string): string => {
    const y = x + 9, z = y & ~M;
    return `0x${hex2(x)} (${label}): 0x${hex2(x)} + 9 = 0x${hex2(y)} = ${bits8(y)}  & ~0x88  ->  0x${hex2(z)} (${name(z)})   ${note}`;
  };
  draws([walk(0x05, 'f8', 'next file'), walk(0x07, 'h8', 'next rank'), walk(0x77, 'h1', 'round to the start')].join('\n'));
  const seen = new Set<number>();
  let x = 0x34;
  do { seen.add(x); x = x + 9 & ~M; } while (x !== 0x34);
  assert.equal(seen.size, 64);
});

test('figures: the pieces and their printing', () => {
  const start = golden('default-trace').split('\n').slice(0, 8).map((l) => l.replace(/ /g, ''));
  const codes = [...new Set([...START.subarray(0, 128)].filter((c, s) => c && !(s & 8)))].sort((p, q) => p - q);
  for (const c of codes) {
    const s = START.findIndex((u, k) => u === c && !(k & 8)), t = c & 7, white = (c & 8) !== 0, virgin = (c & 32) !== 0;
    const printed = start[s >> 4][s & 7];
    assert.equal(PRINT[c & 15], printed);
    const bits = `${virgin ? 'virgin + ' : ''}${white ? 'white' : 'black'} + ${t < 3 ? `type ${t}` : t}`;
    says(`| ${c} | ${bits} | ${white ? 'white' : 'black'} ${TYPE[t]}${virgin ? ', unmoved' : ''} | \`${printed}\` |`, 'guide');
  }
  says(`\`"${PRINT}"\``, 'guide');
  says(`pawn ${99 * w[1]}, knight and bishop ${99 * w[3]}, rook ${99 * w[6]}, queen ${99 * w[7]}. The king's entry is ${w[4]}, which gives ${99 * w[4]}`);
  assert.deepEqual([w[3], w[5]], [3, 3]);
});

test('figures: the step list o[] and the moves of a knight and a bishop', () => {
  const row = (from: number, to: number): string => 'index' + [...Array(to - from + 1)].map((_, k) => String(from + k).padStart(4)).join('') +
    '\n' + 'o[]  ' + o.slice(from, to + 1).map((v) => String(v).padStart(4)).join('');
  for (const [from, to] of [[0, 16], [17, 23], [24, 31]]) {
    const [a, c] = row(from, to).split('\n');
    assert.ok(GUIDE.split('\n').some((l) => l.startsWith(a)) && GUIDE.split('\n').some((l) => l.startsWith(c)), `the guide should draw:\n${a}\n${c}`);
  }
  const steps = (p: number): number[] => {                 // the direction loop of D(), alone
    const out: number[] = [];
    let r = p, j = o[p + 16];
    while ((r = p > 2 && r < 0 ? 0 - r : 0 - o[++j])) out.push(r);
    return out;
  };
  const names = ['', 'white pawn', 'black pawn', 'knight', 'king', 'bishop', 'rook', 'queen'];
  for (let p = 1; p < 8; p++) {
    const first = o[p + 16] + 1;
    let last = first; while (o[last] !== 0) last++;
    says(`| ${p} ${names[p]} | ${o[p + 16]} | ${first}–${last} | ${steps(p).join(', ')} |`, 'guide');
  }
  assert.deepEqual(o.slice(24).map((t) => ' PPNKBRQ'[t]), [...'RNBQKBNR']);
  says('R N B Q K B N R', 'guide');

  const verdict = (y: number, k: number): string =>
    y & M ? `off the board (bit ${y & 8 ? 3 : 7})` : b[y] & k ? `own ${TYPE[b[y] & 7]}: no move` : b[y] ? 'capture' : 'empty: a move';
  const knight = square('b1');
  for (const r of steps(3)) {
    const y = knight + r;
    says(`| ${signed(r)} | \`0x${hex2(y)}\`${y & M ? '' : ` ${name(y)}`} | ${verdict(y, 8)} |`, 'guide');
  }
  const moves = (from: number): string[] => legalMoves(b, 8, -1).filter(([x]) => x === from).map(([, y]) => name(y));
  assert.deepEqual(moves(knight), ['a3', 'c3']);
  b[square('e2')] = 0; b[square('e4')] = 9;                   // 1. e4
  const bishop = square('f1');
  for (const r of steps(5)) {
    const ray: string[] = [], to: string[] = [];
    let y = bishop + r;
    for (; !(y & M) && !b[y]; y += r) { ray.push(`\`0x${hex2(y)}\` ${name(y)}`); to.push(name(y)); }
    const end = y & M ? `\`0x${hex2(y)}\`: off` : `\`0x${hex2(y)}\` ${name(y)}: own ${TYPE[b[y] & 7]}`;
    says(`| ${signed(r)} | ${ray.length ? `${ray.join(', ')}, then ${end}` : end} | ${to.length ? to.join(', ') : 'none'} |`, 'guide');
  }
  assert.deepEqual(moves(bishop), ['e2', 'd3', 'c4', 'b5', 'a6']);
  b.set(START);
  // pawns: the double-step rank, en passant, the centre points of c2-c4
  says(`\`6*8 + 0x${hex2(S - 48)} = ${6 * 8 + (S - 48)}\` for white, \`6*16 + 0x${hex2(S - 96)} = ${6 * 16 + (S - 96)}\` for black`);
  assert.equal(name(S - 48), 'a3'); assert.equal(name(S - 96), 'a6');
  says(`white (${6 * 8} + ${0x50})`, 'walk'); says(`black (${6 * 16} + ${0x20})`, 'walk');
  const e5 = square('e5'), d6 = square('d6');
  assert.equal(e5 - 17, d6); assert.equal(name(d6 ^ 16), 'd5');
  says(`white pawn on e5 (\`0x${hex2(e5)}\`), black plays d7-d5 (skipping d6, \`0x${hex2(d6)}\`)`);
  says(`equals \`E\`, so the victim is taken from \`0x${hex2(d6)} ^ 16\` = \`0x${hex2(d6 ^ 16)}\`, d5`);
});

test('figures: scores the search computes', () => {
  // the first pass: c2-c4 is worth 14; 20 moves, 21 nodes
  const c2 = square('c2'), c4 = square('c4');
  const centre = b[c2 + 8] - b[c4 + 8];
  says(`c2-c4 is worth 14 there: ${centre} centre points (c2 is ${b[c2 + 8]} from the centre, c4 ${b[c4 + 8]}), 9 for a pawn with partners on both sides (a2 and e2)`);
  assert.equal(centre + 9 - 1, 14);
  assert.equal(search(8, 2), 14);
  assert.equal(legalMoves(b, 8, -1).length, 20);
  says('each of the 20 moves is searched at depth 1: 20 children and the root make 21 nodes');
  // the last ply: a black queen on e3
  b[square('d8')] = 0; b[square('e3')] = 16 + 7;
  const [shallow, deeper, recapture] = [search(8, 1), search(8, 2), search(8, 1, square('e3'))];
  b.set(START);
  assert.deepEqual([shallow, deeper, recapture], [0, 904, 904]);
  says(`\`D()\` at depth 1 with \`z = 128\` (no last move) returns ${shallow}`);
  says(`At depth 2 it returns ${deeper}. At depth 1 with \`z\` = e3 (the queen "just arrived" there) it also returns ${recapture}: ${99 * w[7]} for the queen, 14 for`);
  // mates, stalemate
  setUp('rnb.kbnr/pppp.ppp/......../....p.../......Pq/.....P../PPPPP..P/RNBQKBNR');     // fool's mate
  const mated = search(8, 2);
  setUp('.....bnr/....p.pq/....Qpkr/.......p/.......P/....P.../PPPP.PP./RNB.KBNR');     // Loyd, black to move
  assert.equal(legalMoves(b, 16, -1).length, 0);
  const stale = search(16, 2);
  setUp('.......k/......../.....K../......../......../......../......../.R......');     // mate in two
  const two = search(8, 5);
  setUp('.......k/......../......K./......../......../......../......../.R......');     // mate in one
  const one = search(8, 3);
  b.set(START);
  assert.deepEqual([mated, stale, one, two], [-I / 2, 0, I / 2 - 1, I / 2 - 2]);
  says(`after fool's mate (1. f3 e5 2. g4 Qh4) \`D()\` for white returns ${mated}; in the stalemate position below, \`D()\` for black returns ${stale}`);
  says(`A mate in one scores ${one}, a mate in two ${two}`);
  says(`white king f6 and rook b1 against the king on h8 is a mate in two, ${two}; with the white king on g6 it is a mate in one, ${one}`);
  says(`the position is worth \`-I/2\` = ${quot(-I, 2)}: checkmate`);
  says(`\`I/4\` = ${I / 4}`);
  // the material score of the stalemate game
  const lost = 4 * 99 * w[1] + 99 * w[3] + 99 * w[5];
  says(`black has lost four pawns (4 × ${99 * w[1]}), a knight and a bishop (2 × ${99 * w[3]}) and white nothing, so black's search starts from \`Q\` = -${lost}`);
  assert.match(golden('stalemate'), new RegExp(` 0 ply, +1 searched, +-${lost} by`));
  // truncating division
  assert.equal(quot(-3999, 2), -1999); assert.equal(Math.floor(-3999 / 2), -2000);
  says(`\`-3999 / 2\` is ${quot(-3999, 2)} in C and in the port (\`quot\`), where \`Math.floor\` would print ${Math.floor(-3999 / 2)}`);
  assert.match(golden('checkmate-by-engine'), new RegExp(`${one} by \\( ${square('d8').toString(16)},${square('h4').toString(16)}\\)`));
});

test('figures: trace lines are the C\'s (golden transcripts)', () => {
  const TRACE = /^ *-?\d+ ply, +-?\d+ searched, +-?\d+ by \( *[0-9a-f]+, *[0-9a-f]+\)$/;
  const goldens = fs.readdirSync(path.join(ROOT, 'test', 'golden')).filter((f) => f.endsWith('.out'))
    .map((f) => ({ f, lines: read(`test/golden/${f}`).split('\n') }));
  let blocks = 0;
  for (const blk of [...fencedBlocks(GUIDE), ...fencedBlocks(WALK)]) {
    const lines = blk.lines.map((l) => l.text);
    if (!lines.some((l) => TRACE.test(l))) continue;
    blocks++;
    assert.ok(lines.every((l) => TRACE.test(l)), `block at line ${blk.start}: not all trace lines`);
    const found = goldens.some(({ lines: g }) => g.some((_, k) => lines.every((l, j) => g[k + j] === l)));
    assert.ok(found, `block at line ${blk.start} is not a run of lines of any golden transcript`);
  }
  assert.equal(blocks, 3);
  // the first move at the default limit: the whole trace is quoted
  const first = golden('default-trace').split('\n').filter((l) => TRACE.test(l));
  draws(first.join('\n'));
  const nodes = Number(/(\d+) searched/.exec(first.at(-1)!)![1]);
  says(`counts ${nodes.toLocaleString('en-US')} nodes`, 'guide');
  assert.match(first.at(-1)!, new RegExp(`by \\(${square('b1').toString(16)},${square('c3').toString(16)}\\)`));
  says('(`62`, `42` is c2-c4; `64`, `54` e2-e3; `71`, `52` b1-c3, the move played)');
  assert.deepEqual([square('c2'), square('c4'), square('e2'), square('e3')].map((s) => s.toString(16)), ['62', '42', '64', '54']);
  assert.ok(/let nodeLimit = 1e7;/.test(SOURCE));
  says('default 10,000,000 nodes');
  // the quirk after a refused move: the last empty line of this script prints no trace
  const lines = golden('checkmate-by-engine').split('\n');
  assert.ok(!TRACE.test(lines.at(-10) ?? '') && lines.length === 63 && TRACE.test(lines[45]), 'the last board has no trace');
});

test('figures: the key table T', () => {
  const view = new DataView(T.buffer);
  const index = (s: number, B: number, second = false): number => s + (second ? 8 : 0) + (B & 8) + S * (B & 7);
  // size and zero prefix
  const top = index(0x77, 8 + 7, true);
  assert.equal(top, 1031); assert.equal(top + 4, T.length);
  says(`119 + 8 + 8 + 7 × 128 = ${top}, and the read takes bytes ${top} to ${top + 3}. So \`T\` needs ${T.length} bytes`);
  assert.equal(index(0, 9), M);
  assert.ok(T.subarray(0, M).every((x) => x === 0) && T[M] !== 0);
  says(`The lowest byte a real piece reads is ${M} (a white pawn, the only type-1 piece, on square 0: 0 + 8 + 128)`);
  assert.ok(index(0x77, 0, true) + 3 < 131);
  says(`T takes ${T.length - M} outputs (\`T[${M}…${T.length - 1}] = random() >> 9\``.replace('T takes', '`T` takes'));
  // the byte diagram: white pawns on e2 and f2
  const e2 = index(square('e2'), 9), f2 = index(square('f2'), 9);
  assert.equal(e2, 236); assert.equal(f2, e2 + 1);
  const cells = (vs: (string | number)[]): string => vs.map((v) => String(v).padEnd(6)).join('').trimEnd();
  draws(`index of T      ${cells([e2, e2 + 1, e2 + 2, e2 + 3, e2 + 4])}\nbyte            ${cells([0, 1, 2, 3, 4].map((k) => hex2(T[e2 + k])))}`);
  const int = (at: number): string => `0x${(view.getInt32(at, true) >>> 0).toString(16)} = ${view.getInt32(at, true)}`;
  says(`pawn on e2 [---------------------] ${int(e2)}`); says(`pawn on f2 [---------------------] ${int(f2)}`);
  says(`the white pawn on e2 (\`0x64\` = 100, type 1, white: 100 + 8 + 128 = ${e2})`);
  // the change of J for 1. e4
  const key = (s: number, B: number): number => view.getInt32(index(s, B), true);
  const e4 = key(square('e4'), 9), e2k = key(square('e2'), 9), none = key(square('e4'), 0);
  const delta = e4 - e2k - none;
  says(`= ${e4} - ${e2k} - ${none} = ${delta}, which wraps (\`| 0\`) to ${1 + delta | 0} after adding the root's 1`);
  // the castling term: G - S for the four corners
  const corner = (king: number, r: number): number => (king | 7) - (r >> 1 & 7);
  const g = [corner(0x74, 1), corner(0x74, -1), corner(0x04, 1), corner(0x04, -1)];
  assert.deepEqual(g.map(name), ['h1', 'a1', 'h8', 'a8']);
  says(`(${g[0] - S} for h1, ${g[1] - S} for a1, ${g[2] - S} for h8, ${g[3] - S} for a8)`);
  // random()
  srandom(1);
  const firsts = [random(), random()];
  srandom(1); init();                                          // (T as before)
  says(`its first output is ${firsts[0]}`); says(`${firsts[0]}, ${firsts[1]}, …`, 'walk');
  says(`${Math.floor(2147483647 / 16807)} = (2³¹ - 1) div 16807`, 'walk');
});

test('figures: the hash table', () => {
  const U = A.K.length;
  assert.equal(U, 2 ** 24 + 8);
  says(`\`U\` = ${U.toLocaleString('en-US')} entries (2²⁴ + 8)`);
  says(`The highest slot reachable is \`0xffffff + 8\` = ${0xffffff + 8}, the last entry`);
  assert.equal(0xffffff + 8, U - 1);
  // side to move and e.p. square in the slot
  const white = [128, -128, 0, 3, 5, ...Array.from({ length: 8 }, (_, f) => 0x20 + f)];
  const black = [128, -128, ...Array.from({ length: 8 }, (_, f) => 0x50 + f), 0x73, 0x75];
  const products = [...white.map((E) => 8 * E), ...black.map((E) => 16 * E)];
  assert.equal(new Set(products.map((p) => p & 0xffffff)).size, products.length);
  for (const J of [1, 803727682, -123456789]) {
    const slots = products.map((p) => (p ^ J) & 0xffffff);
    for (const s of slots) for (const t of slots) if (s !== t) assert.ok(Math.abs(s - t) >= 8);
  }
  says(`| ${8 * 128}; ${8 * -128}; 0; ${8 * 3}, ${8 * 5}; ${8 * 0x20}–${8 * 0x27} |`);
  says(`| ${16 * 128}; ${16 * -128}; ${16 * 0x50}–${16 * 0x57}; ${16 * 0x73}, ${16 * 0x75} |`);
  assert.deepEqual([0x73, 0x75, 3, 5].map(name), ['d1', 'f1', 'd8', 'f8']);
  const root = (8 * -128 ^ 1) & 0xffffff;
  says(`\`(8 * -128 ^ 1) & 0xffffff\` = ${root}, so its entry is one of ${root + 1} to ${root + 8}`);
  // the chance of a mix-up
  const nodes = Number(/(\d+) searched/.exec(golden('default-trace').trim().split('\n').filter((l) => l.includes('ply')).at(-1)!)![1]);
  says(`one in ${(2 ** 32 / 8).toLocaleString('en-US')} lookups`);
  says(`${nodes.toLocaleString('en-US')} nodes (each one lookup`);
  says(`about ${(nodes * 8 / 2 ** 32).toFixed(2)} false matches`);
  // sizes
  const bytes = A.K.byteLength + A.V.byteLength + A.X.byteLength + A.Y.byteLength + A.D.byteLength;
  const MB = 2 ** 20;
  says(`${Math.round(A.K.byteLength / MB)} MB for \`K\`, ${Math.round(A.V.byteLength / MB)} MB for \`V\`, ${Math.round(A.X.byteLength / MB)} MB each for \`X\`, \`Y\`, \`D\`, ${Math.round(bytes / MB)} MB in all (${bytes.toLocaleString('en-US')} bytes) against the C's ${Math.round(12 * U / MB)} MB`);
  says(`The whole table is ${Math.round(bytes / MB)} MB`, 'walk');
  says(`one of ${2 ** 26 / 2 ** 21} page translations instead of one of ${(2 ** 26 / 2 ** 12).toLocaleString('en-US')}`);
  // the root entry after a 2-ply search of the opening position: the best move is c2-c4, exact
  search(8, 2);
  let a = (8 * S ^ 1) & 0xffffff;
  while (A.K[++a] !== 1);
  assert.deepEqual([A.X[a] & 0x77, A.Y[a] & 255, A.V[a], A.D[a], A.X[a] & M], [square('c2'), square('c4') | S, 14, 2, M]);
});

test('figures: what C did for free', () => {
  const c4 = square('c4'), Y = ch(c4 | S);
  assert.equal(Y, -62); assert.equal(Y & ~M, -190); assert.equal(ch(Y & ~M), c4);
  says(`say \`0x${hex2(Y)}\` = ${Y} for c4. \`${Y} & ~0x88\` is ${Y & ~M}, which the C stores in a char as ${ch(Y & ~M)} (\`0x${hex2(c4)}\`, c4)`);
  says(`\`0x${hex2(c4)} | 0x80\` = ${c4 | S}, which a char holds as ${ch(c4 | S)}`);
  assert.equal(((Y & ~M) & M), 0);                              // the unwrapped value passes the edge test
  assert.equal(ch(S), -128);
  const typed = (s: string): number => ch(s.charCodeAt(0) - 16 * s.charCodeAt(1) + 799);
  assert.deepEqual(['e2', 'eB', 'u3', 'e4', 'eD', 'u5'].map(typed), [100, 100, 100, 68, 68, 68]);
  says(`\`101 - 16*66 + 799\` = ${101 - 16 * 66 + 799}, which wraps to ${typed('eB')}`);
  says(`"e2" gives 101 - 800 + 799 = ${typed('e2')}, \`0x${hex2(typed('e2'))}\``, 'walk');
  says(`\`16 × 56 - 97\` is ${16 * '8'.charCodeAt(0) - 'a'.charCodeAt(0)}`, 'walk');
  assert.ok(SOURCE.includes('C = 799'));
  says(`\`e2\` gives 101 - 800 + 799 = 100 = e2`, 'guide');
});
