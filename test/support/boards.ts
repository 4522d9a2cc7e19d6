// An independent referee for micro-Max transcripts. It reads what the program printed (boards and
// trace lines), infers with chess.js which move turned each board into the next, and keeps a
// chess.js game in step, so a test can ask of every move: was it legal by the FIDE rules, what kind
// of move was it, and how did the game end. It knows nothing of the engine's internals except one
// documented rule difference (castling, see `microMaxCastles`). And seeded random numbers, for the
// tests' random games.

import { Chess, DEFAULT_POSITION, type Color, type Move, type Square } from 'chess.js';

/** A board as micro-Max prints it: 8 rows of 8 characters, rank 8 first, file a first.
 *  `.` empty, `*` white pawn, `+` black pawn, `NBRQK` white, `nbrqk` black. */
export type Board = string[];

const BOARD_LINE = /^(?: [.?+nkbrq*NKBRQ]){8} $/;
const TRACE_LINE = /^ *-?\d+ ply, +-?\d+ searched, +-?\d+ by \( *[0-9a-f]+, *[0-9a-f]+\)$/;

export interface Transcript {
  boards: Board[];
  /** trace lines printed before each board (index i: before boards[i]) */
  traces: string[][];
  /** anything that is neither a board line nor a trace line, or a board cut short */
  problems: string[];
}

/** Splits a transcript into boards and trace lines; never throws. */
export function parseTranscript(out: Buffer | string): Transcript {
  const text = typeof out === 'string' ? out : out.toString('latin1');
  const lines = text.split('\n');
  const problems: string[] = [];
  if (lines[lines.length - 1] === '') lines.pop();
  else if (lines.length) problems.push(`output does not end with a newline: ${JSON.stringify(lines[lines.length - 1])}`);
  const boards: Board[] = [], traces: string[][] = [];
  let rows: string[] = [], pending: string[] = [];
  lines.forEach((line, at) => {
    if (BOARD_LINE.test(line)) {
      rows.push(line.replace(/ /g, ''));
      if (rows.length === 8) { boards.push(rows); traces.push(pending); rows = []; pending = []; }
    } else if (TRACE_LINE.test(line) && rows.length === 0) pending.push(line);
    else problems.push(`line ${at + 1}: unexpected ${JSON.stringify(line)}`);
  });
  if (rows.length) problems.push(`a board is cut short after ${rows.length} rows`);
  if (pending.length) traces.push(pending);             // trace of a search whose board never came
  return { boards, traces, problems };
}

/** The boards of a transcript, trace lines skipped; throws if the text is anything else. */
export function parseBoards(out: Buffer | string): Board[] {
  const t = parseTranscript(out);
  if (t.problems.length) throw new Error(`not a micro-Max transcript: ${t.problems.slice(0, 3).join('; ')}`);
  return t.boards;
}

// ---- boards and FEN ---------------------------------------------------------------------------

const TO_FEN: Record<string, string> = { '*': 'P', '+': 'p' };
const FROM_FEN: Record<string, string> = { P: '*', p: '+' };

/** The piece-placement field of a FEN for a printed board. */
export function placementOf(board: Board): string {
  return board.map((row) => row.replace(/[*+]/g, (c) => TO_FEN[c]).replace(/\.+/g, (e) => String(e.length)))
    .join('/');
}

/** The printed board of a FEN (only its placement field is read). */
export function boardOf(fen: string): Board {
  return fen.split(' ')[0].split('/')
    .map((row) => row.replace(/\d/g, (d) => '.'.repeat(Number(d))).replace(/[Pp]/g, (c) => FROM_FEN[c]));
}

export const INITIAL_BOARD: Board = boardOf(DEFAULT_POSITION);

export function sameBoard(a: Board, b: Board): boolean {
  return a.every((row, r) => row === b[r]);
}

/** The board as text, for messages. */
export function showBoard(board: Board): string {
  return board.map((row, r) => `  ${8 - r} ${row.split('').join(' ')}`).join('\n') + '\n    a b c d e f g h';
}

// ---- the input, as micro-Max reads it -------------------------------------------------------

