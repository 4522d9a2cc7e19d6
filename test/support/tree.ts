// Drawing a call stream (test/support/calls.ts) as a tree, for `npm run tree` (test/tools/tree.ts):
// one line a call, indented by ply, with squares by name and tags where the engine does something
// worth naming; passes, and the nested null move; a call's board, its move made as `D()` makes it;
// which moves of `--path` the search made. Every tag is read from the stream, where the
// instrumented `D0()` logged the act (a `^` on the call, a `#` or `!` line) or from the call's own
// line (its probe); nothing is guessed.

import { I, S, parse, square, type Call, type Pass, type PassEnd, type Return, type Take } from './calls.ts';

/** The tags, as printed. Their meanings are the tool's --help (test/tools/tree.ts). */
export const TAG = {
  nullMove: 'null move: is the side to move in check?',
  hint: 'hint (best move first)',
  answer: 'hash answer',
  pat: 'stands pat',
  cut: 'cut-off (m ≥ l)',
  king: 'king capture',
  castling: 'illegal castling',
  noMove: 'no legal move (m = -8000)',
} as const;

// ---- the words of a line --------------------------------------------------------------------

const isSquare = (s: number): boolean => s >= 0 && (s & 0x88) === 0;
/** A square by name (e3); a number that is no square as it is (E 128, z 8). */
export const place = (s: number): string => isSquare(s) ? square(s) : String(s);
/** E as place() gives it, but 0, a first think's (the C's unset O), as 0: no pawn skips a8, no king crosses it,
 *  and a8 would read as a square the last move passed. */
export const placeE = (E: number): string => E === 0 ? '0' : place(E);
/** A move from X and Y as D() holds them (flags masked off), or '' when they are no move; a pawn's move to
 *  the last rank is named as the stream names it, with its q (a7a8q), when the board it is made on is known
 *  (`board`, asked only for a move to the first or last rank). */
export function bestMove(X: number, Y: number, board?: () => Board64 | null | undefined): string {
  const x = X & 0x77, y = Y & 0x77;
  if (x === y) return '';
  return square(x) + square(y) + ((y >> 4) % 7 === 0 && board && promotes(board(), x) ? 'q' : '');
}
/** Does the piece on x, a pawn, promote by moving to the first or last rank (where a pawn only promotes)? */
const promotes = (b: Board64 | null | undefined, x: number): boolean => !!b && (b[at64(x)] & 7) > 0 && (b[at64(x)] & 7) < 3;

/** D(k, q, l, e, E, z, n) with E and z by name; J and Z only with `keys`. */
export const named = (c: Call, keys = false): string =>
  `D(${[c.k, c.q, c.l, c.e, ...(keys ? [c.J, c.Z] : []), placeE(c.E), place(c.z), c.n].join(', ')})`;

/** Does the probe's entry answer the call at once? D()'s own test, on the entry the probe found. */
export function answers(c: Call): boolean {
  const p = c.probe;
  if (!p || p.d === undefined) return false;
  return p.d >= c.n && (p.v! >= c.l || (p.X! & S) !== 0) && (p.v! <= c.q || (p.X! & 8) !== 0);
}

/** What the probe found: empty, full (8 slots held by others), or the entry: depth, score and its
 *  bound (≥ a lower bound, ≤ an upper bound, bare when exact), and best move (on the call's `board`). */
export function probeText(c: Call, board?: () => Board64 | null | undefined): string {
  const p = c.probe;
  if (!p) return 'full';
  if (p.d === undefined) return 'empty';
  const atLeast = (p.X! & 8) !== 0, atMost = (p.X! & S) !== 0;
  const bound = atLeast === atMost ? '' : atLeast ? '≥ ' : '≤ ';
  const best = bestMove(p.X!, p.Y!, board);
  return `d ${p.d} v ${bound}${p.v}${best ? ` ${best}` : ''}`;
}

/** What the board's letters are, beside the files: the game (micromax.ts) prints the pawns otherwise. */
export const PIECES = 'P pawn (the game prints white\'s as *, black\'s as +), N knight, B bishop, R rook, Q queen, K king; black in lower case';

/** The root position, 8 ranks and the files, with FEN letters (upper case white), and what they are
 *  (unless `letters` is false). */
