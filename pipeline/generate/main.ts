/**
 * Writes the input snapshot. `npm run generate` regenerates the committed sample in data/;
 * `--spaces 100000 --out bench-data/100k/data` writes a scale dataset, as the benchmark does (test/bench/).
 *
 *   tsx pipeline/generate/main.ts [--out DIR] [--spaces N] [--seed S]
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SEED, DEFAULT_SPACES, generate } from './generate.ts';

function positiveInt(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new Error(`--${name} must be an integer >= ${min}, got "${value}"`);
  }
  return Number(value);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'data' },
      spaces: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write('usage: tsx pipeline/generate/main.ts [--out DIR] [--spaces N] [--seed S]\n');
    return;
  }
  const spaces = positiveInt('spaces', values.spaces, DEFAULT_SPACES, 1);
  const seed = positiveInt('seed', values.seed, DEFAULT_SEED, 0);
  const started = performance.now();
  const stats = await generate({ outDir: values.out!, spaces, seed });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const rows = Object.entries(stats.rows).map(([t, n]) => `${t} ${n}`).join(', ');
  const flawed = Object.entries(stats.flawed).map(([k, n]) => `${k} ${n}`).join(', ');
  process.stderr.write(`generate: wrote ${values.out} (seed ${seed}, ${spaces} spaces) in ${seconds} s\n`);
  process.stderr.write(`generate: rows: ${rows}\n`);
  process.stderr.write(`generate: flawed price observations: ${flawed}\n`);
  const perCity = Object.entries(stats.spacesPerCity).sort((a, b) => b[1] - a[1]);
  const median = perCity[Math.floor(perCity.length / 2)][1];
  const top = perCity.slice(0, 3).map(([city, n]) => `${city} ${n}`).join(', ');
  process.stderr.write(`generate: spaces per city: ${top}; median ${median}, fewest ${perCity[perCity.length - 1][1]}; `
    + `${perCity.filter(([, n]) => n >= 40).length} cities with 40 or more, ${perCity.filter(([, n]) => n < 5).length} with fewer than 5\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`generate: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
