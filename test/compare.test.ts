// `npm run compare`: identical (how much, then the calls), different (located by line, as
// `firstDifference` reports it), and unable to compare (no C: exit 2); `--nodes` as micromax takes
// it; a `dist/` older than `micromax.ts` is never run; no stack trace into a closed pipe; no rate
// for a small compare. The program under test as the tools run it (compare, calls, conformance):
// only the options given passed on; one that hangs stopped at `--timeout` (exit 2, nothing left
// running; `conformance` says so on the script's line and goes on); one that prints for ever sized
// alike by compare and conformance; one that crashes a difference (exit 1: how it died, its
// stderr's first lines, how far it was the C's; conformance names the script and runs the rest);
// one that cannot start exit 2. `conformance` shows a byte that differs against the stored output,
// with no C; `conformance --calls` on the port and the C, a stream stored in part checked to its
// end. SIGTERM, SIGINT and SIGHUP end all a tool runs. A stream file cut mid-line, or made for
// another node limit or input, or not saying, is refused in one line; an empty input is `identical:
// 0 calls`; typed moves compare their checks; no message says `undefined`; options given without
// `--` are named; `MICROMAX_C` is read from where the command was typed; every failure is one line.
//
// time: 95 s

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cSource, nodeValue, whyNoC } from './support/c-oracle.ts';
import { HeadAndTail, ROOT, atMost, cannotStart, crashOf, firstDifference, portCommand, run, stderrGist, stderrLines, toolArgv } from './support/run.ts';

const noC = whyNoC() ? `skipped: ${whyNoC()}` : false;
const gate = atMost(2);

const compare = (args: string[], env: NodeJS.ProcessEnv, input = ''): ReturnType<typeof spawnSync> => tool('compare', args, env, input);
const tool = (name: string, args: string[], env: NodeJS.ProcessEnv = process.env, input = ''): ReturnType<typeof spawnSync> =>
  spawnSync(process.execPath, toolArgv(name, args),
    { cwd: ROOT, env, input, encoding: 'utf8', timeout: 120_000 });

