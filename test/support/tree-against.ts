// Two searches on one page, for `npm run tree -- ... --against SOURCE --html FILE`
// (test/tools/tree.ts): the same input searched by two engines (this port or the C, stored or live,
// against a learner's changed copy of `micromax.ts`, the port, a program, or a stream file), their
// call streams read side by side as `compare --calls` reads them, line by line, to the first line
// that differs, then each side on its own to the end of that call from `main()`; the two sides'
// calls aligned call by call (`align`) and shown side by side by the page
// (test/support/tree-html-page.ts), opened on the first difference. `twoSearchesLine` is the
// command `compare` and `conformance` print to draw a first difference they found so.
//
// Each side is read into the calls of a page (test/support/tree-html.ts): the calls on the way to
// the first difference, each drawn without the calls below it (the same in both, counted), the
// differing call with each side's own calls below it and after it, up to PER_SIDE calls a side.

import * as fs from 'node:fs';
import { whyNoC } from './c-oracle.ts';
import { KIND, fieldDiffs, fieldsOf } from './calls-diff.ts';
import { Lines, fromArray, howEnded, parse, runCalls, type Call, type Event, type LineSource, type Running,
  type Side } from './calls.ts';
import { readStreamList, storedLines } from './stored-calls.ts';
import { Search, type PageCall } from './tree-html.ts';

/** The most calls a page of two searches draws of each side after the first difference (the rest are
 *  counted): two such sides make a page of about 1 MB, which a browser opens in well under a second. */
export const PER_SIDE = 3000;

// ---- the two sides ------------------------------------------------------------------------------

/** Where a side's call stream comes from. */
export type Source =
  | { kind: 'port' }                                    // this port, micromax.ts, instrumented (test/support/calls.ts)
  | { kind: 'copy'; file: string }                      // a changed copy of micromax.ts, instrumented the same way
  | { kind: 'C' }                                       // the C, built from MICROMAX_C and instrumented
  | { kind: 'program'; command: string }                // a program that writes the stream to --calls PATH
  | { kind: 'stream'; file: string }                    // a stream file (npm run calls writes one)
  | { kind: 'stored'; name: string };                   // the C's stream of a golden script, as stored

/** A side, opened: its name on the page, its lines, how to stop it, and how its program ended. */
export interface Opened {
  label: string;
  lines: LineSource;
  stop: () => void;
  ended?: () => Promise<string>;                       // how its program ended, in words
  partial: boolean;                                    // the start of a longer stream (a stored stream cut short)
}

/** A side that cannot be opened: why, in one line. */
export class CannotOpen extends Error {}

/** What a side is called on the page and in messages. */
export function labelOf(src: Source): string {
  switch (src.kind) {
    case 'port': return 'micromax.ts';
    case 'copy': return src.file;
    case 'C': return 'the C';
    case 'program': return 'the program';
    case 'stream': return src.file;
    case 'stored': return 'the stored C';
  }
}

/** Opens a side: runs its program on `input` at `nodes` (env: the port's and copies' MICROMAX_FEN and
 *  MICROMAX_CALL), or reads its file. Paths are as the user gave them, from where npm was run (`file`). */
export function openSide(src: Source, input: Buffer, nodes: number | undefined, env: NodeJS.ProcessEnv,
  file: (name: string) => string): Opened {
  const label = labelOf(src);
  if (src.kind === 'stream' || src.kind === 'stored') {
    if (src.kind === 'stream') return { label, lines: streamFile(src.file, file), stop: () => undefined, partial: false };
    const lines = storedLines(src.name), row = readStreamList().find((r) => r.name === src.name);
    if (!lines) throw new CannotOpen(`no stored stream for ${src.name} (test/fixtures/calls/)`);
    return { label, lines: fromArray(lines), stop: () => undefined, partial: row !== undefined && row.stored < row.calls };
  }
  if (src.kind === 'C' && whyNoC()) throw new CannotOpen(`--c runs the C: ${whyNoC()}`);
  if (src.kind === 'copy' && !fs.existsSync(file(src.file))) throw new CannotOpen(`--against: no file ${src.file}`);
  const side: Side = src.kind === 'port' ? 'port' : src.kind === 'C' ? 'C' : src.kind === 'copy' ? { copy: file(src.file) }
    : { program: src.command };
  let r: Running;
  try {
    r = runCalls(side, input, { nodes }, src.kind === 'port' || src.kind === 'copy' ? env : {});
  } catch (err) {                                      // (a copy whose change the instrumentation cannot find its way in)
    throw new CannotOpen(`${label}: ${(err as Error).message}`);
  }
  return { label, lines: r.lines, stop: () => r.stop(), ended: () => howEnded(r), partial: false };
}

