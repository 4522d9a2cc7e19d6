#!/usr/bin/env node
// micromax-ts: H.G. Muller's micro-Max 3.2 chess program, ported line for line
// from its C original. Read it beside annotated/ for the why of every line.
// Part 1 is the engine (same names, same order as the C); part 2 is the shell;
// part 3 plays in a chess GUI (UCI, xboard) through the shell's own steps.

import * as fs from 'node:fs';
import { isatty } from 'node:tty';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import * as v8 from 'node:v8';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';

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
const A = allocate(U, (n) => ({                        // the hash table, one array a field,
  K: new Int32Array(n),                                //   n = U entries: lock, the Z key
  V: new Int32Array(n),                                //   score
  X: new Int8Array(n),                                 //   best from-square + bound bits
  Y: new Int8Array(n),                                 //   best to-square (+128: no castle)
  D: new Int8Array(n),                                 //   depth the score is good for
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
// The C's main(), plus what C's stdio did: buffered output, a byte stream in; and the port's
// additions: the terminal game, the clock, the command line. None of it changes stdout in a pipe.

// ### Set-up
// The C's set-up, before the loop: the back ranks from `steps[24…31]` (+40 for white, +48 for
// black: type, colour and the unmoved bit 32), pawns 18 and 9, the centre points in the board's
// unused right half (cut to whole numbers by the Int8Array), and `T[136…1034]`, 899 outputs of
// `random()` shifted right by 9, as signed chars.
function init(): void {
  for (i = 0; i < 8; i++) {
    board[i] = (board[i + V] = steps[i + 24] + 40) + 8;
    board[i + 16] = 18;
    board[i + 96] = 9;
    for (let j = 0; j < 8; j++) board[16 * j + i + 8] = (i - 4) * (i - 4) + (j - 3.5) * (j - 3.5);
  }
  for (i = M; i < 1035; i++) T[i] = random() >> 9;
}

// ### Options, the trace line, the end
// The command line, as readCommandLine() reads it. player: --play's side (8 white, 16 black, 0 none);
// time: --time in ms; pretty: --pretty and stdout a terminal; gui: the protocol, '' for none;
// bench: micromax bench (part 3).
const opt = {
  trace: false,
  player: 0,
  pretty: false,
  time: 0,
  gui: '' as '' | 'uci' | 'xboard',
  bench: false,
};

// The C's commented-out printf, which D() calls after each root pass: with --trace its line,
// and the pass, to the clock. The C marks a mate by jumping to depth 99 (98 in the line); the
// clock is told the pass's real depth, one more than the pass before.
function report(d: number, N: number, m: number, X: number, Y: number): void {
  if (opt.trace) print(printf(d, N, m, X, Y));
  const depth = d === 98 ? (clock.last?.d ?? -1) + 1 : d;
  passed({ d: depth, N, m, x: X, y: Y, ms: now() - clock.start });
}
// The C's format: `"%<w>d"`, or `"%<w>x"`, which prints an int's bits unsigned.
function printf(d: number, N: number, m: number, X: number, Y: number): string {
  const f = (v: number, w: number, hex = false): string => (hex ? (v >>> 0).toString(16) : String(v)).padStart(w);
  return `${f(d, 2)} ply, ${f(N, 9)} searched, ${f(m, 6)} by (${f(X, 2, true)},${f(Y, 2, true)})\n`;
}
// The hash table is allocated at load: if it cannot be, one line says why, the exit code is
// 1, and the program starts nothing (an empty table says so).
function allocate<Table>(entries: number, make: (n: number) => Table): Table {
  try {
    return make(entries);
  } catch (err) {
    // (io is not set up yet: a line this short goes out in one write)
    fs.writeSync(2, `micromax: cannot allocate the hash table (${(err as Error).message})\n`);
    process.exitCode = 1;
    return make(0);
  }
}

// How the program ends: never by process.exit(). That call shuts down V8's helper threads
// while this thread's heap still lives, and a helper caught compiling waits forever for a
// garbage collection that never comes (nodejs/node#54918): on Node 24, under load, about one
// start in 25 with a bad option hung so. Node ends cleanly when nothing is left to do. So the
// C's loop and the command line throw an Ending, caught where the program starts (start()),
// and a GUI session closes its input and its engine thread (finish(), part 3).
class Ending {
  constructor(readonly code: number) {}
}
function end(code: number): never {
  throw new Ending(code);
}

// ### Output and input
// What C's stdio did, by hand. At a terminal a line is read whole; in a pipe, 64 KB at a time.
//
// stdio, buffered as C's is: stdout not yet written; stdin read ahead, as getchar() does; whether
// the input ended; whether the next byte starts a line; whether the reader of the output is gone.
const io = {
  out: '',
  in: Buffer.alloc(65536),
  len: 0,
  pos: 0,
  end: false,
  lineStart: true,
  gone: false,
};
function print(s: string): void {
  io.out += s;
  if (io.out.length > 65536) flush();
}
function flush(): void {
  const s = io.out;
  io.out = '';
  writeAll(1, s);
}
// All of it, whatever the pipe does: a full pipe is waited for, a closed one ends the program.
function writeAll(fd: number, s: string): void {
  if (io.gone) return;
  let buf = Buffer.from(s, 'latin1');
  while (buf.length) {
    try {
      buf = buf.subarray(fs.writeSync(fd, buf));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return outputGone();
      if (code !== 'EAGAIN') throw err;
      pause();
    }
  }
}
// 5 ms asleep, without spinning.
const nap = new Int32Array(new SharedArrayBuffer(4));
function pause(): void {
  Atomics.wait(nap, 0, 0, 5);
}
function quit(code: number): never {
  flush();
  end(code);
}
// The reader went away: nothing more is written, and the program ends (exit code 0).
function outputGone(): void {
  io.gone = true;
  if (opt.gui) void finish(0);
  else end(0);
}

// More bytes, or false at the end of the input. The board goes out first, for the reader.
function fill(): boolean {
  if (io.end) return false;
  flush();
  io.pos = 0;
  io.len = 0;
  if (process.stdin.isTTY) readTerminal();
  else readPipe();
  return io.len > 0;
}
function readPipe(): void {
  for (;;) {
    try {
      io.len = fs.readSync(0, io.in, 0, io.in.length, null);
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EOF') break;
      if (code !== 'EAGAIN') throw err;
      pause();
    }
  }
  io.end = io.len === 0;
}
// A line typed at the terminal, however long; Ctrl-D ends the input, and the shell's prompt
// then starts on a line of its own. readline-sync is loaded at the first one: a pipe, a GUI
// session and the engine thread never pay for it.
function readTerminal(): void {
  say(tty.prompt);
  const readlineSync: typeof import('readline-sync') = createRequire(import.meta.url)('readline-sync');
  const line = readlineSync.question('', { keepWhitespace: true, encoding: 'binary' });
  const ended = readlineSync.getRawInput().endsWith('\0');
  io.in = Buffer.from(ended ? line : line + '\n', 'latin1');
  io.len = io.in.length;
  io.end = ended;
  if (ended) say('\n');
}
// The next byte, -1 at the end. --play slips in an empty line when micro-Max is to answer. The
// end of the input between lines ends the program (the C would print boards forever).
function getchar(): number {
  if (tty.replyNext) return emptyLine();
  const c = io.pos < io.len || fill() ? io.in[io.pos++] : -1;
  if (c < 0 && io.lineStart) quit(0);
  io.lineStart = c <= 10;
  return c;
}
function emptyLine(): number {
  tty.replyNext = false;
  flush();
  io.lineStart = true;
  return 10;
}

// ### The clock
// A search on a clock is the C's think, steered from outside: --time here, and every search in
// a GUI (part 3). After each pass from depth 1 on, passed() may end the deepening the C's own
// way, by lowering nodeLimit to N, so that --nodes N replays it. Every 4096 nodes D() calls
// poll(), which cuts the search short past its hard deadline or node count, or when the shared
// stop cell holds its id (written by a GUI's thread): an exception unwinds D(), the board is put
// back, and the move is the last pass's. poll() also writes the node count where a GUI's thread
// can read it.
//
// Two node limits: nodeLimit, the C's, starts no pass past it (--nodes, a bare go); maxNodes
// cuts (UCI's go nodes). poll() (*port only*: [appendix](annotated/appendix.md#a-search-cut-short))
// costs a store, a few loads and compares, and a clock read once a pass has a move.
//
// A search's limits: its id (for the stop cell); when its clock started; the times (ms from then)
// after which no pass starts (soft) and at which it is cut (hard); the deepest pass; the C's
// node limit (no pass starts past it); the node count past which it is cut (UCI's go nodes);
// the time it aims to take (for the GUI's note); and its clock's rate: 0, the wall clock, or
// nodes a ms, a clock of nodes (see spent()).
interface Limits {
  id: number;
  start: number;
  soft: number;
  hard: number;
  depth: number;
  nodeLimit: number;
  maxNodes: number;
  aim: number;
  rate: number;
}
// A finished root pass: its real depth, the nodes so far, its score and move, the ms so far.
interface Pass { d: number, N: number, m: number, x: number, y: number, ms: number }
// Time management. The next pass should take this one's time times the growth of the last two
// (kept within 2..10, 6 when unknown); moves to go when the clock does not say; the share of
// the increment spent now; a pass starts if it should end by 1.5 × the aim; the cut comes at
// 2.5 × the aim, or at a tenth of the clock plus the increment, and never past half the clock
// (when the increment is most of it). So no move takes longer than the smaller of 2.5 × its aim
// and a tenth of the clock plus the increment: a player's rule of thumb. It holds on a loaded
// machine too: the cut, checked every 4096 nodes, comes at 85 % of the rule's limit less the
// GUI's overhead (never below half the limit), leaving time for the pipes and the scheduler
// between the search and the GUI (bench:gui saw 85 ms with two CPU hogs on two cores).
const TIME = {
  GROW: [2, 6, 10],
  MOVES: 30,
  INC: 0.75,
  SOFT: 1.5,
  HARD: 2.5,
  SHARE: 0.1,
  MOST: 0.5,
  SAFE: 0.85,
};
const INT_MAX = 2147483647;
// ms, alike in every thread
const now = (): number => performance.timeOrigin + performance.now();
// what poll() throws
const CUT = new Error('search cut');
// The search under way in this thread: when it began, its limits (none: the C's), its last
// pass, when that pass ended and how long it took (by the search's clock, see spent()); two ints
// (shared with a GUI's thread): the id of the search to cut (STOP), the nodes so far (NODES);
// onPass is told each pass from depth 1.
const clock = {
  start: 0,
  lim: undefined as Limits | undefined,
  last: undefined as Pass | undefined,
  lastAt: 0,
  lastLength: 0,
  shared: new Int32Array(2) as Int32Array,
  onPass: (p: Pass): void => {},
};
const STOP = 0;
const NODES = 1;
// How long a search has run by its own clock, in ms: at a node rate, its nodes over the rate (so
// it stops at the same node on any machine, at any load), else the wall clock's ms.
const spent = (lim: Limits, nodes: number, ms: number): number => lim.rate ? nodes / lim.rate : ms;
// After a root pass: was it the last? Pass 0 has no move.
function passed(p: Pass): void {
  const lim = clock.lim;
  const at = lim ? spent(lim, p.N, p.ms) : p.ms;
  const length = at - clock.lastAt;
  const [least, unknown, most] = TIME.GROW;
  const growth = clock.lastLength > 0 ? Math.min(Math.max(length / clock.lastLength, least), most) : unknown;
  clock.last = p;
  clock.lastAt = at;
  clock.lastLength = length;
  if (p.d < 1) return;
  clock.onPass(p);
  if (lim && isLastPass(p, at, lim, growth * length)) nodeLimit = p.N;
}
// The pass ended at `at` by the search's clock; the next should take `next`.
function isLastPass(p: Pass, at: number, lim: Limits, next: number): boolean {
  if (p.d >= lim.depth || p.N >= lim.nodeLimit || at >= lim.hard || at + next > lim.soft) return true;
  return Atomics.load(clock.shared, STOP) === lim.id;
}
// D(), every 4096 nodes: the node count, for a GUI's thread; cut the search now? Only once a
// pass from depth 1 has a move.
function poll(): void {
  const lim = clock.lim;
  Atomics.store(clock.shared, NODES, N);
  if (!lim || !clock.last || clock.last.d < 1) return;
  if (N > lim.maxNodes || Atomics.load(clock.shared, STOP) === lim.id || spent(lim, N, now() - lim.start) >= lim.hard) {
    throw CUT;
  }
}
// What a move's clock says: the time left, the increment, the moves to go (0: unknown), the
// time for this move, the deepest pass, the nodes (UCI's go nodes: a cut), and the C's node
// limit (the command line's --nodes: no pass starts past it).
interface TimeControl {
  time?: number;
  inc?: number;
  movesToGo?: number;
  movetime?: number;
  depth?: number;
  nodes?: number;
  nodeLimit?: number;
}
const clampNodes = (n: number | undefined): number => Math.min(Math.max(1, n ?? INT_MAX), INT_MAX);
// A move's limits, from its clock, at time start, keeping back the GUI's overhead. The aim
// stays within the rule's limit over 1.5, so a pass it starts should end before the cut. Pure:
// test/shell.test.ts checks it against figures worked out by hand.
function limits(tc: TimeControl, start: number, overhead = 0): Limits {
  const maxNodes = clampNodes(tc.nodes);
  const nodeLimit = Math.min(maxNodes, clampNodes(tc.nodeLimit));
  const depth = Math.max(1, tc.depth ?? 99);
  const lim = { id: -1, start, soft: Infinity, hard: Infinity, depth, nodeLimit, maxNodes, aim: 0, rate: 0 };
  if (tc.movetime !== undefined) {
    lim.hard = Math.max(tc.movetime - overhead, 1);
    lim.aim = tc.movetime;
  } else if (tc.time !== undefined) {
    const left = Math.max(tc.time - overhead, 1);
    const inc = tc.inc ?? 0;
    const cap = Math.min(left * TIME.SHARE + inc, left * TIME.MOST);
    lim.aim = Math.min(left / (tc.movesToGo || TIME.MOVES) + inc * TIME.INC, cap / TIME.SOFT);
    lim.soft = TIME.SOFT * lim.aim;
    const rule = Math.min(TIME.HARD * lim.aim, cap);
    lim.hard = Math.max(rule * TIME.SAFE - overhead, rule / 2);
  }
  return lim;
}
// The C's think; with limits, on a clock. Was it cut short? Then the moves on the way down
// were never taken back: the board is put back, and the move is the last finished pass's.
function search(k: number, e: number, lim?: Limits): boolean {
  const saved = board.slice();
  const limit = nodeLimit;
  Object.assign(clock, { start: lim?.start ?? now(), lim, last: undefined, lastAt: 0, lastLength: 0 });
  if (lim) nodeLimit = INT_MAX;
  try {
    D(k, -I, I, e, 1, 1, O, 8, 0);
    return false;
  } catch (err) {
    if (err !== CUT || !clock.last) throw err;
    board.set(saved);
    K = clock.last.x;
    L = clock.last.y;
    return true;
  } finally {
    nodeLimit = limit;
    clock.lim = undefined;
  }
}

// ### The terminal game
// What it adds goes to stderr, and only when a person is at a terminal (stdin and stdout TTYs);
// the one exception, --pretty's board, replaces the board on stdout only when stdout is a
// terminal. So a pipe always sees the original's bytes.
const atTerminal = isatty(0) && isatty(1);
// the progress line while it thinks
const live = atTerminal && isatty(2) && isMainThread;
// The terminal game: the prompt for the next line; --play: read an empty line next; a typed
// move was refused, so Enter does nothing; the last think's time (ms); when the progress line
// was last drawn.
const tty = {
  prompt: '',
  replyNext: false,
  stuck: false,
  took: 0,
  drawnAt: -Infinity,
};

function say(s: string): void {
  if (atTerminal) writeAll(2, s);
}
// a 0x88 square, as e2
const sq = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));
const side = (k: number): string => k === 8 ? 'white' : 'black';
// the C's freeze: with Q beyond ±2000 its searches stop at once
const frozen = (Q: number): boolean => Q > I / 4 || Q < -I / 4;

// The C's think, on --time's clock when set; then the progress line is cleared.
function think(k: number): void {
  const lim = opt.time ? limits({ movetime: opt.time, nodeLimit }, now()) : undefined;
  tty.drawnAt = -Infinity;
  search(k, Q, lim);
  tty.took = now() - clock.start;
  if (live) writeAll(2, '\r\x1b[K');
}
const secs = (ms: number): string => (ms / 1000).toFixed(1);
// The progress line after a pass at time `at`, if the last was drawn 100 ms before or more: the
// new text over the old, then the rest of the old erased, in one write (clearing first flickers).
function progressLine(p: Pass, at: number, drawnAt: number): string {
  if (at - drawnAt < 100) return '';
  return `\rthinking: depth ${p.d}, ${p.N} nodes, best ${sq(p.x)}${sq(p.y)}, score ${p.m}, ${secs(p.ms)} s\x1b[K`;
}
// --trace's lines go above it: the line is cleared, they are written, and it is drawn anew.
function drawProgress(p: Pass): void {
  if (io.out) {
    writeAll(2, '\r\x1b[K');
    flush();
    tty.drawnAt = -Infinity;
  }
  const at = now();
  const line = progressLine(p, at, tty.drawnAt);
  if (!line) return;
  writeAll(2, line);
  tty.drawnAt = at;
}

// --pretty: labels, and chess symbols when the locale is UTF-8.
function prettyBoard(): string {
  const utf8 = /utf-?8/i.test(process.env.LC_ALL || process.env.LC_CTYPE || process.env.LANG || '');
  const glyphs = utf8 ? '·?♟♞♚♝♜♛?♙?♘♔♗♖♕' : n;
  let s = '';
  for (let r = 0; r < 8; r++) {
    s += ` ${8 - r}`;
    for (let f = 0; f < 8; f++) s += ' ' + glyphs[board[16 * r + f] & 15];
    s += '\n';
  }
  // print() sends bytes
  return Buffer.from(s + '   a b c d e f g h\n', 'utf8').toString('latin1');
}

// ### A legal-move test without side effects
// To tell checkmate from stalemate, and to hold a move to FIDE's rules, the shell needs the legal
// moves; asking D() would change its hash table. So: standard chess on copies of the board,
// castling left out (the king's step beside it is legal whenever the castling is); ep: the
// square a pawn skipped.
const STEPS = [[], [], [], [-33, -31, -18, -14, 14, 18, 31, 33], [-17, -16, -15, -1, 1, 15, 16, 17],
  [-17, -15, 15, 17], [-16, -1, 1, 16], [-17, -16, -15, -1, 1, 15, 16, 17]];
const kingOf = (bd: Int8Array, k: number): number =>
  bd.findIndex((u, s) => !(s & M) && (u & k) !== 0 && (u & 7) === 4);
// Is square s attacked by side `by`? Look from s as each piece would: sliders look past empty
// squares. Pawns attack from their own side.
function attacked(bd: Int8Array, s: number, by: number): boolean {
  for (let t = 3; t < 8; t++) {
    for (const r of STEPS[t]) {
      let y = s + r;
      while (t > 4 && !(y & M) && !bd[y]) y += r;
      if (!(y & M) && bd[y] & by && (bd[y] & 7) === t) return true;
    }
  }
  const f = by === 8 ? 16 : -16;
  return [f - 1, f + 1].some((r) => !(s + r & M) && (bd[s + r] & by) !== 0 && (bd[s + r] & 7) < 3);
}
// Side k's legal moves, as [from, to] pairs: each piece's targets, kept if our king is then safe.
function legalMoves(bd: Int8Array, k: number, ep: number): number[][] {
  const moves: number[][] = [];
  for (let x = 0; x < 120; x++) {
    if (x & M || !(bd[x] & k)) continue;
    for (const y of targets(bd, x, k, ep)) {
      const after = bd.slice();
      after[y] = bd[x];
      after[x] = 0;
      // en passant takes the pawn beside
      if ((bd[x] & 7) < 3 && y === ep && !bd[y]) after[y ^ 16] = 0;
      const king = kingOf(after, k);
      if (king < 0 || !attacked(after, king, 24 - k)) moves.push([x, y]);
    }
  }
  return moves;
}
// Where the piece on x may go, its king's safety aside: a pawn steps, double-steps from its
// start, captures (en passant too); a piece leaps, or slides until blocked.
function targets(bd: Int8Array, x: number, k: number, ep: number): number[] {
  const t = bd[x] & 7;
  const ys: number[] = [];
  if (t < 3) {
    const f = k === 8 ? -16 : 16;
    if (!bd[x + f]) ys.push(x + f);
    if (!bd[x + f] && !bd[x + 2 * f] && (x & V) === (k === 8 ? 0x60 : 0x10)) ys.push(x + 2 * f);
    for (const y of [x + f - 1, x + f + 1]) if (!(y & M) && (bd[y] & 24 - k || y === ep && !bd[y])) ys.push(y);
    return ys;
  }
  for (const r of STEPS[t]) {
    for (let y = x + r; !(y & M) && !(bd[y] & k); y += r) {
      ys.push(y);
      if (bd[y] || t < 5) break;
    }
  }
  return ys;
}
// '' while side k can move; else checkmate or stalemate, in words.
function ending(k: number, bd: Int8Array = board, ep = O): string {
  if (legalMoves(bd, k, ep).length) return '';
  return attacked(bd, kingOf(bd, k), 24 - k) ? `checkmate, ${side(24 - k)} wins` : 'stalemate, a draw';
}

// ### The main loop
// The C's main(): k the side to move (8 white, 16 black); c the input line, kept between lines
// as the C keeps it. With --play black, micro-Max opens. A typed line is a move:
// `c[0] - 16 × c[1] + 799` is the square ('8' is 56, 'a' 97, and `16 × 56 - 97` is 799), so "e2"
// gives 101 - 800 + 799 = 100, `0x64`. An empty line: think. Then the locks are cleared, and the
// move checked in mode 9, which plays it if it is legal.
function main(): void {
  let k = 8;
  let p = 0;
  const c = new Int32Array(9);
  let repliesNext = opt.player === 16;
  init();
  if (live) clock.onPass = drawProgress;
  for (;;) {
    printBoard();
    const over = atTerminal || opt.player ? ending(k) : '';
    tty.prompt = promptFor(k, over);
    tty.replyNext = repliesNext && !over;
    p = 0;
    // a line: bytes up to one of 10 or less, the first 8 kept where the C overflows
    while ((c[p < 8 ? p++ : 8] = getchar()) > 10);
    N = 0;
    const typed = c[0] !== 10;
    if (typed) {
      K = ch(c[0] - 16 * c[1] + C);
      L = ch(c[2] - 16 * c[3] + C);
    } else think(k);
    A.K.fill(0);
    const ok = D(k, -I, I, Q, 1, 1, O, 9, 2) === I;
    if (ok) k ^= 24;
    sayWhatHappened(typed ? String.fromCharCode(...c.subarray(0, c[p - 1] > 10 ? p : p - 1)) : undefined, ok, over);
    repliesNext = opt.player !== 0 && typed && ok && !io.end;
  }
}
// The C's board; at the first byte of each right half (i & 8) a newline, and i += 7 skips it.
function printBoard(): void {
  if (opt.pretty) print(prettyBoard());
  else for (i = 0; i < 121; i++) print(' ' + ((i & 8) && (i += 7) ? '\n' : n[board[i] & 15]));
}
const HINT = 'a move like e2e4, Enter = micro-Max moves, Ctrl-D = quit';
function promptFor(k: number, over: string): string {
  if (over) return `${over} (Ctrl-D to quit) > `;
  return `${k === opt.player ? `your move (${side(k)})` : `${side(k)} to move`}: ${HINT} > `;
}
// After each line, at a terminal: what happened, and why when nothing did.
function sayWhatHappened(typed: string | undefined, ok: boolean, over: string): void {
  const p = clock.last;
  const nodes = p?.N ?? 0;
  if (!ok && frozen(Q)) say('micro-Max 3.2 neither moves nor accepts a move once one side is 2000 ' +
    'points ahead (its searches stop at once): the game cannot go on\n');
  else if (typed !== undefined && !ok) say(`illegal move: ${printable(typed)}\n`);
  else if (ok && typed === undefined) say(`micro-Max plays ${sq(K)}${sq(L)} (depth ${p?.d ?? 0}, ${nodes} nodes, ` +
    `score ${p?.m ?? 0}, ${secs(tty.took)} s${opt.time ? `; --nodes ${nodes} replays it` : ''})\n`);
  else if (!ok && !over) say(tty.stuck ? 'micro-Max will not move after an illegal move until a legal one ' +
    'is typed (so does the original)\n' : 'micro-Max found no move (try a larger --nodes)\n');
  if (typed !== undefined || ok) tty.stuck = !ok;
}
// input, echoed safely
const printable = (s: string): string => s.replace(/[^ -~]/g, '?').slice(0, 60);

// ### The command line
// What --help prints. --uci and --xboard take only --nodes: stdout belongs to the protocol.
const USAGE = `usage: micromax [--nodes N] [--time S] [--trace] [--play white|black] [--pretty]
       micromax --uci | --xboard [--nodes N]           (for a chess GUI; see README)
       micromax-uci | micromax-xboard [--nodes N]      (the same, for a GUI that runs an engine bare)
       micromax bench                                  (the search's signature and this machine's speed)
  --nodes N       stop deepening after N nodes (default 10000000, the original's 1e7)
  --time S        think at most S seconds a move (the last finished iteration's move)
  --trace         after each root iteration print the line the original has commented out
  --play SIDE     you play SIDE (white or black): micro-Max answers each move you type
  --pretty        when stdout is a terminal: a board with rank and file labels (Unicode on UTF-8)
  --uci           speak UCI on stdin/stdout (Cute Chess, Arena, ...); --nodes: a bare 'go'
  --xboard        speak the xboard protocol (xboard, WinBoard); --nodes: no time control set
  --help          this text
  --version       the version
  bench           search a fixed set of positions; the last line: NODES nodes NPS nps
Type a move as e2e4; an empty line lets micro-Max move; end of input (Ctrl-D) quits.
`;
// package.json's (a test keeps them equal)
const VERSION = '1.0.0';
const FLAGS = {
  nodes: { type: 'string' },
  time: { type: 'string' },
  play: { type: 'string' },
  trace: { type: 'boolean' },
  pretty: { type: 'boolean' },
  uci: { type: 'boolean' },
  xboard: { type: 'boolean' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;
interface Args {
  nodes?: string, time?: string, play?: string, trace?: boolean, pretty?: boolean, uci?: boolean, xboard?: boolean,
  help?: boolean, version?: boolean, bench?: boolean,
}
// The command line, read by node:util's parseArgs; anything wrong: one line on stderr, exit 2.
// As micromax-uci or micromax-xboard (command: that protocol), it speaks it with no option.
function readCommandLine(args: string[], command?: 'uci' | 'xboard'): void {
  const v = readArgs(args);
  if (command && (v.uci || v.xboard) && !v[command]) fail(otherProtocol(command));
  if (command) v[command] = true;
  if (v.help) quitWith(USAGE);
  if (v.version) quitWith(`micromax-ts ${VERSION}\n`);
  if (v.bench && command) fail(`micromax-${command} has no bench: run micromax bench`);
  if (v.bench && args.length > 1) fail('bench takes no option: its positions and node limit are fixed');
  opt.bench = v.bench === true;
  opt.trace = v.trace === true;
  // only stdout at a terminal changes
  opt.pretty = v.pretty === true && isatty(1);
  if (v.play !== undefined) opt.player = player(v.play);
  if (v.nodes !== undefined) nodeLimit = optionNumber(v.nodes, '--nodes');
  if (v.time !== undefined) opt.time = 1000 * optionNumber(v.time, '--time');
  const usage = 'usage: micromax --uci | --xboard [--nodes N]';
  if (v.uci && v.xboard) fail(`--uci and --xboard are two modes, not one; ${usage}`);
  if (v.uci || v.xboard) opt.gui = v.uci ? 'uci' : 'xboard';
  const others = v.trace || v.pretty || v.play !== undefined || v.time !== undefined;
  if (opt.gui && others) fail(`--${opt.gui} takes no option but --nodes`);
}
function otherProtocol(command: 'uci' | 'xboard'): string {
  const other = command === 'uci' ? 'xboard' : 'uci';
  const speaks = (p: string): string => p === 'uci' ? 'UCI' : 'the xboard protocol';
  const instead = `micromax-${other} (or micromax --${other})`;
  return `micromax-${command} speaks ${speaks(command)} only: run ${instead} for ${speaks(other)}`;
}
// The options, and bench, the one word that is not an option.
function readArgs(args: string[]): Args {
  try {
    const { values, positionals } = parseArgs({ args, options: FLAGS, strict: true, allowPositionals: true });
    const other = positionals.find((p, k) => p !== 'bench' || k > 0);
    if (other !== undefined) fail(`unknown argument ${quoted(other)} (the one there is: bench)`);
    return { ...values, bench: positionals.length > 0 };
  } catch (err) {
    if (err instanceof Ending) throw err;
    return fail(argError(err as NodeJS.ErrnoException));
  }
}
// parseArgs's messages name its internals: our own words instead, the same as for a bad value.
function argError(err: NodeJS.ErrnoException): string {
  const name = /'(-[^' ]*)/.exec(err.message)?.[1] ?? /'([^']*)'/.exec(err.message)?.[1] ?? '';
  if (/does not take an argument/.test(err.message)) return `${name} takes no value`;
  if (err.code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `unknown option '${name}'`;
  return `${wants(name)}, not nothing`;
}
function wants(name: string): string {
  if (name === '--play') return '--play needs white or black';
  if (name === '--time') return '--time wants a number above 0 to 1000000';
  return `--nodes wants a whole number from 1 to ${INT_MAX}`;
}
function player(v: string): number {
  if (v !== 'white' && v !== 'black') fail(`${wants('--play')}, not ${quoted(v)}`);
  return v === 'white' ? 8 : 16;
}
// --nodes: a whole number up to INT_MAX; --time: seconds, above 0, up to a million.
function optionNumber(v: string, name: '--nodes' | '--time'): number {
  const x = Number(v);
  const whole = name === '--nodes';
  const fits = /^\s*[0-9.e+]+\s*$/i.test(v) && x > 0 && x <= (whole ? INT_MAX : 1e6) && (!whole || Number.isInteger(x));
  if (!fits) fail(`${wants(name)}, not ${quoted(v)}`);
  return x;
}
const quoted = (v: string): string => `'${v}'`;
function fail(msg: string): never {
  writeAll(2, `micromax: ${msg} (see --help)\n`);
  end(2);
}
function quitWith(text: string): never {
  print(text);
  quit(0);
}

