#!/usr/bin/env node
// micromax-ts: H.G. Muller's micro-Max 3.2 chess program, ported line for line
// from its C original. Read it beside annotated/ for the why of every line.
// Part 1 is the engine (same names, same order as the C); part 2 is the shell;
// part 3 plays in a chess GUI (UCI, xboard) through the shell's own steps.

import * as fs from 'node:fs';
import { isatty } from 'node:tty';
import { pathToFileURL } from 'node:url';
import * as v8 from 'node:v8';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import readlineSync from 'readline-sync';

// ---- Part 1: the engine ---------------------------------------------------

// What C did for free, done by hand:
const ch = (v: number): number => v << 24 >> 24;       // store in a char: wrap to -128..127
const int = (c: boolean): number => +c;                // a C comparison is the int 0 or 1
const quot = (a: number, b: number): number => a / b | 0; // C's '/' truncates toward zero
const neg = (v: number): number => 0 - v | 0;          // C's -v: an int, never JavaScript's -0
function fixed(...v: number[]): Int8Array {            // a C char array: in its own buffer, out
  const a = new Int8Array(new ArrayBuffer(v.length));  // of V8's moving heap, so optimised code
  a.set(v); return a;                                  // can embed its address
}

const U = 16777224;                                    // hash entries: 2^24 + 8
const A = allocate(() => ({                            // the hash table, one array a field
  K: new Int32Array(U),                                //   lock: the position's Z key
  V: new Int32Array(U),                                //   score
  X: new Int8Array(U),                                 //   best from-square + bound bits
  Y: new Int8Array(U),                                 //   best to-square (+128: no castle)
  D: new Int8Array(U),                                 //   depth the score is good for
}));

const V = 112, M = 136, S = 128, I = 8e3, C = 799;    // 0x70 rank bits, 0x88 off-board bits
let Q = 0, N = 0, i = 0;                               // material (side to move), nodes, counter

let O = 0, K = 0, L = 0;                               // chars: square skipped last move, from/to
const values = fixed(0, 1, 1, 3, -1, 3, 5, 9);         // w in D: piece values by type
const steps = fixed(-16, -15, -17, 0, 1, 16, 0, 1, 16, 15, 17, 0, 14, 18, 31, 33, 0, // o in D
  7, -1, 11, 6, 8, 3, 6,                               // index before each type's steps in o
  6, 3, 5, 7, 4, 5, 3, 6);                             // back rank, file a to h
const board = new Int8Array(129);                      // b in D: 0x88 board; right half: centre points
const T = new Int8Array(1035);                         // Zobrist bytes, read 4 at a time
const Tv = new DataView(T.buffer);                     // ... through this little-endian view

const n = '.?+nkbrq?*?NKBRQ';                          // how each piece code is printed

let nodeLimit = 1e7;                                   // root stops after this many nodes (--nodes)

// glibc's random() with its default seed 1: each output adds two of 31 words
const rs = new Int32Array(31);                         // the generator's state
let rf = 3, rr = 0;                                    // the two words added next
function srandom(seed: number): void {
  rs[0] = seed;
  for (let k = 1; k < 31; k++) {                       // fill: x = 16807 x mod (2^31-1)
    const word = 16807 * (rs[k - 1] % 127773) - 2836 * quot(rs[k - 1], 127773);
    rs[k] = word < 0 ? word + 2147483647 : word;
  }
  rf = 3; rr = 0;
  for (let k = 0; k < 310; k++) random();              // glibc throws away 310 outputs
}
function random(): number {
  rs[rf] += rs[rr];                                    // wraps at 32 bits, as in glibc
  const r = rs[rf] >>> 1;                              // top 31 bits, never negative
  rf = rf === 30 ? 0 : rf + 1;
  rr = rr === 30 ? 0 : rr + 1;
  return r;
}
srandom(1);

const Kt = (A: number, B: number): number =>           // the C's K(A,B): 4 bytes of T for
  Tv.getInt32(A + (B & 8) + S * (B & 7), true);        // piece B on square A (A+8: 2nd key)
const Jd = (A: number, x: number, y: number, H: number, u: number, t: number): number =>
  Kt(y + A, board[y]) - Kt(x + A, u) - Kt(H + A, t);  // the C's J(A): key change of a move

v8.setFlagsFromString('--min-inlining-frequency=0');   // V8: inline D()'s rare calls too (ch)
function D(k: number, q: number, l: number, e: number, J: number, Z: number,
  E: number, z: number, n: number): number {           // search; k side, n depth, (q,l) window
  let j = 0, r = 0, m = 0, v = 0, d = 0, h = 0, i = 8, F = 0, G = 0; // ints
  let t = 0, p = 0, u = 0, x = 0, y = 0, X = 0, Y = 0, H = 0, B = 0; // chars
  let a = 0;                                           // hash entry in use (index into A)
  const b = board, w = values, o = steps;              // locals: V8 embeds their addresses

  j = (k * E ^ J) & U - 9;                             // slot from key, side and e.p. square
  while ((h = A.K[++j]) && h !== Z && --i);            // 8 tries: empty slot or our lock
  a += i ? j : 0;                                      // all 8 taken by others: dummy entry 0
  d = A.D[a]; v = A.V[a]; X = A.X[a]; Y = A.Y[a];      // the entry, even if empty (see guide)
  if (A.K[a]) {                                        // found: reuse what it knows
    if (d >= n) {                                      // deep enough:
      if ((int(v >= l) | X & S) && (int(v <= q) | X & 8)) return v; // score fits the window
      d = n - 1;                                       // else start deepening from there
    } X = ch(X & ~M);                                  // strip bound bits: the best move
    Y = d ? Y : 0;                                     // no best-move hint at depth 0
  } else d = X = Y = 0;                                // new: start from nothing
  N = N + 1 | 0;                                       // count the node (a C int)
  while (d++ < n || z === 8 && N < nodeLimit && d < 98) { // deepen; the root goes on to limit
    x = B = X;                                         // board scan starts at the best move
    Y |= 8 & Y >> 4;                                   // bit 3: try best move first
    m = d > 1 ? -I : e;                                // depth 1 may stand pat at e
    C: {                                               // 'break C' is the C's 'goto C'
      do {
        u = b[x];                                      // walk the board for our pieces
        if (u & k) {
          r = p = u & 7;                               // type; r>0 so the first step is taken
          j = o[p + 16];                               // just before this type's steps in o
          while (r = p > 2 && r < 0 ? neg(r) : neg(o[++j])) { // each direction, then its opposite
            y = x; F = G = S;                          // A: move (x,y); F,G: castling squares
            do {
              H = y = ch(y + r);                       // next square along the ray
              if (Y & 8) H = y = ch(Y & ~M);           // (or the best move, slipped in first)
              if (y & M) break;                        // off the board
              if (p < 3 && y === E) H = y ^ 16;        // e.p.: the victim is a rank behind
              t = b[H];
              if (t & k || p < 3 && int(!(r & 7)) !== int(!t)) break; // own piece; pawn rules
              i = 99 * w[t & 7];                       // value of the captured piece
              if (i < 0 || E !== S && b[E] && int(y - E < 2) & int(E - y < 2)) m = I; // king taken, bad castling
              if (m >= l) break C;                     // beta cut-off

              if (h = d - int(y !== z)) {              // depth left (recapture: not reduced)
                v = p < 6 ? b[x + 8] - b[y + 8] : 0;   // centre points won
                b[G] = b[H] = b[x] = 0; b[y] = u & 31; // make the move, lose the virgin bit
                if (!(G & M)) { b[F] = k + 6; v += 30; } // castling: place rook, bonus
                if (p < 3) {                           // pawns:
                  v -= 9 * (int((x - 2 & M) !== 0 || b[x - 2] !== u) + // left neighbour
                    int((x + 2 & M) !== 0 || b[x + 2] !== u) - 1); // right neighbour
                  if (y + r + 1 & S) { b[y] |= 7; i += C; } // promotion to queen
                }
                if (!(N & 4095)) poll();               // port only: a clock may end the search here
                v = neg(D(24 - k, neg(l) - int(l > e), m > q ? neg(m) : neg(q), neg(e) - v - i, // reply
                  J + Jd(0, x, y, H, u, t) | 0, Z + Jd(8, x, y, H, u, t) + G - S | 0, F, y, h));
                v -= int(v > e);                       // a gain later is worth a bit less
                if (z === 9) {                         // legality check of the typed move:
                  if (v !== -I && x === K && y === L) { // found, and the king survives
                    Q = neg(e) - i; O = ch(F); return l; // keep it played, report success
                  }
                  v = m;                               // (other moves don't count)
                }
                b[G] = k + 38; b[F] = b[y] = 0; b[x] = u; b[H] = t; // take the move back
                if (Y & 8) {                           // best move done: the C's 'goto A',
                  m = v; Y &= ~8;                      // the same ray again from its start,
                  y = x; F = G = S; t = 0; continue;   // now in order (t = 0: test goes round)
                }
                if (v > m) { m = v; X = x; Y = ch(y | S & G); } // new best (+128: no castle)
              }
              t += int(p < 5);                         // leapers stop after one step
              if (p < 3 && 6 * k + (y & V) === S       // pawn on 3rd rank: may go on, e.p.
                || (u & ~24) === 36 && j === 7 &&      // unmoved king sideways, and
                G & M && b[G = (x | 7) - (r >> 1 & 7)] & 32 && // unmoved rook in corner,
                !(b[G ^ 1] | b[G ^ 2])                 // empty squares beside it
              ) { F = y; t--; }                        // go one more step; F: passed square
            } while (!t);                              // sliders go on until they hit
          }
        }
      } while ((x = x + 9 & ~M) !== B);                  // next square, wrapping round
    }
    if (m > I / 4 || m < -I / 4) d = 99;               // mate scores need no more depth
    m = m + I ? m : quot(neg(D(24 - k, -I, I, 0, J, K, S, z, 1)), 2); // no move: mate or stalemate?
    if (!A.K[a] || (A.X[a] & M) !== M || A.D[a] <= d) { // store if new, or better
      A.K[a] = Z; A.V[a] = m; A.D[a] = d; A.K[0] = 0;  // (the dummy stays empty)
      A.X[a] = X | 8 * int(m > q) | S * int(m < l); A.Y[a] = Y; // bits: lower/upper bound
    }
    if (z === 8) report(d - 1, N, m, X, Y & 0x77);     // the C's commented-out printf
  }
  if (z & 8) { K = X; L = ch(Y & ~M); }                // root: report the best move
  return m;
}

