// npm run tree -- [--moves "e2e4 e7e5"] [--fen FEN] [--call "D(k, q, l, e, E, z, n)"] [--nodes N]
//                 [--depth D] [--limit L] [--keys] [--pass P] [--path "c7d6 a7b6"] [--no-board] [--brief]
// npm run tree -- --stream FILE [--at N] [--depth D] [--limit L] [--keys]
// npm run tree -- ... --html FILE
// npm run tree -- [--c | --stream FILE | --stored NAME] [input-file] ... --against SOURCE | --program "CMD" --html FILE
// micro-Max thinks about its next move, as an empty line makes it do, after those moves (from the
// opening, or from FEN), or runs the one call of `D()` given; this prints the search call by call,
// indented by ply, below a board of the position: the move that led to each call, its arguments in
// the guide's names (squares by name), what the hash probe found, what the call returned, and tags
// for what the engine did there (see USAGE). `--pass`, `--path` and `--no-board` draw only part of
// it, `--brief` only its moves and scores. The calls come from the port instrumented by
// `test/support/calls.ts`, or from a stream file any program wrote (`--stream`, the C's from `npm
// run calls`; `--at N`, call N on its board), and are drawn by `test/support/tree.ts`; exit 2 on
// bad arguments. With `--html FILE`, the same search is also written as a page
// (`test/support/tree-html.ts` reads it, `tree-html-page.ts` lays it out). With `--against` (a
// changed copy, the port, a stream file) or `--program`, against this port, the C (`--c`) or its
// stored stream (`--stored NAME`): a page of two searches of the same input, side by side and
// aligned call by call, opened on the first call that differs (`test/support/tree-against.ts` reads
// them).
//
// time: seconds

import * as fs from 'node:fs';
import * as path from 'node:path';

import { exit, fail, moveList, readInput, readOptions, userPath, whole } from '../support/options.ts';
import { ROOT } from '../support/run.ts';
import { MAX_CALLS, Search, TooBig, companionHref, companionWords, readCompanion, type PageCall } from '../support/tree-html.ts';
import { MAX_BYTES, MAX_TWO_BYTES, pageHtml, twoPageHtml, type PageInfo } from '../support/tree-html-page.ts';
import { CannotOpen, PER_SIDE, align, labelOf, openSide, readTwo, shellWord, whereOf, type Opened, type Source,
  type TwoSearches } from '../support/tree-against.ts';
import { SCRIPTS, scriptInput } from '../support/scripts.ts';
import { BadLine, Lines, parse, runCalls, square, type Call, type Running } from '../support/calls.ts';
import { Focus, PathMatch, Refused, Tree, at64, boardLines, brief, legend, makeMove, named, oneSquareFits, pieceLetter, readCall, readPath,
  sumOf, type CallArgs } from '../support/tree.ts';

