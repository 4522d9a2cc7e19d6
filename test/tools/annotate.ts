// npm run annotate [-- --check] [--root DIR]
// Makes parts 2 and 3 of the walk-through (annotated/micromax.ts.md) from micromax.ts, whose
// comments are their prose, and writes the minutes of the reading path's row for them in
// annotated/README.md, by the guide's model. Part 1, the engine, is written by hand: this lists
// every line where it no longer quotes part 1 of micromax.ts, and which side changed last.
// (test/support/walk.ts does the work; test/annotated.test.ts runs the same check.)

import * as fs from 'node:fs';
import * as path from 'node:path';
import { cannot, exit, readOptions, userPath } from '../support/options.ts';
import { ROOT } from '../support/run.ts';
import { annotate, CannotMake, FILES } from '../support/walk.ts';

const TOOL = 'annotate';
const USAGE = `usage: npm run annotate [-- --check] [--root DIR]
Makes parts 2 and 3 of annotated/micromax.ts.md from micromax.ts (each comment that starts a line
is the prose above the code after it; '// ### Title' is a heading) and sets the reading path's
minutes for them in annotated/README.md. Part 1 is written by hand: every line where it no longer
quotes part 1 of micromax.ts is listed, with the side that changed last (from git).
  --check       change nothing: exit 1 naming the first stale line of the made part, a stale row,
                and every line where part 1 drifted
  --root DIR    the project to read (default: this one)
Exit 0: up to date (or written); 1: stale (--check) or part 1 drifted; 2: cannot make it (a
comment Markdown would misread, a file not in its shape).
`;

const { values: v } = readOptions(TOOL, USAGE, { check: { type: 'boolean' }, root: { type: 'string' } });
const root = v.root === undefined ? ROOT : userPath(v.root);

let a;
try {
  a = annotate(root);
} catch (err) {
  if (err instanceof CannotMake || (err as NodeJS.ErrnoException).code === 'ENOENT') cannot(TOOL, (err as Error).message);
  throw err;
}
const problems: string[] = [];
if (v.check) {
  if (a.stale) problems.push(`${a.stale}\n(npm run annotate makes parts 2 and 3 anew)`);
  if (a.row) problems.push(`${a.row}\n(npm run annotate sets it)`);
} else {
  for (const [file, text, stale] of [[FILES.walk, a.walk, a.stale], [FILES.guide, a.guide, a.row]]) {
    if (!stale) continue;
    fs.writeFileSync(path.join(root, file), text);
    process.stdout.write(`${file}: written (was: ${stale.split('\n')[0].replace(/:$/, '')})\n`);
  }
}
if (a.drift) problems.push(a.drift);
if (problems.length) {
  process.stderr.write(problems.join('\n\n') + '\n');
  exit(1);
}
process.stdout.write(`${FILES.walk} and ${FILES.guide}: up to date with ${FILES.source}\n`);
