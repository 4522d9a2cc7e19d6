// Never hung, in both protocols: whatever a GUI session is doing, `quit`, the end of the input and
// a closed stdout end it. Stdout closed before the first write (a first write made by a command
// that then searches too), while the engine thread starts, during a search with stdin left open
// (seen at the next pass or progress line), between searches (then an answer, a search, the end of
// input); `quit` and the end of input during a search, stdout open or closed; stdout as Node's
// spawn gives it (a socket) and as a shell's `|` gives it (a pipe: the issue's own lines, `| true`
// and `| head`). Each exit timed from the event and bounded at 3 s (4 s from the start in a shell
// pipe), the time said; each state a test, four at a time.
//
// A run still going after HANG_MS has hung.
//
// time: 11 s

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test, type TestContext } from 'node:test';
import { Session } from './support/gui.ts';
import { killGroup, portCommand, ROOT } from './support/run.ts';

const BOUND_MS = 3000;                                  // an exit this long after the event is late
const HANG_MS = 15_000;                                 // still running after this: hung

type Protocol = 'uci' | 'xboard';
// What each protocol is sent: its handshake and the line that says it is answered (isready and
// ping wait for the engine thread); a search that goes on for half a minute or more (xboard
// without post: only the progress line is written while it thinks); one over in 200 ms, and its
// move; a line answered at once; the first write made by a command that goes on to start the
// engine thread (a note that the clock gives no time, then the search).
const SAY = {
  uci: { hello: ['uci', 'isready'], ready: /^readyok$/, first: ['uci'], firstAnswer: /^uciok$/,
    long: ['position startpos', 'go infinite'], short: ['position startpos', 'go movetime 200'], move: /^bestmove [a-h]/,
    answered: ['isready'], noteThenSearch: ['debug on', 'go btime 500'] },
  xboard: { hello: ['xboard', 'protover 2', 'ping 1'], ready: /^pong 1$/, first: ['xboard', 'protover 2'],
    firstAnswer: /^feature .*done=1/, long: ['new', 'st 30', 'go'], short: ['new', 'st 0.2', 'go'], move: /^move [a-h]/,
    answered: ['ping 2'], noteThenSearch: ['xboard', 'level 0 0 0', 'go'] },
} as const;
const NAME = { uci: 'UCI', xboard: 'xboard' };

/** Waits for the session's exit, up to HANG_MS; fails unless it came within BOUND_MS of t0, with
 *  code 0 and nothing on stderr; returns what it measured. */
async function endsSoon(t: TestContext, s: Session, t0: number, what: string): Promise<number> {
  const r = await Promise.race([s.exited, new Promise<undefined>((res) => {
    const timer = setTimeout(() => res(undefined), HANG_MS);
    void s.exited.then(() => clearTimeout(timer));
  })]);
  const ms = performance.now() - t0;
  t.diagnostic(`${what}: ${r ? `exit ${r.code} after ${ms.toFixed(0)} ms` : `still running after ${ms.toFixed(0)} ms`}`);
  assert.ok(r, `${what}: still running ${HANG_MS} ms after it (hung: an EPIPE ignored, or an engine thread started after the end?)`);
  assert.ok(ms < BOUND_MS, `${what}: exit ${ms.toFixed(0)} ms after it (at most ${BOUND_MS})`);
  assert.equal(r.code, 0, `${what}: exit code`);
  assert.equal(s.stderr, '', `${what}: stderr`);
  return ms;
}

/** A session started bare, its handshake answered (the engine thread running), killed after. */
async function ready(t: TestContext, p: Protocol): Promise<Session> {
  const s = new Session(p, { test: t });
  s.send(...SAY[p].hello);
  await s.expect(SAY[p].ready);
  return s;
}

/** The GUI closes the engine's stdout and keeps its stdin open. */
const closeOutput = (s: Session): void => { s.proc.stdout.destroy(); };

// Every state is a test of its own, and they run CONCURRENCY at a time: each mostly waits (for a
// start-up, a search, an exit), so the file takes a fraction of their sum.
const CONCURRENCY = 4;
const PARALLEL = { concurrency: CONCURRENCY };

