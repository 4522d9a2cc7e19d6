// The exercises of `annotated/exercises.md` that change the engine: their games, the C's edits, and
// how a difference is told. Each is made to the reference C too, by textual substitution as
// c-oracle.ts makes its variants. What the changed C prints on its games is stored in
// `test/fixtures/exercises/` (written by `npm run exercise -- --make` from the C, never from the
// port), beside what the unchanged C prints. A learner's copy of `micromax.ts` is run on the same
// games and compared with them; the first difference is told in a learner's words (which move,
// which pass, which board).

import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildC, compile, cSource, variantSource, type Variant } from './c-oracle.ts';
import { parseTranscript, sameBoard, type Board, type Transcript } from './boards.ts';
import { ROOT, run, type Result } from './run.ts';

/** A textual change: `from` must occur exactly once and becomes `to`. */
export type Edit = [from: string, to: string];
export interface Game { name: string; about: string; lines: string[]; nodes: number; trace: boolean }
export interface Change { n: number; slug: string; title: string; c: Edit[]; games: Game[] }

/** How many exercises annotated/exercises.md has (those not listed in CHANGES change nothing). */
export const EXERCISES = 13;

const typed = (moves: string): string[] => moves.split(' ');
const engineMoves = (n: number): string[] => Array<string>(n).fill('');

/** Exercise 8's change, which exercise 13 makes again to see it on a page of two searches. */
const KNIGHT_WORTH_4 = {
  slug: 'knight-worth-4', c: [['w[]={0,1,1,3,', 'w[]={0,1,1,4,']] as Edit[],
  games: [{ name: 'ruy-lopez', about: '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 typed, then micro-Max moves',
    lines: [...typed('e2e4 e7e5 g1f3 b8c6 f1b5 a7a6'), ''], nodes: 100000, trace: true }],
};

export const CHANGES: Change[] = [
  { n: 8, title: 'A knight worth 4', ...KNIGHT_WORTH_4 },
  {
    n: 9, slug: 'knight-promotion', title: 'Promote to a knight',
    c: [['b[y]|=7;i+=C;', 'b[y]|=3;i+=198;']],
    games: [
      { name: 'white-promotes', about: "white's h-pawn promotes on h8 (typed), then micro-Max plays 3 moves",
        lines: [...typed('h2h4 g7g5 h4g5 h7h5 g5g6 h5h4 g6g7 h4h3 g7h8'), ...engineMoves(3)],
        nodes: 1000, trace: true },
      { name: 'both-promote', about: 'white promotes on h8, black on g1 (typed), then micro-Max moves',
        lines: [...typed('h2h4 g7g5 h4g5 h7h5 g5g6 h5h4 g6g7 h4h3 g7h8 h3g2 g1f3 g2g1'), ''],
        nodes: 1000, trace: true },
    ],
  },
  {
    n: 10, slug: 'no-delayed-gain-penalty', title: 'No delayed-gain penalty',
    c: [['v-=v>e;', '']],
    games: [
      { name: 'fools-mate', about: "1. f3 e5 2. g4 typed, then micro-Max (black) moves",
        lines: [...typed('f2f3 e7e5 g2g4'), ''], nodes: 20000, trace: true },
      { name: 'engine-game', about: 'micro-Max plays both sides for 8 moves',
        lines: engineMoves(8), nodes: 5000, trace: true },
    ],
  },
  {
    n: 11, slug: 'smaller-hash-table', title: 'A hash table 8 times smaller',
    c: [['#define U 16777224', '#define U 2097160']],
    games: [{ name: 'scandinavian', about: '1. e4 d5 2. exd5 Qxd5 3. Nc3 typed, then micro-Max moves',
      lines: [...typed('e2e4 d7d5 e4d5 d8d5 b1c3'), ''], nodes: 100000, trace: true }],
  },
  {
    n: 12, slug: 'castling-past-a-pawn', title: "Castling past a pawn's attack",
    c: [['if(p<3&y==E)H=y^16;', 'if(p<3&y==E)H=y^16;if(p<3&&r&7&&E-S&&b[E]&&y-E<2&E-y<2)m=I;']],
    games: [
      { name: 'out-of-check', about: 'a black pawn on d2 gives check; white types e1g1, then c1d2',
        lines: [...typed('d2d4 e7e5 d4e5 d7d5 g1h3 d5d4 g2g3 d4d3 f1g2 d3d2 e1g1 c1d2'), ''],
        nodes: 1000, trace: false },
      { name: 'through-check', about: 'a black pawn on g2 attacks f1, f2 is empty; white types e1g1',
        lines: [...typed('g2g4 h7h5 g4h5 g7g5 g1h3 g5g4 f2f4 g4g3 e2e3 g3g2 f1e2 a7a6 e1g1'), ''], nodes: 1000,
        trace: false },
    ],
  },
  { n: 13, title: 'The first call a change turns', ...KNIGHT_WORTH_4 },
];