export function boardLines(b: number[], letters = true): string[] {
  const ranks = [...Array(8)].map((_, r) => `${8 - r} ${b.slice(8 * r, 8 * r + 8).map(pieceLetter).join('')}`);
  return [...ranks, letters ? `  abcdefgh  ${PIECES}` : '  abcdefgh'];
}

/** The legend above the tree: a line's fields (the tags are explained by --help), unless `brief`; and, when
 *  replies are drawn (`replies`), what the number after a move's arrow is. */
export function legend(keys: boolean, brief: boolean, replies: boolean): string[] {
  const fields = `Each call: move, D(k, q, l, e, E, z, n) (E, z: squares; J, Z ${keys ? 'shown' : 'left out'}: --keys), ` +
    'probe, → result (calls below it, at all depths), tags: --help.';
  return [...brief ? [] : [fields], ...replies ? [ARROW] : []];
}
/** What `move → N` means, in the text tree's legend and on the page. */
export const ARROW = 'move → N: the reply\'s result, the position\'s value for the side to move there, the mover\'s ' +
  'opponent; so the mover\'s best move shows the lowest N.';

const column = (s: string, width: number): string => s.length < width ? s.padEnd(width) : `${s} `;
const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
const pad = (level: number): string => '  '.repeat(level);

// ---- the tree -------------------------------------------------------------------------------

export interface TreeOptions {
  depth: number;                                       // calls deeper than this are only counted
  keys: boolean;                                       // show J and Z
  checks: number;                                      // calls from main() to pass over (typed moves)
  top: string;                                         // the first call's label: root, call
  put: (line: string, what: Line) => void;             // where the lines go (what each is: for Focus)
  heading: (first: Call, board: number[]) => void;     // called before the first call is drawn
}

/** What a drawn line is: a call on one line, the first line of a call drawn with its calls inside
 *  (open), the line of one of its passes (pass: its depth d), its result (end), or the think's
 *  result (returns). `level` is the call's ply below the first; a pass line has its call's level. */
export interface Line { kind: 'call' | 'open' | 'pass' | 'end' | 'returns'; level: number; move: string; pass: number }

/** A pass of a drawn call that has ended and is not drawn yet (its root line, or a null move, to come). */
interface Ended { end: PassEnd; tags: string[]; nullV?: number }
interface Node {
  level: number; call: Call; head: string; own: string[]; // own: the call's tags (hint, hash answer)
  printed: boolean; inside: number; passes: number; held: [string, Line][];
  folded: Map<string, number[]>;                       // its passes' tags, by pass (for its one line)
  ended?: Ended; takes: Take[]; drawsPasses: boolean; lastBest: string;
  board?: Board64 | null;                              // the board it searched, once asked (null: not known)
}
/** The typed moves' legality check that said no. */
export class Refused { constructor(readonly move: number) {} }

export class Tree {
  private open = 0;
  private calls = 0;
  private checked = 0;
  private board: number[] = [];
  private first?: Board64;                             // the first call's board, when not main()'s (start())
  private stack: Node[] = [];
  done = false;
  constructor(private readonly o: TreeOptions) {}

  /** The first call drawn is searched on `board` (a call of a stream below the first ply: its board made
   *  move by move), not on main()'s last. */
  start(board: Board64 | undefined): void { this.first = board; }

  /** The board of the call open at `k` in the stack: the first's, or its caller's with its move made as
   *  D() makes it; null when a move to it is not known. Worked out when first asked (a promotion's q). */
  private boardOf(k: number): Board64 | null {
    const node = this.stack[k];
    if (node.board !== undefined) return node.board;
    if (k === 0) return node.board = this.first ?? (this.board.length ? this.board : null);
    const up = this.stack[k - 1], before = this.boardOf(k - 1);
    if (node.call.move === 'null') return node.board = before;
    return node.board = before && (makeMove(before, node.call.move, up.call.E, up.call.k)?.board ?? null);
  }

  /** Reads one line of the stream; `done` is true once the first drawn call has returned. */
  feed(line: string): void {
    if (this.checked < this.o.checks) return this.check(line);
    if (this.open > this.o.depth + 1) return this.count(line);
    const e = parse(line);
    if (e.t === '@') this.board = e.b;
    else if (e.t === '>') this.enter(e);
    else if (e.t === '<') this.leave(e);
    else if (e.t === '#') this.top().takes.push(e);
    else if (e.t === '!') this.passEnds(this.top(), e);
    else if (e.t === '=') this.rootPass(this.top(), e);  // (a hash store, 's', is not drawn)
  }