const USAGE = `usage: npm run tree -- [--moves "e2e4 e7e5"] [--fen FEN] [--call "D(k, q, l, e, E, z, n)"]
                       [--nodes N] [--depth D] [--limit L] [--keys] [--pass P] [--path "c7d6 a7b6"] [--no-board]
                       [--brief]
       npm run tree -- --stream FILE [--at N] [--depth D] [--limit L] [--keys]
       npm run tree -- ... --html FILE
       npm run tree -- [--c | --stream FILE | --stored NAME] [input-file] [--moves "..."] [--fen FEN] [--call "D(..)"]
                       [--nodes N] [--keys] --against SOURCE | --program "CMD" --html FILE
micro-Max thinks about its next move (as an empty line makes it do), and this prints its search call
by call, indented by ply, below the position.
  --moves "..."  the moves, from the opening (or FEN), before micro-Max thinks
  --fen FEN      the position to start from (port only: the C has no set-up)
  --call "D(..)" instead of the think, one call of D() on that position, with seven arguments in order
                 or by name (D(k=8, q=-8000, l=-50, e=0, E=128, z=128, n=3)): k 8 (white) or 16 (black),
                 whoever is to move; q < l; e the running score; E and z a square (e3) or 128 for none
                 (E also -128), z 8 for a root search, z 9 for main()'s legality check of the last
                 of --moves (checked there, not played); n 1 to 98 (0 with z 8). J and Z are 1 and 1, the
                 keys main() gives every position it searches (a reply's keys are its caller's plus the
                 move's change, Jd()); the hash table starts empty
  --nodes N      a root search (z 8) stops deepening after N nodes (default: the C's 1e7)
  --depth D      draw calls down to D plies below the first (default 1); deeper ones are only counted
  --limit L      stop after L lines (default 100; 0: no limit)
  --keys         show the hash keys J and Z in each call
  --pass P       draw only pass P of the first call (the pass of depth P: "pass P done")
  --path "..."   draw only the calls along these moves, one a ply (c7d6, then a7b6 below it), with all
                 that is drawn below the last; a ply's choices joined by commas (e2e4,g1f3); null: the
                 null move
  --no-board     leave out the heading: the position, and the legend of a line
  --brief        each line's move and score alone: a call's move and result, a pass's depth, score
                 and best move (no arguments, probes, tags, or counts of nodes and calls)
  --stream FILE  draw from a call stream a program wrote (the C's: npm run calls; test/PORTING.md)
                 instead of running the port
  --at N         with --stream: draw call N of the stream, as compare --calls numbers them (default:
                 the first think); below the first ply, the heading also draws the board of call N, each
                 move to it made as D() makes it and checked against the stream's SUM of its call
  --html FILE    also write the search as a page to open in a browser (one file, nothing fetched): every
                 call of what the text draws, at every depth (--depth and --limit shape the text alone),
                 each with its board, its arguments by name, the sums behind its e and window, its hash
                 probe, its passes and why it ended; arrow keys step through the calls, and FILE#call-N
                 opens call N. A search too big for a page (2 MB, some 15,000 calls) is refused: narrow
                 it with --pass or --path (or --nodes). Calls are numbered from the start of the run: with
                 --moves, main()'s legality check of each typed move, a search of its own, comes first (for
                 --moves "e2e4 e7e5" 33 calls), so the think is not call 1
A page of two searches: the same input searched by two engines, side by side, the calls each made aligned
call by call; it opens on the first call that differs (as compare --calls finds it), with both boards,
both sets of arguments and the sums behind them, the fields that differ marked, and the path to it; on the
way there each call is drawn without the calls below it (the same in both), and after it each side's own
calls are drawn, up to ${PER_SIDE} a side; each side is read to the end of that call from main() (a small
--nodes keeps a think quick). The first side is this port, or:
  --c            the C (built from MICROMAX_C), run on the input
  --stream FILE  a stream file (npm run calls writes the C's)
  --stored NAME  the C's stream of the golden script NAME as test/fixtures/calls/ ships it (no C needed); the
                 other side runs on that script's input, at its --nodes
and the second:
  --against SOURCE  port (this port), a changed copy of micromax.ts (a file ending in .ts: my-micromax.ts,
                 instrumented as the port is), or a stream file
  --program "CMD"  a program that writes the call stream to --calls PATH (test/PORTING.md), run on the input
  input-file     the input both run (default: --moves, then an empty line: micro-Max's move); --fen and
                 --call only for the port and copies of it
Each line: the move to a call (null: the null move; root: the think; call: --call's), D(k, q, l, e, E,
z, n) with E and z by square name (numbers are no square: E 128 or -128, none, or 0, a first think's:
the C's unset O, which the engine reads as a8, where nothing skips; z 8, a root; z 128, no last move),
the hash probe (empty; full: 8 slots held by other positions; or the entry's depth d, score v, ≥ for
a lower bound, ≤ for an upper one, and best move), → the result (calls below it, at all depths), then
tags. A call whose replies are drawn, and every root search, draws its passes after their calls: "pass
d done", d being the depth the pass searched, D()'s d (a root search's pass also gives the node count,
N; its trace line prints d - 1 as "ply", and 98 after a mate score), the score m and the best move X,
Y. A call that finds its position stored at depth s starts at pass s + 1 (at most n).
The board: P N B R Q K are pawn, knight, bishop, rook, queen, king, upper case white, lower case black
(the game, npm start, prints a white pawn as * and a black one as +).
A line's → N after a move: the reply's result, the value of the position for the side to move there (the
mover's opponent), so the mover's best move has the lowest N.
Tags, each on the line of the call (or the pass) in which D() does it:
  hint (best move first)  this call's move is its caller's best, slipped in before the board walk
                          (\`if (Y & 8) H = y = …\`); the walk searches it again when it gets there
  hash answer             the entry is deep enough (d ≥ n) and its score fits the window (exact, a
                          lower bound ≥ l or an upper bound ≤ q): D() returns it, counting no node
  stands pat              a pass of depth d ≤ 1 starts from the running score (m = e) and ends with
                          m = e: nothing it searched or saw scored more
  cut-off (m ≥ l)         the best score so far, m (a move's v; e when standing pat; 8000 on a king
                          capture), reached l: \`if (m >= l) break C\` ends the pass there
  king capture (x-y)      the move x-y would take the king (\`i < 0\`): m = 8000
  illegal castling (x-y)  the move x-y lands on or beside E, the square a castling king crossed: m = 8000
  no legal move (m = -8000)   the pass ends at m = -8000: every move lost the king (or there was none)
  null move: is the side to move in check?
                          the call after such a pass: the other side moves on the same board, depth
                          1. Taking the king (8000) makes the pass -4000, checkmate; else it scores
                          minus half the call's result (a stalemate: about 0). It inherits z, so after
                          a root's pass it is a root search (z 8) itself, with its own passes: the
                          opponent thinks for free, and the root scores minus half of what it finds
                          (in Loyd's stalemate 3999, so -1999; for k7/8/1Q6/8/8/8/8/K7 b, -1996).
A call drawn on one line lists its passes' tags, naming the passes (by depth) when it ran several.
Exit 0, or 2 for bad arguments, a bad FEN, a move micro-Max refuses, or a --path whose move no call made (a
promotion is named with its q: a7a8q).`;
const usage = (msg: string): never => fail('tree', msg);

