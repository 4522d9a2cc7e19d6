// micromax-ts: H.G. Muller's micro-Max 3.2 chess program, ported line for line
// from its C original. Read it beside annotated/ for the why of every line.
// Part 1 is the engine (same names, same order as the C); part 2 is the shell.

import * as fs from 'node:fs';
import { isatty } from 'node:tty';
import { pathToFileURL } from 'node:url';
import * as v8 from 'node:v8';
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
const live = atTerminal && isatty(2);                  // the progress line while it thinks
let play = 0, pretty = false;                          // --play: the player's side; --pretty board
let feed = false;                                      // --play: read an empty line next
let prompt = '', depth = 0, score = 0, started = 0;    // last think: depth, score, start time

function say(s: string): void { if (atTerminal) writeAll(2, s); }
const secs = (): string => ((performance.now() - started) / 1000).toFixed(1);
const sq = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4)); // 0x88 square to e2
const side = (k: number): string => k === 8 ? 'white' : 'black';

function think(k: number): void {                      // the C's think, timed, progress cleared
  started = performance.now(); depth = 0;
  score = D(k, -I, I, Q, 1, 1, O, 8, 0);
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
function ending(k: number): string {                   // '' while side k can move
  if (legalMoves(board, k, O).length) return '';
  return attacked(board, kingOf(board, k), 24 - k) ? `checkmate, ${side(24 - k)} wins` : 'stalemate, a draw';
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
    `score ${score}, ${secs()} s)\n`);
  else if (!ok && !over) say(stuck ? 'micro-Max will not move after an illegal move until a legal one ' +
    'is typed (so does the original)\n' : 'micro-Max found no move (try a larger --nodes)\n');
  if (typed !== undefined || ok) stuck = !ok;
}

const USAGE = `usage: micromax.ts [--nodes N] [--trace] [--play white|black] [--pretty] [--help] [--version]
  --nodes N       stop deepening after N nodes (default 10000000, the original's 1e7)
  --trace         after each root iteration print the line the original has commented out
  --play SIDE     you play SIDE (white or black): micro-Max answers each move you type
  --pretty        when stdout is a terminal: a board with rank and file labels (Unicode on UTF-8)
  --help          this text
  --version       the version
Type a move as e2e4; an empty line lets micro-Max move; end of input (Ctrl-D) quits.
`;
function options(argv: string[]): void {               // one line on stderr and exit 2 if bad
  const fail = (msg: string): never => {
    process.stderr.write(`micromax: ${msg} (see --help)\n`);
    process.exit(2);
  };
  for (let a = 0; a < argv.length; a++) {
    if (argv[a] === '--trace') trace = true;
    else if (argv[a] === '--pretty') pretty = isatty(1);  // only stdout at a terminal changes
    else if (argv[a] === '--help') { process.stdout.write(USAGE); process.exit(0); }
    else if (argv[a] === '--version') {
      const pkg = JSON.parse(fs.readFileSync(new URL('package.json', import.meta.url), 'utf8')) as { version: string };
      process.stdout.write(`micromax-ts ${pkg.version}\n`); process.exit(0);
    } else if (argv[a] === '--play') {
      const v = argv[++a];
      if (v !== 'white' && v !== 'black') fail(`--play needs white or black, not ${v === undefined ? 'nothing' : `'${v}'`}`);
      play = v === 'white' ? 8 : 16;
    } else if (argv[a] === '--nodes') {
      const v = argv[++a];
      if (v === undefined) fail('--nodes needs a number');
      const x = Number(v);
      if (!/^\s*[0-9.e+]+\s*$/i.test(v) || !Number.isInteger(x) || x < 1 || x > 2147483647)
        fail(`--nodes wants a whole number from 1 to 2147483647, not '${v}'`);
      nodeLimit = x;
    } else fail(`unknown option '${argv[a]}'`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  options(process.argv.slice(2));
  main();
}

// For the tests. The engine goes out as one object: a binding exported by name is read through
// a module cell, and D() reading b, A and itself that way ran 15 % more instructions.
export const engine = { D, board, T, A, ch, int, quot };
export { init, random, srandom, legalMoves, attacked };