// ---- Part 2: the shell ----------------------------------------------------
// The C's main(), plus what C's stdio did: buffered output, a byte stream in.

function init(): void {                                // the C's set-up, before the loop
  for (i = 0; i < 8; i++) {
    board[i] = (board[i + V] = steps[i + 24] + 40) + 8; // pieces, white and black
    board[i + 16] = 18; board[i + 96] = 9;             // pawns
    for (let j = 0; j < 8; j++) board[16 * j + i + 8] = (i - 4) * (i - 4) + (j - 3.5) * (j - 3.5);
  }                                                    // centre points in the unused half
  for (i = M; i < 1035; i++) T[i] = random() >> 9;     // key bytes, as signed chars
}

const opt = {                                          // the command line
  trace: false,                                        // --trace: print the C's hidden line
  play: 0,                                             // --play: the player's side (8 or 16)
  pretty: false,                                       // --pretty, and stdout is a terminal
  time: 0,                                             // --time, in ms
  gui: '' as '' | 'uci' | 'xboard',                    // --uci, --xboard: the protocol spoken
};
function report(d: number, N: number, m: number, X: number, Y: number): void { // each root pass
  if (opt.trace) print(printf(d, N, m, X, Y));
  passed({ d, N, m, x: X, y: Y, ms: now() - clock.start }); // the clock's view of it
}
function printf(d: number, N: number, m: number, X: number, Y: number): string { // its format
  const f = (v: number, w: number, hex = false): string => // "%<w>d" or "%<w>x" of a C int
    (hex ? (v >>> 0).toString(16) : String(v)).padStart(w);
  return `${f(d, 2)} ply, ${f(N, 9)} searched, ${f(m, 6)} by (${f(X, 2, true)},${f(Y, 2, true)})\n`;
}
function allocate<Table>(make: () => Table): Table {    // the hash table, or a clear exit
  try { return make(); } catch (err) {
    process.stderr.write(`micromax: cannot allocate the hash table (${(err as Error).message})\n`);
    process.exit(1);
  }
}

const io = {                                           // stdio, buffered as C's is
  out: '',                                             // stdout not yet written
  in: Buffer.alloc(65536), len: 0, pos: 0,             // stdin read ahead, as getchar() does
  end: false, lineStart: true,                         // input ended; the next byte starts a line
};
function print(s: string): void { io.out += s; if (io.out.length > 65536) flush(); }
function flush(): void { const s = io.out; io.out = ''; writeAll(1, s); }
function writeAll(fd: number, s: string): void {       // write it all, whatever the pipe does
  let buf = Buffer.from(s, 'latin1');
  while (buf.length) {
    try { buf = buf.subarray(fs.writeSync(fd, buf)); } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') pause(); else if (code === 'EPIPE') process.exit(0); else throw err;
    }
  }
}
const nap = new Int32Array(new SharedArrayBuffer(4));   // pause(): 5 ms asleep, no spinning
function pause(): void { Atomics.wait(nap, 0, 0, 5); }
function quit(code: number): never { flush(); process.exit(code); }

function fill(): boolean {                             // more bytes, or false at end of input
  if (io.end) return false;
  flush();                                             // let the reader see the board first
  io.pos = 0; io.len = 0;
  if (process.stdin.isTTY) readTerminal(); else {
    for (;;) {
      try { io.len = fs.readSync(0, io.in, 0, io.in.length, null); break; } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') pause(); else if (code === 'EOF') break; else throw err;
      }
    }
    io.end = io.len === 0;
  }
  return io.len > 0;
}
function readTerminal(): void {                        // a line typed at the terminal
  say(tty.prompt);
  const line = readlineSync.question('', { keepWhitespace: true, encoding: 'binary' });
  const ended = readlineSync.getRawInput().endsWith('\0'); // Ctrl-D
  io.in = Buffer.from(ended ? line : line + '\n', 'latin1'); // the whole line, however long
  io.len = io.in.length;
  io.end = ended;
  if (ended) say('\n');                                // the shell's prompt on a line of its own
}
function getchar(): number {                           // next byte, -1 at the end
  if (tty.feed) { tty.feed = false; flush(); io.lineStart = true; return 10; } // --play: an empty line
  const c = io.pos < io.len || fill() ? io.in[io.pos++] : -1;
  if (c < 0 && io.lineStart) quit(0);                  // end of input between lines: stop
  io.lineStart = c <= 10;
  return c;
}

