// test/README.md's table of every file, made by `npm run annotate` from the files it lists (its
// `--check` and `layout.test.ts` name the first stale row): a code file's row is its header
// comment's first paragraph (a tool's, after its usage lines, begins with its npm script), and a
// line `// time: …` in the header its time (a test must have one); a guide's row is its first
// paragraph after its title; `fixtures/`, which holds data, is described here (FIXTURES).
//
// A header is the comment lines that open a file (`//`; `#` in Python); a paragraph ends at a
// comment line alone. The row's text is Markdown: code in backticks, no `<` outside them (a `|` is
// escaped here). The rows are in a fixed order, tests, guides, tools, helpers, fixtures, each by
// name, so a new file's row has one place.

import * as fs from 'node:fs';
import * as path from 'node:path';

export const README = 'test/README.md';
export const BEGIN = '<!-- made by `npm run annotate` from each file\'s header: change the header, then run it -->';
export const END = '<!-- end of the made table -->';
const HEAD = '| file | role | what it checks or does | time |\n| --- | --- | --- | --: |';
export const FOLDERS = ['fixtures', 'support', 'tools'];
const GUIDES = ['GUI.md', 'PORTING.md'];
const ROLES = ['test', 'guide', 'tool', 'helper', 'fixtures'];

// What fixtures/ holds: data with no comment of its own to describe it.
const FIXTURES: Record<string, string> = {
  'fixtures/calls/': 'The reference C\'s call stream of every scripted input (whole, or its first 200,000 calls), ' +
    'for `conformance --calls`; `streams.tsv` lists them, with each script\'s calls and the C\'s time.',
  'fixtures/exercises/': 'What the C, changed as each change exercise asks (and unchanged), prints on its games.',
  'fixtures/golden/': 'The C\'s transcripts of the scripted inputs, one `.out` a script, and `keytable.txt`.',
  'fixtures/inputs/': 'The scripted inputs, one `.in` a script.',
  'fixtures/scripts.tsv': 'The list of scripted inputs, for any language: name, flags, input, expected output, when, about.',
};

/** Why the table cannot be made: a header not in its shape, a file with nothing to say. */
export class CannotList extends Error {}

/** The role a file has by its place under test/. */
export function roleOf(file: string): string {
  if (GUIDES.includes(file)) return 'guide';
  if (file.startsWith('tools/')) return 'tool';
  if (file.startsWith('support/')) return 'helper';
  if (file.startsWith('fixtures/')) return 'fixtures';
  return 'test';
}

/** Every file under test/<folder> (relative to test/); a folder in fixtures/ stands for its files. */
export function filesUnder(test: string, folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(test, folder), { withFileTypes: true })) {
    const name = path.posix.join(folder, entry.name);
    if (entry.isDirectory() && folder === 'fixtures') found.push(`${name}/`);
    else if (entry.isDirectory()) found.push(...filesUnder(test, name));
    else found.push(name);
  }
  return found;
}

/** Every file the table lists, in its order: by role, then by name. */
export function allFiles(test: string): string[] {
  const root = fs.readdirSync(test, { withFileTypes: true });
  const files = root.filter((e) => e.isFile() && e.name !== 'README.md').map((e) => e.name);
  const all = [...files, ...FOLDERS.flatMap((folder) => filesUnder(test, folder))];
  const rank = (f: string): number => ROLES.indexOf(roleOf(f));
  return all.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

// What a usage line looks like: environment settings, then `npm run <script>`.
export const USAGE = /^(?:[A-Z_]+=\S+ )*npm run ([\w:-]+)(?: |$)/;

/** A code file's header: its usage's npm script (a tool's), its first paragraph, its time line. */
export interface Header { script?: string; text: string; time?: string }

/** The header of a file's text; mark is the comment's mark ('//', or '#' in Python). */
export function headerOf(source: string, mark: string): Header {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (line.startsWith('#!')) continue;
    if (line !== mark && !line.startsWith(`${mark} `)) break;
    lines.push(line.slice(mark.length + 1));
  }
  const timed = lines.filter((l) => /^time: /.test(l));
  const rest = lines.filter((l) => !/^time: /.test(l));
  const script = USAGE.exec(rest[0] ?? '')?.[1];
  let k = 0;
  while (script && k < rest.length && (USAGE.test(rest[k]) || /^ {2}/.test(rest[k]))) k++;
  while (k < rest.length && !rest[k].trim()) k++;
  const paragraph: string[] = [];
  for (; k < rest.length && rest[k].trim(); k++) paragraph.push(rest[k].trim());
  return { script, text: paragraph.join(' '), time: timed[0]?.slice('time: '.length).trim() };
}

