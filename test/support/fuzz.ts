// Fuzzing: seeded random input scripts for the port, made here and each checked three ways: the
// port must exit 0 with nothing on stderr and print a well-formed transcript; chess.js (boards.ts's
// referee) must find every move legal and every refusal justified; and, when `MICROMAX_C` names the
// C and gcc is here, the output must be byte-identical to the C's.
//
//   (the command: test/tools/fuzz.ts)
//
// Script I of seed S is the same on every machine: a failure prints both, and
// `npm run fuzz -- --seed S --index I --show` runs that script alone and shows it.
//
// The scripts: random bytes (NUL, bytes over 127, CR), lines ended by newline, NUL, tab or any
// other byte <= 10, empty lines (the engine moves), short lines (which reuse the bytes of earlier
// lines), moves spelt the odd ways micro-Max also reads, legal moves of the game as typed (so that
// games get somewhere), and an end of input in the middle of a line. No line is longer than 8
// bytes before its terminator, and no line reads a byte of the line buffer that no line has
// written yet: in the C both would be undefined behaviour.

import { Chess } from 'chess.js';
import { whyNoC, type Variant } from './c-oracle.ts';
import { decodeMove, inputLines, legalTexts, parseTranscript, referee, seededRandom, type Rng } from './boards.ts';
import { firstDifference, portArgs, runPort, runC } from './run.ts';

export interface Script {
  seed: number;
  index: number;
  input: Buffer;
  variant: Variant;
}

const MOVE_CHARS = Buffer.from('abcdefgh12345678');

/** Script `index` of `seed`. */
export function makeScript(seed: number, index: number): Script {
  const rng = seededRandom(seed, index);
  const nodes = rng.pick([1, 2, 50, 100, 100, 200, 200, 300, 500]);
  const variant: Variant = { nodes, trace: rng.chance(0.3) };
  const shape = rng.pick(['typed', 'typed', 'engine', 'engine', 'junk', 'mixed'] as const);
  const parts: Buffer[] = [];
  let tracked: Chess | undefined = new Chess();      // the game, while no engine move hides it
  const c = [0, 0, 0, 0];                              // micro-Max's line buffer (first 4)
  const written = [false, false, false, false];
  // a typed part (legal moves among the rest), then a legal move (a rejected line would keep
  // the engine from moving) and a run of empty lines (the engine plays both sides), then a tail
  const [typedLines, engineLines, tailLines] =
    shape === 'typed' ? [1 + rng.int(30), rng.int(4), rng.int(4)]
      : shape === 'engine' ? [rng.int(6), 8 + rng.int(30), rng.int(4)]
        : shape === 'junk' ? [1 + rng.int(60), 0, 0]
          : [rng.int(15), 2 + rng.int(10), rng.int(15)];
  for (let n = 0; n < typedLines; n++) addLine(lineKind(rng, shape === 'junk' ? 'junk' : 'typed', tracked));
  if (engineLines) {
    if (tracked?.moves().length) addLine('legal');
    for (let n = 0; n < engineLines; n++) addLine(rng.chance(0.02) ? 'junk' : 'empty');
  }
  for (let n = 0; n < tailLines; n++) addLine(lineKind(rng, 'tail', tracked));
  if (rng.chance(0.25)) {                              // the input ends in the middle of a line
    let bytes = lineBytes(rng, 'junk', tracked);
    if (!bytes.length) bytes = randomBytes(rng, 1, 'any');
    parts.push(defined(bytes, -1));
  }
  return { seed, index, input: Buffer.concat(parts), variant };

  function addLine(kind: Kind): void {
    const end = kind === 'empty' ? 10 : terminator(rng);
    const bytes = defined(lineBytes(rng, kind, tracked), end);
    parts.push(bytes, Buffer.of(end));
    for (let k = 0; k <= Math.min(bytes.length, 3); k++) { c[k] = k < bytes.length ? bytes[k] : end; written[k] = true; }
    if (c[0] === 10) { tracked = undefined; return; }  // the engine moved (or not): unknown now
    if (!tracked) return;
    const { from, to } = decodeMove(c);
    const text = from && to ? from + to : '';
    if (legalTexts(tracked).has(text)) tracked.move({ from: text.slice(0, 2), to: text.slice(2, 4), promotion: 'q' });
  }

  /** A line writes c[0..length] and, unless it is empty, reads c[0..3]: none may be unwritten
   *  (the C's buffer starts uninitialised), so lengthen a short line early in the script. */
  function defined(bytes: Buffer, end: number): Buffer {
    if ((bytes.length === 0 && end === 10) || [0, 1, 2, 3].every((k) => written[k] || k <= bytes.length)) return bytes;
    return Buffer.concat([bytes, randomBytes(rng, 3 - bytes.length, 'move')]);
  }
}