// A search on a clock: --time here, and every search in a GUI (part 3). After each pass from
// depth 1 on, passed() may end the deepening the C's own way, by lowering nodeLimit to N, so
// that --nodes N replays it. Every 4096 nodes D() calls poll(), which cuts the search short
// past its hard deadline, or when clock.stop holds its id (written by a GUI's thread): an
// exception unwinds D(), the board is put back, and the move is the last finished pass's.
interface Limits { id: number; start: number; soft: number; hard: number; depth: number; nodes: number; aim: number }
interface Pass { d: number; N: number; m: number; x: number; y: number; ms: number } // a root pass
const TIME = {                                         // time management
  GROW: [2, 6, 10],                                    // next pass = this one × the last two's ratio,
                                                       //   kept within 2..10 (6 when unknown)
  MOVES: 30,                                           // moves to go when the clock does not say
  INC: 0.75,                                           // share of the increment spent on this move
  SOFT: 1.5,                                           // a pass starts if it should end by 1.5 × the aim;
  HARD: 5,                                             // cut at 5 × the aim,
  SHARE: 0.4, LAST: 0.8,                               // and at 40 % of the clock (80 % if 1 move to go)
};
const now = (): number => performance.timeOrigin + performance.now(); // ms, alike in every thread
const CUT = new Error('search cut');                   // what poll() throws
const clock = {                                        // the search under way in this thread
  start: 0, lim: undefined as Limits | undefined,      // when it began; its limits (none: the C's)
  last: undefined as Pass | undefined, step: 0,        // its last pass, and that pass's length
  stop: new Int32Array(1) as Int32Array,               // a search's id here cuts it (shared in a GUI)
  tell: (p: Pass): void => {},                         // each pass from depth 1, to be shown
};
function passed(p: Pass): void {                       // after a root pass: deepen again?
  const c = clock, lim = c.lim, step = p.ms - (c.last?.ms ?? 0), [least, first, most] = TIME.GROW;
  const grow = c.step > 0 ? Math.min(Math.max(step / c.step, least), most) : first;
  c.last = p; c.step = step;
  if (p.d < 1) return;                                 // (pass 0 has no move)
  c.tell(p);
  if (lim && (p.d >= lim.depth || p.N >= lim.nodes || p.ms >= lim.hard || p.ms + grow * step > lim.soft ||
    Atomics.load(c.stop, 0) === lim.id)) nodeLimit = p.N; // the last pass: the C's test ends it
}
function poll(): void {                                // D(), every 4096 nodes: cut the search now?
  const lim = clock.lim, d = clock.last?.d ?? 0;
  if (lim && d > 0 && (Atomics.load(clock.stop, 0) === lim.id || now() - lim.start >= lim.hard)) throw CUT;
}
interface Go { time?: number; inc?: number; mtg?: number; movetime?: number; depth?: number; nodes?: number }
function limits(go: Go, t: number, overhead = 0): Limits { // a move's limits, from its go
  const lim = { id: -1, start: t, soft: Infinity, hard: Infinity, depth: Math.max(1, go.depth ?? 99),
    nodes: Math.min(Math.max(1, go.nodes ?? 2147483647), 2147483647), aim: 0 };
  if (go.movetime !== undefined) {                     // to the deadline, then the last pass's move
    lim.hard = Math.max(go.movetime - overhead, 1); lim.aim = go.movetime;
  } else if (go.time !== undefined) {                  // a share of the clock
    const left = Math.max(go.time - overhead, 1), cap = left * (go.mtg === 1 ? TIME.LAST : TIME.SHARE);
    lim.aim = Math.min(left / (go.mtg || TIME.MOVES) + (go.inc ?? 0) * TIME.INC, cap / 2);
    lim.soft = TIME.SOFT * lim.aim; lim.hard = Math.min(TIME.HARD * lim.aim, cap);
  }
  return lim;
}
function search(k: number, e: number, lim?: Limits): boolean { // the C's think; with limits: was it cut?
  const saved = board.slice(), limit = nodeLimit;
  Object.assign(clock, { start: lim?.start ?? now(), lim, last: undefined, step: 0 });
  if (lim) nodeLimit = 2147483647;                     // (passed() lowers it)
  try { D(k, -I, I, e, 1, 1, O, 8, 0); return false; } catch (err) {
    if (err !== CUT) throw err;
    board.set(saved); K = clock.last!.x; L = clock.last!.y; // the last finished pass's move
    return true;
  } finally { nodeLimit = limit; clock.lim = undefined; }
}

// The terminal game. What it adds goes to stderr, and only when a person is at a terminal
// (stdin and stdout TTYs); the one exception, --pretty's board, replaces the board on stdout
// only when stdout is a terminal. So a pipe always sees the original's bytes.
const atTerminal = isatty(0) && isatty(1);
const live = atTerminal && isatty(2) && isMainThread;  // the progress line while it thinks
const tty = {                                          // the terminal game
  prompt: '',                                          // the prompt for the next line
  feed: false,                                         // --play: read an empty line next
  stuck: false,                                        // refused a typed move: Enter does nothing
  took: 0,                                             // the last think's time, in ms
};

function say(s: string): void { if (atTerminal) writeAll(2, s); }
const sq = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4)); // 0x88 square to e2
const side = (k: number): string => k === 8 ? 'white' : 'black';
const frozen = (Q: number): boolean => Q > I / 4 || Q < -I / 4; // the C's searches stop at once

function think(k: number): void {                      // the C's think (--time: on a clock)
  search(k, Q, opt.time ? limits({ movetime: opt.time, nodes: nodeLimit }, now()) : undefined);
  tty.took = now() - clock.start;
  if (live) writeAll(2, '\r\x1b[K');                   // the progress line, cleared
}
const secs = (ms: number): string => (ms / 1000).toFixed(1);
function progress(p: Pass): void {                     // the progress line, rewritten in place
  writeAll(2, '\r\x1b[K'); flush();                    // (--trace lines go above it)
  writeAll(2, `thinking: depth ${p.d}, ${p.N} nodes, best ${sq(p.x)}${sq(p.y)}, score ${p.m}, ${secs(p.ms)} s`);
}

function prettyBoard(): string {                       // --pretty: labels, Unicode if it shows
  const utf8 = /utf-?8/i.test(process.env.LC_ALL || process.env.LC_CTYPE || process.env.LANG || '');
  const glyphs = utf8 ? '·?♟♞♚♝♜♛?♙?♘♔♗♖♕' : n;
  let s = '';
  for (let r = 0; r < 8; r++) {
    s += ` ${8 - r}`;
    for (let f = 0; f < 8; f++) s += ' ' + glyphs[board[16 * r + f] & 15];
    s += '\n';
  }
  return Buffer.from(s + '   a b c d e f g h\n', 'utf8').toString('latin1'); // print() sends bytes
}

// Does side k have a legal move? Standard chess on copies of the board, castling left out
// (the king's step beside it is legal whenever the castling is); ep: the square a pawn skipped.
const STEPS = [[], [], [], [-33, -31, -18, -14, 14, 18, 31, 33], [-17, -16, -15, -1, 1, 15, 16, 17],
  [-17, -15, 15, 17], [-16, -1, 1, 16], [-17, -16, -15, -1, 1, 15, 16, 17]]; // by piece type
