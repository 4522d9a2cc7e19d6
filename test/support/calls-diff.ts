// `compare --calls`: two call streams (test/support/calls.ts; test/PORTING.md) read side by side as
// they are written — the C's, and the port's, a program's or a file's — until the first line that
// differs (nothing is stored but the open calls and the last few). The report names that line's
// call, shows both sides' records with every differing field marked, the path of moves to it, the
// input line it is in (by its text, and the game's moves before it), the calls before it, and what
// each side's call then returned.

import { inputLines, type InputLine } from './boards.ts';
import { BadLine, byteText, parse, sqText, type Call, type Event, type LineSource, type Return } from './calls.ts';

const BEFORE = 5;                                      // calls shown before the one that differs
const AHEAD = 50_000_000;                              // lines read on for a result, at most

/** One stream: who wrote it (for the report), its lines, and how the program ended (if one ran). */
export interface Source {
  label: string;                                       // 'C', 'port', 'other'
  lines: LineSource;
  ended?: () => Promise<string>;                       // how its program ended, in words ('' when it ran to the end)
}

export interface Verdict {
  same: boolean;
  calls: number;                                       // calls read (identical ones, when same)
  lines: number;
  capped: boolean;                                     // stopped at the cap, identical so far
  empty: boolean;                                      // the second stream had no line at all
  ends?: string;                                       // the label of the stream that ended first, when that is the difference
  report: string[];                                    // the report, when not the same
}

interface Open { number: number; ply: number; line: string; passes: number }
const callOf = (o: Open): Call => parse(o.line) as Call;

// ---- records: every field by name -------------------------------------------------------------

type Fields = [name: string, value: string][];

/** A line's fields by name, as the stream's format names them (test/PORTING.md). */
export function fieldsOf(e: Event): Fields {
  switch (e.t) {
    case '>': {
      const p = e.probe;
      const probe: Fields = !p ? [['probe', 'f (8 slots held by others: the dummy entry)']]
        : p.d === undefined ? [['probe', 'e'], ['slot', String(p.slot)], ['probe i', String(p.left)]]
          : [['probe', 'h'], ['slot', String(p.slot)], ['probe i', String(p.left)], ['probe d', String(p.d)], ['probe v', String(p.v)],
            ['probe X', byteText(p.X!)], ['probe Y', byteText(p.Y!)]];
      return [['move', e.move], ['k', String(e.k)], ['q', String(e.q)], ['l', String(e.l)], ['e', String(e.e)],
        ['J', String(e.J)], ['Z', String(e.Z)], ['E', sqText(e.E)], ['z', sqText(e.z)], ['n', String(e.n)],
        ['N', String(e.N)], ['sum', String(e.sum)], ...probe, ['hint', e.hint ? '^' : 'no']];
    }
    case '<': return [['v', String(e.v)], ['N', String(e.N)]];
    case '!': return [['d', String(e.d)], ['m', String(e.m)], ['c', e.cut ? '1' : '0'], ['X', byteText(e.X)], ['Y', byteText(e.Y)]];
    case 's': return [['slot', String(e.slot)], ['d', String(e.d)], ['v', String(e.v)], ['X', byteText(e.X)], ['Y', byteText(e.Y)]];
    case '=': return [['d', String(e.d)], ['N', String(e.N)], ['m', String(e.m)], ['X', byteText(e.X)], ['Y', byteText(e.Y)]];
    case '#': return [['w', e.king ? '1' : '0'], ['x', sqText(e.x)], ['y', sqText(e.y)]];
    case '@': return e.b.map((v, i) => [sqText(16 * (i >> 3) + (i & 7)), String(v)]);
    case '%': return [['nodes', String(e.nodes)], ['input', e.input === undefined ? 'not said' : `sha256 ${e.input}`]];
  }
}

export const KIND: Record<Event['t'], string> = {
  '>': 'a call', '<': 'a return', '!': 'a pass end', 's': 'a hash store', '=': 'a root pass end',
  '#': 'a king capture', '@': 'a board', '%': 'a header',
};

/** A line as a record: its kind, then every field by name; or what is wrong with it. */
function record(line: string | undefined, ended: string): string {
  if (line === undefined) return `(the stream ends${ended ? `: ${ended}` : ''})`;
  const e = event(line);
  if (typeof e === 'string') return `not a line of the call stream (${e}): ${JSON.stringify(line.slice(0, 120))}`;
  if (e.t === '@') return `a board: ${e.b.join(' ')}`;
  return `${KIND[e.t]}: ${fieldsOf(e).map(([n, v]) => `${n} ${v}`).join(', ')}`;
}