function streamFile(name: string, file: (name: string) => string): Lines {
  const at = file(name);
  if (!fs.existsSync(at) || !fs.statSync(at).isFile()) throw new CannotOpen(`no file ${name}`);
  return new Lines(fs.createReadStream(at));
}

// ---- the first difference ------------------------------------------------------------------------

/** Where two streams first differ, as compare --calls says it. */
export interface FirstDifference {
  line: number;                                        // its line in each stream (the header is line 1)
  call: number;                                        // the call it is in: that call, or the next from main()
  where: 'call' | 'inside' | 'between';               // the two lines are that call's; lines inside it; between calls from main()
  ply: number;                                         // the call's ply (0: a call from main())
  pass?: number;                                       // inside a call: the pass it is in
  path: string[];                                      // the moves from the call from main() to it
  fields: [name: string, a: string, b: string][];      // the fields that differ, each side's value
  records: [string, string];                           // each side's line, in words
}

/** A line, read (or what is wrong with it). */
function read(line: string | undefined): Event | string | undefined {
  if (line === undefined) return undefined;
  try { return parse(line); } catch (err) { return (err as Error).message; }
}

/** A line in words: its kind and fields, or the stream's end. */
function record(line: string | undefined): string {
  const e = read(line);
  if (e === undefined) return 'the stream ends';
  if (typeof e === 'string') return `not a line of the stream (${e})`;
  return `${KIND[e.t]}: ${fieldsOf(e).map(([n, v]) => `${n} ${v}`).join(', ')}`;
}

/** The fields that differ between two lines: of one kind, field by field; else the kind of line. */
function differing(x: string | undefined, y: string | undefined): [string, string, string][] {
  const [a, b] = [read(x), read(y)];
  if (a === undefined || b === undefined || typeof a === 'string' || typeof b === 'string' || a.t !== b.t) {
    const kind = (e: Event | string | undefined): string => e === undefined ? 'the stream ends' : typeof e === 'string' ?
      'not a stream line' : KIND[e.t];
    return [['the kind of line', kind(a), kind(b)]];
  }
  return fieldDiffs(a, b).map(([n, va, vb]) => [n, va ?? '-', vb ?? '-']);
}

/** Are two lines the same? Textually, or as calls that differ only in a move one side left as '?'. */
function same(a: string, b: string): boolean {
  if (a === b) return true;
  if (a[0] !== '>' || b[0] !== '>') return false;
  const [ma, mb] = [a.indexOf(' ', 2), b.indexOf(' ', 2)];
  return (a.slice(2, ma) === '?' || b.slice(2, mb) === '?') && a.slice(ma) === b.slice(mb);
}

const moveOf = (line: string): string => line.slice(2, line.indexOf(' ', 2));

/** Where a first difference is, in words: the call, inside a call (and its pass), or between calls from main(). */
export function whereOf(f: FirstDifference): string {
  if (f.where === 'call') return `call ${f.call}`;
  return f.where === 'inside' ? `inside call ${f.call}, in its pass ${f.pass}` : `before call ${f.call}, between calls from main()`;
}

// ---- reading two streams side by side ---------------------------------------------------------------

/** Two searches read for a page: the call from main() drawn, on each side, and where they first differ. */
export interface TwoSearches {
  searches: [Search, Search];
  first?: FirstDifference;                             // none: the streams are the same
  pair?: [number, number];                             // the first differing call on each side (their indices)
  same: number;                                        // calls the same in both, read before the first difference
  stored?: boolean;                                    // the first side's stored start ended first (no difference in it)
  limit: [number, number];                             // each side's calls after the difference not drawn (PER_SIDE)
  ended: [string, string];                             // a side whose stream ended before its search, in words ('' if none)
}