  private check(line: string): void {                  // a typed move's legality check: not drawn
    if (line[0] === '>') this.open++;
    else if (line[0] === '<' && --this.open === 0) {
      if ((parse(line) as Return).v !== I) throw new Refused(this.checked + 1);
      this.checked++;
    }
  }
  private count(line: string): void {                 // inside a hidden call: only counted
    if (line[0] === '>') {
      this.open++; this.calls++;
      for (const s of this.stack) s.inside++;
    } else if (line[0] === '<' && --this.open === this.o.depth + 1) this.answered(this.top(), parse(line) as Return);
  }
  /** A reply of `up` has returned: if `up`'s pass kept no king, it was the null move, which ends that pass. */
  private answered(up: Node | undefined, r: Return): void {
    if (!up?.ended) return;
    up.ended.nullV = r.v;
    if (up.call.z !== 8) this.drawPass(up);
  }
  private top(): Node { return this.stack[this.stack.length - 1]; }
  /** A node's board, when asked (the node is open: on the stack). */
  private boardFor(node: Node): () => Board64 | null {
    return () => { const k = this.stack.indexOf(node); return k < 0 ? null : this.boardOf(k); };
  }

  private enter(c: Call): void {
    const level = this.open++;
    this.calls++;
    for (const s of this.stack) s.inside++;
    if (level > this.o.depth) return;
    if (level === 0) this.o.heading(c, this.board);
    else this.settle(this.top());
    const label = level ? c.move : this.o.top;
    const head = `${pad(level)}${label.padEnd(5)} ${named(c, this.o.keys)}`.padEnd((this.o.keys ? 68 : 42) + 2 * level);
    const own = [c.move === 'null' ? TAG.nullMove : '', c.hint ? TAG.hint : '', answers(c) ? TAG.answer : '']
      .filter(Boolean);
    const k = this.stack.length, board = (): Board64 | null => this.boardOf(k);
    this.stack.push({ level, call: c, head: '', own, printed: false, inside: 0,
      passes: 0, held: [], folded: new Map(), takes: [], lastBest: '',
      drawsPasses: level === 0 || level < this.o.depth || c.z === 8 });
    this.stack[k].head = `${head} ${column(probeText(c, board), 17)}`;
  }

  /** A call that has something drawn inside it: its own line first, then its passes so far. */
  private settle(node: Node): void {
    if (node.printed) return;
    node.printed = true;
    this.o.put(`${node.head.trimEnd()}${node.own.length ? `  ${node.own.join('; ')}` : ''}`.trimEnd(),
      this.line('open', node));
    for (const [l, what] of node.held) this.o.put(l, what);
  }

  private passEnds(node: Node, p: PassEnd): void {
    const tags = this.passTags(node, p);
    node.passes++;
    node.takes = [];
    node.lastBest = bestMove(p.X, p.Y, this.boardFor(node));
    for (const t of tags) node.folded.set(t, [...node.folded.get(t) ?? [], p.d]);
    node.ended = { end: p, tags };
    if (node.call.z !== 8 && p.m !== -I) this.drawPass(node);
  }

  /** The acts of a pass: its king captures, standing pat, the cut-off. */
  private passTags(node: Node, p: PassEnd): string[] {
    const takes = node.takes.map((t) => `${t.king ? TAG.king : TAG.castling} (${square(t.x)}${square(t.y)})`);
    const pat = p.d <= 1 && p.m === node.call.e ? [TAG.pat] : [];
    return [...p.m === -I ? [TAG.noMove] : [], ...new Set(takes), ...pat, ...p.cut ? [TAG.cut] : []];
  }

  /** A pass of a call that is not a root search: its depth (its number), score, best move and tags. */
  private drawPass(node: Node): void {
    const x = node.ended!;
    node.ended = undefined;
    const score = x.nullV === undefined ? `${x.end.m}` : `${x.end.m}, ${-x.nullV / 2 | 0} after the null move`;
    const best = bestMove(x.end.X, x.end.Y, this.boardFor(node));
    this.passLine(node, x.end.d, `score ${score}${best ? `, best ${best}` : ''}`, x.tags);
  }