const kingOf = (bd: Int8Array, k: number): number =>
  bd.findIndex((u, s) => !(s & M) && (u & k) !== 0 && (u & 7) === 4);
function attacked(bd: Int8Array, s: number, by: number): boolean { // is s attacked by side by?
  for (let t = 3; t < 8; t++) for (const r of STEPS[t]) {  // look from s as each piece would
    let y = s + r;
    while (t > 4 && !(y & M) && !bd[y]) y += r;           // sliders look past empty squares
    if (!(y & M) && bd[y] & by && (bd[y] & 7) === t) return true;
  }
  const f = by === 8 ? 16 : -16;                          // pawns attack from their side
  return [f - 1, f + 1].some((r) => !(s + r & M) && (bd[s + r] & by) !== 0 && (bd[s + r] & 7) < 3);
}
function legalMoves(bd: Int8Array, k: number, ep: number): number[][] { // [from, to] pairs
  const moves: number[][] = [];
  for (let x = 0; x < 120; x++) {
    const u = bd[x], t = u & 7, ys: number[] = [];
    if (x & M || !(u & k)) continue;
    if (t < 3) {                                          // pawn: step, double step, captures
      const f = k === 8 ? -16 : 16;
      if (!bd[x + f]) ys.push(x + f);
      if (!bd[x + f] && !bd[x + 2 * f] && (x & V) === (k === 8 ? 0x60 : 0x10)) ys.push(x + 2 * f);
      for (const y of [x + f - 1, x + f + 1]) if (!(y & M) && (bd[y] & 24 - k || y === ep && !bd[y])) ys.push(y);
    } else for (const r of STEPS[t]) {                    // pieces: leap, or slide until blocked
      for (let y = x + r; !(y & M) && !(bd[y] & k); y += r) { ys.push(y); if (bd[y] || t < 5) break; }
    }
    for (const y of ys) {                                 // try it: is our king safe after?
      const after = bd.slice(); after[y] = u; after[x] = 0;
      if (t < 3 && y === ep && !bd[y]) after[y ^ 16] = 0;  // en passant takes the pawn beside
      const king = kingOf(after, k);
      if (king < 0 || !attacked(after, king, 24 - k)) moves.push([x, y]);
    }
  }
  return moves;
}
function ending(k: number, bd: Int8Array = board, ep = O): string { // '' while side k can move
  if (legalMoves(bd, k, ep).length) return '';
  return attacked(bd, kingOf(bd, k), 24 - k) ? `checkmate, ${side(24 - k)} wins` : 'stalemate, a draw';
}

// What a GUI sends, in micro-Max's terms: squares, promotions, FIDE's castling, and FEN set-ups.
interface Pos { b: Int8Array; Q: number; O: number; k: number } // what the C's loop keeps
const START: Pos = { b: new Int8Array(129), Q: 0, O: 0, k: 8 }; // after init() (O = 0: the C's globals)
const squareOf = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97; // e2 to 0x64
const pawnTo8 = (p: Pos, x: number, y: number): boolean => p.b[x] > 0 && (p.b[x] & 7) < 3 && (y < 8 || y > 111);
const named = (p: Pos, x: number, y: number): string => sq(x) + sq(y) + (pawnTo8(p, x, y) ? 'q' : '');
const shown = (s: string): string => s.replace(/[^ -~]/g, '?').slice(0, 60); // input, echoed safely
const legal = (p: Pos, x: number, y: number): boolean => legalMoves(p.b, p.k, p.O).some(([a, c]) => a === x && c === y);
function fide(p: Pos, x: number, y: number): boolean { // legal by FIDE's rules? (micro-Max castles more)
  if (!(p.b[x] & p.k)) return false;
  if ((p.b[x] & 7) !== 4 || Math.abs(x - y) !== 2) return legal(p, x, y);
  const G = y > x ? x | 7 : x & ~7, between = [...Array(Math.abs(G - x) - 1)].map((_, i) => Math.min(x, G) + 1 + i);
  return (p.b[x] & 32) > 0 && p.b[G] === p.k + 38 && between.every((s) => !p.b[s]) &&
    ![x, x + y >> 1, y].some((s) => attacked(p.b, s, 24 - p.k)); // the king crosses no attacked square
}
function setUp(b: Int8Array, k: number, O: number): Pos { // a board as the C's loop holds it: Q its material
  let Q = 0;
  for (let s = 0; s < 120; s++) if (!(s & M) && b[s]) Q += (b[s] & 8 ? 99 : -99) * values[b[s] & 7];
  return { b, Q: k === 8 ? Q : -Q, O, k };
}
function promote(p: Pos, x: number, y: number, to: string): Pos { // an under-promotion's result
  const b = p.b.slice();
  b[y] = p.k + 'pnkbrq'.indexOf(to) + 2; b[x] = 0;     // knight 3, bishop 5, rook 6
  return setUp(b, 24 - p.k, ch(S));                    // no e.p. square after it
}
const PIECES = 'PNBRQK pnbrqk and digits';
const kings = (b: Int8Array, c: number): number => b.filter((u, s) => !(s & M) && u === c + 4).length;
const pawn = (u: number): boolean => u !== 0 && (u & 7) < 3;
function fen(text: string): Pos | string {             // a FEN as the C's loop holds it, or what is wrong
  const [rows = '', turn = '', rights = '-', ep = '-'] = text.trim().split(/\s+/), ranks = rows.split('/');
  const b = START.b.slice(), k = turn === 'w' ? 8 : 16, up = k === 8 ? 16 : -16;
  if (rows === 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' && turn === 'w' && rights === 'KQkq' && ep === '-') {
    return START;
  }
  if (ranks.length !== 8) return `the board needs 8 ranks, not ${ranks.length}`;
  for (let s = 0; s < 120; s++) if (!(s & M)) b[s] = 0; // empty squares (the centre points stay)
  for (let r = 0; r < 8; r++) {
    let f = 0;
    for (const c of ranks[r]) {
      const t = 'pnkbrq'.indexOf(c.toLowerCase()) + 2, white = c < 'a';
      if (c > '0' && c < '9') f += +c;
      else if (t < 2 || f > 7) return `rank ${8 - r} ('${shown(ranks[r])}') is not 8 squares of ${PIECES}`;
      else b[16 * r + f++] = (white ? 8 : 16) + (t === 2 && white ? 1 : t);
    }
    if (f !== 8) return `rank ${8 - r} ('${shown(ranks[r])}') is not 8 squares`;
  }
  if (turn !== 'w' && turn !== 'b') return `the side to move is w or b, not '${shown(turn)}'`;
  for (const c of [8, 16]) if (kings(b, c) !== 1) return `${side(c)} needs one king`;
  for (let f = 0; f < 8; f++) if (pawn(b[f]) || pawn(b[f + V])) return 'a pawn on the first or last rank';
  if (!/^(-|K?Q?k?q?)$/.test(rights)) return `castling rights are KQkq or -, not '${shown(rights)}'`;
  for (const c of rights.replace('-', '')) {           // a right: king and rook unmoved (virgin bit)
    const x = c < 'a' ? 0x74 : 4, y = x + (c === 'K' || c === 'k' ? 3 : -4), u = c < 'a' ? 8 : 16;
    if ((b[x] & 31) !== u + 4 || b[y] !== u + 6) return `castling right ${c} needs the king and that rook at home`;
    b[x] |= 32; b[y] |= 32;
  }
  const e = /^[a-h][36]$/.test(ep) ? squareOf(ep) : -1; // the square a pawn skipped: the C's O
  const skipped = e >= 0 && (e >> 4) === (k === 8 ? 2 : 5) && !b[e] && !b[e - up] && b[e + up] === (k === 8 ? 18 : 9);
  if (ep !== '-' && !skipped) return `no pawn can have skipped '${shown(ep)}'`;
  if (attacked(b, kingOf(b, 24 - k), k)) return `${side(24 - k)} is in check but not to move`;
  return setUp(b, k, ep === '-' ? ch(S) : e);          // (no e.p.: what the C holds after most moves)
}

