// npm run calls -- [--port | --program "CMD"] [--nodes N] [--trace] [--moves "e2e4 e7e5 ..."] [--out FILE] [input-file]
// npm run calls -- --stored NAME [--out FILE]
// npm run calls -- --binary
// MICROMAX_C=../shared/reference/micromax-3.2.c npm run calls -- --make [NAME ...]
// Writes the stream of every call of `D()` (the format is test/PORTING.md's, and the top of
// test/support/calls.ts) that the C, built from `MICROMAX_C` and instrumented, makes on one input
// (`--nodes N`, `--trace`: any script's flags) — or with `--port` this port's, with `--program` any
// program's — to FILE or stdout, its header naming the node limit and the input's sha256: what a
// porter diffs their own program's stream against (`npm run compare -- --calls --stream THEIRS`),
// or draws (`npm run tree -- --stream FILE`). `--stored` writes the C's stream of a golden script
// as `test/fixtures/calls/` ships it (no C needed); `--make` writes those files from the reference
// C (by its sha256) and only from it; `--binary` prints the path of the instrumented C instead: a
// program as test/PORTING.md asks of one.
//
// Exit 0; 2 when it cannot (no MICROMAX_C or gcc, a C it cannot instrument, bad arguments).
//
// time: seconds (`--make`: 25 minutes)

import * as fs from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { HEADER, buildCallsC, fromArray, resultOf, runCalls, withInput, type LineSource, type Running, type Side } from '../support/calls.ts';
import { CannotCompare, cSource, isReference, sha256, whyNoC } from '../support/c-oracle.ts';
import { SCRIPTS } from '../support/scripts.ts';
import { STREAMS, encodeStream, makeStored, readStreamList, storedLines, streamFile, writeStreamList } from '../support/stored-calls.ts';
import { Exit, cannot as stopWith, exit, fail, moveList, nodeCount, quietPipe, readInput, readOptions, userPath } from '../support/options.ts';
import { crashOf, endOnSignals, stderrGist } from '../support/run.ts';

const USAGE = `usage: npm run calls -- [--port | --program "CMD"] [--nodes N] [--trace] [--moves "e2e4 e7e5 ..."] [--out FILE]
                            [input-file]
       npm run calls -- --stored NAME [--out FILE]
       npm run calls -- --binary
       MICROMAX_C=path/to/micromax-3.2.c npm run calls -- --make [NAME ...]
Writes the call stream (every call of D(), one line each: test/PORTING.md) that the C, built from
MICROMAX_C, makes on the input; its first line, the header, names the node limit and the input.
  --port         this port's stream (micromax.ts instrumented), not the C's
  --program "CMD"  this program's stream (a shell command line that takes --calls PATH: test/PORTING.md),
                 not the C's: its header gets the input's sha256 (no C needed)
  --nodes N      the node limit (default: the C's 1e7), as micromax takes it (1e4 is 10000)
  --trace        run it with --trace too, as a golden script's flags may say (the stream is the same)
  --moves "..."  the input is these moves, typed, then an empty line (micro-Max's move)
  --out FILE     write the stream to FILE (default: stdout)
  --stored NAME  the C's stream of the golden script NAME as test/fixtures/calls/ ships it (no C
                 needed; the first calls only, for a script whose whole stream is too big to ship)
  --binary       print the path of the C's instrumented build instead: a program as test/PORTING.md
                 asks (--nodes N, --trace, --calls PATH), built once and cached; its C text, the
                 logger included, is beside it (the same path, .c)
  --make         write test/fixtures/calls/ (the named scripts', default all) from the reference C
  input-file     the input (default: stdin)
Exit 0; 2 when it cannot (bad arguments, no MICROMAX_C or gcc, a C it cannot instrument).`;

