// The reference C's call streams of the golden scripts, shipped as data in test/fixtures/calls/ so
// that `conformance --calls` checks a program call by call with no C on the machine. Each stream is
// the one the reference C writes (test/support/calls.ts; test/PORTING.md section 4) on the script's
// input and node limit, whole, or its first calls when the whole is too big to ship (engine-1e5's is
// 2.3 GB): streams.tsv says how many it holds. `npm run calls -- --make` writes them from the reference
// C only (by its sha256), never from the port, and calls.test.ts checks they are still what it writes.
//
// The files are small because each line is written as its difference from what comes before, then
// compressed with brotli: a call's keys J and Z and its SUM as their difference from its caller's,
// its window (q, l) and eval e from what its caller's make of them (its q is the caller's -l, or one
// less; its e near the caller's -e), its node count N from the last N written, its slot from the first
// slot its fold (k*E^J)&(U-9) names, a store's slot from its call's. Decoding undoes each exactly
// (the writer checks it, line for line, before it writes a file); a stream of ~130 bytes a call takes
// 3 to 10 bytes (more in the smallest files). streams.tsv lists them, with what each script costs.

import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { buildCallsC, withInput } from './calls.ts';
import { buildC } from './c-oracle.ts';
import { ROOT, timedRun } from './run.ts';
import { scriptInput, variant, type Script } from './scripts.ts';

export const STREAMS = path.join(ROOT, 'test', 'fixtures', 'calls');
export const STREAM_LIST = path.join(STREAMS, 'streams.tsv');
const COLUMNS = 'name\tcalls\tstored\tseconds\tquick';

/** A script's row of streams.tsv. */
export interface Stored {
  name: string;
  calls: number;                                       // the calls of D() the C makes on the script, all
  stored: number;                                      // how many of them the file holds: the first ones
  seconds: number;                                     // the C's CPU time on the script (its output), when made
  quick: boolean;                                      // conformance --quick runs it
}

export const streamFile = (name: string): string => path.join(STREAMS, `${name}.calls.br`);

/** The rows of streams.tsv (none when it is not there); throws naming a row that is not as its header says. */
export function readStreamList(file = STREAM_LIST): Stored[] {
  if (!fs.existsSync(file)) return [];
  const rows = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  if (rows.shift() !== COLUMNS) throw new Error(`${file}: the header is not '${COLUMNS.replace(/\t/g, ' ')}'`);
  return rows.map((row) => {
    const [name, calls, stored, seconds, quick, ...more] = row.split('\t');
    if (more.length || !/^\d+$/.test(calls ?? '') || !/^\d+$/.test(stored ?? '') || !/^\d+(\.\d+)?$/.test(seconds ?? '') ||
      !['yes', 'no'].includes(quick)) throw new Error(`${file}: a row is not ${COLUMNS.replace(/\t/g, ', ')}: ${JSON.stringify(row)}`);
    return { name, calls: Number(calls), stored: Number(stored), seconds: Number(seconds), quick: quick === 'yes' };
  });
}

/** streams.tsv written again with these rows, its comment kept. */
export function writeStreamList(rows: Stored[], file = STREAM_LIST): void {
  const comment = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('#')) : [];
  const lines = rows.map((r) => [r.name, r.calls, r.stored, r.seconds.toFixed(2), r.quick ? 'yes' : 'no'].join('\t'));
  fs.writeFileSync(file, [...comment, COLUMNS, ...lines].join('\n') + '\n');
}

// ---- the lines, each as its difference from what came before ----------------------------------------

const U9 = 16777224 - 9;                               // the C's U-9: the fold's mask
/** The value of a square field: e4 as the 0x88 board numbers it, or the number written. */
function squareValue(w: string): number {
  return /^[a-h][1-8]$/.test(w) ? 16 * (56 - w.charCodeAt(1)) + w.charCodeAt(0) - 97 : Number(w);
}
interface Open { J: number; Z: number; sum: number; e: number; q: number; l: number; slot: number }
const ROOT_CALL: Open = { J: 0, Z: 0, sum: 0, e: 0, q: 0, l: 0, slot: 0 };

/** Turns a stream's lines into their differences (`encode`) and back (`decode`): the same state
 *  either way, the calls open and the last node count. */
class Coder {
  private open: Open[] = [];
  private N = 0;

  encode(line: string): string {
    const w = line.split(' ');
    const up = this.open.at(-1) ?? ROOT_CALL;
    switch (w[0]) {
      case '>': {
        const [k, q, l, e, J, Z] = w.slice(2, 8).map(Number), N = Number(w[11]), sum = Number(w[12]);
        const slot = w[13] === 'f' ? 0 : Number(w[14]);
        const out = [w[0], w[1], k, q + up.l, l + up.q, e + up.e, (J - up.J) | 0, (Z - up.Z) | 0, w[8], w[9], w[10],
          N - this.N, sum - up.sum, w[13]];
        if (w[13] !== 'f') out.push(slot - ((k * squareValue(w[8]) ^ J) & U9), ...w.slice(15));
        else out.push(...w.slice(14));
        this.N = N;
        this.open.push({ J, Z, sum, e, q, l, slot });
        return out.join(' ');
      }
      case '<': this.open.pop(); return `< ${w[1]} ${Number(w[2]) - this.take(w[2])}`;
      case '=': return `= ${w[1]} ${Number(w[2]) - this.take(w[2])} ${w.slice(3).join(' ')}`;
      case 's': return `s ${Number(w[1]) - up.slot} ${w.slice(2).join(' ')}`;
      default: return line;
    }
  }