// ---- Part 3: playing in a chess GUI ---------------------------------------
// --uci and --xboard: plumbing between a GUI and the C's loop. One engine thread, started once,
// runs the C's loop steps on its own board and hash table, one job a message: set a position
// (the table cleared), play a typed move (clear the table, D(…, 9, 2), which checks and plays it),
// or think (an empty line's D(…, 8, 0), on a clock). This thread reads the GUI's commands and
// keeps the GUI's game.
//
// Who owns what: the engine thread owns part 1's globals, `clock` and `loop`. This thread owns
// `game`, `busy` (the search under way), `xb` (xboard's state) and `settings` (the GUI's options).
// They share the engine's two clock.shared ints: a search's id written into STOP cuts that
// search; NODES holds its node count.
//
// Input always flows. Commands are handled one at a time, in the order sent, and none waits for
// a search to end: the engine thread reads no job while it thinks, so no command asks it for one
// then. What each command waits for:
//
// - stop, ?, ponderhit: nothing; they cut the search, and its move follows within milliseconds.
// - uci, protover: nothing; answered at once, so a GUI that gives an engine a few seconds to
//   say uciok or done=1 gets them while the engine thread is still starting.
// - isready, ping: the engine thread's start (its first message, a tenth of a second after
//   launch); then they are answered at once, thinking or not. A ping while it thinks is answered
//   after its move (CECP asks it), and an isready after a stop once the stopped search's
//   bestmove is out. In analyze mode a ping has no move to wait for.
// - position, ucinewgame, go, usermove, new, setboard, undo, remove, force, result: they change
//   the game or start a search, so a search under way is cut first and its last milliseconds
//   awaited. UCI sends its bestmove (one for every go); xboard drops its move (unless ? asked).
//   A refused undo or remove cuts nothing; a position line too long to read cuts as its command would.
// - quit, and the end of the input (the GUI is gone): the search is cut, its move sent (xboard's
//   quit drops it, unless ? asked), then the pending pongs, and the program ends.
// - Every other command sets a value or says something, at once.

