// `annotated/exercises.md` against the engine and the C. Every exercise's command is run, and the
// figures, moves and scores its answer states are recomputed: from the program's output, from the
// call stream of `test/support/calls.ts` (the facts `npm run tree` draws, read without its layout),
// or from the transcripts of the C changed as the exercise says (`test/fixtures/exercises/`,
// checked to be the changed C's). The answers stand at the end, far below their questions. For the
// exercises that change the engine, `npm run exercise` must pass the answer's change (made here to
// a copy of `micromax.ts`), and fail the unchanged engine and a plausible wrong change. Exercise
// 13's page of two searches opens on the call its answer names, with its numbers, and no knight is
// taken before it.
//
// time: 69 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { whyNoC } from './support/c-oracle.ts';
import { parse, runCalls, type Call } from './support/calls.ts';
import { makeMove } from './support/tree.ts';
import { begin, engine } from '../micromax.ts';
import { parseTranscript, sameBoard, type Transcript } from './support/boards.ts';
import {
  CHANGES, EXERCISES, applyEdits, changeOf, checkGame, firstDifferenceInWords, fixturePath, moveBetween,
  preparedCopy, readFixture, runCGame, runCopy, type Change, type Edit, type Game, type Verdict,
} from './support/exercises.ts';
import { ROOT, atMost, run, toolArgv, type Result } from './support/run.ts';

const MD = fs.readFileSync(path.join(ROOT, 'annotated', 'exercises.md'), 'utf8');
const SOURCE = fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8');
const WORDS = 2500;

// ---- the exercise file ---------------------------------------------------------------------------

interface Exercise { n: number; title: string; commands: string[]; question: string; answer: string }

/** The commands of a ```sh block: one a line, a line ending in `|` or `\` continued. */
const commandsOf = (block: string): string[] => block.trim().replace(/(\||\\)\n\s*/g, (_, end: string) =>
  end === '|' ? '| ' : '').split('\n');

/** Where the answers begin: below every question, so that a plain text editor shows none beside one. */
const ANSWERS = '\n## Answers\n';

/** The exercises: heading `## N. Title` with its ```sh commands and its question; then, under `## Answers`
 *  at the end of the file, `### N. Title` and its answer. */
function exercisesOf(md: string): Exercise[] {
  const at = md.indexOf(ANSWERS);
  assert.ok(at > 0, 'no answers section');
  const answers = new Map(md.slice(at + ANSWERS.length).split(/^### /m).slice(1).map((part) => {
    const head = /^(\d+)\. (.*)\n/.exec(part);
    assert.ok(head, `an answer without a number: ### ${part.split('\n')[0]}`);
    return [Number(head[1]), { title: head[2], text: part.slice(head[0].length) }];
  }));
  const exercises = md.slice(0, at).split(/^## /m).slice(1).map((question) => {
    const head = /^(\d+)\. (.*)$/m.exec(question);
    assert.ok(head, `a section without a number: ## ${question.split('\n')[0]}`);
    const answer = answers.get(Number(head[1]));
    assert.ok(answer, `exercise ${head[1]} has no answer`);
    assert.equal(answer.title, head[2], `exercise ${head[1]}: its answer's title`);
    assert.ok(!/<details>|Answer<\/summary>/.test(question), `exercise ${head[1]}: an answer under the question`);
    const commands = [...question.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => commandsOf(m[1]));
    return { n: Number(head[1]), title: head[2], commands, question, answer: answer.text };
  });
  assert.equal(answers.size, exercises.length, 'one answer an exercise');
  return exercises;
}
const EX = exercisesOf(MD);
const exercise = (n: number): Exercise => EX.find((e) => e.n === n)!;
const squish = (s: string): string => s.replace(/\s+/g, ' ');
/** The answer (or, with `where`, the question) of exercise n says `text`, white space loosely. */
function says(n: number, text: string, where: 'answer' | 'question' = 'answer'): void {
  const e = exercise(n);
  assert.ok(squish(e[where]).includes(squish(text)), `exercise ${n}'s ${where} should say:\n${text}`);
}
const minus = (v: number): string => v < 0 ? `−${-v}` : String(v);    // the text writes U+2212
const signed = (v: number): string => v < 0 ? `−${-v}` : `+${v}`;
const thousands = (v: number): string => v.toLocaleString('en-US');
const name = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));
begin();
/** The opening position as the stream's boards hold it: 64 piece codes, a8 first (init()'s board). */
const OPENING_BOARD = Array.from({ length: 64 }, (_, i) => engine.board[16 * (i >> 3) + (i & 7)]);
const at = (n: string): number => 16 * (8 - Number(n[1])) + n.charCodeAt(0) - 97;
/** A square's centre points, as init() fills the right half of the board. */
const centre = (s: string): number => Math.trunc(((at(s) & 7) - 4) ** 2 + ((at(s) >> 4) - 3.5) ** 2);