function event(line: string): Event | string {
  try {
    return parse(line);
  } catch (err) {
    if (err instanceof BadLine) return err.message;
    throw err;
  }
}

/** The differing fields of two lines of one kind: `Y (C e6-128, other e6+128)`. */
function differing(a: Event, b: Event, la: string, lb: string): string {
  if (a.t === '%' && b.t === '%') {
    return a.nodes !== b.nodes ? `nodes (${la} ${a.nodes}, ${lb} ${b.nodes}): made at another node limit` : `input (${la} ` +
      `sha256 ${a.input}, ${lb} sha256 ${b.input}): made for another input`;
  }
  return fieldDiffs(a, b).map(([name, va, vb]) => `${name} (${la} ${va ?? '-'}, ${lb} ${vb ?? '-'}${signOnly(va, vb)})`).join('; ');
}

/** The fields of two lines of one kind that differ, each side's value (undefined: that side has no
 *  such field); a move one side left as '?' differs in nothing. */
export function fieldDiffs(a: Event, b: Event): [name: string, a: string | undefined, b: string | undefined][] {
  const fa = new Map(fieldsOf(a)), fb = new Map(fieldsOf(b));
  const names = [...new Set([...fa.keys(), ...fb.keys()])];
  return names.flatMap((name): [string, string | undefined, string | undefined][] => {
    const [va, vb] = [fa.get(name), fb.get(name)];
    return va === vb || (name === 'move' && (va === '?' || vb === '?')) ? [] : [[name, va, vb]];
  });
}

/** A note when two char fields hold the same byte, one read signed and one unsigned. */
function signOnly(a: string | undefined, b: string | undefined): string {
  if (!a || !b || a.replace('-128', '+128') !== b.replace('-128', '+128')) return '';
  return ': the same byte, read signed on one side and unsigned on the other (the C\'s chars are signed)';
}

/** Are two first lines the same header? The same node limit, and the same input when both say it
 *  (a program's header cannot: a stream file's, written by a tool, does). */
function sameHeader(a: string, b: string): boolean {
  const [ha, hb] = [event(a), event(b)];
  if (typeof ha === 'string' || typeof hb === 'string' || ha.t !== '%' || hb.t !== '%') return false;
  return ha.nodes === hb.nodes && (ha.input === undefined || hb.input === undefined || ha.input === hb.input);
}

/** Are two lines the same? Textually, or as calls that differ only in a MOVE one side left as '?'. */
function same(a: string, b: string): boolean {
  if (a === b) return true;
  if (a[0] !== '>' || b[0] !== '>') return false;
  const ma = a.indexOf(' ', 2), mb = b.indexOf(' ', 2);
  const [x, y] = [a.slice(2, ma), b.slice(2, mb)];
  return (x === '?' || y === '?') && a.slice(ma) === b.slice(mb);
}

// ---- where a call is: the input line, the moves before it ----------------------------------------

/** What main() is doing, read from the reference stream: each input line gets a think (an empty
 *  line) and a legality check; an accepted check (it returns 8000) plays the line's move. */
class Game {
  private lines: InputLine[];
  private checks = 0;
  private rootMove = '';
  private top?: Call;
  readonly moves: string[] = [];
  constructor(input: Buffer | undefined) { this.lines = input ? inputLines(input) : []; }

  feed(e: Event, ply: number): void {
    if (e.t === '>' && ply === 0) this.top = e;
    else if (e.t === '=' && ply === 1) this.rootMove = byteText(e.X) + byteText(e.Y);
    else if (e.t === '<' && ply === 1 && this.top?.z === 9) {
      const line = this.lines[this.checks++];
      if (e.v === 8000) this.moves.push(line?.by === 'typed' ? `${line.from ?? '?'}${line.to ?? '?'}` : this.rootMove || '?');
    }
  }

  /** The call from main() now open, in words: which input line, its text, the moves before it. */
  where(): string {
    const k = this.checks, line = this.lines[k];
    const text = line ? ` ${JSON.stringify(line.bytes.toString('latin1'))}${line.by === 'engine' ? ' (micro-Max moves)' : ''}` : '';
    const what = this.top?.z === 9 ? `the legality check of input line ${k + 1}${text}`
      : this.top?.z === 8 ? `the think for input line ${k + 1}${text}` : 'the first call from main()';
    return `${what}, after ${this.moves.length ? `the moves ${this.moves.join(' ')}` : 'no moves'}`;
  }
}