export interface InputLine {
  /** bytes before the terminator */
  bytes: Buffer;
  /** the byte that ended the line (0..10), or -1 when the input ended mid-line */
  end: number;
  /** an empty line asks the engine to move; anything else is read as a typed move */
  by: 'engine' | 'typed';
  /** the squares the first four bytes name (see decodeMove), for typed lines */
  from?: Square;
  to?: Square;
}

/** Name of a 0x88 square as micro-Max numbers them (row 0 is rank 8), or undefined off the board. */
export function squareName(sq: number): Square | undefined {
  if (sq & 0x88) return undefined;
  return `${'abcdefgh'[sq & 7]}${8 - (sq >> 4)}` as Square;
}

/** Splits input bytes into the lines micro-Max reads: a line ends at the first byte <= 10 or at
 *  the end of the input; the end of the input at the start of a line ends the program. A typed
 *  line's move is decoded the way micro-Max does it, from the first four bytes of its line
 *  buffer, which keeps the bytes of earlier lines past a short line's terminator (the buffer
 *  starts as zeros, as in the port; in the C it is uninitialised). */
export function inputLines(input: Buffer | string): InputLine[] {
  const buf = typeof input === 'string' ? Buffer.from(input, 'latin1') : input;
  const c = [0, 0, 0, 0];
  const lines: InputLine[] = [];
  let at = 0;
  while (at < buf.length) {
    let stop = at;
    while (stop < buf.length && buf[stop] > 10) stop++;
    const bytes = buf.subarray(at, stop), end = stop < buf.length ? buf[stop] : -1;
    for (let k = 0; k <= Math.min(bytes.length, 3); k++) c[k] = k < bytes.length ? bytes[k] : end;
    if (c[0] === 10) lines.push({ bytes, end, by: 'engine' });
    else {
      const { from, to } = decodeMove(c);
      lines.push({ bytes, end, by: 'typed', from, to });
    }
    at = stop + 1;
  }
  return lines;
}

/** The squares micro-Max reads from four line-buffer values: K = c0 - 16 c1 + 799 and
 *  L = c2 - 16 c3 + 799, each kept in a signed char. So many strings name the same move:
 *  "u3u5" is e2e4, and "e2e4" followed by anything is e2e4 too. */
export function decodeMove(c: number[]): { from?: Square; to?: Square } {
  const ch = (v: number): number => v << 24 >> 24;
  return { from: squareName(ch(c[0] - 16 * c[1] + 799)), to: squareName(ch(c[2] - 16 * c[3] + 799)) };
}

// ---- the castling rule micro-Max 3.2 actually applies ---------------------------------------

/** Would micro-Max 3.2 let the side to move castle on this wing ('k' king side, 'q' queen side)?
 *  Like FIDE it needs an unmoved king and rook and empty squares between them. But it does not
 *  test for attacks before the move: it plays the castling and rejects it when the opponent can
 *  then move (by its own move generator) to the king's old square, the rook's new square, or the
 *  king itself. Two things follow that FIDE does not allow:
 *  - a pawn that attacks the king's old square is not seen (a pawn only moves diagonally onto a
 *    piece, and that square is now empty): castling out of a pawn's check;
 *  - a pawn capture onto the rook's new square is taken for an en-passant capture of the square
 *    in front of it (the rook's square is the "e.p. square" of the reply), so the pawn is seen
 *    only when a piece of the castling side stands on that square: castling across a square a
 *    pawn attacks, when the square in front of it is empty (or holds an opponent's piece).
 *  An opponent pawn that could step straight onto the king's old square also forbids it. */