test('the exercise file: numbered exercises, each a command and a question, the answers far below', () => {
  assert.deepEqual(EX.map((e) => e.n), Array.from({ length: EXERCISES }, (_, k) => k + 1));
  assert.ok(EX.length >= 8);
  for (const e of EX) {
    assert.ok(e.commands.length > 0, `exercise ${e.n} has no command`);
    assert.match(e.question, /\?/, `exercise ${e.n} asks nothing`);
  }
  assert.match(MD.split('\n')[2], /^\[Back to the guide\]\(README\.md\)$/);
  assert.ok(MD.includes('cp micromax.ts my-micromax.ts') && MD.includes('node --import tsx my-micromax.ts'));
  // the exercises that change the engine are the checker's, with its titles, and at least 3
  const changing = EX.filter((e) => e.commands.some((c) => c.includes('my-micromax.ts')));
  assert.deepEqual(changing.map((e) => [e.n, e.title]), CHANGES.map((c) => [c.n, c.title]));
  assert.ok(changing.length >= 3);
  for (const c of CHANGES) assert.equal(exercise(c.n).commands.at(-1), `npm run exercise -- ${c.n}`);
  assert.deepEqual(commandsOf('printf x |\n  node y\nnpm z \\\n  w'), ['printf x | node y', 'npm z w']);
  // each answer is more than two screens (of 50 lines) below its question, after all the questions
  const lines = MD.split('\n'), line = (re: RegExp): number => lines.findIndex((l) => re.test(l));
  for (const e of EX) {
    const q = line(new RegExp(`^## ${e.n}\\. `)), a = line(new RegExp(`^### ${e.n}\\. `));
    assert.ok(a - q > 100, `exercise ${e.n}: its answer is ${a - q} lines below the question`);
  }
  assert.ok(line(/^## Answers$/) > line(new RegExp(`^## ${EX.length}\\. `)));
});

test(`the exercise file has at most ${WORDS} words`, (t) => {
  const words = MD.replace(/```ts\n[\s\S]*?```/g, '').split(/\s+/).filter(Boolean).length;
  t.diagnostic(`annotated/exercises.md: ${words} words (outside its \`\`\`ts blocks)`);
  assert.ok(words <= WORDS, `${words} words`);
});

// ---- running things ------------------------------------------------------------------------------

// Two programs at a time (the machine may have two cores), in the order asked for; each a leaf.
const limited = atMost(2);
/** Memoised: the same work asked twice is done once. */
function once<T>(memo: Map<string, Promise<T>>, key: string, job: () => Promise<T>): Promise<T> {
  if (!memo.has(key)) memo.set(key, limited(job));
  return memo.get(key)!;
}

const shells = new Map<string, Promise<Result>>();
/** A command of the exercise file, run by sh from the project's folder (once per command). */
const shell = (command: string): Promise<Result> =>
  once(shells, command, () => run('sh', ['-c', command], '', 300_000));
/** Its output: the program's bytes as latin1 (as the C writes them), npm run tree's as UTF-8 (→, ≥). */
async function shellOut(command: string): Promise<string> {
  const r = await shell(command);
  assert.equal(r.code, 0, `${command}\n${r.stderr}`);
  return r.stdout.toString(/^npm run (-s )?tree/.test(command) ? 'utf8' : 'latin1');
}
const transcript = async (command: string): Promise<Transcript> => parseTranscript(await shellOut(command));
/** The trace line's figures: ply, nodes, score, and the move (from- and to-square). */
function traced(line: string): { ply: number; nodes: number; score: number; move: string } {
  const m = /^ *(-?\d+) ply, +(\d+) searched, +(-?\d+) by \( *([0-9a-f]+), *([0-9a-f]+)\)$/.exec(line);
  assert.ok(m, `not a trace line: ${line}`);
  return { ply: +m[1], nodes: +m[2], score: +m[3], move: name(parseInt(m[4], 16)) + name(parseInt(m[5], 16)) };
}
/** The move between board k - 1 and board k. */
const played = (t: Transcript, k: number): string => moveBetween(t.boards[k - 1], t.boards[k]);

// ---- the search as calls (the facts npm run tree shows) ----------------------------------------------

interface Node { call: Call; v: number; pass: number; passes: number; kids: Node[]; takes: string[] }
/** Every call of D() the port makes on this input (a FEN's position first, if given), as trees:
 *  one per call from main() (a think, a typed move's check). Each call knows the root pass it
 *  was made in (`pass`). Built from the call stream alone: `npm run tree`'s layout can change. */
const trees = new Map<string, Promise<Node[]>>();
const callTrees = (input: string, nodes?: number, fen?: string): Promise<Node[]> =>
  once(trees, JSON.stringify([input, nodes, fen]), () => readCalls(input, nodes, fen));
async function readCalls(input: string, nodes?: number, fen?: string): Promise<Node[]> {
  const r = runCalls('port', input, nodes === undefined ? {} : { nodes }, fen ? { MICROMAX_FEN: fen } : {});
  const tops: Node[] = [], open: Node[] = [];
  for (let line = await r.lines.next(); line !== undefined; line = await r.lines.next()) {
    const e = parse(line), parent = open.at(-1);
    if (e.t === '>') {
      const node: Node = { call: e, v: NaN, pass: (parent?.passes ?? 0) + 1, passes: 0, kids: [], takes: [] };
      (parent ? parent.kids : tops).push(node);
      open.push(node);
    } else if (e.t === '<') open.pop()!.v = e.v;
    else if (e.t === '!') parent!.passes++;              // a pass of the open call ends
    else if (e.t === '#' && e.king) parent!.takes.push(name(e.x) + name(e.y));   // (not '@' or '=')
  }
  assert.equal(await r.done, 0);
  return tops;
}
/** The think (the call from main() with z = 8) of those trees. */
const think = (tops: Node[]): Node => tops.find((t) => t.call.z === 8)!;
const movesOf = (nodes: Node[]): string[] => nodes.map((c) => c.call.move);
const inPass = (root: Node, pass: number): Node[] => root.kids.filter((k) => k.pass === pass);
/** The command's output names these moves, in this order (whatever else it prints). */
function inOrder(out: string, moves: string[]): void {
  let from = 0;
  for (const m of moves) {
    const next = out.indexOf(m, from);
    assert.ok(next >= 0, `the output should name ${m} (after position ${from})`);
    from = next + m.length;
  }
}
const OPENING = (): Promise<Node[]> => callTrees('\n', nodesOf(exercise(2).commands[0]));
const fenOf = (command: string): string => /--fen "([^"]+)"/.exec(command)![1];
const nodesOf = (command: string): number => Number(/--nodes (\d+)/.exec(command)![1]);
const inputOf = (command: string): string => /printf '([^']*)'/.exec(command)![1].replace(/\\n/g, '\n');