/** The change exercise numbered n, if exercise n changes the engine. */
export const changeOf = (n: number): Change | undefined => CHANGES.find((c) => c.n === n);

// ---- the expected behaviour: the C, changed ----------------------------------------------------

export const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'exercises');
/** The stored transcript of a game: the changed C's, or with `unchanged` the original C's. */
export const fixturePath = (ch: Change, g: Game, unchanged = false): string =>
  path.join(FIXTURES, `${ch.slug}.${g.name}${unchanged ? '.unchanged' : ''}.out`);
export const gameInput = (g: Game): string => g.lines.map((l) => `${l}\n`).join('');
const variant = (g: Game): Variant => ({ nodes: g.nodes, trace: g.trace });

/** `text` with each edit made; throws when an edit's `from` is not there exactly once. */
export function applyEdits(text: string, edits: Edit[], what: string): string {
  for (const [from, to] of edits) {
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) {
      throw new Error(`${what}: '${from}' is not in the text exactly once`);
    }
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  return text;
}

/** The C changed as the exercise says, with the game's node limit and trace (compiled, cached). */
export function changedC(ch: Change, g: Game): string {
  const src = fs.readFileSync(cSource()!, 'utf8');
  return compile(applyEdits(variantSource(src, variant(g)), ch.c, `the C of exercise ${ch.n}`));
}

/** What the C prints on a game: changed as the exercise says, or unchanged. Throws if it fails. */
export async function runCGame(ch: Change, g: Game, unchanged = false): Promise<Buffer> {
  const exe = unchanged ? buildC(variant(g)) : changedC(ch, g);
  const r = await run(exe, [], gameInput(g), 300_000);
  if (r.code !== 0) throw new Error(`the C of exercise ${ch.n} (${g.name}) exited ${r.code} ${r.signal ?? ''}`);
  return r.stdout;
}

/** The stored transcript, or undefined when it is missing. */
export function readFixture(ch: Change, g: Game, unchanged = false): Buffer | undefined {
  const file = fixturePath(ch, g, unchanged);
  return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
}

// ---- the learner's copy --------------------------------------------------------------------------

const copies = new Map<string, string>();
/** The learner's file copied to a temporary folder, its package imports (if any) pointed
 *  at the project's node_modules, so that a copy kept anywhere runs as it would in the project. */
export function preparedCopy(file: string): string {
  const text = fs.readFileSync(file, 'utf8');
  const key = crypto.createHash('sha256').update(text).digest('hex');
  const known = copies.get(key);
  if (known && fs.existsSync(known)) return known;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-exercise-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
  const copy = path.join(dir, path.basename(file).replace(/\.[cm]?[jt]s$/, '') + '.ts');
  fs.writeFileSync(copy, pointImports(text));
  copies.set(key, copy);
  return copy;
}

// `from 'pkg'` (not node:, not a relative path) becomes the file URL it resolves to from ROOT.
function pointImports(text: string): string {
  const require = createRequire(path.join(ROOT, 'package.json'));
  return text.replace(/from '([^'./][^']*)'/g, (whole, spec: string) => {
    if (spec.startsWith('node:')) return whole;
    try {
      return `from '${pathToFileURL(require.resolve(spec)).href}'`;
    } catch {
      return whole;
    }
  });
}

/** The learner's copy run on a game, as `node --import tsx FILE --nodes N [--trace]` with the
 *  game's lines as its input. */
export function runCopy(file: string, g: Game): Promise<Result> {
  const args = ['--import', 'tsx', preparedCopy(file), '--nodes', String(g.nodes), ...(g.trace ? ['--trace'] : [])];
  return run(process.execPath, args, gameInput(g), 300_000);
}