type Kind = 'legal' | 'alias' | 'illegal' | 'empty' | 'junk' | 'short';

function lineKind(rng: Rng, part: 'typed' | 'junk' | 'tail', tracked: Chess | undefined): Kind {
  const canMove = tracked !== undefined && tracked.moves().length > 0;
  const weights: Record<Kind, number> =
    part === 'typed' ? { legal: canMove ? 10 : 0, alias: canMove ? 2 : 0, illegal: 2, empty: 0.5, junk: 2, short: 1 }
      : part === 'junk' ? { legal: 0, alias: 0, illegal: 1, empty: 1, junk: 10, short: 4 }
        : { legal: canMove ? 3 : 0, alias: canMove ? 1 : 0, illegal: 2, empty: 3, junk: 3, short: 2 };
  const total = Object.values(weights).reduce((a, b) => a + b, 0);
  let x = rng() * total;
  for (const [k, w] of Object.entries(weights) as [Kind, number][]) { if ((x -= w) < 0) return k; }
  return 'junk';
}

function lineBytes(rng: Rng, kind: Kind, tracked: Chess | undefined): Buffer {
  switch (kind) {
    case 'empty': return Buffer.alloc(0);
    case 'legal': {
      const m = rng.pick(tracked!.moves({ verbose: true }));
      const text = Buffer.from(m.from + m.to + (m.promotion && rng.chance(0.5) ? m.promotion : ''), 'latin1');
      return Buffer.concat([text, randomBytes(rng, rng.chance(0.3) ? rng.int(9 - text.length) : 0, 'any')]);
    }
    case 'alias': {                                    // the same squares, other bytes
      const m = rng.pick(tracked!.moves({ verbose: true }));
      return Buffer.concat([alias(rng, m.from), alias(rng, m.to)]);
    }
    case 'illegal': return randomBytes(rng, 4, 'move');
    case 'short': return randomBytes(rng, rng.int(4), rng.pick(['move', 'any'] as const));
    default: return randomBytes(rng, rng.int(9), rng.pick(['move', 'any', 'any'] as const));
  }
}

/** Two bytes micro-Max reads as this square: (b0 - 16 b1 + 799) mod 256 is the 0x88 square. */
function alias(rng: Rng, square: string): Buffer {
  const sq = 16 * (8 - Number(square[1])) + square.charCodeAt(0) - 97;
  for (;;) {
    const b1 = 11 + rng.int(245);
    const b0 = (((sq + 16 * b1 - 799) % 256) + 256) % 256;
    if (b0 > 10) return Buffer.of(b0, b1);
  }
}

/** Bytes that do not end a line (all > 10): move letters, or anything (CR and high bytes too). */
function randomBytes(rng: Rng, n: number, kind: 'move' | 'any'): Buffer {
  const out = Buffer.alloc(n);
  for (let k = 0; k < n; k++) {
    out[k] = kind === 'move' ? rng.pick([...MOVE_CHARS]) : rng.chance(0.1) ? 13 : rng.chance(0.3) ? 128 + rng.int(128) : 11 + rng.int(245);
  }
  return out;
}

function terminator(rng: Rng): number {
  const x = rng();
  return x < 0.75 ? 10 : x < 0.83 ? 0 : x < 0.91 ? 9 : rng.int(11);
}

// ---- running ------------------------------------------------------------------------------

export interface Outcome {
  script: Script;
  /** what went wrong, each with its kind: port, transcript, referee, c */
  failures: string[];
  lines: number;
  engineLines: number;
  engineMoves: number;
  typedMoves: number;
  comparedWithC: boolean;
}