// ---- the reading exercises -----------------------------------------------------------------------

// What they run starts now, two programs at a time in the order of the tests, which wait for it.
const reading = EX.filter((e) => !changeOf(e.n));
const prestart = <T>(p: Promise<T>): void => void p.catch(() => undefined);    // failures: in their test
for (const e of reading) {
  for (const c of e.commands) {
    if (e.n === 2) prestart(OPENING());
    if (/--fen "/.test(c)) prestart(callTrees('\n', /--nodes/.test(c) ? nodesOf(c) : undefined, fenOf(c)));
    if (e.n === 5 && c === e.commands.at(-1)) prestart(callTrees(inputOf(c), nodesOf(c)));
    prestart(shell(c));
  }
}

test('exercise 1: a trace line', async () => {
  const t = await transcript(exercise(1).commands[0]);
  const lines = t.traces[1].map(traced), last = t.traces[1].at(-1)!;
  const [X, Y] = /\((\w+),(\w+)\)$/.exec(last)!.slice(1).map((h) => parseInt(h, 16));
  says(1, `The last one ends \`by (${X.toString(16)},${Y.toString(16)})\``, 'question');
  assert.equal(played(t, 1), name(X) + name(Y));
  says(1, `\`0x${X.toString(16)}\` is row ${X >> 4}, file ${X & 7}, that is rank 8 − ${X >> 4} = ` +
    `${8 - (X >> 4)}, file ${'abcdefgh'[X & 7]}: ${name(X)}. \`0x${Y.toString(16)}\` is ${name(Y)}.`);
  says(1, `The board printed next has the pawn on ${name(Y)}`);
  says(1, `the scores alternate, ${lines.map((l) => l.score).join(', ')}?`, 'question');
  assert.deepEqual(lines.map((l) => l.score), lines.map((l) => l.ply % 2 ? 14 : 0));
  says(1, `${name(X)}-${name(Y)} gains 14`);
});


test('exercise 2: ties in the first pass', async () => {
  const pass2 = inPass(think(await OPENING()), 2);
  assert.equal(pass2.length, 20);
  const best = pass2.filter((k) => k.v === -15).map((k) => k.call.move);
  assert.ok(pass2.every((k) => k.v >= -15 && k.call.e === k.v));          // at depth 1 they stand pat
  const count = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six'][best.length];
  says(2, `${count}: ${best.slice(0, -1).join(', ')} and ${best.at(-1)}.`);
  says(2, `(c2 is ${centre('c2')} from the centre, c4 ${centre('c4')})`);
  says(2, `b1c3 gains ${centre('b1') - centre('c3')} centre points (b1 is ${centre('b1')}, c3 ${centre('c3')})`);
  assert.equal(centre('c2') - centre('c4') + 9, 15);
  assert.equal(best[0], 'c2c4');
  says(2, 'c2c4 is the first to score 14');
  const out = await shellOut(exercise(2).commands[0]);
  inOrder(out, best);
  assert.match(out, new RegExp(`^ {2}pass 2 done: .*, best ${best[0]}$`, 'm'));
  says(2, `Why is ${best[0]} the one kept (\`best ${best[0]}\` in the line \`pass 2 done\`)?`, 'question');
});

test('exercise 3: the walk is a circle', async () => {
  const root = think(await OPENING());
  const pass3 = inPass(root, 3), moves = movesOf(pass3);
  assert.deepEqual(moves.slice(0, 3), ['c2c4', 'c2c3', 'c2c4']);
  says(3, `${moves.at(-1)}. The walk starts on the best move's from-square, c2`);
  assert.deepEqual(moves.slice(-4), ['a2a3', 'a2a4', 'b2b3', 'b2b4']);
  const twice = pass3.filter((k) => k.call.move === 'c2c4');
  const [first, second] = twice.map((k) => k.call.E);
  says(3, `\`E\` is ${first}. The second call's \`E\` is ${name(second)}.`);
  assert.equal(twice[0].call.probe?.d, undefined, 'the hint finds an empty slot');
  const { d, v } = twice[1].call.probe!;
  says(3, `the first call's probe finds its slot \`empty\`; the second finds not the first's entry but pass 2's ` +
    `(made with \`E\` = ${name(second)}), \`d ${d} v ${v}\`, and deepens it`);
  assert.equal(inPass(root, 2).find((k) => k.call.move === 'c2c4')!.call.E, second);
  assert.equal(exercise(3).commands[0], exercise(2).commands[0]);
  // and the tree draws them so: the hint tagged, its probe empty; the second with E c3 and the entry
  const out = await shellOut(exercise(3).commands[0]);
  inOrder(out, ['pass 2 done', 'c2c4', 'c2c3', 'c2c4', 'b2b4', 'pass 3 done']);
  const lines = out.split('\n').filter((l) => /^ {2}c2c4 .*, 2\) /.test(l));
  assert.match(lines[0], /, 128, c4, 2\) +empty +→ .*hint \(best move first\)/);
  assert.match(lines[1], new RegExp(`, ${name(second)}, c4, 2\\) +d ${d} v ${v} +→`));
  says(3, 'The first c2c4 is the hint (tagged `hint (best move first)`)');
});