function main(): void {
  let k = 8, p = 0;                                    // k: side to move (8 white, 16 black)
  const c = new Int32Array(9);                         // the input line; kept between lines
  let answer = opt.play === 16;                        // --play black: micro-Max opens

  init();
  if (live) clock.tell = progress;
  for (;;) {                                           // play loop
    if (opt.pretty) print(prettyBoard()); else
      for (i = 0; i < 121; i++) print(' ' + ((i & 8) && (i += 7) ? '\n' : n[board[i] & 15])); // board
    const over = atTerminal || opt.play ? ending(k) : '';
    const who = k === opt.play ? `your move (${side(k)})` : `${side(k)} to move`;
    tty.prompt = over ? `${over} (Ctrl-D to quit) > ` : `${who}: ${HINT} > `;
    tty.feed = answer && !over;                        // --play: micro-Max answers by itself
    p = 0; while ((c[p < 8 ? p++ : 8] = getchar()) > 10); // read a line (bytes past 8 dropped)
    N = 0;
    const typed = c[0] !== 10;
    if (typed) { K = ch(c[0] - 16 * c[1] + C); L = ch(c[2] - 16 * c[3] + C); } else // a move,
      think(k);                                        // or an empty line: think of one
    A.K.fill(0);                                       // clear the hash table
    const ok = D(k, -I, I, Q, 1, 1, O, 9, 2) === I;    // legal: it is played; other side's turn
    if (ok) k ^= 24;
    tell(typed ? String.fromCharCode(...c.subarray(0, c[p - 1] > 10 ? p : p - 1)) : undefined, ok, over);
    answer = opt.play !== 0 && typed && ok && !io.end;
  }
}

const HINT = 'a move like e2e4, Enter = micro-Max moves, Ctrl-D = quit';
function tell(typed: string | undefined, ok: boolean, over: string): void { // what just happened
  const p = clock.last, nodes = p?.N ?? 0;
  if (!ok && frozen(Q)) say('micro-Max 3.2 neither moves nor accepts a move once one side is 2000 ' +
    'points ahead (its searches stop at once): the game cannot go on\n');
  else if (typed !== undefined && !ok) say(`illegal move: ${shown(typed)}\n`);
  else if (ok && typed === undefined) say(`micro-Max plays ${sq(K)}${sq(L)} (depth ${p?.d ?? 0}, ${nodes} nodes, ` +
    `score ${p?.m ?? 0}, ${secs(tty.took)} s${opt.time ? `; --nodes ${nodes} replays it` : ''})\n`);
  else if (!ok && !over) say(tty.stuck ? 'micro-Max will not move after an illegal move until a legal one ' +
    'is typed (so does the original)\n' : 'micro-Max found no move (try a larger --nodes)\n');
  if (typed !== undefined || ok) tty.stuck = !ok;
}

const USAGE = `usage: micromax.ts [--nodes N] [--time S] [--trace] [--play white|black] [--pretty]
       micromax.ts --uci | --xboard [--nodes N]        (for a chess GUI; see README)
  --nodes N       stop deepening after N nodes (default 10000000, the original's 1e7)
  --time S        think at most S seconds a move (the last finished iteration's move)
  --trace         after each root iteration print the line the original has commented out
  --play SIDE     you play SIDE (white or black): micro-Max answers each move you type
  --pretty        when stdout is a terminal: a board with rank and file labels (Unicode on UTF-8)
  --uci           speak UCI on stdin/stdout (Cute Chess, Arena, ...); --nodes: a bare 'go'
  --xboard        speak the xboard protocol (xboard, WinBoard); --nodes: no time control set
  --help          this text
  --version       the version
Type a move as e2e4; an empty line lets micro-Max move; end of input (Ctrl-D) quits.
`;
const VERSION = '1.0.0';                               // package.json's (a test keeps them equal)
function options(argv: string[]): void {               // one line on stderr and exit 2 if bad
  const fail = (msg: string): never => {
    process.stderr.write(`micromax: ${msg} (see --help)\n`);
    process.exit(2);
  };
  const quoted = (v?: string): string => v === undefined ? 'nothing' : `'${v}'`;
  const count = (v: string | undefined, what: string, max: number, whole: boolean): number => {
    const x = Number(v), want = whole ? 'a whole number from 1' : 'a number above 0';
    if (v === undefined || !/^\s*[0-9.e+]+\s*$/i.test(v) || !(x > 0 && x <= max) || whole && !Number.isInteger(x))
      fail(`${what} wants ${want} to ${max}, not ${quoted(v)}`);
    return x;
  };
  for (let a = 0; a < argv.length; a++) {
    if (argv[a] === '--trace') opt.trace = true;
    else if (argv[a] === '--pretty') opt.pretty = isatty(1); // only stdout at a terminal changes
    else if (argv[a] === '--help') { process.stdout.write(USAGE); process.exit(0); }
    else if (argv[a] === '--version') { process.stdout.write(`micromax-ts ${VERSION}\n`); process.exit(0); }
    else if (argv[a] === '--play') {
      const v = argv[++a];
      if (v !== 'white' && v !== 'black') fail(`--play needs white or black, not ${quoted(v)}`);
      opt.play = v === 'white' ? 8 : 16;
    } else if (argv[a] === '--nodes') nodeLimit = count(argv[++a], '--nodes', 2147483647, true);
    else if (argv[a] === '--time') opt.time = 1000 * count(argv[++a], '--time', 1e6, false);
    else if (argv[a] === '--uci' || argv[a] === '--xboard') opt.gui = argv[a] === '--uci' ? 'uci' : 'xboard';
    else fail(`unknown option '${argv[a]}'`);
  }
  const others = opt.trace || opt.play || opt.time || argv.includes('--pretty');
  if (opt.gui && others) fail(`--${opt.gui} takes no option but --nodes`);
}

// ---- Part 3: playing in a chess GUI ---------------------------------------
// --uci and --xboard. One engine thread, started once, runs the C's loop steps on its own
// board and hash table, one a message: set a position (the table cleared), check a typed move
// (clear the table, D(…, 9, 2), which plays it) or think (an empty line's D(…, 8, 0), on a
// clock). This thread reads the GUI's commands, one at a time, and keeps the GUI's game.
// Who owns what: the engine thread owns part 1's globals and `clock`. This thread owns `game`,
// `eng` (the engine thread, seen from here), `busy` (the search under way), `xb` (xboard's
// clock) and `gopt` (the options). They share one int, eng.stop, the engine's clock.stop:
// a search's id written there cuts that search at its next poll().

interface Job { set?: Pos; play?: number[]; think?: Limits; thaw?: boolean; noCastle?: boolean }
interface Found { x: number; y: number; d: number; N: number; m: number; cut: boolean }
interface Reply { ok?: boolean; pos?: Pos; found?: Found; pass?: Pass }