// ### What a GUI sends
// In micro-Max's terms: squares, promotions, FIDE's castling, FEN set-ups; fen() refuses what
// micro-Max cannot hold, saying why.
//
// Pos is what the C's loop keeps between lines: the board, Q, O, and the side to move.
interface Pos { b: Int8Array, Q: number, O: number, k: number }
// After init(): O = 0, as the C's globals start.
const OPENING: Pos = { b: new Int8Array(129), Q: 0, O: 0, k: 8 };
// e2 to 0x64
const squareOf = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97;
// A pawn's move to its last rank: 0 to 7 (a8 to h8) for white, 112 to 119 (a1 to h1) for black.
const pawnTo8 = (p: Pos, x: number, y: number): boolean => p.b[x] > 0 && (p.b[x] & 7) < 3 && (y < 8 || y > 111);
// A move as a GUI writes it: micro-Max promotes to a queen.
const named = (p: Pos, x: number, y: number): string => sq(x) + sq(y) + (pawnTo8(p, x, y) ? 'q' : '');
const isLegal = (p: Pos, x: number, y: number): boolean =>
  legalMoves(p.b, p.k, p.O).some(([from, to]) => from === x && to === y);
// Legal by FIDE's rules? micro-Max castles more: out of a pawn's check. A castling needs its
// rook unmoved in the corner, the squares between empty, and no square the king crosses attacked.
function fide(p: Pos, x: number, y: number): boolean {
  if (!(p.b[x] & p.k)) return false;
  if ((p.b[x] & 7) !== 4 || Math.abs(x - y) !== 2) return isLegal(p, x, y);
  const G = y > x ? x | 7 : x & ~7;
  const between = [...Array(Math.abs(G - x) - 1)].map((_, i) => Math.min(x, G) + 1 + i);
  const home = (p.b[x] & 32) > 0 && p.b[G] === p.k + 38 && between.every((s) => !p.b[s]);
  return home && ![x, x + y >> 1, y].some((s) => attacked(p.b, s, 24 - p.k));
}
// A board as the C's loop holds it: Q, its material for the side to move, as the C's own
// updates keep it.
function setUp(b: Int8Array, k: number, O: number): Pos {
  let Q = 0;
  for (let s = 0; s < 120; s++) if (!(s & M) && b[s]) Q += (b[s] & 8 ? 99 : -99) * values[b[s] & 7];
  return { b, Q: k === 8 ? Q : -Q, O, k };
}
// An under-promotion's result (knight 3, bishop 5, rook 6), set up as a FEN would be: no e.p.
function promote(p: Pos, x: number, y: number, to: string): Pos {
  const b = p.b.slice();
  b[y] = p.k + 'pnkbrq'.indexOf(to) + 2;
  b[x] = 0;
  return setUp(b, 24 - p.k, ch(S));
}
const PIECES = 'PNBRQK pnbrqk and digits';
const kings = (b: Int8Array, c: number): number => b.filter((u, s) => !(s & M) && u === c + 4).length;
const pawn = (u: number): boolean => u !== 0 && (u & 7) < 3;
// A FEN as the C's loop holds it, or what is wrong with it. The start position is OPENING.
function fen(text: string): Pos | string {
  const [rows = '', toMove = '', rights = '-', ep = '-'] = text.trim().split(/\s+/);
  if (rows === 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' && toMove === 'w' && rights === 'KQkq' && ep === '-') {
    return OPENING;
  }
  const b = OPENING.b.slice();
  const k = toMove === 'w' ? 8 : 16;
  const wrong = placePieces(b, rows) || sideAndKings(b, toMove) || castlingRights(b, rights);
  if (wrong) return wrong;
  const e = /^[a-h][36]$/.test(ep) ? squareOf(ep) : -1;
  if (ep !== '-' && !skipped(b, k, e)) return `no pawn can have skipped '${printable(ep)}'`;
  if (attacked(b, kingOf(b, 24 - k), k)) return `${side(24 - k)} is in check but not to move`;
  // no e.p.: -128, what the C holds after most moves
  return setUp(b, k, ep === '-' ? ch(S) : e);
}
// The FEN's pieces on b (the centre points stay), or what is wrong.
function placePieces(b: Int8Array, rows: string): string {
  const ranks = rows.split('/');
  if (ranks.length !== 8) return `the board needs 8 ranks, not ${ranks.length}`;
  for (let s = 0; s < 120; s++) if (!(s & M)) b[s] = 0;
  for (let r = 0; r < 8; r++) {
    let f = 0;
    for (const c of ranks[r]) {
      const t = 'pnkbrq'.indexOf(c.toLowerCase()) + 2;
      const white = c < 'a';
      if (c > '0' && c < '9') f += +c;
      else if (t < 2 || f > 7) return `rank ${8 - r} ('${printable(ranks[r])}') is not 8 squares of ${PIECES}`;
      else b[16 * r + f++] = (white ? 8 : 16) + (t === 2 && white ? 1 : t);
    }
    if (f !== 8) return `rank ${8 - r} ('${printable(ranks[r])}') is not 8 squares`;
  }
  return '';
}
function sideAndKings(b: Int8Array, toMove: string): string {
  if (toMove !== 'w' && toMove !== 'b') return `the side to move is w or b, not '${printable(toMove)}'`;
  for (const c of [8, 16]) if (kings(b, c) !== 1) return `${side(c)} needs one king`;
  for (let f = 0; f < 8; f++) if (pawn(b[f]) || pawn(b[f + V])) return 'a pawn on the first or last rank';
  return '';
}
// Each right: king and rook unmoved (the virgin bit, 32).
function castlingRights(b: Int8Array, rights: string): string {
  if (!/^(-|K?Q?k?q?)$/.test(rights)) return `castling rights are KQkq or -, not '${printable(rights)}'`;
  for (const c of rights.replace('-', '')) {
    const x = c < 'a' ? 0x74 : 4;
    const y = x + (c === 'K' || c === 'k' ? 3 : -4);
    const u = c < 'a' ? 8 : 16;
    if ((b[x] & 31) !== u + 4 || b[y] !== u + 6) return `castling right ${c} needs the king and that rook at home`;
    b[x] |= 32;
    b[y] |= 32;
  }
  return '';
}
// Can a pawn of the side not to move have skipped e, the square the FEN names?
function skipped(b: Int8Array, k: number, e: number): boolean {
  const up = k === 8 ? 16 : -16;
  return e >= 0 && (e >> 4) === (k === 8 ? 2 : 5) && !b[e] && !b[e - up] && b[e + up] === (k === 8 ? 18 : 9);
}

// ### The engine thread
// Its jobs, each a step of the C's loop with a reply of its own, answered in the order asked; it
// says once that it is ready, and once that it has warmed up (if no job came first), and a
// finished pass comes by itself while it thinks. fallback:
// search as if the score were ±500, not the frozen Q; castling: false for a search with castling
// left out.
type Job =
  | { kind: 'set', pos: Pos }
  | { kind: 'play', from: number, to: number, fallback: boolean }
  | { kind: 'think', lim: Limits, fallback: boolean, castling: boolean };
