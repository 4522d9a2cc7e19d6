// Run in a worker, a fresh copy of the engine: the warm-up cut after a given step, then the engine
// thread's jobs for the C's first thinks; what it holds before and after.
//
// The worker has its own module, its table new: workerData.cut steps of warmUpSteps(), then a
// first job, and the jobs the GUI side sends for each think of a game (set the position before its last move, play that move, think
// at a node limit, as placeEngine() does), through the engine thread's own work(). The first job
// is a set of the start, after which every lock must be 0, or a think (the C's first line is an
// empty one), after which the locks must be those it wrote (a digest, the same in every copy).
// Posts what part 1's globals and the board were before the warm-up and after its steps, whether
// every byte of the table was 0 after them (all steps only), whether every lock was 0 after the
// first set, the locks' digest after the first think, how many steps each phase has, and each
// think's move and last pass.

import { parentPort, workerData } from 'node:worker_threads';
import { begin, engine, fen, limits, warmUpSteps, work, type Pos } from '../../micromax.ts';

export interface Cut { cut: number; first: 'set' | 'think'; games: string[][]; nodes: number }
export interface Think { move: string; d: number; N: number; m: number }
export interface AfterCut {
  phases: number[]; globals: number[][]; boards: number[][]; zero: boolean | undefined; locks: boolean | undefined;
  first: Think | undefined; digest: number | undefined; thinks: Think[];
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const squareOf = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97;
const sq = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));

/** Every byte of each of these fields of the table is 0. (A loop: every() with a callback took
 *  0.6 s a field on a loaded machine, and a run checks up to five.) */
function zero(fields: (Int32Array | Int8Array)[]): boolean {
  for (const f of fields) {
    const words = new Int32Array(f.buffer, f.byteOffset, f.byteLength / 4);
    for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
  }
  return true;
}

/** A digest of every lock, each by its place. */
function digest(K: Int32Array): number {
  let h = 0;
  for (let i = 0; i < K.length; i++) h = Math.imul(h ^ K[i], 0x9e3779b1) + i | 0;
  return h;
}

/** The position after mv, as the engine's own check makes it: set the position before, play mv
 *  (which leaves the table as the C's check of that line left it). */
function played(pos: Pos, mv: string): Pos {
  work({ kind: 'set', pos });
  const r = work({ kind: 'play', from: squareOf(mv), to: squareOf(mv.slice(2)), fallback: false });
  if (r.kind !== 'played' || !r.legal) throw new Error(`${mv}: not legal`);
  return r.pos;
}

/** The jobs of one think after these moves, as placeEngine() sends them, and its move. */
function think(moves: string[], nodes: number): Think {
  let pos = fen(START) as Pos;
  for (const mv of moves) pos = played(pos, mv);
  if (!moves.length) work({ kind: 'set', pos });
  return thinkJob(nodes);
}

/** A think at a node limit, on whatever the engine thread holds. */
function thinkJob(nodes: number): Think {
  const lim = limits({ nodeLimit: nodes }, performance.timeOrigin + performance.now());
  const f = work({ kind: 'think', lim, fallback: false, castling: true });
  if (f.kind !== 'found') throw new Error(`the think answered ${f.kind}`);
  return { move: sq(f.x) + sq(f.y), d: f.d, N: f.N, m: f.m };
}

if (parentPort && workerData && typeof workerData === 'object' && 'cut' in workerData) {
  const { cut, first, games, nodes } = workerData as Cut;
  begin();
  const globals = [engine.globals()], boards = [Array.from(engine.board)];
  const phases = warmUpSteps(), steps = phases.flat();
  for (let k = 0; k < Math.min(cut, steps.length); k++) steps[k]();
  globals.push(engine.globals());
  boards.push(Array.from(engine.board));
  const { K, V, X, Y, D } = engine.A;
  const whole = cut >= steps.length ? zero([K, V, X, Y, D]) : undefined;
  const thought = first === 'think' ? thinkJob(nodes) : undefined;
  const locksAfter = first === 'think' ? digest(K) : undefined;
  if (first === 'set') work({ kind: 'set', pos: fen(START) as Pos });
  const locks = first === 'set' ? zero([K]) : undefined;
  const thinks = games.map((moves) => think(moves, nodes));
  parentPort.postMessage({ phases: phases.map((p) => p.length), globals, boards, zero: whole, locks, first: thought, digest: locksAfter, thinks } satisfies AfterCut);
}
