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
              if (i < 0 || E !== S && b[E] && int(y - E < 2) & int(E - y < 2)) m = I; // king taken, or castled through check
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
    board[i] = (board[i + V] = steps[i + 24] + 40) + 8; board[i + 16] = 18; board[i + 96] = 9; // pieces, pawns
    for (let j = 0; j < 8; j++) board[16 * j + i + 8] = (i - 4) * (i - 4) + (j - 3.5) * (j - 3.5);
  }                                                    // centre points in the unused half
  for (i = M; i < 1035; i++) T[i] = random() >> 9;     // key bytes, as signed chars
}

let trace = false;                                     // --trace: print the C's hidden line
function report(d: number, N: number, m: number, X: number, Y: number): void { // each root pass
  if (trace) print(printf(d, N, m, X, Y));
  depth = d;
  if (clock && enough(d)) nodeLimit = N;               // a clock: stop here, as --nodes N would
  if (clock) parentPort?.postMessage([d, N, m, X, Y, now() - clock.start]); // engine thread: to the GUI
  if (live && d > 0) {                                 // the progress line, rewritten in place
    writeAll(2, '\r\x1b[K'); flush();                  // (--trace lines go above it)
    writeAll(2, `thinking: depth ${d}, ${N} nodes, best ${sq(X)}${sq(Y)}, score ${m}, ${secs()} s`);
  }
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

let outBuf = '';                                       // stdout, as C buffers it
function print(s: string): void { outBuf += s; if (outBuf.length > 65536) flush(); }
function flush(): void { const s = outBuf; outBuf = ''; writeAll(1, s); }
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

let inBuf = Buffer.alloc(65536);                       // stdin, read ahead as C's getchar does
let inLen = 0, inPos = 0, inEnd = false, atLineStart = true;
function fill(): boolean {                             // more bytes, or false at end of input
  if (inEnd) return false;
  flush();                                             // let the reader see the board first
  inPos = 0; inLen = 0;
  if (process.stdin.isTTY) readTerminal(); else {
    for (;;) {
      try { inLen = fs.readSync(0, inBuf, 0, inBuf.length, null); break; } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') pause(); else if (code === 'EOF') break; else throw err;
      }
    }
    inEnd = inLen === 0;
  }
  return inLen > 0;
}
function readTerminal(): void {                        // a line typed at the terminal
  say(prompt);
  const line = readlineSync.question('', { keepWhitespace: true, encoding: 'binary' });
  const ended = readlineSync.getRawInput().endsWith('\0'); // Ctrl-D
  inBuf = Buffer.from(ended ? line : line + '\n', 'latin1'); // the whole line, however long
  inLen = inBuf.length;
  inEnd = ended;
  if (ended) say('\n');                                // the shell's prompt on a line of its own
}
function getchar(): number {                           // next byte, -1 at the end
  if (feed) { feed = false; flush(); atLineStart = true; return 10; } // --play: an empty line
  const c = inPos < inLen || fill() ? inBuf[inPos++] : -1;
  if (c < 0 && atLineStart) quit(0);                   // end of input between lines: stop
  atLineStart = c <= 10;
  return c;
}

// The terminal game. What it adds goes to stderr, and only when a person is at a terminal
// (stdin and stdout TTYs); the one exception, --pretty's board, replaces the board on stdout
// only when stdout is a terminal. So a pipe always sees the original's bytes.
const atTerminal = isatty(0) && isatty(1);
const live = atTerminal && isatty(2) && isMainThread;  // the progress line while it thinks
let play = 0, pretty = false, moveTime = 0;            // --play: player's side; --pretty; --time (ms)
let feed = false;                                      // --play: read an empty line next
let prompt = '', depth = 0, score = 0, started = 0;    // last think: depth, score, start time

function say(s: string): void { if (atTerminal) writeAll(2, s); }
const secs = (): string => ((performance.now() - started) / 1000).toFixed(1);
const sq = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4)); // 0x88 square to e2
const side = (k: number): string => k === 8 ? 'white' : 'black';