export function microMaxCastles(fen: string, wing: 'k' | 'q'): boolean {
  const chess = new Chess(fen, { skipValidation: true });
  const us = chess.turn(), them: Color = us === 'w' ? 'b' : 'w';
  const rank = us === 'w' ? '1' : '8', front = us === 'w' ? '2' : '7';   // front: the rank before it
  const rights = fen.split(' ')[2] ?? '-';
  if (!rights.includes(us === 'w' ? wing.toUpperCase() : wing)) return false;
  const sq = (f: string, r: string = rank): Square => `${f}${r}` as Square;
  const origin = sq('e'), dest = sq(wing === 'k' ? 'g' : 'c'), passed = sq(wing === 'k' ? 'f' : 'd');
  const corner = sq(wing === 'k' ? 'h' : 'a');
  const between = wing === 'k' ? ['f', 'g'] : ['b', 'c', 'd'];
  const king = chess.get(origin), rook = chess.get(corner);
  if (king?.type !== 'k' || king.color !== us || rook?.type !== 'r' || rook.color !== us) return false;
  if (between.some((f) => chess.get(sq(f)))) return false;
  chess.remove(origin); chess.remove(corner);            // play the castling
  chess.put({ type: 'k', color: us }, dest); chess.put({ type: 'r', color: us }, passed);
  const kind = (s: Square): string | undefined => chess.get(s)?.type;
  for (const target of [origin, passed, dest]) {
    for (const a of chess.attackers(target, them)) {
      if (kind(a) !== 'p' || target === dest) return false; // pieces see all three; pawns the king
      if (target === passed && chess.get(sq(passed[0], front))?.color === us) return false;
    }
  }
  const pusher = chess.get(sq('e', front));              // a pawn stepping onto the old square
  return !(pusher?.type === 'p' && pusher.color === them);
}

// ---- replaying a transcript ---------------------------------------------------------------

export interface ReplayMove {
  /** index of the board the move produced (boards[index - 1] -> boards[index]) */
  index: number;
  /** the input line that made it, and who chose the move, when the input was given */
  line?: number;
  by?: 'engine' | 'typed';
  color: Color;
  from: Square;
  to: Square;
  san: string;
  /** chess.js flags: n normal, b pawn double step, e en passant, c capture, p promotion,
   *  k king-side castling, q queen-side castling */
  flags: string;
  /** the piece taken (a pawn for en passant), and the promotion piece (always a queen) */
  captured?: string;
  promotion?: string;
  /** false for a castling FIDE forbids and micro-Max allows (see microMaxCastles) */
  fide: boolean;
  fenBefore: string;
  fenAfter: string;
}

export interface Stay {
  /** index of the board that repeats the one before it */
  index: number;
  line?: number;
  by?: 'engine' | 'typed';
  fen: string;
  /** the side to move has no legal move */
  end?: 'checkmate' | 'stalemate';
}

export interface Replay {
  boards: Board[];
  moves: ReplayMove[];
  /** boards that repeat the one before: a rejected typed move, or no engine move */
  stays: Stay[];
  /** the game after the last board */
  game: Chess;
  lines?: InputLine[];
}

export class ReplayError extends Error {}

/** Replays a transcript from the initial position. Each board must equal the one before (no move
 *  was made) or be the result of exactly one legal move of the side to move (promotions to a
 *  queen), or of a castling micro-Max allows against FIDE (recorded with fide: false; the game is
 *  then continued from a FEN, so its repetition history starts afresh). With the input, each
 *  move and stay is tagged with its line and with who moved. Throws a ReplayError otherwise. */