test('exercise 4: a knight\'s jumps', async () => {
  const command = exercise(4).commands[0];
  const root = think(await callTrees('\n', nodesOf(command), fenOf(command)));
  const jumps = movesOf(inPass(root, 2)).filter((m) => m.startsWith('d4'));
  says(4, `${jumps.join(', ')}: the steps`);
  says(4, `${jumps.map((m) => signed(at(m.slice(2)) - at('d4'))).join(', ')} added to d4, \`0x43\``);
  assert.equal(at('d4'), 0x43);
  assert.equal(root.call.e, 297);
  const best = inPass(root, 2).reduce((a, b) => (b.v < a.v ? b : a));
  assert.equal(best.call.move, 'a1b2');
  says(4, 'prefer a king move, a1b2?', 'question');
  assert.equal(root.v, 297 + centre('a1') - centre('b2') - 1);
  says(4, `d4 is ${centre('d4')} from the centre`);
  says(4, `(a1 is ${centre('a1')} from the centre, b2 ${centre('b2')}) and gains ${centre('a1') - centre('b2')}, ` +
    `less the penalty: ${root.v}, the knight's 297 and ${root.v - 297}`);
  assert.ok(SOURCE.includes('v = p < 6 ? b[x + 8] - b[y + 8] : 0;'));
  inOrder(await shellOut(command), jumps);
});

test('exercise 5: en passant', async () => {
  const [now, late] = exercise(5).commands;
  const t1 = await transcript(now), t2 = await transcript(late);
  assert.equal(played(t1, 5), 'e5d6');
  const piece = (t: Transcript, k: number, s: string): string => t.boards[k][8 - Number(s[1])][s.charCodeAt(0) - 97];
  assert.deepEqual(['e5', 'd5', 'd6'].map((s) => piece(t1, 4, s) + piece(t1, 5, s)), ['*.', '+.', '.*']);
  says(5, 'e5 and d5 are emptied and a white pawn stands on d6');
  assert.ok(sameBoard(t2.boards[7], t2.boards[6]) && t2.boards.length === 8);
  says(5, 'In the second game e5d6 is refused: the board is printed again, unchanged.');
  // the E each typed move's check is given: d6 after d7d5, no square (−128) after h7h6
  const checks = await callTrees(inputOf(late), nodesOf(late));
  assert.deepEqual([checks[4].call.E, checks[6].call.E], [at('d6'), -128]);
  says(5, `after h7h6 the root's \`E\` (\`O\`) is no square, ${minus(-128)}`);
});

test('exercise 6: check, mate and the recapture', async () => {
  const command = exercise(6).commands[0];
  const root = think(await callTrees('\n', undefined, fenOf(command)));
  const mate = inPass(root, 3).find((k) => k.call.move === 'b6b7')!;
  const replies = mate.kids.filter((k) => k.call.move !== 'null'), probe = mate.kids.at(-1)!;
  says(6, `Black's ${['', '', 'two', 'three', 'four'][replies.length]} moves all return 8000`, 'question');
  assert.ok(replies.every((k) => k.v === 8000 && k.takes.length === 1));
  const take = (move: string): string => replies.find((k) => k.call.move === move)!.takes[0];
  assert.deepEqual(['a8b8', 'a8b7', 'a7a6', 'a7a5'].map(take), ['c7b8', 'c7b7', 'b7a8', 'b7a8']);
  says(6, `After a8b8, \`king capture (${take('a8b8')})\`, and after a8b7, \`(${take('a8b7')})\`: the white king ` +
    `takes the black one next to it. After a7a6 and a7a5, \`(${take('a7a6')})\`: the pawn on b7 takes the king on a8.`);
  assert.ok(replies.every((k) => k.call.n === (k.call.move === 'a8b7' ? 2 : 1)));
  assert.equal(replies.find((k) => k.call.move === 'a8b7')!.call.z, at('b7'));
  says(6, 'a8b7 lands on `z`, b7');
  assert.deepEqual([mate.kids.length, probe.call.move, probe.call.k, probe.call.n, probe.v], [5, 'null', 8, 1, 8000]);
  says(6, 'white moves again in the same position, at depth 1, and takes it (8000)');
  says(6, `mate, −\`I\`/2 = ${minus(mate.v)}`);
  assert.equal(mate.v, -4000);
  assert.ok(SOURCE.includes('if (h = d - int(y !== z))'));
  // (d): the probe inherits z, here b7: an ordinary call, drawn on one line
  assert.deepEqual([probe.call.z, mate.call.z, probe.passes], [at('b7'), at('b7'), 1]);
  says(6, 'Here `z` is b7, where b6b7 went, so it is an ordinary depth-1 call');
  const out = await shellOut(command);
  inOrder(out, ['b6b7', 'a8b8', `king capture (${take('a8b8')})`, 'a8b7', `king capture (${take('a8b7')})`,
    'a7a6', `king capture (${take('a7a6')})`, 'a7a5', `king capture (${take('a7a5')})`,
    `null  D(${[probe.call.k, probe.call.q, probe.call.l, probe.call.e, probe.call.E].join(', ')}, b7, 1)`,
    `→ ${probe.v}  null move: is the side to move in check?`,
    `pass 2 done: score -8000, ${mate.v} after the null move; no legal move (m = -8000)`]);
  says(6, 'the pass ended at −8000 (`no legal move (m = -8000)`)');
});

test('exercise 7: why 3999', async () => {
  const t = await transcript(exercise(7).commands[0]);
  const last = t.traces[4].at(-1)!, f = traced(last);
  says(7, `\`${last.trim()}\``, 'question');
  assert.deepEqual([played(t, 4), f.move], ['d8h4', 'd8h4']);
  says(7, '`( 3,47)` is d8 to h4');
  assert.equal(f.ply, 99 - 1);
  says(7, `prints \`d - 1\`, ${f.ply}. ${f.nodes} is the node count so far`);
  assert.equal(f.score, 4000 - 1);
  says(7, `−4000 for white, so 4000 for black, less the delayed-gain penalty: ${f.score}`);
});

