// The layout of `test/`: every file says by its place what it is (at the root the tests, this
// README, the guides for porters, `PORTING.md`, and for engine testers, `GUI.md`, and the three
// folders), and test/README.md's table of every file is the one `npm run annotate` makes from each
// file's header (a row a file, a folder of fixtures counting as one). Every tool in `tools/` is run
// by one npm script, opens with its usage line (`// npm run <script> ...`) and, run with `--help`,
// prints that usage and exits 0 (the quick run runs this test: it tries parseArgs on each Node
// line). README.md stays for players; `allowScripts` names every dependency with an install script;
// `package-lock.json`'s entry for the project is `package.json`'s (so `npm install` leaves a clone
// clean).
//
// time: 8 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { CannotList, copyListed, filesUnder, FOLDERS, headerOf, listFiles, USAGE } from './support/every-file.ts';
import { ROOT, run, toolArgv } from './support/run.ts';

const TEST = path.join(ROOT, 'test');

/** The npm scripts, by name. */
function scripts(): Record<string, string> {
  const text = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
  return (JSON.parse(text) as { scripts: Record<string, string> }).scripts;
}

/** The one npm script that runs the file (relative to the project), or why there is none. */
function scriptOf(file: string, all: Record<string, string>): string {
  const names = Object.keys(all).filter((name) => all[name].split(/\s+/).includes(file));
  assert.equal(names.length, 1, `${file}: run by ${names.length} npm scripts (${names.join(', ')}), not one`);
  return names[0];
}


// Each file is described once, in its header; the table is made from the headers (npm run annotate).
test('test/README.md\'s table of every file is what npm run annotate makes from each file\'s header', () => {
  const { stale } = listFiles(ROOT);
  assert.ok(!stale, `${stale}\n(each row is made from its file's header: change the header, then run npm run annotate)`);
});

test('a header: a tool\'s usage lines skipped, the first paragraph the row, a time line anywhere', () => {
  const tool = ['// npm run x -- [--a]', '//                [--b]', 'MICROMAX_C=c npm run x -- --make', '//', '// Does a thing:', '// `a | b`.',
    '//', '// More.', '// time: seconds', '', 'code'].join('\n').replace('MICROMAX_C', '// MICROMAX_C');
  assert.deepEqual(headerOf(tool, '//'), { script: 'x', text: 'Does a thing: `a | b`.', time: 'seconds' });
  assert.deepEqual(headerOf('#!/bin/sh\n# One\n# two.\n#\n# time: 3 s\nx = 1', '#'), { script: undefined, text: 'One two.', time: '3 s' });
  assert.deepEqual(headerOf('import x;\n// not a header', '//'), { script: undefined, text: '', time: undefined });
});

test('npm run annotate -- --check names a stale row (exit 1), npm run annotate writes it; a file it cannot describe is named', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-every-file-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const f of ['micromax.ts', 'annotated/micromax.ts.md', 'annotated/README.md']) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
  }
  copyListed(ROOT, dir);
  const tool = (...args: string[]) => run(process.execPath, toolArgv('annotate', ['--root', dir, ...args]), '', 120_000);
  const file = (f: string): string => path.join(dir, 'test', f);
  const edit = (f: string, from: string, to: string): void => {
    const text = fs.readFileSync(file(f), 'utf8');
    assert.ok(text.includes(from), `${f}: ${from}`);
    fs.writeFileSync(file(f), text.replace(from, to));
  };
  assert.equal(listFiles(dir).stale, '', 'a copy of this project is up to date');
  // a test's description changes in its header: its row is stale, named, until npm run annotate
  edit('coverage.test.ts', 'really contain', 'truly contain');
  const line = fs.readFileSync(file('README.md'), 'utf8').split('\n').findIndex((l) => l.startsWith('| `coverage.test.ts` |')) + 1;
  let r = await tool('--check');
  assert.equal(r.code, 1, r.stderr);
  assert.ok(r.stderr.startsWith(`test/README.md line ${line} is stale, the row of test/coverage.test.ts:\n`), r.stderr);
  assert.match(r.stderr, /\n {2}makes: \| `coverage\.test\.ts` \| test \| What the golden transcripts \(the C's own output\) truly contain, .* \| 5 s \|\n/);
  r = await tool();
  assert.deepEqual([r.code, r.stderr], [0, ''], r.stdout.toString());
  assert.match(r.stdout.toString(), new RegExp(`^test/README\\.md: written \\(was: test/README\\.md line ${line} is stale`));
  assert.equal(listFiles(dir).stale, '');
  // a row the table has but the headers do not make (a merge that kept another branch's row): stale
  edit('README.md', '| `emulation.test.ts` |', '| `gone.test.ts` | test | a file no longer here | 1 s |\n| `emulation.test.ts` |');
  assert.match(listFiles(dir).stale, /is stale, the row of test\/emulation\.test\.ts:\n {2}has: {3}\| `gone\.test\.ts` /);
  // files it cannot describe: named, with what to write (npm run annotate: exit 2, that line)
  const cannot = (why: RegExp): void => assert.throws(() => listFiles(dir), (err: Error) => err instanceof CannotList && why.test(err.message));
  fs.writeFileSync(file('new.test.ts'), '// A new test.\n\nimport x from \'y\';\n');
  cannot(/^test\/new\.test\.ts: its header has no line '\/\/ time: …'/);
  fs.writeFileSync(file('new.test.ts'), '// A new test of <things>.\n// time: 1 s\n');
  cannot(/^test\/new\.test\.ts: Markdown reads <…> as HTML/);
  fs.rmSync(file('new.test.ts'));
  fs.mkdirSync(file('fixtures/more'));
  cannot(/^test\/fixtures\/more\/: nothing says what it holds \(add it to FIXTURES in test\/support\/every-file\.ts\)$/);
});

