// npm run tree -- [--moves "e2e4 e7e5"] [--fen FEN] [--call "D(k, q, l, e, E, z, n)"] [--nodes N]
//                 [--depth D] [--limit L] [--keys] [--pass P] [--path "c7d6 a7b6"] [--no-board] [--brief]
// npm run tree -- --stream FILE [--at N] [--depth D] [--limit L] [--keys]
// micro-Max thinks about its next move, as an empty line makes it do, after those moves (from the
// opening, or from FEN), or runs the one call of D() given; this prints the search call by call,
// indented by ply, below a board of the position: the move that led to each call, its arguments in
// the guide's names (squares by name), what the hash probe found, what the call returned, and tags
// for what the engine did there (see USAGE). The calls come from the port instrumented by
// test/support/calls.ts, or from a stream file any program wrote (--stream: the C's, from
// `npm run calls`), and are drawn by test/support/tree.ts; exit 2 on bad arguments.

import * as fs from 'node:fs';

import { exit, fail, moveList, readOptions, userPath, whole } from '../support/options.ts';
import { BadLine, Lines, parse, runCalls, type Call, type Running } from '../support/calls.ts';
import { Focus, Refused, Tree, boardLines, brief, legend, named, readCall, readPath, type CallArgs } from '../support/tree.ts';

const USAGE = `usage: npm run tree -- [--moves "e2e4 e7e5"] [--fen FEN] [--call "D(k, q, l, e, E, z, n)"]
                       [--nodes N] [--depth D] [--limit L] [--keys] [--pass P] [--path "c7d6 a7b6"] [--no-board]
                       [--brief]
       npm run tree -- --stream FILE [--at N] [--depth D] [--limit L] [--keys]
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
                 the first think)

Each line: the move to a call (null: the null move; root: the think; call: --call's), D(k, q, l, e, E,
z, n) with E and z by square name (numbers are no square: E 128 or -128, none, or 0, a first think's:
the C's unset O, which the engine reads as a8, where nothing skips; z 8, a root; z 128, no last move),
the hash probe (empty; full: 8 slots held by other positions; or the entry's depth d, score v, ≥ for
a lower bound, ≤ for an upper one, and best move), → the result (calls made inside), then tags. A call whose replies
are drawn, and every root search, draws its passes after their calls: "pass d done", d being the depth
the pass searched, D()'s d (a root search's pass also gives the node count, N; its trace line prints
d - 1 as "ply", and 98 after a mate score), the score m and the best move X, Y. A call that finds its
position stored at depth s starts at pass s + 1 (at most n).
The board: P N B R Q K are pawn, knight, bishop, rook, queen, king, upper case white, lower case black
(the game, npm start, prints a white pawn as * and a black one as +).
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
                          a root's pass it is a root search (z 8) itself, with its own passes, and its
                          result can be a deep score (in Loyd's stalemate 3999, so -1999).
A call drawn on one line lists its passes' tags, naming the passes (by depth) when it ran several.
Exit 0, or 2 for bad arguments, a bad FEN or a move micro-Max refuses.`;
const usage = (msg: string): never => fail('tree', msg);