// ---- the change exercises: the answer's change, the unchanged engine, wrong changes -------------------

interface Solution { right: Edit[]; shown: string[]; wrong: Edit[][] }
const EP = '              if (p < 3 && y === E) H = y ^ 16;        // e.p.: the victim is a rank behind';
const PAWN_TEST = 'p < 3 && r & 7 && E !== S && b[E] && y - E < 2 && E - y < 2';
const PAWN_CASTLING = `              if (${PAWN_TEST}) m = I; // a pawn attacks the castling`;
const KING_TAKEN = 'if (i < 0 || E !== S && b[E] && int(y - E < 2) & int(E - y < 2)) m = I;';
const VALUES = 'const values = fixed(0, 1, 1, 3, -1, 3, 5, 9);';
const SOLUTIONS: Record<number, Solution> = {
  8: {                                                   // wrong: the bishop made 4
    right: [[VALUES, 'const values = fixed(0, 1, 1, 4, -1, 3, 5, 9);']],
    shown: ['const values = fixed(0, 1, 1, 4, -1, 3, 5, 9);'],
    wrong: [[[VALUES, 'const values = fixed(0, 1, 1, 3, -1, 4, 5, 9);']]],
  },
  9: {                                                   // wrong: the knight, with the queen's gain
    right: [['{ b[y] |= 7; i += C; } // promotion to queen', '{ b[y] |= 3; i += 198; } // promotion to a knight']],
    shown: ['if (y + r + 1 & S) { b[y] |= 3; i += 198; } // promotion to a knight'],
    wrong: [[['{ b[y] |= 7; i += C; }', '{ b[y] |= 3; i += C; }']]],
  },
  10: {                                                  // wrong: the window's part removed instead
    right: [['                v -= int(v > e);                       // a gain later is worth a bit less\n', '']],
    shown: ['`v -= int(v > e);`'],
    wrong: [[['neg(l) - int(l > e),', 'neg(l),']]],
  },
  11: {                                                  // wrong: 2^21, without the + 8
    right: [['const U = 16777224;                                    // hash entries: 2^24 + 8',
      'const U = 2097160;                                     // hash entries: 2^21 + 8']],
    shown: ['const U = 2097160; // hash entries: 2^21 + 8'],
    wrong: [[['const U = 16777224;', 'const U = 2097152;']]],
  },
  13: { right: [[VALUES, 'const values = fixed(0, 1, 1, 4, -1, 3, 5, 9);']], shown: [],   // exercise 8's change
    wrong: [[[VALUES, 'const values = fixed(0, 1, 1, 3, -1, 4, 5, 9);']]] },
  12: {                                                  // wrong: only the crossed square; or too late
    right: [[EP, `${EP}\n${PAWN_CASTLING}`]],
    shown: [EP.trim(), PAWN_CASTLING.trim()],
    wrong: [
      [[EP, `${EP}\n              if (p < 3 && r & 7 && y === E && b[E]) m = I;`]],
      [[KING_TAKEN, KING_TAKEN.replace(') m = I;', ` || ${PAWN_TEST}) m = I;`)]],
    ],
  },
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-exercises-test-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
/** A copy of micromax.ts with these edits, as a learner would save it (once per label). */
function copyWith(label: string, edits: Edit[]): string {
  const file = path.join(scratch, `${label}.ts`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, applyEdits(SOURCE, edits, label));
  return file;
}
const wrongCopy = (n: number, k: number): string => copyWith(`wrong-${n}-${k}`, SOLUTIONS[n].wrong[k]);
const UNCHANGED = path.join(ROOT, 'micromax.ts');
/** Runs of a copy on a game, shared between the tests (each is costly). */
const runs = new Map<string, Promise<Result>>();
const runOf = (file: string, g: Game): Promise<Result> => once(runs, `${file}\n${g.name}`, () => runCopy(file, g));
/** The copy checked as `npm run exercise` checks it (from the fixtures), game by game until one
 *  differs (`all`: every game). */
async function check(ch: Change, file: string, all = false): Promise<Verdict[]> {
  const out: Verdict[] = [];
  for (const g of ch.games) {
    out.push(await checkGame(ch, g, file, false, runOf(file, g)));
    if (!out.at(-1)!.same && !all) break;
  }
  return out;
}
const words = (vs: Verdict[]): string => vs.map((v) => v.words.join('\n')).join('\n');

for (const ch of CHANGES) {
  test(`exercise ${ch.n}: the answer's change passes; the unchanged engine and a wrong change fail`, async () => {
    const sol = SOLUTIONS[ch.n];
    for (const line of sol.shown) says(ch.n, line);
    const right = copyWith(`right-${ch.n}`, sol.right);
    // the exercise's command, on the right copy, prints the changed C's first game: that one is checked
    // (exercise 13's draws a page: its own test)
    const command = exercise(ch.n).commands[0].replace('my-micromax.ts', preparedCopy(right));
    if (!command.startsWith('npm run -s tree')) {
      assert.ok(command.endsWith(`--nodes ${ch.games[0].nodes}${ch.games[0].trace ? ' --trace' : ''}`), command);
      assert.equal(inputOf(command), ch.games[0].lines.map((l) => `${l}\n`).join(''));
      runs.set(`${right}\n${ch.games[0].name}`, shell(command));
    }
    const wrongs = sol.wrong.map((_, k) => wrongCopy(ch.n, k));
    const [good, unchanged, ...wrong] = await Promise.all([check(ch, right, true), check(ch, UNCHANGED),
      ...wrongs.map((file) => check(ch, file))]);
    assert.ok(good.length === ch.games.length && good.every((v) => v.same), words(good));
    assert.ok(!unchanged[0].same, 'the unchanged engine passes the first game');
    assert.match(words(unchanged), /your copy prints exactly what the unchanged micro-Max prints here/);
    wrong.forEach((w, k) => assert.ok(w.some((v) => !v.same), `wrong change ${k + 1} passes`));
  });
}

const want = (ch: Change, k = 0, unchanged = false): Transcript =>
  parseTranscript(readFixture(ch, ch.games[k], unchanged)!);
const traceOf = (t: Transcript, k: number, ply: number): ReturnType<typeof traced> =>
  traced(t.traces[k].find((l) => traced(l).ply === ply)!);

test('exercise 8: the answer\'s figures are the changed C\'s', () => {
  const ch = changeOf(8)!, k = ch.games[0].lines.length;
  const [mine, plain] = [want(ch), want(ch, 0, true)].map((t) => traced(t.traces[k].at(-1)!));
  assert.deepEqual([played(want(ch), k), played(want(ch, 0, true), k)], [mine.move, plain.move]);
  says(8, `retreats its bishop, ${plain.move}, for a score of ${plain.score}`, 'question');
  says(8, `It takes the knight, ${mine.move}, scoring ${mine.score}: a bishop (${99 * 3}) for a knight ` +
    `(now ${99 * 4}) wins 99 more`);
  says(8, `Its last pass also needs ${thousands(mine.nodes)} nodes instead of ${thousands(plain.nodes)}`);
});

test('exercise 9: the answer\'s figures are the changed C\'s', () => {
  const ch = changeOf(9)!, k = ch.games[0].lines.indexOf('g7h8') + 1;
  const [mine, plain] = [want(ch), want(ch, 0, true)];
  assert.deepEqual([mine.boards[k][0][7], plain.boards[k][0][7]], ['N', 'Q']);
  const g1 = ch.games[1].lines.indexOf('g2g1') + 1;
  assert.deepEqual([want(ch, 1).boards[g1][7][6], want(ch, 1, true).boards[g1][7][6]], ['n', 'q']);
  const [m, p] = [mine, plain].map((t) => traced(t.traces[k + 1][0]).score);
  assert.deepEqual([m, p], [-(99 + 495 + 198), -(99 + 495 + 799)]);
  says(9, `first trace line scores ${minus(p)} there`, 'question');
  says(9, `Black starts from ${minus(m)}: the pawn h4×g5 took (99), the rook on h8 (495) and the promotion's ` +
    `198; with a queen, 799: ${minus(p)}`);
  assert.ok(SOURCE.includes('C = 799'));
});

test('exercise 10: the answer\'s figures are the changed C\'s', () => {
  const ch = changeOf(10)!, k = ch.games[0].lines.length;
  const [mine, plain] = [want(ch), want(ch, 0, true)].map((t) => traced(t.traces[k].at(-1)!));
  assert.deepEqual([mine.score, plain.score, mine.move, plain.move], [4000, 3999, 'd8h4', 'd8h4']);
  says(10, `The mate scores ${mine.score}, found after ${mine.nodes} nodes instead of ${plain.nodes}`);
  const [e1, e0] = [want(ch, 1), want(ch, 1, true)];
  const [four1, four0] = [traceOf(e1, 1, 4), traceOf(e0, 1, 4)];
  says(10, `at \`--nodes ${ch.games[1].nodes}\` it opens ${played(e1, 1)} instead of ${played(e0, 1)}`);
  says(10, `its 4-ply pass takes ${thousands(four1.nodes)} nodes instead of ${thousands(four0.nodes)}, ` +
    'leaving time for a fifth');
  assert.ok(four1.nodes < ch.games[1].nodes && four0.nodes >= ch.games[1].nodes && traceOf(e1, 1, 5));
  assert.ok(SOURCE.includes('neg(l) - int(l > e)'));
});

test('exercise 11: the answer\'s figures are the changed C\'s, and the wrong size\'s the port\'s', async () => {
  const ch = changeOf(11)!, k = ch.games[0].lines.length;
  const [mine, plain] = [want(ch), want(ch, 0, true)].map((t) => traceOf(t, k, 6));
  assert.equal(mine.move, plain.move);
  says(11, `the same move (${mine.move}, ${minus(mine.score)}): the 6-ply pass takes ${thousands(mine.nodes)} ` +
    `nodes instead of ${thousands(plain.nodes)}`);
  assert.ok(mine.nodes > plain.nodes);
  assert.equal(2097160, 2 ** 21 + 8);
  says(11, `With 2²¹ entries it is \`0x${(2 ** 21 - 9).toString(16)}\`, which drops bit 3`);
  assert.equal((2 ** 21 - 9) & 8, 0);
  const wrong = parseTranscript((await runOf(wrongCopy(11, 0), ch.games[0])).stdout);
  const [w4, r4] = [traceOf(wrong, k, 4), traceOf(want(ch), k, 4)];
  says(11, `the 4-ply pass already changes, ${thousands(w4.nodes)} nodes instead of ${thousands(r4.nodes)}`);
  assert.notEqual(w4.nodes, r4.nodes);
});

test('exercise 12: the answer\'s moves are the changed C\'s', () => {
  const ch = changeOf(12)!, k = ch.games[0].lines.indexOf('e1g1') + 1;
  const moves = (t: Transcript): string[] => [k, k + 1, k + 2].map((j) => played(t, j) || '-');
  assert.deepEqual(moves(want(ch, 0, true)), ['e1g1', '-', '-']);
  says(12, 'The unchanged engine accepts e1g1, then refuses c1d2 (black is to move) and the empty line.', 'question');
  const [castled, c1d2, reply] = moves(want(ch));
  assert.deepEqual([castled, c1d2], ['-', 'c1d2']);
  says(12, `Your copy refuses e1g1, accepts c1d2 (the bishop takes the pawn), and black answers ${reply}.`);
  const through = want(ch, 1), j = ch.games[1].lines.indexOf('e1g1') + 1;
  assert.ok(sameBoard(through.boards[j], through.boards[j - 1]));
  assert.ok(!sameBoard(want(ch, 1, true).boards[j], through.boards[j]));
  says(12, 'With a pawn on g2 attacking f1 it refuses e1g1 too');
});

test('exercise 13: the page of two searches opens on the call the answer names, with the numbers it gives', async () => {
  const [tree, check] = exercise(13).commands;
  assert.equal(check, 'npm run exercise -- 13');
  const page = path.join(scratch, 'knight.html'), right = copyWith('right-13', SOLUTIONS[13].right);
  const command = tree.replace('my-micromax.ts', right).replace('annotated/pages/knight.html', page);
  assert.ok(command !== tree && command.includes(page), 'the command names the copy and the page');
  const out = await shellOut(command), nodes = nodesOf(tree);
  const said = /^first difference: call (\d+) \(ply (\d+)\), line \d+ of each stream\n {2}reached by ([a-h1-8 ]+)\n {2}differs: (.*)$/m.exec(out);
  assert.ok(said, out);
  const [no, path3, fields] = [Number(said[1]), said[3].split(' '), said[4]];
  const e = new RegExp(`^e \\(micromax\\.ts (-?\\d+), ${right.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (-?\\d+)\\)$`).exec(fields);
  assert.ok(e, fields);
  says(13, `Call ${no}, ${path3.at(-1)}, reached by ${path3.join(' ')}`);
  says(13, `Its \`e\` differs: ${minus(Number(e[1]))} from micro-Max, ${minus(Number(e[2]))} from your copy.`);
  says(13, `after ${no - 1} calls the same in both?`, 'question');
  // from the streams: the root's pass, the capture on z, the gain (99 times the knight's value), no knight taken before
  const root = think(await callTrees('\n', nodes));
  const [p1, p2, p3] = [root.kids.find((k) => k.call.move === path3[0] && k.kids.some((x) => x.call.move === path3[1] &&
    x.kids.some((y) => y.call.move === path3[2])))!].flatMap((a) => { const b = a.kids.find((x) => x.call.move === path3[1])!;
    return [a, b, b.kids.find((y) => y.call.move === path3[2])!]; });
  says(13, `in the root's pass ${p1.pass}: white's bishop takes the knight that black's ${path3[1]} left en prise (onto \`z\`, ` +
    `${name(p3.call.z)}: searched at depth ${p3.call.n} too)`);
  assert.deepEqual([p3.call.z, at(path3[2].slice(2)), p3.call.n, p2.call.n], [at(path3[1].slice(2)), at(path3[1].slice(2)), 1, 1]);
  assert.equal(Number(e[1]), p3.call.e);
  assert.equal(Number(e[1]) - Number(e[2]), 99 * (4 - 3), 'the capture earns 99 more');
  says(13, `the capture earned 99 times the knight's value, ${99 * 3} or now ${99 * 4}`);
  const inD = SOURCE.slice(SOURCE.indexOf('function D('), SOURCE.indexOf('\n}\n', SOURCE.indexOf('function D(')));
  assert.deepEqual(inD.match(/\bw\[[^\]]*\]/g), ['w[t & 7]'], 'D() reads a value once: a capture\'s');
  assert.ok(inD.includes('i = 99 * w[t & 7];'));
  says(13, '`D()` reads a piece\'s value only when a move captures it');
  // the calls before it took no knight: each move's victim, on its caller's board, as D() makes the move
  let seen = 0, knights = 0;
  const walk = (n: Node, board: number[]): void => {
    for (const k of n.kids) {
      if (++seen >= no) return;
      if (k.call.move === 'null') { walk(k, board); continue; }
      const made = makeMove(board, k.call.move, n.call.E, n.call.k)!;
      knights += +((made.t & 7) === 3);
      walk(k, made.board);
    }
  };
  const start = (await callTrees('\n', nodes)).indexOf(root);
  assert.equal(start, 0, 'the think is the first call');
  seen = 1;
  walk(root, OPENING_BOARD);
  assert.equal(knights, 0, 'a knight taken before the first difference');
  says(13, `none of the ${no - 1} calls before took a knight, so every number there is the same`);
  // the page opens there: its first node is that call on both sides, its e the stream's on each
  const html = fs.readFileSync(page, 'utf8'), d = JSON.parse(/<script type="application\/json" id="data">([^<]*)<\/script>/.exec(html)![1]);
  const [a, b] = d.nodes[d.first.node];
  const number = (calls: number[][], i: number): number => calls.slice(0, i + 1).reduce((t, r) => t + r[0], 0);
  assert.deepEqual([number(d.sides[0].calls, a), number(d.sides[1].calls, b), d.sides[0].calls[a][7], d.sides[1].calls[b][7]],
    [no, no, Number(e[1]), Number(e[2])]);
});