export function replay(out: Buffer | string | Board[], input?: Buffer | string): Replay {
  const boards = Array.isArray(out) ? out : parseBoards(out);
  const lines = input === undefined ? undefined : inputLines(input);
  const game = new Chess();
  const moves: ReplayMove[] = [], stays: Stay[] = [];
  if (!boards.length) return { boards, moves, stays, game: new Chess(), lines };
  if (!sameBoard(boards[0], INITIAL_BOARD)) throw new ReplayError(`the first board is not the initial position:\n${showBoard(boards[0])}`);
  let chess = game;
  for (let index = 1; index < boards.length; index++) {
    const line = lines ? index - 1 : undefined, by = lines?.[index - 1]?.by;
    const tag = line === undefined ? {} : { line, by };
    const fen = chess.fen();
    if (sameBoard(boards[index], boards[index - 1])) {
      const none = chess.moves().length === 0;
      stays.push({ index, ...tag, fen, ...(none ? { end: chess.inCheck() ? 'checkmate' as const : 'stalemate' as const } : {}) });
      continue;
    }
    const want = placementOf(boards[index]);
    const found = chess.moves({ verbose: true }).filter((m) => m.after.split(' ')[0] === want);
    if (found.length === 1) {
      const m = found[0];
      chess.move({ from: m.from, to: m.to, promotion: m.promotion });
      moves.push({ index, ...tag, ...describe(m), fenBefore: fen });
      continue;
    }
    if (found.length > 1) throw new ReplayError(`board ${index}: ${found.length} moves fit (${found.map((m) => m.san)})`);
    const castle = castlingShown(fen, boards[index]);
    if (castle && microMaxCastles(fen, castle)) {
      const after = fenAfterCastling(fen, boards[index]);
      const us = chess.turn(), rank = us === 'w' ? '1' : '8';
      moves.push({ index, ...tag, color: us, from: `e${rank}` as Square, to: `${castle === 'k' ? 'g' : 'c'}${rank}` as Square,
        san: castle === 'k' ? 'O-O' : 'O-O-O', flags: castle, fide: false, fenBefore: fen, fenAfter: after });
      chess = new Chess(after, { skipValidation: true });
      continue;
    }
    throw new ReplayError(`board ${index}${line === undefined ? '' : ` (input line ${line + 1}, ${by})`}: no legal move ` +
      `of ${chess.turn() === 'w' ? 'white' : 'black'} leads from\n${showBoard(boards[index - 1])}\n  (${fen})\nto\n${showBoard(boards[index])}`);
  }
  return { boards, moves, stays, game: chess, lines };
}

function describe(m: Move): Omit<ReplayMove, 'index' | 'line' | 'by' | 'fenBefore'> {
  return { color: m.color, from: m.from, to: m.to, san: m.san, flags: m.flags, fide: true, fenAfter: m.after,
    ...(m.captured ? { captured: m.captured } : {}), ...(m.promotion ? { promotion: m.promotion } : {}) };
}

/** The wing of a castling of the side to move that turns the FEN's position into this board. */
function castlingShown(fen: string, board: Board): 'k' | 'q' | undefined {
  const before = boardOf(fen), us = fen.split(' ')[1];
  const r = us === 'w' ? 7 : 0, K = us === 'w' ? 'K' : 'k', R = us === 'w' ? 'R' : 'r';
  for (const wing of ['k', 'q'] as const) {
    const row = before[r].split('');
    const [rookFrom, rookTo, kingTo] = wing === 'k' ? [7, 5, 6] : [0, 3, 2];
    if (row[4] !== K || row[rookFrom] !== R) continue;
    row[4] = '.'; row[rookFrom] = '.'; row[kingTo] = K; row[rookTo] = R;
    const expect = before.slice(); expect[r] = row.join('');
    if (sameBoard(expect, board)) return wing;
  }
  return undefined;
}

function fenAfterCastling(fen: string, board: Board): string {
  const [, us, rights, , half, full] = fen.split(' ');
  const left = rights.replace(us === 'w' ? /[KQ]/g : /[kq]/g, '') || '-';
  return `${placementOf(board)} ${us === 'w' ? 'b' : 'w'} ${left} - ${Number(half) + 1} ${Number(full) + (us === 'b' ? 1 : 0)}`;
}

// ---- judging a run line by line -------------------------------------------------------------

/** micro-Max's material score of the side to move after a move: Q' = -(Q + gain), where the gain
 *  is 99 times the piece value taken (pawn 1, knight and bishop 3, rook 5, queen 9) plus 799 for
 *  a promotion. It ignores position, so it is the material balance (promotions counted as 799). */
export function nextScore(q: number, m: { captured?: string; flags: string }): number {
  const value: Record<string, number> = { p: 1, n: 3, b: 3, r: 5, q: 9 };
  return -q - 99 * (m.captured ? value[m.captured] : 0) - (m.flags.includes('p') ? 799 : 0);
}

/** Beyond this material score (either sign) micro-Max takes the static score for a mate score
 *  in the first iteration of a search, which looks at no move, and stops there. Then the engine
 *  finds no move, and the legality check of a typed move (a search too) never reaches the move:
 *  no move is accepted any more, for either side, and the game is frozen. */
