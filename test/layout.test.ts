// The layout of test/: every file says by its place what it is, and test/README.md's table says
// it too. Every file under test/ (a folder of fixtures counting as one) has a row in that table,
// with the role its place gives it, and every row names a file that is here. The root holds only
// tests, the README, the guides for porters (PORTING.md) and for engine testers (GUI.md) and the three folders. Every file in tools/ is run by an npm script, opens
// with its usage line (`// npm run <script> ...`) and, run with --help, prints that usage and
// exits 0 (the quick run runs this test: it tries parseArgs on each Node line).

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ROOT, run } from './support/run.ts';

const TEST = path.join(ROOT, 'test');
const FOLDERS = ['fixtures', 'support', 'tools'];

/** The role a file has by its place under test/. */
function roleOf(file: string): string {
  if (file === 'PORTING.md' || file === 'GUI.md') return 'guide';
  if (file.startsWith('tools/')) return 'tool';
  if (file.startsWith('support/')) return 'helper';
  if (file.startsWith('fixtures/')) return 'fixtures';
  return 'test';
}

/** Every file under test/<folder> (relative to test/); a folder in fixtures/ stands for its files. */
function filesUnder(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(TEST, folder), { withFileTypes: true })) {
    const name = path.posix.join(folder, entry.name);
    if (entry.isDirectory() && folder === 'fixtures') found.push(`${name}/`);
    else if (entry.isDirectory()) found.push(...filesUnder(name));
    else found.push(name);
  }
  return found;
}

/** Every file of test/ that the table must list: the tests, then the folders' files. */
function allFiles(): string[] {
  const root = fs.readdirSync(TEST, { withFileTypes: true });
  const files = root.filter((e) => e.isFile() && e.name !== 'README.md').map((e) => e.name);
  return [...files, ...FOLDERS.flatMap((folder) => filesUnder(folder))];
}

/** The rows of test/README.md's table "Every file": the file named in the first cell, and its role. */
export function tableRows(md: string): Map<string, string> {
  const section = md.split(/^## /m).find((s) => s.startsWith('Every file'));
  assert.ok(section, 'test/README.md has no section "## Every file"');
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = /^\| `([^`]+)` \| (\w+) \|/.exec(line);
    if (cells) rows.set(cells[1], cells[2]);
  }
  return rows;
}

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

// What a usage line looks like: environment settings, then `npm run <script>`.
const USAGE = /^(?:[A-Z_]+=\S+ )*npm run ([\w:-]+)(?: |$)/;

test('test/README.md\'s table lists every file in test/, each with the role of its place, and no other', () => {
  const rows = tableRows(fs.readFileSync(path.join(TEST, 'README.md'), 'utf8'));
  const files = allFiles();
  const missing = files.filter((f) => !rows.has(f));
  assert.deepEqual(missing, [], 'files with no row in test/README.md\'s table');
  const stale = [...rows.keys()].filter((f) => !files.includes(f));
  assert.deepEqual(stale, [], 'rows of test/README.md\'s table naming no file');
  const wrong = files.filter((f) => rows.get(f) !== roleOf(f)).map((f) => `${f}: ${rows.get(f)}, not ${roleOf(f)}`);
  assert.deepEqual(wrong, [], 'roles in the table that are not the place\'s');
});

test('test/\'s root holds only tests (*.test.ts), README.md, PORTING.md, GUI.md and the folders tools, support, fixtures', () => {
  const docs = ['README.md', 'PORTING.md', 'GUI.md'];
  const strays = fs.readdirSync(TEST, { withFileTypes: true })
    .filter((e) => e.isDirectory() ? !FOLDERS.includes(e.name) : !/\.test\.ts$/.test(e.name) && !docs.includes(e.name))
    .map((e) => e.name);
  assert.deepEqual(strays, []);
});

/** Runs the tool with --help: it must exit 0 and print the usage of its script first. */
async function helpOf(file: string, script: string): Promise<void> {
  const r = await run(process.execPath, ['--import', 'tsx', file, '--help'], '', 120_000);
  assert.equal(r.code, 0, `${file} --help: exit ${r.code}\n${r.stderr}`);
  const usage = r.stdout.toString().split('\n')[0];
  assert.equal(USAGE.exec(usage.replace(/^usage: /, ''))?.[1], script, `${file} --help prints "${usage}"`);
}

test('every tool is one npm script, opens with its usage line, and exits 0 on --help printing it', async () => {
  const all = scripts();
  const tools = filesUnder('tools').map((tool) => `test/${tool}`);
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
