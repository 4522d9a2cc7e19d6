// The search as a page, for `npm run tree -- --html FILE` (test/tools/tree.ts): every drawn call of
// `D()` read from the call stream (test/support/calls.ts), the same lines the text tree draws, with
// what a learner would otherwise work out by hand: the board of each call (its caller's with the
// move made as `D()` makes it, checked against the stream's SUM), its move's gain, the sums that
// made its running score and its window, the best score its caller had and the call that set it,
// what its hash probe found, its passes and why it ended, and the calls of each pass an option left
// out (or, on a page of two searches, that are the same in both); the companion's sentences it
// quotes. The page itself (HTML, CSS, script, data) is written by test/support/tree-html-page.ts;
// this file reads the stream and works the numbers out.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { I, S, parse, type Call, type Pass, type PassEnd, type Return, type Store, type Take } from './calls.ts';
import { CENTRE, Refused, VALUES, at64, makeMove, sumOf, type Board64, type Made } from './tree.ts';

/** The part of a search a page holds (at every depth), and how its calls are labelled. */
export interface PageOptions {
  pass?: number;                                       // only this pass (its depth d) of the first call
  path?: string[][];                                   // only the calls along these moves (one list a ply)
  checks: number;                                      // calls from main() to pass over first (typed moves)
  keep?: () => boolean;                                // may the page hold one more call? (else: left out, 'limit')
}

/** A pass of a call: its depth d, where it ended (the '!' line: best m, cut-off, X and Y), the moves that
 *  took a king in it, the calls it made (their indices), what it stored, and for a root its trace line. */
export interface PagePass {
  d: number; m: number; cut: boolean; X: number; Y: number; takes: Take[]; kids: number[]; store?: Store; trace?: Pass;
  final?: number;                                      // its score after the null move, when m was -8000
  ended: boolean;                                      // its '!' line has come
  best: number;                                        // its best score m so far, as D() keeps it
  bestBy?: By;                                         // the call whose score that is (none: the pass's start)
  hid: number;                                         // the calls it made that are not drawn,
  hidBelow: number;                                    // and they with every call below them
  why?: LeftOut;                                       // the option that left them out
}

/** A call named by its number in the stream and its move, and whether the page draws it. */
export interface By { no: number; move: string; drawn: boolean }
/** What leaves a call out of the page: --pass (a pass of the first call not asked for) or --path; on a page
 *  of two searches, being the same in both ('same': the calls below a call that returned before the first
 *  difference) or the page's limit of calls a side ('limit'). */
export type LeftOut = 'pass' | 'path' | 'same' | 'limit';

/** How a move's numbers were made, by D()'s own steps on its caller's board. */
export interface Gain {
  centre: number;                                      // b[x + 8] - b[y + 8], the centre points (p < 6)
  left: number; right: number; pawn: number;           // pawns: 1 for a side with no partner; -9 × (left + right - 1)
  castling: number;                                    // 30 for a castling
  taken: number; capture: number; promotion: number;   // the piece on H, 99 × its value; 799 for a queen made
}

/** One call of D(), as the page shows it. */
export interface PageCall {
  no: number;                                          // its number in the stream (compare --calls, tree --at)
  up: number;                                          // its caller's index (-1: the first call)
  pass: number;                                        // the caller's pass (its d) that made it; 0 for the first
  c: Call;
  v?: number; after?: number;                          // its result, and the node count when it returned
  passes: PagePass[];
  inside: number;                                      // calls made inside it, drawn or not
  board?: Board64;                                     // the board it searched (undefined: a move not known)
  made?: Made;                                         // its move, made on the caller's board
  gain?: Gain;
  best?: number;                                       // the caller's best score m when it was called,
  bestBy?: By;                                         // and the call whose score that was (none: the pass's start)
  sumOk?: boolean;                                     // the board's sum is the stream's SUM for the call
}

/** The calls to draw are too many to collect: the calls collected so far. */
export class TooBig { constructor(readonly calls: number) {} }

/** The most calls a page collects before it gives up (a page holds far fewer: see MAX_BYTES). */
export const MAX_CALLS = 60_000;

