// `micromax bench` and UCI's `bench`: the search's signature. Its total of nodes is pinned here
// (5,295,811): a change to what any search does changes it (the quick run checks it on every Node
// line CI runs, the whole suite on the others). Its last line is `NODES nodes NPS nps`, and
// OpenBench's own reading of a bench's output (`Client/bench.py`: the last line with a count before
// or after "nodes", and the same for "nps") finds that total and that speed. Each of its positions
// is searched as the C searches it: the C, given the moves that reach it and an empty line at
// `--nodes 100000` (`BENCH_NODES`), ends on the same node count (its last trace line) and plays the
// same move (without `MICROMAX_C`: the port's terminal mode, byte-identical to the C by the
// transcript tests). Through UCI, the same lines on stderr, `isready` answered while it runs, and a
// `stop` ends it.
//
// time: 44 s

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BENCH, BENCH_NODES } from '../micromax.ts';
import { whyNoC } from './support/c-oracle.ts';
import { Session } from './support/gui.ts';
import { portArgs, runC, runPort } from './support/run.ts';

// the total of nodes of micromax bench, the same on Node 20, 22, 24 and 26 (and on every machine)
const SIGNATURE = 5295811;
const noC = whyNoC();

/** OpenBench's reading of a bench's output, as its Client/bench.py does it: from the last line
 *  up, the first count of nodes and the first count of nps, other characters read as spaces. */
function openBench(output: string): { bench?: number; nps?: number } {
  let nps: string | undefined, bench: string | undefined;
  for (const raw of output.trim().split('\n').reverse()) {
    const line = raw.replace(/[^a-zA-Z0-9 ]+/g, ' ');
    nps ??= /(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)/i.exec(line)?.[0];
    bench ??= /(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)/i.exec(line)?.[0];
  }
  const number = (s?: string): number | undefined => s === undefined ? undefined : Number(/\d+/.exec(s)![0]);
  return { bench: number(bench), nps: number(nps) };
}

// micromax bench and UCI's bench, both at once (the two cores; their node counts are the same at
// any speed); the second is stopped after two positions.
const cli = runPort('', ['bench']);
const uci = uciBench();

/** The bench's lines of positions: the node count and the move of each. */
function positions(text: string): { nodes: number; move: string }[] {
  return [...text.matchAll(/^position \d+\/\d+, .*: (\d+) nodes, depth \d+, ([a-h][1-8][a-h][1-8])$/gm)]
    .map((m) => ({ nodes: Number(m[1]), move: m[2] }));
}

test(`micromax bench: ${BENCH.length} positions, ${SIGNATURE} nodes in all, the last line NODES nodes NPS nps, as OpenBench reads it`, async (t) => {
  const r = await cli;
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = r.stdout.toString(), last = out.trimEnd().split('\n').at(-1)!;
  t.diagnostic(last);
  const m = /^(\d+) nodes (\d+) nps$/.exec(last);
  assert.ok(m, `the last line: ${last}`);
  assert.equal(Number(m[1]), SIGNATURE, 'the search\'s signature changed: a search does something else');
  const each = positions(out);
  assert.equal(each.length, BENCH.length);
  assert.equal(each.reduce((a, p) => a + p.nodes, 0), SIGNATURE, 'the total is the sum of the positions\' nodes');
  assert.deepEqual(openBench(out), { bench: SIGNATURE, nps: Number(m[2]) }, 'OpenBench reads the total and the speed');
  assert.ok(Number(m[2]) > 0);
});

test(`each position of the bench is searched as ${noC ? 'the port\'s terminal mode (no MICROMAX_C)' : 'the C'} searches it at --nodes ${BENCH_NODES}`, async () => {
  const bench = positions((await cli).stdout.toString());
  for (let k = 0; k < BENCH.length; k += 2) {                        // two at a time: both cores
    const pair = BENCH.slice(k, k + 2);
    const outs = await Promise.all(pair.map((p) => {
      const input = p.moves.map((mv) => `${mv}\n`).join('') + '\n';
      return noC ? runPort(input, portArgs({ nodes: BENCH_NODES, trace: true })) : runC(input, { nodes: BENCH_NODES, trace: true });
    }));
    pair.forEach((p, j) => {
      const lines = outs[j].stdout.toString().split('\n');
      const trace = lines.filter((l) => / ply, +\d+ searched/.test(l)).at(-1) ?? '';
      const [, nodes, x, y] = /(\d+) searched, +-?\d+ by \( *([0-9a-f]+), *([0-9a-f]+)\)/.exec(trace) ?? [];
      const move = [x, y].map((h) => 'abcdefgh'[parseInt(h, 16) & 7] + (8 - (parseInt(h, 16) >> 4))).join('');
      assert.equal(bench[k + j].nodes, Number(nodes), `${p.name}: the C searched ${nodes} nodes (${trace.trim()})`);
      assert.equal(bench[k + j].move, move, `${p.name}: the C's best move (${trace.trim()})`);
    });
  }
});

/** UCI: bench, and isready while it runs; stop once it has said two positions (the whole bench
 *  is the command line's, through the same function). What stderr had, how long isready took,
 *  what stdout had, and the exit code. Waits are long: the machine may be loaded. */
async function uciBench(): Promise<{ stderr: string; ready: number; lines: string[]; code: number | null }> {
  const s = new Session('uci');
  s.send('uci', 'isready');
  await s.expect(/^readyok$/, 120_000);
  const t0 = s.send('bench', 'isready');
  const ready = (await s.expect(/^readyok$/, 120_000)).t - t0;
  for (let k = 0; k < 2400 && positions(s.stderr).length < 2; k++) await new Promise((r) => setTimeout(r, 100));
  s.send('stop', 'isready');
  await s.expect(/^readyok$/, 120_000);
  return { stderr: s.stderr, ready, lines: s.lines.map((l) => l.text), code: (await s.close()).code };
}

test('UCI bench: its lines on stderr, the command line\'s; isready answered while it runs; stop ends it', async () => {
  const r = await uci, said = positions(r.stderr);
  assert.ok(said.length >= 2, r.stderr);
  assert.deepEqual(said, positions((await cli).stdout.toString()).slice(0, said.length), 'the positions, nodes and moves of micromax bench');
  assert.match(r.stderr, new RegExp(`\\nbench stopped at position ${said.length + 1}/${BENCH.length}\\n$`), r.stderr);
  assert.ok(r.ready < 5000, `isready answered after ${r.ready.toFixed(0)} ms while the bench ran`);
  assert.deepEqual(r.lines.filter((l) => /^(bestmove|info depth)/.test(l)), [], 'a bench sends no move, shows no pass');
  assert.equal(r.code, 0);
});
