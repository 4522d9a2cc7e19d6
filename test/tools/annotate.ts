// npm run annotate [-- --check] [--root DIR]
// Makes parts 2 and 3 of the walk-through (`annotated/micromax.ts.md`) from `micromax.ts`, whose
// comments are their prose, and writes the minutes of the reading path's row for them in
// `annotated/README.md`, by the guide's model; and makes test/README.md's table of every file from
// each file's header (`test/support/every-file.ts`). Part 1, the engine, is written by hand: this
// lists every line where it no longer quotes part 1 of `micromax.ts`, and which side changed last.
// `--check` changes nothing and exits 1 naming the first stale line of each made text, and every
// line where part 1 drifted.
//
// (test/support/walk.ts and every-file.ts do the work; test/annotated.test.ts and
// test/layout.test.ts run the same checks.)
//
// time: seconds

import * as fs from 'node:fs';
import * as path from 'node:path';
import { cannot, exit, readOptions, userPath } from '../support/options.ts';
import { ROOT } from '../support/run.ts';
import { CannotList, listFiles, README } from '../support/every-file.ts';
import { annotate, CannotMake, FILES } from '../support/walk.ts';

const TOOL = 'annotate';
const USAGE = `usage: npm run annotate [-- --check] [--root DIR]
Makes parts 2 and 3 of annotated/micromax.ts.md from micromax.ts (each comment that starts a line
is the prose above the code after it; '// ### Title' is a heading) and sets the reading path's
minutes for them in annotated/README.md. Part 1 is written by hand: every line where it no longer
quotes part 1 of micromax.ts is listed, with the side that changed last (from git). And makes
test/README.md's table of every file from each file's header (test/support/every-file.ts).
  --check       change nothing: exit 1 naming the first stale line of the made part, a stale row,
                the first stale line of test/README.md's table, and every line where part 1 drifted
  --root DIR    the project to read (default: this one)
Exit 0: up to date (or written); 1: stale (--check) or part 1 drifted; 2: cannot make it (a
comment Markdown would misread, a file not in its shape, a header with no first paragraph).
`;

const { values: v } = readOptions(TOOL, USAGE, { check: { type: 'boolean' }, root: { type: 'string' } });
const root = v.root === undefined ? ROOT : userPath(v.root);

let a, list;
try {
  a = annotate(root);
  list = listFiles(root);
} catch (err) {
  if (err instanceof CannotMake || err instanceof CannotList || (err as NodeJS.ErrnoException).code === 'ENOENT') {
    cannot(TOOL, (err as Error).message);
  }
  throw err;
}
const problems: string[] = [];
if (v.check) {
  if (a.stale) problems.push(`${a.stale}\n(npm run annotate makes parts 2 and 3 anew)`);
  if (a.row) problems.push(`${a.row}\n(npm run annotate sets it)`);
  if (list.stale) problems.push(`${list.stale}\n(each row is made from its file's header: change the header, then run npm run annotate)`);
} else {
  for (const [file, text, stale] of [[FILES.walk, a.walk, a.stale], [FILES.guide, a.guide, a.row], [README, list.readme, list.stale]]) {
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
process.stdout.write(`${FILES.walk} and ${FILES.guide}: up to date with ${FILES.source}; ${README}'s table with the files' headers\n`);
