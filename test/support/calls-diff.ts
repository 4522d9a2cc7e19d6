// compare --calls: the C and the port, both instrumented (test/support/calls.ts), run on the same input; their
// call streams are read side by side as they are written (nothing is stored but the open calls and
// the last few) until the first line that differs. That names a call: a call whose arguments, node
// count or probe differ, or, when the next lines of an open call differ (its result, a pass, one more
// call on one side only), that open call. Its results are then read on, each side to its own return.

import { args, parse, probed, runCalls, type Call, type Lines, type Return } from './calls.ts';
import { firstDifference } from './run.ts';

const BEFORE = 5;                                      // calls shown before the one that differs
const AHEAD = 50_000_000;                              // lines read on for a result, at most

interface Open { number: number; ply: number; line: string }
const moveOf = (line: string): string => line.slice(2, line.indexOf(' ', 2));

/** Reads on to the line that closes the call `open` levels up; undefined if the stream ends first. */
async function resultOf(lines: Lines, open: number): Promise<Return | undefined> {
  for (let k = 0; k < AHEAD; k++) {
    const line = await lines.next();
    if (line === undefined) return undefined;
    if (line[0] === '>') open++;
    else if (line[0] === '<' && --open === 0) return parse(line) as Return;
  }
  return undefined;
}

const said = (c: Call): string =>
  `${args(c, true)}, N ${c.N}, probe: ${probed(c)}${c.probe ? ` (slot ${c.probe.slot})` : ''}`;
const returns = (r: Return | undefined): string =>
  r ? `returns ${r.v} (N ${r.N})` : 'never returns (the stream ends first)';
function next(line: string | undefined, r: Return | undefined): string { // an open call's next line
  if (line === undefined) return `makes no more calls (the program stopped): it ${returns(r)}`;
  const e = parse(line);
  if (e.t === '<') return returns(r);
  if (e.t === '>') return `calls ${e.move} ${args(e)}${e.hint ? ' (its best move, first)' : ''}, then ${returns(r)}`;
  if (e.t === '=') return `ends a root pass: ply ${e.d}, N ${e.N}, score ${e.m}, best (${e.X}, ${e.Y}); then ` +
    returns(r);
  if (e.t === '!') return `ends a pass: d ${e.d}, m ${e.m}${e.cut ? ', a cut-off' : ''}; then ${returns(r)}`;
  const what = e.t === '#' && e.king ? 'a king capture' : 'a castling';
  if (e.t === '#') return `scores m = I on ${what} (${e.x}, ${e.y}); then ${returns(r)}`;
  return `shows a board; then ${returns(r)}`;
}

/** Compares the two call streams; prints the verdict and returns the exit code. */
export async function compareCalls(input: Buffer, nodes?: number): Promise<number> {
  const t0 = Date.now();
  const c = runCalls('C', input, { nodes }), p = runCalls('port', input, { nodes });
  const open: Open[] = [], recent: Open[] = [];
  const seen = { calls: 0, checks: 0, top: '' };
  let a: string | undefined, b: string | undefined;
  for (;;) {
    [a, b] = [await c.lines.next(), await p.lines.next()];
    if (a !== b || a === undefined) break;
    if (a[0] === '>') {
      const call = { number: ++seen.calls, ply: open.length, line: a };
      if (!open.length) {                              // a call from main(): a think or a check
        const z = Number(a.split(' ')[9]);
        if (z === 9) seen.checks++;
        seen.top = z === 9 ? `the legality check of input line ${seen.checks}`
          : `the think at input line ${seen.checks + 1}`;
      }
      open.push(call); recent.push(call);
      if (recent.length > BEFORE) recent.shift();
    } else if (a[0] === '<') open.pop();
  }
  if (a === undefined && b === undefined) {
    const codes = await Promise.all([c.done, p.done]);
    const [out1, out2] = await Promise.all([c.stdout, p.stdout]), diff = firstDifference(out1, out2);
    if (diff || codes[0] !== codes[1]) {
      const exits = codes[0] !== codes[1] ? `: exit codes C ${codes[0]}, port ${codes[1]}` : '';
      console.log(`the calls are identical (${seen.calls}), but the output is not${exits}`);
      if (diff) console.log(diff);
      return 1;
    }
    console.log(`identical: ${seen.calls} calls`);
    const s = (Date.now() - t0) / 1000;
    process.stderr.write(`compared in ${s.toFixed(1)} s, ${Math.round(seen.calls / s)} calls a second\n`);
    return 0;
  }

  // the first difference: a new call on both sides, or else the open call it happens in
  const fresh = a?.[0] === '>' && b?.[0] === '>';
  const at = fresh ? seen.calls + 1 : open.at(-1)?.number;
  const path = open.map((o) => moveOf(o.line)).slice(1);
  const resultAfter = (lines: Lines, l: string | undefined): Promise<Return | undefined> | Return | undefined =>
    l === undefined ? undefined : !fresh && l[0] === '<' ? parse(l) as Return
      : resultOf(lines, !fresh && l[0] === '>' ? 2 : 1); // (the open call and the one just begun)
  const results = await Promise.all([resultAfter(c.lines, a), resultAfter(p.lines, b)]);
  c.child.kill(); p.child.kill();
  if (at === undefined) {
    console.log(`the call streams differ before any call: C ${JSON.stringify(a)}, port ${JSON.stringify(b)}`);
    return 1;
  }
  const where = fresh ? [...path, moveOf(a!)] : path;
  console.log(`first difference: call ${at}, in ${seen.top || 'the first call from main()'}, ` +
    (where.length ? `reached by ${where.join(' ')}` : 'the call from main() itself'));
  const same = open.at(-1)?.line;
  if (!fresh && same) console.log(`  the call, the same in both: ${moveOf(same)} ${said(parse(same) as Call)}`);
  ([['C', a, results[0]], ['port', b, results[1]]] as const).forEach(([who, line, r]) => {
    const head = `  ${who}:`.padEnd(8);
    if (fresh) console.log(`${head}${moveOf(line!)} ${said(parse(line!) as Call)}, ${returns(r)}`);
    else console.log(`${head}then it ${next(line, r)}`);
  });
  if (recent.length) {
    console.log(`the calls before it, the same in both (number, ply, move, call):`);
    for (const r of recent) {
      const e = parse(r.line) as Call;
      console.log(`  ${String(r.number).padStart(9)}  ${String(r.ply).padStart(2)}  ${e.move.padEnd(5)} ${said(e)}`);
    }
  }
  return 1;
}