// A typed move's check: was it legal (then played), and the position after.
interface Played { legal: boolean, pos: Pos }
// A think's move, and its last finished pass: depth, nodes, score; all nodes counted; cut off?
interface Found { x: number, y: number, d: number, N: number, m: number, total: number, cutOff: boolean }
type Reply =
  | { kind: 'ready' }
  | { kind: 'warm' } & Warmth
  | { kind: 'done' }
  | { kind: 'played' } & Played
  | { kind: 'found' } & Found
  | { kind: 'pass', pass: Pass };

// The engine thread's side to move: what the C's loop keeps in k.
const loop = { k: 8 };
const FALLBACK = 500;
const fallbackScore = (Q: number): number => Math.max(-FALLBACK, Math.min(FALLBACK, Q));
// The engine thread, for the life of the process: ready as soon as the C's set-up is done, which
// is what isready and ping wait for; then it warms up, until its first job (see warmUp()). Its
// table is new, every lock 0, as the C's is at start.
function serve(shared: Int32Array): void {
  const port = parentPort;
  // no table: the thread ends, and the GUI side says so
  if (!port || !A.K.length) return;
  begin();
  clock.shared = shared;
  clock.onPass = (pass) => port.postMessage({ kind: 'pass', pass });
  port.on('message', (job: Job) => {
    coolDown();
    port.postMessage(work(job));
  });
  port.postMessage({ kind: 'ready' });
  warmUp((w) => port.postMessage({ kind: 'warm', ...w }));
}
// The table's locks: all 0 ('clear': at the start, and after a set, as the C clears them after
// every line); as the C's loop left them ('kept': after a play or a think, what the next think
// reads); or holding the warm-up's searches ('warm': cleared before any search).
const table = { locks: 'clear' as 'clear' | 'kept' | 'warm' };
// The C's clearing of the locks, skipped when they are all 0 already: the first position of a
// process then costs nothing (the first write of the 64 MiB of locks costs 0.1 s of CPU).
function clearLocks(): void {
  if (table.locks !== 'clear') A.K.fill(0);
  table.locks = 'clear';
}
function work(job: Job): Reply {
  switch (job.kind) {
    case 'set':
      board.set(job.pos.b);
      ({ Q, O, k: loop.k } = job.pos);
      clearLocks();
      return { kind: 'done' };
    case 'play':
      return play(job.from, job.to, job.fallback);
    case 'think':
      return thinkFor(job.lim, job.fallback, job.castling);
  }
}
// A typed line: clear the table, check the move, which plays it. A fallback's check counts
// from the fallback's score, so Q is put back to count from its own.
function play(from: number, to: number, fallback: boolean): Reply {
  const e = fallback ? fallbackScore(Q) : Q;
  const before = Q;
  K = from;
  L = to;
  N = 0;
  clearLocks();
  table.locks = 'kept';
  const legal = D(loop.k, -I, I, e, 1, 1, O, 9, 2) === I;
  if (legal) {
    loop.k ^= 24;
    Q += e - before;
  }
  return { kind: 'played', legal, pos: { b: board.slice(), Q, O, k: loop.k } };
}
// An empty line: think. Without castling, the king loses its unmoved bit for this search only.
function thinkFor(lim: Limits, fallback: boolean, castling: boolean): Reply {
  const e = fallback ? fallbackScore(Q) : Q;
  const king = kingOf(board, loop.k);
  const u = board[king];
  if (!castling) board[king] = u & ~32;
  N = 0;
  if (table.locks === 'warm') clearLocks();
  table.locks = 'kept';
  const cutOff = search(loop.k, e, lim);
  board[king] = u;
  const p = clock.last;
  return { kind: 'found', x: K, y: L, d: p?.d ?? 0, N: p?.N ?? N, m: p?.m ?? 0, total: N, cutOff };
}

// ### Warming up
// A process's first search ran V8's slowest code and met the table's memory for the first time
// (the kernel maps each page at its first write): to depth 5 it took 3 to 4 times as long as a
// later one. So once ready, the engine thread warms up by itself until its first job: the
// locks' pages written with zeros (mapped first: a job that must clear the short searches' locks
// then costs a few milliseconds, not the 0.1 s of a first write; a go 0.1 s after readyok
// reached depth 1 in 171 ms when the searches came first, in 26 now), short searches of a few
// positions and a move's check (the code compiled), the rest of the table's pages mapped, longer
// searches (the code optimised), then the table zeroed again; about 0.4 s of CPU, and the
// table's 176 MiB resident from then on (a search maps them anyway). A step takes a few
// milliseconds, one to a turn of the
// thread's event loop, so a job waits for one step at most; the first job ends the warm-up for
// good. A step puts back all it changes: the board, Q, O, K, L, N and nodeLimit (the random state
// it never changes; the clock's record of the last search, every search starts afresh), and the
// locks its searches wrote are cleared before any search could read them (table.locks). An entry
// whose lock is 0 is empty to D(), whatever its other fields hold, so the table is then the C's;
// once the warm-up is over, every byte of it is 0 again.
//
// Positions that between them castle, take en passant, promote and mate: the start, the
// Najdorf, an e.p. capture, both sides castling either way, a back-rank mate, two pawns queening.
const WARM_FENS = ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6',
  'rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
  'r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 8',
  '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1',
  '8/5P2/8/8/8/2k5/1p6/4K3 w - - 0 1'];
// The searches grow as the code gets faster: of each position, rounds of searches that start no
// pass past a number of nodes (as --nodes does), first 30 (depth 1 or 2) and a check, then 150
// (depth 2: 200 to 400 nodes), then 1000 (depth 3: 1,500 to 9,000); each is cut at its first poll
// past WARM.CUT nodes. The table is zeroed WARM.CHUNK entries a step.
const WARM = { ROUNDS: [[30, 2], [150, 8], [1000, 8]], CUT: 4095, CHUNK: 1 << 18 };
// What the warm-up did, told when it ends (all done, or cut by a job), for the tests: its time,
// its searches' nodes, the steps done of all, the longest step's time.
interface Warmth { ms: number, nodes: number, steps: number, of: number, longest: number }
// The warm-up under way: the next step, and who is told its end.
const warming = { next: undefined as NodeJS.Immediate | undefined, nodes: 0, end: (): void => {} };
// The steps, one after the other, a turn apart. A step that fails ends the warm-up (its locks
// still the warm-up's), never the thread.
function warmUp(told: (w: Warmth) => void): void {
  const steps = warmUpSteps().flat();
  const start = now();
  let longest = 0;
  let k = 0;
  warming.end = () => told({ ms: now() - start, nodes: warming.nodes, steps: k, of: steps.length, longest });
  const step = (): void => {
    warming.next = undefined;
    const t = now();
    try {
      steps[k]();
    } catch {
      return;
    }
    k++;
    longest = Math.max(longest, now() - t);
    if (k < steps.length) warming.next = setImmediate(step);
    else warming.end();
  };
  warming.next = setImmediate(step);
}
// A job came: no step after the one just over.
function coolDown(): void {
  if (!warming.next) return;
  clearImmediate(warming.next);
  warming.next = undefined;
  warming.end();
}
// The phases: the locks zeroed (their pages mapped), short searches and the checks, the rest of
// the table zeroed, the longer searches, the table zeroed.
function warmUpSteps(): (() => void)[][] {
  const positions = WARM_FENS.map((f) => fen(f)).filter((p) => typeof p !== 'string');
  // (n: the search's number, for its key)
  let n = 0;
  const each = (step: (p: Pos, n: number) => void): (() => void)[] => positions.map((p) => {
    const key = n++;
    return () => step(p, key);
  });
  const rounds = ([nodes, times]: number[]): (() => void)[] =>
    Array.from({ length: times }, () => each((p, key) => warmSearch(p, nodes, key))).flat();
  const [first, ...longer] = WARM.ROUNDS;
  const rest = [A.V, A.X, A.Y, A.D];
  const short = [...rounds(first), ...each(warmCheck)];
  return [zeroTable([A.K]), short, zeroTable(rest), longer.flatMap(rounds), zeroTable([A.K, ...rest])];
}
// The C's think at p (as main() makes it, D(k, -I, I, Q, 1, 1, O, 8, 0)) at --nodes nodes, cut
// by the clock as search() cuts one. Each warm-up search has a hash key of its own where the C's
// root has 1: a search's keys all follow from its root's, so with the same one, each would find
// another position's entries.
const warmKey = (n: number): number => Math.imul(n + 2, 0x9e3779b1);
function warmSearch(p: Pos, nodes: number, n: number): void {
  putBack(p, () => {
    const lim = limits({ nodes: WARM.CUT, nodeLimit: nodes }, now());
    Object.assign(clock, { start: lim.start, lim, last: undefined, lastAt: 0, lastLength: 0 });
    nodeLimit = INT_MAX;
    try {
      D(p.k, -I, I, Q, warmKey(n), warmKey(n), O, 8, 0);
    } catch (err) {
      if (err !== CUT) throw err;
    } finally {
      clock.lim = undefined;
    }
  });
}
// The C's check of p's first legal move, which plays it.
function warmCheck(p: Pos, n: number): void {
  const [from, to] = legalMoves(p.b, p.k, p.O)[0] ?? [0, 0];
  putBack(p, () => {
    K = from;
    L = to;
    D(p.k, -I, I, Q, warmKey(n), warmKey(n), O, 9, 2);
  });
}
// Runs f at p, as the C's loop holds it, its passes unreported and its node counts unshared,
// then puts back what it changed; its locks are the warm-up's.
function putBack(p: Pos, f: () => void): void {
  const saved = { b: board.slice(), Q, O, K, L, N, nodeLimit, onPass: clock.onPass, shared: clock.shared };
  clock.onPass = () => {};
  clock.shared = new Int32Array(2);
  table.locks = 'warm';
  board.set(p.b);
  ({ Q, O } = p);
  N = 0;
  try {
    f();
  } finally {
    warming.nodes += N;
    board.set(saved.b);
    ({ Q, O, K, L, N, nodeLimit } = saved);
    clock.onPass = saved.onPass;
    clock.shared = saved.shared;
  }
}
// Every byte of these fields of the table written with 0, a chunk a step: first to map their
// pages before the searches need them, then to erase what the searches wrote, the locks first.
function zeroTable(fields: (Int32Array | Int8Array)[]): (() => void)[] {
  const steps: (() => void)[] = [];
  for (const field of fields) {
    for (let at = 0; at < field.length; at += WARM.CHUNK) steps.push(() => zero(field, at));
  }
  return steps;
}
// Zeros WARM.CHUNK entries of a field from at; the locks are all 0 after their last chunk (in the
// first phase they were already).
function zero(field: Int32Array | Int8Array, at: number): void {
  field.fill(0, at, at + WARM.CHUNK);
  if (field === A.K && at + WARM.CHUNK >= field.length) table.locks = 'clear';
}

// The engine thread, seen from here (this side's door): the ints it shares; ready, once it has
// started (its first message); warm, once it has warmed up (never, if a job came first); one
// function per job, its reply checked by its tag.
interface EngineThread {
  worker: Worker;
  shared: Int32Array;
  ready: Promise<void>;
  warm: Promise<Warmth>;
  set(pos: Pos): Promise<void>;
  play(from: number, to: number, fallback: boolean): Promise<Played>;
  think(lim: Limits, fallback: boolean, castling: boolean): Promise<Found>;
}
// Starts one, telling onPass each pass it reports.
function openEngineThread(onPass: (p: Pass) => void): EngineThread {
  const shared = new Int32Array(new SharedArrayBuffer(8));
  const waiting: ((r: Reply) => void)[] = [];
  const worker = spawnEngine(shared);
  const ready = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  let warmed = (w: Warmth): void => {};
  const warm = new Promise<Warmth>((resolve) => { warmed = resolve; });
  worker.on('message', (r: Reply) => {
    if (r.kind === 'pass') onPass(r.pass);
    else if (r.kind === 'warm') warmed(r);
    else if (r.kind !== 'ready') waiting.shift()?.(r);
  });
  const ask = (job: Job): Promise<Reply> => new Promise((resolve) => {
    waiting.push(resolve);
    worker.postMessage(job);
  });
  return {
    worker,
    shared,
    ready,
    warm,
    set: async (pos) => void replyOf(await ask({ kind: 'set', pos }), 'done'),
    play: async (from, to, fallback) => replyOf(await ask({ kind: 'play', from, to, fallback }), 'played'),
    think: async (lim, fallback, castling) => replyOf(await ask({ kind: 'think', lim, fallback, castling }), 'found'),
  };
}
function replyOf<K extends Reply['kind']>(r: Reply, kind: K): Extract<Reply, { kind: K }> {
  if (!isReply(r, kind)) throw new Error(`the engine thread answered '${r.kind}', not '${kind}'`);
  return r;
}
const isReply = <K extends Reply['kind']>(r: Reply, kind: K): r is Extract<Reply, { kind: K }> => r.kind === kind;
// A thread running this very file: serve(). Node 20 runs no tsx in workers, so from the .ts
// file the thread loads itself through tsx's tsImport.
function spawnEngine(shared: Int32Array): Worker {
  const url = import.meta.url;
  if (!url.endsWith('.ts')) return new Worker(new URL(url), { workerData: shared });
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const me = JSON.stringify(url);
  return new Worker(`import(${api}).then((t) => t.tsImport(${me}, ${me}))`, { eval: true, workerData: shared });
}
// This process's engine thread, started on first use, and never once the session is ending
// (quit read, the input over, the output gone: io.end). A command still under way then fails:
// a thread started after finish() would keep the process alive with no input to end it.
const running = { thread: undefined as EngineThread | undefined };
function thread(): EngineThread {
  if (running.thread) return running.thread;
  if (io.end) throw new Error('the session is over: no engine thread starts');
  const started = openEngineThread(showPass);
  started.worker.on('error', (err) => quitBroken(`the engine thread failed: ${err.message}`));
  started.worker.on('exit', () => quitBroken('the engine thread ended'));
  running.thread = started;
  return started;
}
function quitBroken(why: string): void {
  note(`error: ${why}`);
  void finish(1);
}
// The end of a GUI session: no more input, no command read, the engine thread ended whatever it
// is doing (its 'exit' is then no failure; a search under way stops, and a reply it would have
// sent never comes), and the exit code set (the first call's). Node then ends, as nothing is
// left to do: what still awaits the engine thread awaits nothing that keeps the process alive.
async function finish(code: number): Promise<void> {
  if (process.exitCode === undefined) process.exitCode = code;
  io.end = true;
  process.stdin.destroy();
  const worker = running.thread?.worker;
  if (!worker) return;
  worker.removeAllListeners('exit');
  await worker.terminate();
}

