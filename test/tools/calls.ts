// npm run calls -- [--port] [--nodes N] [--moves "e2e4 e7e5 ..."] [--out FILE] [input-file]
// npm run calls -- --binary
// Writes the stream of every call of D() (the format is test/PORTING.md's, and the top of
// test/support/calls.ts) that the C, built from MICROMAX_C and instrumented, makes on the input — or
// with --port this port's — to FILE or stdout: what a porter diffs their own program's stream against
// (npm run compare -- --calls --stream THEIRS), or draws (npm run tree -- --stream FILE).
// --binary prints the path of the instrumented C instead: a program as test/PORTING.md asks of one.
// Exit 0; 2 when it cannot (no MICROMAX_C or gcc, a C it cannot instrument, bad arguments).

import * as fs from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { buildCallsC, runCalls, type Running } from '../support/calls.ts';
import { CannotCompare, cSource, whyNoC } from '../support/c-oracle.ts';
import { Exit, cannot as stopWith, exit, fail, moveList, nodeCount, quietPipe, readInput, readOptions, userPath } from '../support/options.ts';
import { endOnSignals } from '../support/run.ts';

const USAGE = `usage: npm run calls -- [--port] [--nodes N] [--moves "e2e4 e7e5 ..."] [--out FILE] [input-file]
       npm run calls -- --binary
Writes the call stream (every call of D(), one line each: test/PORTING.md) that the C, built from
MICROMAX_C, makes on the input.
  --port         this port's stream (micromax.ts instrumented), not the C's
  --nodes N      the node limit (default: the C's 1e7), as micromax takes it (1e4 is 10000)
  --moves "..."  the input is these moves, typed, then an empty line (micro-Max's move)
  --out FILE     write the stream to FILE (default: stdout)
  --binary       print the path of the C's instrumented build instead: a program as test/PORTING.md
                 asks (--nodes N, --trace, --calls PATH), built once and cached; its C text, the
                 logger included, is beside it (the same path, .c)
  input-file     the input (default: stdin)
Exit 0; 2 when it cannot (bad arguments, no MICROMAX_C or gcc, a C it cannot instrument).`;

const { values, positionals } = readOptions('calls', USAGE, {
  port: { type: 'boolean' }, nodes: { type: 'string' }, moves: { type: 'string' }, out: { type: 'string' },
  binary: { type: 'boolean' },
}, 1);
const usage = (msg: string): never => fail('calls', msg);
const cannot = (msg: string): never => stopWith('calls', msg);
const nodes = nodeCount('calls', values.nodes), moves = moveList('calls', values.moves, true), file = positionals[0];
if (moves && file !== undefined) usage('give --moves or an input file, not both');
if (values.binary && (values.port || values.nodes || values.moves || values.out || file !== undefined)) {
  usage('--binary takes no other option');
}
if (!values.port || values.binary) {
  const why = whyNoC();
  if (why) cannot(why);
}


/** Copies the stream's lines to `out`, waiting when it is full; the count of lines and calls. */
async function copy(r: Running, out: NodeJS.WritableStream): Promise<{ lines: number; calls: number }> {
  let buf = '', lines = 0, calls = 0;
  for (let l = r.lines.ready() ?? await r.lines.next(); l !== undefined; l = r.lines.ready() ?? await r.lines.next()) {
    buf += l + '\n';
    lines++;
    if (l[0] === '>') calls++;
    if (buf.length > 1 << 16) {
      if (!out.write(buf, 'latin1')) await once(out, 'drain').catch(() => r.stop());
      buf = '';
    }
  }
  if (!gone) out.write(buf, 'latin1');
  return { lines, calls };
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
async function main(): Promise<void> {
  if (values.binary) {
    console.log(buildCallsC(cSource()));
    return;
  }
  const input = readInput('calls', moves, file);
  const out = values.out === undefined ? process.stdout : outFile(values.out);
  const r = runCalls(values.port ? 'port' : 'C', input, { nodes });
  quietPipe(() => { gone = true; r.stop(); });
  if (out !== process.stdout) {
    out.on('error', (err: Error) => {                  // said once, at the end (the reading stops with it)
      unwritten ??= err.message;
      r.stop();
    });
  }
  const n = await copy(r, out);
  if (unwritten !== undefined) cannot(`cannot write ${values.out}: ${unwritten}`);
  const code = await r.done;
  if (gone) return;
  if (out !== process.stdout) {
    out.end();
    await finished(out).catch((err: Error) => { unwritten ??= err.message; });
  }
  if (unwritten !== undefined) cannot(`cannot write ${values.out}: ${unwritten}`);
  if (code !== 0) cannot(`the ${values.port ? 'port' : 'C'} ended with ${r.signal() ?? `exit ${code}`}: the stream is not whole`);
  process.stderr.write(`${n.calls} calls (${n.lines} lines)${values.out === undefined ? '' : ` written to ${values.out}`}\n`);
}

try {
  await main();
} catch (err) {
  if (err instanceof Exit) throw err;
  if (gone) exit(0);                                   // (the reading, stopped, ends so)
  if (unwritten !== undefined) cannot(`cannot write ${values.out}: ${unwritten}`);
  cannot(err instanceof CannotCompare || err instanceof Error ? err.message : String(err));
}
