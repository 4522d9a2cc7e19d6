// npm run tree -- [--moves "e2e4 e7e5"] [--fen FEN] [--nodes N] [--depth D] [--limit L]
// micro-Max thinks about its next move, as an empty line makes it do, after those moves (from the
// opening, or from FEN), and this prints the search call by call, indented by ply: the move that
// led to the call, its arguments in the guide's names (keys J and Z left out), what the hash probe
// found, and what the call returned. Each root pass ends with the C's trace figures. --depth hides
// calls deeper than D plies (default 1); --limit stops after L lines (default 100; 0: no limit).
// The calls come from the port instrumented by test/support/calls.ts; exit 2 on bad arguments.

import { fail, moveList, readOptions, whole } from '../support/options.ts';
import { I, args, parse, probed, runCalls, square, type Call, type Pass } from '../support/calls.ts';

const USAGE = `usage: npm run tree -- [--moves "e2e4 e7e5"] [--fen FEN] [--nodes N] [--depth D] [--limit L]
  --moves "..."  the moves from the opening before micro-Max thinks
  --fen FEN      or the position to think in (port only: the C has no set-up)
  --nodes N      stop deepening after N nodes (default: the C's 1e7)
  --depth D      hide calls deeper than D plies below the root (default 1)
  --limit L      stop after L lines (default 100; 0: no limit)`;
function usage(msg: string): never {
  return fail('tree', msg);
}

const { values } = readOptions('tree', USAGE, {
  moves: { type: 'string' }, fen: { type: 'string' }, nodes: { type: 'string' }, depth: { type: 'string' },
  limit: { type: 'string' },
});
const opt = {
  moves: moveList('tree', values.moves, false) ?? [],
  fen: values.fen ?? '',
  nodes: whole('tree', 'nodes', values.nodes, 1),
  depth: whole('tree', 'depth', values.depth, 0) ?? 1,
  limit: whole('tree', 'limit', values.limit, 0) ?? 100,
};
if (values.fen !== undefined && !values.fen.trim()) usage('--fen needs a position');

// ---- drawing the stream -----------------------------------------------------------------------

interface Shown { level: number; text: string; inside: number; printed: boolean }
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
const pad = (level: number): string => '  '.repeat(level);
const run = runCalls('port', opt.moves.map((m) => `${m}\n`).join('') + '\n', { nodes: opt.nodes },
  opt.fen ? { MICROMAX_FEN: opt.fen } : {});
process.stdout.on('error', () => process.exit(0));     // a reader that stops early (| head)

const game = { started: false, checked: 0, open: 0, calls: 0, passes: 0, last: undefined as Pass | undefined };
const stack: Shown[] = [];                             // the open calls that are shown
function settle(): void {                              // a call waiting for its result has calls shown
  const top = stack.at(-1);
  if (top && !top.printed) { out.put(top.text.trimEnd()); top.printed = true; }
}
function call(c: Call): void {
  const level = game.open++;
  game.calls++;
  for (const s of stack) s.inside++;                   // one more call inside each one shown
  if (level > opt.depth) return;
  settle();
  const text = `${pad(level)}${(level ? c.move : 'root').padEnd(5)} ${args(c)}`;
  stack.push({ level, text: `${text.padEnd(44 + 2 * level)} ${probed(c).padEnd(20)}`, inside: 0, printed: false });
}
function back(v: number, N: number): void {
  const level = --game.open;
  if (level > opt.depth) return;
  const s = stack.pop()!, calls = s.inside ? ` (${plural(s.inside, 'call')})` : '';
  if (level === 0) {
    settle();
    out.put(`returns ${v}${best(game.last)}, after ${plural(N, 'node')} and ${plural(game.calls, 'call')}`);
  } else if (!s.printed) out.put(`${s.text}→ ${v}${calls}`);
  else out.put(`${pad(level)}→ ${v}${calls}`);
}

const best = (p: Pass | undefined): string => p && p.d > 0 ? `, best ${square(p.X)}${square(p.Y)}` : '';
const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
async function draw(): Promise<void> {
  for (let line = await run.lines.next(); line !== undefined; line = await run.lines.next()) {
    if (!game.started) {                               // (a bad FEN: no line, no heading)
      game.started = true;
      const from = opt.fen ? `from ${opt.fen}` : 'from the opening', after = opt.moves.join(' ');
      const nodes = opt.nodes ? `, --nodes ${opt.nodes}` : '';
      out.buf += `micro-Max thinks (${from}${after ? `, after ${after}` : ''}${nodes}).\n` +
        'Each call: the move to it, D(k, q, l, e, E, z, n), its probe (an entry: d, v), → its result (calls made).\n';
    }
    if (stack.length && game.open > opt.depth + 1 && line[0] !== '=') { // hidden: only counted
      if (line[0] === '>') { game.open++; game.calls++; for (const s of stack) s.inside++; } else game.open--;
      continue;
    }
    const e = parse(line);
    if (game.checked < opt.moves.length) {             // the typed moves' legality checks: not drawn
      if (e.t === '>') game.open++;
      else if (e.t === '<' && --game.open === 0) {
        const move = opt.moves[game.checked];
        if (e.v !== I) throw new Stop(`micro-Max does not accept ${move} there (move ${game.checked + 1})`, 2);
        game.checked++;
      }
      continue;
    }
    if (e.t === '>') call(e);
    else if (e.t === '<') { back(e.v, e.N); if (game.open === 0) return; }
    else {
      settle();
      game.last = e;
      out.put(`${pad(1)}pass ${++game.passes} done: ply ${e.d}, ${plural(e.N, 'node')}, score ${e.m}${best(e)}`);
    }
  }
  const code = await run.done;                         // (2: a bad FEN, and the port said why)
  throw new Stop(code === 2 ? '' : `the port ended (exit ${code}) before its search did`, code === 2 ? 2 : 1);
}
try { await draw(); } catch (err) {
  if (!(err instanceof Stop)) throw err;
  if (err.code) process.stderr.write(err.last ? `tree: ${err.last}\n` : '');
  else if (err.last) out.buf += err.last + '\n';
  process.exitCode = err.code;
}
run.child.kill();
out.flush();