const thaw = (Q: number): number => Math.max(-500, Math.min(500, Q)); // the fallback's score instead
function serve(stop: Int32Array): void {               // the engine thread: a C loop step a message
  let k = 8;                                           // the side to move
  init(); A.K.fill(0);                                 // (port only: the locks' pages, touched now)
  search(8, 0, limits({ nodes: 2e4 }, now())); A.K.fill(0); // (a throwaway search: V8 compiles D() now)
  clock.stop = stop; clock.tell = (pass) => parentPort!.postMessage({ pass });
  parentPort!.on('message', (job: Job) => {
    const Q0 = Q, e = job.thaw ? thaw(Q) : Q;
    if (job.set) { board.set(job.set.b); ({ Q, O, k } = job.set); A.K.fill(0); }
    if (job.play) {                                    // a typed line: clear the table, check the move
      [K, L] = job.play; N = 0; A.K.fill(0);
      const ok = D(k, -I, I, e, 1, 1, O, 9, 2) === I;
      if (ok) { k ^= 24; Q += e - Q0; }                // (a thawed check counts from e, not Q)
      return parentPort!.postMessage({ ok, pos: { b: board.slice(), Q, O, k } });
    }
    if (!job.think) return parentPort!.postMessage({}); // set, or nothing: done
    const x = kingOf(board, k), u = board[x];          // an empty line: think
    if (job.noCastle) board[x] = u & ~32;              // (a fallback: no castling)
    N = 0;
    const cut = search(k, e, job.think), p = clock.last;
    board[x] = u;
    parentPort!.postMessage({ found: { x: K, y: L, d: p?.d ?? 0, N: p?.N ?? N, m: p?.m ?? 0, cut } });
  });
}

const gopt = { faithful: false, overhead: 50 };        // the options a GUI may set (overhead in ms)
const eng = {                                          // the engine thread, seen from here
  w: undefined as Worker | undefined,
  stop: new Int32Array(new SharedArrayBuffer(4)) as Int32Array, // its clock.stop
  replies: [] as ((r: Reply) => void)[],               // its answers come in the order asked
  at: -1,                                              // it holds game.pos[at] and the C's table (-1: no)
};
function engineThread(stop: Int32Array): Worker {      // a thread running this very file: serve()
  const url = import.meta.url;                         // (port only: Node 20 runs no tsx in workers)
  if (!url.endsWith('.ts')) return new Worker(new URL(url), { workerData: stop });
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api')), me = JSON.stringify(url);
  return new Worker(`import(${api}).then((t) => t.tsImport(${me}, ${me}))`, { eval: true, workerData: stop });
}
function start(): void {                               // the engine thread, for the life of the process
  const w = eng.w = engineThread(eng.stop);
  w.on('message', (r: Reply) => r.pass ? show(r.pass) : eng.replies.shift()?.(r));
  w.on('error', (err) => { note(`error: the engine thread failed: ${err.message}`); process.exit(1); });
  w.on('exit', () => { note('error: the engine thread ended'); process.exit(1); });
}
const ask = (job: Job): Promise<Reply> => new Promise((res) => { eng.replies.push(res); eng.w!.postMessage(job); });

const game = {                                         // the GUI's game
  key: 'startpos',                                     // its start: 'startpos', or 'fen' and a FEN
  moves: [] as string[],                               // the moves since, as the GUI sent them
  pos: [START],                                        // pos[i]: the position after i moves
  odd: [] as string[],                                 // odd[i]: why move i is not one the C takes, or ''
  none: '',                                            // why no position is held ('' when one is)
};
const UNDER = 'an under-promotion', THAWED = 'a move past the freeze';
async function hold(n: number): Promise<void> {        // the engine at game.pos[n], with the C's table
  if (eng.at === n) return;
  const made = n > 0 && game.odd[n - 1] !== UNDER, mv = game.moves[n - 1]; // made by a check: its table
  await ask({ set: game.pos[made ? n - 1 : n] });
  if (made) await ask({ play: [squareOf(mv), squareOf(mv.slice(2))], thaw: game.odd[n - 1] === THAWED });
  eng.at = n;
}
async function move(mv: string): Promise<string> {     // the GUI's next move: '' or why it cannot be made
  const n = game.moves.length, p = game.pos[n], m = /^([a-h][1-8])([a-h][1-8])([qrbnQRBN]?)$/.exec(mv);
  if (!m) return 'not a move like e2e4';
  const x = squareOf(m[1]), y = squareOf(m[2]), to = m[3].toLowerCase(), under = to !== '' && to !== 'q';
  if (to && !pawnTo8(p, x, y)) return 'not a promotion';
  if (frozen(p.Q) && gopt.faithful) return 'micro-Max 3.2 takes no move once one side is 2000 points ahead';
  if (under && gopt.faithful) return 'micro-Max 3.2 promotes only to a queen';
  if (under && !legal(p, x, y)) return 'illegal in this position';
  if (!under && eng.at !== n) await ask({ set: p });
  const r = under ? { ok: true, pos: promote(p, x, y, to) } // chess, not micro-Max's: set up as a FEN is
    : await ask({ play: [x, y], thaw: frozen(p.Q) });  // micro-Max's own check, which plays it
  if (!under) eng.at = r.ok ? n + 1 : -1;
  if (!r.ok) return 'illegal in this position';
  game.moves.push(mv); game.pos.push(r.pos!); game.odd.push(under ? UNDER : frozen(p.Q) ? THAWED : '');
  return '';
}
async function reach(key: string, start: Pos, moves: string[]): Promise<void> { // the GUI's position
  if (key !== game.key) Object.assign(game, { key, moves: [], pos: [start], odd: [] });
  let c = 0;                                           // the moves already played stay played
  while (c < moves.length && moves[c] === game.moves[c]) c++;
  game.moves.length = c; game.pos.length = c + 1; game.odd.length = c; game.none = '';
  if (eng.at > c) eng.at = -1;
  for (const mv of moves.slice(c)) {
    const why = await move(mv);
    if (why) return void (game.none = `${shown(mv)} (move ${game.moves.length + 1}): ${why}`);
  }
}