// ### The game
// The GUI's game: its start ('startpos', or 'fen' and a FEN); the moves since, as the GUI sent
// them; pos[i], the position after i moves; unreplayable[i], why move i is not one the C
// takes ('' when it is); why no position is held ('' when one is); and the ply whose position
// the engine thread holds with the C's table (-1: none).
const game = {
  origin: 'startpos',
  moves: [] as string[],
  pos: [OPENING],
  unreplayable: [] as string[],
  noPosition: '',
  engineAt: -1,
};
const UNDER = 'an under-promotion';
const PAST_FREEZE = 'a move past the freeze';
// The engine at the position after n moves, as the C's loop reached it: the position before,
// then the last move's check, which leaves its table (an under-promotion is set up instead). So
// a go right after the GUI's move costs nothing more.
async function placeEngine(n: number): Promise<void> {
  if (game.engineAt === n) return;
  const checked = n > 0 && game.unreplayable[n - 1] !== UNDER;
  await thread().set(game.pos[checked ? n - 1 : n]);
  if (checked) {
    const mv = game.moves[n - 1];
    await thread().play(squareOf(mv), squareOf(mv.slice(2)), game.unreplayable[n - 1] === PAST_FREEZE);
  }
  game.engineAt = n;
}
// The GUI's next move: '' once made, or why it cannot be. micro-Max's own check plays it; an
// under-promotion (outside Faithful) is chess, not micro-Max's: it is set up as a FEN is.
async function applyMove(mv: string): Promise<string> {
  const n = game.moves.length;
  const p = game.pos[n];
  const m = /^([a-h][1-8])([a-h][1-8])([qrbnQRBN]?)$/.exec(mv);
  if (!m) return 'not a move like e2e4';
  const x = squareOf(m[1]);
  const y = squareOf(m[2]);
  const to = m[3].toLowerCase();
  const why = refuseMove(p, x, y, to);
  if (why) return why;
  const under = to !== '' && to !== 'q';
  if (!under && game.engineAt !== n) await thread().set(p);
  const r = under ? { legal: true, pos: promote(p, x, y, to) } : await thread().play(x, y, frozen(p.Q));
  if (!under) game.engineAt = r.legal ? n + 1 : -1;
  if (!r.legal) return 'illegal in this position';
  game.moves.push(mv);
  game.pos.push(r.pos);
  game.unreplayable.push(under ? UNDER : frozen(p.Q) ? PAST_FREEZE : '');
  return '';
}
// Why a move cannot be made before micro-Max checks it, or ''; FIDE's rules first, as for its own.
function refuseMove(p: Pos, x: number, y: number, to: string): string {
  const under = to !== '' && to !== 'q';
  if (to && !pawnTo8(p, x, y)) return 'not a promotion';
  if (frozen(p.Q) && settings.faithful) return 'micro-Max 3.2 takes no move once one side is 2000 points ahead';
  if (under && settings.faithful) return 'micro-Max 3.2 promotes only to a queen';
  if (!fide(p, x, y)) return 'illegal in this position';
  return '';
}
// The GUI's position: the moves already played stay played, so a GUI that sends the whole
// game each time pays for its new moves only.
async function setGame(origin: string, initial: Pos, moves: string[]): Promise<void> {
  if (origin !== game.origin) Object.assign(game, { origin, moves: [], pos: [initial], unreplayable: [] });
  let same = 0;
  while (same < moves.length && moves[same] === game.moves[same]) same++;
  game.moves.length = same;
  game.pos.length = same + 1;
  game.unreplayable.length = same;
  game.noPosition = '';
  if (game.engineAt > same) game.engineAt = -1;
  for (const mv of moves.slice(same)) {
    const why = await applyMove(mv);
    if (why) return void (game.noPosition = `${printable(mv)} (move ${game.moves.length + 1}): ${why}`);
  }
}

// ### The game's clock
// What lasts from one search to the next has one home: both protocols hand it each move's clock
// (a TimeControl) and get the search's limits, and tell it the nodes of each move played. On the
// wall clock it keeps nothing: the GUI's clock is the game's.
//
// At a node rate (xboard's nps, UCI's nodestime) time is nodes: a search has used its nodes over
// the rate, and the clock is the engine's own (CECP: "an own internal time measure"; Stockfish's
// nodestime keeps one too). It starts at the first time the GUI gives in the game, loses each
// move's nodes, gains the increment after each move, and that first time again when a period of
// moves ends. The GUI's overhead is wall-clock time, so none is kept back. So no wall clock
// steers a search, and a game at a node rate is the same game on any machine, at any load. A
// runner that keeps a wall clock must be given a rate well below this machine's.
class GameClock {
  // nodes a ms; 0: the wall clock
  rate = 0;
  // at a node rate: ms left on its own clock (undefined until the game's first search on a clock)
  left: number | undefined = undefined;
  // what a new period of moves adds: the game's first time
  period = 0;
  // the clock the search under way was given
  current: TimeControl = {};

  // A rate in nodes a ms, 0 for the wall clock: the clock starts again.
  setRate(rate: number): void {
    this.rate = rate;
    this.left = undefined;
  }
  // A new game: its clock starts at its first search on a clock (the rate stays).
  newGame(): void {
    this.left = undefined;
  }
  // A search's limits from the GUI's clock, at time start, keeping back overhead ms for the GUI.
  limitsFor(tc: TimeControl, start: number, overhead: number): Limits {
    this.current = tc;
    if (!this.rate) return limits(tc, start, overhead);
    if (tc.time !== undefined && this.left === undefined) {
      this.left = tc.time;
      this.period = tc.time;
    }
    const own = tc.time === undefined ? tc : { ...tc, time: this.left };
    return { ...limits(own, start, 0), rate: this.rate };
  }
  // A move was played after searching this many nodes: at a node rate, its clock runs.
  moved(nodes: number): void {
    const tc = this.current;
    if (!this.rate || tc.time === undefined || this.left === undefined) return;
    this.left = Math.max(0, this.left - nodes / this.rate) + (tc.inc ?? 0);
    if (tc.movesToGo === 1) this.left += this.period;
  }
}
const gameClock = new GameClock();

// ### A search
// The search under way: running until its move is sent (and, in xboard, played); its id
// (written into the STOP int, it cuts the search); go infinite (no move before stop) and what
// releases it; asked: stop or ? asked for its move, which is then sent whatever comes next;
// dropped: a command took it back, no move to send; analysis: xboard's analyze, which sends no
// move ever; when it began; the deepest pass shown (only passes whose move FIDE allows are
// shown); the nodes of its earlier thinks; and the pings to answer after its move.
const busy = {
  run: undefined as Promise<void> | undefined,
  id: 0,
  endless: false,
  analysis: false,
  began: 0,
  release: undefined as (() => void) | undefined,
  asked: false,
  dropped: false,
  shown: undefined as Pass | undefined,
  counted: 0,
  pongs: Promise.resolve(),
};
// stop, ?, or a command that drops the search (drop: no move is sent, unless one was asked for)
function interrupt(drop = false): void {
  if (!busy.run) return;
  if (!drop) busy.asked = true;
  busy.dropped ||= drop && !busy.asked;
  busy.endless = false;
  busy.release?.();
  Atomics.store(thread().shared, STOP, busy.id);
}
// no search under way
async function idle(drop = false): Promise<void> {
  interrupt(drop);
  await busy.run;
}
// Search while the commands go on: it returns at once, and commands are read while the engine
// thinks; a line when it has said nothing for a while (see keepTalking()). analysis: xboard's analyze.
function startSearch(lim: Limits, endless = false, analysis = false): void {
  lim.id = ++busy.id;
  Object.assign(busy, { endless, analysis, began: lim.start, release: undefined, asked: false, dropped: false,
    shown: undefined, counted: 0 });
  Atomics.store(thread().shared, NODES, 0);
  const talking = setInterval(() => keepTalking(lim), SILENCE.check).unref();
  const run = answer(lim).catch((err: Error) => note(`error: ${err.message}`));
  busy.run = run.finally(() => {
    clearInterval(talking);
    busy.run = undefined;
  });
}

// ### Choosing the move
// Three pieces: refusal(), a pure rule; searchLegal(), the think and the FIDE fallback
// (secondChoice() never plays a move shallower than a pass shown); replayNote(), what the C needs
// to play the same move. answer() frames and sends; only xboard's game takes the move.
//
// Why micro-Max makes no move here, or '': no position, the game is over, or the freeze
// under Faithful (xboard resigns the side that is behind instead of playing the fallback).
function refusal(noPosition: string, p: Pos, faithful: boolean, resignsBehind: boolean): string {
  if (noPosition) return `no position: ${noPosition}`;
  const over = ending(p.k, p.b, p.O);
  if (over) return over;
  if (!frozen(p.Q) || !faithful && !(resignsBehind && p.Q < 0)) return '';
  return `frozen: micro-Max 3.2 moves no more once one side is 2000 points ahead (${p.Q} here)`;
}
// The move: the engine at the game's position thinks. A move FIDE forbids (micro-Max castles
// out of a pawn's check) is replaced by a second think, from an empty table, without castling,
// or else by the first legal move. illegal: the first choice, when it was replaced.
async function searchLegal(lim: Limits): Promise<{ found: Found, illegal: string }> {
  const n = game.moves.length;
  const p = game.pos[n];
  await placeEngine(n);
  game.engineAt = -1;
  const found = await thread().think(lim, frozen(p.Q), true);
  if (fide(p, found.x, found.y)) return { found, illegal: '' };
  await thread().set(p);
  busy.counted = found.total;
  Atomics.store(thread().shared, NODES, 0);
  const again = await thread().think(lim, frozen(p.Q), false);
  return { found: secondChoice(p, again, busy.shown, found.total + again.total), illegal: named(p, found.x, found.y) };
}
// The move after the second think, with both thinks' nodes: never shallower than a pass shown
// (of either think), so the deepest shown is played if the second think went no deeper; else
// the second think's move, or else the first legal move.
function secondChoice(p: Pos, again: Found, shown: Pass | undefined, total: number): Found {
  if (shown && shown.d >= again.d) {
    return { ...again, x: shown.x, y: shown.y, d: shown.d, N: shown.N, m: shown.m, total };
  }
  const [x, y] = fide(p, again.x, again.y) ? [again.x, again.y] : legalMoves(p.b, p.k, p.O)[0];
  return { ...again, x, y, total };
}
// How deep it went, and how to replay the move: the C at --nodes N after the game's moves,
// or go nodes N at a FEN's position; a fallback, or an earlier move the C refuses, cannot be.
function replayNote(f: Found, p: Pos, illegal: string, origin: string, unreplayable: string[]): string {
  const n = unreplayable.length;
  const earlier = unreplayable.find(Boolean);
  let how = origin === 'startpos' ? `the C plays it with --nodes ${f.N} after this game's ${n} moves`
    : `replay: this position at a node limit of ${f.N}`;
  if (earlier) how = `not replayable: ${earlier} earlier in this game`;
  if (frozen(p.Q)) how = `fallback: frozen at ${p.Q}, so searched as if ${fallbackScore(p.Q)}`;
  if (illegal) how = `fallback: micro-Max 3.2's choice ${illegal} is not legal here`;
  return `${f.d}-ply search, ${f.N} positions, scored ${f.m}${f.cutOff ? ', cut off' : ''}; ${how}`;
}
type Decision = { move: string, found: Found, note: string } | { none: string };
async function decide(lim: Limits): Promise<Decision> {
  const n = game.moves.length;
  const p = game.pos[n];
  const none = refusal(game.noPosition, p, settings.faithful, dialect().resignsBehind);
  if (none) return { none };
  const { found, illegal } = await searchLegal(lim);
  const note = replayNote(found, p, illegal, game.origin, game.unreplayable);
  return { move: named(p, found.x, found.y), found, note };
}
// Think, then send the move the protocol's way (for go infinite, after stop); in xboard, play it.
// An analysis sends no move: only why there is none to look for.
async function answer(lim: Limits): Promise<void> {
  const d = await decide(lim);
  if (busy.analysis) {
    if ('none' in d) note(`nothing to analyse: ${d.none}`);
    return;
  }
  if (busy.endless) await new Promise<void>((resolve) => { busy.release = resolve; });
  if (busy.dropped) return;
  const ms = Math.round(now() - lim.start);
  const used = timeUsed(lim, 'none' in d ? 0 : d.found.total, ms);
  if ('none' in d) {
    note(`${d.none}; ${used}`);
    return send(...dialect().noMove(d.none, ms));
  }
  send(...dialect().move(d.move, d.found, ms, `${d.note}; ${used}`));
  gameClock.moved(d.found.total);
  if (dialect().playsOwnMove) await playOwn(d.move);
}
// What a move used, for its note: ms, of the time aimed at; at a node rate, its nodes' ms (and
// the wall clock's).
function timeUsed(lim: Limits, nodes: number, ms: number): string {
  const of = lim.aim ? ` of ${Math.round(lim.aim)}` : '';
  if (!lim.rate) return `${ms} ms used${of}`;
  return `${Math.round(nodes / lim.rate)} ms used${of} (at ${lim.rate} nodes a ms; ${ms} ms of wall time)`;
}
// micro-Max's move, in xboard's game (CECP: the engine's move is part of it; a UCI GUI sends the
// game each time); a move that ends the game comes with the result.
async function playOwn(mv: string): Promise<void> {
  const why = await applyMove(mv);
  if (why) {
    game.noPosition = `micro-Max's own move ${mv} was refused: ${why}`;
    return note(`error: ${game.noPosition}`);
  }
  const p = game.pos[game.moves.length];
  const over = ending(p.k, p.b, p.O);
  if (over) send(...dialect().result(over));
}

