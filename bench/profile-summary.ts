// Summarises a V8 CPU profile (`node --cpu-prof`, or a bench run with BENCH_CPU_PROF=<dir>) as
// text: where the sampled time went by area (this project's folders, each package, Node's own
// code, V8's garbage collector, idle) and the functions with the most self time. The summaries
// kept in bench/profiles/ were written with it:
//   npm run bench:profile -- <file.cpuprofile> [top N]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const root = new URL('..', import.meta.url).pathname;

/** The area a frame's time is charged to: a package, a folder of src/, Node's internals or V8's own pseudo-frames. */
function areaOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') return functionName;
    return '(native)';
  }
  if (url.startsWith('node:')) return 'node: internals';
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  const rel = relative(root, path);
  if (rel.startsWith('src/')) return rel.split('/').slice(0, 2).join('/');
  return rel.startsWith('..') ? path : rel;
}

function summarise(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = Math.max(0, profile.timeDeltas[i] ?? 0);
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)!;
    const area = areaOf(callFrame.url, callFrame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    if (area === '(idle)') {
      idle += us;
      continue;
    }
    const name = `${callFrame.functionName || '(anonymous)'} ${area}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us: number, of: number) => `${((100 * us) / (of || 1)).toFixed(1)} %`;
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .filter(([k]) => k !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `| ${k.replaceAll('|', '\\|')} | ${(us / 1000).toFixed(0)} | ${pct(us, busy)} |`);
  return [
    `Sampled ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (${pct(busy, total)}); shares below are of the busy time.`,
    '',
    '| area | self ms | share |',
    '|---|---:|---:|',
    ...rows(areas, 20),
    '',
    '| function | self ms | share |',
    '|---|---:|---:|',
    ...rows(functions, top),
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: npm run bench:profile -- <file.cpuprofile> [top N]');
    process.exit(2);
  }
  process.stdout.write(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(top ?? 25)));
}