  decode(line: string): string {
    const w = line.split(' ');
    const up = this.open.at(-1) ?? ROOT_CALL;
    switch (w[0]) {
      case '>': {
        const k = Number(w[2]), q = Number(w[3]) - up.l, l = Number(w[4]) - up.q, e = Number(w[5]) - up.e;
        const J = (up.J + Number(w[6])) | 0, Z = (up.Z + Number(w[7])) | 0, N = this.N + Number(w[11]);
        const sum = up.sum + Number(w[12]);
        const out = [w[0], w[1], k, q, l, e, J, Z, w[8], w[9], w[10], N, sum, w[13]];
        let slot = 0;
        if (w[13] !== 'f') {
          slot = Number(w[14]) + ((k * squareValue(w[8]) ^ J) & U9);
          out.push(slot, ...w.slice(15));
        } else out.push(...w.slice(14));
        this.N = N;
        this.open.push({ J, Z, sum, e, q, l, slot });
        return out.join(' ');
      }
      case '<': this.open.pop(); return `< ${w[1]} ${this.give(w[2])}`;
      case '=': return `= ${w[1]} ${this.give(w[2])} ${w.slice(3).join(' ')}`;
      case 's': return `s ${Number(w[1]) + up.slot} ${w.slice(2).join(' ')}`;
      default: return line;
    }
  }

  /** The node count written (encoding): the last one, before it becomes this. */
  private take(text: string): number {
    const last = this.N;
    this.N = Number(text);
    return last;
  }
  /** The node count read back (decoding) from its difference. */
  private give(text: string): number {
    this.N += Number(text);
    return this.N;
  }
}

/** A stream's lines as the file holds them: differences, brotli-compressed. Throws if decoding them
 *  would not give back every line as it is. */
export function encodeStream(lines: string[]): Buffer {
  const enc = new Coder(), dec = new Coder();
  const coded = lines.map((l, k) => {
    const c = enc.encode(l);
    if (dec.decode(c) !== l) throw new Error(`line ${k + 1} does not decode to itself: ${JSON.stringify(l)}`);
    return c;
  });
  const text = Buffer.from(coded.join('\n') + '\n', 'latin1');
  return zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: text.length } });
}

/** The lines of a stored stream, as the C wrote them (its header first). */
function decodeStream(file: Buffer): string[] {
  const dec = new Coder();
  const lines = zlib.brotliDecompressSync(file).toString('latin1').split('\n');
  lines.pop();
  return lines.map((l) => dec.decode(l));
}

/** The stored stream of a golden script, as lines; undefined when none is shipped. */
export function storedLines(name: string): string[] | undefined {
  const file = streamFile(name);
  return fs.existsSync(file) ? decodeStream(fs.readFileSync(file)) : undefined;
}

// ---- making them, from the reference C -----------------------------------------------------------

/** The calls a chunk of a stream begins: its lines that start with '>', the first one counted only
 *  when the chunk before ended a line. */
function callsIn(chunk: Buffer, lastNewline: boolean): number {
  let calls = lastNewline && chunk[0] === 62 ? 1 : 0;
  for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) {
    if (chunk[at + 1] === 62) calls++;
  }
  return calls;
}

/** The lines before the call after the first `keep` (there is one). */
function firstCalls(lines: string[], keep: number): string[] {
  let calls = 0;
  const end = lines.findIndex((l) => l[0] === '>' && ++calls > keep);
  return lines.slice(0, end);
}

/** The reference C's stream of a script: its first `keep` calls' lines (the header with the input's
 *  sha256), and how many calls it makes in all; and the plain C's CPU time on the script. The stream
 *  is read as it is written (a named pipe): the rest is only counted, never kept. */
export async function makeStored(s: Script, keep: number): Promise<{ lines: string[]; calls: number; seconds: number }> {
  const input = scriptInput(s);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-make-calls-'));
  try {
    const fifo = path.join(dir, 'calls');
    if (spawnSync('mkfifo', [fifo]).status !== 0) throw new Error(`cannot make a named pipe in ${dir}`);
    const child = spawn(buildCallsC(), [...s.nodes === undefined ? [] : ['--nodes', String(s.nodes)], '--calls', fifo],
      { stdio: ['pipe', 'ignore', 'inherit'] });
    child.stdin.end(input);
    const ended = new Promise<number | null>((done) => child.on('close', done));
    let text = '', kept: string[] | undefined, calls = 0, lastNewline = true;
    for await (const chunk of fs.createReadStream(fifo) as AsyncIterable<Buffer>) {
      if (kept === undefined) text += chunk.toString('latin1');
      calls += callsIn(chunk, lastNewline);
      lastNewline = chunk[chunk.length - 1] === 10;
      if (kept === undefined && calls > keep) {
        kept = firstCalls(text.split('\n'), keep);
        text = '';
      }
    }
    const code = await ended;
    if (code !== 0) throw new Error(`${s.name}: the C exited ${code}`);
    if (kept === undefined) kept = text.split('\n').slice(0, -1);
    kept[0] = withInput(kept[0], input);
    const plain = await timedRun(buildC(variant(s)), [], input);
    if (plain.res.code !== 0) throw new Error(`${s.name}: the C exited ${plain.res.code}`);
    return { lines: kept, calls, seconds: plain.cpuS ?? plain.ms / 1000 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