  /** A pass of a root search (z 8): the program's own trace line, in words (its "ply" is the depth - 1,
   *  98 after a mate score; the pass is named by its depth, as every pass is). */
  private rootPass(node: Node, p: Pass): void {
    const x = node.ended!;
    node.ended = undefined;
    const score = x.end.m === -I ? `${x.end.m}, ${p.m} after the null move` : `${p.m}`;
    const best = bestMove(p.X, p.Y, this.boardFor(node));
    node.lastBest = best;
    this.settle(node);
    this.passLine(node, x.end.d, `${plural(p.N, 'node')}, score ${score}${best ? `, best ${best}` : ''}`, x.tags);
  }

  private passLine(node: Node, d: number, text: string, tags: string[]): void {
    if (!node.drawsPasses) return;
    const line = `${pad(node.level + 1)}pass ${d} done: ${text}${tags.length ? `; ${tags.join('; ')}` : ''}`;
    const what: Line = { kind: 'pass', level: node.level, move: node.call.move, pass: d };
    if (node.printed) this.o.put(line, what); else node.held.push([line, what]);
  }

  private line(kind: Line['kind'], node: Node): Line {
    return { kind, level: node.level, move: node.level ? node.call.move : this.o.top, pass: 0 };
  }

  private leave(r: Return): void {
    const level = --this.open;
    if (level > this.o.depth) return;
    const node = this.stack.pop()!;
    const calls = node.inside ? ` (${plural(node.inside, 'call')})` : '';
    if (level === 0) {
      this.settle(node);
      const best = node.lastBest ? `, best ${node.lastBest}` : '';
      this.o.put(`returns ${r.v}${best}, after ${plural(r.N, 'node')} and ${plural(this.calls, 'call')}`,
        this.line('returns', node));
      this.done = true;
    } else if (!node.printed) this.o.put(`${node.head}→ ${r.v}${calls}${this.tagText(node)}`, this.line('call', node));
    else this.o.put(`${pad(level)}→ ${r.v}${calls}`, this.line('end', node));
    this.answered(this.top(), r);                      // (after the line: a pass it ends comes below)
  }

  /** A one-line call's tags: its own, then its passes' (naming the passes when it ran several). */
  private tagText(node: Node): string {
    const passes = [...node.folded].map(([t, ks]) =>
      node.passes < 2 ? t : `${t} in pass${ks.length > 1 ? 'es' : ''} ${ks.join(', ')}`);
    const all = [...node.own, ...passes];
    return all.length ? `  ${all.join('; ')}` : '';
  }
}

/** A root search's pass line read back as the program's --trace line gives it: [ply, nodes, score], or []
 *  for another line. The trace prints d - 1 as the ply, and 98 once a mate-sized score (beyond 2000,
 *  or no move: -8000) has set d to 99; the tree names the pass by its d. */
export function traceFigures(line: string): number[][] {
  const m = /pass (\d+) done: (\d+) nodes?, score (-?\d+)(?:, (-?\d+) after the null move)?/.exec(line);
  if (!m) return [];
  const [d, N, m0] = [m[1], m[2], m[3]].map(Number), score = m[4] === undefined ? m0 : Number(m[4]);
  return [[Math.abs(m0) > I / 4 ? 98 : d - 1, N, score]];
}

// ---- a focus: only some passes and moves of the tree (--pass, --path) ------------------------------

export interface FocusOptions {
  pass?: number;                                       // only this pass (by its depth d) of the first call
  path?: string[][];                                   // the moves at ply 1, 2, ...: one of these at each
  put: (line: string) => void;
}

/** Passes a tree's lines on, keeping only the first call's pass `pass` and the calls along `path`
 *  (with everything drawn below the path's end). The first call's own line and its result always
 *  show; so do its pass lines, unless `pass` picks one. Lines below the first call are held until the
 *  pass line they belong to (which comes after its calls) says whether that pass is kept. */
export class Focus {
  private held: string[] = [];
  private shown: boolean[] = [true];                   // by level: is the open call there shown?
  constructor(private readonly o: FocusOptions) {}