// ---- telling the first difference ------------------------------------------------------------------

const FILES = 'abcdefgh';
const squareName = (row: number, file: number): string => `${FILES[file]}${8 - row}`;

/** The move that turned board a into board b, as e2e4 (a castling: the king's move), or ''. */
export function moveBetween(a: Board, b: Board): string {
  const emptied: [number, number][] = [], filled: [number, number][] = [];
  for (let r = 0; r < 8; r++) {
    for (let f = 0; f < 8; f++) {
      if (a[r][f] === b[r][f]) continue;
      if (b[r][f] === '.') emptied.push([r, f]);
      else filled.push([r, f]);
    }
  }
  const isKing = ([r, f]: [number, number], bd: Board): boolean => /[kK]/.test(bd[r][f]);
  const to = filled.find((s) => isKing(s, b)) ?? filled[0];
  if (!to) return '';
  const mover = b[to[0]][to[1]];
  const from = emptied.find((s) => a[s[0]][s[1]] === mover) ?? emptied.find((s) => sameSide(a[s[0]][s[1]], mover));
  return from ? squareName(...from) + squareName(...to) : '';
}
const white = (piece: string): boolean => /[A-Z*]/.test(piece);
const sameSide = (p: string, q: string): boolean => p !== '.' && white(p) === white(q);

/** What the input's line k (1-based) is, in words. */
function lineWords(g: Game, k: number): string {
  const line = g.lines[k - 1];
  if (line === undefined) return k ? 'the end of the input' : 'the start (the first board)';
  return line ? `line ${k} of the input (${line}, typed)` : `line ${k} of the input (empty: micro-Max moves)`;
}

/** Two boards side by side, headed by whose they are. */
function sideBySide(want: Board, got: Board): string[] {
  const head = `      changed C          your copy`;
  return [head, ...want.map((row, r) => `    ${8 - r} ${[...row].join(' ')}    ${[...got[r]].join(' ')}`)];
}

/** What the two programs did with input line k, when their boards after it differ. */
function boardDifference(g: Game, want: Transcript, got: Transcript, k: number): string[] {
  const line = g.lines[k - 1];
  const before = [want.boards[k - 1], got.boards[k - 1]];
  const after = [want.boards[k], got.boards[k]];
  const out = [`after ${lineWords(g, k)}, the boards differ:`];
  if (line) {
    const verdict = (b0: Board, b1: Board): string => sameBoard(b0, b1) ? 'refuses' : 'accepts';
    out.push(`  the changed C ${verdict(before[0], after[0])} ${line}; your copy ${verdict(before[1], after[1])} it`);
  } else {
    const played = (b0: Board, b1: Board): string => moveBetween(b0, b1) || 'no move';
    out.push(`  the changed C plays ${played(before[0], after[0])}; your copy plays ${played(before[1], after[1])}`);
  }
  return [...out, ...sideBySide(after[0], after[1])];
}

/** What the two programs printed while thinking about input line k, when it differs. */
function traceDifference(g: Game, want: Transcript, got: Transcript, k: number): string[] {
  const a = want.traces[k] ?? [], b = got.traces[k] ?? [];
  let p = 0;
  while (p < a.length && a[p] === b[p]) p++;
  const shown = (l: string | undefined): string => l === undefined ? '(no line)' : `"${l}"`;
  const out = [`while micro-Max thinks after ${lineWords(g, k)}, its pass ${p + 1} differs:`,
    `  the changed C prints ${shown(a[p])}`, `  your copy prints     ${shown(b[p])}`];
  const moves = [want, got].map((t) => t.boards[k] && t.boards[k - 1] ? moveBetween(t.boards[k - 1], t.boards[k]) : '');
  const [theirs, yours] = moves.map((m) => m || 'no move');
  if (theirs !== yours) out.push(`  (the changed C then plays ${theirs}, your copy ${yours})`);
  return out;
}

