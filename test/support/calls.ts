// Every call of D(), as a stream of lines: the C and the port, each instrumented mechanically from
// its source as it is, write the same lines for the same search. `npm run tree` draws the port's
// stream; `npm run compare -- --calls` reads both side by side and names the first call that differs.
//
// How: D() is renamed D0() and a logging D() put in front of it, so every call, the recursive ones
// included, passes through the logger; the C's commented-out trace line logs each root pass, and
// four lines of D0() (part 1, the same four in the C) gain a logging statement that changes nothing
// else: the best move slipped in (`Y & 8`), the king capture (`m = I`), the cut-off (`goto C`,
// `break C`) and the end of a pass (label C). The logger reads the board and the hash table as they
// are at the call and touches neither. The shipped micromax.ts is not changed, and the instrumented
// copies are built in a temporary directory (the C's among the cached binaries).
//
// The lines, on file descriptor 3 (stderr when fd 3 is not open):
//   @ b0 .. b63                        the board (a8, b8, .. h1: piece codes) before a call from main()
//   > MOVE k q l e J Z E z n N PROBE [^]   a call: the move that led to it, D()'s nine arguments,
//                                      the node count so far, and what the hash probe finds:
//                                        e SLOT             an empty slot
//                                        h SLOT d v X Y     an entry with this lock, and its fields
//                                        f                  8 slots held by others (the dummy entry)
//                                      and ^ when its move is the caller's best move slipped in
//                                      first (`if (Y & 8) H = y = …` chose its square)
//   # w x y                            in the open call, a move x-y scores m = I: w 1 takes the king
//                                      (`i < 0`), w 0 lands on or beside E after a castling
//   ! d m c X Y                        a pass of the open call ends (label C, before a mate is
//                                      scored): its depth d, best score m, c 1 when `m >= l` ended
//                                      it (a cut-off), else 0; X and Y as D0() holds them
//   < v N                              the call returns v; the node count after it
//   = d N m X Y                        a root pass ends (the C's trace line: ply, nodes, score, move)
// MOVE is '-' for a call from main() (a think or a legality check), 'null' for a call on an
// unchanged board (the null-move probe after a pass with no move), else from- and to-square (e2e4,
// e7e8q for a promotion), read from the board before and after: the square the mover vacated (the
// king's, when castling also vacates the rook's) and z, where the piece landed.

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile, cSource, variantSource, type Variant } from './c-oracle.ts';
import { ROOT } from './run.ts';

const DEPTH = 1000;                                    // boards kept for reading moves (deeper: '?')

function replace(src: string, from: RegExp | string, to: string, what: string): string {
  const out = src.replace(from, to);
  if (out === src) throw new Error(`cannot instrument ${what}: ${from} not found`);
  return out;
}

// ---- the C ----------------------------------------------------------------------------------

const C_LOGGER = `static FILE *mm_f; static int mm_ply, mm_y, mm_c; static char mm_b[${DEPTH}][129];
static FILE *mm_out() { if (!mm_f && !(mm_f = fdopen(3, "w"))) mm_f = stderr; return mm_f; }
static void mm_sq(char *s, int x) { s[0] = 'a' + (x & 7); s[1] = '8' - (x >> 4); }
static void mm_move(char *mv, int k, int z) {
  int s, x = -1; char *o = mm_b[mm_ply - 1];
  if (mm_ply == 0) { strcpy(mv, "-"); return; }
  if (mm_ply > ${DEPTH}) { strcpy(mv, "?"); return; }
  if (z & M || b[z] == o[z]) { strcpy(mv, "null"); return; }
  for (s = 0; s < 120; s++) if (!(s & M) && o[s] & 24 - k && !b[s] && (x < 0 || (o[s] & 7) == 4)) x = s;
  if (x < 0) { strcpy(mv, "?"); return; }
  mm_sq(mv, x); mm_sq(mv + 2, z); mv[4] = (o[x] & 7) < 3 && (b[z] & 7) == 7 ? 'q' : 0; mv[5] = 0;
}
static void mm_board() {
  int s; fprintf(mm_out(), "@");
  for (s = 0; s < 120; s++) if (!(s & M)) fprintf(mm_out(), " %d", b[s]);
  fprintf(mm_out(), "\\n");
}
static void mm_take(int w, int x, int y) { fprintf(mm_out(), "# %d %d %d\\n", w, x, y); }
static void mm_end(int d, int m, int X, int Y) {
  fprintf(mm_out(), "! %d %d %d %d %d\\n", d, m, mm_c, X, Y); mm_c = mm_y = 0;
}
static void mm_pass(int d, int c, int m, int X, int Y) { fprintf(mm_out(), "= %d %d %d %d %d\\n", d, c, m, X, Y); }
`;
const C_WRAPPER = `D(k,q,l,e,J,Z,E,z,n)
int k,q,l,e,J,Z,E,z,n;
{ int v, j, h, i = 8, s, hint = mm_y; char mv[8]; struct _ *a = A; FILE *f = mm_out();
  if (!mm_ply) mm_board();
  mm_move(mv, k, z);
  j = (k * E ^ J) & U - 9;
  while ((h = A[++j].K) && h - Z && --i);
  a += i ? j : 0;
  fprintf(f, "> %s %d %d %d %d %d %d %d %d %d %d ", mv, k, q, l, e, J, Z, E, z, n, N);
  if (!i) fprintf(f, "f");
  else if (!a->K) fprintf(f, "e %d", j);
  else fprintf(f, "h %d %d %d %d %d", j, a->D, a->V, a->X, a->Y);
  fprintf(f, hint ? " ^\\n" : "\\n");
  if (mm_ply < ${DEPTH}) for (s = 0; s < 129; s++) mm_b[mm_ply][s] = b[s];
  mm_ply++;
  v = D0(k, q, l, e, J, Z, E, z, n);
  mm_ply--;
  mm_y = 0;
  fprintf(f, "< %d %d\\n", v, N);
  return v;
}

`;

