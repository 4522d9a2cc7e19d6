// Every call of D(), as a stream of lines: the C and the port, each instrumented mechanically from
// its source as it is, write the same lines for the same search. `npm run tree` draws the port's
// stream; `npm run compare -- --calls` reads both side by side and names the first call that differs.
//
// How: D() is renamed D0() and a logging D() put in front of it, so every call, the recursive ones
// included, passes through the logger; the C's commented-out trace line logs each root pass. The
// logger reads the board and the hash table as they are at the call and touches neither.
// The shipped micromax.ts is not changed, and the instrumented copies are built in a temporary
// directory (the C's among the cached binaries).
//
// The lines, on file descriptor 3 (stderr when fd 3 is not open):
//   > MOVE k q l e J Z E z n N PROBE   a call: the move that led to it, D()'s nine arguments, the node
//                                      count so far, and what the hash probe finds:
//                                        e SLOT             an empty slot
//                                        h SLOT d v X Y     an entry with this lock, and its fields
//                                        f                  8 slots held by others (the dummy entry)
//   < v N                              the call returns v; the node count after it
//   = d N m X Y                        a root pass ends (the C's trace line: ply, nodes, score, move)
// MOVE is '-' for a call from main() (a think or a legality check), 'null' for a call on an
// unchanged board (the null-move probe after a pass with no move), else from- and to-square (e2e4,
// e7e8q for a promotion), read from the board before and after: the square the mover vacated (the
// king's, when castling also vacates the rook's) and z, where the piece landed.

import { spawn, type ChildProcess } from 'node:child_process';
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

const C_LOGGER = `static FILE *mm_f; static int mm_ply; static char mm_b[${DEPTH}][129];
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
static void mm_pass(int d, int c, int m, int X, int Y) { fprintf(mm_out(), "= %d %d %d %d %d\\n", d, c, m, X, Y); }
`;
const C_WRAPPER = `D(k,q,l,e,J,Z,E,z,n)
int k,q,l,e,J,Z,E,z,n;
{ int v, j, h, i = 8, s; char mv[8]; struct _ *a = A; FILE *f = mm_out();
  mm_move(mv, k, z);
  j = (k * E ^ J) & U - 9;
  while ((h = A[++j].K) && h - Z && --i);
  a += i ? j : 0;
  fprintf(f, "> %s %d %d %d %d %d %d %d %d %d %d ", mv, k, q, l, e, J, Z, E, z, n, N);
  if (!i) fprintf(f, "f\\n");
  else if (!a->K) fprintf(f, "e %d\\n", j);
  else fprintf(f, "h %d %d %d %d %d\\n", j, a->D, a->V, a->X, a->Y);
  if (mm_ply < ${DEPTH}) for (s = 0; s < 129; s++) mm_b[mm_ply][s] = b[s];
  mm_ply++;
  v = D0(k, q, l, e, J, Z, E, z, n);
  mm_ply--;
  fprintf(f, "< %d %d\\n", v, N);
  return v;
}

`;