/** Reads the stream of a search, line by line, into the calls a page draws (see PageOptions). */
export class Search {
  readonly calls: PageCall[] = [];
  board?: Board64;                                     // the first call's: main()'s last ('@'), or start()'s
  done = false;
  last?: PageCall;                                     // the drawn call that returned last
  counted = 0;                                         // every call of the search, drawn or not
  private open: (PageCall | undefined)[] = [];         // the open calls; undefined: one not drawn
  private hidden = 0;                                  // depth inside a call not drawn
  private checked = 0;
  private checkDepth = 0;
  private number = 0;                                  // the stream's number of the last call read
  constructor(private readonly o: PageOptions) {}

  /** The first call to come is call `number` of its stream, on `board` (a call below the first ply of a
   *  stream: its board made move by move; undefined when a move to it is not known). */
  start(number: number, board?: Board64): void {
    this.number = number - 1;
    this.board = board;
  }

  feed(line: string): void {
    if (this.checked < this.o.checks) return this.check(line);
    if (this.hidden) return this.skip(line);
    const e = parse(line);
    if (e.t === '@') this.board = e.b;
    else if (e.t === '>') this.enter(e);
    else if (e.t === '<') this.leave(e);
    else if (e.t === '#') this.passOf(this.top()).takes.push(e);
    else if (e.t === '!') this.passEnds(this.top(), e);
    else if (e.t === 's') this.lastPass(this.top()).store = e;
    else if (e.t === '=') this.lastPass(this.top()).trace = e;
  }

  private check(line: string): void {                 // a typed move's legality check: not drawn
    if (line[0] === '>') { this.checkDepth++; this.number++; }
    else if (line[0] === '<' && --this.checkDepth === 0) {
      if ((parse(line) as Return).v !== I) throw new Refused(this.checked + 1);
      this.checked++;
    }
  }
  private skip(line: string): void {                  // inside a call not drawn: only counted
    if (line[0] === '>') { this.hidden++; this.count(); this.hiddenPass!.hidBelow++; }
    else if (line[0] === '<' && --this.hidden === 0) this.scored(this.top(), this.hiddenCall!, parse(line) as Return);
  }
  private hiddenCall?: By & { c: Call };               // the call not drawn that is open (its calls not drawn either),
  private hiddenPass?: PagePass;                       // and the pass that made it
  private index = new Map<PageCall, number>();          // each drawn call's place in calls
  private count(): void {
    this.number++; this.counted++;
    for (const c of this.open) if (c) c.inside++;
  }
  private top(): PageCall { return this.open.at(-1)!; }
  /** The pass a call is in now: the one open, or a new one (a pass starts with its first line). */
  private passOf(c: PageCall): PagePass {
    const last = c.passes.at(-1);
    if (last && !last.ended) return last;
    const d = nextPass(c);
    const p: PagePass = { d, m: 0, cut: false, X: 0, Y: 0, takes: [], kids: [], ended: false, best: d > 1 ? -I : c.c.e,
      hid: 0, hidBelow: 0 };
    c.passes.push(p);
    return p;
  }
  /** The pass that ended last: its null move, store and trace line come after its end. */
  private lastPass(c: PageCall): PagePass { return c.passes.at(-1)!; }

  private enter(c: Call): void {
    const up = this.open.at(-1), level = this.open.length;
    this.count();

    const left = up && this.leftOut(c, up, level);
    if (up && left) {
      const pass = c.move === 'null' ? this.lastPass(up) : this.passOf(up);
      pass.hid++; pass.hidBelow++; pass.why = left;
      this.hidden = 1;
      this.hiddenCall = { no: this.number, move: c.move, drawn: false, c };
      this.hiddenPass = pass;
      return;
    }
    if (this.calls.length >= MAX_CALLS) throw new TooBig(this.calls.length);
    const call: PageCall = { no: this.number, up: up ? this.index.get(up)! : -1, pass: 0, c, passes: [], inside: 0 };
    this.index.set(call, this.calls.length);
    if (up) this.madeBy(call, up);
    else {
      call.board = this.board;
      call.sumOk = call.board ? sumOf(call.board) === c.sum : undefined;
    }
    this.calls.push(call);
    this.open.push(call);
  }