/** The C source, as `variantSource` makes it, with every call of D() and every root pass logged. */
export function instrumentC(text: string): string {
  text = replace(text, /^D\(k,q,l,e,J,Z,E,z,n\)/m, `${C_LOGGER}D0(k,q,l,e,J,Z,E,z,n)`, 'the C (D)');
  text = replace(text, 'if(Y&8)H=y=Y&~M;', 'if(mm_y=Y&8)H=y=Y&~M;', 'the C (best move first)');
  text = replace(text, /(if\(i<0\|\|[^;\n]*\))m=I;/, '$1{m=I;mm_take(i<0,x,y);}', 'the C (king capture)');
  text = replace(text, 'goto C;', '{mm_c=1;goto C;}', 'the C (cut-off)');
  text = replace(text, /^C:/m, 'C:mm_end(d,m,X,Y);', 'the C (pass end)');
  text = replace(text, /\/\*(if\(z==8\))(printf\([^\n]*?\);)\*\//, '$1mm_pass(d-1,N,m,X,Y&0x77);', 'the C (trace)');
  return replace(text, /^main\(\)/m, `${C_WRAPPER}main()`, 'the C (main)');
}

/** The instrumented C binary for a variant (--nodes), built once and cached. */
export function buildCallsC(v: Variant = {}, source = cSource()!): string {
  return compile(instrumentC(variantSource(fs.readFileSync(source, 'utf8'), { nodes: v.nodes })), v.opt);
}

// ---- the port -------------------------------------------------------------------------------

const PORT_LOGGER = `// ---- instrumented (test/support/calls.ts): every call of D() is logged, then D0() runs it ----
const mm = { out: '', ply: 0, fd: 3, flip: 0, gone: false, nap: new Int32Array(new SharedArrayBuffer(4)),
  call: (process.env.MICROMAX_CALL ?? '').split(' ').filter(Boolean).map(Number),
  b: Array.from({ length: ${DEPTH} }, () => new Int8Array(129)) };
let mmY = 0, mmC = 0;                                  // set by D0(): the best move slipped in; a cut-off
try { fs.fstatSync(3); } catch { mm.fd = 2; }
function mmFlush(): void {                             // all of it, whatever the pipe does
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
const mmSq = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));
function mmMove(k: number, z: number): string {
  const o = mm.b[mm.ply - 1];
  if (mm.ply === 0) return '-';
  if (mm.ply > ${DEPTH}) return '?';
  if (z & M || board[z] === o[z]) return 'null';
  let x = -1;
  for (let s = 0; s < 120; s++) if (!(s & M) && o[s] & 24 - k && !board[s] && (x < 0 || (o[s] & 7) === 4)) x = s;
  if (x < 0) return '?';
  return mmSq(x) + mmSq(z) + ((o[x] & 7) < 3 && (board[z] & 7) === 7 ? 'q' : '');
}
function mmBoard(): string {
  let s = '@';
  for (let x = 0; x < 120; x++) if (!(x & M)) s += \` \${board[x]}\`;
  return s + '\\n';
}
function mmTake(w: number, x: number, y: number): void { mm.out += \`# \${w} \${x} \${y}\\n\`; }
function mmEnd(d: number, m: number, X: number, Y: number): void {
  mm.out += \`! \${d} \${m} \${mmC} \${X} \${Y}\\n\`;
  mmC = mmY = 0;
}
function mmPass(d: number, c: number, m: number, X: number, Y: number): void {
  mm.out += \`= \${d} \${c} \${m} \${X} \${Y}\\n\`;
}
function mmCall(): never {                             // MICROMAX_CALL: this call instead of the think
  const [k, q, l, e, E, z, n] = mm.call;
  mm.call = []; mm.flip = 0;
  A.K.fill(0);                                         // an empty hash table; J, Z as main() gives them
  D(k, q, l, e, 1, 1, E, z, n);
  quit(0);
}
function D(k: number, q: number, l: number, e: number, J: number, Z: number, E: number, z: number, n: number): number {
  if (!mm.ply) {                                       // a call from main(): --fen's side, --call
    k ^= mm.flip;
    if (mm.call.length && z === 8) return mmCall();
    mm.out += mmBoard();
  }
  const hint = mmY;
  let j = (k * E ^ J) & U - 9, i = 8, h = 0;
  while ((h = A.K[++j]) && h !== Z && --i);
  const a = i ? j : 0;
  const probe = !i ? 'f' : !A.K[a] ? \`e \${j}\` : \`h \${j} \${A.D[a]} \${A.V[a]} \${A.X[a]} \${A.Y[a]}\`;
  mm.out += \`> \${mmMove(k, z)} \${k} \${q} \${l} \${e} \${J} \${Z} \${E} \${z} \${n} \${N} \${probe}\`;
  mm.out += hint ? ' ^\\n' : '\\n';
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

/** micromax.ts with every call of D() and every root pass logged, and four lines of D0() marked
 *  (see the top). With MICROMAX_FEN set, the program starts from that position (after init(); the
 *  side to move by flipping k in main()'s calls); with MICROMAX_CALL="k q l e E z n", its think is
 *  that one call, on an empty hash table, after which it exits. */
export function instrumentPort(src: string): string {
  const readline = pathToFileURL(createRequire(path.join(ROOT, 'package.json')).resolve('readline-sync')).href;
  src = replace(src, "from 'readline-sync';", `from '${readline}';`, 'the port (import)');
  src = replace(src, /^function D\(k: number,/m, `${PORT_LOGGER}function D0(k: number,`, 'the port (D)');
  src = replace(src, 'if (Y & 8) H = y =', 'if (mmY = Y & 8) H = y =', 'the port (best move first)');
  src = replace(src, /(if \(i < 0 \|\|[^\n]*?\)) m = I;/, '$1 { m = I; mmTake(+(i < 0), x, y); }',
    'the port (king capture)');
  src = replace(src, 'break C;', '{ mmC = 1; break C; }', 'the port (cut-off)');
  src = replace(src, 'if (m > I / 4 || m < -I / 4) d = 99;', 'mmEnd(d, m, X, Y); if (m > I / 4 || m < -I / 4) d = 99;',
    'the port (pass end)');
  src = replace(src, 'if (z === 8) report(d - 1, N, m, X, Y & 0x77);',
    'if (z === 8) { mmPass(d - 1, N, m, X, Y & 0x77); report(d - 1, N, m, X, Y & 0x77); }', 'the port (trace)');
  const init = 'function init(): void { init0(); mmSetUp(); }\nfunction init0(): void {';
  return replace(src, /^function init\(\)(: void)? \{/m, init, 'the port (init)');
}

let portFile: string | undefined;
/** The instrumented port as JavaScript, run by plain node: tsx would add half a second of start-up
 *  to each of the suite's hundred-odd runs. Compiled once per version of micromax.ts (TypeScript's
 *  transpileModule, as `npm run build` strips types) into a cache in the temporary directory, which
 *  every process shares, as the C's binaries are. */
export function buildCallsPort(): string {
  if (portFile && fs.existsSync(portFile)) return portFile;
  const src = instrumentPort(fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8'));
  const dir = path.join(os.tmpdir(), 'micromax-calls-cache');
  const file = path.join(dir, `micromax-calls-${createHash('sha256').update(src).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    const ts = createRequire(path.join(ROOT, 'package.json'))('typescript') as typeof import('typescript');
    const options = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    const js = ts.transpileModule(src, { compilerOptions: options, fileName: 'micromax-calls.ts' }).outputText;
    fs.mkdirSync(dir, { recursive: true });
    // written whole, then renamed: a process running it never sees half a file
    const part = `${file}.${process.pid}`;
    fs.writeFileSync(part, js);
    fs.renameSync(part, file);
  }
  portFile = file;
  return file;
}

// ---- reading the lines ----------------------------------------------------------------------

export type Probe = { slot: number; d?: number; v?: number; X?: number; Y?: number } | undefined; // undefined: 'f'
export interface Call {
  t: '>'; move: string; k: number; q: number; l: number; e: number; J: number; Z: number;
  E: number; z: number; n: number; N: number; probe: Probe; hint: boolean;
}
export interface Return { t: '<'; v: number; N: number }
export interface Pass { t: '='; d: number; N: number; m: number; X: number; Y: number }
export interface PassEnd { t: '!'; d: number; m: number; cut: boolean; X: number; Y: number }
export interface Take { t: '#'; king: boolean; x: number; y: number }
export interface Board { t: '@'; b: number[] }          // 64 piece codes, a8 b8 .. h1
export type Event = Call | Return | Pass | PassEnd | Take | Board;

function parseCall(w: string[], num: number[]): Call {
  const [k, q, l, e, J, Z, E, z, n, N] = num.slice(2, 12);
  const hint = w.at(-1) === '^';
  const probe: Probe = w[12] === 'f' ? undefined : w[12] === 'e' ? { slot: num[13] }
    : { slot: num[13], d: num[14], v: num[15], X: num[16], Y: num[17] };
  return { t: '>', move: w[1], k, q, l, e, J, Z, E, z, n, N, probe, hint };
}

export function parse(line: string): Event {
  const w = line.split(' '), num = w.map(Number);
  if (w[0] === '<' && w.length === 3) return { t: '<', v: num[1], N: num[2] };
  if (w[0] === '=' && w.length === 6) return { t: '=', d: num[1], N: num[2], m: num[3], X: num[4], Y: num[5] };
  if (w[0] === '!' && w.length === 6) return { t: '!', d: num[1], m: num[2], cut: num[3] === 1, X: num[4], Y: num[5] };
  if (w[0] === '#' && w.length === 4) return { t: '#', king: num[1] === 1, x: num[2], y: num[3] };
  if (w[0] === '@' && w.length === 65) return { t: '@', b: num.slice(1) };
  if (w[0] === '>' && w.length >= 13) return parseCall(w, num);
  throw new Error(`not a line of the call stream: ${JSON.stringify(line.slice(0, 80))}`);
}

/** Lines from a stream, pulled as they are read: the writer waits while this reader does. */
export class Lines {
  private it: AsyncIterator<Buffer>;
  private part = '';
  private lines: string[] = [];
  private at = 0;
  private ended = false;
  constructor(stream: NodeJS.ReadableStream) { this.it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>; }
  async next(): Promise<string | undefined> {
    while (this.at >= this.lines.length) {
      if (this.ended) return undefined;
      const r = await this.it.next();
      if (r.done) { this.ended = true; this.lines = this.part ? [this.part] : []; this.part = ''; }
      else { this.lines = (this.part + r.value.toString('latin1')).split('\n'); this.part = this.lines.pop()!; }
      this.at = 0;
    }
    return this.lines[this.at++];
  }
}

export interface Running { child: ChildProcess; lines: Lines; stdout: Promise<Buffer>; done: Promise<number | null> }

/** Runs an instrumented program on input; its calls come as lines, its stdout as a whole. */
export function runCalls(side: 'C' | 'port', input: Buffer | string, v: Variant = {},
  env: NodeJS.ProcessEnv = {}): Running {             // (env.MICROMAX_C: the C to build)
  const nodes = v.nodes !== undefined ? ['--nodes', String(v.nodes)] : [];
  const [cmd, argv] = side === 'C' ? [buildCallsC(v, env.MICROMAX_C ?? cSource()), []]
    : [process.execPath, [buildCallsPort(), ...nodes]];
  const stdio = ['pipe', 'pipe', 'inherit', 'pipe'] as const;   // fd 3: the calls
  const child = spawn(cmd, argv, { cwd: ROOT, stdio: [...stdio], env: { ...process.env, ...env } });
  const out: Buffer[] = [];
  child.stdout!.on('data', (d: Buffer) => out.push(d));
  child.stdin!.on('error', () => { /* it may stop reading early */ });
  child.stdin!.end(input);
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const lines = new Lines(child.stdio[3] as NodeJS.ReadableStream);
  return { child, lines, stdout: done.then(() => Buffer.concat(out)), done };
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