/** Each state that ends a session, in one protocol: a test each. */
function endings(p: Protocol): void {
  const say = SAY[p], P = NAME[p];
  test(`${P}: stdout closed before the first write: the EPIPE of its first answer ends it, no engine thread started after`, async (t) => {
    const s = new Session(p, { test: t });
    closeOutput(s);
    const t0 = s.send(...say.hello, ...say.long);
    await endsSoon(t, s, t0, `${P}, stdout closed at its start, then the handshake and a search sent`);
  });

  test(`${P}: stdout closed before the first write, made by a command that then starts a search: no engine thread starts after the end`, async (t) => {
    const s = new Session(p, { test: t });
    closeOutput(s);
    const t0 = s.send(...say.noteThenSearch);
    await endsSoon(t, s, t0, `${P}, stdout closed at its start, then ${say.noteThenSearch.join(', ')}`);
  });

  test(`${P}: stdout closed while the engine thread starts: the EPIPE ends it`, async (t) => {
    const s = new Session(p, { test: t });
    s.send(...say.first);
    await s.expect(say.firstAnswer);                    // the engine thread starts now
    closeOutput(s);
    const t0 = s.send('xyzzy', ...say.long);            // answered at once: its write fails
    await endsSoon(t, s, t0, `${P}, stdout closed as the engine thread starts, then an unknown command and a search`);
  });

  test(`${P}: stdout closed during a search, stdin left open: the EPIPE of its next line stops the search and ends it`, async (t) => {
    const s = await ready(t, p);
    s.send(...say.long);
    if (p === 'uci') await s.expect(/^info depth 2 /);
    else await new Promise((res) => setTimeout(res, 300));
    const t0 = performance.now();
    closeOutput(s);
    await endsSoon(t, s, t0, `${P}, stdout closed during a search`);
  });

  for (const [then, send] of [['an answer', say.answered], ['a search', say.long], ['the end of input', []]] as const) {
    test(`${P}: stdout closed between searches, then ${then}: it ends`, async (t) => {
      const s = await ready(t, p);
      s.send(...say.short);
      await s.expect(say.move);
      closeOutput(s);
      const t0 = s.send(...send);
      if (!send.length) s.proc.stdin.end();
      await endsSoon(t, s, t0, `${P}, stdout closed after a search, then ${then}`);
    });
  }

  for (const how of ['quit', 'the end of input'] as const) {
    for (const closed of [false, true]) {
      test(`${P}: ${how} during a search, stdout ${closed ? 'closed' : 'open'}: it ends at once`, async (t) => {
        const s = await ready(t, p);
        s.send(...say.long);
        await new Promise((res) => setTimeout(res, 300));
        if (closed) closeOutput(s);
        const t0 = how === 'quit' ? s.send('quit') : performance.now();
        s.proc.stdin.end();
        await endsSoon(t, s, t0, `${P}, ${how} during a search, stdout ${closed ? 'closed' : 'open'}`);
      });
    }
  }
}

// The shell's `|`: a pipe, not a socket. The issue's own lines: stdout closed before the engine
// even starts (`| true`), then, half a second later, the handshake and a search (and xboard's
// quit); and a reader that has seen enough (`| head`) while it searches. The engine's run is
// timed inside the pipeline (the input goes on for a minute, so a hang shows); its process group
// is ended after.
const SHELL: [string, string, string, string][] = [
  ['UCI, the issue\'s line (| true)', 'uci', `sleep .5; printf 'uci\\nisready\\nposition startpos\\ngo movetime 1000\\n'`, 'true'],
  ['xboard, the issue\'s line (| true)', 'xboard', `sleep .5; printf 'xboard\\nprotover 2\\nnew\\nlevel 0 1 0\\ngo\\n'; sleep 1; printf 'quit\\n'`, 'true'],
  ['UCI, | head during go infinite', 'uci', `printf 'uci\\nposition startpos\\ngo infinite\\n'`, 'head -n 12'],
  ['xboard, | head during a search', 'xboard', `printf 'xboard\\nprotover 2\\nnew\\nst 30\\ngo\\n'`, 'head -n 3'],
];
const PIPE_BOUND_MS = 4000;                             // from the engine's start: its start-up counts

/** The engine's run in the shell pipeline: its exit code and ms, as the pipeline writes them. */
function inPipeline(t: TestContext, protocol: string, input: string, reader: string): Promise<{ code: number, ms: number } | undefined> {
  const [node, argv] = portCommand([`--${protocol}`]);
  const engine = [node, ...argv].map((a) => `'${a}'`).join(' ');
  const script = `(${input}; sleep 60) | { t0=$(date +%s%N); ${engine}; echo "ran $? $(( ($(date +%s%N) - t0) / 1000000 ))" >&2; } | ${reader}`;
  const sh = spawn('sh', ['-c', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  t.after(() => killGroup(sh));
  let err = '';
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), HANG_MS);
    sh.stderr.on('data', (d: Buffer) => {
      err += d;
      const m = /^ran (\d+) (\d+)$/m.exec(err);
      if (!m) return;
      clearTimeout(timer);
      resolve({ code: +m[1], ms: +m[2] });
    });
  });
}

describe('never hung: quit, the end of input or a closed stdout, in every state, both protocols, a socket and a shell pipe', PARALLEL, () => {
  endings('uci');
  endings('xboard');
  for (const [what, protocol, input, reader] of SHELL) {
    test(`${what}: it ends`, async (t) => {
      const r = await inPipeline(t, protocol, input, reader);
      t.diagnostic(`${what}: ${r ? `exit ${r.code} after ${r.ms} ms from its start` : `still running after ${HANG_MS} ms`}`);
      assert.ok(r, `${what}: still running ${HANG_MS} ms after its start (hung: an EPIPE ignored?)`);
      assert.ok(r.ms < PIPE_BOUND_MS, `${what}: ran ${r.ms} ms (at most ${PIPE_BOUND_MS})`);
      assert.equal(r.code, 0, `${what}: exit code`);
    });
  }
});
