// A small UCI match runner, as cutechess-cli or fastchess plays a game: two engines (micromax
// --uci through support/uci.ts's client), a wall clock per side that the runner keeps and sends
// in each go (wtime btime winc binc), a loss on time when a side's clock runs out, chess.js as
// referee (mate, stalemate, repetition, fifty moves, material), and the game as PGN, each move
// with the comment a runner writes: {score/depth seconds}, the seconds measured on the wall.

import { Chess } from 'chess.js';
import { replayOf } from './gui.ts';
import { UciClient, type Info } from './uci.ts';

export interface RunnerOptions {
  /** each side's options, as setoption sends them (e.g. { nodestime: '200' }) */
  options: Record<string, string>;
  /** each side's time and increment, in ms */
  base: number;
  inc: number;
  /** a draw is adjudicated after this many plies */
  maxPlies: number;
}

/** What an engine said of one of its moves: the move, its last info line, the ms it took on the
 *  runner's wall clock, and how the C replays it (from the note after debug on). */
export interface Played { move: string; info: Info; ms: number; replay?: { nodes: number; plies: number } }

export interface Game { pgn: string; moves: Played[]; result: string; reason: string; clocks: [number, number] }

/** The PGN's text of a score, as cutechess writes it: +0.14, or +M3 / -M2 for a mate. */
function scoreText(info: Info): string {
  const s = info.score;
  if (!s) return '0.00';
  if (s.unit === 'mate') return `${s.value > 0 ? '+' : '-'}M${Math.abs(s.value)}`;
  return `${s.value >= 0 ? '+' : ''}${(s.value / 100).toFixed(2)}`;
}

/** How the game ended by rule, or undefined while it goes on. */
function ending(chess: Chess): { result: string; reason: string } | undefined {
  const side = chess.turn() === 'w' ? 'White' : 'Black';
  if (chess.isCheckmate()) return { result: side === 'White' ? '0-1' : '1-0', reason: `${side === 'White' ? 'Black' : 'White'} mates` };
  if (chess.isStalemate()) return { result: '1/2-1/2', reason: 'stalemate' };
  if (chess.isThreefoldRepetition()) return { result: '1/2-1/2', reason: 'threefold repetition' };
  if (chess.isInsufficientMaterial()) return { result: '1/2-1/2', reason: 'insufficient material' };
  if (chess.isDraw()) return { result: '1/2-1/2', reason: 'fifty moves' };
  return undefined;
}

/** One game, engine 0 white; both engines are started, told the options, and quit at the end. */
export async function playGame(o: RunnerOptions, date = new Date()): Promise<Game> {
  const engines = [new UciClient(), new UciClient()];
  try {
    for (const e of engines) {
      await e.init();
      for (const [name, value] of Object.entries(o.options)) e.setoption(name, value);
      e.session.send('debug on');                                    // the replay notes
      e.ucinewgame();
      await e.isready();
    }
    const chess = new Chess(), moves: Played[] = [], clocks: [number, number] = [o.base, o.base];
    let end = ending(chess);
    while (!end) {
      const us = moves.length % 2, e = engines[us];
      e.position(undefined, moves.map((m) => m.move));
      const t0 = performance.now();
      const r = await e.go({ wtime: Math.round(clocks[0]), btime: Math.round(clocks[1]), winc: o.inc, binc: o.inc });
      const ms = performance.now() - t0;
      clocks[us] -= ms;
      const played: Played = { move: r.bestmove, info: r.info.filter((i) => i.depth !== undefined).at(-1) ?? {}, ms,
        replay: r.info.map((i) => replayOf(i.string ?? '')).find((how) => how !== undefined) };
      const side = us ? 'Black' : 'White';
      if (clocks[us] < 0) { end = { result: us ? '1-0' : '0-1', reason: `${side} loses on time` }; break; }
      clocks[us] += o.inc;
      try {
        chess.move({ from: r.bestmove.slice(0, 2), to: r.bestmove.slice(2, 4), promotion: r.bestmove[4] });
      } catch {
        end = { result: us ? '1-0' : '0-1', reason: `${side} makes an illegal move: ${r.bestmove}` };
        break;
      }
      moves.push(played);
      end = ending(chess) ?? (moves.length >= o.maxPlies ? { result: '1/2-1/2', reason: `adjudicated after ${o.maxPlies} plies` } : undefined);
    }
    const { result, reason } = end ?? { result: '*', reason: 'unfinished' };
    return { pgn: pgnOf(chess, moves, o, result, reason, date), moves, result, reason, clocks };
  } finally {
    for (const e of engines) await e.quit().catch(() => undefined);
  }
}

/** The game as a runner saves it. */
function pgnOf(chess: Chess, moves: Played[], o: RunnerOptions, result: string, reason: string, date: Date): string {
  const day = `${date.getFullYear()}.${String(date.getMonth() + 1).padStart(2, '0')}.${String(date.getDate()).padStart(2, '0')}`;
  const sans = chess.history();
  const tags = [['Event', 'micromax-ts runner'], ['Site', 'support/runner.ts'], ['Date', day], ['Round', '1'],
    ['White', 'micro-Max 3.2 ts'], ['Black', 'micro-Max 3.2 ts'], ['Result', result],
    ['TimeControl', `${o.base / 1000}+${o.inc / 1000}`], ['Termination', reason]];
  const body = moves.map((m, k) => `${k % 2 ? '' : `${k / 2 + 1}. `}${sans[k]} {${scoreText(m.info)}/${m.info.depth ?? 0} ${(m.ms / 1000).toFixed(3)}s}`);
  return `${tags.map(([k, v]) => `[${k} "${v}"]`).join('\n')}\n\n${body.join(' ')} {${reason}} ${result}\n`;
}

/** The PGN with what the wall clock wrote masked: the date, and each move's seconds. */
export const withoutWallClock = (pgn: string): string =>
  pgn.replace(/^\[Date "[^"]*"\]$/m, '[Date "?"]').replace(/ \d+\.\d{3}s\}/g, ' ?s}');