export const LOPSIDED = 2000;

export interface Verdict {
  /** input line (0-based) and who was to choose the move */
  line: number;
  by: 'engine' | 'typed';
  /** for a typed line: the move micro-Max reads from it (from and to squares), if on the board */
  text?: string;
  /** the position before the line */
  fen: string;
  /** the material score micro-Max keeps for the side to move (see nextScore) */
  score: number;
  /** the move made, or why none was: 'illegal' (typed), 'checkmate', 'stalemate', 'blocked' (the
   *  engine will not move after a failed move in the same position), 'lopsided' (no move at all
   *  is accepted, see LOPSIDED), 'limit' (--nodes 1: the search stops before it looks at a move) */
  move?: ReplayMove;
  none?: 'illegal' | 'checkmate' | 'stalemate' | 'blocked' | 'lopsided' | 'limit';
}

export interface Judgement {
  verdicts: Verdict[];
  /** the first place where micro-Max did not do what the rules (and its documented quirks) say;
   *  judging stops there */
  problems: string[];
  game: Chess;
}

/** Judges a run line by line against chess.js. A typed line must be accepted exactly when the
 *  move micro-Max reads from it (decodeMove) is legal by FIDE (a promotion being to a queen) or is
 *  a castling micro-Max allows (microMaxCastles), and then give chess.js's board; otherwise the
 *  board must stay. An empty line must make a legal move, except where micro-Max 3.2 makes none:
 *  no legal move (mate, stalemate), after a typed move was rejected or the engine failed to move
 *  in the same position ('blocked'), with a node limit of 1 ('limit'). And once the material
 *  score is past LOPSIDED either way, nothing is accepted, typed or not. */
export function referee(input: Buffer | string, out: Buffer | string | Board[], opts: { nodes?: number } = {}): Judgement {
  const boards = Array.isArray(out) ? out : parseBoards(out);
  const lines = inputLines(input);
  const verdicts: Verdict[] = [], problems: string[] = [];
  let chess = new Chess(), score = 0, blocked = false, castledOnto: Square | undefined;
  if (!boards.length) problems.push('no board at all');
  else if (!sameBoard(boards[0], INITIAL_BOARD)) problems.push('the first board is not the initial position');
  for (let k = 0; k < lines.length && !problems.length; k++) {
    if (k + 1 >= boards.length) { problems.push(`no board after line ${k + 1}`); break; }
    const line = lines[k], before = boards[k], after = boards[k + 1], fen = chess.fen();
    const legal = chess.moves({ verbose: true }).filter((m) => (!m.promotion || m.promotion === 'q') &&
      !(castledOnto && m.piece === 'p' && m.to === castledOnto));  // see microMaxCastles
    const v: Verdict = { line: k, by: line.by, fen, score };
    const where = `line ${k + 1} (${line.by}${line.by === 'typed' ? ` ${JSON.stringify(line.bytes.toString('latin1'))} read as ${line.from ?? '?'}${line.to ?? '?'}` : ''}) at ${fen}`;
    let made: ReplayMove | undefined;
    const play = (m: Move): void => {
      made = { index: k + 1, line: k, by: line.by, ...describe(m), fenBefore: fen };
      chess.move({ from: m.from, to: m.to, promotion: m.promotion });
    };
    const castle = (wing: 'k' | 'q'): void => {
      const us = chess.turn(), rank = us === 'w' ? '1' : '8';
      const afterFen = fenAfterCastling(fen, castledBoard(fen, wing));
      made = { index: k + 1, line: k, by: line.by, color: us, from: `e${rank}` as Square, to: `${wing === 'k' ? 'g' : 'c'}${rank}` as Square,
        san: wing === 'k' ? 'O-O' : 'O-O-O', flags: wing, fide: false, fenBefore: fen, fenAfter: afterFen };
      chess = new Chess(afterFen, { skipValidation: true });
    };
    if (line.by === 'typed') {
      const text = line.from && line.to ? line.from + line.to : undefined;
      if (text) v.text = text;
      const m = legal.find((x) => x.from + x.to === text);
      const wing = !m && text ? castlingWing(chess, text) : undefined;
      if (Math.abs(score) > LOPSIDED) v.none = 'lopsided';
      else if (m) play(m); else if (wing && microMaxCastles(fen, wing)) castle(wing); else v.none = 'illegal';
      const want = made ? boardOf(made.fenAfter) : before;
      if (!sameBoard(after, want)) {
        problems.push(`${where}: ${made ? `${made.san} should have been played` : `the move should have been rejected (${v.none})`}\n` +
          `expected\n${showBoard(want)}\ngot\n${showBoard(after)}`);
      }
    } else {
      const noMove: Verdict['none'] = legal.length === 0 ? (chess.inCheck() ? 'checkmate' : 'stalemate')
        : blocked ? 'blocked' : Math.abs(score) > LOPSIDED ? 'lopsided' : (opts.nodes ?? 2) < 2 ? 'limit' : undefined;
      if (sameBoard(after, before)) {
        if (noMove) v.none = noMove;
        else problems.push(`${where}: the engine made no move (material score ${score})\n${showBoard(before)}`);
      } else if (noMove) {
        problems.push(`${where}: the engine moved though it should not (${noMove})\n${showBoard(after)}`);
      } else {
        const want = placementOf(after);
        const m = legal.find((x) => x.after.split(' ')[0] === want);
        const wing = m ? undefined : castlingShown(fen, after);
        if (m) play(m); else if (wing && microMaxCastles(fen, wing)) castle(wing);
        else problems.push(`${where}: no legal move leads to\n${showBoard(after)}`);
      }
    }
    castledOnto = undefined;
    if (made) {
      v.move = made; score = nextScore(score, made); blocked = false;
      if (!made.fide) castledOnto = (made.flags === 'k' ? 'f' : 'd') + made.to[1] as Square;
    } else blocked = true;
    verdicts.push(v);
  }
  if (!problems.length && boards.length > lines.length + 1) problems.push(`${boards.length - lines.length - 1} boards more than lines`);
  return { verdicts, problems, game: chess };
}