const { values, positionals } = readOptions('tree', USAGE, {
  moves: { type: 'string' }, fen: { type: 'string' }, call: { type: 'string' }, nodes: { type: 'string' },
  depth: { type: 'string' }, limit: { type: 'string' }, keys: { type: 'boolean' },
  pass: { type: 'string' }, path: { type: 'string' }, 'no-board': { type: 'boolean' }, brief: { type: 'boolean' },
  stream: { type: 'string' }, at: { type: 'string' }, html: { type: 'string' },
  against: { type: 'string' }, program: { type: 'string' }, c: { type: 'boolean' }, stored: { type: 'string' },
}, 1);
const opt = {
  moves: moveList('tree', values.moves, false) ?? [],
  fen: values.fen ?? '',
  call: values.call === undefined ? undefined : readCall(values.call),
  nodes: whole('tree', 'nodes', values.nodes, 1),
  depth: whole('tree', 'depth', values.depth, 0) ?? 1,
  limit: whole('tree', 'limit', values.limit, 0) ?? 100,
  keys: values.keys ?? false,
  ...focusOptions(),
  stream: values.stream,
  at: whole('tree', 'at', values.at, 1),
  html: values.html,
};
if (opt.html !== undefined && !opt.html.trim()) usage('--html needs a file to write');
if (values.fen !== undefined && !values.fen.trim()) usage('--fen needs a position');
if (typeof opt.call === 'string') usage(`--call: ${opt.call}`);
const call = opt.call as CallArgs | undefined;
const check = call?.z === 9;                            // main()'s legality check of the last move
if (check && !opt.moves.length) usage('--call with z 9 checks the last move of --moves: give --moves');
/** A page of two searches (--against, --program): its sides, checked; undefined for one search. */
const two = twoOptions();
if (!two && opt.at !== undefined && opt.stream === undefined) usage('--at is for --stream');
if (!two && opt.stream !== undefined && (values.moves ?? values.fen ?? values.call ?? values.nodes) !== undefined) {
  usage('--stream draws the file: leave out --moves, --fen, --call and --nodes');
}