const busy = {                                         // the search under way
  run: undefined as Promise<void> | undefined, id: 0,  // until its move is sent; eng.stop = id cuts it
  endless: false, release: undefined as (() => void) | undefined, // go infinite: no bestmove before stop
  dropped: false,                                      // a command took it back: no move to send
  pongs: Promise.resolve(),                            // pings answered after the move
};
function cut(drop = false): void {                     // stop, ?, or a command that drops the search
  if (!busy.run) return;
  busy.dropped ||= drop; busy.endless = false; busy.release?.();
  Atomics.store(eng.stop, 0, busy.id);
}
async function idle(drop = false): Promise<void> { cut(drop); await busy.run; } // no search under way
function go(lim: Limits, endless = false): void {      // search while the commands go on
  lim.id = ++busy.id; busy.endless = endless; busy.dropped = false;
  busy.run = answer(lim).catch((err: Error) => note(`error: ${err.message}`)).finally(() => { busy.run = undefined; });
}
async function findMove(lim: Limits, thaw: boolean, noCastle = false): Promise<Found> {
  eng.at = -1;                                         // (a search writes the table)
  return (await ask({ think: lim, thaw, noCastle })).found!;
}
type Decision = { move: string; note: string } | { none: string };
async function decide(lim: Limits): Promise<Decision> { // the move to play, or why none
  if (game.none) return { none: `no position: ${game.none}` };
  const n = game.moves.length, p = game.pos[n], over = ending(p.k, p.b, p.O), ice = frozen(p.Q);
  if (over) return { none: over };
  if (ice && (gopt.faithful || opt.gui === 'xboard' && p.Q < 0)) {
    return { none: `frozen: micro-Max 3.2 moves no more once one side is 2000 points ahead (${p.Q} here)` };
  }
  await hold(n);
  let f = await findMove(lim, ice), why = ice ? `fallback: frozen at ${p.Q}, so searched as if ${thaw(p.Q)}`
    : game.odd.some(Boolean) ? `not replayable: ${game.odd.find(Boolean)} earlier in this game`
    : game.key === 'startpos' ? `the C plays it with --nodes ${f.N} after this game's ${n} moves`
    : `replay: this position, go nodes ${f.N}`;
  if (!fide(p, f.x, f.y)) {                            // a move the GUI would refuse
    why = `fallback: micro-Max 3.2's choice ${named(p, f.x, f.y)} is not legal here`;
    await ask({ set: p });                             // again from an empty table, castling left out
    f = await findMove(lim, ice, true);
    if (!fide(p, f.x, f.y)) [f.x, f.y] = legalMoves(p.b, p.k, p.O)[0];
  }
  const note = `depth ${f.d}, ${f.N} nodes, score ${f.m}${f.cut ? ', cut off' : ''}; ${why}`;
  return { move: named(p, f.x, f.y), note };
}
async function answer(lim: Limits): Promise<void> {    // think, then move the protocol's way
  const d = await decide(lim);
  if (busy.endless) await new Promise<void>((r) => { busy.release = r; }); // go infinite: not before stop
  if (busy.dropped) return;
  const used = `${Math.round(now() - lim.start)} ms used${lim.aim ? ` of ${Math.round(lim.aim)}` : ''}`;
  if ('none' in d) { note(`${d.none}; ${used}`); return send(opt.gui === 'uci' ? 'bestmove 0000' : result(d.none)); }
  note(`${d.note}; ${used}`);
  send(opt.gui === 'uci' ? `bestmove ${d.move}` : `move ${d.move}`);
  const why = await move(d.move), p = game.pos[game.moves.length], over = ending(p.k, p.b, p.O);
  if (why) note(`error: ${game.none = `micro-Max's own move ${d.move} was refused: ${why}`}`);
  else if (opt.gui === 'xboard' && over) send(result(over));
}
const result = (why: string): string => why.startsWith('checkmate') ? why.includes('white') ? '1-0 {White mates}'
  : '0-1 {Black mates}' : why.startsWith('stalemate') ? '1/2-1/2 {Stalemate}' : why.startsWith('frozen') ? 'resign'
  : `Error (${why}): go`;

// The protocols' words.
const send = (...lines: string[]): void => writeAll(1, lines.map((l) => l + '\n').join(''));
const note = (s: string): void => send(opt.gui === 'uci' ? `info string ${s}` : `# ${s}`);
function show(p: Pass): void {                         // a pass, the GUI's way
  if (busy.dropped) return;
  const mv = named(game.pos[game.moves.length], p.x, p.y), mate = p.m > 3000 || p.m < -3000;
  const moves = p.m > 0 ? 4000 - p.m : -4000 - p.m;    // mate in n: 4000 - n (the C: mated is -I/2)
  const nps = p.ms > 0 ? Math.round(p.N * 1000 / p.ms) : 0, score = mate ? `mate ${moves}` : `cp ${p.m}`;
  const points = mate ? Math.sign(p.m) * 100000 + moves : p.m; // xboard's mate score
  const uci = `info depth ${p.d} score ${score} nodes ${p.N} nps ${nps} time ${Math.round(p.ms)} pv ${mv}`;
  if (opt.gui === 'uci') send(uci);
  else if (xb.post) send(`${p.d} ${points} ${Math.round(p.ms / 10)} ${p.N} ${mv}`);
}
function option(name = '', v = ''): void {            // setoption (UCI), option (xboard)
  const o = name.trim().toLowerCase(), value = v.trim();
  if (o === 'faithful' && /^(true|false|1|0)$/.test(value)) gopt.faithful = /^(true|1)$/.test(value);
  else if (o === 'move overhead' && /^\d{1,4}$/.test(value)) gopt.overhead = +value;
  else if (o === 'hash') note('the hash table has a fixed size (2^24 + 8 entries, 176 MiB): Hash is ignored');
  else note(`error: no option '${shown(name)}' with value '${shown(v)}'`);
}
async function pong(arg = ''): Promise<void> {         // ping: after the move when thinking (as xboard asks)
  const answer = (): void => send(`pong ${shown(arg)}`), run = busy.run;
  if (run) busy.pongs = Promise.all([busy.pongs, run]).then(answer); else { await ask({}); answer(); }
}
async function leave(drop: boolean): Promise<never> { // quit drops the search; end of input lets it move
  if (drop || busy.endless) cut(drop);
  await busy.run; await busy.pongs; process.exit(0);
}

// UCI's go, and xboard's level, st, sd and time, as a Go for limits().
function uciGo(w: string[], endless: boolean): Go {    // go's words (a negative number is 0)
  const num = (key: string): number | undefined => {
    const i = w.indexOf(key);
    return i > 0 && /^-?\d+$/.test(w[i + 1] ?? '') ? Math.max(0, +w[i + 1]) : undefined;
  };
  const c = game.pos[game.moves.length].k === 8 ? 'w' : 'b';
  const g: Go = { time: endless ? undefined : num(`${c}time`), inc: num(`${c}inc`), mtg: num('movestogo'),
    movetime: num('movetime'), depth: num('depth'), nodes: num('nodes') };
  if (!endless && [g.time, g.movetime, g.depth, g.nodes].every((x) => x === undefined)) g.nodes = nodeLimit; // bare
  return g;
}
function xbGo(): Go {                                  // xboard's clock (none: the C's limit)
  const n = game.moves.length - xb.since, mtg = xb.mps ? xb.mps - Math.floor(n / 2) % xb.mps : 0;
  if (xb.st) return { movetime: xb.st, depth: xb.sd };
  if (xb.base || xb.inc || xb.left !== undefined) return { time: xb.left ?? xb.base, inc: xb.inc, mtg, depth: xb.sd };
  return { depth: xb.sd, nodes: nodeLimit };
}

type Handler = (w: string[], line: string, t: number) => unknown;
const UCI: Record<string, Handler> = {                 // UCI's commands
  uci: async () => {                                   // (uciok once the engine thread is ready)
    send(`id name micro-Max 3.2 ts ${VERSION}`, 'id author H.G. Muller (port: micromax-ts)',
      'option name Faithful type check default false', 'option name Move Overhead type spin default 50 min 0 max 9999');
    await ask({}); send('uciok');
  },
  isready: async () => { if (!busy.run) await ask({}); send('readyok'); }, // after the engine's work so far
  debug: () => {}, register: () => {},
  setoption: (w, line) => {
    const m = /^\s*setoption\s+name\s+(.*?)(?:\s+value\s+(.*))?$/i.exec(line);
    option(m?.[1], m?.[2]);
  },
  stop: () => cut(), ponderhit: () => cut(),
  quit: () => leave(true),
  ucinewgame: async () => { await idle(); await reach('startpos', START, []); },
  position: async (w) => {
    await idle();                                      // (the GUI should have said stop)
    const i = w.indexOf('moves'), head = w.slice(1, i < 0 ? undefined : i);
    const p = head[0] === 'startpos' && head.length === 1 ? START : head[0] === 'fen' ? fen(head.slice(1).join(' '))
      : 'position wants startpos or fen <FEN>, then moves';
    if (typeof p === 'string') game.none = p;
    else await reach(p === START ? 'startpos' : head.join(' '), p, i < 0 ? [] : w.slice(i + 1));
    if (game.none) note(`error: no position: ${game.none}`);
  },
  go: async (w, line, t) => {
    await idle();
    if (w.includes('searchmoves') || w.includes('mate')) note('searchmoves and mate are not supported: ignored');
    const endless = w.includes('infinite') || w.includes('ponder');
    go(limits(uciGo(w, endless), t, gopt.overhead), endless);
  },
};

const xb = {                                           // xboard's game state and clock
  force: false, mine: 16, post: false,                 // force mode; the side it plays; post: show passes
  mps: 0, base: 0, inc: 0, st: 0, sd: 99,              // level (moves, base, increment in ms), st (ms), sd
  left: undefined as number | undefined,               // time: its clock in ms, when told
  since: 0,                                            // the ply at which level came
};
function xbThink(t: number): void {                    // its turn, not in force mode: think
  if (!xb.force && game.pos[game.moves.length].k === xb.mine) go(limits(xbGo(), t, gopt.overhead));
}
const number = (w: string[], line: string, set: (x: number) => void): void => { // time, st, sd: a number
  const x = Number(w[1]);
  if (w[1] === undefined || !Number.isFinite(x)) send(`Error (wants a number): ${shown(line)}`); else set(x);
};
async function forceMode(): Promise<void> { await idle(true); xb.force = true; } // force, result
async function takeBack(n: number, line: string): Promise<void> { // undo, remove
  await idle(true);
  if (game.none) send(`Error (no position: ${game.none}): ${shown(line)}`);
  else if (game.moves.length < n) send(`Error (no move to take back): ${shown(line)}`);
  else await reach(game.key, game.pos[0], game.moves.slice(0, -n));
}
const XB: Record<string, Handler> = {                  // xboard's commands
  protover: async () => {                              // (done=1 once the engine thread is ready)
    send('feature done=0', `feature myname="micro-Max 3.2 ts ${VERSION}" setboard=1 ping=1 usermove=1 playother=0 ` +
      'san=0 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 nps=0 debug=1 variants="normal" ' +
      'option="Faithful -check 0" option="Move Overhead -spin 50 0 9999"');
    await ask({}); send('feature done=1');
  },
  quit: () => leave(true),
  '?': () => cut(),
  ping: (w) => pong(w[1]),
  post: () => { xb.post = true; }, nopost: () => { xb.post = false; },
  option: (w, line) => { const m = /^\s*option\s+([^=]*)(?:=(.*))?$/.exec(line); option(m?.[1], m?.[2]); },
  time: (w, line) => number(w, line, (x) => { xb.left = 10 * Math.max(0, x); }), // centiseconds; negative: 0
  st: (w, line) => number(w, line, (x) => { xb.st = 1000 * Math.max(0, x); }),
  sd: (w, line) => number(w, line, (x) => { xb.sd = Math.max(1, x); }),
  level: (w, line) => {
    const [m, b, i] = [Number(w[1]), (w[2] ?? '').split(':').map(Number), Number(w[3])];
    if (w.length !== 4 || !(m >= 0 && i >= 0) || b.some((x) => !(x >= 0))) {
      return send(`Error (bad level): ${shown(line)}`);
    }
    const base = 1000 * (60 * b[0] + (b[1] ?? 0));
    Object.assign(xb, { mps: m, base, inc: 1000 * i, st: 0, since: game.moves.length });
  },
  new: async () => {
    await idle(true);
    Object.assign(xb, { force: false, mine: 16, sd: 99, left: undefined, since: 0 });
    await reach('startpos', START, []);
  },
  force: () => forceMode(), result: () => forceMode(),
  go: async (w, line, t) => {
    await idle(true);
    xb.force = false; xb.mine = game.pos[game.moves.length].k; xbThink(t);
  },
  variant: (w, line) => w[1] === 'normal' || send(`Error (only normal chess): ${shown(line)}`),
  setboard: async (w, line) => {
    await idle(true);
    const text = line.trim().slice(8).trim(), p = fen(text);
    if (typeof p === 'string') send(`tellusererror Illegal position: ${game.none = p}`);
    else await reach(`fen ${text}`, p, []);
  },
  undo: (w, line) => takeBack(1, line), remove: (w, line) => takeBack(2, line),
  usermove: async (w, line, t) => {
    await idle(true);
    const mv = w[0] === 'usermove' ? w[1] ?? '' : w[0], why = game.none ? `no position: ${game.none}` : await move(mv);
    if (!why) return xbThink(t);
    game.none ||= `${shown(mv)}: ${why}`;
    send(`Illegal move (${why}): ${shown(mv)}`);
  },
};
for (const c of 'xboard accepted rejected random computer name hard easy otim draw hint'.split(' ')) XB[c] = () => {};

// Reading commands: a line at a time, each handled when the one before is done.
const LONG = 16384;                                    // bytes: a longer line is dropped
function command(line: string, t: number): unknown {   // one line, to its handler
  const w = line.trim().split(/\s+/), table = opt.gui === 'uci' ? UCI : XB;
  const mv = opt.gui === 'xboard' && /^[a-h][1-8][a-h][1-8]/.test(w[0]);
  if (line.length > LONG) {                            // dropped: if it set the position, none is held
    const sets = ['position', 'usermove', 'setboard'].includes(w[0]) || mv;
    if (sets) game.none = `a line of more than ${LONG} bytes was lost`;
    return note(`error: a line of more than ${LONG} bytes is ignored`);
  }
  if (Object.hasOwn(table, w[0]) || mv) return table[mv ? 'usermove' : w[0]](w, line, t);
  if (!w[0]) return;
  if (opt.gui === 'uci') return note(`error: unknown command '${shown(line)}'`);
  send(`Error (unknown command): ${shown(w[0])}`);
}
function begin(): void { init(); START.b.set(board); } // the C's set-up, as the GUI side's start
function protocol(): void {                            // --uci, --xboard
  begin(); start();
  let part = '', chain: Promise<unknown> = Promise.resolve();
  const queue = (line: string, t: number): void => {
    chain = chain.then(() => command(line, t)).catch((err: Error) => note(`error: ${err.message}`));
  };
  process.stdin.on('data', (chunk: Buffer) => {
    const t = now(), lines = (part + chunk.toString('latin1')).split('\n');
    part = lines.pop()!.slice(0, LONG + 1);            // a line too long is kept only that far
    for (const l of lines) queue(l.replace(/\r$/, ''), t);
  });
  process.stdin.on('end', () => {                      // the GUI is gone: its move, its pongs, then exit
    queue(part, now());
    void chain.then(() => leave(false));
  });
}

if (isMainThread && process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  options(process.argv.slice(2));
  if (opt.gui) protocol(); else main();
} else if (!isMainThread && workerData instanceof Int32Array) serve(workerData); // the engine thread

// For the tests. The engine goes out as one object: a binding exported by name is read through
// a module cell, and D() reading b, A and itself that way ran 15 % more instructions.
export const engine = { D, board, T, A, ch, int, quot };
export { init, random, srandom, legalMoves, attacked, begin, fen, engineThread, type Pos };