/** The first place where the learner's transcript leaves the changed C's, in words. */
export function firstDifferenceInWords(g: Game, wantOut: Buffer, got: Result): string[] {
  const want = parseTranscript(wantOut), mine = parseTranscript(got.stdout);
  for (let k = 0; k < Math.max(want.boards.length, mine.boards.length) + 1; k++) {
    const traces = [want.traces[k] ?? [], mine.traces[k] ?? []];
    const cut = want.boards[k] && !mine.boards[k] && traces[1].every((l, p) => l === traces[0][p]);
    if (cut) return stopped(g, want, mine, k, got);                     // it ended, mid-search or not
    if (traces[0].join('\n') !== traces[1].join('\n')) return traceDifference(g, want, mine, k);
    const boards = [want.boards[k], mine.boards[k]];
    if (boards[0] && boards[1] && !sameBoard(boards[0], boards[1])) return boardDifference(g, want, mine, k);
    if (!boards[0] !== !boards[1]) return stopped(g, want, mine, k, got);
  }
  if (mine.problems.length) return [`your copy prints what micro-Max never prints: ${mine.problems[0]}`];
  return [`the outputs differ in their bytes (first at byte ${firstByte(wantOut, got.stdout)})`];
}

/** One transcript ends where the other goes on. */
function stopped(g: Game, want: Transcript, mine: Transcript, k: number, got: Result): string[] {
  if (!mine.boards[k]) {
    const why = got.signal === 'SIGKILL' ? 'stopped after 5 minutes' : got.signal ? `killed by ${got.signal}`
      : `exit code ${got.code}`;
    const err = errorLines(got.stderr).map((l) => `    ${l}`);
    const where = k ? `the board after ${lineWords(g, k)}` : 'its first board';
    return [`your copy stops before ${where} (${why})`, ...(err.length ? ['  it says:', ...err] : [])];
  }
  return [`your copy prints a board after ${lineWords(g, k)}, where the changed C has ended ` +
    `(after ${want.boards.length} boards)`];
}

/** The lines of an error report a learner needs: the error, and where in the file it is. */
export function errorLines(stderr: string): string[] {
  const lines = stderr.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim());
  const errors = lines.filter((l) => /error|\.ts:\d+/i.test(l) && !/^\s+at .*node_modules|node:internal/.test(l));
  return (errors.length ? errors : lines).slice(0, 4);
}

function firstByte(a: Buffer, b: Buffer): number {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  return at;
}

// ---- checking a copy -------------------------------------------------------------------------------

export interface Verdict { game: Game; same: boolean; words: string[] }

/** What the game should print (the changed C's transcript) and what the unchanged C prints: the
 *  fixtures, or with `live` the C itself, with a note when a fixture is stale or missing. */
export interface Expected { want: Buffer; plain?: Buffer; notes: string[] }
export async function expected(ch: Change, g: Game, live: boolean): Promise<Expected> {
  const stored = readFixture(ch, g), plainStored = readFixture(ch, g, true);
  if (!live) {
    const missing = path.relative(ROOT, fixturePath(ch, g));
    if (!stored) throw new Error(`no fixture ${missing}: run npm run exercise -- --make`);
    return { want: stored, plain: plainStored, notes: [] };
  }
  const [want, plain] = await Promise.all([runCGame(ch, g), runCGame(ch, g, true)]);
  const stale = !stored?.equals(want) || !plainStored?.equals(plain);
  const notes = stale ? [`note: the stored fixtures of ${ch.slug}.${g.name} are not what the C prints now ` +
    '(npm run exercise -- --make rewrites them); the C is used'] : [];
  return { want, plain, notes };
}

/** The learner's copy on one game against the changed C (`ran`: the copy's run, if made already). */
export async function checkGame(ch: Change, g: Game, file: string, live: boolean,
  ran?: Promise<Result>): Promise<Verdict> {
  const [{ want, plain, notes }, got] = await Promise.all([expected(ch, g, live), ran ?? runCopy(file, g)]);
  if (got.stdout.equals(want)) {
    const ok = got.code === 0;
    const exit = ok ? [] : [`the output is right, but your copy ends with ${got.code ?? got.signal}`];
    return { game: g, same: ok, words: [...notes, ...exit] };
  }
  const named = { ...got, stderr: got.stderr.split(preparedCopy(file)).join(file) };  // the learner's name
  const words = [...notes, ...firstDifferenceInWords(g, want, named)];
  const unchanged = 'your copy prints exactly what the unchanged micro-Max prints here';
  if (plain && got.stdout.equals(plain)) words.push(unchanged);
  return { game: g, same: false, words };
}