/** The wing of a typed king move e1g1, e1c1, e8g8 or e8c8 of the side to move. */
function castlingWing(chess: Chess, text: string): 'k' | 'q' | undefined {
  const rank = chess.turn() === 'w' ? '1' : '8';
  return text === `e${rank}g${rank}` ? 'k' : text === `e${rank}c${rank}` ? 'q' : undefined;
}

function castledBoard(fen: string, wing: 'k' | 'q'): Board {
  const board = boardOf(fen), us = fen.split(' ')[1];
  const r = us === 'w' ? 7 : 0, row = board[r].split('');
  const [rookFrom, rookTo, kingTo] = wing === 'k' ? [7, 5, 6] : [0, 3, 2];
  row[kingTo] = row[4]; row[rookTo] = row[rookFrom]; row[4] = '.'; row[rookFrom] = '.';
  board[r] = row.join('');
  return board;
}

// ---- what happened in a transcript ----------------------------------------------------------

export interface Events {
  transcripts: number;
  moves: number;
  engineMoves: number;
  typedMoves: number;
  /** typed lines that left the board as it was */
  rejected: number;
  /** empty lines after which the engine did not move */
  noMove: number;
  /** ... of which the side to move had a legal move (blocked after a rejection, or frozen) */
  stalled: number;
  castles: { whiteKingSide: number; whiteQueenSide: number; blackKingSide: number; blackQueenSide: number };
  /** castlings FIDE forbids that micro-Max played (see microMaxCastles) */
  nonFideCastles: number;
  enPassant: number;
  promotions: number;
  promotionCaptures: number;
  checks: number;
  checkmates: number;
  stalemates: number;
  /** transcripts in which the game went on past a draw FIDE would have called (or claimable) */
  pastThreefold: number;
  pastFiftyMoves: number;
  pastInsufficientMaterial: number;
}