// ---- the fixtures are the C's ------------------------------------------------------------------------

test('the fixtures are what the C prints, changed as each exercise says, and unchanged', { skip: whyNoC() },
  async () => {
  for (const ch of CHANGES) {
    for (const g of ch.games) {
      const [changed, plain] = await Promise.all([runCGame(ch, g), runCGame(ch, g, true)]);
      assert.ok(changed.equals(readFixture(ch, g)!), `${fixturePath(ch, g)} is not the changed C's output`);
      assert.ok(plain.equals(readFixture(ch, g, true)!), `${fixturePath(ch, g, true)} is not the C's output`);
      assert.ok(!changed.equals(plain), `${ch.slug}.${g.name}: the change does not show`);
    }
  }
});

// ---- npm run exercise: its command line, and its words --------------------------------------------------

/** What the checker says of the unchanged engine on exercise 12's first game (indented by `pad`). */
const refusedWords = (pad: number): RegExp => new RegExp('after line 11 of the input \\(e1g1, typed\\), ' +
  `the boards differ:\\n {${pad + 2}}the changed C refuses e1g1; your copy accepts it\\n`);
/** npm run exercise -- ARGS, with MICROMAX_C (when set) or without it. */
const tool = (args: string[], withC = false): Promise<Result> => limited(() =>
  run('env', [...withC ? [] : ['-u', 'MICROMAX_C'], process.execPath, ...toolArgv('exercise', args)], '', 300_000));