/** The header lines of two streams: the same settings (node limit, and input when both say it), or why not. */
function headers(x: string | undefined, y: string | undefined): string | undefined {
  const [a, b] = [read(x), read(y)];
  const h = (e: Event | string | undefined): Extract<Event, { t: '%' }> | undefined =>
    e !== undefined && typeof e !== 'string' && e.t === '%' ? e : undefined;
  const [ha, hb] = [h(a), h(b)];
  if (!ha || !hb) return `${ha ? 'the second' : 'the first'} stream has no header line (its first line: ${record(ha ? y : x)})`;
  if (ha.nodes !== hb.nodes) return `they were made at other node limits (${ha.nodes}, ${hb.nodes}): give each the same --nodes`;
  if (ha.input && hb.input && ha.input !== hb.input) return 'they were made for other inputs (their headers\' sha256 differ)';
  return undefined;
}

/** One side's state as it is read: its page calls for the call from main() now read, and its open calls. */
class Reader {
  search?: Search;
  depth = 0;
  budget = Infinity;                                   // the page's calls this side may hold
  constructor(readonly side: Opened) {}
  async next(): Promise<string | undefined> {
    return this.side.lines.ready() ?? await this.side.lines.next();
  }
  /** Feeds a line to the page's calls; a call from main() starts a search of its own (`number`: its number). */
  feed(line: string, number: number): void {
    if (this.depth === 0 && (line[0] === '@' || line[0] === '>') && (!this.search || this.search.done)) {
      const s: Search = new Search({ checks: 0, keep: () => s.calls.length < this.budget });
      s.start(number + 1);
      this.search = s;
    }
    this.search!.feed(line);
    if (line[0] === '>') this.depth++;
    else if (line[0] === '<') this.depth--;
  }
}

/** Reads two streams side by side (`a` the reference) to their first difference, then each to the end of
 *  the call from main() it is in; stops both sides after. Throws a CannotOpen for streams made for other
 *  settings. Stops both and throws after `ms`. */
export async function readTwo(a: Opened, b: Opened, ms: number): Promise<TwoSearches> {
  const [ra, rb] = [new Reader(a), new Reader(b)];
  const open: { no: number; move: string; passes: number }[] = [];
  let lineNo = 0, number = 0, same0: [Search, Search] | undefined, late = false;
  const timer = setTimeout(() => { late = true; a.stop(); b.stop(); }, ms);
  try {
    for (;;) {
      const [x, y] = [await ra.next(), await rb.next()];
      if (late) throw new CannotOpen(`the searches did not end within ${ms / 1000} s`);
      if (lineNo === 0 && (x?.[0] === '%' || y?.[0] === '%')) {
        const why = headers(x, y);
        if (why) throw new CannotOpen(`the two streams cannot be compared: ${why}`);
        lineNo++;
        continue;
      }
      if (x === undefined && (y === undefined || a.partial)) {   // the same to the end (of what is stored)
        if (!ra.search) throw new CannotOpen('neither stream holds a call of D()');
        const [sa, sb] = same0 ?? [ra.search, rb.search!];
        return { searches: [sa, sb], same: number, stored: y !== undefined, limit: [0, 0], ended: ['', ''] };
      }
      if (x === undefined || y === undefined || !same(x, y)) return await differ(x, y);
      lineNo++;
      ra.feed(x, number);
      rb.feed(x, number);
      if (x[0] === '>') open.push({ no: ++number, move: moveOf(x), passes: 0 });
      else if (x[0] === '!' && open.length) open[open.length - 1].passes++;
      else if (x[0] === '<') {
        open.pop();
        if (open.length) {                             // a call the same in both, returned: only its own line is drawn
          ra.search!.collapse(ra.search!.last!, 'same');
          rb.search!.collapse(rb.search!.last!, 'same');
        } else if (!same0 && ra.search!.calls[0]?.c.z === 8) same0 = [ra.search!, rb.search!];   // the first think
      }
    }
  } finally {
    clearTimeout(timer);
    a.stop();
    b.stop();
  }

  /** The first difference: recorded, then each side read on to the end of its call from main(). */
  async function differ(x: string | undefined, y: string | undefined): Promise<TwoSearches> {
    const fresh = x?.[0] === '>' && y?.[0] === '>', depth = open.length;
    const where = fresh ? 'call' : depth ? 'inside' : 'between';
    const path = [...open.slice(1).map((o) => o.move), ...fresh && depth ? [moveOf(x!)] : []];
    const first: FirstDifference = {
      line: lineNo + 1, call: where === 'inside' ? open.at(-1)!.no : number + 1, where, ply: fresh ? depth : Math.max(depth - 1, 0),
      ...where === 'inside' ? { pass: open.at(-1)!.passes + 1 } : {}, path, fields: differing(x, y), records: [record(x), record(y)],
    };
    const ended = await Promise.all([[ra, x], [rb, y]].map(async ([r, line]) => {
      const reader = r as Reader;
      reader.budget = (reader.search?.calls.length ?? 0) + PER_SIDE;
      for (let l = line as string | undefined; l !== undefined; l = await reader.next()) {
        if (l[0] === '%') continue;
        reader.feed(l, number);
        if (reader.depth === 0 && reader.search!.done) return '';
      }
      return `${reader.side.label}'s stream ends before its search does${reader.side.ended ? ` (${await reader.side.ended()})` : ''}`;
    }));
    if (late) throw new CannotOpen(`the searches did not end within ${ms / 1000} s`);
    const [sa, sb] = [ra.search!, rb.search!];
    const find = (s: Search, no: number): number => s.calls.findIndex((c) => c.no === no);
    const pair: [number, number] = where === 'between' ? [0, 0] : [find(sa, first.call), find(sb, first.call)];
    const limit = [sa, sb].map((s) => s.calls.reduce((n, c) => n + c.passes.reduce((m, p) => m + (p.why === 'limit' ? p.hidBelow : 0), 0),
      0)) as [number, number];
    return { searches: [sa, sb], first, pair, same: number, limit, ended: ended as [string, string] };
  }
}