export function noEvents(): Events {
  return {
    transcripts: 0, moves: 0, engineMoves: 0, typedMoves: 0, rejected: 0, noMove: 0, stalled: 0,
    castles: { whiteKingSide: 0, whiteQueenSide: 0, blackKingSide: 0, blackQueenSide: 0 },
    nonFideCastles: 0, enPassant: 0, promotions: 0, promotionCaptures: 0, checks: 0, checkmates: 0,
    stalemates: 0, pastThreefold: 0, pastFiftyMoves: 0, pastInsufficientMaterial: 0,
  };
}

/** Counts what happened in one transcript (given as its text, or as a replay already made).
 *  Checkmates and stalemates count positions reached by a move; the three draws count 1 when
 *  the game went on (a later move was made) after the draw condition first held. */
export function countEvents(r: Replay | Buffer | string, input?: Buffer | string): Events {
  const rep = typeof r === 'string' || Buffer.isBuffer(r) ? replay(r, input) : r;
  const e = noEvents();
  e.transcripts = 1;
  const chess = new Chess();
  let threefoldAt = -1, fiftyAt = -1, insufficientAt = -1;
  rep.moves.forEach((m, k) => {
    e.moves++;
    if (m.by === 'engine') e.engineMoves++; else if (m.by === 'typed') e.typedMoves++;
    if (m.flags.includes('k')) e.castles[m.color === 'w' ? 'whiteKingSide' : 'blackKingSide']++;
    if (m.flags.includes('q')) e.castles[m.color === 'w' ? 'whiteQueenSide' : 'blackQueenSide']++;
    if (!m.fide) e.nonFideCastles++;
    if (m.flags.includes('e')) e.enPassant++;
    if (m.flags.includes('p')) { e.promotions++; if (m.flags.includes('c')) e.promotionCaptures++; }
    // follow the game for check, mate and draws (from its FEN after a non-FIDE castling)
    if (m.fide && chess.fen() === m.fenBefore) chess.move({ from: m.from, to: m.to, promotion: 'q' });
    else chess.load(m.fenAfter, { skipValidation: true });
    if (chess.inCheck()) e.checks++;
    if (chess.isCheckmate()) e.checkmates++;
    if (chess.isStalemate()) e.stalemates++;
    if (threefoldAt < 0 && chess.isThreefoldRepetition()) threefoldAt = k;
    if (fiftyAt < 0 && chess.isDrawByFiftyMoves()) fiftyAt = k;
    if (insufficientAt < 0 && chess.isInsufficientMaterial()) insufficientAt = k;
  });
  const last = rep.moves.length - 1;
  e.pastThreefold = Number(threefoldAt >= 0 && threefoldAt < last);
  e.pastFiftyMoves = Number(fiftyAt >= 0 && fiftyAt < last);
  e.pastInsufficientMaterial = Number(insufficientAt >= 0 && insufficientAt < last);
  for (const s of rep.stays) {
    if (s.by === 'typed') e.rejected++;
    else if (s.by === 'engine') { e.noMove++; if (!s.end) e.stalled++; }
  }
  return e;
}

/** Sums event counts (e.g. over all golden transcripts). */
export function addEvents(a: Events, b: Events): Events {
  const sum = noEvents();
  for (const key of Object.keys(sum) as (keyof Events)[]) {
    if (key === 'castles') {
      for (const w of Object.keys(sum.castles) as (keyof Events['castles'])[]) sum.castles[w] = a.castles[w] + b.castles[w];
    } else sum[key] = a[key] + b[key];
  }
  return sum;
}

// ---- moves to type ------------------------------------------------------------------------

/** A move as micro-Max reads it: from and to squares, e.g. "e7e8" (a promotion is to a queen). */
export function moveText(m: { from: string; to: string }): string {
  return m.from + m.to;
}

/** The legal moves of the position as micro-Max would type them (promotions to a queen only). */
export function legalTexts(chess: Chess): Set<string> {
  return new Set(chess.moves({ verbose: true }).filter((m) => !m.promotion || m.promotion === 'q').map(moveText));
}

const FILES = 'abcdefgh';
const sqAt = (f: number, r: number): Square => `${FILES[f]}${r + 1}` as Square;