const { values } = readOptions('tree', USAGE, {
  moves: { type: 'string' }, fen: { type: 'string' }, call: { type: 'string' }, nodes: { type: 'string' },
  depth: { type: 'string' }, limit: { type: 'string' }, keys: { type: 'boolean' },
  pass: { type: 'string' }, path: { type: 'string' }, 'no-board': { type: 'boolean' }, brief: { type: 'boolean' },
  stream: { type: 'string' }, at: { type: 'string' },
});
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
};
if (values.fen !== undefined && !values.fen.trim()) usage('--fen needs a position');
if (typeof opt.call === 'string') usage(`--call: ${opt.call}`);
const call = opt.call as CallArgs | undefined;
const check = call?.z === 9;                            // main()'s legality check of the last move
if (check && !opt.moves.length) usage('--call with z 9 checks the last move of --moves: give --moves');
if (opt.at !== undefined && opt.stream === undefined) usage('--at is for --stream');
if (opt.stream !== undefined && (values.moves ?? values.fen ?? values.call ?? values.nodes) !== undefined) {
  usage('--stream draws the file: leave out --moves, --fen, --call and --nodes');
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
  const side = first.k === 8 ? 'white' : 'black';
  const what = opt.stream !== undefined ? fromStream.heading(first, side)
    : call ? `One call, ${named(first)}, ${side} moving, on an empty hash table${check ?
      `, checking ${opt.moves.at(-1)} (main()'s legality check)` : ''}:` : `micro-Max thinks, ${side} to move:`;
  out.buf += [what, ...boardLines(board), ...opt.brief ? [] : [legend(opt.keys)], ''].join('\n') + '\n';
}

const env: NodeJS.ProcessEnv = {
  ...opt.fen ? { MICROMAX_FEN: opt.fen } : {},
  ...call ? { MICROMAX_CALL: [call.k, call.q, call.l, call.e, call.E, call.z, call.n, opt.moves.length - 1].join(' ') } : {},
};
const typed = opt.moves.map((m) => `${m}\n`).join('') + (check ? '' : '\n');
const run: Running | undefined = opt.stream === undefined ? runCalls('port', typed, { nodes: opt.nodes }, env) : undefined;
const focus = new Focus({ pass: opt.pass, path: opt.path, put: (l) => out.put(l) });
const tree = new Tree({ depth: opt.depth, keys: opt.keys, checks: opt.moves.length - (check ? 1 : 0),
  top: opt.stream !== undefined ? 'call' : check ? 'check' : call ? 'call' : 'root',
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
  /** The lines from the call to draw on: the board before it first (the last from main()). */
  async *lines(): AsyncGenerator<string> {
    const file = userPath(this.file);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) usage(`--stream: no file ${this.file}`);
    const lines = this.source = new Lines(fs.createReadStream(file)), open: string[] = [];
    for (let line = await lines.next(); line !== undefined; line = await lines.next()) {
      if (line[0] === '@') this.board = line;
      else if (line[0] === '<') open.pop();
      else if (line[0] === '>') {
        this.number++;
        const c = parse(line) as Call;
        if (opt.at === undefined ? c.move === '-' && c.z === 8 : this.number === opt.at) {
          this.path = [...open.slice(1), ...open.length ? [c.move] : []];
          if (this.board) yield this.board;
          yield line;
          for (let more = await lines.next(); more !== undefined; more = await lines.next()) yield more;
          return;
        }
        open.push(c.move);
      }
    }
    throw new Stop(`${this.file} has ${opt.at === undefined ? 'no think (a call from main() with z 8)' : `no call ${opt.at}` +
      ` (it has ${this.number})`}${this.cut()}`, 2);
  },
};

async function draw(): Promise<void> {
  if (!run) {
    for await (const line of fromStream.lines()) {
      tree.feed(line);
      if (tree.done) return;
    }
    throw new Stop(`the stream ends before call ${fromStream.number} returns${fromStream.cut()}`, 1);
  }
  for (let line = await run.lines.next(); line !== undefined; line = await run.lines.next()) {
    tree.feed(line);
    if (tree.done) return;
  }
  const code = await run.done;                         // (2: a bad FEN, and the port said why)
  throw new Stop(code === 2 ? '' : `the port ended (exit ${code}) before its search did`, code === 2 ? 2 : 1);
}
try { await draw(); } catch (err) {
  if (err instanceof Refused) {
    err = new Stop(`micro-Max does not accept ${opt.moves[err.move - 1]} there (move ${err.move})`, 2);
  }
  if (err instanceof BadLine) err = new Stop(`${opt.stream}: not a call stream: ${err.message}`, 2);
  if (!(err instanceof Stop)) throw err;
  if (err.code) process.stderr.write(err.last ? `tree: ${err.last}\n` : '');
  else if (err.last) out.buf += err.last + '\n';
  process.exitCode = err.code;
}
run?.child.kill();
out.flush();