function think(k: number): void {                      // the C's think, timed, progress cleared
  started = performance.now(); depth = 0;
  const limit = nodeLimit;                             // --time may lower it for this move
  if (moveTime) start({ ...open(now()), allow: moveTime, nodes: limit, target: moveTime });
  score = D(k, -I, I, Q, 1, 1, O, 8, 0);
  nodeLimit = limit; clock = undefined;
  if (live) writeAll(2, '\r\x1b[K');
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

function main(): void {
  let k = 8, p = 0;                                    // k: side to move (8 white, 16 black)
  const c = new Int32Array(9);                         // the input line; kept between lines
  let answer = play === 16;                            // --play black: micro-Max opens

  init();
  for (;;) {                                           // play loop
    if (pretty) print(prettyBoard()); else
      for (i = 0; i < 121; i++) print(' ' + ((i & 8) && (i += 7) ? '\n' : n[board[i] & 15])); // board
    const over = atTerminal || play ? ending(k) : '', who = k === play ? `your move (${side(k)})` : `${side(k)} to move`;
    prompt = over ? `${over} (Ctrl-D to quit) > ` : `${who}: ${HINT} > `;
    feed = answer && !over;                            // --play: micro-Max answers by itself
    p = 0; while ((c[p < 8 ? p++ : 8] = getchar()) > 10); // read a line (bytes past 8 dropped)
    N = 0;
    const typed = c[0] !== 10;
    if (typed) { K = ch(c[0] - 16 * c[1] + C); L = ch(c[2] - 16 * c[3] + C); } else // a move,
      think(k);                                        // or an empty line: think of one
    A.K.fill(0);                                       // clear the hash table
    const ok = D(k, -I, I, Q, 1, 1, O, 9, 2) === I;    // legal: it is played; other side's turn
    if (ok) k ^= 24;
    tell(typed ? String.fromCharCode(...c.subarray(0, c[p - 1] > 10 ? p : p - 1)) : undefined, ok, over);
    answer = play !== 0 && typed && ok && !inEnd;
  }
}

const HINT = 'a move like e2e4, Enter = micro-Max moves, Ctrl-D = quit';
let stuck = false;                                     // refused a typed move: Enter does nothing
function tell(typed: string | undefined, ok: boolean, over: string): void { // what just happened
  if (!ok && (Q > I / 4 || Q < -I / 4)) say('micro-Max 3.2 neither moves nor accepts a move once one side ' +
    'is 2000 points ahead (its searches stop at once): the game cannot go on\n');
  else if (typed !== undefined && !ok) say(`illegal move: ${typed.replace(/[^ -~]/g, '?')}\n`);
  else if (ok && typed === undefined) say(`micro-Max plays ${sq(K)}${sq(L)} (depth ${depth}, ${N} nodes, ` +
    `score ${score}, ${secs()} s${moveTime ? `; --nodes ${N} replays it` : ''})\n`);
  else if (!ok && !over) say(stuck ? 'micro-Max will not move after an illegal move until a legal one ' +
    'is typed (so does the original)\n' : 'micro-Max found no move (try a larger --nodes)\n');
  if (typed !== undefined || ok) stuck = !ok;
}

const USAGE = `usage: micromax.ts [--nodes N] [--time S] [--trace] [--play white|black] [--pretty]
       micromax.ts --uci | --xboard [--nodes N]        (for a chess GUI; see README)
  --nodes N       stop deepening after N nodes (default 10000000, the original's 1e7)
  --time S        think about S seconds a move: no new iteration that would end later
  --trace         after each root iteration print the line the original has commented out
  --play SIDE     you play SIDE (white or black): micro-Max answers each move you type
  --pretty        when stdout is a terminal: a board with rank and file labels (Unicode on UTF-8)
  --uci           speak UCI on stdin/stdout (Cute Chess, Arena, ...); --nodes: a bare 'go'
  --xboard        speak the xboard protocol (xboard, WinBoard); --nodes: no time control set
  --help          this text
  --version       the version
Type a move as e2e4; an empty line lets micro-Max move; end of input (Ctrl-D) quits.
`;
let gui: 'uci' | 'xboard' | '' = '';                  // --uci, --xboard: the protocol spoken
const version = (): string =>                          // package.json's (copied into dist/ too)
  (JSON.parse(fs.readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string }).version;
function options(argv: string[]): void {               // one line on stderr and exit 2 if bad
  const fail = (msg: string): never => {
    process.stderr.write(`micromax: ${msg} (see --help)\n`);
    process.exit(2);
  };
  const count = (v: string | undefined, what: string, max: number, whole: boolean): number => {
    const x = Number(v);                               // a number from 1 (or above 0) up to max
    if (v === undefined || !/^\s*[0-9.e+]+\s*$/i.test(v) || !(x > 0 && x <= max) || whole && !Number.isInteger(x))
      fail(`${what} wants ${whole ? 'a whole number from 1' : 'a number above 0'} to ${max}, not ${v === undefined ? 'nothing' : `'${v}'`}`);
    return x;
  };
  for (let a = 0; a < argv.length; a++) {
    if (argv[a] === '--trace') trace = true;
    else if (argv[a] === '--pretty') pretty = isatty(1);  // only stdout at a terminal changes
    else if (argv[a] === '--help') { process.stdout.write(USAGE); process.exit(0); }
    else if (argv[a] === '--version') { process.stdout.write(`micromax-ts ${version()}\n`); process.exit(0); }
    else if (argv[a] === '--play') {
      const v = argv[++a];
      if (v !== 'white' && v !== 'black') fail(`--play needs white or black, not ${v === undefined ? 'nothing' : `'${v}'`}`);
      play = v === 'white' ? 8 : 16;
    } else if (argv[a] === '--nodes') nodeLimit = count(argv[++a], '--nodes', 2147483647, true);
    else if (argv[a] === '--time') moveTime = 1000 * count(argv[++a], '--time', 1e6, false);
    else if (argv[a] === '--uci' || argv[a] === '--xboard') gui = argv[a] === '--uci' ? 'uci' : 'xboard';
    else fail(`unknown option '${argv[a]}'`);
  }
  if (gui && (trace || play || moveTime || argv.includes('--pretty'))) fail(`--${gui} takes no option but --nodes`);
}

// ---- Part 3: playing in a chess GUI ---------------------------------------
// --uci and --xboard. A GUI's game reaches the engine as the C's own loop steps: each move a
// typed line (clear the hash table, check the move, which plays it), each "go" an empty line
// (think). The steps run in a worker thread, one a message, so the protocol is answered while
// it thinks. A search cut short is thrown away: a spare thread takes over at once.

interface Pos { b: Int8Array; Q: number; O: number; k: number } // what the C's loop keeps
interface Clock { start: number; allow: number; hard: number; depth: number; nodes: number; target: number }
interface Job { set?: Pos; play?: number[]; think?: Clock; thaw?: boolean; castle?: boolean; warm?: boolean }
interface Reply { ok?: boolean; pos?: Pos; best?: number[] }
interface Found { x: number; y: number; d: number; N: number; m: number; cut: boolean }
type Ply = number[];                                   // an iteration: depth, nodes, score, from, to, ms

const now = (): number => performance.timeOrigin + performance.now(); // ms, alike in every thread
const halt: Int32Array = isMainThread ? new Int32Array(1) : workerData; // 1: stop after this iteration
let clock: Clock | undefined, last = 0, step = 0;      // a search's limits; its last iteration: end, length
function start(c: Clock): void { clock = c; last = step = 0; nodeLimit = c.nodes; }
function enough(d: number): boolean {                  // after iteration d: stop deepening?
  const c = clock!, t = now() - c.start, s = t - last;
  const grow = step > 0 ? Math.min(Math.max(s / step, 2), 10) : 6; // the next takes about s * grow
  last = t; step = s;
  return d > 0 && (d >= c.depth || Atomics.load(halt, 0) > 0 || t + grow * s > c.allow);
}

const frozen = (Q: number): boolean => Q > I / 4 || Q < -I / 4; // the C's searches stop at once
const thaw = (Q: number): number => Math.max(-500, Math.min(500, Q)); // the fallback's score instead
function serve(): void {                               // the engine's thread: a C loop step a message
  let k = 8, clean = true;                             // side to move; hash table all zero
  const clear = (): void => { if (!clean) A.K.fill(0); clean = true; };
  init(); A.K.fill(0);                                 // (port only: the locks' pages, touched now)
  parentPort!.on('message', (job: Job) => {
    const Q0 = Q, e = job.thaw ? thaw(Q) : Q;
    if (job.warm) {                                    // a throwaway search: V8 compiles D() now,
      nodeLimit = 2e4; D(8, -I, I, 0, 1, 1, 0, 8, 0);  // not in a game (port only)
      return A.K.fill(0);
    }
    if (job.set) { board.set(job.set.b); ({ Q, O, k } = job.set); clear(); }
    if (job.play) {                                    // a typed line: clear, check (and play) it
      [K, L] = job.play; N = 0; clear(); clean = false;
      const ok = D(k, -I, I, e, 1, 1, O, 9, 2) === I;
      if (ok) { k ^= 24; Q += e - Q0; }                // (a thawed check counted from e, not Q)
      return parentPort!.postMessage({ ok, pos: { b: board.slice(), Q, O, k } });
    }
    if (job.think) {                                   // an empty line: think
      const x = kingOf(board, k), u = board[x];
      if (job.castle === false) board[x] = u & ~32;    // (a fallback: no castling)
      N = 0; clean = false; start(job.think);
      D(k, -I, I, e, 1, 1, O, 8, 0);
      board[x] = u; clock = undefined;
      return parentPort!.postMessage({ best: [K, L, N] });
    }
    parentPort!.postMessage({});                       // set, or nothing: done
  });
}

// The GUI side: the game, and the engine's thread with a spare.
interface Engine { w: Worker; halt: Int32Array; replies: ((r: Reply) => void)[]; warm: boolean } // in order
let thread: Engine, spare: Engine, drainer: Engine | undefined; // the engine; one ready; one cut off
let faithful = false, overhead = 50;                   // the options a GUI may set
function engineThread(halt: Int32Array): Worker {      // a thread running this very file: serve()
  const url = import.meta.url;                         // (port only: Node 20 runs no tsx in workers)
  return url.endsWith('.ts') ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
    `.then((t) => t.tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}))`, { eval: true, workerData: halt })
    : new Worker(new URL(url), { workerData: halt });
}
function spawn(): Engine {
  const halt = new Int32Array(new SharedArrayBuffer(4)), e: Engine = { w: engineThread(halt), halt, replies: [], warm: false };
  e.w.on('message', (m: Ply | Reply) => { if (!Array.isArray(m)) e.replies.shift()?.(m); else if (e === thread) ply(m); });
  e.w.on('error', (err) => { note(`error: the engine thread failed: ${err.message}`); process.exit(1); });
  e.w.on('exit', () => { if (e === thread || e === spare) { note('error: the engine thread ended'); process.exit(1); } });
  return e;
}
const ask = (job: Job): Promise<Reply> => new Promise((res) => { thread.replies.push(res); thread.w.postMessage(job); });