/** Pseudo-legal moves of the side to move, without castling: each piece's moves as if its own
 *  king could be left in check (en passant included). Those not legal are the interesting
 *  illegal moves: pinned pieces, kings stepping into check, moves ignoring a check. */
export function pseudoLegalTexts(chess: Chess): Set<string> {
  const us = chess.turn(), out = new Set<string>();
  const ep = chess.fen().split(' ')[3];
  const at = (f: number, r: number) => (f < 0 || f > 7 || r < 0 || r > 7 ? null : chess.get(sqAt(f, r)) ?? undefined);
  const steps: Record<string, [number, number][]> = {
    n: [[1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1]],
    b: [[1, 1], [1, -1], [-1, 1], [-1, -1]],
    r: [[1, 0], [-1, 0], [0, 1], [0, -1]],
  };
  steps.q = [...steps.b, ...steps.r]; steps.k = steps.q;
  for (let f = 0; f < 8; f++) {
    for (let r = 0; r < 8; r++) {
      const p = at(f, r);
      if (!p || p.color !== us) continue;
      const from = sqAt(f, r);
      if (p.type === 'p') {
        const dir = us === 'w' ? 1 : -1;
        if (at(f, r + dir) === undefined) {
          out.add(from + sqAt(f, r + dir));
          if (r === (us === 'w' ? 1 : 6) && at(f, r + 2 * dir) === undefined) out.add(from + sqAt(f, r + 2 * dir));
        }
        for (const df of [-1, 1]) {
          const t = at(f + df, r + dir);
          if (t === null) continue;
          if ((t && t.color !== us) || sqAt(f + df, r + dir) === ep) out.add(from + sqAt(f + df, r + dir));
        }
        continue;
      }
      for (const [df, dr] of steps[p.type]) {
        for (let k = 1; k < 8; k++) {
          const t = at(f + df * k, r + dr * k);
          if (t === null || (t && t.color === us)) break;
          out.add(from + sqAt(f + df * k, r + dr * k));
          if (t || p.type === 'n' || p.type === 'k') break;
        }
      }
    }
  }
  return out;
}

/** All squares a piece of the side to move could reach on an empty board, plus two-square king
 *  steps: moves that look like moves (blocked slides, pawns going back or sideways, ...). */
export function geometricTexts(chess: Chess): string[] {
  const us = chess.turn(), out: string[] = [];
  for (let f = 0; f < 8; f++) {
    for (let r = 0; r < 8; r++) {
      const p = chess.get(sqAt(f, r));
      if (!p || p.color !== us) continue;
      for (let g = 0; g < 8; g++) {
        for (let s = 0; s < 8; s++) {
          const df = Math.abs(g - f), dr = Math.abs(s - r);
          if (df + dr === 0) continue;
          const line = df === 0 || dr === 0 || df === dr, knight = df * dr === 2;
          const fits = p.type === 'n' ? knight : p.type === 'k' ? (df <= 2 && dr <= 1) : p.type === 'p' ? (df <= 1 && dr <= 2) : line;
          if (fits) out.push(sqAt(f, r) + sqAt(g, s));
        }
      }
    }
  }
  return out;
}

// ---- a small seeded random generator --------------------------------------------------------

export interface Rng {
  /** a float in [0, 1) */
  (): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: floats in [0, 1) from a 32-bit state, the same on every machine. */
export function mulberry32(s: number): () => number {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded generator (mulberry32 over a mixed seed), the same on every machine. */
export function seededRandom(...seed: number[]): Rng {
  let s = 0x9e3779b9;
  for (const v of seed) s = Math.imul(s ^ (v >>> 0), 0x85ebca6b) ^ Math.imul((v / 4294967296) >>> 0, 0xc2b2ae35), s ^= s >>> 13;
  const next = mulberry32(s);
  const rng = next as Rng;
  rng.int = (n) => Math.floor(next() * n);
  rng.pick = (items) => items[Math.floor(next() * items.length)];
  rng.chance = (p) => next() < p;
  return rng;
}

export type { Move };