// ### Words
// Whatever a protocol says or decides lives in its dialect: shared code asks dialect(), never
// which protocol it speaks.
//
// Each protocol's words. move: the lines that play a move, with what its note says of it (UCI:
// a last info line first); noMove: those that make none; note: a line for the log, an error or
// why it makes no move; aside: one that says more (UCI: after debug on only, see INFO_WORDS);
// pass: a finished pass (xboard: after post or in analyze mode); progress: the nodes and time so
// far, while it thinks; result: after its own move ends the game; playsOwnMove: its move is part
// of the GUI's game; resignsBehind: frozen and behind, it resigns; dropsMove: a command that
// changes the game drops the move of a search under way (UCI sends it); commandOf: the command
// a word names; commandAt: where a line's command starts (-1: none); unknown: a line with no
// command it knows.
interface Dialect {
  move(mv: string, f: Found, ms: number, note: string): string[];
  noMove(why: string, ms: number): string[];
  note(s: string): string;
  aside(s: string): string[];
  pass(p: Pass, mv: string): string[];
  progress(N: number, ms: number): string[];
  result(over: string): string[];
  playsOwnMove: boolean;
  resignsBehind: boolean;
  dropsMove: boolean;
  commandOf(word: string): string;
  commandAt(words: string[], known: (word: string) => boolean): number;
  unknown(line: string): string;
}
// Scores are the side to move's, in both protocols: black ahead is above 0. A mate in n moves
// scores 4000 - n, and being mated in n, n - 4000 (mated: -I/2 in the C, the winner's plies each
// a point less); UCI says mate n, or mate -n when mated.
const isMate = (m: number): boolean => m > 3000 || m < -3000;
const mateIn = (m: number): number => m > 0 ? 4000 - m : -4000 - m;
const uciScore = (m: number): string => isMate(m) ? `mate ${mateIn(m)}` : `cp ${m}`;
const nps = (N: number, ms: number): number => ms > 0 ? Math.round(N * 1000 / ms) : 0;
const uciInfo = (d: number, m: number, N: number, ms: number, mv: string): string =>
  `info depth ${d} score ${uciScore(m)} nodes ${N} nps ${nps(N, ms)} time ${Math.round(ms)} pv ${mv}`;
// The words of an info line. A relay (polyglot) reads them even after 'string': a note says
// none of them as a word of its own, or it would be taken for a number of the search. And it
// shows every info string as a thinking line of 0 nodes in 0 time: so what only says more (how
// to replay a move, a clock it cannot read, a Hash it takes) waits for debug on, as the UCI
// spec puts such lines; errors and why it makes no move are always said.
const INFO_WORDS = new Set(('depth seldepth time nodes pv multipv score cp mate lowerbound upperbound currmove ' +
  'currmovenumber hashfull nps tbhits sbhits cpuload string refutation currline').split(' '));
const relaySafe = (s: string): string => s.split(' ').map((w) => INFO_WORDS.has(w) ? `'${w}'` : w).join(' ');
// UCI's words: the info line before bestmove gives the whole think's nodes and time (see
// lastInfo()).
const UCI_WORDS: Dialect = {
  move: (mv, f, ms, note) => [...UCI_WORDS.aside(note), lastInfo(f, ms, mv, busy.shown), `bestmove ${mv}`],
  noMove: (why, ms) => [`info depth 0 nodes 0 time ${ms}`, 'bestmove 0000'],
  note: (s) => `info string ${relaySafe(s)}`,
  aside: (s) => settings.debug ? [UCI_WORDS.note(s)] : [],
  pass: (p, mv) => [uciInfo(p.d, p.m, p.N, p.ms, mv)],
  progress: (N, ms) => [`info nodes ${N} nps ${nps(N, ms)} time ${Math.round(ms)}`],
  result: () => [],
  playsOwnMove: false,
  resignsBehind: false,
  dropsMove: false,
  commandOf: (word) => word,
  // the spec's own example: unknown words before a command are skipped (joho debug on)
  commandAt: (words, known) => words.findIndex(known),
  unknown: (line) => `info string error: unknown command '${relaySafe(printable(line))}'`,
};
// The info line before bestmove: the move's depth and score, and the whole think's nodes and
// time, which a match runner reads from the last line with a score (fastchess writes them into
// its PGN). Its pv only when no pass line said that move at that depth and score: a GUI shows
// every info line with a pv as a pass (PyChess showed the last pass twice; polyglot three times,
// once more at bestmove).
function lastInfo(f: Found, ms: number, mv: string, shown: Pass | undefined): string {
  const said = shown !== undefined && shown.d === f.d && shown.m === f.m &&
    sq(shown.x) + sq(shown.y) === mv.slice(0, 4);
  const line = `info depth ${f.d} score ${uciScore(f.m)} nodes ${f.total} nps ${nps(f.total, ms)} ` +
    `time ${Math.round(ms)}`;
  return said ? line : `${line} pv ${mv}`;
}
// xboard's words. A mate in n scores 100000 + n; mated in n, -100000 - n.
const xbScore = (m: number): number => isMate(m) ? Math.sign(m) * 100000 + mateIn(m) : m;
const XB_WORDS: Dialect = {
  move: (mv, f, ms, note) => [`# ${note}`, `move ${mv}`],
  noMove: (why) => [xbResult(why)],
  note: (s) => `# ${s}`,
  aside: (s) => [XB_WORDS.note(s)],
  pass: (p, mv) => xb.post || xb.analyzing ? [`${p.d} ${xbScore(p.m)} ${Math.round(p.ms / 10)} ${p.N} ${mv}`] : [],
  progress: (N, ms) => [`# thinking: ${N} nodes, ${secs(ms)} s`],
  result: (over) => [xbResult(over)],
  playsOwnMove: true,
  resignsBehind: true,
  dropsMove: true,
  commandOf: (word) => /^[a-h][1-8][a-h][1-8]/.test(word) ? 'usermove' : word,
  commandAt: (words, known) => known(words[0]) ? 0 : -1,
  unknown: (line) => `Error (unknown command): ${printable(line.trim().split(/\s+/)[0])}`,
};
function xbResult(why: string): string {
  if (why.startsWith('checkmate')) return why.includes('white') ? '1-0 {White mates}' : '0-1 {Black mates}';
  if (why.startsWith('stalemate')) return '1/2-1/2 {Stalemate}';
  if (why.startsWith('frozen')) return 'resign';
  return `Error (${why}): go`;
}
// The words, and the commands (their handlers are below): the one place that asks which
// protocol it speaks.
const dialect = (): Dialect => opt.gui === 'uci' ? UCI_WORDS : XB_WORDS;
const commands = (): Record<string, Handler> => opt.gui === 'uci' ? UCI_COMMANDS : XB_COMMANDS;
// When the last line went out; whether stdout is a pipe or a socket, which the GUI may close.
const output = { at: 0, closable: false };
function send(...lines: string[]): void {
  if (!lines.length) return;
  writeAll(1, lines.map((l) => l + '\n').join(''));
  output.at = now();
}
const note = (s: string): void => send(dialect().note(s));
const aside = (s: string): void => send(...dialect().aside(s));
// A finished pass, shown if what it says is new and true: deeper than any shown, and a move FIDE
// allows (micro-Max may prefer a castling FIDE forbids; searchLegal() then plays another move).
function showPass(p: Pass): void {
  const pos = game.pos[game.moves.length];
  if (busy.dropped || p.d <= (busy.shown?.d ?? 0) || !fide(pos, p.x, p.y)) return;
  busy.shown = p;
  send(...dialect().pass(p, named(pos, p.x, p.y)));
}
// The search's nodes so far: its earlier thinks' and the running one's, as of its last poll.
const nodesSoFar = (): number => busy.counted + Atomics.load(thread().shared, NODES);
// While it thinks and has said nothing for 750 ms: the nodes and time so far. A GUI that closed
// the pipe is noticed only by writing to it: this write, within a second of the last line, ends
// the program (writeAll()).
const SILENCE = { check: 250, most: 750 };
function keepTalking(lim: Limits): void {
  if (!output.closable || now() - output.at < SILENCE.most) return;
  send(...dialect().progress(nodesSoFar(), now() - lim.start));
}

// ### Options and pings
// The options a GUI may set, each declared once, for the handshakes and their checks: the check
// Faithful; and the spins, each with its range: Move Overhead (ms); Hash and Threads, which say
// what micro-Max has, one table of 176 MiB and one thread. A match runner sets Hash to what it
// gives every engine (16, 64, ...): any size is taken, and an aside says the table stays 176 MiB
// (176 gets no word); Threads has one value. nodestime: a clock of nodes, as Stockfish's (see
// GameClock). xboard is offered Faithful and Move Overhead: for the others it has memory, cores
// and nps. debug: UCI's debug on, which lets the asides out.
interface Check { name: string, default: boolean }
interface Spin { name: string, default: number, min: number, max: number, unit: string }
const FAITHFUL: Check = { name: 'Faithful', default: false };
const OVERHEAD: Spin = { name: 'Move Overhead', default: 50, min: 0, max: 9999, unit: 'ms' };
const HASH: Spin = { name: 'Hash', default: 176, min: 1, max: 33554432, unit: 'MiB' };
const THREADS: Spin = { name: 'Threads', default: 1, min: 1, max: 1, unit: 'micro-Max searches in one thread' };
const NODESTIME: Spin = { name: 'nodestime', default: 0, min: 0, max: 10000, unit: 'nodes a ms; 0: the wall clock' };
const SPINS = [OVERHEAD, HASH, THREADS, NODESTIME];
const XB_OPTIONS = [FAITHFUL, OVERHEAD];
const settings = { faithful: FAITHFUL.default, overhead: OVERHEAD.default, debug: false };
const TABLE = 'the hash table stays 176 MiB (2^24 + 8 entries, micro-Max 3.2\'s own size)';
// setoption (UCI), option (xboard): a name and a value, as words.
function setOption(name: string, value: string): void {
  const spin = SPINS.find((s) => s.name.toLowerCase() === name.toLowerCase());
  if (name.toLowerCase() === FAITHFUL.name.toLowerCase()) setFaithful(value);
  else if (spin) setSpin(spin, value);
  else note(`error: no option '${printable(name)}'; there are ${[FAITHFUL, ...SPINS].map((o) => o.name).join(', ')}`);
}
function setFaithful(value: string): void {
  if (!/^(true|false|1|0)$/i.test(value)) {
    return note(`error: ${FAITHFUL.name} is true or false, not '${printable(value)}'`);
  }
  settings.faithful = /^(true|1)$/i.test(value);
}
function setSpin(spin: Spin, value: string): void {
  const x = Number(value);
  if (!/^\d+$/.test(value) || x < spin.min || x > spin.max) {
    const range = `a whole number from ${spin.min} to ${spin.max} (${spin.unit})`;
    return note(`error: ${spin.name} is ${range}, not '${printable(value)}'`);
  }
  if (spin === OVERHEAD) settings.overhead = x;
  if (spin === HASH && x !== HASH.default) aside(`Hash ${x} taken, but ${TABLE}`);
  if (spin === NODESTIME) gameClock.setRate(x);
}
// ping: after the move when it is thinking (as xboard asks), else once the engine thread is
// ready; in order with the pongs before it. An analysis has no move to wait for.
async function pong(arg = ''): Promise<void> {
  const after = busy.run && !busy.analysis ? busy.run : thread().ready;
  busy.pongs = Promise.all([busy.pongs, after]).then(() => send(`pong ${printable(arg)}`));
  if (!busy.run) await busy.pongs;
}
// quit and the end of the input: no command is read after it; the search is cut (drop: its
// move is not sent, unless it was asked for); then its move, the pending pongs, and exit.
async function leave(drop: boolean): Promise<void> {
  io.end = true;
  interrupt(drop);
  await busy.run;
  await busy.pongs;
  await finish(0);
}

