// Runs micro-Max in real matches: xboard (Debian's package) headless under Xvfb, against Fairy-Max
// (or any engine, with more of xboard's options), in either protocol (UCI through xboard's own
// polyglot adapter), each of micro-Max's moves as xboard timed it; and in xboard's Analysis mode.
// Used by the match tests and by the GUI benchmark. xboard may not exit by itself: the PGN is
// watched instead.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { portCommand } from './run.ts';

export const GAMES = '/usr/games';
const PATH = `${GAMES}:${process.env.PATH ?? ''}`;

/** Why xboard matches cannot run here, or undefined when they can. */
export function whyNoXboard(): string | undefined {
  for (const exe of ['xboard', 'fairymax', 'polyglot', 'xvfb-run']) {
    if (spawnSync('sh', ['-c', `command -v ${exe}`], { env: { ...process.env, PATH } }).status !== 0) {
      return `${exe} is not installed (apt-get install xboard xvfb xauth polyglot fairymax)`;
    }
  }
  return undefined;
}

export interface Match {
  pgn: string;
  debug: string;
  games: Game[];
  seconds: number;
}
export interface Game { white: string; black: string; result: string; comment: string; plies: number }

/** Plays `games` games, micro-Max first (colours alternate), at `tc` (xboard's -tc, e.g. 0:10)
 *  plus `inc` seconds a move; `opponent` is an xboard command line (Fairy-Max by default); `more`,
 *  more of xboard's options (e.g. -firstNPS 200000). */
export async function match(opts: { protocol: 'uci' | 'xboard'; games: number; tc: string; inc: number; opponent?: string;
  opponentUci?: boolean; secondOptions?: string; timeoutS?: number; bin?: string; more?: string[] }): Promise<Match> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-xboard-'));
  const pgn = path.join(dir, 'games.pgn'), debug = path.join(dir, 'xboard.debug');
  const first = firstEngine(opts.protocol, opts.bin);
  const opponent = opts.opponent ?? 'fairymax';
  const args = ['-a', 'xboard', '-noGUI', '-fcp', first, '-fd', dir, '-scp', opponent, '-sd', dir,
    // Fairy-Max 5.0b segfaults on about half the 'computer' commands xboard sends it at a game's
    // start (6 of 12, standalone): xboard then ends the game 'Error writing to second chess program'
    ...(opponent === 'fairymax' ? ['-secondComputerString', ''] : []),
    ...(opts.protocol === 'uci' ? ['-fUCI'] : []), ...(opts.opponentUci ? ['-sUCI'] : []),
    ...(opts.secondOptions ? ['-secondOptions', opts.secondOptions] : []),
    '-matchGames', String(opts.games), '-tc', opts.tc, '-inc', String(opts.inc), '-autoCallFlag', 'true',
    '-testClaims', 'true', '-checkMates', 'true', '-materialDraws', 'true', '-ruleMoves', '50', '-repeatsToDraw', '3',
    '-adjudicateDrawMoves', '150', '-xexit', '-saveGameFile', pgn, '-debug', '-nameOfDebugFile', debug, ...opts.more ?? []];
  const t0 = performance.now();
  const proc = underXvfb(args, dir, opts.bin);
  const limit = (opts.timeoutS ?? 60 * opts.games + 120) * 1000;
  const finished = (): boolean => fs.existsSync(pgn) && parse(fs.readFileSync(pgn, 'utf8')).length >= opts.games;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (finished() || proc.exitCode !== null || performance.now() - t0 > limit) { clearInterval(timer); resolve(); }
    }, 500);
  });
  try { process.kill(-proc.pid!, 'SIGTERM'); } catch { /* gone already */ }
  const text = fs.existsSync(pgn) ? fs.readFileSync(pgn, 'utf8') : '';
  const log = fs.existsSync(debug) ? fs.readFileSync(debug, 'latin1') : '';
  fs.rmSync(dir, { recursive: true, force: true });
  return { pgn: text, debug: log, games: parse(text), seconds: (performance.now() - t0) / 1000 };
}

/** xboard's -fcp for micro-Max: with bin (a folder holding README.md's commands), the command
 *  README.md names (micromax-xboard, or micromax-uci through polyglot); else dist/micromax.js. */
function firstEngine(protocol: 'uci' | 'xboard', bin?: string): string {
  if (bin) return `micromax-${protocol}`;
  const [node, argv] = portCommand([`--${protocol}`]);
  return [node, ...argv].map((a) => (/\s/.test(a) ? `'${a}'` : a)).join(' ');
}