/** --against or --program, and the options a page of two searches takes: its two sides. */
function twoOptions(): [Source, Source] | undefined {
  const firsts = [values.c && '--c', values.stream !== undefined && '--stream', values.stored !== undefined && '--stored'].filter(Boolean);
  if (values.against === undefined && values.program === undefined) {
    if (positionals.length) usage(`unexpected argument '${positionals[0]}' (an input file is for a page of two searches: --against)`);
    const other = firsts.find((f) => f !== '--stream');
    if (other) usage(`${other} is for a page of two searches: give --against or --program`);
    return undefined;
  }
  if (values.against !== undefined && values.program !== undefined) usage('give --against or --program, not both');
  if (firsts.length > 1) usage(`give one first side: ${firsts.join(' or ')}`);
  if (opt.html === undefined) usage('a page of two searches is a page: give --html FILE');
  const text = ['at', 'pass', 'path', 'depth', 'limit', 'no-board', 'brief'].find((o) => values[o as keyof typeof values] !== undefined);
  if (text) usage(`--${text} is not for a page of two searches: it opens on their first difference itself`);
  const sides: [Source, Source] = [firstSide(), secondSide()];
  const ported = (x: Source): boolean => x.kind === 'port' || x.kind === 'copy' || x.kind === 'stream';
  if ((values.fen ?? values.call) !== undefined && !sides.every(ported)) {
    usage('--fen and --call set up the port and copies of it only (the C and a program take typed moves)');
  }
  if (positionals.length && (values.moves ?? values.fen ?? values.call) !== undefined) usage('give --moves or an input file, not both');
  return sides;
}
/** The first side of two searches: the port, or --c, --stream FILE or --stored NAME. */
function firstSide(): Source {
  if (values.c) return { kind: 'C' };
  if (values.stream !== undefined) return { kind: 'stream', file: values.stream };
  if (values.stored === undefined) return { kind: 'port' };
  if (!SCRIPTS.some((x) => x.name === values.stored)) usage(`--stored: no script named '${values.stored}' in test/fixtures/scripts.tsv`);
  if ((values.moves ?? values.fen ?? values.call ?? values.nodes ?? positionals[0]) !== undefined) {
    usage('--stored runs the script\'s own input at its --nodes: leave out --moves, --fen, --call, --nodes and an input file');
  }
  return { kind: 'stored', name: values.stored };
}
/** The second side: --program "CMD", or --against port, a copy of micromax.ts (.ts) or a stream file. */
function secondSide(): Source {
  if (values.program !== undefined) {
    return values.program.trim() ? { kind: 'program', command: values.program } : usage('--program wants a command');
  }
  const against = values.against!.trim();
  if (!against) usage('--against wants port, a copy of micromax.ts or a stream file');
  if (against === 'port') return { kind: 'port' };
  return /\.[cm]?ts$/.test(against) ? { kind: 'copy', file: against } : { kind: 'stream', file: against };
}

/** --pass, --path, --no-board and --brief: what the tree is focused on. */
function focusOptions(): { pass?: number; path?: string[][]; board: boolean; brief: boolean } {
  const pass = whole('tree', 'pass', values.pass, 1, 99);
  const path = values.path === undefined ? undefined : readPath(values.path);
  if (typeof path === 'string') usage(`--path: ${path}`);
  if (values.brief && values.keys) usage('--brief leaves out the arguments, so --keys would show nothing');
  return { pass, path: path as string[][] | undefined, board: !values['no-board'], brief: values.brief ?? false };
}

// ---- the output ---------------------------------------------------------------------------

class Stop { constructor(readonly last: string, readonly code: number) {} }
const out = {
  lines: 0, buf: '',
  put(s: string): void {
    const limit = opt.limit;
    if (limit && this.lines === limit) throw new Stop(`(stopped at --limit ${limit}; --limit 0 shows all)`, 0);
    this.buf += s + '\n'; this.lines++;
    if (this.buf.length > 1 << 16) this.flush();
  },
  flush(): void { process.stdout.write(this.buf); this.buf = ''; },
};
// a reader that stops early (| head): the port is stopped, exit 0
process.stdout.on('error', () => {
  run?.child.kill();
  exit(0);
});