/** The processes of a process group that still run (a zombie has ended: it only waits to be reaped). */
function aliveIn(group: number): number[] {
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try { stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { continue; }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');     // state, ppid, pgrp, ...
    if (Number(f[2]) === group && f[0] !== 'Z') pids.push(Number(pid));
  }
  return pids;
}
/** Every process started, directly or not, by `root`. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const found: number[] = [];
  for (let more = [root]; more.length;) {
    more = [...parent].filter(([, pp]) => more.includes(pp)).map(([pid]) => pid);
    found.push(...more);
  }
  return found;
}
/** A process's command line, as its words ([] once it has ended). */
function argvOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}
const commandOf = (pid: number): string => argvOf(pid).join(' ').trim();
/** Is this process a C the tools built (plain or instrumented: both are cached in micromax-c-cache)? */
const isTheC = (pid: number): boolean => /\/micromax-c-cache\/micromax-[0-9a-f]+$/.test(argvOf(pid)[0] ?? '');
/** The named pipe a process writes its call stream to (`--calls PATH`), if it has one. */
function callsPipe(pid: number): string[] {
  const argv = argvOf(pid);
  return argv.includes('--calls') ? [argv[argv.indexOf('--calls') + 1]] : [];
}
/** Is this process still running (not ended, not a zombie)? */
function running(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}
/** A scratch folder, removed after the test. */
function scratch(t: { after: (f: () => void) => void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-compare-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
/** A program under test, as a shell command line: `body` run by sh, the tools' options its $@. */
const sh = (body: string): string => `sh -c '${body}' sh`;

test('without MICROMAX_C: exit 2 and says why', () => {
  const env = { ...process.env };
  delete env.MICROMAX_C;
  const r = compare(['test/fixtures/inputs/char-wrap.in'], env);
  assert.equal(r.status, 2);
  assert.match(String(r.stderr), /MICROMAX_C is not set/);
});

test('identical outputs: exit 0, how much was compared, then the calls', { skip: whyNoC() ? `skipped: ${whyNoC()}` : false }, () => {
  const r = compare(['--nodes', '1000', 'test/fixtures/inputs/char-wrap.in'], process.env);
  assert.equal(r.status, 0, String(r.stdout) + String(r.stderr));
  assert.equal(String(r.stdout), 'identical (432 bytes: 3 boards, the answers to 2 input lines)\n' +
    'and call by call: identical (2097 calls)\n');
  const piped = compare(['--nodes', '1000', '--trace', '--bytes'], process.env, 'e2e4\n\n');
  assert.equal(piped.status, 0);
  assert.match(String(piped.stdout), /^identical \(\d+ bytes: 3 boards, 4 trace lines, the answers to 2 input lines\)\n/);
  assert.match(String(piped.stdout), /\nonly the output, with each root pass's line, was compared: --calls adds every call of D\(\)\n$/);
  assert.doesNotMatch(String(piped.stdout), /--trace adds/, 'no option suggested that was given');
  const plain = compare(['--nodes', '1000', '--bytes'], process.env, 'e2e4\n\n');
  assert.match(String(plain.stdout), /\nonly the output was compared: --trace adds [^\n]*, --calls every call of D\(\)\n$/);
  // a rate only where the calls take the time, not the programs' start: none for 2,097 calls
  const small = compare(['--calls', '--nodes', '1000', 'test/fixtures/inputs/char-wrap.in'], process.env);
  assert.equal(small.status, 0, String(small.stderr));
  assert.match(String(small.stderr), /^compared in [\d.]+ s\n$/);
});

test('a difference is located by line, with both sides shown', () => {
  const a = Buffer.from(' r n b \n . . . \n * * * \n'), b = Buffer.from(' r n b \n . . * \n * * * \n');
  const d = firstDifference(a, b, 1) ?? '';
  assert.match(d, /first difference at byte 13, line 2/);
  assert.match(d, /--- C:\n[\s\S]*--- port:\n/);
  assert.ok(d.includes(' . . . ') && d.includes(' . . * '), d);
  assert.equal(firstDifference(a, Buffer.from(a)), undefined);
});

test('a crash\'s stderr as a report quotes it: its first lines, the one naming the error, its last, however long (a Java ' +
  'trace of 3,000 lines names its error first, a Python traceback last, Node after the source line, Rust over two lines)', () => {
  const java = new HeadAndTail();
  java.add(Buffer.from('Exception in thread "main" java.lang.StackOverflowError\n'));
  for (let k = 0; k < 3000; k++) java.add(Buffer.from(`\tat MicroMax.D(MicroMax.java:${k})\n`));
  java.add(Buffer.from('\tat MicroMax.main(MicroMax.java:266)\n'));
  assert.deepEqual(stderrLines(java.text()), ['Exception in thread "main" java.lang.StackOverflowError', '\tat MicroMax.D(MicroMax.java:0)',
    '\tat MicroMax.D(MicroMax.java:1)', '…', '\tat MicroMax.main(MicroMax.java:266)']);
  assert.equal(stderrGist(java.text()), 'Exception in thread "main" java.lang.StackOverflowError');
  assert.ok(java.text().length < 20_000, 'it keeps 16 kB at most');
  const python = 'Traceback (most recent call last):\n  File "port.py", line 9, in D\n    x = b[y]\nIndexError: list index out of range\n';
  assert.equal(stderrGist(python), 'IndexError: list index out of range');
  const rust = 'thread \'main\' panicked at src/main.rs:9:5:\nindex out of bounds: the len is 129 but the index is 129\n' +
    'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n';
  assert.equal(stderrGist(rust), 'thread \'main\' panicked at src/main.rs:9:5: index out of bounds: the len is 129 but the index is 129');
  const node = '/port/mmx.js:40\n    t = b[H];\n        ^\n\nRangeError: index 129 out of range\n    at D (/port/mmx.js:40:9)\n' +
    '    at D (/port/mmx.js:77:9)\n    at main (/port/mmx.js:120:3)\n';
  assert.equal(stderrGist(node), 'RangeError: index 129 out of range');
  assert.deepEqual(stderrLines(node), ['/port/mmx.js:40', '    t = b[H];', '        ^', '…', 'RangeError: index 129 out of range', '…',
    '    at main (/port/mmx.js:120:3)']);
  assert.equal(stderrGist(''), undefined);
  assert.equal(crashOf({ stdout: Buffer.alloc(0), stderr: '', code: 0, signal: null }), undefined);
  assert.equal(crashOf({ stdout: Buffer.alloc(0), stderr: '', code: 134, signal: null }), 'exit 134, a shell\'s way of saying signal SIGABRT');
  assert.equal(crashOf({ stdout: Buffer.alloc(0), stderr: '', code: null, signal: 'SIGKILL', timedOut: true }), undefined, 'stopped by --timeout');
  assert.equal(cannotStart({ stdout: Buffer.alloc(0), stderr: 'sh: 1: mmx: not found\n', code: 127, signal: null }), 'not found (exit 127): sh: 1: mmx: not found');
  assert.equal(cannotStart({ stdout: Buffer.alloc(0), stderr: 'Error\n', code: 1, signal: null }), undefined, 'it started: a crash');
});

test('--nodes takes what micromax takes (1e4 is 10000), and refuses what it refuses', async () => {
  const values = ['1e4', '10000', ' 100 ', '1e+3', '1000.0', '2147483647', '0', '-5', '1.5', 'x', '2147483648', '1e3x', ''];
  const [cmd, argv] = portCommand();
  const taken = await Promise.all(values.map((v) => gate(() => run(cmd, [...argv, `--nodes=${v}`], ''))));
  values.forEach((v, k) => {
    assert.ok(taken[k].code === 0 || taken[k].code === 2, `micromax --nodes ${v}: exit ${taken[k].code}`);
    assert.equal(nodeValue(v) !== undefined, taken[k].code === 0, `--nodes '${v}': micromax exits ${taken[k].code}`);
  });
  assert.equal(nodeValue('1e4'), 10000);
  const r = compare(['--nodes', '1.5', '--bytes'], process.env);
  assert.equal(r.status, 2);
  assert.equal(String(r.stderr), "compare: --nodes wants a whole number from 1 to 2147483647, not '1.5' (see --help)\n");
});

test('bad arguments: exit 2, one line, no stack', () => {
  for (const [args, why] of [
    [['--stream', 'x.calls'], /--stream is for --calls/],
    [['--calls', '--trace'], /--calls compares the passes too/],
    [['--calls', '--bytes'], /give --calls or --bytes, not both/],
    [['--calls', '--stream', 'x', '--program', 'y'], /give --program or --stream, not both/],
    [['--program', ' '], /--program wants a command/],
    [['--moves', 'e2e4', 'file.in'], /give --moves or an input file, not both/],
    [['--fast'], /unknown option '--fast'/],
    [['a.in', 'b.in'], /takes at most one argument, not 2/],
  ] as const) {
    const r = compare([...args], process.env);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(String(r.stderr), new RegExp(`^compare: ${why.source}[^\\n]*\\n$`), args.join(' '));
  }
});

test('the port is compiled from micromax.ts as it is: a dist/ newer than it is never run', { skip: noC, timeout: 120_000 },
  () => {
    // a copy of the project whose dist/micromax.js is a stale program, newer than micromax.ts
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-stale-'));
    for (const f of ['micromax.ts', 'package.json', 'tsconfig.json']) fs.copyFileSync(path.join(ROOT, f), path.join(copy, f));
    fs.cpSync(path.join(ROOT, 'test'), path.join(copy, 'test'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    fs.mkdirSync(path.join(copy, 'dist'));
    fs.writeFileSync(path.join(copy, 'dist', 'micromax.js'), 'process.stdout.write("a stale build\\n");\n');
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(copy, 'test', 'tools', 'compare.ts'),
        '--nodes', '1000', '--bytes', '--moves', 'e2e4'], { cwd: copy, env: { ...process.env, MICROMAX_C: cSource() }, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^identical \(432 bytes[^\n]*\nafter the 1 move both play [a-h][1-8][a-h][1-8]\n/);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

test('into a reader that has gone (| true): no EPIPE, no stack; the tools end', { skip: noC, timeout: 120_000 }, () => {
  // the command lines the npm scripts run (node --import tsx), not the tests' build: a reader's pipe
  const tsx = `${JSON.stringify(process.execPath)} --import tsx`;
  for (const line of [`${tsx} test/tools/compare.ts --calls --nodes 3000 --moves e2e4`,
    `${tsx} test/tools/compare.ts --nodes 1000 --moves e2e4`, `${tsx} test/tools/calls.ts --nodes 3000 --moves e2e4`,
    `${tsx} test/tools/conformance.ts char-wrap stale-buffer`]) {
    const s = spawnSync('bash', ['-c', `set -o pipefail; ${line} 2>"$ERR" | true; echo "exit \${PIPESTATUS[0]}"; cat "$ERR"`],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ERR: path.join(os.tmpdir(), `micromax-epipe-${process.pid}`) },
        timeout: 60_000 });
    assert.match(s.stdout, /^exit [01]\n/, `${line}\n${s.stdout}`);
    assert.doesNotMatch(s.stdout, /EPIPE|\n\s+at |Error/, `${line}\n${s.stdout}`);
  }
});

test('only the options given are passed on to the program, --nodes in decimal', { skip: noC, timeout: 60_000 }, (t) => {
  const log = path.join(scratch(t), 'args');
  const program = sh(`echo "[$*]" >> ${log}`);
  compare(['--program', program, '--bytes'], process.env);                  // (no input: one board from the C)
  compare(['--program', program, '--nodes', '1e4', '--trace'], process.env);
  compare(['--calls', '--program', program, '--nodes', ' 2000 '], process.env);
  const seen = fs.readFileSync(log, 'utf8').split('\n');
  assert.equal(seen[0], '[]', 'without --nodes the program gets no --nodes: its own default');
  assert.equal(seen[1], '[--nodes 10000 --trace]');
  assert.match(seen[2], /^\[--nodes 2000 --calls \/\S+\]$/);
});

test('a program that does not finish cannot be compared: exit 2, one line, at --timeout; nothing left running',
  { skip: noC, timeout: 120_000 }, async (t) => {
    const pids = path.join(scratch(t), 'pids');
    const hangs = sh(`echo $$ >> ${pids}; cat > /dev/null; sleep 100`);      // reads its input, then never ends
    const prints = sh(`echo $$ >> ${pids}; echo " r n b q k b n r "; sleep 100`);
    // one that hangs on a line with a B in it (char-wrap's eBeD), and ends at once on others (stale-buffer)
    const hangsOnB = sh(`echo $$ >> ${pids}; if grep -q B; then sleep 100; fi`);
    const runs = [['compare', ['--timeout', '1', '--program', hangs, '--moves', 'e2e4', '--nodes', '1000']],
      ['compare', ['--timeout', '1.5', '--calls', '--program', prints, '--moves', 'e2e4', '--nodes', '1000']],
      ['conformance', ['--timeout', '1', '--program', hangs, 'char-wrap', 'stale-buffer']],
      ['conformance', ['--timeout', '1', '--calls', '--program', hangsOnB, 'char-wrap', 'stale-buffer']]] as const;
    const t0 = Date.now();
    const done = await Promise.all(runs.map(([name, args]) => gate(() => run(process.execPath, toolArgv(name, [...args]), '', 60_000))));
    assert.ok(Date.now() - t0 < 60_000, 'the limit is kept');
    done.slice(0, 2).forEach((r, k) => {
      const [name, args] = runs[k];
      assert.equal(r.code, 2, `${name} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^${name}: the program \\(sh -c [^\\n]*\\) did not finish in ${args[1]} s ` +
        '\\(--timeout S gives it longer\\)\\n$'), `${name} ${args.join(' ')}`);
    });
    // conformance: a script that does not finish is said so, on its line, and the run goes on to the next
    const [both, one] = [done[2], done[3]].map((r) => ({ ...r, stdout: r.stdout.toString() }));
    assert.equal(both.code, 2, both.stdout + both.stderr);
    assert.equal(both.stderr, '');
    assert.match(both.stdout, /\nTIME {3}char-wrap {14}the program \(sh -c [^\n]*\) did not finish in 1 s \(--timeout S gives it longer\)\nTIME {3}stale-buffer /);
    assert.match(both.stdout, /\n2 scripts did not finish in 1 s: char-wrap, stale-buffer \(--timeout S gives each run longer; /);
    assert.equal(one.code, 1, one.stdout + one.stderr);
    assert.match(one.stdout, /\nTIME {3}char-wrap [^\n]*\nDIFFER stale-buffer +bytes differ: first difference at byte 0, [^\n]*; calls differ: the program wrote no call stream to --calls PATH, not even its header line \(test\/PORTING\.md, section 4\)  [\d.]+ s\n1 of 1 scripts differ: stale-buffer [^\n]*\n1 script did not finish in 1 s: char-wrap /);
    const groups = fs.readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.ok(groups.length >= 3, 'every program started');
    for (const g of groups) assert.deepEqual(aliveIn(g), [], `the program ${g} and all it started have ended`);
    const bad = tool('compare', ['--timeout', '0', '--bytes']);
    assert.equal(bad.status, 2);
    assert.equal(String(bad.stderr), "compare: --timeout wants a number above 0, not '0' (see --help)\n");
  });

test('stopped by SIGTERM, SIGINT or SIGHUP, a tool ends the program under test (its whole group), the C, and its pipes',
  { skip: noC, timeout: 120_000 }, async (t) => {
    const dir = scratch(t);
    /** Runs a tool (with the program under test as `{program}` in its arguments, if any), signals it
     *  once what it runs is under way, and checks that all of it has ended. */
    const one = async (signal: NodeJS.Signals, name: string, toolArgs: string[]): Promise<void> => {
      const note = path.join(dir, `${signal}-${name}`);
      const program = sh(`echo $$ "$@" > ${note}.part; mv ${note}.part ${note}; cat > /dev/null; sleep 100`);
      // at the default 1e7 nodes the C thinks for 20 s: it is running when the signal comes
      const child = spawn(process.execPath, toolArgv(name,
        toolArgs.map((a) => a === '{program}' ? program : a)), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.resume();
      let err = '';
      child.stderr.on('data', (d: Buffer) => { err += d; });
      const ended = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, sig) => done(sig)));
      t.after(() => { try { child.kill('SIGKILL'); } catch { /* ended */ } });
      const withProgram = toolArgs.includes('{program}');
      const want = name === 'calls' ? 1 : toolArgs.includes('--calls') ? 2 : 0;     // (the C's; the program's)
      const runsC = name !== 'conformance';                                 // (conformance reads the C's transcripts)
      // Waits for what the check is about, not for a fixed time (the tool may first start tsx's
      // esbuild or gcc): the program under test started, the C's own process running, and every
      // named pipe (--calls PATH) in the command line of the process that writes it.
      let started: number[] = [], pipes: string[] = [];
      const deadline = Date.now() + 90_000;
      for (;;) {
        started = descendants(child.pid!);
        pipes = started.flatMap(callsPipe);
        const ready = (!withProgram || fs.existsSync(note)) && (!runsC || started.some(isTheC)) && new Set(pipes).size === want;
        if (ready || Date.now() > deadline || child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      if (withProgram) assert.ok(fs.existsSync(note), `${name}: the program under test started: ${err}`);
      if (runsC) assert.ok(started.some(isTheC), `${name}: the C is running (${started.map(commandOf).join('; ')}): ${err}`);
      const group = withProgram ? Number(fs.readFileSync(note, 'utf8').split(' ')[0]) : 0;
      child.kill(signal);
      assert.equal(await ended, signal, `${name} ends by ${signal}: ${err}`);
      for (let k = 0; k < 40 && started.some(running); k++) await new Promise((r) => setTimeout(r, 50)); // (a kill lands)
      for (const pid of started) assert.equal(running(pid), false, `${name}, ${signal}: process ${pid} has ended`);
      if (withProgram) assert.deepEqual(aliveIn(group), [], `${name}, ${signal}: the program's group has ended`);
      assert.equal(new Set(pipes).size, want, `${name}: the named pipes seen (${pipes.join(' ')})`);
      for (const pipe of pipes) assert.equal(fs.existsSync(path.dirname(pipe)), false, `${name}, ${signal}: ${pipe} is removed`);
    };
    await Promise.all([one('SIGTERM', 'compare', ['--calls', '--program', '{program}', '--moves', 'e2e4']),
      one('SIGINT', 'compare', ['--program', '{program}', '--moves', 'e2e4']),
      one('SIGHUP', 'compare', ['--program', '{program}', '--moves', 'e2e4']),
      one('SIGTERM', 'conformance', ['--program', '{program}', 'char-wrap']),
      one('SIGTERM', 'calls', ['--moves', 'e2e4'])]);
  });

test('a program that prints for ever: both tools say "more than N bytes (stopped reading)", the same N', { skip: noC, timeout: 60_000 },
  () => {
    const endless = sh('yes " r n b q k b n r "');
    const c = compare(['--program', endless, '--nodes', '1000', 'test/fixtures/inputs/char-wrap.in'], process.env);
    const conf = tool('conformance', ['--program', endless, 'char-wrap']);
    assert.equal(c.status, 1, String(c.stderr));
    assert.equal(conf.status, 1, String(conf.stderr));
    const said = (out: string): string | undefined => /\(C 432 bytes, (?:other|program) (more than \d+ bytes \(stopped reading\))\)/.exec(out)?.[1];
    assert.equal(said(String(c.stdout)), `more than ${432 + 16384} bytes (stopped reading)`, String(c.stdout));
    assert.equal(said(String(conf.stdout)), said(String(c.stdout)), String(conf.stdout));
    assert.match(String(c.stdout), /^\(it was stopped after printing 16 kB more than the C/, 'no "exit codes differ": the tools stopped it');
    // A C slower than the program's first 256 MB (1e5 nodes): the size said is still the C's and the margin.
    const slow = compare(['--program', endless, '--nodes', '1e5', 'test/fixtures/inputs/char-wrap.in'], process.env);
    assert.equal(said(String(slow.stdout)), said(String(c.stdout)), String(slow.stdout));
  });

test('a program that crashes is a difference, exit 1: how it died, its stderr\'s first lines, how far it was the C\'s; one that ' +
  'never starts cannot be compared, exit 2', { skip: noC, timeout: 120_000 }, (t) => {
  const dies = sh('echo " r n b q k b n r "; printf "Exception in thread main: boom\\n\\tat D(x:1)\\n" >&2; kill -SEGV $$');
  const [calls, bytes] = [compare(['--calls', '--program', dies, '--nodes', '1000', '--moves', 'e2e4'], process.env),
    compare(['--program', dies, '--nodes', '1000', '--moves', 'e2e4'], process.env)];
  for (const r of [calls, bytes]) {
    assert.equal(r.status, 1, String(r.stdout) + String(r.stderr));
    assert.match(String(r.stdout), /^the program crashed: (signal SIGSEGV|exit 139, a shell's way of saying signal SIGSEGV), where the C exits 0\n/);
    assert.match(String(r.stdout), /\n {2}its stderr:\n {4}Exception in thread main: boom\n {4}\tat D\(x:1\)\n/);
  }
  assert.match(String(calls.stdout), /\n {2}it printed 18 bytes\n[^]*\n {2}it wrote no call stream, not even its header line\n$/);
  assert.match(String(bytes.stdout), /\n {2}its output was the C's, 18 of 432 bytes: it stopped in the first board, before any input is read\n/);
  assert.match(String(bytes.stdout), /\nfirst difference at byte 18, line 2 \(C 432 bytes, other 18 bytes\)\n/);
  // exit 1 with nothing printed (a class that cannot be loaded): a crash too, exit 1; exit 127 (no such command): exit 2
  const [silent, missing] = [compare(['--program', sh('echo "Error: Could not find or load main class MicroMax" >&2; exit 1'),
    '--nodes', '1000', '--moves', 'e2e4'], process.env), compare(['--program', sh('exit 127'), '--nodes', '1000', '--moves', 'e2e4'], process.env)];
  assert.equal(silent.status, 1, String(silent.stderr));
  assert.match(String(silent.stdout), /^the program crashed: exit 1, where the C exits 0\n {2}it printed nothing, where the C prints 432 bytes \(a program whose stdout is buffered loses what it printed when it crashes: flush it/);
  assert.equal(missing.status, 2);
  assert.match(String(missing.stderr), /^compare: the program cannot run: [^\n]*: not found \(exit 127\)\n$/);
  // conformance: the script that crashes is named, said as a crash, and the rest run
  const bin = JSON.stringify(String(tool('calls', ['--binary']).stdout).trim()), dir = scratch(t);
  const onB = sh(`f=$(mktemp -p ${dir}); cat > $f; if grep -q B $f; then printf "thread main panicked at src/main.rs:9:5:\\n` +
    `index out of bounds\\n" >&2; exit 101; fi; exec ${bin} "$@" < $f`);       // (two scripts run at once: a file each)
  const conf = tool('conformance', ['--calls', '--program', onB, 'stale-buffer', 'char-wrap', 'eof-after-3']);
  const out = String(conf.stdout);
  assert.equal(conf.status, 1, out + String(conf.stderr));
  assert.match(out, /\nCRASH  char-wrap {14}crashed \(exit 101\): thread main panicked at src\/main\.rs:9:5: index out of bounds; its bytes were the C's for 0 of 432 \(it printed nothing\); its calls the C's for 0 of 2,097  [\d.]+ s\nok {5}stale-buffer [^\n]*\nok {5}eof-after-3 /);
  assert.match(out, /\n1 of 3 scripts differ: char-wrap \(all crashed\) \([^\n]*\nin char-wrap, the program crashed: exit 101, where the C exits 0\n[^]*\n {2}its stderr:\n {4}thread main panicked at src\/main\.rs:9:5:\n {4}index out of bounds\n/);
  assert.equal(String(conf.stderr), '');
});

test('a stream file cut mid-line: named, exit 2; a difference before the cut is still found', { skip: noC, timeout: 60_000 }, (t) => {
  const dir = scratch(t), args = ['--nodes', '1000', '--moves', 'e2e4'];
  const c = tool('calls', [...args, '--out', path.join(dir, 'c.calls')]);
  assert.equal(c.status, 0, String(c.stderr));
  const whole = fs.readFileSync(path.join(dir, 'c.calls'), 'latin1');
  const at = whole.indexOf('\n', 20_000) - 5, lines = whole.slice(0, at).split('\n').length;
  fs.writeFileSync(path.join(dir, 'cut.calls'), whole.slice(0, at), 'latin1');
  const cut = compare(['--calls', '--stream', path.join(dir, 'cut.calls'), ...args], process.env);
  assert.equal(cut.status, 2, String(cut.stdout));
  assert.equal(String(cut.stderr), `compare: --stream: ${path.join(dir, 'cut.calls')} is cut short: its line ${lines} has no ` +
    `newline at the end (the program stopped while writing it?); the ${lines - 1} lines before it are the C's\n`);
  const early = whole.slice(0, at).split('\n');
  early[5] = early[5].replace(/ 8$/, ' 7');                              // (a call's probe counter, line 6)
  fs.writeFileSync(path.join(dir, 'early.calls'), early.join('\n'), 'latin1');
  const differs = compare(['--calls', '--stream', path.join(dir, 'early.calls'), ...args], process.env);
  assert.equal(differs.status, 1, String(differs.stderr));
  assert.match(String(differs.stdout), /^first difference: call 2 \(ply 1\), line 6 of each stream\n {2}differs: probe i \(C 8, other 7\)\n/);
});

test('conformance shows a byte that differs against the C\'s stored output, with no C: the lines around it, the input line',
  { skip: noC, timeout: 120_000 }, () => {
    const bin = JSON.stringify(String(tool('calls', ['--binary']).stdout).trim());
    const env = { ...process.env };
    delete env.MICROMAX_C;                                     // (no C needed)
    // the C's own calls, and its output with one letter changed where the e2 pawn has moved
    const r = tool('conformance', ['--calls', '--program', sh(`${bin} "$@" | sed "s/^ \\* \\* \\* \\* \\. /  * * * . /"`), 'char-wrap'], env);
    const out = String(r.stdout);
    assert.equal(r.status, 1, out + String(r.stderr));
    assert.match(out, /\nDIFFER char-wrap {14}bytes differ: first difference at byte 253, line 15 \(C 432 bytes, program 430 bytes\), in the answer to input line 1 "eBeD", after no moves; calls ok \(2,097\)  /);
    assert.match(out, /\nthe first byte that differs in char-wrap, against the C's output stored in test\/fixtures\/golden\/char-wrap\.out:\n {2}first difference at byte 253, line 15 \(C 432 bytes, program 430 bytes\)\n {2}--- C:\n(.*\n){5} {2}--- program:\n(.*\n){5} {2}in the answer to input line 1 "eBeD", after no moves\n$/);
    assert.doesNotMatch(out, /MICROMAX_C|beside the C/);
  });

test('a failure is one line on stderr, exit 2: an --out that cannot be written, a MICROMAX_C that is no C', { skip: noC,
  timeout: 60_000 }, () => {
  const out = tool('calls', ['--nodes', '100', '--moves', 'e2e4', '--out', '/nonexistent/dir/x']);
  assert.equal(out.status, 2);
  assert.match(String(out.stderr), /^calls: cannot write \/nonexistent\/dir\/x: ENOENT[^\n]*\n$/);
  const full = tool('calls', ['--nodes', '100', '--moves', 'e2e4', '--out', '/dev/full']);
  assert.equal(full.status, 2);
  assert.match(String(full.stderr), /^calls: cannot write \/dev\/full: ENOSPC[^\n]*\n$/);
  for (const mode of [['--bytes'], ['--calls'], []]) {
    const r = compare([...mode, '--moves', 'e2e4'], { ...process.env, MICROMAX_C: '/etc/passwd' });
    assert.equal(r.status, 2, mode.join(' '));
    assert.match(String(r.stderr), /^compare: [^\n]+\n$/, `${mode.join(' ')}: one line`);
  }
});

// ---- a stream's settings, the messages, the paths (issue 33) --------------------------------------------

test('--stream refuses a stream made for another node limit, another input, or that does not say, in one line; a live ' +
  'program whose header names another node limit differs at line 1', { skip: noC, timeout: 120_000 }, (t) => {
  const dir = scratch(t), args = ['--nodes', '1000', '--moves', 'e2e4'], file = (n: string): string => path.join(dir, n);
  const c = tool('calls', [...args, '--out', file('c.calls')]);
  assert.equal(c.status, 0, String(c.stderr));
  const lines = fs.readFileSync(file('c.calls'), 'latin1').split('\n');
  fs.writeFileSync(file('bare.calls'), lines.slice(1).join('\n'));
  fs.writeFileSync(file('own.calls'), ['% micro-Max 3.2 calls: nodes 1000', ...lines.slice(1)].join('\n'));
  const stream = (name: string, more: string[] = args): ReturnType<typeof spawnSync> =>
    compare(['--calls', '--stream', file(name), ...more], process.env);
  const [same, nodes, input, bare, own] = [stream('c.calls'), stream('c.calls', ['--nodes', '2000', '--moves', 'e2e4']),
    stream('c.calls', ['--nodes', '1000', '--moves', 'd2d4']), stream('bare.calls'), stream('own.calls')];
  assert.equal(same.status, 0, String(same.stdout) + String(same.stderr));
  assert.equal(String(same.stderr).replace(/compared in [^\n]*\n/, ''), '');
  assert.equal(nodes.status, 2, String(nodes.stdout));
  assert.equal(String(nodes.stderr), `compare: --stream: ${file('c.calls')} was made at --nodes 1000, and this compare runs the C ` +
    'at --nodes 2000: give --nodes 1000, or make the stream again\n');
  assert.equal(input.status, 2, String(input.stdout));
  assert.match(String(input.stderr), /^compare: --stream: \S+ was made for another input \(its header's sha256 [0-9a-f]{12}…, this input's [0-9a-f]{12}…\): give the input it was made for\n$/);
  assert.equal(bare.status, 2, String(bare.stdout));
  assert.match(String(bare.stderr), /^compare: --stream: \S+ does not say which --nodes it was made for: its first line is not the header '% micro-Max 3\.2 calls: nodes N' \(test\/PORTING\.md, section 4\)\n$/);
  assert.equal(own.status, 0, String(own.stdout) + String(own.stderr));
  assert.match(String(own.stdout), /^identical: \d+ calls\n$/);
  assert.match(String(own.stderr), /\ncompare: note: \S+own\.calls's header does not name its input, so it could not be checked/);
  // a program that ignores --nodes: its stream's header says so, at line 1
  const bin = JSON.stringify(String(tool('calls', ['--binary']).stdout).trim());
  const deaf = compare(['--calls', '--program', sh(`exec ${bin} --nodes 2000 --calls "$4"`), ...args], process.env);
  assert.equal(deaf.status, 1, String(deaf.stdout) + String(deaf.stderr));
  assert.match(String(deaf.stdout), /^first difference: the header, line 1 of each stream \(the settings each stream was made for\)\n {2}differs: nodes \(C 1000, other 2000\): made at another node limit\n {2}C: {6}a header: nodes 1000, input not said\n {2}other: {2}a header: nodes 2000, input not said\n$/);
});

test('an input with no engine move compares its move checks, an empty one is "identical: 0 calls"; no message says undefined',
  { skip: noC, timeout: 120_000 }, () => {
    const bin = String(tool('calls', ['--binary']).stdout).trim();
    const runs = [compare(['--calls', '--nodes', '1000'], process.env, ''), compare(['--calls', '--program', bin], process.env, ''),
      compare(['--calls', '--nodes', '1000'], process.env, 'e2e4\ne7e5\n'), compare(['--nodes', '1000'], process.env, ''),
      compare(['--calls', '--program', bin, '--nodes', '1000'], process.env, 'e2e4\ne7e5\n')];
    for (const r of runs) {
      assert.equal(r.status, 0, String(r.stdout) + String(r.stderr));
      assert.doesNotMatch(String(r.stdout) + String(r.stderr), /undefined/);
    }
    assert.equal(String(runs[0].stdout), 'identical: 0 calls\n');
    assert.equal(String(runs[1].stdout), 'identical: 0 calls\n');
    const checks = Number(/^identical: (\d+) calls\n$/.exec(String(runs[2].stdout))?.[1]);
    assert.ok(checks > 2, `the two legality checks make calls: ${runs[2].stdout}`);
    assert.equal(String(runs[3].stdout), 'identical (144 bytes: 1 board, no input line)\nand call by call: identical (0 calls)\n');
    assert.equal(String(runs[4].stdout), `identical: ${checks} calls\n`);
  });

test('options given to an npm script without `--` are explained: npm took them for itself', { timeout: 120_000 }, () => {
  const npm = (args: string[]): ReturnType<typeof spawnSync> => spawnSync('npm', ['run', '-s', ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  const [c, conf, calls] = [npm(['compare', '--calls', '--nodes', '1000', 'test/fixtures/inputs/char-wrap.in']),
    npm(['conformance', '--quick']), npm(['calls', '--port', '--moves', 'e2e4'])];
  assert.equal(c.status, 2, String(c.stdout));
  assert.equal(String(c.stderr), 'compare: options after `npm run compare` need `--` before them: npm took --calls, --nodes for ' +
    'itself (npm run compare -- --calls --nodes ...) (see --help)\n');
  assert.equal(conf.status, 2);
  assert.match(String(conf.stderr), /^conformance: options after `npm run conformance` need `--` before them: npm took --quick /);
  assert.equal(calls.status, 2);
  assert.match(String(calls.stderr), /^calls: options after `npm run calls` need `--` before them: npm took --port, --moves /);
  const right = npm(['conformance', '--', '--quick', '--list']);
  assert.equal(right.status, 0, String(right.stderr));
});

test('MICROMAX_C, like every path given to the tools, is read from where the command was typed', { skip: noC, timeout: 120_000 },
  () => {
    const here = path.join(ROOT, 'test', 'fixtures');
    const npm = (c: string): ReturnType<typeof spawnSync> => spawnSync('npm', ['run', '-s', 'compare', '--', '--bytes', '--nodes',
      '1000', 'inputs/char-wrap.in'], { cwd: here, encoding: 'utf8', env: { ...process.env, MICROMAX_C: c }, timeout: 60_000 });
    const from = npm(path.relative(here, path.resolve(process.env.MICROMAX_C!)));
    assert.equal(from.status, 0, String(from.stderr));
    assert.match(String(from.stdout), /^identical \(432 bytes/);
    const root = npm(path.relative(ROOT, path.resolve(process.env.MICROMAX_C!)));  // (from the project's root: not here)
    assert.equal(root.status, 2);
    assert.equal(String(root.stderr), `compare: MICROMAX_C names no file: ${path.relative(ROOT, path.resolve(process.env.MICROMAX_C!))} ` +
      `(read from ${here}, where the command was typed)\n`);
  });

test('conformance --calls: the port and the C, byte for byte and call by call, a line a script; a stream stored in part is ' +
  'checked to its stored end', { skip: noC, timeout: 180_000 }, () => {
  const names = ['castle-kingside', 'checkmate-typed', 'mixed-1e4'];
  const bin = String(tool('calls', ['--binary']).stdout).trim();
  const env = { ...process.env };
  delete env.MICROMAX_C;                                     // (no C needed)
  for (const r of [tool('conformance', ['--calls', ...names], env), tool('conformance', ['--calls', '--program', bin, ...names], env)]) {
    const out = String(r.stdout);
    assert.equal(r.status, 0, out + String(r.stderr));
    assert.match(out, /\nok {5}castle-kingside {8}bytes ok \(1440\); calls ok \(7,566\)  [\d.]+ s\nok {5}checkmate-typed {8}bytes ok \(1290\); calls ok \(203\)  [\d.]+ s\n/);
    assert.match(out, /\nok {5}mixed-1e4 {14}bytes ok \(23172\); calls ok \(the first 200,000 of 2,267,886\)  [\d.]+ s\n/);
    assert.match(out, /\nall 3 scripts identical to the C, byte for byte \(25,902 bytes\) and call by call \(207,769 calls: all of 2 scripts, the first ones of 1\) \(/);
  }
  const list = tool('conformance', ['--list', '--quick', 'default-trace']);
  assert.equal(list.status, 2);
  assert.equal(String(list.stderr), 'conformance: no script left to run (see --help)\n');
});

test('a script with no stored stream: --list says it is checked byte for byte only, and why; --calls says so on its line',
  { skip: noC, timeout: 120_000 }, (t) => {
    // a copy of the project whose fixtures have no stream for char-wrap (a script added since they were made)
    const copy = scratch(t);
    for (const f of ['micromax.ts', 'package.json', 'tsconfig.json']) fs.copyFileSync(path.join(ROOT, f), path.join(copy, f));
    fs.cpSync(path.join(ROOT, 'test'), path.join(copy, 'test'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    const list = path.join(copy, 'test', 'fixtures', 'calls', 'streams.tsv');
    fs.writeFileSync(list, fs.readFileSync(list, 'utf8').split('\n').filter((l) => !l.startsWith('char-wrap\t')).join('\n'));
    fs.rmSync(path.join(copy, 'test', 'fixtures', 'calls', 'char-wrap.calls.br'));
    const bin = String(tool('calls', ['--binary']).stdout).trim();
    const run_ = (args: string[]): ReturnType<typeof spawnSync> => spawnSync(process.execPath, ['--import', 'tsx',
      path.join(copy, 'test', 'tools', 'conformance.ts'), ...args], { cwd: copy, encoding: 'utf8', timeout: 60_000 });
    const [listed, checked] = [run_(['--list', 'char-wrap', 'stale-buffer']), run_(['--calls', '--program', bin, 'char-wrap', 'stale-buffer'])];
    assert.equal(listed.status, 0, String(listed.stderr));
    assert.match(String(listed.stdout), /\nchar-wrap +always yes +432 +\? +\?  bytes only: no stream stored \(npm run calls -- --make char-wrap makes it from the reference C\)\nstale-buffer .*  all 2,119\n/);
    assert.equal(checked.status, 0, String(checked.stdout) + String(checked.stderr));
    assert.match(String(checked.stdout), /\nok {5}char-wrap {14}bytes ok \(432\); calls not checked: no stream stored  [\d.]+ s\nok {5}stale-buffer {11}bytes ok \(576\); calls ok \(2,119\)/);
    assert.match(String(checked.stdout), /\nall 2 scripts identical to the C, byte for byte \(1,008 bytes\) and call by call \(2,119 calls: all of 1 script, none of 1 \(no stream stored\)\) \(/);
  });