test('test/\'s root holds only tests (*.test.ts), README.md, PORTING.md, GUI.md and the folders tools, support, fixtures', () => {
  const docs = ['README.md', 'PORTING.md', 'GUI.md'];
  const strays = fs.readdirSync(TEST, { withFileTypes: true })
    .filter((e) => e.isDirectory() ? !FOLDERS.includes(e.name) : !/\.test\.ts$/.test(e.name) && !docs.includes(e.name))
    .map((e) => e.name);
  assert.deepEqual(strays, []);
});

/** Runs the tool with --help: it must exit 0 and print the usage of its script first. Run from its
 *  source through tsx, as its npm script runs it (the other tests run the build of the tools, toolArgv). */
async function helpOf(file: string, script: string): Promise<void> {
  const r = await run(process.execPath, ['--import', 'tsx', file, '--help'], '', 120_000);
  assert.equal(r.code, 0, `${file} --help: exit ${r.code}\n${r.stderr}`);
  const usage = r.stdout.toString().split('\n')[0];
  assert.equal(USAGE.exec(usage.replace(/^usage: /, ''))?.[1], script, `${file} --help prints "${usage}"`);
}

test('every tool is one npm script, opens with its usage line, and exits 0 on --help printing it', async () => {
  const all = scripts();
  const tools = filesUnder(TEST, 'tools').map((tool) => `test/${tool}`);
  assert.ok(tools.length >= 7, `${tools.length} tools`);
  const runs: [string, string][] = [];
  for (const file of tools) {
    const script = scriptOf(file, all);
    const first = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n')[0];
    assert.equal(USAGE.exec(first.replace(/^\/\/ /, ''))?.[1], script, `${file} opens with "${first}"`);
    runs.push([file, script]);
  }
  for (let k = 0; k < runs.length; k += 2) {                  // two at a time: both cores
    await Promise.all(runs.slice(k, k + 2).map(([file, script]) => helpOf(file, script)));
  }
});

// The README is for players: it opens with how to play, stays short, and sends contributors to
// test/README.md (issue #23 brought it back from 3,103 words).
test('README.md is at most 2,500 words, opens with how to play, and links test/README.md', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const words = readme.split(/\s+/).filter(Boolean).length;
  assert.ok(words <= 2500, `README.md has ${words} words, more than 2,500`);
  const headings = [...readme.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
  assert.match(headings[0] ?? '', /^Play/);
  assert.match(readme.slice(0, readme.indexOf('\n## ')), /npm install && npm start/);
  assert.ok(readme.includes('(test/README.md)'), 'README.md does not link test/README.md');
});

// npm 11 asks a project to decide which dependencies may run install scripts (package.json's
// allowScripts), and warns at every install about those it has not: the lock file marks each
// package that has one (hasInstallScript), and allowScripts must name exactly those.
test('package.json\'s allowScripts decides every install script in the lock file, and no other', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as
    { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript)
    .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length)).sort();
  assert.deepEqual(Object.keys(pkg.allowScripts ?? {}).sort(), withScripts);
});

// `npm install`, as the README says, must leave a fresh clone clean: it rewrites package-lock.json
// whenever the lock's entry for the project itself no longer says what package.json says (issue
// #41 found the lock missing the two protocol commands, so every install dirtied the clone). The
// fields npm copies into that entry are compared one by one, each named when it differs.
test('package-lock.json\'s entry for the project says what package.json says (npm install changes nothing)', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as
    { name: string, version: string, packages: Record<string, Record<string, unknown>> };
  const root = lock.packages[''];
  assert.equal(lock.name, pkg.name, 'the lock\'s name');
  assert.equal(lock.version, pkg.version, 'the lock\'s version');
  for (const field of ['name', 'version', 'license', 'bin', 'engines', 'dependencies', 'devDependencies']) {
    assert.deepEqual(root[field], pkg[field], `package-lock.json's packages[""].${field} is not package.json's ${field}`);
  }
});