/** What is searched, the board, and the legend: the lines above the first call (not counted). */
function heading(first: Call, board: number[]): void {
  if (!opt.board) return;
  const what = headingOf(first);
  const after = opt.stream !== undefined ? afterMoves() : [];
  out.buf += [what, ...boardLines(board), ...after, ...legend(opt.keys, opt.brief, opt.depth > 0), ''].join('\n') + '\n';
}

/** The heading's first line: what is searched. */
function headingOf(first: Call): string {
  const side = first.k === 8 ? 'white' : 'black';
  return opt.stream !== undefined ? fromStream.heading(first, side)
    : call ? `One call, ${named(first)}, ${side} moving, on an empty hash table${check ?
      `, checking ${opt.moves.at(-1)} (main()'s legality check)` : ''}:` : `micro-Max thinks, ${side} to move:`;
}

const env: NodeJS.ProcessEnv = {
  ...opt.fen ? { MICROMAX_FEN: opt.fen } : {},
  ...call ? { MICROMAX_CALL: [call.k, call.q, call.l, call.e, call.E, call.z, call.n, opt.moves.length - 1].join(' ') } : {},
};
/** The calls from main() before the one drawn, which the tree and the page pass over: the typed moves'
 *  legality checks (but the last move's, when that check is the call drawn). */
const checks = opt.moves.length - (check ? 1 : 0);
/** The first call's label, in the tree and on the page: root (a think), check, or call (--call's, --stream's). */
const top = opt.stream !== undefined ? 'call' : check ? 'check' : call ? 'call' : 'root';
const typed = opt.moves.map((m) => `${m}\n`).join('') + (check ? '' : '\n');
const run: Running | undefined = opt.stream === undefined && !two ? runCalls('port', typed, { nodes: opt.nodes }, env) : undefined;
const focus = new Focus({ pass: opt.pass, path: opt.path, put: (l) => out.put(l) });
/** Which moves of --path the search made (a move it never made draws nothing: exit 2, saying so). */
const pathMatch = opt.path && new PathMatch(opt.path, opt.stream === undefined ? checks : 0);
const tree = new Tree({ depth: opt.depth, keys: opt.keys, checks, top,
  put: (l, what) => focus.take(opt.brief ? brief(l, what) : l, what), heading });

// ---- --stream FILE: the lines from call --at N (or the first think) on -----------------------

const fromStream = {
  number: 0, board: '', path: [] as string[], file: opt.stream ?? '', source: undefined as Lines | undefined,
  /** What a stream that ends too soon adds: its last line cut short, if it was. */
  cut(): string {
    return this.source?.cut === undefined ? '' : ` (its line ${this.source.cut} is cut short: no newline)`;
  },
  heading(first: Call, side: string): string {
    const what = first.move === '-' ? first.z === 9 ? 'a legality check from main()' : 'a think from main()' : `a call at ply ${this.path.length}`;
    const reached = this.path.length ? `, reached by ${this.path.join(' ')} from this position` : '';
    return `Call ${this.number} of ${this.file}, ${what}, ${named(first)}, ${side} moving${reached}:`;
  },
  /** The lines from the call to draw on: the board before it first (the last from main()). A first line
   *  starting with '%' is the stream's header (its settings): passed over. */
  async *lines(): AsyncGenerator<string> {
    const file = userPath(this.file);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) usage(`--stream: no file ${this.file}`);
    const lines = this.source = new Lines(fs.createReadStream(file)), open: Call[] = [];
    let first = true;
    for (let line = await lines.next(); line !== undefined; line = await lines.next()) {
      if (first && line[0] === '%') { first = false; continue; }
      first = false;
      if (line[0] === '@') this.board = line;
      else if (!'<>#!s='.includes(line[0] || ' ')) parse(line);   // not a line of a stream: BadLine says why
      else if (line[0] === '<') { open.pop(); this.boards.pop(); }
      else if (line[0] === '>') {
        this.number++;
        const c = parse(line) as Call;
        this.boards.push(this.boardOf(c, open.at(-1)));
        if (opt.at === undefined ? c.move === '-' && c.z === 8 : this.number === opt.at) {
          this.path = [...open.slice(1).map((o) => o.move), ...open.length ? [c.move] : []];
          if (this.board) yield this.board;
          // the page numbers its calls from this one, on the board the moves to it made
          page?.start(this.number, this.boards.at(-1)?.board);
          tree.start(this.boards.at(-1)?.board);
          yield line;
          for (let more = await lines.next(); more !== undefined; more = await lines.next()) yield more;
          return;
        }
        open.push(c);
      }
    }
    throw new Stop(`${this.file} has ${opt.at === undefined ? 'no think (a call from main() with z 8)' : `no call ${opt.at}` +
      ` (it has ${this.number})`}${this.cut()}`, 2);
  },
  /** The boards of the calls open above the drawn one (and of the drawn call, last). */
  boards: [] as CallBoard[],
  /** A call's board: main()'s (its '@' line) for a call from main(), else its caller's with the move made
   *  as D() makes it, and whether the stream's SUM for the call agrees. */
  boardOf(c: Call, up: Call | undefined): CallBoard {
    const caller = this.boards.at(-1);
    let board: number[] | undefined;
    if (!up) board = (parse(this.board || `@${' 0'.repeat(64)}`) as { b: number[] }).b;
    else if (c.move === 'null') board = caller?.board;
    else if (caller?.board) board = makeMove(caller.board, c.move, up.E, up.k)?.board;
    return { move: c.move, board, sum: c.sum, number: this.number };
  },
};
interface CallBoard { move: string; board?: number[]; sum: number; number: number }