/** The C source, as `variantSource` makes it, with every call of D() and every root pass logged. */
export function instrumentC(text: string): string {
  text = replace(text, /^D\(k,q,l,e,J,Z,E,z,n\)/m, `${C_LOGGER}D0(k,q,l,e,J,Z,E,z,n)`, 'the C (D)');
  text = replace(text, /\/\*(if\(z==8\))(printf\([^\n]*?\);)\*\//, '$1mm_pass(d-1,N,m,X,Y&0x77);', 'the C (trace)');
  return replace(text, /^main\(\)/m, `${C_WRAPPER}main()`, 'the C (main)');
}

/** The instrumented C binary for a variant (--nodes), built once and cached. */
export function buildCallsC(v: Variant = {}, source = cSource()!): string {
  return compile(instrumentC(variantSource(fs.readFileSync(source, 'utf8'), { nodes: v.nodes })), v.opt);
}

// ---- the port -------------------------------------------------------------------------------

const PORT_LOGGER = `// ---- instrumented (test/support/calls.ts): every call of D() is logged, then D0() runs it ----
const mm = { out: '', ply: 0, fd: 3, b: Array.from({ length: ${DEPTH} }, () => new Int8Array(129)) };
try { fs.fstatSync(3); } catch { mm.fd = 2; }
function mmFlush(): void { writeAll(mm.fd, mm.out); mm.out = ''; }
process.on('exit', mmFlush);
function mmMove(k: number, z: number): string {
  const o = mm.b[mm.ply - 1];
  if (mm.ply === 0) return '-';
  if (mm.ply > ${DEPTH}) return '?';
  if (z & M || board[z] === o[z]) return 'null';
  let x = -1;
  for (let s = 0; s < 120; s++) if (!(s & M) && o[s] & 24 - k && !board[s] && (x < 0 || (o[s] & 7) === 4)) x = s;
  if (x < 0) return '?';
  return sq(x) + sq(z) + ((o[x] & 7) < 3 && (board[z] & 7) === 7 ? 'q' : '');
}
function mmPass(d: number, c: number, m: number, X: number, Y: number): void {
  mm.out += \`= \${d} \${c} \${m} \${X} \${Y}\\n\`;
}
function D(k: number, q: number, l: number, e: number, J: number, Z: number, E: number, z: number, n: number): number {
  let j = (k * E ^ J) & U - 9, i = 8, h = 0;
  while ((h = A.K[++j]) && h !== Z && --i);
  const a = i ? j : 0;
  const probe = !i ? 'f' : !A.K[a] ? \`e \${j}\` : \`h \${j} \${A.D[a]} \${A.V[a]} \${A.X[a]} \${A.Y[a]}\`;
  mm.out += \`> \${mmMove(k, z)} \${k} \${q} \${l} \${e} \${J} \${Z} \${E} \${z} \${n} \${N} \${probe}\\n\`;
  if (mm.ply < ${DEPTH}) mm.b[mm.ply].set(board);
  mm.ply++;
  const v = D0(k, q, l, e, J, Z, E, z, n);
  mm.ply--;
  mm.out += \`< \${v} \${N}\\n\`;
  if (mm.out.length > 1 << 16) mmFlush();
  return v;
}
function mmSetUp(k: number): number {                 // MICROMAX_FEN: start from this position
  const text = process.env.MICROMAX_FEN;
  if (!text) return k;
  OPENING.b.set(board);
  const p = fen(text);
  if (typeof p === 'string') { process.stderr.write(\`micromax: bad FEN: \${p}\\n\`); process.exit(2); }
  board.set(p.b); Q = p.Q; O = p.O;
  return p.k;
}
// ---- end of instrumentation ----
`;

/** micromax.ts with every call of D() and every root pass logged; with MICROMAX_FEN set, main()
 *  starts from that position instead of the opening. */
export function instrumentPort(src: string): string {
  const readline = pathToFileURL(createRequire(path.join(ROOT, 'package.json')).resolve('readline-sync')).href;
  src = replace(src, "from 'readline-sync';", `from '${readline}';`, 'the port (import)');
  src = replace(src, /^function D\(k: number,/m, `${PORT_LOGGER}function D0(k: number,`, 'the port (D)');
  src = replace(src, 'if (z === 8) report(d - 1, N, m, X, Y & 0x77);',
    'if (z === 8) { mmPass(d - 1, N, m, X, Y & 0x77); report(d - 1, N, m, X, Y & 0x77); }', 'the port (trace)');
  return replace(src, '  init();\n  if (live)', '  init(); k = mmSetUp(k);\n  if (live)', 'the port (main)');
}

let portFile: string | undefined;
/** The instrumented port, written once per process to a temporary directory. */
export function buildCallsPort(): string {
  if (portFile && fs.existsSync(portFile)) return portFile;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-calls-'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  portFile = path.join(dir, 'micromax-calls.ts');
  fs.writeFileSync(portFile, instrumentPort(fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8')));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return portFile;
}

// ---- reading the lines ----------------------------------------------------------------------

export type Probe = { slot: number; d?: number; v?: number; X?: number; Y?: number } | undefined; // undefined: 'f'
export interface Call {
  t: '>'; move: string; k: number; q: number; l: number; e: number; J: number; Z: number;
  E: number; z: number; n: number; N: number; probe: Probe;
}
export interface Return { t: '<'; v: number; N: number }
export interface Pass { t: '='; d: number; N: number; m: number; X: number; Y: number }
export type Event = Call | Return | Pass;

export function parse(line: string): Event {
  const w = line.split(' '), num = w.map(Number);
  if (w[0] === '<' && w.length === 3) return { t: '<', v: num[1], N: num[2] };
  if (w[0] === '=' && w.length === 6) return { t: '=', d: num[1], N: num[2], m: num[3], X: num[4], Y: num[5] };
  if (w[0] === '>' && w.length >= 13) {
    const [k, q, l, e, J, Z, E, z, n, N] = num.slice(2, 12);
    const probe: Probe = w[12] === 'f' ? undefined : w[12] === 'e' ? { slot: num[13] }
      : { slot: num[13], d: num[14], v: num[15], X: num[16], Y: num[17] };
    return { t: '>', move: w[1], k, q, l, e, J, Z, E, z, n, N, probe };
  }
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
    : [process.execPath, ['--import', 'tsx', buildCallsPort(), ...nodes]];
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