const { values, positionals } = readOptions('calls', USAGE, {
  port: { type: 'boolean' }, program: { type: 'string' }, nodes: { type: 'string' }, trace: { type: 'boolean' }, moves: { type: 'string' },
  out: { type: 'string' }, binary: { type: 'boolean' }, stored: { type: 'string' }, make: { type: 'boolean' },
}, Infinity);
const usage = (msg: string): never => fail('calls', msg);
const cannot = (msg: string): never => stopWith('calls', msg);
const nodes = nodeCount('calls', values.nodes), moves = moveList('calls', values.moves, true);
const names: string[] = [...positionals];
if (!values.make && positionals.length > 1) usage(`takes at most one argument, not ${positionals.length}`);
const file = values.make ? undefined : positionals[0];
if (moves && file !== undefined) usage('give --moves or an input file, not both');
const runs = values.port || values.program !== undefined || values.nodes !== undefined || values.trace || moves || file !== undefined;
if (values.binary && (runs || values.out || values.stored !== undefined || values.make)) usage('--binary takes no other option');
if (values.make && (runs || values.out || values.stored !== undefined)) usage('--make takes only the names of scripts');
if (values.stored !== undefined && runs) usage('--stored takes only --out');
if (values.port && values.program !== undefined) usage('give --port or --program, not both');
if (values.program !== undefined && !values.program.trim()) usage('--program wants a command');
if (values.stored !== undefined && !SCRIPTS.some((s) => s.name === values.stored)) {
  usage(`no script named '${values.stored}' in test/fixtures/scripts.tsv`);
}
const unknown = values.make ? names.find((n) => !SCRIPTS.some((s) => s.name === n)) : undefined;
if (unknown !== undefined) usage(`no script named '${unknown}' in test/fixtures/scripts.tsv`);
if (values.binary || values.make || !(values.port || values.program !== undefined || values.stored !== undefined)) {
  const why = whyNoC();
  if (why) cannot(why);
}


/** A stream's first line as it is written out: a header given the input's sha256 when the input is
 *  known (a line that only starts as one is written as it is); and whether it is a header. */
function firstLine(line: string, input: Buffer | undefined): { line: string; header: boolean } {
  if (line[0] !== '%') return { line, header: false };
  if (input === undefined) return { line, header: true };
  try {
    return { line: withInput(line, input), header: true };
  } catch {
    return { line, header: false };
  }
}

/** Copies the stream's lines to `out`, waiting when it is full, its header given the input's
 *  sha256; the count of lines and calls, and whether it had a header. */
async function copy(r: LineSource, out: NodeJS.WritableStream, input: Buffer | undefined, stop: () => void):
  Promise<{ lines: number; calls: number; header: boolean }> {
  let buf = '', lines = 0, calls = 0, header = false;
  for (let l = r.ready() ?? await r.next(); l !== undefined; l = r.ready() ?? await r.next()) {
    if (lines === 0) {
      const first = firstLine(l, input);
      l = first.line;
      header = first.header;
    }
    buf += l + '\n';
    lines++;
    if (l[0] === '>') calls++;
    if (buf.length > 1 << 16) {
      if (!out.write(buf, 'latin1')) await once(out, 'drain').catch(stop);
      buf = '';
    }
  }
  if (!gone) out.write(buf, 'latin1');
  return { lines, calls, header };
}

/** --out's file, opened (created or emptied) before anything runs: one that cannot be written is
 *  one line, exit 2. */
function outFile(name: string): fs.WriteStream {
  try {
    return fs.createWriteStream(userPath(name), { fd: fs.openSync(userPath(name), 'w') });
  } catch (err) {
    return cannot(`cannot write ${name}: ${(err as Error).message}`);
  }
}

