// Every call of `D()`, as a stream of lines: the C and the port (or a learner's changed copy of
// it), each instrumented mechanically from its source as it is, write the same lines for the same
// search, and so can any other program that follows test/PORTING.md; the line format (below); a
// program run with `--calls` on a named pipe. `npm run calls` writes the C's stream to a file, `npm
// run tree` draws a stream, and `npm run compare -- --calls` reads two side by side and names the
// first call that differs.
//
// How: D() is renamed D0() and a logging D() put in front of it, so every call, the recursive ones
// included, passes through the logger; inside D0() a few statements gain a logging statement that
// changes nothing else: the hash probe (the call's line is written there, with the slot D0() really
// uses), the best move slipped in (`Y & 8`), the king capture (`m = I`), the cut-off (`goto C`,
// `break C`), the end of a pass (label C), the hash store, and the C's commented-out trace line (each
// root pass). The logger reads the board and the hash table and touches neither. The shipped
// micromax.ts is not changed; the instrumented copies are built in a temporary directory.
//
// The instrumented C is itself a program as test/PORTING.md asks of one: `--nodes N` (the node
// limit is a variable, not the literal), `--trace`, and `--calls PATH`, where it writes its stream
// (without it, none). The instrumented port writes to file descriptor 3 (stderr when fd 3 is not
// open).
//
// The lines (test/PORTING.md has the same, for porters), fields separated by one space:
//   % micro-Max 3.2 calls: nodes N[, input sha256 HEX]
//                                   the header, the first line and only there: the root node limit the
//                                   writer ran at (10000000 without --nodes); a program writes it when it
//                                   opens PATH, before anything else; a tool that writes a stream file
//                                   adds the sha256 of the input (npm run calls), which a program cannot
//                                   know before it has read it all
//   @ b0 .. b63                     the board (a8, b8, .. h1: piece codes) before a call from main()
//   > MOVE k q l e J Z E z n N SUM PROBE [^]
//                                   a call, written at its hash probe: the move that led to it, D()'s
//                                   nine arguments, the node count N so far, SUM = Σ (i+1)·b[square i]
//                                   over the 64 squares in the order of '@' (i = 0..63), and the probe
//                                   as D() made it (i: the probe's counter after its loop, 8 less the
//                                   slots passed over because they held other positions):
//                                     e SLOT i           an empty slot (the index of the entry used)
//                                     h SLOT i d v X Y   a slot holding this position: its fields
//                                     f                  8 slots held by others: the dummy entry 0
//                                   and ^ when its move is the caller's best move slipped in first
//                                   (`if (Y & 8) H = y = …` chose its square)
//   # w x y                         in the open call, a move x-y scores m = I: w 1 takes the king
//                                   (`i < 0`), w 0 lands on or beside E after a castling
//   ! d m c X Y                     a pass of the open call ends (label C, before a mate is scored):
//                                   its depth d, best score m, c 1 when `m >= l` ended it (a cut-off),
//                                   else 0; X and Y as D0() holds them
//   s SLOT d v X Y                  the pass stores its result in the hash table: the entry written
//                                   (none when the entry held is kept)
//   = d N m X Y                     a root pass ends: the C's trace line's values as its printf has them,
//                                   d-1 (the pass's depth), N, m, X and Y&0x77 (a square, no flags)
//   < v N                           the call returns v; the node count after it
// MOVE is '-' for a call from main() (a think or a legality check), 'null' for a call on an
// unchanged board (the null-move probe after a pass with no move), else from- and to-square (e2e4,
// e7e8q for a promotion), read from the board before and after: the square the mover vacated (the
// king's, when castling also vacates the rook's) and z, where the piece landed; '?' when not known
// (another program may write '?': MOVE is then not compared).
// Squares are named: E, z, x and y by name (e4) when they hold a square of the 0x88 board (0 to
// 119, no 0x88 bit), else as the number (z 8 a root search, 9 a legality check; E 128, -128 no
// square). X and Y are the C's signed chars, a square with flag bits: the square named by the bits
// 0x77, then +8 when bit 3 is set, then -128 (or +128, for a value from 128 to 255) when bit 7 is.
// Every other field is a decimal integer.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { CannotCompare, compile, cSource, nodeLimitOf, sha256Of, spaced, substitute, traceOf, withLimit,
  type Variant } from './c-oracle.ts';
import { Capped, HeadAndTail, ROOT, crashOf, killGroup, onStopped, started, stderrGist, type Result } from './run.ts';

const DEPTH = 1000;                                    // boards kept for reading moves (deeper: '?')

function replace(src: string, from: RegExp | string, to: string, what: string): string {
  const out = src.replace(from, to);
  if (out === src) throw new Error(`cannot instrument ${what}: ${from} not found`);
  return out;
}

// ---- the C ----------------------------------------------------------------------------------