// ---- the two sets of calls, aligned ------------------------------------------------------------

/** A call of the page of two searches: its call on each side (an index into that side's calls, or -1 when
 *  that side made no such call), its caller's node, and the caller's pass that made it. */
export type Node = [a: number, b: number, up: number, pass: number];

/** Both searches' calls aligned, call by call: the first calls from main() are one node; below a node of
 *  both, each pass's calls are paired by their moves in order (a longest common subsequence), `pair` always
 *  paired; a call of one side alone is a node of its own, with all its calls below it. In the order the
 *  engines made them (a node's calls, pass by pass, before the next node). */
export function align(sa: Search, sb: Search, pair?: [number, number]): Node[] {
  const out: Node[] = [];
  const index = [childIndex(sa), childIndex(sb)];
  const alone = (k: 0 | 1, i: number, up: number, pass: number): void => {
    const at = out.push(k ? [-1, i, up, pass] : [i, -1, up, pass]) - 1;
    for (const [d, kids] of index[k].get(i) ?? []) for (const c of kids) alone(k, c, at, d);
  };
  const both = (i: number, j: number, up: number, pass: number): void => {
    const at = out.push([i, j, up, pass]) - 1;
    const [ka, kb] = [index[0].get(i) ?? new Map<number, number[]>(), index[1].get(j) ?? new Map<number, number[]>()];
    const passes = [...new Set([...ka.keys(), ...kb.keys()])].sort((x, y) => x - y);
    for (const d of passes) {
      for (const [x, y] of pairs(ka.get(d) ?? [], kb.get(d) ?? [], sa.calls, sb.calls, pair)) {
        if (x >= 0 && y >= 0) both(x, y, at, d);
        else if (x >= 0) alone(0, x, at, d);
        else alone(1, y, at, d);
      }
    }
  };
  if (sa.calls.length && sb.calls.length) both(0, 0, -1, 0);
  else if (sa.calls.length) alone(0, 0, -1, 0);
  else if (sb.calls.length) alone(1, 0, -1, 0);
  return out;
}

/** Each call's calls, by the pass that made them, in order. */
function childIndex(s: Search): Map<number, Map<number, number[]>> {
  const out = new Map<number, Map<number, number[]>>();
  s.calls.forEach((c, k) => {
    if (c.up < 0) return;
    const m = out.get(c.up) ?? new Map<number, number[]>();
    m.set(c.pass, [...m.get(c.pass) ?? [], k]);
    out.set(c.up, m);
  });
  return out;
}

/** Two lists of calls paired by their moves, in order: a longest common subsequence, with `pair` (when both
 *  are in the lists) paired whatever their moves; [x, -1] or [-1, y] for a call of one list alone. */