/** xboard started under Xvfb in dir, as the leader of its own process group (ended as a group),
 *  with bin (README.md's commands) first on its PATH. */
function underXvfb(args: string[], dir: string, bin?: string): ChildProcess {
  const env = { ...process.env, PATH: bin ? `${bin}:${PATH}` : PATH };
  return spawn('xvfb-run', args, { cwd: dir, env, stdio: 'ignore', detached: true });
}

/** xboard (with its window, under Xvfb) started in Analysis mode with micro-Max (README.md's
 *  micromax-xboard, from bin) for this long: xboard's debug log, what went to and fro. */
export async function analysis(opts: { bin: string; seconds: number }): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-analysis-'));
  const debug = path.join(dir, 'xboard.debug');
  const args = ['-a', 'xboard', '-fcp', 'micromax-xboard', '-fd', dir, '-initialMode', 'Analysis',
    '-debug', '-nameOfDebugFile', debug];
  const proc = underXvfb(args, dir, opts.bin);
  await new Promise((r) => setTimeout(r, opts.seconds * 1000));
  try { process.kill(-proc.pid!, 'SIGTERM'); } catch { /* gone already */ }
  await new Promise((r) => proc.exitCode !== null ? r(null) : proc.on('close', r));
  const log = fs.existsSync(debug) ? fs.readFileSync(debug, 'latin1') : '';
  fs.rmSync(dir, { recursive: true, force: true });
  return log;
}

/** The games of a PGN file: players, result, the comment before the result, and plies. */
export function parse(pgn: string): Game[] {
  return pgn.split(/(?=\[Event )/).filter((g) => /\[Result "/.test(g)).map((g) => {
    const tag = (name: string): string => new RegExp(`\\[${name} "([^"]*)"\\]`).exec(g)?.[1] ?? '';
    const body = g.replace(/^\[.*\]\s*$/gm, '');
    const end = /\{([^{}]*)\}\s*(1-0|0-1|1\/2-1\/2|\*)\s*$/.exec(body.trim());
    const plies = body.replace(/\{[^}]*\}/g, '').split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t)).length;
    return { white: tag('White'), black: tag('Black'), result: tag('Result'), comment: end?.[1] ?? '', plies };
  }).filter((g) => g.result !== '*' || g.comment !== '');
}

/** What the engine said of each of its moves (its '#' or 'info string' line): used ms, budget ms,
 *  and whether the search was cut off. From xboard's debug log (first engine only). */
export function budgets(debug: string): { used: number; target: number; cut: boolean }[] {
  return [...debug.matchAll(/<first : (?:# |info string )([^\n]*?(\d+) ms used of (\d+))/g)]
    .map((m) => ({ used: Number(m[2]), target: Number(m[3]), cut: m[1].includes('cut off') }));
}

/** Each move of micro-Max (the first engine) as the GUI timed it, from xboard's debug log (each
 *  line stamped with xboard's ms): from the last line xboard sent it before the move to the move
 *  (took), the clock xboard gave it then (its last `time`, in ms), and the aim its note states. */
export function moveTimes(debug: string): { took: number; clock: number; aim: number }[] {
  const moves: { took: number; clock: number; aim: number }[] = [];
  let sent = NaN, clock = NaN, aim = NaN;
  for (const m of debug.matchAll(/^(\d+) ([<>])first : (.*)$/gm)) {
    const [t, way, text] = [Number(m[1]), m[2], m[3]];
    if (way === '>') sent = t;
    if (way === '>' && /^time -?\d+$/.test(text)) clock = 10 * Number(text.slice(5));
    const note = /ms used of (\d+)/.exec(text);
    if (way === '<' && note) aim = Number(note[1]);
    if (way === '<' && /^move /.test(text)) moves.push({ took: t - sent, clock, aim });
  }
  return moves;
}

const BAD = /time|forfeit|illegal|false|crash|disconnect|unknown|exited|error/i;
const GOOD = /mates|checkmate|stalemate|resign|repetition|50-move|fifty|insufficient|material|draw|adjudication/i;
/** Why a game did not end by rule or adjudication, or undefined when it did. */
export function badEnding(g: Game): string | undefined {
  if (g.result === '*') return `unfinished: {${g.comment}}`;
  if (BAD.test(g.comment) || !GOOD.test(g.comment)) return `{${g.comment}} ${g.result}`;
  return undefined;
}