export async function runScript(script: Script, withC: boolean): Promise<Outcome> {
  const { input, variant } = script;
  const lines = inputLines(input);
  const out: Outcome = {
    script, failures: [], lines: lines.length, engineLines: lines.filter((l) => l.by === 'engine').length,
    engineMoves: 0, typedMoves: 0, comparedWithC: false,
  };
  const port = await runPort(input, portArgs(variant), 120_000); // what npm start runs
  if (port.code !== 0 || port.signal) out.failures.push(`port: exit code ${port.code} ${port.signal ?? ''}`);
  if (port.stderr) out.failures.push(`port: stderr ${JSON.stringify(port.stderr.slice(0, 500))}`);
  const t = parseTranscript(port.stdout);
  if (t.problems.length) out.failures.push(`transcript: ${t.problems.slice(0, 3).join('; ')}`);
  else if (t.boards.length !== lines.length + 1) out.failures.push(`transcript: ${t.boards.length} boards for ${lines.length} lines`);
  else {
    const j = referee(input, t.boards, { nodes: variant.nodes });
    if (j.problems.length) out.failures.push(`referee: ${j.problems[0]}`);
    for (const v of j.verdicts) if (v.move) { if (v.by === 'engine') out.engineMoves++; else out.typedMoves++; }
  }
  if (withC) {
    const c = await runC(input, variant, 120_000);
    out.comparedWithC = true;
    if (c.code !== 0) out.failures.push(`c: the C exited ${c.code} ${c.signal ?? ''}`);
    const diff = firstDifference(c.stdout, port.stdout);
    if (diff) out.failures.push(`c: ${diff}`);
  }
  return out;
}

export interface Summary {
  seed: number;
  scripts: number;
  bytes: number;
  lines: number;
  engineLines: number;
  engineMoves: number;
  typedMoves: number;
  traced: number;
  comparedWithC: number;
  failed: Outcome[];
  seconds: number;
}

export async function fuzz(opts: { count: number; seed: number; jobs: number; only?: number; withC?: boolean;
  onFailure?: (o: Outcome) => void }): Promise<Summary> {
  const start = Date.now();
  const withC = opts.withC ?? !whyNoC();
  const indices = opts.only !== undefined ? [opts.only] : Array.from({ length: opts.count }, (_, k) => k);
  const sum: Summary = { seed: opts.seed, scripts: 0, bytes: 0, lines: 0, engineLines: 0, engineMoves: 0, typedMoves: 0,
    traced: 0, comparedWithC: 0, failed: [], seconds: 0 };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < indices.length) {
      const script = makeScript(opts.seed, indices[next++]);
      const o = await runScript(script, withC);
      sum.scripts++; sum.bytes += script.input.length; sum.lines += o.lines; sum.engineLines += o.engineLines;
      sum.engineMoves += o.engineMoves; sum.typedMoves += o.typedMoves; sum.traced += Number(!!script.variant.trace);
      sum.comparedWithC += Number(o.comparedWithC);
      if (o.failures.length) { sum.failed.push(o); opts.onFailure?.(o); }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.jobs) }, worker));
  sum.failed.sort((a, b) => a.script.index - b.script.index);
  sum.seconds = (Date.now() - start) / 1000;
  return sum;
}

export function describeSummary(s: Summary): string {
  return `fuzz: ${s.scripts} scripts (seed ${s.seed}), ${s.bytes} bytes, ${s.lines} lines ` +
    `(${s.engineLines} empty), ${s.engineMoves} engine moves, ${s.typedMoves} typed moves accepted, ` +
    `${s.traced} with --trace, ${s.comparedWithC} compared with the C, ${s.failed.length} failed, ${s.seconds.toFixed(1)} s`;
}

export function describeFailure(o: Outcome): string {
  const v = o.script.variant;
  return `FAIL seed ${o.script.seed} index ${o.script.index} (--nodes ${v.nodes}${v.trace ? ' --trace' : ''}; ` +
    `rerun: npm run fuzz -- --seed ${o.script.seed} --index ${o.script.index} --show)\n  ` +
    o.failures.join('\n').replace(/\n/g, '\n  ');
}