/** What Markdown would misread in a table cell, or ''. */
function misread(text: string): string {
  if ((text.match(/`/g) ?? []).length % 2) return 'a ` is not closed';
  if (/<[A-Za-z/!?]/.test(text.replace(/`[^`]*`/g, ''))) return 'Markdown reads <…> as HTML: put it in backticks';
  return '';
}

/** A Markdown guide's first paragraph after its title. */
function guideText(md: string): string {
  const lines = md.split('\n');
  let k = lines.findIndex((l) => l.startsWith('# ')) + 1;
  while (k < lines.length && !lines[k].trim()) k++;
  const paragraph: string[] = [];
  for (; k < lines.length && lines[k].trim(); k++) paragraph.push(lines[k].trim());
  return paragraph.join(' ');
}

/** A file's row: what it checks or does, and its time. */
function rowOf(test: string, file: string): string {
  const role = roleOf(file);
  const text = (): string => fs.readFileSync(path.join(test, file), 'utf8');
  let what: string, time = '';
  if (role === 'fixtures') {
    what = FIXTURES[file] ?? '';
    if (!what) throw new CannotList(`test/${file}: nothing says what it holds (add it to FIXTURES in test/support/every-file.ts)`);
  } else if (role === 'guide') {
    what = guideText(text());
  } else {
    const h = headerOf(text(), file.endsWith('.py') ? '#' : '//');
    const why = !h.text ? 'its header comment has no first paragraph (the row\'s text)'
      : role === 'test' && !h.time ? 'its header has no line \'// time: …\' (how long it takes as npm test runs it)'
      : role === 'tool' && !h.script ? 'its header does not open with its usage (\'// npm run NAME …\')'
      : misread(h.text);
    if (why) throw new CannotList(`test/${file}: ${why}`);
    what = h.script ? `\`npm run ${h.script}\`: ${h.text.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase())}` : h.text;
    time = h.time ?? '';
  }
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  return `| \`${file}\` | ${role} | ${cell(what)} | ${cell(time)} |`;
}

/** The made table: its head and a row a file. */
export const makeTable = (test: string): string[] => [...HEAD.split('\n'), ...allFiles(test).map((f) => rowOf(test, f))];

/** What npm run annotate finds of test/README.md in the project at root: the README as it should
 *  be, and its first stale line ('' when none). */
export interface Listing { readme: string; stale: string }

export function listFiles(root: string): Listing {
  const test = path.join(root, 'test');
  const md = fs.readFileSync(path.join(root, README), 'utf8');
  const [from, to] = [md.indexOf(`${BEGIN}\n`), md.indexOf(`${END}\n`)];
  if (from < 0 || to < from) throw new CannotList(`${README} has no lines '${BEGIN}' and, below it, '${END}'`);
  const before = md.slice(0, from + BEGIN.length + 1);
  const have = md.slice(before.length, to).replace(/\n$/, '').split('\n');
  const want = makeTable(test);
  const readme = before + want.join('\n') + '\n' + md.slice(to);
  const line0 = before.split('\n').length;
  let stale = '';
  for (let k = 0; k < Math.max(have.length, want.length) && !stale; k++) {
    if (have[k] === want[k]) continue;
    const file = /^\| `([^`]+)` \|/.exec(want[k] ?? have[k])?.[1];
    const from = file ? `, the row of test/${file}` : '';
    stale = `${README} line ${line0 + k} is stale${from}:\n  has:   ${have[k] ?? '(the table ends)'}\n  makes: ${want[k] ?? '(no more rows)'}` +
      firstChange(have[k] ?? '', want[k] ?? '');
  }
  return { readme, stale };
}

/** Where two long lines first differ, a few words of each from there ('' for short lines). */
function firstChange(has: string, makes: string): string {
  if (has.length < 120 && makes.length < 120) return '';
  let c = 0;
  while (has[c] === makes[c]) c++;
  const from = Math.max(0, c - 20);
  return `\n  from character ${c + 1}: has "…${has.slice(from, c + 40)}…", makes "…${makes.slice(from, c + 40)}…"`;
}

/** A copy of what the table is made from, for a test's scratch project: test/ from root into to,
 *  each folder of fixtures empty. */
export function copyListed(root: string, to: string): void {
  const from = path.join(root, 'test');
  const inFixtureFolder = (src: string): boolean => /^fixtures\/[^/]+\/./.test(path.relative(from, src).split(path.sep).join('/'));
  fs.cpSync(from, path.join(to, 'test'), { recursive: true, filter: (src) => !inFixtureFolder(src) });
}