const C_LOGGER = `/* ---- instrumented by test/support/calls.ts: every call of D() is logged, then D0() runs it */
static FILE *mm_f; static int mm_ply, mm_y, mm_c, mm_hint, mm_trace; static double mm_nodes = LIMIT;
static char mm_b[${DEPTH}][129], mm_mv[8];
static void mm_sq(int v) {
  if (v >= 0 && v < 128 && !(v & 0x88)) fprintf(mm_f, " %c%c", 'a' + (v & 7), '8' - (v >> 4));
  else fprintf(mm_f, " %d", v);
}
static void mm_byte(int v) {
  int u = v & 255;
  if (v < -128 || v > 255) { fprintf(mm_f, " %d", v); return; }
  fprintf(mm_f, " %c%c%s%s", 'a' + (u & 7), '8' - (u >> 4 & 7), u & 8 ? "+8" : "", u & 128 ? v < 0 ? "-128" : "+128" : "");
}
static void mm_name(char *s, int x) { s[0] = 'a' + (x & 7); s[1] = '8' - (x >> 4); }
static void mm_move(int k, int z) {
  int s, x = -1; char *o = mm_b[mm_ply - 1];
  if (mm_ply == 0) { strcpy(mm_mv, "-"); return; }
  if (mm_ply > ${DEPTH}) { strcpy(mm_mv, "?"); return; }
  if (z & M || b[z] == o[z]) { strcpy(mm_mv, "null"); return; }
  for (s = 0; s < 120; s++) if (!(s & M) && o[s] & (24 - k) && !b[s] && (x < 0 || (o[s] & 7) == 4)) x = s;
  if (x < 0) { strcpy(mm_mv, "?"); return; }
  mm_name(mm_mv, x); mm_name(mm_mv + 2, z); mm_mv[4] = (o[x] & 7) < 3 && (b[z] & 7) == 7 ? 'q' : 0; mm_mv[5] = 0;
}
static void mm_board(void) {
  int s; fprintf(mm_f, "@");
  for (s = 0; s < 120; s++) if (!(s & M)) fprintf(mm_f, " %d", b[s]);
  fprintf(mm_f, "\\n");
}
static int mm_sum(void) { int s, c = 0, t = 0; for (s = 0; s < 120; s++) if (!(s & M)) t += ++c * b[s]; return t; }
static void mm_call(int k, int q, int l, int e, int J, int Z, int E, int z, int n, struct _ *a, int i) {
  if (!mm_f) return;
  fprintf(mm_f, "> %s %d %d %d %d %d %d", mm_mv, k, q, l, e, J, Z);
  mm_sq(E); mm_sq(z);
  fprintf(mm_f, " %d %d %d", n, N, mm_sum());
  if (a == A && !a->K) fprintf(mm_f, " f");
  else if (!a->K) fprintf(mm_f, " e %d %d", (int)(a - A), i);
  else { fprintf(mm_f, " h %d %d %d %d", (int)(a - A), i, a->D, a->V); mm_byte(a->X); mm_byte(a->Y); }
  fprintf(mm_f, mm_hint ? " ^\\n" : "\\n");
}
static void mm_take(int w, int x, int y) {
  if (!mm_f) return;
  fprintf(mm_f, "# %d", w); mm_sq(x); mm_sq(y); fprintf(mm_f, "\\n");
}
static void mm_end(int d, int m, int X, int Y) {
  if (!mm_f) return;
  fprintf(mm_f, "! %d %d %d", d, m, mm_c); mm_byte(X); mm_byte(Y); fprintf(mm_f, "\\n"); mm_c = mm_y = 0;
}
static void mm_store(struct _ *a) {
  if (!mm_f) return;
  fprintf(mm_f, "s %d %d %d", (int)(a - A), a->D, a->V); mm_byte(a->X); mm_byte(a->Y); fprintf(mm_f, "\\n");
}
static void mm_pass(int d, int c, int m, int X, int Y) {
  if (!mm_f) return;
  fprintf(mm_f, "= %d %d %d", d, c, m); mm_byte(X); mm_byte(Y); fprintf(mm_f, "\\n");
}
/* ---- end of the logger */
`;
const C_WRAPPER = `/* ---- instrumented: the logging D(), and a main() that reads --nodes, --trace, --calls */
D(k,q,l,e,J,Z,E,z,n)
int k,q,l,e,J,Z,E,z,n;
{ int v, s;
  if (!mm_f) return D0(k, q, l, e, J, Z, E, z, n);
  if (!mm_ply) mm_board();
  mm_move(k, z);
  mm_hint = mm_y;
  if (mm_ply < ${DEPTH}) for (s = 0; s < 129; s++) mm_b[mm_ply][s] = b[s];
  mm_ply++;
  v = D0(k, q, l, e, J, Z, E, z, n);
  mm_ply--;
  mm_y = 0;
  fprintf(mm_f, "< %d %d\\n", v, N);
  return v;
}
int main(int argc, char **argv) {
  int a; char *end;
  for (a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--trace")) mm_trace = 1;
    else if (!strcmp(argv[a], "--nodes") && a + 1 < argc) {
      mm_nodes = strtod(argv[++a], &end);
      if (*end || mm_nodes < 1 || mm_nodes > 2147483647.0 || mm_nodes != (int)mm_nodes) {
        fprintf(stderr, "micromax: --nodes wants a whole number from 1 to 2147483647, not '%s'\\n", argv[a]); return 2;
      }
    } else if (!strcmp(argv[a], "--calls") && a + 1 < argc) {
      if (!(mm_f = fopen(argv[++a], "w"))) { fprintf(stderr, "micromax: cannot write %s\\n", argv[a]); return 2; }
    } else { fprintf(stderr, "micromax: unknown option '%s' (this is the C instrumented: --nodes N, --trace, --calls PATH)\\n", argv[a]); return 2; }
  }
  if (mm_f) fprintf(mm_f, "%% micro-Max 3.2 calls: nodes %.0f\\n", mm_nodes);
  return mm_main();
}
`;