  /** Does the focus keep anything out? (Without one, lines go straight through.) */
  get any(): boolean { return this.o.pass !== undefined || this.o.path !== undefined; }

  take(line: string, what: Line): void {
    if (!this.any) return this.o.put(line);
    if (what.level === 0 && what.kind !== 'pass') return this.o.put(line);   // the first call, its result
    if (what.level === 0) {                                                  // a pass of the first call
      const kept = this.o.pass === undefined || this.o.pass === what.pass;
      if (kept) for (const l of [...this.held, line]) this.o.put(l);
      this.held = [];
      return;
    }
    if (what.kind === 'call' || what.kind === 'open') {
      const want = this.o.path?.[what.level - 1];
      this.shown[what.level] = this.shown[what.level - 1] && (!want || want.includes(what.move));
      if (this.shown[what.level]) this.held.push(line);
      return;
    }
    if (this.shown[what.level]) this.held.push(line);                        // a pass or the end of a call
  }
}

/** Which moves of --path the search made, read from the stream of the first call drawn (after `checks`
 *  calls from main()): at each ply, the moves of the calls whose callers are all on the path, and those of
 *  them the path names. A move of the path that no such call made draws nothing: the tool says so. */
export class PathMatch {
  private open: boolean[] = [];                        // by ply: is the open call on the path?
  private checking = 0;                                // the depth inside a typed move's check
  private checked = 0;
  private readonly seen: Set<string>[];
  done = false;
  constructor(private readonly path: string[][], private readonly checks: number) {
    this.seen = path.map(() => new Set<string>());
  }

  feed(line: string): void {
    if (this.done || (line[0] !== '>' && line[0] !== '<')) return;
    if (this.checked < this.checks) {
      if (line[0] === '>') this.checking++;
      else if (--this.checking === 0) this.checked++;
      return;
    }
    if (line[0] === '<') {
      this.open.pop();
      this.done = this.open.length === 0;
      return;
    }
    const ply = this.open.length, move = line.slice(2, line.indexOf(' ', 2)), want = this.path[ply - 1];
    if (ply === 0) return void this.open.push(true);
    if (this.open[ply - 1] && want) this.seen[ply - 1].add(move);
    this.open.push(this.open[ply - 1] && (!want || want.includes(move)));
  }

  /** The first move of the path that no call along it made, in words (the moves made there, and a
   *  promotion's name), or undefined when each was made. */
  unmatched(): string | undefined {
    for (const [k, moves] of this.path.entries()) {
      const seen = [...this.seen[k]], missing = moves.find((m) => !seen.includes(m));
      if (missing === undefined) continue;
      const promotion = seen.includes(`${missing}q`) ? ` (a promotion is named with its q: ${missing}q)` : '';
      const along = k ? ` after ${this.path.slice(0, k).map((p) => p.join(',')).join(' ')}` : '';
      const made = seen.length ? `the moves made there: ${seen.slice(0, 12).join(' ')}${seen.length > 12 ? ' ...' : ''}`
        : 'no move was searched there';
      return `no call at ply ${k + 1}${along} is ${missing}${promotion}, so nothing is drawn along it (${made})`;
    }
    return undefined;
  }
}

// ---- --brief: the moves and the scores alone ------------------------------------------------------

/** A drawn line cut to its move and score, for a reader who has not met the rest yet: a call's move
 *  and result (→ v), a pass's depth, score and best move, the search's result and best move. Left out:
 *  D()'s arguments, the probe, the tags, the counts of nodes and calls. */
export function brief(line: string, what: Line): string {
  const indent = line.slice(0, line.search(/\S/));
  const result = /→ (-?\d+)/.exec(line)?.[1];
  if (what.kind === 'open') return `${indent}${what.move}`;
  if (what.kind === 'call') return `${indent}${what.move.padEnd(5)} → ${result}`;
  if (what.kind === 'end') return `${indent}→ ${result}`;
  if (what.kind === 'returns') return /^returns -?\d+(, best \w+)?/.exec(line)![0];
  return line.replace(/^( *pass \d+ done: )(?:\d+ nodes?, )?([^;]*)(?:;.*)?$/, '$1$2');
}

// ---- the board of a call: its caller's, with the move made as D() makes it --------------------------