let START: Pos;                                        // the C's start: O = 0, as in its globals
let game = { key: '', moves: [] as string[], pos: [] as Pos[], thawed: [] as boolean[] }, bad = '';
let at = -1, exact = false;                            // the ply the engine holds; with the C's hash?
const squareOf = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97; // e2 to 0x64
const pawnTo8 = (p: Pos, x: number, y: number): boolean => p.b[x] > 0 && (p.b[x] & 7) < 3 && (y < 8 || y > 111);
const named = (p: Pos, x: number, y: number): string => sq(x) + sq(y) + (pawnTo8(p, x, y) ? 'q' : '');

async function hold(hash: boolean): Promise<void> {    // the engine at the game's last position,
  const n = game.moves.length, from = hash && n > 0 ? n - 1 : n; // with the C's hash table if asked
  if (at === n && (exact || !hash)) return;
  await ask({ set: game.pos[from] }); at = from; exact = n === 0;
  if (from < n) {                                      // the last move again: its check fills the table
    await ask({ play: [squareOf(game.moves[from]), squareOf(game.moves[from].slice(2))], thaw: game.thawed[from] });
    at = n; exact = true;
  }
}
async function move(mv: string): Promise<string> {     // a move as a typed line: '' or why not
  if (bad) return bad;
  await hold(false);
  const p = game.pos[game.moves.length], m = /^([a-h][1-8])([a-h][1-8])([qrbn]?)$/.exec(mv);
  if (!m) return 'not a move like e2e4';
  const x = squareOf(m[1]), y = squareOf(m[2]), ice = frozen(p.Q);
  if (m[3] && !pawnTo8(p, x, y)) return 'not a promotion';
  if (m[3] && m[3] !== 'q') return 'micro-Max 3.2 promotes only to a queen';
  if (ice && faithful) return 'micro-Max 3.2 takes no move once one side is 2000 points ahead';
  const r = await ask({ play: [x, y], thaw: ice });
  if (!r.ok) { exact = false; return 'illegal in this position'; } // (its check wrote the table)
  game.moves.push(mv); game.pos.push(r.pos!); game.thawed.push(ice); at++; exact = true;
  return '';
}
async function reach(key: string, p: Pos, moves: string[]): Promise<string> { // a GUI's position
  if (key !== game.key) { game = { key, moves: [], pos: [p], thawed: [] }; at = -1; }
  let c = 0;                                           // the moves already played stay played
  while (c < moves.length && moves[c] === game.moves[c]) c++;
  game.moves.length = c; game.pos.length = c + 1; game.thawed.length = c;
  if (at > c) at = -1;
  for (const mv of moves.slice(c)) {
    const why = await move(mv);
    if (why) return `${shown(mv)} (move ${game.moves.length + 1}): ${why}; the position is the one before it`;
  }
  return '';
}