/** With --stream --at N below the first ply: the call's board, after its move, made here move by move
 *  from main()'s as D() makes them, each checked against the stream's SUM for its call; a board that
 *  disagrees is the program's own move-making (test/PORTING.md), and the first such call is named. */
function afterMoves(): string[] {
  const [drawn, ...above] = [...fromStream.boards].reverse();
  if (!drawn || above.length === 0) return [];
  const moves = fromStream.path.join(' ');
  if (!drawn.board) return [`After ${moves}: no board (a move the stream does not name, '?', or one no piece could make).`];
  const wrong = fromStream.boards.find((b) => b.board && sumOf(b.board) !== b.sum);
  const head = `The board of call ${drawn.number}, after ${moves}, each move made as D() makes it:`;
  if (!wrong) return [head, ...boardLines(drawn.board, false), `  (the stream's sum of every board on the way, ${drawn.sum} at call ${drawn.number}, agrees)`];
  const [at, that] = wrong === drawn ? ['this call', 'this'] : [`call ${wrong.number}, after ${wrong.move},`, 'that'];
  const fit = fitText(wrong.board!, wrong.sum, that);
  return [head, ...boardLines(drawn.board, false),
    `  the program's board differs: at ${at} the stream's sum is ${wrong.sum}, ${that} board's ${sumOf(wrong.board!)}${fit}`];
}

/** Which one square, changed, would give `board` the stream's `sum`: the square, what it would hold and what
 *  it holds (the program's move put the one there, D()'s the other); else how many would, or that none would. */
function fitText(board: number[], sum: number, that: string): string {
  const fits = oneSquareFits(board, sum);
  if (fits.length > 1) return `: ${fits.length} one-square changes would fit it`;
  if (!fits.length) return ': no one-square change fits it';
  const { square: s, code } = fits[0], was = board[at64(s)];
  return `: it fits ${that} board with ${square(s)} holding ${pieceText(code)} (code ${code}), not ${pieceText(was)} (code ${was})`;
}
/** A piece code by its board letter, or 'nothing'. */
const pieceText = (u: number): string => u ? pieceLetter(u) : 'nothing';

/** The lines of the search, from the stream file or the port as it runs. */
async function* searchLines(): AsyncGenerator<string> {
  if (!run) {
    yield* fromStream.lines();
    return;
  }
  for (let line = await run.lines.next(); line !== undefined; line = await run.lines.next()) yield line;
}