/** The spots of the C's D() and main() that the instrumentation finds, with other spacing allowed. */
const SPOT = {
  D: { re: /^([ \t]*(?:int[ \t]+)?)D(\s*\(\s*k\s*,)/m, what: 'the definition of D() (`D(k,q,l,e,J,Z,E,z,n)`)' },
  probe: { re: new RegExp(`${spaced('if', '(', 'a', '->', 'K')}\\s*(?:!=\\s*0\\s*)?\\)`), what: 'the hash probe\'s use (`if(a->K)`)' },
  hint: { re: new RegExp(`${spaced('if', '(', 'Y', '&', '8', ')')}(?=\\s*\\{?\\s*[Hy]\\s*=)`), what: 'the best move slipped in (`if(Y&8)H=y=...`)' },
  take: { re: new RegExp(`\\b${spaced('m', '=', 'I', ';')}`), what: 'the king capture (`m=I;`)' },
  cut: { re: /goto\s+C\s*;/, what: 'the cut-off (`goto C;`)' },
  end: { re: /(^|[;{}])(\s*)C\s*:(?!:)/m, what: 'the end of a pass (the label `C:`)' },
  store: { re: new RegExp(spaced('a', '->', 'Y', '=', 'Y', ';')), what: 'the hash store (`a->Y=Y;`)' },
  main: { re: /^([ \t]*(?:int[ \t]+)?)main(\s*\(\s*(?:void\s*)?\))/m, what: 'main()' },
} as const;
type Spot = (typeof SPOT)[keyof typeof SPOT];
const at = (text: string, s: Spot, to: (...m: string[]) => string): string => substitute(text, s.re, to, s.what);

/** The C's text with every call of D() logged (see the top), as a program taking --nodes N,
 *  --trace and --calls PATH. A spot it cannot find is a CannotCompare naming it. */
export function instrumentC(text: string): string {
  const limit = nodeLimitOf(text);
  if (limit === undefined) throw new CannotCompare('cannot find the root node limit (`N<1e7`) in the C (MICROMAX_C): is it micro-Max 3.2?');
  const trace = traceOf(text);
  text = withLimit(text, 'mm_nodes');
  text = substitute(text, /\/\*\s*if\s*\(\s*z\s*==\s*8\s*\)\s*printf\s*\([^;]*\)\s*;\s*\*\//, () =>
    `${trace.test}{mm_pass(${trace.args});if(mm_trace)printf(${trace.format},${trace.args});}`, 'the trace line');
  text = at(text, SPOT.probe, (m) => `mm_call(k,q,l,e,J,Z,E,z,n,a,i);${m}`);
  text = at(text, SPOT.hint, () => 'if(mm_y=Y&8)');
  text = at(text, SPOT.take, () => '{m=I;mm_take(i<0,x,y);}');
  text = at(text, SPOT.cut, () => '{mm_c=1;goto C;}');
  text = at(text, SPOT.end, (_m, before, space) => `${before}${space}C:mm_end(d,m,X,Y);`);
  text = at(text, SPOT.store, (m) => `${m}mm_store(a);`);
  text = at(text, SPOT.D, (_m, before, rest) => `${C_LOGGER.replace('LIMIT', String(limit))}${before}D0${rest}`);
  text = at(text, SPOT.main, (_m, before, rest) => `${C_WRAPPER}${before}mm_main${rest}`);
  return text;
}

/** The instrumented C binary of a C source (MICROMAX_C by default), built once and cached: every
 *  node limit is its --nodes, so one binary serves every variant. */
export function buildCallsC(source = cSource()!, opt?: string): string {
  return compile(instrumentC(fs.readFileSync(source, 'utf8')), opt);
}

// ---- the port -------------------------------------------------------------------------------

const PORT_LOGGER = `// ---- instrumented (test/support/calls.ts): every call of D() is logged, then D0() runs it ----
const mm = { out: '', head: false, ply: 0, fd: 3, flip: 0, gone: false, nap: new Int32Array(new SharedArrayBuffer(4)),
  call: (process.env.MICROMAX_CALL ?? '').split(' ').filter(Boolean).map(Number), checks: 0, mv: '', hint: 0,
  b: Array.from({ length: ${DEPTH} }, () => new Int8Array(129)) };
let mmY = 0, mmC = 0;                                  // set by D0(): the best move slipped in; a cut-off
try { fs.fstatSync(3); } catch { mm.fd = 2; }
function mmHead(): void {                              // the header, first (nodeLimit is --nodes by now)
  if (mm.head) return;
  mm.head = true;
  mm.out = \`% micro-Max 3.2 calls: nodes \${nodeLimit}\\n\` + mm.out;
}
function mmFlush(): void {                             // all of it, whatever the pipe does
  mmHead();
  if (mm.gone) return;
  let buf = Buffer.from(mm.out, 'latin1');
  mm.out = '';
  while (buf.length) {
    try { buf = buf.subarray(fs.writeSync(mm.fd, buf)); } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') { mm.gone = true; return; } // the reader went away: end() in D()
      if (code !== 'EAGAIN') throw err;
      Atomics.wait(mm.nap, 0, 0, 5);
    }
  }
}
process.on('exit', mmFlush);
const mmName = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));
const mmSq = (v: number): string => v >= 0 && v < 128 && !(v & 0x88) ? mmName(v) : String(v);
function mmByte(v: number): string {
  if (v < -128 || v > 255) return String(v);
  const u = v & 255;
  return mmName(u & 0x77) + (u & 8 ? '+8' : '') + (u & 128 ? v < 0 ? '-128' : '+128' : '');
}
function mmMove(k: number, z: number): string {
  const o = mm.b[mm.ply - 1];
  if (mm.ply === 0) return '-';
  if (mm.ply > ${DEPTH}) return '?';
  if (z & M || board[z] === o[z]) return 'null';
  let x = -1;
  for (let s = 0; s < 120; s++) if (!(s & M) && o[s] & (24 - k) && !board[s] && (x < 0 || (o[s] & 7) === 4)) x = s;
  if (x < 0) return '?';
  return mmName(x) + mmName(z) + ((o[x] & 7) < 3 && (board[z] & 7) === 7 ? 'q' : '');
}
function mmBoard(): string {
  let s = '@';
  for (let x = 0; x < 120; x++) if (!(x & M)) s += \` \${board[x]}\`;
  return s + '\\n';
}
const mmSquares = Uint8Array.from({ length: 64 }, (_, i) => 16 * (i >> 3) + (i & 7));
function mmSum(): number {
  let t = 0;
  for (let i = 0; i < 64; i++) t += (i + 1) * board[mmSquares[i]];
  return t;
}
function mmCall(k: number, q: number, l: number, e: number, J: number, Z: number, E: number, z: number, n: number,
  a: number, i: number): void {
  const probe = !a && !A.K[a] ? 'f' : !A.K[a] ? \`e \${a} \${i}\`
    : \`h \${a} \${i} \${A.D[a]} \${A.V[a]} \${mmByte(A.X[a])} \${mmByte(A.Y[a])}\`;
  mm.out += \`> \${mm.mv} \${k} \${q} \${l} \${e} \${J} \${Z} \${mmSq(E)} \${mmSq(z)} \${n} \${N} \${mmSum()} \${probe}\`;
  mm.out += mm.hint ? ' ^\\n' : '\\n';
}
function mmTake(w: number, x: number, y: number): void { mm.out += \`# \${w} \${mmSq(x)} \${mmSq(y)}\\n\`; }
function mmEnd(d: number, m: number, X: number, Y: number): void {
  mm.out += \`! \${d} \${m} \${mmC} \${mmByte(X)} \${mmByte(Y)}\\n\`;
  mmC = mmY = 0;
}
function mmStore(a: number): void {
  mm.out += \`s \${a} \${A.D[a]} \${A.V[a]} \${mmByte(A.X[a])} \${mmByte(A.Y[a])}\\n\`;
}
function mmPass(d: number, c: number, m: number, X: number, Y: number): void {
  mm.out += \`= \${d} \${c} \${m} \${mmByte(X)} \${mmByte(Y)}\\n\`;
}
function mmOneCall(): never {                          // MICROMAX_CALL: this call instead of main()'s
  const [k, q, l, e, E, z, n] = mm.call;
  mm.call = []; mm.flip = 0;
  A.K.fill(0);                                         // an empty hash table; J, Z as main() gives them
  D(k, q, l, e, 1, 1, E, z, n);
  quit(0);
}
function D(k: number, q: number, l: number, e: number, J: number, Z: number, E: number, z: number, n: number): number {
  mmHead();
  if (!mm.ply) {                                       // a call from main(): --fen's side, --call
    k ^= mm.flip;
    // --call: the think (z 8), or the legality check (z 9) of the typed line after mm.call[7] others
    if (mm.call.length && (mm.call[5] === 9 ? z === 9 && mm.checks++ === mm.call[7] : z === 8)) return mmOneCall();
    mm.out += mmBoard();
  }
  mm.mv = mmMove(k, z);
  mm.hint = mmY;
  if (mm.ply < ${DEPTH}) mm.b[mm.ply].set(board);
  mm.ply++;
  const v = D0(k, q, l, e, J, Z, E, z, n);
  mm.ply--;
  mmY = 0;
  mm.out += \`< \${v} \${N}\\n\`;
  if (mm.out.length > 1 << 16) mmFlush();
  if (mm.gone) end(0);
  return v;
}
function mmSetUp(): void {                             // MICROMAX_FEN: start from this position
  const text = process.env.MICROMAX_FEN;
  if (!text) return;
  OPENING.b.set(board);
  const p = fen(text);
  if (typeof p === 'string') { writeAll(2, \`micromax: bad FEN: \${p}\\n\`); end(2); }
  board.set(p.b); Q = p.Q; O = p.O; mm.flip = p.k ^ 8;
}
// ---- end of instrumentation ----
`;

/** micromax.ts with every call of D() and every root pass logged, and a few lines of D0() marked
 *  (see the top). With MICROMAX_FEN set, the program starts from that position (after init(); the
 *  side to move by flipping k in main()'s calls); with MICROMAX_CALL="k q l e E z n [c]", its think
 *  (z 8), or the legality check of its typed line after c others (z 9), is that one call, on an
 *  empty hash table, after which it exits. */
export function instrumentPort(src: string): string {
  src = replace(src, /^function D\(k: number,/m, `${PORT_LOGGER}function D0(k: number,`, 'the port (D)');
  src = replace(src, /(\n {2}a \+= i \? j : 0;[^\n]*\n)/, '$1  mmCall(k, q, l, e, J, Z, E, z, n, a, i);\n', 'the port (probe)');
  src = replace(src, 'if (Y & 8) H = y =', 'if (mmY = Y & 8) H = y =', 'the port (best move first)');
  src = replace(src, /(if \(i < 0 \|\|[^\n]*?\)) m = I;/, '$1 { m = I; mmTake(+(i < 0), x, y); }',
    'the port (king capture)');
  src = replace(src, 'break C;', '{ mmC = 1; break C; }', 'the port (cut-off)');
  src = replace(src, 'if (m > I / 4 || m < -I / 4) d = 99;', 'mmEnd(d, m, X, Y); if (m > I / 4 || m < -I / 4) d = 99;',
    'the port (pass end)');
  src = replace(src, 'A.Y[a] = Y;', 'A.Y[a] = Y; mmStore(a);', 'the port (store)');
  src = replace(src, 'if (z === 8) report(d - 1, N, m, X, Y & 0x77);',
    'if (z === 8) { mmPass(d - 1, N, m, X, Y & 0x77); report(d - 1, N, m, X, Y & 0x77); }', 'the port (trace)');
  const init = 'function init(): void { init0(); mmSetUp(); }\nfunction init0(): void {';
  return replace(src, /^function init\(\)(: void)? \{/m, init, 'the port (init)');
}

/** TypeScript to JavaScript (types stripped, as `npm run build` does), cached in the temporary
 *  directory by the text's hash, which every process shares, as the C's binaries are. */
export function transpiled(src: string, name: string): string {
  const dir = path.join(os.tmpdir(), 'micromax-calls-cache');
  const file = path.join(dir, `${name}-${sha256Of(src).slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    const ts = createRequire(path.join(ROOT, 'package.json'))('typescript') as typeof import('typescript');
    const options = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    const js = ts.transpileModule(src, { compilerOptions: options, fileName: `${name}.ts` }).outputText;
    fs.mkdirSync(dir, { recursive: true });
    // written whole, then renamed: a process running it never sees half a file
    const part = `${file}.${process.pid}`;
    fs.writeFileSync(part, js);
    fs.renameSync(part, file);
  }
  return file;
}

/** micromax.ts as it is now, as JavaScript (never a dist/ that may be older): what compare and
 *  conformance run as the port. Compiled once per version of micromax.ts. */
export function buildPort(): string {
  // (its one package, readline-sync, is loaded only at a terminal: the copy needs no import pointed)
  return transpiled(fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8'), 'micromax-fresh');
}

let portFile: string | undefined;
/** The instrumented port (or a changed `copy` of micromax.ts) as JavaScript, run by plain node: tsx would
 *  add half a second of start-up to each of the suite's hundred-odd runs. Compiled once per version. */
export function buildCallsPort(copy?: string): string {
  // a changed copy of micromax.ts (a learner's), instrumented the same way; a line it changed that the
  // instrumentation needs is an Error naming that line's part
  if (copy !== undefined) return transpiled(instrumentPort(fs.readFileSync(copy, 'utf8')), 'micromax-copy-calls');
  if (portFile && fs.existsSync(portFile)) return portFile;
  portFile = transpiled(instrumentPort(fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8')), 'micromax-calls');
  return portFile;
}

// ---- reading the lines ----------------------------------------------------------------------

export type Probe = { slot: number; left: number; d?: number; v?: number; X?: number; Y?: number } | undefined; // undefined: 'f'
export interface Call {
  t: '>'; move: string; k: number; q: number; l: number; e: number; J: number; Z: number;
  E: number; z: number; n: number; N: number; sum: number; probe: Probe; hint: boolean;
}
export interface Return { t: '<'; v: number; N: number }
export interface Pass { t: '='; d: number; N: number; m: number; X: number; Y: number }
export interface PassEnd { t: '!'; d: number; m: number; cut: boolean; X: number; Y: number }
export interface Store { t: 's'; slot: number; d: number; v: number; X: number; Y: number }
export interface Take { t: '#'; king: boolean; x: number; y: number }
export interface Board { t: '@'; b: number[] }          // 64 piece codes, a8 b8 .. h1
export interface Header { t: '%'; nodes: number; input?: string }   // input: the sha256 of its bytes, in hex
export type Event = Call | Return | Pass | PassEnd | Store | Take | Board | Header;

/** The header's words: `% micro-Max 3.2 calls: nodes N`, and a stream file's `, input sha256 HEX`. */
export const HEADER = '% micro-Max 3.2 calls:';
const HEADER_LINE = /^% micro-Max 3\.2 calls: nodes (\d+)(?:, input sha256 ([0-9a-f]{64}))?$/;
/** The header line for these settings. */
const headerLine = (nodes: number, input?: string): string =>
  `${HEADER} nodes ${nodes}${input === undefined ? '' : `, input sha256 ${input}`}`;
/** A header line with the sha256 of its input added (a stream file's, written by a tool that has
 *  the input). */
export function withInput(line: string, input: Buffer | string): string {
  const h = parse(line);
  if (h.t !== '%') throw new BadLine('not a header line');
  return headerLine(h.nodes, sha256Of(input));
}

/** A line that is not one of the stream's. */
export class BadLine extends Error {}

const SQUARE = /^([a-h])([1-8])$/;
const BYTE = /^([a-h])([1-8])(\+8)?([+-]128)?$/;
const INT = /^-?\d+$/;

/** A square field: a square's name (e4 is 0x44 - 0x10 ... as the 0x88 board numbers it), or a number. */
function sqValue(w: string): number {
  const m = SQUARE.exec(w);
  if (m) return 16 * (56 - m[2].charCodeAt(0)) + m[1].charCodeAt(0) - 97;
  if (INT.test(w)) return Number(w);
  throw new BadLine(`'${w}' is neither a square (e4) nor a number`);
}
/** A char field: square, +8, ±128 (or a number, outside a byte). */
function byteValue(w: string): number {
  const m = BYTE.exec(w);
  if (m) return sqValue(m[1] + m[2]) + (m[3] ? 8 : 0) + (m[4] ? Number(m[4]) : 0);
  if (INT.test(w)) return Number(w);
  throw new BadLine(`'${w}' is not a square with flags (e4, e4+8, e4-128)`);
}
function intValue(w: string | undefined): number {
  if (w === undefined || !INT.test(w)) throw new BadLine(`'${w ?? ''}' is not a whole number`);
  return Number(w);
}

/** A square as the stream writes it (e4), or the number. */
export const sqText = (v: number): string =>
  v >= 0 && v < 128 && !(v & 0x88) ? 'abcdefgh'[v & 7] + (8 - (v >> 4)) : String(v);
/** A char field as the stream writes it. */
export function byteText(v: number): string {
  if (v < -128 || v > 255) return String(v);
  const u = v & 255;
  return sqText(u & 0x77) + (u & 8 ? '+8' : '') + (u & 128 ? v < 0 ? '-128' : '+128' : '');
}

const count = (w: string[], n: number, what: string): void => {
  if (w.length !== n) throw new BadLine(`${what} has ${n - 1} fields, not ${w.length - 1}`);
};

function parseCall(w: string[]): Call {
  const hint = w.at(-1) === '^', f = hint ? w.slice(0, -1) : w;
  if (f.length < 14) throw new BadLine(`a call line has at least 13 fields, not ${f.length - 1}`);
  const [k, q, l, e, J, Z] = f.slice(2, 8).map(intValue);
  const [E, z] = f.slice(8, 10).map(sqValue);
  const [n, N, sum] = f.slice(10, 13).map(intValue);
  const kind = f[13];
  let probe: Probe;
  if (kind === 'f' && f.length === 14) probe = undefined;
  else if (kind === 'e' && f.length === 16) probe = { slot: intValue(f[14]), left: intValue(f[15]) };
  else if (kind === 'h' && f.length === 20) {
    probe = { slot: intValue(f[14]), left: intValue(f[15]), d: intValue(f[16]), v: intValue(f[17]), X: byteValue(f[18]),
      Y: byteValue(f[19]) };
  } else throw new BadLine(`the probe is 'f', 'e SLOT i' or 'h SLOT i d v X Y', not '${f.slice(13).join(' ')}'`);
  if (!/^(-|null|\?|[a-h][1-8][a-h][1-8]q?)$/.test(f[1])) throw new BadLine(`'${f[1]}' is not a move (e2e4, -, null, ?)`);
  return { t: '>', move: f[1], k, q, l, e, J, Z, E, z, n, N, sum, probe, hint };
}

/** One line of the stream, read; BadLine when it is not one. */
export function parse(line: string): Event {
  const w = line.split(' ');
  switch (w[0]) {
    case '<': count(w, 3, 'a return'); return { t: '<', v: intValue(w[1]), N: intValue(w[2]) };
    case '=': count(w, 6, 'a root pass');
      return { t: '=', d: intValue(w[1]), N: intValue(w[2]), m: intValue(w[3]), X: byteValue(w[4]), Y: byteValue(w[5]) };
    case '!': count(w, 6, 'a pass end');
      if (w[3] !== '0' && w[3] !== '1') throw new BadLine(`c is 0 or 1, not '${w[3]}'`);
      return { t: '!', d: intValue(w[1]), m: intValue(w[2]), cut: w[3] === '1', X: byteValue(w[4]), Y: byteValue(w[5]) };
    case 's': count(w, 6, 'a store');
      return { t: 's', slot: intValue(w[1]), d: intValue(w[2]), v: intValue(w[3]), X: byteValue(w[4]), Y: byteValue(w[5]) };
    case '#': count(w, 4, 'a king capture');
      if (w[1] !== '0' && w[1] !== '1') throw new BadLine(`w is 0 or 1, not '${w[1]}'`);
      return { t: '#', king: w[1] === '1', x: sqValue(w[2]), y: sqValue(w[3]) };
    case '@': count(w, 65, 'a board'); return { t: '@', b: w.slice(1).map(intValue) };
    case '>': return parseCall(w);
    case '%': {
      const m = HEADER_LINE.exec(line);
      if (!m) throw new BadLine(`a header line is '${HEADER} nodes N' (and ', input sha256 HEX' in a file a tool wrote)`);
      return { t: '%', nodes: Number(m[1]), ...m[2] ? { input: m[2] } : {} };
    }
    default: throw new BadLine(`a line starts with one of % @ > # ! s = <, not ${JSON.stringify(w[0].slice(0, 20))}`);
  }
}

/** Where a stream's lines come from: a pipe or a file as it is read (Lines), or lines in memory. */
export interface LineSource {
  ready(): string | undefined;                         // the next line, if it is here already
  next(): Promise<string | undefined>;                 // the next line; undefined at the end
}

/** Lines kept in memory, as a LineSource (each read once). */
export function fromArray(lines: string[]): LineSource {
  let at = 0;
  return { ready: () => lines[at++], next: async () => lines[at++] };
}

/** Lines from a stream, pulled as they are read: the writer waits while this reader does. A last
 *  line without its newline was cut short (a program stopped while writing it): it is not given
 *  as a line, and `cut` says which line it was (1 the first). */
export class Lines implements LineSource {
  private it: AsyncIterator<Buffer>;
  private first: Promise<IteratorResult<Buffer>> | undefined;
  private part = '';
  private lines: string[] = [];
  private at = 0;
  private ended = false;
  private count = 0;                                   // whole lines read so far
  cut: number | undefined;
  // Reading starts at once: a child's pipe that nothing reads yet when the child exits is resumed
  // by Node (its stdio flushed) and its data dropped, so a program quick to end (typed moves
  // only) seemed to write no stream while the C's first line was awaited.
  constructor(stream: NodeJS.ReadableStream) {
    this.it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    this.first = this.it.next();
    this.first.catch(() => { /* the reader gets it from next() */ });
  }
  /** The next line if it has been read already (no waiting), else undefined. */
  ready(): string | undefined {
    return this.at < this.lines.length ? this.lines[this.at++] : undefined;
  }
  async next(): Promise<string | undefined> {
    while (this.at >= this.lines.length) {
      if (this.ended) return undefined;
      const r = await (this.first ?? this.it.next());
      this.first = undefined;
      if (r.done) {
        this.ended = true;
        this.lines = [];
        if (this.part) this.cut = this.count + 1;
        this.part = '';
      } else {
        const text = this.part + r.value.toString('latin1');
        this.lines = (text.includes('\r') ? text.replace(/\r\n/g, '\n') : text).split('\n');
        this.part = this.lines.pop()!;
        this.count += this.lines.length;
      }
      this.at = 0;
    }
    return this.lines[this.at++];
  }
}

export interface Running {
  child: ChildProcess; lines: Lines; stdout: Promise<Buffer>; stderr: Promise<string>; done: Promise<number | null>;
  signal: () => NodeJS.Signals | null;                 // how it ended, once done
  ended: () => boolean;                                // it has ended
  stop: () => void;                                    // ends it, and the reading
  limit: { bytes: number };                            // a program printing more is stopped
  overran: () => boolean;                              // ... and this says so (stdout is then cut there)
}

/** Who writes a stream: the C (built from MICROMAX_C, or env.MICROMAX_C), the port, a changed copy of
 *  micromax.ts (a learner's: instrumented as the port is), or a program given as a shell command line. */
export type Side = 'C' | 'port' | { copy: string } | { program: string };

// The named pipes' folders not yet removed, removed at exit (a tool may end before a stream closes).
const pipeDirs = new Set<string>();
const removePipes = (): void => { for (const dir of pipeDirs) fs.rmSync(dir, { recursive: true, force: true }); };
process.on('exit', removePipes);
onStopped(removePipes);

/** A named pipe that a program opens by its path (--calls PATH) and this process reads as it is
 *  written. (Node's own pipes to a child are sockets, which a program cannot open by a path.) The
 *  pipe is held open for writing here too, so that it reads as ended only after `close()` and the
 *  program's end: a program that never opens it makes an empty stream, not a hang. */
function namedPipe(): { path: string; stream: net.Socket; close: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-calls-'));
  const file = path.join(dir, 'calls');
  const made = spawnSync('mkfifo', [file]);
  if (made.status !== 0) throw new CannotCompare(`cannot make a named pipe (mkfifo) in ${dir}`);
  const rfd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  let wfd: number | undefined = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
  const stream = new net.Socket({ fd: rfd, readable: true, writable: false });
  stream.on('error', () => { /* a reader that stops early */ });
  pipeDirs.add(dir);
  stream.on('close', () => { fs.rmSync(dir, { recursive: true, force: true }); pipeDirs.delete(dir); });
  const close = (): void => {
    if (wfd !== undefined) fs.closeSync(wfd);
    wfd = undefined;
  };
  return { path: file, stream, close };
}

/** Runs an instrumented program on input, with `--nodes N` and `--trace` as the variant has them;
 *  its calls come as lines, its stdout as a whole. The C and a program write them to a named pipe
 *  (--calls PATH), the port to its fd 3. */
export function runCalls(side: Side, input: Buffer | string, v: Variant = {},
  env: NodeJS.ProcessEnv = {}): Running {             // (env.MICROMAX_C: the C to build)
  const nodes = [...v.nodes !== undefined ? ['--nodes', String(v.nodes)] : [], ...v.trace ? ['--trace'] : []];
  const copy = typeof side === 'object' && 'copy' in side ? side.copy : undefined;
  const built = side === 'C' ? buildCallsC(env.MICROMAX_C ?? cSource(), v.opt) : side === 'port' || copy !== undefined ?
    buildCallsPort(copy) : '';
  const port = side !== 'C' && built !== '';          // the port, or a copy of it: its stream on fd 3
  const pipe = port ? undefined : namedPipe();         // (made once nothing can fail: it holds the process)
  const calls = pipe ? ['--calls', pipe.path] : [];
  const [cmd, argv, shell] = side === 'C' ? [built, [...nodes, ...calls], false]
    : port ? [process.execPath, [built, ...nodes], false]
      : [[(side as { program: string }).program, ...nodes, ...calls].join(' '), [], true];
  const program = typeof side === 'object' && 'program' in side;   // its stderr is kept for the report, not shown
  const stdio = ['pipe', 'pipe', program ? 'pipe' : 'inherit', pipe ? 'ignore' : 'pipe'] as const; // port: fd 3
  const cwd = program ? process.env.INIT_CWD ?? process.cwd() : ROOT;   // (a program: where npm was run)
  const child = spawn(cmd, argv, { cwd, stdio: [...stdio], env: { ...process.env, ...env }, shell, detached: program });
  started(child, program);
  const err = new HeadAndTail();
  const limit = { bytes: program ? 1 << 28 : Infinity };
  const out = new Capped(limit);                       // a program that prints for ever is stopped
  child.stdout!.on('data', (d: Buffer) => { if (out.add(d)) killGroup(child); });
  child.stderr?.on('data', (d: Buffer) => err.add(d));
  child.stdin!.on('error', () => { /* it may stop reading early */ });
  child.on('error', () => { /* a program that cannot start: its close comes with a code */ });
  child.stdin!.end(input);
  let signal: NodeJS.Signals | null = null, ended = false;
  const done = new Promise<number | null>((resolve) => child.on('close', (code, sig) => {
    signal = sig;
    ended = true;
    pipe?.close();
    resolve(code);
  }));
  const lines = new Lines(pipe ? pipe.stream : child.stdio[3] as NodeJS.ReadableStream);
  const stop = (): void => {
    if (program) killGroup(child); else child.kill();
    pipe?.close();
    pipe?.stream.destroy();
  };
  return { child, lines, stop, limit, overran: () => out.overran, stdout: done.then(() => out.bytes()),
    stderr: done.then(() => err.text()), done, signal: () => signal, ended: () => ended };
}

/** A run's end as a Result (what run.ts's reports read), once it has ended. */
export async function resultOf(r: Running): Promise<Result> {
  const [stdout, stderr, code] = await Promise.all([r.stdout, r.stderr, r.done]);
  return { stdout, stderr, code, signal: r.signal(), overran: r.overran() };
}

/** How a program ended, in words: 'it exited with code 0', 'it crashed: exit 1 (its stderr: Exception
 *  in thread "main" java.lang.StackOverflowError)', 'it crashed: signal SIGSEGV'. */
export async function howEnded(r: Running): Promise<string> {
  const res = await resultOf(r);
  if (res.overran) return 'it was stopped for printing 16 kB more than the C';
  const crash = crashOf(res), said = stderrGist(res.stderr);
  return crash ? `it crashed: ${crash}${said ? ` (its stderr: ${said})` : ''}` : `it exited with code ${res.code}`;
}

export const I = 8000, S = 128;                       // the engine's infinity, and its bit 7 (micromax.ts)
export const square = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4)); // 0x88 to e2

/** What a call's hash probe found, in words: an entry's depth and score, and whether they answer
 *  the call at once (no node counted) or are where its passes start from. */
export function probed(c: Call): string {
  const p = c.probe;
  if (!p) return 'full';
  if (p.d === undefined) return 'empty';
  const answers = p.d >= c.n && (p.v! >= c.l || (p.X! & S) !== 0) && (p.v! <= c.q || (p.X! & 8) !== 0);
  return `d ${p.d} v ${p.v}: ${answers ? 'answer' : 'deepen'}`;
}

/** The arguments of a call as the guide writes them (the keys J and Z left out unless asked). */
export const args = (c: Call, keys = false): string =>
  `D(${[c.k, c.q, c.l, c.e, ...(keys ? [c.J, c.Z] : []), c.E, c.z, c.n].join(', ')})`;
