// A match at a node rate, played twice: once on the machine as it is, once beside two CPU hogs,
// through UCI (`micromax --uci` against itself, each with the option `nodestime`, under the small
// runner of runner.ts, which keeps wall clocks as cutechess-cli does) and through xboard (`micromax
// --xboard` against itself, xboard's `-firstNPS` and `-secondNPS`, xboard's clocks then counting
// the nodes each engine reports); its PGNs with what the wall clock wrote masked; and each move
// micro-Max played, as its note says (`--nodes N after this game's n moves`), against the C.

import { cMove } from './gui.ts';
import { playGame, withoutWallClock, type Game } from './runner.ts';
import { startHogs } from './startup.ts';
import { match, type Match } from './xboard.ts';

/** Two games of the same match at a node rate: the first as the machine is, the second beside
 *  two CPU hogs. */
export async function twice<G>(play: () => Promise<G>): Promise<{ quiet: G; loaded: G }> {
  const quiet = await play();
  const stop = startHogs(2);
  try {
    return { quiet, loaded: await play() };
  } finally {
    stop();
  }
}

/** UCI: micromax --uci against itself, nodestime `rate` (nodes a ms) on both sides. */
export const uciGame = (rate: number, base: number, inc: number): Promise<Game> =>
  playGame({ options: { nodestime: String(rate) }, base, inc, maxPlies: 300 });

/** xboard: micromax-xboard (from bin, README.md's commands) against itself, both at `nps` nodes a
 *  second, one game at tc (xboard's -tc) plus inc seconds. */
export const xboardGame = (bin: string, nps: number, tc: string, inc: number): Promise<Match> =>
  match({ protocol: 'xboard', games: 1, tc, inc, bin, opponent: 'micromax-xboard',
    more: ['-firstNPS', String(nps), '-secondNPS', String(nps)] });

/** The runner's PGN with the wall clock's date and seconds masked. */
export const uciPgn = (g: Game): string => withoutWallClock(g.pgn);
/** xboard's PGN with its date masked (every other figure in it counts nodes). */
export const xboardPgn = (m: Match): string => m.pgn.replace(/^\[Date "[^"]*"\]$/m, '[Date "?"]');

/** A move micro-Max played: the game's moves before it, the --nodes its note names, the move. */
export interface Replayable { plies: number; nodes: number; move: string }

/** The runner's game as replayable moves. */
export function uciReplayable(g: Game): Replayable[] {
  return g.moves.flatMap((m) => m.replay ? [{ plies: m.replay.plies, nodes: m.replay.nodes, move: m.move }] : []);
}

/** xboard's game as replayable moves, from its debug log: the moves in the order both engines
 *  played them, and each note's --nodes and count of moves. */
export function xboardReplayable(debug: string): { moves: string[]; replayable: Replayable[] } {
  const moves: string[] = [], replayable: Replayable[] = [];
  for (const m of debug.matchAll(/<(?:first |second): (?:# .*--nodes (\d+) after this game's (\d+) moves|move (\S+))/g)) {
    if (m[3]) moves.push(m[3]);
    else replayable.push({ nodes: Number(m[1]), plies: Number(m[2]), move: '' });
  }
  for (const r of replayable) r.move = moves[r.plies] ?? '';
  return { moves, replayable };
}

/** Each sampled move that the C (or, without it, the port's terminal mode) does not play at its
 *  --nodes after the game's moves before it: one line each. Two at a time (both cores). */
export async function notReplayed(moves: string[], sample: Replayable[]): Promise<string[]> {
  const wrong: string[] = [];
  for (let k = 0; k < sample.length; k += 2) {
    const pair = sample.slice(k, k + 2);
    const got = await Promise.all(pair.map((r) => cMove(moves.slice(0, r.plies), r.nodes)));
    pair.forEach((r, j) => { if (got[j] !== r.move) wrong.push(`ply ${r.plies}: ${r.move}, the C ${got[j]} at --nodes ${r.nodes}`); });
  }
  return wrong;
}

/** Every `every`th of them, and the first few: what a test replays against the C. */
export const sampleOf = (all: Replayable[], first: number, every: number): Replayable[] =>
  all.filter((r, k) => k < first || k % every === 0);