function fen(text: string): Pos | string {             // a FEN as the C's loop holds it, or what is wrong
  const [rows = '', turn = '', rights = '-', ep = '-'] = text.trim().split(/\s+/), ranks = rows.split('/');
  if (rows === 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' && turn === 'w' && rights === 'KQkq' && ep === '-') return START;
  const b = START.b.slice(), k = turn === 'w' ? 8 : 16, up = k === 8 ? 16 : -16;
  let Q = 0, O = ch(S);                                // no e.p.: what the C holds after most moves
  if (ranks.length !== 8) return `the board needs 8 ranks, not ${ranks.length}`;
  for (let s = 0; s < 120; s++) if (!(s & M)) b[s] = 0; // empty squares (the centre points stay)
  for (let r = 0; r < 8; r++) {
    let f = 0;
    for (const c of ranks[r]) {
      const t = 'pnkbrq'.indexOf(c.toLowerCase()) + 2, white = c < 'a';
      if (c > '0' && c < '9') f += +c;
      else if (t < 2 || f > 7) return `rank ${8 - r} ('${shown(ranks[r])}') is not 8 squares of PNBRQK pnbrqk and digits`;
      else { b[16 * r + f++] = (white ? 8 : 16) + (t === 2 && white ? 1 : t); Q += (white ? 99 : -99) * values[t]; }
    }
    if (f !== 8) return `rank ${8 - r} ('${shown(ranks[r])}') is not 8 squares`;
  }
  if (turn !== 'w' && turn !== 'b') return `the side to move is w or b, not '${shown(turn)}'`;
  for (const c of [8, 16]) if (b.filter((u, s) => !(s & M) && u === c + 4).length !== 1) return `${side(c)} needs one king`;
  for (let f = 0; f < 8; f++) if ([b[f], b[f + V]].some((u) => u && (u & 7) < 3)) return 'a pawn on the first or last rank';
  if (!/^(-|K?Q?k?q?)$/.test(rights)) return `castling rights are KQkq or -, not '${shown(rights)}'`;
  for (const c of rights.replace('-', '')) {           // a right: king and rook unmoved (virgin bit)
    const x = c < 'a' ? 0x74 : 4, y = x + (c === 'K' || c === 'k' ? 3 : -4), u = c < 'a' ? 8 : 16;
    if ((b[x] & 31) !== u + 4 || b[y] !== u + 6) return `castling right ${c} needs the king and that rook at home`;
    b[x] |= 32; b[y] |= 32;
  }
  if (ep !== '-') {                                    // the square a pawn skipped, as the C's O
    const e = /^[a-h][36]$/.test(ep) ? squareOf(ep) : -1;
    if (e < 0 || (e >> 4) !== (k === 8 ? 2 : 5) || b[e] || b[e - up] || b[e + up] !== (k === 8 ? 18 : 9))
      return `no pawn can have skipped '${shown(ep)}'`;
    O = e;
  }
  if (attacked(b, kingOf(b, 24 - k), k)) return `${side(24 - k)} is in check but not to move`;
  return { b, Q: k === 8 ? Q : -Q, O, k };
}


// A search, stopped by its own clock between iterations, or cut off (stop, ?, the deadline).
let run: { done: (f?: Found) => void; best?: Ply; timer?: NodeJS.Timeout } | undefined;
let hurry = false, dropped = false;                    // told to move now; told to drop this search
function search(lim: Clock, ice: boolean, castle: boolean): Promise<Found | undefined> { // undefined: aborted
  Atomics.store(thread.halt, 0, +hurry); exact = false; thread.warm = true; // (hurry: after ply 1)
  return new Promise((done) => {
    if (dropped) return done(undefined);
    const r: NonNullable<typeof run> = run = { done };
    if (lim.hard < Infinity) r.timer = setTimeout(cut, Math.max(0, lim.start + lim.hard - now()));
    thread.replies.push((a) => { const [x, y, N] = a.best!; end({ x, y, N, d: r.best?.[0] ?? 0, m: r.best?.[2] ?? 0, cut: false }); });
    thread.w.postMessage({ think: lim, thaw: ice, castle });
  });
}
function ply(p: Ply): void { if (run && p[0] > 0) { run.best = p; show(p); } } // an iteration ended
function cut(): void {                                 // move now: the last finished iteration's move
  const p = run?.best;
  hurry = true;
  if (run && !p) Atomics.store(thread.halt, 0, 1);     // none yet: stop after the first, a moment away
  else if (run && p) { replace(); end({ x: p[3], y: p[4], d: p[0], N: p[1], m: p[2], cut: true }); }
}
function abort(): void { dropped = true; if (run) { replace(); end(undefined); } } // stop, no move
function replace(): void {                             // the spare takes over at once, and a new
  const old = thread, gone = (): void => { if (drainer === old) drainer = undefined; }; // one starts.
  const quit = setTimeout(() => { void old.w.terminate(); gone(); }, 1000); // The old thread ends its
  if (drainer) void drainer.w.terminate();             // iteration (a second at most) and, its D()
  drainer = old; Atomics.store(old.halt, 0, 1);        // compiled, replaces a spare that is not
  old.replies = [() => { clearTimeout(quit); gone(); if (spare.warm) return void old.w.terminate();
    void spare.w.terminate(); spare = old; }];
  thread = spare; spare = spawn(); at = -1;
}
function end(f: Found | undefined): void { const r = run!; run = undefined; clearTimeout(r.timer); r.done(f); }

function fide(p: Pos, x: number, y: number): boolean { // legal by FIDE's rules? (micro-Max castles more)
  if (!(p.b[x] & p.k)) return false;
  if ((p.b[x] & 7) !== 4 || Math.abs(x - y) !== 2) return legalMoves(p.b, p.k, p.O).some(([a, c]) => a === x && c === y);
  const G = y > x ? x | 7 : x & ~7, between = [...Array(Math.abs(G - x) - 1)].map((_, i) => Math.min(x, G) + 1 + i);
  return (p.b[x] & 32) > 0 && p.b[G] === p.k + 38 && between.every((s) => !p.b[s]) &&
    ![x, x + y >> 1, y].some((s) => attacked(p.b, s, 24 - p.k)); // the king crosses no attacked square
}
type Decision = { move: string; note: string } | { none: string };
async function decide(lim: Clock): Promise<Decision | undefined> { // the move to play, or why none
  if (bad) return { none: bad };
  await hold(true);
  const n = game.moves.length, p = game.pos[n], over = ending(p.k, p.b, p.O), ice = frozen(p.Q);
  if (over) return { none: over };
  if (ice && (faithful || gui === 'xboard' && p.Q < 0))
    return { none: `frozen: micro-Max 3.2 moves no more once one side is 2000 points ahead (${p.Q} here)` };
  let f = await search(lim, ice, true);
  if (!f) return undefined;
  let why = ice ? `fallback: frozen at ${p.Q}, so searched as if ${thaw(p.Q)}`
    : game.thawed.includes(true) ? 'not replayable: a fallback moved earlier in this game'
    : game.key === 'startpos' ? `the C plays it with --nodes ${f.N} after this game's ${n} moves`
    : `replay: this position, go nodes ${f.N}`;
  if (!fide(p, f.x, f.y)) {                            // a move the GUI would refuse, or none at all
    why = `fallback: micro-Max 3.2's choice ${named(p, f.x, f.y)} is not legal here`;
    await ask({ set: p }); at = n;                     // again from an empty table, castling left out
    f = await search(lim, ice, false);
    if (!f) return undefined;
    if (!fide(p, f.x, f.y)) [f.x, f.y] = legalMoves(p.b, p.k, p.O)[0];
  }
  return { move: named(p, f.x, f.y), note: `depth ${f.d}, ${f.N} nodes, score ${f.m}${f.cut ? ', cut off' : ''}; ${why}` };
}
let searching: Promise<void> | undefined, endless = false, release: (() => void) | undefined;
function stop(): void { endless = false; cut(); release?.(); } // UCI's stop (and the end of input)
async function answer(lim: Clock, infinite = false): Promise<void> { // think, then move the protocol's way
  endless = infinite; hurry = dropped = false;
  const d = await decide(lim);
  if (endless) await new Promise<void>((r) => { release = r; }); // go infinite: no move before stop
  release = undefined;
  if (!d) return;
  const used = `${Math.round(now() - lim.start)} ms used${lim.target ? ` of ${Math.round(lim.target)}` : ''}`;
  if ('none' in d) { note(`${d.none}; ${used}`); return send(gui === 'uci' ? 'bestmove 0000' : result(d.none)); }
  note(`${d.note}; ${used}`);
  send(gui === 'uci' ? `bestmove ${d.move}` : `move ${d.move}`);
  const why = await move(d.move), p = game.pos[game.moves.length], over = ending(p.k, p.b, p.O);
  if (why) note(`error: micro-Max's own move ${d.move} was refused: ${why}`);
  else if (gui === 'xboard' && over) send(result(over));
}
const result = (over: string): string => over.startsWith('checkmate') ? (over.includes('white') ? '1-0 {White mates}'
  : '0-1 {Black mates}') : over.startsWith('stalemate') ? '1/2-1/2 {Stalemate}' : over.startsWith('frozen') ? 'resign' : `tellusererror ${over}`;

// The two protocols' words, and the clock each move gets.
const send = (...lines: string[]): void => writeAll(1, lines.map((l) => l + '\n').join(''));
const note = (s: string): void => send(gui === 'uci' ? `info string ${s}` : `# ${s}`);
const shown = (s: string): string => s.replace(/[^ -~]/g, '?').slice(0, 60); // input, echoed safely
function show(p: Ply): void {                          // an iteration, the GUI's way
  const [d, N, m, x, y, ms] = p, mv = named(game.pos[game.moves.length], x, y), mate = m > 3000 || m < -3000;
  const moves = m > 0 ? 4000 - m : -4000 - m;          // mate in n: 4000 - n (the C: mated is -I/2)
  if (gui === 'uci') send(`info depth ${d} score ${mate ? `mate ${moves}` : `cp ${m}`} nodes ${N} ` +
    `nps ${ms > 0 ? Math.round(N * 1000 / ms) : 0} time ${Math.round(ms)} pv ${mv}`);
  else if (posting) send(`${d} ${mate ? Math.sign(m) * 100000 + moves : m} ${Math.round(ms / 10)} ${N} ${mv}`);
}
function option(name = '', v = ''): void {            // setoption (UCI), option (xboard)
  const o = name.trim().toLowerCase();
  if (o === 'faithful' && /^(true|false|1|0)$/.test(v.trim())) faithful = /^(true|1)$/.test(v.trim());
  else if (o === 'move overhead' && /^\d{1,4}$/.test(v.trim())) overhead = +v;
  else if (o === 'hash') note('the hash table has a fixed size (2^24 + 8 entries, 192 MiB): Hash is ignored');
  else note(`error: no option '${shown(name)}' with value '${shown(v)}'`);
}
const open = (t: number): Clock => ({ start: t, allow: Infinity, hard: Infinity, depth: 99, nodes: 2147483647, target: 0 });
function perMove(t: number, ms: number): Clock {       // movetime, st: at most ms
  const c = open(t);
  c.allow = c.hard = Math.max(ms - overhead, 1); c.target = ms;
  return c;
}
function timed(t: number, ms: number, inc: number, mtg: number): Clock { // this move's share of a clock
  const c = open(t), left = Math.max(ms - overhead, 1), cap = left * (mtg === 1 ? 0.8 : 0.4);
  c.target = Math.min(left / (mtg || 30) + inc * 0.75, cap / 2); // the aim; an iteration may start
  c.allow = 1.5 * c.target; c.hard = Math.min(5 * c.target, cap); // if it ends by allow; cut at hard
  return c;
}

async function uci(w: string[], line: string, t: number): Promise<void> { // one UCI command
  const num = (key: string): number | undefined => { const i = w.indexOf(key); return i > 0 && /^-?\d+$/.test(w[i + 1]) ? +w[i + 1] : undefined; };
  if (w[0] === 'uci') return send(`id name micro-Max 3.2 ts ${version()}`, 'id author H.G. Muller (port: micromax-ts)',
    'option name Faithful type check default false', 'option name Move Overhead type spin default 50 min 0 max 9999', 'uciok');
  if (w[0] === 'isready') { if (!searching) await ask({}); return send('readyok'); } // the thread is up
  if (w[0] === 'debug' || w[0] === 'register') return;
  if (w[0] === 'setoption') { const m = /^\s*setoption\s+name\s+(.*?)(?:\s+value\s+(.*))?$/i.exec(line); return option(m?.[1], m?.[2]); }
  if (w[0] === 'stop' || w[0] === 'ponderhit') return stop();
  if (w[0] === 'quit') process.exit(0);
  if (!['ucinewgame', 'position', 'go'].includes(w[0])) return note(`error: unknown command '${shown(line)}'`);
  if (searching) { stop(); await searching; }          // (the GUI should have said stop)
  if (w[0] === 'ucinewgame') { bad = ''; await reach('startpos', START, []); return; }
  if (w[0] === 'position') {
    const i = w.indexOf('moves'), head = w.slice(1, i < 0 ? undefined : i);
    const p = head[0] === 'startpos' && head.length === 1 ? START : head[0] === 'fen' ? fen(head.slice(1).join(' '))
      : 'position wants startpos or fen <FEN>, then moves';
    bad = typeof p === 'string' ? `no position (${p})` : '';
    if (typeof p === 'string') return note(`error: ${bad}`);
    const why = await reach(p === START ? 'startpos' : head.join(' '), p, i < 0 ? [] : w.slice(i + 1));
    return why ? note(`error: ${why}`) : undefined;
  }
  const c = game.pos[game.moves.length].k === 8 ? 'w' : 'b', ms = num(`${c}time`), mt = num('movetime');
  const infinite = w.includes('infinite') || w.includes('ponder'), depth = num('depth'), nodes = num('nodes');
  const lim = mt !== undefined ? perMove(t, mt) : ms !== undefined && !infinite ? timed(t, ms, num(`${c}inc`) ?? 0, num('movestogo') ?? 0) : open(t);
  if (depth !== undefined) lim.depth = Math.max(1, depth);
  if (nodes !== undefined) lim.nodes = Math.min(Math.max(1, nodes), 2147483647);
  if ([ms, mt, depth, nodes].every((x) => x === undefined) && !infinite) lim.nodes = nodeLimit; // a bare go: the C's limit
  if (w.includes('searchmoves') || w.includes('mate')) note('searchmoves and mate are not supported: ignored');
  searching = answer(lim, infinite).finally(() => { searching = undefined; });
}

let force = false, mine = 16, posting = false, mps = 0, base = 0, inc = 0, st = 0, sd = 99, left = 0, since = 0;
async function xboard(w: string[], line: string, t: number): Promise<void> { // one xboard command
  const c = w[0], num = Number(w[1]);
  if (['xboard', 'accepted', 'rejected', 'random', 'computer', 'name', 'hard', 'easy', 'otim', 'draw', 'hint', 'bk'].includes(c)) return;
  if (c === 'protover') return send(`feature myname="micro-Max 3.2 ts ${version()}" setboard=1 ping=1 ` +
    'usermove=1 playother=0 san=0 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 nps=0 debug=1 ' +
    'variants="normal" option="Faithful -check 0" option="Move Overhead -spin 50 0 9999" done=1');
  if (c === 'quit') process.exit(0);
  if (c === '?') return cut();
  if (c === 'ping') { void (searching ?? ask({})).then(() => send(`pong ${shown(w[1] ?? '')}`)); return; }
  if (c === 'post' || c === 'nopost') { posting = c === 'post'; return; }
  if (c === 'option') { const m = /^\s*option\s+([^=]*)(?:=(.*))?$/.exec(line); return option(m?.[1], m?.[2]); }
  if (['time', 'st', 'sd'].includes(c) && !(num >= 0)) return send(`Error (wants a number): ${shown(line)}`);
  if (c === 'time') { left = 10 * num; return; }
  if (c === 'st') { st = 1000 * num; base = 0; return; }
  if (c === 'sd') { sd = Math.max(1, num); return; }
  if (c === 'level') {
    const [m, b, i] = [Number(w[1]), (w[2] ?? '').split(':').map(Number), Number(w[3])];
    if (w.length !== 4 || !(m >= 0 && i >= 0) || b.some((x) => !(x >= 0))) return send(`Error (bad level): ${shown(line)}`);
    mps = m; base = 1000 * (60 * b[0] + (b[1] ?? 0)); inc = 1000 * i; st = 0; since = game.moves.length; return;
  }
  const mv = c === 'usermove' ? w[1] ?? '' : /^[a-h][1-8][a-h][1-8]/.test(c) ? c : undefined;
  if (mv === undefined && !['new', 'force', 'go', 'setboard', 'undo', 'remove', 'result', 'variant'].includes(c))
    return send(`Error (unknown command): ${shown(c)}`);
  abort(); await searching;                            // these end a search, without a move
  if (c === 'new') { force = false; mine = 16; sd = 99; left = since = 0; bad = ''; await reach('startpos', START, []); }
  else if (c === 'variant' && w[1] !== 'normal') send(`Error (only normal chess): ${shown(line)}`);
  else if (c === 'force' || c === 'result') force = true;
  else if (c === 'setboard') {
    const p = fen(line.trim().slice(8));
    bad = typeof p === 'string' ? `no position (${p})` : '';
    if (typeof p === 'string') send(`tellusererror Illegal position: ${p}`); else await reach(`fen ${line.trim().slice(8)}`, p, []);
  } else if (c === 'undo' || c === 'remove') {
    const n = c === 'undo' ? 1 : 2;
    if (game.moves.length < n) send(`Error (no move to take back): ${c}`);
    else await reach(game.key, game.pos[0], game.moves.slice(0, -n));
  } else if (mv !== undefined) { const why = await move(mv); if (why) return send(`Illegal move (${why}): ${shown(mv)}`); }
  const k = game.pos[game.moves.length].k, n = game.moves.length - since;
  if (c === 'go') { force = false; mine = k; }
  if (force || k !== mine || c !== 'go' && mv === undefined) return;
  const lim = st ? perMove(t, st) : base ? timed(t, left || base, inc, mps ? mps - Math.floor(n / 2) % mps : 0) : { ...open(t), nodes: nodeLimit };
  lim.depth = sd;
  searching = answer(lim).finally(() => { searching = undefined; });
}

function begin(): void {                               // the C's set-up, as the GUI side's start
  init();
  START = { b: board.slice(), Q: 0, O: 0, k: 8 };
  game = { key: 'startpos', moves: [], pos: [START], thawed: [] };
}
function protocol(): void {                            // --uci, --xboard: commands in order, one at a time
  begin();
  thread = spawn(); spare = spawn();
  for (const e of [thread, spare]) { e.w.postMessage({ warm: true }); e.warm = true; } // (no search yet)
  const handle = gui === 'uci' ? uci : xboard, LONG = 16384;
  let part = '', chain = Promise.resolve();
  const queue = (line: string, t: number): void => {
    const w = line.trim().split(/\s+/);
    chain = chain.then(() => line.length > LONG ? note(`error: a line of more than ${LONG} bytes is ignored`)
      : w[0] ? handle(w, line, t) : undefined).catch((err: Error) => note(`error: ${err.message}`));
  };
  process.stdin.on('data', (chunk: Buffer) => {
    const t = now(), lines = (part + chunk.toString('latin1')).split('\n');
    part = lines.pop()!.slice(0, LONG + 1);            // a line too long is kept only that far
    for (const l of lines) queue(l.replace(/\r$/, ''), t);
  });
  process.stdin.on('end', () => {                      // the GUI is gone: finish the move, then exit
    queue(part, now());
    void chain.then(async () => { if (endless) stop(); await searching; process.exit(0); });
  });
}

if (isMainThread && process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  options(process.argv.slice(2));
  if (gui) protocol(); else main();
} else if (!isMainThread && workerData instanceof Int32Array) serve(); // an engine thread

// For the tests. The engine goes out as one object: a binding exported by name is read through
// a module cell, and D() reading b, A and itself that way ran 15 % more instructions.
export const engine = { D, board, T, A, ch, int, quot };
export { init, random, srandom, legalMoves, attacked, begin, fen, engineThread, type Pos };