  /** What leaves this call out, if anything: a pass not asked for, or a move off the path (a page draws
   *  every depth). */
  private leftOut(c: Call, up: PageCall, level: number): LeftOut | undefined {
    if (this.o.keep && !this.o.keep()) return 'limit';
    const pass = c.move === 'null' ? this.lastPass(up).d : nextPass(up);
    if (level === 1 && this.o.pass !== undefined && pass !== this.o.pass) return 'pass';
    const want = this.o.path?.[level - 1];
    return !want || want.includes(c.move) ? undefined : 'path';
  }

  /** A call made by `up`: its board, how its move changed the score, and the window it was given. */
  private madeBy(call: PageCall, up: PageCall): void {
    const c = call.c, pass = c.move === 'null' ? this.lastPass(up) : this.passOf(up);
    call.pass = pass.d;
    call.best = pass.best;
    call.bestBy = pass.bestBy;
    pass.kids.push(this.calls.length);
    if (c.move === 'null') call.board = up.board;
    else if (up.board) {
      call.made = makeMove(up.board, c.move, up.c.E, up.c.k);
      call.board = call.made?.board;
      if (call.made) call.gain = gainOf(call.made);
    }
    if (call.board) call.sumOk = sumOf(call.board) === c.sum;
  }

  private passEnds(c: PageCall, e: PassEnd): void {
    Object.assign(this.passOf(c), { d: e.d, m: e.m, cut: e.cut, X: e.X, Y: e.Y, ended: true });
  }

  private leave(r: Return): void {
    const c = this.open.pop()!;
    c.v = r.v; c.after = r.N;
    this.last = c;
    const up = this.open.at(-1);
    if (up) this.scored(up, { no: c.no, move: c.c.move, drawn: true, c: c.c }, r);
    if (!this.open.length) this.done = true;
  }

  /** Leaves out the calls below `c`, which has just returned (they are the last ones held), each counted in
   *  the pass of c that made it, as left out for `why`. */
  collapse(c: PageCall, why: LeftOut): void {
    const at = this.index.get(c)!;
    for (const p of c.passes) {
      if (!p.kids.length) continue;
      p.hid += p.kids.length;
      p.hidBelow += p.kids.reduce((n, k) => n + 1 + this.calls[k].inside, 0);
      p.why = why;
      p.kids = [];
      if (p.bestBy?.drawn) p.bestBy = { ...p.bestBy, drawn: false };
    }
    for (const gone of this.calls.splice(at + 1)) this.index.delete(gone);
  }

  /** A reply of `up` has returned: the null move ends the pass before it; another sets the pass's best
   *  as D() does: the best move slipped in first whatever it scored, the rest when higher; in a
   *  legality check (z 9) none. The pass keeps which call set its best, drawn or not. */
  private scored(up: PageCall, by: By & { c: Call }, r: Return): void {
    const pass = this.lastPass(up), c = by.c;
    if (c.move === 'null') pass.final = Math.trunc(0 - r.v / 2) + 0;
    else if (up.c.z !== 9 && (c.hint || scoreFor(up.c, r.v) > pass.best)) {
      pass.best = scoreFor(up.c, r.v);
      pass.bestBy = { no: by.no, move: by.move, drawn: by.drawn };
    }
  }
}

/** The depth of a call's next pass: one more than the last's, or than the depth its probe found (n - 1
 *  when that was deep enough but did not answer), or 1. */
function nextPass(c: PageCall): number {
  const last = c.passes.at(-1);
  if (last) return last.ended ? last.d + 1 : last.d;
  const p = c.c.probe;
  if (!p || p.d === undefined) return 1;
  return (p.d >= c.c.n ? c.c.n - 1 : p.d) + 1;
}

/** A reply's result as its caller scores the move: minus it, a point less when above the caller's e. */
export const scoreFor = (up: Call, v: number): number => { const s = 0 - v; return s - +(s > up.e); };  // (never -0)


/** What a move earns, by D()'s steps (the pawns' partners are looked for on the board after it). */
export function gainOf(made: Made): Gain {
  const { x, y, p, u, t, board } = made;
  const centre = p < 6 ? CENTRE[x] - CENTRE[y] : 0;
  // 1 when no pawn of the mover's stands two files along: off the board, or the square holds something else
  const alone = (s: number): number => +((s & 0x88) !== 0 || board[at64(s)] !== u);
  const left = p < 3 ? alone(x - 2) : 0;
  const right = p < 3 ? alone(x + 2) : 0;
  const pawn = p < 3 ? -9 * (left + right - 1) + 0 : 0;                 // (+ 0: never -0)
  const castling = made.G !== S ? 30 : 0, capture = 99 * VALUES[t & 7], promotion = made.promotion ? 799 : 0;
  return { centre, left, right, pawn, castling, taken: t, capture, promotion };
}