// ---- the comparison ------------------------------------------------------------------------------

/** Reads on to the line that closes the call `open` levels up; undefined if the stream ends first. */
async function resultOf(lines: LineSource, open: number): Promise<Return | undefined> {
  for (let k = 0; k < AHEAD; k++) {
    const line = await lines.next();
    if (line === undefined) return undefined;
    if (line[0] === '>') open++;
    else if (line[0] === '<' && --open === 0) {
      const e = event(line);
      return typeof e === 'string' ? undefined : e as Return;
    }
  }
  return undefined;
}

const moveOf = (line: string): string => line.slice(2, line.indexOf(' ', 2));
const compact = (c: Call): string => `${c.move.padEnd(5)} D(${c.k}, ${c.q}, ${c.l}, ${c.e}, J ${c.J}, Z ${c.Z}, ` +
  `E ${sqText(c.E)}, z ${sqText(c.z)}, n ${c.n}) N ${c.N}, sum ${c.sum}, probe ` +
  `${!c.probe ? 'f' : c.probe.d === undefined ? `e ${c.probe.slot}` : `h ${c.probe.slot} d ${c.probe.d} v ${c.probe.v}`}` +
  `${c.hint ? ', hint' : ''}`;

/** Compares two streams, `a` the reference (the C's). Their first lines are their headers, the same
 *  when they say the same node limit (and input, when both say it). With `cap`, stops after that
 *  many identical calls (`capped`). With `prefix`, `a` is the start of the C's stream (a stored
 *  file holds only its first calls): `b` going on past its end is no difference (`capped`).
 *  `input` names the input lines in the report. */
