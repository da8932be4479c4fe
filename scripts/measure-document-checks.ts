/**
 * `npx tsx scripts/measure-document-checks.ts`: the capture page's document checks measured on
 * the pictures of scripts/fixtures/document-checks.ts; DOCUMENT_LIMITS
 * (web/capture/quality/document-check.ts) was chosen from this table (docs/identity.md, "Checks before sending").
 */
import { judgeDocument, measureDocument } from '../web/capture/quality/document-check.js';
import { cases, pixels } from './fixtures/document-checks.js';

const rows: string[] = ['| picture | px | sharpness | glare | coverage | verdict |', '|---|---|---|---|---|---|'];
let wrong = 0;
for (const c of await cases()) {
  const m = measureDocument(await pixels(c.image));
  const verdict = judgeDocument(m);
  if (verdict !== c.expected) wrong++;
  rows.push(
    `| ${c.name} | ${m.width}×${m.height} | ${m.sharpness.toFixed(0)} | ${(m.glare * 100).toFixed(1)} % | ${m.coverage.toFixed(2)} | ${verdict ?? 'ok'}${verdict === c.expected ? '' : ` (expected ${c.expected ?? 'ok'})`} |`,
  );
}
console.log(rows.join('\n'));
if (wrong) console.log(`\n${wrong} picture(s) judged otherwise than expected`);