let gone = false;                                      // stdout's reader went away (| head)
let unwritten: string | undefined;                     // why --out could not be written (a full disk)
endOnSignals();
/** --make: the stored streams of the named scripts (or all), from the reference C only. */
async function make(): Promise<void> {
  if (!isReference(cSource()!)) {
    cannot(`MICROMAX_C is not the reference micromax-3.2.c (its sha256 is ${sha256(cSource()!).slice(0, 16)}...): ` +
      'the stored streams are the reference\'s, and stay so');
  }
  const rows = new Map(readStreamList().map((r) => [r.name, r]));
  fs.mkdirSync(STREAMS, { recursive: true });
  for (const s of SCRIPTS.filter((x) => !names.length || names.includes(x.name))) {
    const old = rows.get(s.name);
    const keep = old?.stored ?? KEEP;
    const made = await makeStored(s, keep);
    const coded = encodeStream(made.lines);
    fs.writeFileSync(streamFile(s.name), coded);
    const stored = made.lines.filter((l) => l[0] === '>').length;
    rows.set(s.name, { name: s.name, calls: made.calls, stored, seconds: made.seconds, quick: old?.quick ?? !s.slow });
    console.log(`${s.name.padEnd(22)} ${String(stored).padStart(8)} of ${String(made.calls).padStart(9)} calls  ` +
      `${String(coded.length).padStart(8)} bytes  the C ${made.seconds.toFixed(2)} s`);
  }
  writeStreamList(SCRIPTS.flatMap((s) => rows.get(s.name) ?? []));
}
const KEEP = 200_000;                                  // a new script's stream: its first calls, at most

async function main(): Promise<void> {
  if (values.binary) {
    console.log(buildCallsC(cSource()));
    return;
  }
  if (values.make) return make();
  const out = values.out === undefined ? process.stdout : outFile(values.out);
  let source: LineSource, r: Running | undefined, input: Buffer | undefined;
  if (values.stored !== undefined) {
    const lines = storedLines(values.stored);
    if (!lines) cannot(`no stored stream for ${values.stored} (test/fixtures/calls/)`);
    source = fromArray(lines!);
  } else {
    input = readInput('calls', moves, file);
    const side: Side = values.port ? 'port' : values.program !== undefined ? { program: values.program } : 'C';
    r = runCalls(side, input, { nodes, trace: values.trace });
    source = r.lines;
  }
  const stop = (): void => r?.stop();
  quietPipe(() => { gone = true; stop(); });
  if (out !== process.stdout) {
    out.on('error', (err: Error) => {                  // said once, at the end (the reading stops with it)
      unwritten ??= err.message;
      stop();
    });
  }
  const n = await copy(source, out, input, stop);
  if (unwritten !== undefined) cannot(`cannot write ${values.out}: ${unwritten}`);
  const code = r ? await r.done : 0;
  if (gone) return;
  if (out !== process.stdout) {
    out.end();
    await finished(out).catch((err: Error) => { unwritten ??= err.message; });
  }
  if (unwritten !== undefined) cannot(`cannot write ${values.out}: ${unwritten}`);
  const who = values.port ? 'the port' : values.program !== undefined ? `the program (${values.program})` : 'the C';
  if (r && code !== 0) {
    const said = stderrGist(await r.stderr);
    cannot(`${who} crashed (${crashOf(await resultOf(r))}${said ? `: ${said}` : ''}): the stream is not whole (its first ${n.calls} ` +
      `calls are in ${values.out ?? 'the output'})`);
  }
  if (!n.lines && values.program !== undefined) cannot(`the program wrote no call stream to --calls PATH (${values.program}; see test/PORTING.md)`);
  process.stderr.write(`${n.calls} calls (${n.lines} lines)${values.out === undefined ? '' : ` written to ${values.out}`}\n`);
  if (!n.header) process.stderr.write(`calls: note: the stream has no header line ('${HEADER} nodes N': test/PORTING.md, section 4); compare --stream refuses it\n`);
}

try {
  await main();
} catch (err) {
  if (err instanceof Exit) throw err;
  if (gone) exit(0);                                   // (the reading, stopped, ends so)
  if (unwritten !== undefined) cannot(`cannot write ${values.out}: ${unwritten}`);
  cannot(err instanceof CannotCompare || err instanceof Error ? err.message : String(err));
}