/** A board as the stream's '@' line has it: 64 piece codes, a8 b8 .. h1. */
export type Board64 = number[];
/** The square (0x88) of the board's i-th code (0 a8 .. 63 h1), and back. */
export const at88 = (i: number): number => 16 * (i >> 3) + (i & 7);
export const at64 = (s: number): number => 8 * (s >> 4) + (s & 7);
/** D()'s piece values by type (w), and its centre points by square (0x88), the right half of each row
 *  of the board, as init() computes them: the squared distance from between e4 and e5, cut to a whole number. */
export const VALUES = [0, 1, 1, 3, -1, 3, 5, 9];
export const CENTRE: number[] = Array.from({ length: 128 }, (_, s) =>
  s & 0x88 ? 0 : Math.trunc(((s & 7) - 4) ** 2 + ((s >> 4) - 3.5) ** 2));
/** The stream's SUM of a board: Σ (i+1)·b[square i], a8 first. */
export const sumOf = (b: Board64): number => b.reduce((t, u, i) => t + (i + 1) * u, 0);

/** A move made: the board after it, and what D() named on the way: from x to y, the piece u (type p),
 *  what was taken (t, on H: y, or a row behind for en passant), the castling corner G and crossed square F
 *  (128 when none), a promotion. */
export interface Made {
  board: Board64; x: number; y: number; H: number; G: number; F: number; u: number; p: number; t: number;
  promotion: boolean;
}

/** A move by its squares, as the stream names one (e2e4, e7e8q). */
const NAMED_MOVE = /^[a-h][1-8][a-h][1-8]q?$/;

/** The move (e2e4, e1g1, e7e8q) made on `before` as D() makes it: the piece leaves x and loses its virgin
 *  bit (32), lands on y, and takes what stood on H, which is y but for a pawn landing on `E` (the caller's
 *  E), where H is y ^ 16, a row behind; a king two files along castles: its corner G is emptied and a rook
 *  of side `k` (the mover, k + 6) stands on F, the square crossed; a pawn reaching the last rank becomes a
 *  queen (| 7). Undefined for a move the stream does not name ('-', '?', null) and for one D() cannot have
 *  made there (no piece of side k on x). */
export function makeMove(before: Board64, move: string, E: number, k: number): Made | undefined {
  if (!NAMED_MOVE.test(move)) return undefined;
  const x = squareOf(move.slice(0, 2)), y = squareOf(move.slice(2, 4));
  const b = [...Array(129)].map((_, s) => s & 0x88 ? 0 : before[at64(s)]);
  const u = b[x], p = u & 7;
  if (!(u & k)) return undefined;
  const H = p < 3 && y === E ? y ^ 16 : y, t = b[H];
  const castling = p === 4 && Math.abs(y - x) === 2, G = castling ? (y > x ? x | 7 : (x | 7) - 7) : S;
  const F = castling ? (x + y) / 2 : S;
  b[G] = b[H] = b[x] = 0; b[y] = u & 31;
  if (castling) b[F] = k + 6;
  const promotion = p < 3 && (y >> 4) === (p === 1 ? 0 : 7);
  if (promotion) b[y] |= 7;
  return { board: [...Array(64)].map((_, i) => b[at88(i)]), x, y, H, G, F, u, p, t, promotion };
}

/** Every piece code a board can hold: empty, a pawn, a piece, a moved piece, a queen made from a pawn. */
const CODES = [0, ...[8, 16].flatMap((c) => [1, 2, 3, 4, 5, 6, 7].flatMap((t) => t < 3 ? [c + t] : [c + t, c + t + 32]))];
/** The boards one square away from `b` whose sum is `sum`: each as the square and the code it would hold. */
export function oneSquareFits(b: Board64, sum: number): { square: number; code: number }[] {
  const d = sum - sumOf(b), out: { square: number; code: number }[] = [];
  for (let i = 0; i < 64 && d; i++) {
    const code = b[i] + d / (i + 1);
    if (Number.isInteger(code) && CODES.includes(code)) out.push({ square: at88(i), code });
  }
  return out;
}

/** A piece code as the board draws it: P N B R Q K for white, lower case for black, . for none. */
export const pieceLetter = (u: number): string => u & 8 ? '.PPNKBRQ'[u & 7] : u & 16 ? '.ppnkbrq'[u & 7] : '.';