/** Draws the search (and reads it for the page); the text's --limit, when reached, is returned once the
 *  page has read the whole search. */
async function draw(): Promise<Stop | undefined> {
  let stopped: Stop | undefined;                       // the text's --limit, reached while the page reads on
  for await (const line of searchLines()) {
    if (!stopped && !tree.done) {
      try { tree.feed(line); } catch (err) {
        if (!(err instanceof Stop) || !page || err.code) throw err;
        stopped = err;
      }
    }
    page?.feed(line);
    pathMatch?.feed(line);
    if ((tree.done || stopped) && (page?.done ?? true)) return stopped;
  }
  if (!run) throw new Stop(`the stream ends before call ${fromStream.number} returns${fromStream.cut()}`, 1);
  const code = await run.done;                         // (2: a bad FEN, and the port said why)
  throw new Stop(code === 2 ? '' : `the port ended (exit ${code}) before its search did`, code === 2 ? 2 : 1);
}

// ---- --html FILE: the same search as a page ---------------------------------------------------

/** The page's reader of the search: every call of what the text draws, at every depth (--depth and --limit
 *  shape the text alone; --pass and --path focus both). */
const page = opt.html === undefined ? undefined : new Search({ pass: opt.pass, path: opt.path, checks });

/** How to make a page smaller, said whenever one is refused as too big. */
const NARROW = 'narrow it to one pass of the first call (--pass P), to the calls along some moves (--path "e2e4 e7e5"), ' +
  'or a smaller search (--nodes N)';

/** Writes the page, or says why not (a page too big to open quickly: how to narrow it). */
function writePage(): void {
  if (!page || !opt.html) return;
  const file = userPath(opt.html);
  const first = page.calls[0];
  const info: PageInfo = {
    title: first ? headingOf(first.c).replace(/:$/, '') : 'micro-Max 3.2',
    command: ['npm run tree --', ...process.argv.slice(2).map(shellWord)].join(' '),
    top,
    keys: opt.keys, brief: opt.brief, counted: page.counted,
    left: { ...opt.pass === undefined ? {} : { pass: `--pass ${opt.pass}` },
      ...values.path === undefined ? {} : { path: `--path ${shellWord(values.path.trim())}` } },
    words: companionWords(readCompanion(ROOT), companionHref(file, ROOT)),
    before: numbering(first?.no ?? 1),
  };
  const html = pageHtml(page, info), bytes = Buffer.byteLength(html);
  if (bytes > MAX_BYTES) {
    throw new Stop(`--html: the page would be ${(bytes / 1e6).toFixed(1)} MB (${page.calls.length} calls), more than ` +
      `${MAX_BYTES / 1e6} MB, which a browser opens slowly: ${NARROW}`, 2);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, html);
  process.stderr.write(`tree: wrote ${opt.html} (${page.calls.length} calls, ${Math.ceil(bytes / 1024)} kB): open it in a browser\n`);
}
/** Why the first call drawn, call `no`, is not call 1: the calls main() made before it. */
function numbering(no: number): string {
  if (no === 1) return '';
  const before = `${no - 1} call${no === 2 ? '' : 's'}`;
  if (opt.stream !== undefined && !two) return `Calls are numbered from the start of ${opt.stream}: ${before} come before this one.`;
  if (!two && checks) {
    return `Calls are numbered from the start of the run: main() first checks each typed move with a search of its own, ` +
      `${before} for ${checks} move${checks === 1 ? '' : 's'}, so this one is call ${no}.`;
  }
  return `Calls are numbered from the start of the run: main() made ${before} before this one (each typed move's legality ` +
    'check is a search of its own, and each think).';
}

// ---- --against, --program: a page of two searches ---------------------------------------------------