// ### UCI and xboard
// Each protocol's clock becomes a TimeControl for limits(); then a handler per command. UCI's
// numbers are read as Stockfish reads them, and a clock with no time for the side to move gives
// it 0 ms. xboard's moves to go count from the ply the level came at.
//
// UCI's go: the clock of the side to move k (infinite and ponder: none); a bare go gets the
// C's node limit, cNodes. Side k's time missing on a clock (see timeMissing()) is 0 ms.
function uciGo(w: string[], k: number, cNodes: number): TimeControl {
  const c = k === 8 ? 'w' : 'b';
  const tc: TimeControl = { time: isEndless(w) ? undefined : goNumber(w, `${c}time`), inc: goNumber(w, `${c}inc`),
    movesToGo: goNumber(w, 'movestogo'), movetime: goNumber(w, 'movetime'), depth: goNumber(w, 'depth'),
    nodes: goNumber(w, 'nodes') };
  if (timeMissing(w, k)) tc.time = 0;
  const bare = !isEndless(w) && [tc.time, tc.movetime, tc.depth, tc.nodes].every((x) => x === undefined);
  if (bare) tc.nodeLimit = cNodes;
  return tc;
}
// The number after a word of go, as Stockfish reads it: the integer its text starts with
// (1000.5 is 1000, 1e3 is 1); a negative one counts as 0; none: undefined.
function goNumber(w: string[], key: string): number | undefined {
  const at = w.indexOf(key);
  const lead = at > 0 ? /^[-+]?\d+/.exec(w[at + 1] ?? '') : null;
  return lead ? Math.max(0, +lead[0]) : undefined;
}
const isEndless = (w: string[]): boolean => w.includes('infinite') || w.includes('ponder');
const CLOCK_WORDS = ['wtime', 'btime', 'winc', 'binc', 'movestogo'];
// On a clock (go names a time, an increment or moves to go; no movetime), but no time it can
// read for side k: k has 0 ms, and moves at once, as Stockfish does.
function timeMissing(w: string[], k: number): boolean {
  const onClock = !isEndless(w) && !w.includes('movetime') && CLOCK_WORDS.some((x) => w.includes(x));
  return onClock && goNumber(w, k === 8 ? 'wtime' : 'btime') === undefined;
}
// xboard's clock at this ply of the game. Moves to go count from the ply the level came at
// (CECP: a level sent during a game counts the moves still to play in its period): each side
// has made half the plies since, rounded down. A level (even of no time) or a time puts it on
// a clock; st is a move's time; neither: the C's node limit.
function xbGo(c: XbClock, ply: number, cNodes: number): TimeControl {
  const made = Math.floor(Math.max(0, ply - c.levelAt) / 2);
  const movesToGo = c.mps ? c.mps - made % c.mps : 0;
  if (c.st !== undefined) return { movetime: c.st, depth: c.sd };
  if (c.levelAt >= 0 || c.left !== undefined) return { time: c.left ?? c.base, inc: c.inc, movesToGo, depth: c.sd };
  return { depth: c.sd, nodeLimit: cNodes };
}

type Handler = (w: string[], line: string, t: number) => unknown;
// UCI's commands. uciok at once, readyok once the engine thread is ready (the UCI spec puts
// the waiting at isready); quit sends the move of a search under way, as Stockfish does.
const UCI_COMMANDS: Record<string, Handler> = {
  uci: () => {
    send(`id name micro-Max 3.2 ts ${VERSION}`, 'id author H.G. Muller (port: micromax-ts)',
      `option name ${FAITHFUL.name} type check default ${FAITHFUL.default}`, ...SPINS.map((s) =>
        `option name ${s.name} type spin default ${s.default} min ${s.min} max ${s.max}`), 'uciok');
  },
  // after a stop, once its bestmove is out: isready syncs the GUI with the commands before it
  isready: async () => {
    await thread().ready;
    if (busy.asked) await busy.run;
    send('readyok');
  },
  // debug on: the asides too (see INFO_WORDS)
  debug: (w) => { settings.debug = w[1] === 'on'; },
  register: () => {},
  setoption: (w) => uciSetOption(w),
  stop: () => interrupt(),
  ponderhit: () => interrupt(),
  quit: () => leave(false),
  ucinewgame: async () => {
    await idle();
    gameClock.newGame();
    await setGame('startpos', OPENING, []);
  },
  position: (w) => uciPosition(w),
  bench: () => uciBench(),
  go: async (w, line, t) => {
    await idle();
    const k = game.pos[game.moves.length].k;
    const unsupported = w.includes('searchmoves') || w.includes('mate');
    if (unsupported) aside(`go's 'searchmoves' and 'mate' are not supported: ignored`);
    if (timeMissing(w, k)) aside(`go gives no ${side(k)} clock it can read: ${side(k)} has 0 ms, so it moves at once`);
    startSearch(gameClock.limitsFor(uciGo(w, k, nodeLimit), t, settings.overhead), isEndless(w));
  },
};
// `setoption name <words> [value <words>]`: the words, whatever the spaces between them.
function uciSetOption(w: string[]): void {
  const at = w.findIndex((x, i) => i > 1 && x.toLowerCase() === 'value');
  if (w[1]?.toLowerCase() !== 'name') return note(`error: setoption wants name <option> value <value>`);
  setOption(w.slice(2, at < 0 ? undefined : at).join(' '), at < 0 ? '' : w.slice(at + 1).join(' '));
}
async function uciPosition(w: string[]): Promise<void> {
  // (the GUI should have said stop)
  await idle();
  const at = w.indexOf('moves');
  const head = w.slice(1, at < 0 ? undefined : at);
  const moves = at < 0 ? [] : w.slice(at + 1);
  const p = head[0] === 'startpos' && head.length === 1 ? OPENING : head[0] === 'fen' ? fen(head.slice(1).join(' '))
    : 'position wants startpos or fen <FEN>, then moves';
  if (typeof p === 'string') game.noPosition = p;
  else await setGame(p === OPENING ? 'startpos' : head.join(' '), p, moves);
  if (game.noPosition) note(`error: no position: ${game.noPosition}`);
}

// xboard keeps more state: force mode; the side it plays; post: show passes; and its clock, told
// piecemeal: level (moves per period, base and increment in ms, and the ply it came at, -1
// before any), st (ms a move, once told), sd (depth), time (ms left, once told). A refused move
// or undo changes nothing; a bad setboard or a lost line leaves no position.
interface XbClock {
  mps: number, base: number, inc: number, levelAt: number, st: number | undefined, sd: number, left: number | undefined,
}
// xboard's clock before any level, st, sd or time: a bare go, at the C's node limit.
const XB_CLOCK: XbClock = { mps: 0, base: 0, inc: 0, levelAt: -1, st: undefined, sd: 99, left: undefined };
const xb = {
  force: false,
  analyzing: false,
  plays: 16,
  post: false,
  ...XB_CLOCK,
};
// Its turn, not in force mode: think. A clock with no time, and none told: it moves at once.
// In analyze mode, whoever is on move: analyse.
function xbThink(t: number): void {
  if (xb.analyzing) return analyse(t);
  const ply = game.moves.length;
  if (xb.force || game.pos[ply].k !== xb.plays) return;
  const tc = xbGo(xb, ply, nodeLimit);
  if (tc.time === 0 && xb.left === undefined) {
    note('the level gives no time, and no time command came: 0 ms, so it moves at once');
  }
  startSearch(gameClock.limitsFor(tc, t, settings.overhead));
}
// time, st, sd: a number
function xbNumber(w: string[], line: string, set: (x: number) => void): void {
  const x = Number(w[1]);
  if (w[1] === undefined || !Number.isFinite(x)) send(`Error (wants a number): ${printable(line)}`);
  else set(x);
}
// force, result
async function forceMode(): Promise<void> {
  await idle(true);
  xb.force = true;
}
// undo, remove: refused, nothing changes (a search goes on); else the search is dropped, the moves
// taken back, and it thinks if on move, as after a move. A level taken back past counts from here.
async function takeBack(n: number, line: string, t: number): Promise<void> {
  if (game.noPosition) return send(`Error (no position: ${game.noPosition}): ${printable(line)}`);
  if (game.moves.length < n) return send(`Error (no move to take back): ${printable(line)}`);
  await idle(true);
  await setGame(game.origin, game.pos[0], game.moves.slice(0, -n));
  xb.levelAt = Math.min(xb.levelAt, game.moves.length);
  xbThink(t);
}
// level MPS BASE INC: BASE is minutes or minutes:seconds, and what follows is ignored (CECP:
// in level 40 25+5 0, the +5 tells what comes after the period). It replaces st.
function level(w: string[], line: string): void {
  const mps = /^\d+$/.exec(w[1] ?? '');
  const base = /^(\d+)(?::(\d+))?/.exec(w[2] ?? '');
  const inc = /^\d+(?:\.\d*)?$/.exec(w[3] ?? '');
  if (!mps || !base || !inc) return send(`Error (bad level): ${printable(line)}`);
  const ms = 1000 * (60 * +base[1] + +(base[2] ?? 0));
  Object.assign(xb, { mps: +mps[0], base: ms, inc: 1000 * +inc[0], levelAt: game.moves.length, st: undefined });
}
// usermove, or a bare move: play it, then think if it is our turn. A move refused leaves the
// game as it was (CECP: the GUI takes it back and plays on); if it was our turn, we think anew.
async function userMove(w: string[], t: number): Promise<void> {
  await idle(true);
  const mv = w[0] === 'usermove' ? w[1] ?? '' : w[0];
  const why = game.noPosition ? `no position: ${game.noPosition}` : await applyMove(mv);
  if (why) send(`Illegal move (${why}): ${printable(mv)}`);
  xbThink(t);
}
// a new game from a FEN: the level's period starts with it; an analysis goes on from it
async function setBoard(line: string, t: number): Promise<void> {
  await idle(true);
  xb.levelAt = Math.min(xb.levelAt, 0);
  const text = line.trim().slice(8).trim();
  const p = fen(text);
  if (typeof p === 'string') refuseBoard(p);
  else await setGame(`fen ${text}`, p, []);
  if (xb.analyzing) analyse(t);
}
function refuseBoard(why: string): void {
  game.noPosition = why;
  send(`tellusererror Illegal position: ${why}`);
}
// analyze (CECP 2): force mode, but it searches the position without end, whoever is on move,
// posting every pass, and sends no move. A move, undo, new or setboard starts it again on the
// new position; exit leaves it (in force mode); ? is ignored.
async function startAnalysis(t: number): Promise<void> {
  await idle(true);
  xb.force = true;
  xb.analyzing = true;
  analyse(t);
}
function analyse(t: number): void {
  startSearch(limits({}, t), true, true);
}
async function exitAnalysis(): Promise<void> {
  if (!xb.analyzing) return;
  await idle(true);
  xb.analyzing = false;
}
// '.': how far the analysis is. micro-Max's root loop counts no moves, so none is said done:
// moves left is the count of legal moves.
function analysisStatus(): void {
  if (!xb.analyzing) return;
  const p = game.pos[game.moves.length];
  const moves = game.noPosition ? 0 : legalMoves(p.b, p.k, p.O).length;
  // (the shared count is the last poll's, up to 4096 nodes behind a pass just shown)
  const nodes = Math.max(nodesSoFar(), busy.shown?.N ?? 0);
  const cs = Math.round((now() - busy.began) / 10);
  send(`stat01: ${cs} ${nodes} ${(busy.shown?.d ?? 0) + 1} ${moves} ${moves}`);
}
// xboard's features (CECP 2), declared once: protover sends them between done=0 and done=1, each
// option as xboard spells one (a check: NAME -check 0; a spin: NAME -spin DEFAULT MIN MAX).
const xbOption = (o: Check | Spin): string =>
  'min' in o ? `-spin ${o.default} ${o.min} ${o.max}` : `-check ${+o.default}`;
const XB_FEATURES: [string, string | number][] = [
  ['myname', `"micro-Max 3.2 ts ${VERSION}"`], ['setboard', 1], ['ping', 1], ['usermove', 1], ['playother', 0],
  ['san', 0], ['time', 1], ['draw', 0], ['sigint', 0], ['sigterm', 0], ['reuse', 1], ['analyze', 1], ['colors', 0],
  ['nps', 1], ['debug', 1], ['memory', 1], ['smp', 1], ['variants', '"normal"'],
  ...XB_OPTIONS.map((o): [string, string] => ['option', `"${o.name} ${xbOption(o)}"`]),
];
// xboard's commands. done=1 at once (ping waits for the engine thread). memory and cores are
// taken, and a line says what micro-Max has instead.
const XB_COMMANDS: Record<string, Handler> = {
  protover: () => {
    const features = XB_FEATURES.map(([name, value]) => `${name}=${value}`).join(' ');
    send('feature done=0', `feature ${features}`, 'feature done=1');
  },
  quit: () => leave(true),
  '?': () => {
    if (!xb.analyzing) interrupt();
  },
  analyze: (w, line, t) => startAnalysis(t),
  exit: () => exitAnalysis(),
  '.': () => analysisStatus(),
  ping: (w) => pong(w[1]),
  post: () => { xb.post = true; },
  nopost: () => { xb.post = false; },
  // option NAME=VALUE, the name's words whatever the spaces between them
  option: (w, line) => {
    const [name, value = ''] = line.trim().slice(6).split('=');
    setOption(name.trim().split(/\s+/).join(' '), value.trim());
  },
  // centiseconds; negative: 0
  time: (w, line) => xbNumber(w, line, (x) => { xb.left = 10 * Math.max(0, x); }),
  st: (w, line) => xbNumber(w, line, (x) => { xb.st = 1000 * Math.max(0, x); }),
  sd: (w, line) => xbNumber(w, line, (x) => { xb.sd = Math.max(1, x); }),
  // nodes a second (CECP), until new; 0 or less: the wall clock
  nps: (w, line) => xbNumber(w, line, (x) => gameClock.setRate(Math.max(0, x) / 1000)),
  level: (w, line) => level(w, line),
  memory: (w, line) => xbNumber(w, line, (x) => x === HASH.default || note(`memory ${x} taken, but ${TABLE}`)),
  cores: (w, line) => xbNumber(w, line, (x) => x === 1 || note(`cores ${x} taken, but ${THREADS.unit}`)),
  // a new game: its periods start now, and nps ends (CECP); an analysis goes on from it
  new: async (w, line, t) => {
    await idle(true);
    Object.assign(xb, { force: xb.analyzing, plays: 16, sd: 99, left: undefined, levelAt: Math.min(xb.levelAt, 0) });
    gameClock.setRate(0);
    await setGame('startpos', OPENING, []);
    if (xb.analyzing) analyse(t);
  },
  force: () => forceMode(),
  result: () => forceMode(),
  go: async (w, line, t) => {
    await idle(true);
    xb.force = false;
    xb.analyzing = false;
    xb.plays = game.pos[game.moves.length].k;
    xbThink(t);
  },
  variant: (w, line) => w[1] === 'normal' || send(`Error (only normal chess): ${printable(line)}`),
  setboard: (w, line, t) => setBoard(line, t),
  undo: (w, line, t) => takeBack(1, line, t),
  remove: (w, line, t) => takeBack(2, line, t),
  usermove: (w, line, t) => userMove(w, t),
};
// what it takes and ignores
const IGNORED = 'xboard accepted rejected random computer name hard easy otim draw hint';
for (const c of IGNORED.split(' ')) XB_COMMANDS[c] = () => {};