export async function compareStreams(a: Source, b: Source, o: { input?: Buffer; cap?: number; prefix?: boolean } = {}):
  Promise<Verdict> {
  const open: Open[] = [], recent: Open[] = [], game = new Game(o.input);
  let calls = 0, lineNo = 0, x: string | undefined, y: string | undefined;
  for (;;) {
    x = a.lines.ready() ?? await a.lines.next();
    y = b.lines.ready() ?? await b.lines.next();
    if (x === undefined && y !== undefined && o.prefix) return { same: true, calls, lines: lineNo, capped: true, empty: false, report: [] };
    if (lineNo === 0 && x !== undefined && y !== undefined && (x[0] === '%' || y[0] === '%')) {
      if (!sameHeader(x, y)) break;
      lineNo++;
      continue;
    }
    if (x === undefined || y === undefined || !same(x, y)) break;
    lineNo++;
    const t = x[0];
    if (t === '>') {
      if (o.cap !== undefined && calls === o.cap) return { same: true, calls, lines: lineNo - 1, capped: true, empty: false, report: [] };
      if (!open.length) {                              // a call from main(): read it whole
        const e = event(x);
        if (typeof e === 'string') break;              // (both sides wrote the same bad line)
        game.feed(e, 0);
      }
      const c: Open = { number: ++calls, ply: open.length, line: x, passes: 0 };
      open.push(c); recent.push(c);
      if (recent.length > BEFORE) recent.shift();
    } else if (t === '<') {
      if (open.length === 1) {
        const e = event(x);
        if (typeof e !== 'string') game.feed(e, 1);
      }
      open.pop();
    } else if (t === '!') {
      if (open.length) open[open.length - 1].passes++;
    } else if (t === '=' && open.length === 1) {
      const e = event(x);
      if (typeof e !== 'string') game.feed(e, 1);
    }
  }
  if (x === undefined && y === undefined) return { same: true, calls, lines: lineNo, capped: false, empty: !lineNo, report: [] };
  const empty = lineNo === 0 && y === undefined;
  const ends = x === undefined ? a.label : y === undefined ? b.label : undefined;
  return { same: false, calls, lines: lineNo, capped: false, empty, ...ends ? { ends } : {}, report: empty ? [] : await report() };

  /** The report: what differs first (the field a reader looks for), then where: the call, the input
   *  line, the moves to it; both lines whole; what each side's call returned; the calls made around
   *  it, in the order they were made. */
  async function report(): Promise<string[]> {
    const [ea, eb] = await Promise.all([x === undefined && a.ended ? a.ended() : '', y === undefined && b.ended ? b.ended() : '']);
    const fresh = x?.[0] === '>' && y?.[0] === '>';
    const inside = open.at(-1);
    const out: string[] = [];
    const line = `line ${lineNo + 1} of each stream`;
    const head = lineNo === 0 && (x?.[0] === '%' || y?.[0] === '%');
    const [pa, pb] = [x === undefined ? undefined : event(x), y === undefined ? undefined : event(y)];
    let differs: string;
    if (pa && pb && typeof pa !== 'string' && typeof pb !== 'string' && pa.t === pb.t) {
      differs = differing(pa, pb, a.label, b.label) || 'the text only';
    } else if (pa && pb) {
      const kind = (p: Event | string): string => typeof p === 'string' ? 'not a stream line' : KIND[p.t];
      differs = `the kind of line (${a.label} ${kind(pa)}, ${b.label} ${kind(pb)})`;
    } else differs = `one stream ends (${x === undefined ? a.label : b.label})`;
    if (head) {
      out.push(`first difference: the header, ${line} (the settings each stream was made for)`, `  differs: ${differs}`);
    } else if (fresh) {
      const c = event(x!) as Call;
      const path = [...open.slice(1).map((p) => callOf(p).move), ...open.length ? [c.move] : []];
      out.push(`first difference: call ${calls + 1} (ply ${open.length}), ${line}`, `  differs: ${differs}`);
      if (!open.length) game.feed(c, 0);
      out.push(`  in ${game.where()}`);
      out.push(`  reached by ${path.length ? path.join(' ') : 'no move: it is the call from main()'}`);
    } else if (inside) {
      const path = open.slice(1).map((p) => callOf(p).move);
      out.push(`first difference: inside call ${inside.number} (ply ${inside.ply}), in its pass ${inside.passes + 1}, ${line}`,
        `  differs: ${differs}`);
      out.push(`  in ${game.where()}`);
      out.push(`  reached by ${path.length ? path.join(' ') : 'no move: it is the call from main()'}`);
      out.push(`  call ${inside.number}, the same in both: ${compact(callOf(inside))}`);
    } else {
      out.push(`first difference: between calls from main(), ${line} (after ${calls} identical calls)`, `  differs: ${differs}`);
      out.push(`  next: ${game.where()}`);
    }
    const width = Math.max(10, a.label.length + 4, b.label.length + 4);   // (the records start in one column)
    out.push(`  ${a.label}:`.padEnd(width) + record(x, ea));
    out.push(`  ${b.label}:`.padEnd(width) + record(y, eb));
    if (!head && (fresh || inside)) {
      const depth = (l: string | undefined): number => l === undefined ? 0 : !fresh && l[0] === '<' ? 0 : fresh ? 1 :
        l[0] === '>' ? 2 : 1;
      const given = (l: string | undefined): Return | undefined => {
        const e = l === undefined ? undefined : event(l);
        return !fresh && e && typeof e !== 'string' && e.t === '<' ? e : undefined;
      };
      const results = await Promise.all([[a, x], [b, y]].map(([s, l]) => {
        const src = s as Source, ln = l as string | undefined;
        return given(ln) ?? (depth(ln) ? resultOf(src.lines, depth(ln)) : undefined);
      }));
      const said = (r: Return | undefined): string => r ? `returns ${r.v} (N ${r.N})` : 'never returns (its stream ends first)';
      out.push(`  then ${fresh ? 'the call' : `call ${inside!.number}`}: ${a.label} ${said(results[0])}; ` +
        `${b.label} ${said(results[1])}`);
    }
    if (!head && (recent.length || inside)) out.push(...around(fresh ? (event(x!) as Call).move : undefined));
    return out;
  }

  /** The calls made around the difference, in the order they were made: the call it is in (the
   *  caller of a call that differs) and the last calls before it, then the spot itself. */
  function around(move: string | undefined): string[] {
    const inside = open.at(-1);
    const listed = [...inside && !recent.includes(inside) ? [inside] : [], ...recent].sort((p, q) => p.number - q.number);
    const row = (number: string, ply: number, text: string): string => `  ${number.padStart(9)}  ${String(ply).padStart(2)}  ${text}`;
    const out = ['the calls around it, in the order they were made (number, ply, move, call), the same in both:'];
    for (const r of listed) {
      const mark = r === inside ? move === undefined ? `   <- the difference is inside this call, in its pass ${r.passes + 1}`
        : '   <- its caller' : '';
      out.push(row(String(r.number), r.ply, compact(callOf(r)) + mark));
    }
    out.push(move === undefined ? row('', inside?.ply ?? 0, `-> here, in call ${inside?.number ?? '?'}: the streams differ (above)`)
      : row(String(calls + 1), open.length, `${move.padEnd(5)} -> this call differs (above)`));
    return out;
  }
}

export { moveOf };
