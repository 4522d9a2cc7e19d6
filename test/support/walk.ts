// The walk-through (`annotated/micromax.ts.md`) against the program it explains. Part 1, the
// engine, is written by hand: its `ts` blocks quote every line of part 1 of `micromax.ts`, in
// order, and `drifts()` lists every line where the two disagree (a longest common subsequence),
// with the side that changed last (from git). Parts 2 and 3 are made from `micromax.ts` by
// `makeWalk()`, docco-style: a comment that starts a line (column 0) is prose, above the code that
// follows it; a part's banner (`// ---- Part 3: …`) and a comment line `// ### Title` are headings;
// every other line is code, in `ts` blocks. The reading path's row for them (`annotated/README.md`)
// gets its minutes from the guide's model. `npm run annotate` writes both; the tests and `--check`
// compare.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { fencedBlocks, minutes, reading } from './reading.ts';

export const FILES = { source: 'micromax.ts', walk: 'annotated/micromax.ts.md', guide: 'annotated/README.md' };

export interface Line { line: number; text: string }   // line: 1-based, in its file

// ---- where the made part starts ---------------------------------------------------------------

const PART_2_BANNER = /^\/\/ -+ Part 2\b/;
const PART_2_HEADING = /^## Part 2\b/m;

/** micromax.ts as part 1 (hand-written in the walk-through) and parts 2 and 3 (made from it). */
export function splitSource(source: string): { hand: Line[]; made: Line[] } {
  const lines = source.split('\n').map((text, k) => ({ line: k + 1, text }));
  const at = lines.findIndex((l) => PART_2_BANNER.test(l.text));
  if (at < 0) throw new CannotMake(`${FILES.source} has no banner '// ---- Part 2: …'`);
  return { hand: lines.slice(0, at), made: lines.slice(at) };
}

/** The walk-through as its hand-written part and the part made from the code (from '## Part 2' on);
 *  madeLine: the made part's first line number. */
export function splitWalk(md: string): { hand: string; made: string; madeLine: number } {
  const m = PART_2_HEADING.exec(md);
  if (!m) throw new CannotMake(`${FILES.walk} has no heading '## Part 2…'`);
  const hand = md.slice(0, m.index);
  return { hand, made: md.slice(m.index), madeLine: hand.split('\n').length };
}

/** Why the walk-through cannot be made or checked: a file's shape, a comment Markdown would misread. */
export class CannotMake extends Error {}

// ---- parts 2 and 3, made from the code --------------------------------------------------------

export const NOTE = '*Parts 2 and 3 are made from `micromax.ts` by `npm run annotate`: each comment that starts\n' +
  'a line is the prose above the code after it. To change them, change the code\'s comments.*';

type Piece =
  | { kind: 'heading'; at: Line; level: number; text: string }
  | { kind: 'prose'; lines: Line[] }
  | { kind: 'code'; lines: Line[] };

/** Lines inside a literal that spans lines (a template): code, whatever they start with. */
function insideLiterals(source: string): Set<number> {
  const file = ts.createSourceFile('micromax.ts', source, ts.ScriptTarget.Latest, true);
  const inside = new Set<number>();
  const lineOf = (pos: number): number => file.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateLiteral(node) || ts.isStringLiteral(node)) {
      for (let l = lineOf(node.getStart(file)) + 1; l <= lineOf(node.getEnd()); l++) inside.add(l);
    }
    node.forEachChild(visit);
  };
  visit(file);
  return inside;
}

