// The annotated companion as text, and the reading model its guide states (annotated/README.md,
// 'Reading path'): fenced blocks, prose, paragraphs, and the minutes a stretch of Markdown takes.
// Shared by test/annotated.test.ts, which checks every row of the reading path, and by
// `npm run annotate`, which writes the minutes of the row its walk-through part makes.

// ---- fenced blocks and prose -----------------------------------------------------------------

export interface Block { lang: string; start: number; lines: { line: number; text: string }[] }

/** The fenced code blocks of a Markdown text; `start` and `line` are 1-based line numbers. */
export function fencedBlocks(md: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  md.split('\n').forEach((text, k) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (open) {
      if (fence && fence[1] === '') { blocks.push(open); open = undefined; } else open.lines.push({ line: k + 1, text });
    } else if (fence) open = { lang: fence[1], start: k + 1, lines: [] };
  });
  if (open) throw new Error(`a fence opened at line ${open.start} is never closed`);
  return blocks;
}

/** The prose of a Markdown text: the lines outside fenced blocks. */
export const prose = (md: string): string => {
  let inFence = false;
  return md.split('\n').filter((l) => { if (/^```/.test(l)) { inFence = !inFence; return false; } return !inFence; }).join('\n');
};

// ---- the reading model ------------------------------------------------------------------------
// The guide states the model; these functions apply it. A paragraph is a run of prose lines between
// blank lines, or one list item, or one heading. It is dense when it holds a hex number, a bit
// operator in inline code (&, |, ^, ~, <<, >>; not && or ||), or a window: q or l in inline code, or
// two numbers in brackets such as (-8000, 8000) (a link's target is not read); or when it is a
// look-for (it starts "Look for"), which has the reader check a command's output against it. Table rows (not their
// --- line) and the lines of non-ts fenced blocks (a command's line too) are lines; so is every line
// a command prints, when the text asks the reader to run it; a line is dense when it holds a hex
// number, bits (0111 1000) or a row of hex bytes. ts lines are code, in D() from `function D(` to
// its `}`. A link to the glossary is a look-up: one row for each name it gives (at least one). A link to
// a call of a page (pages/NAME.html#call-N) is a page visit: the reader opens the page on that call and
// finds, on its board and in its tables, the numbers the sentence names: a minute, the time a careful
// reader took (issue 43: 12 visits, some 12 minutes more than the text alone).

export const READING = { plain: 120, dense: 60, lineSeconds: 15, denseLineSeconds: 30, code: 6, codeInD: 3, visit: 1 };

/** A link's target, which the reader does not read: `[text](target)` as `[text]`. */
const untargeted = (s: string): string => s.replace(/\]\([^)\s]*\)/g, ']');

/** Is this paragraph dense, by the guide's rule? */
export function dense(paragraph: string): boolean {
  const p = untargeted(paragraph);
  if (/^Look for\b/.test(p)) return true;                  // a look-for: the reader checks it against the output
  if (/\b0x[0-9a-f]+\b/i.test(p)) return true;
  if (/\(-?\d[\d,]*, -?\d[\d,]*\)/.test(p)) return true;
  const spans = [...p.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  const bitOperator = (span: string): boolean => /[&|^~]|<<|>>/.test(span.replace(/&&|\|\||\\\|/g, ' '));
  const window = (span: string): boolean => /(^|[^\w.])[ql]\b/.test(span);
  return spans.some((span) => bitOperator(span) || window(span));
}

/** Is this line of a diagram, a table or a command's output dense: a hex number, bits, hex bytes? */
export function denseLine(line: string): boolean {
  const cells = line.match(/\b[0-9a-f]{2}\b/g) ?? [];
  return /\b0x[0-9a-f]+\b/i.test(line) || /\b[01]{4} [01]{4}\b/.test(line) ||
    (cells.length >= 8 && cells.some((c) => /[a-f]/.test(c)));
}

export interface Reading {
  plain: number; dense: number; lines: number; denseLines: number; code: number; codeInD: number; lookUps: number; visits: number;
}

/** The paragraphs of a stretch of Markdown, outside fences and tables. */
function paragraphs(md: string): string[] {
  const out: string[] = [];
  for (const chunk of prose(md).split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((l) => l.trim() && !l.startsWith('|'));
    for (const [k, line] of lines.entries()) {
      const starts = k === 0 || /^(#|- |\d+\. )/.test(line) || /^#/.test(out.at(-1)!);
      if (starts) out.push(line); else out[out.length - 1] += '\n' + line;
    }
  }
  return out;
}

/** The glossary rows a stretch of prose sends the reader to: one a name in each link's text (a table's
 *  link, such as the reading path's row for the glossary, sends no one to a row). */
export function lookUps(md: string): number {
  return [...paragraphs(md).join('\n').matchAll(/\[([^\]]*)\]\(#glossary\)/g)]
    .reduce((n, m) => n + Math.max(1, [...m[1].matchAll(/`\w`/g)].length), 0);
}

/** The pages a stretch of prose sends the reader to: one visit a link to a call of a page. */
export const visits = (md: string): number => [...paragraphs(md).join('\n').matchAll(/\]\(pages\/[\w-]+\.html#call-\d+\)/g)].length;

/** What a reader meets in a stretch of Markdown, apart from what its commands print: words plain and
 *  dense, lines of tables, diagrams and commands, code lines, glossary look-ups, page visits. */
export function reading(md: string): Reading {
  const r: Reading = { plain: 0, dense: 0, lines: 0, denseLines: 0, code: 0, codeInD: 0, lookUps: lookUps(md), visits: visits(md) };
  for (const p of paragraphs(md)) {
    const words = p.split(/\s+/).filter(Boolean).length;
    if (dense(p)) r.dense += words; else r.plain += words;
  }
  const line = (l: string): void => { if (denseLine(l)) r.denseLines++; else r.lines++; };
  prose(md).split('\n').filter((l) => l.startsWith('|') && !/^\|[\s:|-]+$/.test(l)).forEach(line);
  let inD = false;
  for (const blk of fencedBlocks(md)) {
    for (const { text } of blk.lines.filter((l) => l.text.trim())) {
      if (blk.lang !== 'ts') { line(text); continue; }
      if (text.startsWith('function D(')) inD = true;
      if (inD) r.codeInD++; else r.code++;
      if (inD && text === '}') inD = false;
    }
  }
  return r;
}

export const minutes = (r: Reading): number =>
  r.plain / READING.plain + r.dense / READING.dense +
  ((r.lines + r.lookUps) * READING.lineSeconds + r.denseLines * READING.denseLineSeconds) / 60 +
  r.code / READING.code + r.codeInD / READING.codeInD + r.visits * READING.visit;