test('npm run exercise: exit 0 the same, 1 different, 2 bad use; the C live when MICROMAX_C is set', async () => {
  const right = copyWith('right-12', SOLUTIONS[12].right);
  const [ok, differs] = await Promise.all([tool(['12', right]), tool(['12', UNCHANGED])]);
  assert.equal(ok.code, 0, ok.stdout.toString() + ok.stderr);
  assert.match(ok.stdout.toString(),
    /stored transcripts\n.*: the same\n.*: the same\nyour copy behaves as the changed C does\n$/);
  assert.equal(differs.code, 1);
  assert.match(differs.stdout.toString(),
    refusedWords(2));
  const bad = await Promise.all([['3'], ['14'], ['12', path.join(scratch, 'none.ts')], ['--make'], ['--help']]
    .map((args) => tool(args)));
  assert.deepEqual(bad.map((r) => r.code), [2, 2, 2, 2, 0]);
  assert.match(bad[0].stderr, /^exercise: exercise 3 changes nothing in the engine: its answer is at the end of annotated\/exercises\.md/);
  assert.match(bad[1].stderr, /there is no exercise '14' \(1 to 13\)/);
  assert.match(bad[2].stderr, /no file .*none\.ts/);
  assert.match(bad[3].stderr, /MICROMAX_C is not set/);
  assert.match(bad[4].stdout.toString(), /^usage: npm run exercise -- N \[file\]/);
  if (whyNoC()) return;
  const live = await tool(['12', right], true);
  assert.equal(live.code, 0, live.stdout.toString());
  assert.match(live.stdout.toString(), /against the C, changed the same way \(MICROMAX_C\)/);
});