// ### Reading commands
// A line at a time, in order, each handled when the one before is done; the end of the input is
// stop then quit. No handler waits for a search (see the top of part 3), so input always flows.
//
// bytes: a longer line is dropped
const LONG = 16384;
// One line, to its handler: from the word its command starts at (UCI skips unknown words).
function command(line: string, t: number): unknown {
  const words = line.trim().split(/\s+/);
  const known = (word: string): boolean => Object.hasOwn(commands(), dialect().commandOf(word));
  const at = dialect().commandAt(words, known);
  const w = words.slice(Math.max(at, 0));
  const name = dialect().commandOf(w[0]);
  if (line.length > LONG) return dropLine(name);
  if (at >= 0) return commands()[name](w, at > 0 ? w.join(' ') : line, t);
  if (words[0]) send(dialect().unknown(line));
}
// A line too long to read: if it set the position, none is held, once a search is cut as that
// command would.
async function dropLine(name: string): Promise<void> {
  note(`error: a line of more than ${LONG} bytes is ignored`);
  if (!['position', 'usermove', 'setboard'].includes(name)) return;
  await idle(dialect().dropsMove);
  game.noPosition = `a line of more than ${LONG} bytes was lost`;
}
// The C's set-up, as the GUI side's start.
function begin(): void {
  init();
  OPENING.b.set(board);
}
// --uci, --xboard. At the end of input (the GUI is gone): stop then quit, so a search under way
// is cut and sends its move; then the pongs, and exit. The engine thread starts once the first
// lines are answered (or when one needs it): its start, a tenth of a second of CPU, then does not
// hold up uciok or done=1 on a busy machine.
function protocol(): void {
  begin();
  output.closable = isPipe(1);
  let part = '';
  let chain: Promise<unknown> = Promise.resolve();
  const queue = (line: string, t: number): void => {
    chain = chain.then(() => io.end || command(line, t)).catch((err: Error) => note(`error: ${err.message}`));
  };
  process.stdin.on('data', (chunk: Buffer) => {
    const t = now();
    const lines = (part + chunk.toString('latin1')).split('\n');
    // a line too long is kept only that far
    part = (lines.pop() ?? '').slice(0, LONG + 1);
    for (const l of lines) queue(l.replace(/\r$/, ''), t);
    void chain.then(() => io.end || thread());
  });
  process.stdin.on('end', () => {
    queue(part, now());
    void chain.then(() => leave(false));
  });
}
function isPipe(fd: number): boolean {
  try {
    const s = fs.fstatSync(fd);
    return s.isFIFO() || s.isSocket();
  } catch {
    return false;
  }
}

// ### The bench
// `micromax bench`, and UCI's bench as Stockfish takes it: a fixed set of positions, each searched
// as the C searches it after the moves that reach it from the opening, at a node limit of 100000
// (the C's --nodes: no pass starts past it); then the total nodes and the speed, the last line
// `NODES nodes NPS nps`, where OpenBench reads a build's signature. The total is the search's
// signature: a change to what any search does changes it, and it is the same on every machine
// and every Node. Each position replays against the C: `npm run compare -- --nodes 100000 --moves
// "..."` with its moves.
const BENCH_NODES = 100000;
// The game test/fixtures' engine-1e4 script has micro-Max play: three of its positions.
const BENCH_GAME = ('c2c4 e7e5 d2d4 e5d4 d1d4 b8c6 d4e4 g8e7 b1c3 f7f5 e4e3 c6a5 e3d3 d7d6 c1g5 c8e6 c3d5 a5c6 ' +
  'd5f4 c6e5 d3b3 e6c4 b3b7 a8b8 b7a7 b8b2 g1f3 e5c6 a7a4 c4b5 a4a3 b2c2 h2h4 b5c4 e1d1 c2a2 a1a2 c4a2 a3a2 ' +
  'c6b4 a2a4 b4c6 g5e7 f8e7 a4c6 d8d7 c6d7 e8d7 e2e4 f5e4 f3d2 e7f6 d2e4 f6e5 f4d3 d7e6 d3e5 e6e5 f1d3 e5d4 ' +
  'd1e2 h8e8 h1d1 e8e4 d3e4 d4e4 d1b1 e4d5 e2e3 d5e6 b1b7 e6d7 e3e4 d7c6 b7b3 c6d7 b3g3 g7g6 g3c3 c7c5 ' +
  'e4d5 d7e7 c3e3 e7f6 d5d6 f6f5 d6c5 f5g4 e3e7 g4h4').split(' ');
const BENCH: { name: string, moves: string[] }[] = [
  { name: 'the opening', moves: [] },
  { name: 'after 1.e4', moves: ['e2e4'] },
  { name: 'Sicilian, Najdorf, English Attack', moves: ('e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 ' +
    'd4b3 c8e6 f2f3 f8e7 d1d2 e8g8').split(' ') },
  { name: 'King\'s Indian, Mar del Plata', moves: ('d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8 f1e2 e7e5 ' +
    'e1g1 b8c6 d4d5 c6e7 f3e1 f6d7 e1d3 f7f5 c1d2 d7f6 f2f3 f5f4').split(' ') },
  {
    name: 'Queen\'s Gambit Declined',
    moves: 'd2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 b8d7 a1c1 c7c6'.split(' '),
  },
  { name: 'Ruy Lopez, closed', moves: ('e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 ' +
    'e8g8 h2h3').split(' ') },
  { name: 'French, Winawer', moves: 'e2e4 e7e6 d2d4 d7d5 b1c3 f8b4 e4e5 c7c5 a2a3 b4c3 b2c3 g8e7'.split(' ') },
  { name: 'Scandinavian', moves: 'e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 c7c6 g1f3 c8f5 f1c4 e7e6'.split(' ') },
  { name: 'Scotch, an endgame of rooks and minor pieces', moves: ('e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 c6d4 d1d4 d8f6 ' +
    'd4f6 g8f6 b1c3 f8b4 c1d2 b4c3 d2c3 f6e4 c3g7 h8g8 g7d4 d7d5 f2f3 e4d6 f1d3 c8f5 d3f5 d6f5 d4f2 e8c8 e1c1 ' +
    'g8e8 h1e1 e8e1 d1e1').split(' ') },
  { name: 'a game of micro-Max, queens off', moves: BENCH_GAME.slice(0, 40) },
  { name: 'a game of micro-Max, a rook endgame', moves: BENCH_GAME.slice(0, 70) },
  { name: 'a game of micro-Max, rook against pawns', moves: BENCH_GAME.slice(0, 90) },
];
// The engine's jobs as the bench asks them: the engine thread's (and the ints it shares), or the
// same jobs done here.
type Engine = Pick<EngineThread, 'set' | 'play' | 'think' | 'shared'>;
const HERE: Engine = {
  shared: clock.shared,
  set: async (pos) => void work({ kind: 'set', pos }),
  play: async (from, to, fallback) => replyOf(work({ kind: 'play', from, to, fallback }), 'played'),
  think: async (lim, fallback, castling) => replyOf(work({ kind: 'think', lim, fallback, castling }), 'found'),
};
// One position's search: its moves typed from the opening, as the C's loop takes them, then the
// C's think at the bench's node limit (id: the search's, for the stop cell); its time, and what
// it found.
async function benchSearch(engine: Engine, moves: string[], id: number): Promise<{ found: Found, ms: number }> {
  await engine.set(OPENING);
  for (const mv of moves) {
    const r = await engine.play(squareOf(mv), squareOf(mv.slice(2)), false);
    if (!r.legal) throw new Error(`the bench's move ${mv} is not legal`);
  }
  const start = now();
  const found = await engine.think({ ...limits({ nodeLimit: BENCH_NODES }, start), id }, false, true);
  return { found, ms: now() - start };
}
// Every position, a line each as it is searched, then the totals (the search time alone). Its
// id in the STOP int (a stop, in UCI) ends it: the search under way may have stopped early.
async function bench(engine: Engine, say: (line: string) => void, id = -1): Promise<void> {
  say(`micro-Max 3.2 bench: ${BENCH.length} positions, each searched as the C searches it at --nodes ${BENCH_NODES}`);
  let nodes = 0;
  let ms = 0;
  for (const [k, p] of BENCH.entries()) {
    const r = await benchSearch(engine, p.moves, id);
    if (Atomics.load(engine.shared, STOP) === id) return say(`bench stopped at position ${k + 1}/${BENCH.length}`);
    nodes += r.found.total;
    ms += r.ms;
    const move = sq(r.found.x) + sq(r.found.y);
    const moves = `${p.moves.length} move${p.moves.length === 1 ? '' : 's'}`;
    say(`position ${k + 1}/${BENCH.length}, ${p.name} (${moves}): ${r.found.total} nodes, depth ${r.found.d}, ${move}`);
  }
  say(`search time ${Math.round(ms)} ms`);
  say(`${nodes} nodes ${nps(nodes, ms)} nps`);
}
// micromax bench: here, in this thread, on stdout.
async function benchCommand(): Promise<void> {
  begin();
  await bench(HERE, (line) => {
    print(`${line}\n`);
    flush();
  });
}
// UCI's bench: on the engine thread, run as a search is (see startSearch()), so commands go on,
// and stop, quit or a new search cut it; its passes shown to no one, its lines on stderr, as
// Stockfish's (stdout is the protocol's).
async function uciBench(): Promise<void> {
  await idle();
  await thread().ready;
  const id = ++busy.id;
  Object.assign(busy, { endless: false, analysis: false, began: now(), release: undefined, asked: false, dropped: true,
    shown: undefined, counted: 0 });
  game.engineAt = -1;
  const run = bench(thread(), (line) => writeAll(2, `${line}\n`), id)
    .catch((err: Error) => note(`error: ${err.message}`));
  busy.run = run.finally(() => {
    busy.run = undefined;
  });
}

// ### The program
// The entry point: the terminal game, a GUI, or, in the engine thread, serve(); and what the
// tests import.
//
// The program: unless the table is missing, the command line, then the C's loop or a GUI
// session. An Ending sets the exit code, and Node ends once nothing is left to do. command: the
// protocol of micromax-uci or micromax-xboard, small files the build writes beside this one
// (dist/micromax-uci.js: start(its arguments, 'uci')), which package.json's bin makes commands.
function start(args: string[], command?: 'uci' | 'xboard'): void {
  if (!A.K.length) return;
  try {
    readCommandLine(args, command);
    if (opt.gui) protocol();
    else if (opt.bench) void benchCommand().catch(ended);
    else main();
  } catch (err) {
    ended(err);
  }
}
// An Ending sets the exit code; anything else is a bug, and is thrown on.
function ended(err: unknown): void {
  if (!(err instanceof Ending)) throw err;
  process.exitCode = err.code;
}

if (isMainThread && process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  start(process.argv.slice(2));
} else if (!isMainThread && workerData instanceof Int32Array) serve(workerData);

// For the tests. The engine goes out as one object: a binding exported by name is read through
// a module cell, and D() reading b, A and itself that way ran 15 % more instructions.
// (globals: the rest of what a search sees, part 1's other globals and the random state)
const globals = (): number[] => [Q, O, K, L, N, i, nodeLimit, rf, rr, ...rs];
export const engine = { D, board, T, A, ch, int, quot, globals };
export { init, random, srandom, legalMoves, attacked, begin, fen, openEngineThread, warmUpSteps, work, type Pos };
export { limits, uciGo, timeMissing, xbGo, refusal, secondChoice, replayNote, progressLine };
export { named, uciScore, xbScore, GameClock, SPINS, XB_CLOCK, BENCH, BENCH_NODES };
export { type Found, type TimeControl, type XbClock };
export { start };
export { FAITHFUL, XB_FEATURES };