function pairs(xs: number[], ys: number[], ca: PageCall[], cb: PageCall[], pair?: [number, number]): [number, number][] {
  const [i, j] = pair ? [xs.indexOf(pair[0]), ys.indexOf(pair[1])] : [-1, -1];
  if (i >= 0 && j >= 0) {
    return [...pairs(xs.slice(0, i), ys.slice(0, j), ca, cb), [xs[i], ys[j]], ...pairs(xs.slice(i + 1), ys.slice(j + 1), ca, cb)];
  }
  const n = xs.length, m = ys.length, L = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let a = n - 1; a >= 0; a--) {
    for (let b = m - 1; b >= 0; b--) {
      L[a][b] = ca[xs[a]].c.move === cb[ys[b]].c.move ? L[a + 1][b + 1] + 1 : Math.max(L[a + 1][b], L[a][b + 1]);
    }
  }
  const out: [number, number][] = [];
  let a = 0, b = 0;
  while (a < n || b < m) {
    if (a < n && b < m && ca[xs[a]].c.move === cb[ys[b]].c.move) out.push([xs[a++], ys[b++]]);
    else if (b >= m || (a < n && L[a + 1][b] >= L[a][b + 1])) out.push([xs[a++], -1]);
    else out.push([-1, ys[b++]]);
  }
  return out;
}

// ---- the kit's pointer to the page ---------------------------------------------------------------

/** What the porting kit compared: the C (run live, or its stored stream of a golden script) against the
 *  port, a program, or a stream file, on an input (typed moves, a file, or the script's). */
export interface Compared {
  c: 'live' | { stored: string };
  other: 'port' | { program: string } | { stream: string };
  moves?: string[];                                    // compare --moves
  file?: string;                                       // compare's input file, as typed
  stdin?: boolean;                                     // compare read its input from stdin
  nodes?: number;
}

/** A word of a command line as a shell needs it. */
export const shellWord = (w: string): string => /^[\w.\/:=,+-]+$/.test(w) ? w : `"${w.replace(/(["\\$`])/g, '\\$1')}"`;

/** The line the porting kit prints under a first differing call: the command that draws both searches
 *  as a page, opened on that call (tree finds it again: no number to copy). */
export function twoSearchesLine(o: Compared): string {
  const c = o.c === 'live' ? ['--c'] : ['--stored', o.c.stored];
  const other = o.other === 'port' ? ['--against', 'port'] : 'program' in o.other ? ['--program', o.other.program]
    : ['--against', o.other.stream];
  const input = o.moves ? ['--moves', o.moves.join(' ')] : o.file !== undefined ? [o.file] : o.stdin ? ['INPUT'] : [];
  const nodes = o.nodes !== undefined && o.c === 'live' ? ['--nodes', String(o.nodes)] : [];
  const env = o.c === 'live' && process.env.MICROMAX_C ? `MICROMAX_C=${shellWord(process.env.MICROMAX_C)} ` : '';
  const words = [...c, ...input, ...nodes, ...other, '--html', 'first-difference.html'];
  return `to see that call on the board, both searches side by side in a browser: ${env}npm run tree -- ${words.map(shellWord).join(' ')}` +
    `${o.stdin ? ' (INPUT: a file holding the input given on stdin)' : ''}`;
}

/** compare --calls's pointer, from its options as it read them (the C live against the port, a program or
 *  a stream file, on its input) and its verdict: the line, when the streams differ in a call (not in
 *  their first line, the header: another node limit or input draws no page). */
export function compareLines(o: { program?: string; stream?: string; moves?: string[]; file?: string; nodes?: number },
  v: { same: boolean; lines: number }): string[] {
  if (v.same || v.lines === 0) return [];
  const other = o.program !== undefined ? { program: o.program } : o.stream !== undefined ? { stream: o.stream } : 'port' as const;
  return [twoSearchesLine({ c: 'live', other, moves: o.moves, file: o.file, stdin: !o.moves && o.file === undefined, nodes: o.nodes })];
}

/** conformance --calls's pointer: the script whose calls differ first, the program (none: the port), and
 *  the verdict (a difference in the header draws no page). */
export function conformanceLines(script: string, program: string | undefined, v: { same: boolean; lines: number }): string[] {
  if (v.same || v.lines === 0) return [];
  return [twoSearchesLine({ c: { stored: script }, other: program === undefined ? 'port' : { program } })];
}