test('the first difference, in words: a refused move, a different move, a pass, a crash', () => {
  const ch = changeOf(12)!, g = ch.games[0];
  const right = readFixture(ch, g)!, plain = readFixture(ch, g, true)!;
  const result = (stdout: Buffer, code = 0, stderr = ''): Result => ({ stdout, stderr, code, signal: null });
  const refused = firstDifferenceInWords(g, right, result(plain)).join('\n');
  assert.match(refused, refusedWords(0));
  assert.ok(refused.startsWith('after line 11'));
  assert.match(refused, / {4}1 R N B Q K \. \. R {4}R N B Q \. R K \.$/);
  // a different engine move, seen first in a pass of the trace, or on the board without a trace
  const k8 = changeOf(8)!, g8 = k8.games[0], [mine, unchanged] = [readFixture(k8, g8)!, readFixture(k8, g8, true)!];
  const move = firstDifferenceInWords(g8, mine, result(unchanged)).join('\n');
  assert.match(move, /^while micro-Max thinks after line 7 of the input \(empty: micro-Max moves\), its pass 2 /);
  assert.match(move, /prints " 1 ply, .*"\n  your copy prints {5}" 1 ply, .*"\n/);
  assert.match(move, /\n  \(the changed C then plays b5c6, your copy b5d3\)/);
  const untraced = (b: Buffer): Buffer => Buffer.from(b.toString('latin1').replace(/^.*ply.*\n/gm, ''), 'latin1');
  const board = firstDifferenceInWords({ ...g8, trace: false }, untraced(mine), result(untraced(unchanged))).join('\n');
  assert.match(board, /the changed C plays b5c6; your copy plays b5d3/);
  // a copy that stops
  const cut = Buffer.from(right.toString('latin1').split('\n').slice(0, 30).join('\n') + '\n', 'latin1');
  const crash = firstDifferenceInWords(g, right, result(cut, 1, 'TypeError: x is not a function\n    at D')).join('\n');
  assert.match(crash, /^your copy stops before the board after line 3 of the input \(d4e5, typed\) \(exit code 1\)\n/);
  assert.match(crash, /\n  it says:\n {4}TypeError: x is not a function$/);
});

test('the move between two boards: an ordinary move, castling, en passant, a promotion', () => {
  const rows = (s: string): string[] => s.split('/');
  const start = rows('rnbqkbnr/++++++++/......../......../......../......../********/RNBQKBNR');
  const e4 = rows('rnbqkbnr/++++++++/......../......../....*.../......../****.***/RNBQKBNR');
  assert.equal(moveBetween(start, e4), 'e2e4');
  const home = rows('rnbqkbnr/++++++++/......../......../......../......../********/RNBQK..R');
  const castled = rows('rnbqkbnr/++++++++/......../......../......../......../********/RNBQ.RK.');
  assert.equal(moveBetween(home, castled), 'e1g1');
  const ep = [rows('k......./......../......../...+*.../......../......../......../K.......'),
    rows('k......./......../...*..../......../......../......../......../K.......')];
  assert.equal(moveBetween(ep[0], ep[1]), 'e5d6');
  const promo = [rows('.r....k./......*./......../......../......../......../......../K.......'),
    rows('.r....kN/......../......../......../......../......../......../K.......')];
  assert.equal(moveBetween(promo[0], promo[1]), 'g7h8');
  assert.equal(moveBetween(start, start), '');
});