/** Reads both searches side by side, writes their page, and says on stdout where they first differ. */
async function drawTwo([a, b]: [Source, Source]): Promise<void> {
  const stored = a.kind === 'stored' ? SCRIPTS.find((x) => x.name === a.name)! : undefined;
  const input = stored ? scriptInput(stored) : positionals[0] !== undefined ? readInput('tree', undefined, positionals[0])
    : Buffer.from(typed);
  const sides: Opened[] = [];
  try {
    for (const x of [a, b]) sides.push(openSide(x, input, stored ? stored.nodes : opt.nodes, env, userPath));
  } catch (err) {                                      // (the side already running is stopped: nothing reads it)
    sides.forEach((o) => o.stop());
    throw err;
  }
  const found = await readTwo(sides[0], sides[1], 600_000);
  const [sa, sb] = found.searches, file = userPath(opt.html!), labels = [labelOf(a), labelOf(b)] as [string, string];
  const first = sa.calls[0], keys = opt.keys || !!found.first?.fields.some(([n]) => n === 'J' || n === 'Z');
  const html = twoPageHtml(found, align(sa, sb, found.pair), {
    title: `${labels[0]} against ${labels[1]}: ${whatOf(first)}`,
    command: ['npm run tree --', ...process.argv.slice(2).map(shellWord)].join(' '), labels, top: call ? 'call' : first.c.z === 9 ? 'check' : 'root', keys, before: numbering(first.no),
    words: companionWords(readCompanion(ROOT), companionHref(file, ROOT)),
  });
  const bytes = Buffer.byteLength(html);
  if (bytes > MAX_TWO_BYTES) {
    throw new Stop(`--html: the page would be ${(bytes / 1e6).toFixed(1)} MB, more than ${MAX_TWO_BYTES / 1e6} MB`, 2);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, html);
  out.buf += firstSaid(found, labels);
  process.stderr.write(`tree: wrote ${opt.html} (${sa.calls.length} and ${sb.calls.length} calls, ${Math.ceil(bytes / 1024)} kB): ` +
    `open it in a browser${found.first ? '; it opens on the first difference' : ''}\n`);
}
/** The call from main() a page of two searches draws, in words. */
function whatOf(first: PageCall): string {
  if (first.c.z === 8 && !call) return `the think of call ${first.no}, ${first.c.k === 8 ? 'white' : 'black'} to move`;
  return first.c.z === 9 ? `the legality check of call ${first.no}` : `call ${first.no}`;
}
/** Where two searches first differ, on stdout as compare --calls says it: the call, the moves to it, the fields. */
function firstSaid(found: TwoSearches, labels: [string, string]): string {
  const f = found.first;
  if (!f) return found.stored ? `the same as far as ${labels[0]} is stored: ${found.same} calls\n` : `identical: ${found.same} calls\n`;
  return `first difference: ${whereOf(f)} (ply ${f.ply}), line ${f.line} of each stream\n` +
    `  reached by ${f.path.length ? f.path.join(' ') : 'no move: it is the call from main()'}\n` +
    `  differs: ${f.fields.map(([n, x, y]) => `${n} (${labels[0]} ${x}, ${labels[1]} ${y})`).join('; ')}\n`;
}

try {
  if (two) {
    await drawTwo(two);
    throw new Stop('', 0);
  }
  const stopped = await draw();
  const unmatched = pathMatch?.done ? pathMatch.unmatched() : undefined;
  if (unmatched) throw new Stop(`--path: ${unmatched}`, 2);
  writePage();
  if (stopped) throw stopped;
} catch (err) {
  if (err instanceof Refused) {
    err = new Stop(`micro-Max does not accept ${opt.moves[err.move - 1]} there (move ${err.move})`, 2);
  }
  if (err instanceof BadLine) err = new Stop(`${opt.stream}: not a call stream: ${err.message}`, 2);
  if (err instanceof CannotOpen) err = new Stop(err.message, 2);
  if (err instanceof TooBig) {
    err = new Stop(`--html: the page would hold more than ${MAX_CALLS} calls, far more than it can show well: ${NARROW}`, 2);
  }
  if (!(err instanceof Stop)) throw err;
  if (err.code) process.stderr.write(err.last ? `tree: ${err.last}\n` : '');
  else if (err.last) out.buf += err.last + '\n';
  process.exitCode = err.code;
}
run?.child.kill();
out.flush();
