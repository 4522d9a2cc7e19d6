// The scripted inputs that the port is diffed against the C on. Each has a file
// test/fixtures/inputs/<name>.in (written by make-scripts.ts) and a golden transcript
// test/fixtures/golden/<name>.out (written by make-golden.ts from the C, never from the port).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './run.ts';

export interface Script {
  name: string;
  nodes?: number;                                       // --nodes (default: the C's 1e7)
  trace?: boolean;                                      // --trace
  slow?: boolean;                                       // at the default limit: 20 to 45 s a side
  long?: boolean;                                       // only in the long run (MICROMAX_LONG=1)
  about: string;
}

export const SCRIPTS: Script[] = [
  { name: 'castle-kingside', nodes: 1000, about: 'white then black castle short, typed; engine replies' },
  { name: 'castle-queenside', nodes: 1000, about: 'white then black castle long, typed; engine replies' },
  { name: 'castle-out-of-check', nodes: 1000, about: 'e1g1 refused while in check, then a legal move' },
  { name: 'castle-through-check', nodes: 1000, about: 'e1g1 refused: f1 attacked by the a6 bishop' },
  { name: 'castle-into-check', nodes: 1000, about: 'e1g1 refused: g1 attacked by the c5 bishop' },
  { name: 'castle-black-refused', nodes: 1000, about: 'black e8c8 refused through check, e8g8 accepted' },
  { name: 'en-passant', nodes: 1000, about: 'e.p. captures by white (e5d6) and black (c4d3)' },
  { name: 'en-passant-late', nodes: 1000, about: 'e.p. refused one move too late' },
  { name: 'promotion', nodes: 1000, trace: true, about: 'white promotes capturing (g7h8), black without (g2g1)' },
  { name: 'checkmate-typed', nodes: 2000, trace: true, about: "fool's mate typed; the engine then has no move" },
  { name: 'checkmate-by-engine', nodes: 20000, trace: true, about: 'the engine mates (Qh4#), then has no move' },
  { name: 'stalemate', nodes: 2000, trace: true, about: "Loyd's 10-move stalemate typed; engine to move" },
  { name: 'illegal-inputs', nodes: 1000, about: 'wrong colour, e2e5, off-board, garbage, short lines, CR/tab/NUL ends, leaving check' },
  { name: 'eof-mid-line', nodes: 1000, about: 'input ends inside a line: it ends with getchar()\'s -1' },
  { name: 'eof-mid-move', about: 'a legal move with no newline before the end of input' },
  { name: 'rejected-then-empty', nodes: 1000, about: 'after a rejection, Enter does nothing until a legal move' },
  { name: 'char-wrap', nodes: 1000, about: 'eBeD wraps as chars to e2e4' },
  { name: 'stale-buffer', nodes: 1000, about: 'a 1-byte line reuses bytes 2-3 of an earlier line: plays e2e4' },
  { name: 'eight-byte-lines', nodes: 1000, about: 'lines of exactly 8 bytes (the most the C holds)' },
  { name: 'engine-1e3', nodes: 1000, trace: true, about: '300 plies engine against engine, traced (~97 KB out)' },
  { name: 'engine-1e4', nodes: 10000, trace: true, about: '150 plies engine against engine, traced' },
  { name: 'engine-1e5', nodes: 100000, trace: true, about: '120 plies engine against engine, traced' },
  { name: 'mixed-1e4', nodes: 10000, trace: true, about: 'typed opening, then the engine plays both sides' },
  { name: 'random-games', nodes: 500, about: 'seeded random legal games typed, biased to castling/e.p./promotion' },
  { name: 'default-trace', trace: true, slow: true, about: 'one engine move at the default 1e7 limit, traced' },
  { name: 'default-e2e4', slow: true, long: true, about: "printf 'e2e4\\n\\n' at the default limit" },
];

export const scriptPath = (s: Script): string => path.join(ROOT, 'test', 'fixtures', 'inputs', `${s.name}.in`);
export const goldenPath = (s: Script): string => path.join(ROOT, 'test', 'fixtures', 'golden', `${s.name}.out`);
export const scriptInput = (s: Script): Buffer => fs.readFileSync(scriptPath(s));
export const variant = (s: Script): { nodes?: number; trace?: boolean } => ({ nodes: s.nodes, trace: s.trace });