/** The made part's lines as headings, prose and code. */
function pieces(made: Line[], literal: Set<number>): Piece[] {
  const out: Piece[] = [];
  for (const l of made) {
    const banner = /^\/\/ -{2,} (.*?) *-*$/.exec(l.text);
    const heading = /^\/\/ (#{2,4}) (\S.*)$/.exec(l.text);
    const comment = /^\/\/ ?(.*)$/.exec(l.text);
    const last = out.at(-1);
    if (literal.has(l.line) || !comment) {
      if (last?.kind === 'code') last.lines.push(l); else out.push({ kind: 'code', lines: [l] });
    } else if (banner) out.push({ kind: 'heading', at: l, level: 2, text: banner[1] });
    else if (heading) out.push({ kind: 'heading', at: l, level: heading[1].length, text: heading[2] });
    else if (last?.kind === 'prose') last.lines.push({ line: l.line, text: comment[1] });
    else out.push({ kind: 'prose', lines: [{ line: l.line, text: comment[1] }] });
  }
  return out;
}

/** A link in a comment is relative to the project (annotated/appendix.md#…): in annotated/ it is
 *  relative to there. */
const rebased = (text: string): string => text.replace(/\]\(([^)\s]+)\)/g, (all, target: string) => {
  if (/^([a-z]+:|#)/i.test(target)) return all;
  return `](${target.startsWith('annotated/') ? target.slice('annotated/'.length) : `../${target}`})`;
});

/** What Markdown would misread in a paragraph of a comment, or ''. */
function misread(paragraph: Line[]): string {
  const text = paragraph.map((l) => l.text).join('\n');
  if ((text.match(/`/g) ?? []).length % 2) return 'a ` is not closed in this paragraph';
  const plain = text.replace(/`[^`]*`/g, '');
  if (/<[A-Za-z/!?]/.test(plain)) return 'Markdown reads <…> as HTML: put it in backticks';
  for (const l of paragraph) {
    if (/^\s*(=+|-+)\s*$/.test(l.text)) return 'a line of - or = makes the line above a heading';
    if (/^#/.test(l.text)) return 'a heading is a comment line of its own: // ### Title (## to ####)';
    if (/^\s*\|/.test(l.text)) return 'a line starting with | reads as a table';
  }
  if (/^ {4}/.test(paragraph[0].text)) return 'a paragraph indented 4 spaces reads as code';
  return '';
}

/** One line of the made Markdown, and the line of micromax.ts it comes from. */
interface MadeLine { text: string; from: number }

/** Parts 2 and 3 of the walk-through, made from micromax.ts, line by line. */
function madeLines(source: string): MadeLine[] {
  const out: MadeLine[] = [];
  const literal = insideLiterals(source);
  const all = pieces(splitSource(source).made, literal);
  for (const [k, p] of all.entries()) {
    if (p.kind === 'heading') {
      out.push({ text: `${'#'.repeat(p.level)} ${p.text}`, from: p.at.line }, { text: '', from: p.at.line });
      if (k === 0) out.push(...`${NOTE}\n`.split('\n').map((text) => ({ text, from: p.at.line })));
      continue;
    }
    if (p.kind === 'prose') {
      const paragraphs: Line[][] = [[]];
      for (const l of p.lines) {
        if (l.text.trim()) paragraphs[paragraphs.length - 1].push(l); else paragraphs.push([]);
      }
      for (const para of paragraphs.filter((x) => x.length)) {
        const why = misread(para);
        if (why) throw new CannotMake(`${FILES.source} line ${para[0].line}: ${why}`);
        for (const l of para) out.push({ text: rebased(l.text), from: l.line });
        out.push({ text: '', from: para.at(-1)!.line });
      }
      continue;
    }
    const code = p.lines.filter((l, i) => l.text.trim() || (i > 0 && p.lines[i - 1].text.trim()));
    while (code.length && !code.at(-1)!.text.trim()) code.pop();
    if (!code.length) continue;
    out.push({ text: '```ts', from: code[0].line }, ...code.map((l) => ({ text: l.text, from: l.line })),
      { text: '```', from: code.at(-1)!.line }, { text: '', from: code.at(-1)!.line });
  }
  if (all[0]?.kind !== 'heading') throw new CannotMake(`${FILES.source}: part 2 does not open with its banner`);
  while (out.length && !out.at(-1)!.text) out.pop();
  return out;
}

/** Parts 2 and 3 of the walk-through, made from micromax.ts, as Markdown. */
export const makeWalk = (source: string): string => madeLines(source).map((l) => l.text).join('\n') + '\n';

/** The first line where the walk-through's made part is not what micromax.ts makes, or ''. */
function staleLine(walk: string, source: string): string {
  const { made, madeLine } = splitWalk(walk);
  const want = madeLines(source);
  const have = made.replace(/\n$/, '').split('\n');
  const n = Math.max(have.length, want.length);
  for (let k = 0; k < n; k++) {
    if (have[k] === want[k]?.text) continue;
    const where = `${FILES.walk} line ${madeLine + k}`;
    if (k >= want.length) return `${where} is stale: micromax.ts makes no more lines, the walk-through goes on:\n  ${have[k]}`;
    const has = k < have.length ? `has:   ${have[k]}` : 'ends before it';
    return `${where} is stale (from ${FILES.source} line ${want[k].from}):\n  ${has}\n  makes: ${want[k].text}`;
  }
  return '';
}

// ---- part 1, by hand: every drifted line, and which side changed last -------------------------

/** A line of part 1 where the walk-through and micromax.ts disagree: a line on each side (changed),
 *  or one side's line that the other does not have; the side that changed last, when git knows. */
export interface Drift { code?: Line; walk?: Line; last?: 'code' | 'walk'; when?: string; unknown?: string }

/** The ```ts lines of the hand-written part against part 1 of the source, blank lines aside: the
 *  lines of a longest common subsequence agree; between two of them, what is left on each side is
 *  paired line by line (a changed line), the rest is one side's only. */
export function drifts(walk: string, source: string): Drift[] {
  const w = fencedBlocks(splitWalk(walk).hand).filter((b) => b.lang === 'ts').flatMap((b) => b.lines)
    .filter((l) => l.text.trim());
  const s = splitSource(source).hand.filter((l) => l.text.trim());
  const cols = s.length + 1;
  const common = new Int32Array((w.length + 1) * cols);    // common[i][j]: of w[i..] and s[j..]
  for (let i = w.length - 1; i >= 0; i--) {
    for (let j = s.length - 1; j >= 0; j--) {
      common[i * cols + j] = w[i].text === s[j].text ? common[(i + 1) * cols + j + 1] + 1
        : Math.max(common[(i + 1) * cols + j], common[i * cols + j + 1]);
    }
  }
  const out: Drift[] = [];
  let onlyW: Line[] = [], onlyS: Line[] = [];
  const flush = (): void => {
    for (let k = 0; k < Math.max(onlyW.length, onlyS.length); k++) out.push({ walk: onlyW[k], code: onlyS[k] });
    onlyW = []; onlyS = [];
  };
  let i = 0, j = 0;
  while (i < w.length || j < s.length) {
    if (i < w.length && j < s.length && w[i].text === s[j].text) { flush(); i++; j++; }
    else if (j >= s.length || (i < w.length && common[(i + 1) * cols + j] >= common[i * cols + j + 1])) onlyW.push(w[i++]);
    else onlyS.push(s[j++]);
  }
  flush();
  return out;
}

/** When a line or a file last changed: the commit ('' for not committed yet) and its time (s). */
export interface Change { commit: string; time: number }
export interface History { line(file: string, n: number): Change | undefined; file(file: string): Change | undefined }

const NOT_COMMITTED: Change = { commit: '', time: Infinity };

/** The project's git history: git blame for lines, the working tree and git log for files. No
 *  git, or no repository: nothing is known. */
export function gitHistory(root: string): History {
  const git = (...args: string[]): string | undefined => {
    const r = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
    return r.status === 0 ? r.stdout : undefined;
  };
  const blames = new Map<string, Change[] | undefined>();
  const blame = (file: string): Change[] | undefined => {
    if (!blames.has(file)) {
      const out = git('blame', '--line-porcelain', '--', file);
      const lines: Change[] = [];
      let sha = '', final = 0, time = 0;
      for (const l of out?.split('\n') ?? []) {
        const head = /^([0-9a-f]{40}) \d+ (\d+)/.exec(l);
        if (head) { sha = head[1]; final = Number(head[2]); continue; }
        if (l.startsWith('committer-time ')) time = Number(l.slice(15));
        if (l.startsWith('\t')) lines[final] = /^0+$/.test(sha) ? NOT_COMMITTED : { commit: sha, time };
      }
      blames.set(file, out === undefined ? undefined : lines);
    }
    return blames.get(file);
  };
  return {
    line: (file, n) => blame(file)?.[n],
    file: (file) => {
      const status = git('status', '--porcelain', '--', file);
      if (status === undefined) return undefined;
      if (status.trim()) return NOT_COMMITTED;
      const [commit, time] = (git('log', '-1', '--format=%H %ct', '--', file) ?? '').trim().split(' ');
      return commit ? { commit, time: Number(time) } : undefined;
    },
  };
}

const said = (c: Change): string =>
  c.commit ? `${c.commit.slice(0, 7)}, ${new Date(c.time * 1000).toISOString().slice(0, 10)}` : 'not committed yet';

/** Each drift with the side that changed last: for a changed line, the newer of its two lines; for
 *  one side's line only, that line against the other file's last change (a line added after it, or
 *  a line the other side dropped since). */
export function sided(list: Drift[], history: History): Drift[] {
  return list.map((d) => {
    const code = d.code && history.line(FILES.source, d.code.line);
    const walk = d.walk && history.line(FILES.walk, d.walk.line);
    const a = d.code ? code : history.file(FILES.source);
    const b = d.walk ? walk : history.file(FILES.walk);
    if (!a || !b) return { ...d, unknown: 'git cannot tell: no history here' };
    if (a.time === b.time) {
      return { ...d, unknown: a.commit ? `both changed in ${said(a)}` : 'both changed since the last commit' };
    }
    const last = a.time > b.time ? 'code' : 'walk';
    const change = last === 'code' ? a : b;
    return { ...d, last, when: said(change) };
  });
}

/** Every drifted line of part 1, one paragraph each, saying which side changed last. */
export function driftReport(list: Drift[]): string {
  if (!list.length) return '';
  const name = { code: FILES.source, walk: 'the walk-through' };
  const parts = list.map((d) => {
    const what = d.code && d.walk ? `${FILES.source} line ${d.code.line} and walk-through line ${d.walk.line} differ`
      : d.code ? `${FILES.source} line ${d.code.line} is not in the walk-through`
        : `walk-through line ${d.walk!.line} is not in ${FILES.source}`;
    const side = d.last ? `${name[d.last]} changed last (${d.when})` : `which side changed last is not known (${d.unknown ?? 'not asked'})`;
    return `  ${what}; ${side}:` + (d.code ? `\n    .ts:  ${d.code.text}` : '') + (d.walk ? `\n    walk: ${d.walk.text}` : '');
  });
  return `part 1 of ${FILES.walk} (written by hand) and ${FILES.source} differ at ${list.length} ` +
    `line${list.length > 1 ? 's' : ''} (blank lines aside). Where ${FILES.source} changed last, explain its line in ` +
    'the walk-through; where the walk-through changed last, it no longer quotes the code:\n' + parts.join('\n');
}

// ---- the reading path's row for parts 2 and 3 ------------------------------------------------

export const ROW = 'optional: shell and GUI';

/** A stretch of Markdown from one heading line to another ('' for the end). */
function between(md: string, from: string, to: string): string {
  const [start, end] = [md.indexOf(`\n${from}\n`), to ? md.indexOf(`\n${to}\n`) : md.length];
  if (start < 0 || end < 0) throw new CannotMake(`the row '${ROW}' covers the sections from '${from}' to '${to}': not found`);
  return md.slice(start, end);
}

/** What the row covers: its two guide sections and parts 2 and 3 (test/annotated.test.ts checks
 *  every row's minutes from the same text). */
export const rowText = (guide: string, walk: string): string =>
  between(guide, '## The shell, in brief', '## Known quirks') + between(walk, '## Part 2: the shell', '');

/** The row's minutes by the guide's model. */
function rowMinutes(guide: string, walk: string): number {
  const text = rowText(guide, walk);
  if (/^```sh|`npm (run (-s )?tree|start( -s)?) -- /m.test(text)) {            // what the model runs
    throw new CannotMake(`the row '${ROW}' covers a command: its output is counted by test/annotated.test.ts only`);
  }
  return Math.round(minutes(reading(text)));
}

/** The guide with the row's minutes set; the row's line and the minutes it states. */
function withRow(guide: string, m: number): { guide: string; stated: number; line: number } {
  const lines = guide.split('\n');
  const k = lines.findIndex((l) => l.startsWith(`| ${ROW} |`));
  const cell = /\| (\d+) \|$/.exec(lines[k] ?? '');
  if (!cell) throw new CannotMake(`${FILES.guide} has no reading-path row '| ${ROW} | … | minutes |'`);
  const stated = Number(cell[1]);
  lines[k] = lines[k].slice(0, cell.index) + `| ${m} |`;
  return { guide: lines.join('\n'), stated, line: k + 1 };
}

// ---- all of it ------------------------------------------------------------------------------

/** What npm run annotate finds in the project at root: the walk-through and guide as they should
 *  be; the made part's first stale line, the row's stale minutes, part 1's drift ('' when none). */
export interface Annotation { walk: string; guide: string; stale: string; row: string; drift: string }

export function annotate(root: string, history: History = gitHistory(root)): Annotation {
  const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');
  const [source, walk, guide] = [read(FILES.source), read(FILES.walk), read(FILES.guide)];
  const made = splitWalk(walk).hand + makeWalk(source);
  const m = rowMinutes(guide, made);
  const row = withRow(guide, m);
  return {
    walk: made,
    guide: row.guide,
    stale: staleLine(walk, source),
    row: row.stated === m ? '' : `${FILES.guide} line ${row.line}: the row '${ROW}' says ${row.stated} minutes; ` +
      `the model gives ${m}`,
    drift: driftReport(sided(drifts(walk, source), history)),
  };
}