// ---- the companion's words ----------------------------------------------------------------------

/** The companion's sentences the page quotes, by what they explain: the section of annotated/README.md,
 *  and words the sentence holds. */
export const WORDS: Record<string, [section: string, holds: string]> = {
  window: ['Alpha-beta', 'window is ours turned round'],
  cutoff: ['Alpha-beta', 'a **cut-off**'],
  pat: ['The search', '**stand pat**'],
  depth1: ['A chess engine in one page', 'Depth 1 searches only recaptures'],
  king: ['King capture', 'Capturing a king scores 8000'],
  answer: ['Remembered positions', 'A node looks its position up first'],
  nullMove: ['Mate and stalemate', '**null move**'],
  mate: ['Mate and stalemate', 'the position is worth `-I/2`'],
  hint: ['Iterative deepening', '**best move first**'],
  resume: ['Iterative deepening', 'starts at pass `s + 1`'],
  limit: ['Iterative deepening', 'The root deepens past its `n` of 0'],
  d99: ['Iterative deepening', 'sets the depth to 99'],
  recapture: ['Iterative deepening', '**recapture extension**'],
  centre: ['The score', 'centre points, in the right half'],
  pawns: ['The score', 'A pawn of the same colour'],
  gain: ['The score', 'counts a point less'],
  running: ['The score', 'keeps a running score'],
};

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export const slug = (heading: string): string =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- ]/gu, '').replace(/ /g, '-');

/** The sentence of a Markdown text's section that holds `holds`, or what is wrong. */
export function sentenceOf(md: string, section: string, holds: string): string {
  const start = md.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`annotated/README.md has no section "${section}"`);
  const end = md.indexOf('\n## ', start + 1);
  const text = md.slice(start, end < 0 ? md.length : end).replace(/```[\s\S]*?```/g, '');
  const paragraph = text.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, ' ').trim()).find((p) => p.includes(holds));
  if (!paragraph) throw new Error(`annotated/README.md, "${section}": no sentence holds "${holds}"`);
  const sentences = paragraph.replace(/^- /, '').split(/(?<=[.:])\s+(?=[A-Z`*])/);
  return sentences.find((s) => s.includes(holds)) ?? paragraph;
}

/** Markdown's inline marks (links, bold, code) as HTML, the rest escaped; a link in brackets, which
 *  sends the reader elsewhere in the companion, is left out. */
export function inlineHtml(md: string): string {
  return escapeHtml(md.replace(/\s*\(\[[^\]]*\]\([^)]*\)\)/g, '')).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
    .replace(/\*([^*]+)\*/g, '<i>$1</i>').replace(/`([^`]+)`/g, '<code>$1</code>');
}
export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The companion's words for the page: each as [HTML of its sentence, link to its section, its name]. A
 *  sentence is quoted beside every call it explains, so its figures for the companion's own example ("(-8001
 *  here)") are left out: they hold there, not at every call. */
export function companionWords(readme: string, href: string): Record<string, [string, string, string]> {
  return Object.fromEntries(Object.entries(WORDS).map(([key, [section, holds]]) =>
    [key, [inlineHtml(withoutExample(sentenceOf(readme, section, holds))), `${href}#${slug(section)}`, section]]));
}
/** A sentence without its figures for the example at hand: a bracket ending in "here". */
export const withoutExample = (sentence: string): string => sentence.replace(/\s*\([^()]*\bhere\)/g, '');

/** Where a page at `file` finds annotated/README.md: a relative path inside the project, else a file URL. */
export function companionHref(file: string, root: string): string {
  const readme = path.join(root, 'annotated', 'README.md');
  const rel = path.relative(path.dirname(path.resolve(file)), readme);
  return rel.startsWith('..' + path.sep + '..' + path.sep + '..') ? `file://${readme}` : rel.split(path.sep).join('/');
}

export const readCompanion = (root: string): string => fs.readFileSync(path.join(root, 'annotated', 'README.md'), 'utf8');