// ---- --call "D(k, q, l, e, E, z, n)" --------------------------------------------------------

export const CALL_NAMES = ['k', 'q', 'l', 'e', 'E', 'z', 'n'] as const;
export type CallArgs = Record<(typeof CALL_NAMES)[number], number>;

const squareOf = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97;
const BOUND = 9999;                                     // scores and windows, either way

/** One argument's value, or what is wrong with it. */
function argument(name: string, text: string): number | string {
  const t = text.trim();
  const sides: Record<string, number> = { 8: 8, white: 8, 16: 16, black: 16 };
  if (name === 'k') return sides[t] ?? 'k is 8 (white) or 16 (black)';
  if (name === 'E' || name === 'z') {
    if (/^[a-h][1-8]$/.test(t)) return squareOf(t);
    const none = name === 'E' ? ['128', '-128', '0'] : ['128', '8', '9'];
    if (none.includes(t)) return Number(t);
    return name === 'E' ? 'E is a square (e3), or 128, -128 or 0 for none'
      : 'z is a square (e3), 128 for no last move, 8 for a root search, or 9 for a legality check';
  }
  if (!/^-?\d+$/.test(t)) return `${name} is a whole number`;
  const v = Number(t);
  if (name === 'n') return v >= 0 && v <= 98 ? v : 'n is a depth from 1 to 98 (0 for a root search)';
  return Math.abs(v) <= BOUND ? v : `${name} is from ${-BOUND} to ${BOUND}`;
}

/** The items of "D(a, b, ...)": the arguments, each "value" or "name=value". */
function items(text: string): string[] {
  const inner = text.trim().replace(/^D\s*\(/, '').replace(/\)\s*$/, '').trim();
  return inner.includes(',') ? inner.split(',').map((s) => s.trim()) : inner.split(/\s+/).filter(Boolean);
}

/** The seven arguments by name, from either form, or what is wrong. */
function byName(list: string[]): Record<string, string> | string {
  const named = list.map((s) => /^(\w+)\s*[=:]\s*(.+)$/.exec(s));
  if (named.every((m) => m === null)) {
    if (list.length !== 7) return `D() takes 7 arguments here (k, q, l, e, E, z, n), not ${list.length}`;
    return Object.fromEntries(CALL_NAMES.map((n, i) => [n, list[i]]));
  }
  if (named.some((m) => m === null)) return 'give all the arguments in order, or all by name (k=8, q=-8000, ...)';
  const out: Record<string, string> = {};
  for (const [, name, value] of named as RegExpExecArray[]) {
    if (name === 'J' || name === 'Z') return 'J and Z are not given: the tool uses 1 and 1, as main() does';
    if (!(CALL_NAMES as readonly string[]).includes(name)) return `no argument '${name}' (k, q, l, e, E, z, n)`;
    if (name in out) return `${name} is given twice`;
    out[name] = value;
  }
  const missing = CALL_NAMES.filter((n) => !(n in out));
  return missing.length ? `missing ${missing.join(', ')}` : out;
}

/** --call's text as D()'s arguments, or what is wrong with it. */
export function readCall(text: string): CallArgs | string {
  const raw = byName(items(text));
  if (typeof raw === 'string') return raw;
  const args = {} as CallArgs;
  for (const name of CALL_NAMES) {
    const v = argument(name, raw[name]);
    if (typeof v === 'string') return v;
    args[name] = v;
  }
  if (args.q >= args.l) return `the window is empty: q (${args.q}) must be below l (${args.l})`;
  if (args.n === 0 && args.z !== 8) return 'n is 1 or more (0 only for a root search, z 8)';
  return args;
}

// ---- --path "c7d6 a7b6" -----------------------------------------------------------------------

/** --path's text as the moves allowed at each ply (e2e4,g1f3 a choice), or what is wrong with it. */
export function readPath(text: string): string[][] | string {
  const plies = text.trim().split(/\s+/).filter(Boolean).map((ply) => ply.split(',').filter(Boolean));
  if (!plies.length) return 'give the moves, one a ply: "c7d6 a7b6"';
  for (const move of plies.flat()) {
    if (!/^([a-h][1-8]){2}q?$|^null$/.test(move)) return `'${move}' is not a move like e2e4 (or null)`;
  }
  return plies;
}
