/**
 * Twenty-four broken inputs, each made in the test from the committed sample (data/), fed to the
 * pipeline CLI over a published build. A file that cannot be read fails the build with a rule,
 * the file and the row counted as rejects.csv counts rows (1 = the first row after the header),
 * in the operator's words, not DuckDB's; nothing is published and the previous build keeps
 * serving. A row-level fault is quarantined into rejects.csv instead; harmless variants publish,
 * with the data's time (asOf) and the history's months of the sample.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { BUILD_FAILURE_RULES, type BuildFailureRule } from '../../pipeline/lib/errors.ts';
import { main } from '../../pipeline/build.ts';
import { currentTarget } from '../support/pipeline-cli.ts';
import { tempDir } from '../support/pipeline-fixtures.ts';

type Files = Map<string, Buffer>;

const SAMPLE: Files = new Map(readdirSync('data').filter((f) => /\.(csv|json)$/.test(f)).map((f) => [f, readFileSync(path.join('data', f))]));

/** The sample's lines of a CSV file; the sample has no line breaks inside fields, so line n is row n (0 = the header). */
const lines = (files: Files, file: string) => files.get(file)!.toString('utf8').split('\n');
const setLines = (files: Files, file: string, list: string[]) => files.set(file, Buffer.from(list.join('\n'), 'utf8'));
/** The sample rows of a file (line 0 is the header; the file ends with a line break) */
const rowCount = (file: string) => lines(SAMPLE, file).length - 2;
const column = (file: string, name: string) => lines(SAMPLE, file)[0].split(',').indexOf(name);
/** Sets one field of a row of a file whose fields hold no comma (the sample's price_observations.csv, fx_reference.csv). */
function setField(files: Files, file: string, row: number, name: string, value: string): void {
  const list = lines(files, file);
  const fields = list[row].split(',');
  fields[column(file, name)] = value;
  list[row] = fields.join(',');
  setLines(files, file, list);
}

/** Windows-1252, as a spreadsheet on Windows saves "CSV": Latin-1 plus typographic punctuation. */
function windows1252(text: string): Buffer {
  const extra: Record<string, number> = { '€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };
  return Buffer.from([...text].map((c) => extra[c] ?? (c.charCodeAt(0) <= 0xff ? c.charCodeAt(0) : 0x3f)));
}

/** The first row of the sample's file with a character outside ASCII. */
const firstNonAsciiRow = (file: string) => lines(SAMPLE, file).findIndex((l) => /[^\x00-\x7f]/.test(l));

type Outcome =
  | { fails: BuildFailureRule; file: string; row: number | null; says?: RegExp }
  | { publishes: true; reject?: { file: string; row: number; rule: string; raw: RegExp } };

interface Fault { fault: string; change(files: Files): void; outcome: Outcome }

const PRICES = 'price_observations.csv';
const FX = 'fx_reference.csv';

const FAULTS: Fault[] = [
  {
    fault: 'a truncated row: the file ends in the middle of its last row',
    change: (f) => {
      const list = lines(f, PRICES);
      list.splice(-2, 2, list[list.length - 2].slice(0, 40));
      setLines(f, PRICES, list);
    },
    outcome: { fails: 'malformed_csv', file: PRICES, row: rowCount(PRICES), says: /cut short/ },
  },
  {
    fault: 'a quote cut in half: the closing quote of a field is missing',
    change: (f) => {
      const list = lines(f, 'spaces.csv');
      list[17] = list[17].replace('bike storage."', 'bike storage.');
      setLines(f, 'spaces.csv', list);
    },
    outcome: { fails: 'malformed_csv', file: 'spaces.csv', row: 17, says: /column excerpt_en: .*quote/ },
  },
  {
    fault: 'an extra header column the rows do not have',
    change: (f) => {
      const list = lines(f, PRICES);
      list[0] += ',discount';
      setLines(f, PRICES, list);
    },
    outcome: { fails: 'malformed_csv', file: PRICES, row: 1, says: /row 1 has 12 fields, the header 13 .*"discount"/ },
  },
  {
    fault: 'an unquoted comma inside a field',
    change: (f) => {
      const list = lines(f, PRICES);
      const fields = list[500].split(',');
      fields[column(PRICES, 'title')] = 'Fixed desk, window seat';
      list[500] = fields.join(',');
      setLines(f, PRICES, list);
    },
    outcome: { fails: 'malformed_csv', file: PRICES, row: 500, says: /13 fields, the header 12 \(a comma outside quotes\?\)/ },
  },
  {
    fault: 'a byte that is not UTF-8',
    change: (f) => {
      const list = lines(f, 'spaces.csv');
      const at = Buffer.byteLength(list.slice(0, 42).join('\n')) + 1 + list[42].indexOf(',') + 2;
      const bytes = Buffer.from(f.get('spaces.csv')!);
      bytes[at] = 0xff;
      f.set('spaces.csv', bytes);
    },
    outcome: { fails: 'bad_encoding', file: 'spaces.csv', row: 42, says: /column name: byte 0xFF is not UTF-8/ },
  },
  {
    fault: 'a Latin-1 (Windows-1252) file',
    change: (f) => f.set('cities.csv', windows1252(f.get('cities.csv')!.toString('utf8'))),
    outcome: { fails: 'bad_encoding', file: 'cities.csv', row: firstNonAsciiRow('cities.csv'), says: /rows are not UTF-8: the file looks Latin-1/ },
  },
  {
    fault: 'a NUL byte',
    change: (f) => {
      const list = lines(f, 'operators.csv');
      list[5] = list[5].replace(',', ',\0');
      setLines(f, 'operators.csv', list);
    },
    outcome: { fails: 'bad_encoding', file: 'operators.csv', row: 5, says: /column name: a NUL byte/ },
  },
  {
    fault: 'a row with too few columns',
    change: (f) => {
      const list = lines(f, PRICES);
      list[1000] = list[1000].slice(0, list[1000].lastIndexOf(','));
      setLines(f, PRICES, list);
    },
    outcome: { fails: 'malformed_csv', file: PRICES, row: 1000, says: /11 fields, the header 12/ },
  },
  {
    fault: 'an empty file',
    change: (f) => f.set('zones.csv', Buffer.alloc(0)),
    outcome: { fails: 'malformed_csv', file: 'zones.csv', row: 0, says: /empty/ },
  },
  {
    fault: 'a header only: every row gone',
    change: (f) => setLines(f, 'space_images.csv', [lines(f, 'space_images.csv')[0], '']),
    outcome: { fails: 'volume_shrink', file: 'space_images.csv', row: null, says: /rows fell from \d+ to 0/ },
  },
  {
    fault: 'a required column missing (misspelt in the header)',
    change: (f) => {
      const list = lines(f, 'spaces.csv');
      list[0] = list[0].replace(',capacity,', ',capacty,');
      setLines(f, 'spaces.csv', list);
    },
    outcome: { fails: 'missing_column', file: 'spaces.csv', row: 0, says: /column "capacity" missing/ },
  },
  {
    fault: 'a column named twice in the header',
    change: (f) => {
      const list = lines(f, 'zones.csv');
      list[0] = list[0].replace(',name_de,', ',name_en,');
      setLines(f, 'zones.csv', list);
    },
    outcome: { fails: 'duplicate_column', file: 'zones.csv', row: 0, says: /"name_en" twice/ },
  },
  {
    fault: 'the wrong delimiter (semicolons)',
    change: (f) => f.set('countries.csv', Buffer.from(stringify(parse(f.get('countries.csv')!), { delimiter: ';' }))),
    outcome: { fails: 'malformed_csv', file: 'countries.csv', row: 0, says: /separated by ";"/ },
  },
  {
    fault: 'config.json that is not JSON',
    change: (f) => f.set('config.json', Buffer.from(f.get('config.json')!.toString('utf8').replace(/\n}\s*$/, ',\n}\n'))),
    outcome: { fails: 'bad_config', file: 'config.json', row: null, says: /not valid JSON at line \d+, column \d+/ },
  },
  {
    fault: 'config.json of the wrong shape',
    change: (f) => f.set('config.json', Buffer.from(JSON.stringify({ ...JSON.parse(f.get('config.json')!.toString('utf8')), minSupportedBuild: 'one' }))),
    outcome: { fails: 'bad_config', file: 'config.json', row: null, says: /minSupportedBuild/ },
  },
  {
    fault: 'a UTF-8 byte order mark (accepted)',
    change: (f) => f.set('spaces.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), f.get('spaces.csv')!])),
    outcome: { publishes: true },
  },
  {
    fault: 'CRLF line endings (accepted)',
    change: (f) => f.set(PRICES, Buffer.from(f.get(PRICES)!.toString('utf8').replaceAll('\n', '\r\n'))),
    outcome: { publishes: true },
  },
  {
    fault: 'a decimal comma in a quoted amount (a row-level rule: quarantined)',
    change: (f) => {
      const list = lines(f, PRICES);
      const fields = list[700].split(',');
      fields[column(PRICES, 'amount')] = '"410,50"';
      list[700] = fields.join(',');
      setLines(f, PRICES, list);
    },
    outcome: { publishes: true, reject: { file: PRICES, row: 700, rule: 'bad_amount', raw: /"410,50"/ } },
  },
  {
    fault: 'an observation dated after the snapshot was extracted (a row-level rule: quarantined, asOf unmoved)',
    change: (f) => setField(f, PRICES, 1000, 'observed_at', '2031-01-15T09:00:00Z'),
    outcome: { publishes: true, reject: { file: PRICES, row: 1000, rule: 'future_date', raw: /2031-01-15T09:00:00Z/ } },
  },
  {
    fault: 'observations dated after the snapshot was extracted, more than 1% of them',
    change: (f) => { for (let row = 50; row <= rowCount(PRICES); row += 50) setField(f, PRICES, row, 'observed_at', '2031-01-15T09:00:00Z'); },
    outcome: { fails: 'future_date_threshold', file: PRICES, row: 50, says: /\(2\.0%, limit 1%\).*source\.json says it was extracted at 2026-/ },
  },
  // an exchange rate every price of its currency is converted with: the rate's file is named, not the prices'
  {
    fault: 'an exchange rate of zero',
    change: (f) => setField(f, FX, 2, 'units_per_eur', '0'),
    outcome: { fails: 'bad_number', file: FX, row: 2, says: /column units_per_eur: "0", not a positive number$/ },
  },
  {
    fault: 'a negative exchange rate',
    change: (f) => setField(f, FX, 6, 'units_per_eur', '-500'),
    outcome: { fails: 'bad_number', file: FX, row: 6, says: /column units_per_eur: "-500", not a positive number$/ },
  },
  {
    fault: 'an empty exchange rate',
    change: (f) => setField(f, FX, 3, 'units_per_eur', ''),
    outcome: { fails: 'bad_number', file: FX, row: 3, says: /column units_per_eur: empty, not a positive number$/ },
  },
  {
    fault: 'an exchange rate that is not a number (a decimal comma)',
    change: (f) => setField(f, FX, 4, 'units_per_eur', '"0,93"'),
    outcome: { fails: 'bad_number', file: FX, row: 4, says: /column units_per_eur: "0,93", not a positive number$/ },
  },
];

const table = (file: string) => file.replace(/\.csv$/, '');

const DUCKDB_JARGON = /strict_mode|null_padding|ignore_errors|Original Line|sniff|Possible (fix|Solution)|DuckDB|Invalid Input Error|CSV Error on Line|dialect/i;

function writeData(change: (files: Files) => void): string {
  const files: Files = new Map([...SAMPLE].map(([name, bytes]) => [name, Buffer.from(bytes)]));
  change(files);
  const dir = tempDir('desk-atlas-bad-input-');
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of files) writeFileSync(path.join(dir, name), bytes);
  return dir;
}

/** The pipeline's command line, in this process (a process per fault would not fit the test timeout of the file). */
async function pipeline(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(args, (text) => { stderr += text; });
  return { code, stderr };
}

let accepted: Promise<{ code: number; stderr: string }> | undefined;
/** The faults that publish share one build (a full build each would not fit the test timeout): they touch different things. */
function acceptedBuild() {
  accepted ??= pipeline(['--data', writeData((files) => {
    for (const { change, outcome } of FAULTS) if ('publishes' in outcome) change(files);
  }), '--dist', dist]);
  return accepted;
}

// Top-level tests, not a suite: each fault has the test timeout to itself.
const dist = tempDir();
let baselineCounts: Record<string, number> = {};
/** the sample's asOf and the months of its history */
let baselineTime: { asOf: string; months: string[] };
const timeOf = (build: string): typeof baselineTime => {
  const { asOf, months } = JSON.parse(readFileSync(path.join(build, 'price-history.json'), 'utf8'));
  return { asOf, months };
};

before(async () => {
  const run = await pipeline(['--data', writeData(() => {}), '--dist', dist]);
  assert.equal(run.code, 0, run.stderr);
  baselineCounts = JSON.parse(readFileSync(path.join(dist, 'current', 'manifest.json'), 'utf8')).rowCounts;
  baselineTime = timeOf(path.join(dist, 'current'));
});

it('has twenty-four faults, each failing rule one of the declared rules, each rule explained in pipeline/README.md', () => {
  assert.equal(FAULTS.length, 24);
  for (const { outcome } of FAULTS) if ('fails' in outcome) assert.ok(outcome.fails in BUILD_FAILURE_RULES);
  const readme = readFileSync('pipeline/README.md', 'utf8');
  for (const rule of Object.keys(BUILD_FAILURE_RULES)) assert.ok(readme.includes(`\`${rule}\``), `pipeline/README.md explains ${rule}`);
});

for (const { fault, change, outcome } of FAULTS) {
  it(`${fault}: ${'fails' in outcome ? `${outcome.fails}, ${outcome.file}${outcome.row === null ? '' : `, row ${outcome.row}`}` : outcome.reject ? `rejects.csv ${outcome.reject.rule}, row ${outcome.reject.row}` : 'publishes'}`, async (t) => {
    const serving = currentTarget(dist);
    const builds = readdirSync(path.join(dist, 'builds')).sort();
    const run = 'fails' in outcome ? await pipeline(['--data', writeData(change), '--dist', dist]) : await acceptedBuild();
    if ('fails' in outcome) {
      assert.equal(run.code, 1, run.stderr);
      const line = run.stderr.split('\n').find((l) => l.includes('build failed'));
      assert.ok(line, run.stderr);
      t.diagnostic(line);
      assert.ok(line.startsWith(`[pipeline] build failed, nothing published: ${outcome.fails}: ${outcome.file}: `), line);
      if (outcome.row !== null) assert.match(line, new RegExp(`\\brow ${outcome.row}\\b`));
      if (outcome.says) assert.match(line, outcome.says);
      assert.doesNotMatch(run.stderr, DUCKDB_JARGON);
      assert.equal(currentTarget(dist), serving, 'the previous build keeps serving');
      assert.deepEqual(readdirSync(path.join(dist, 'builds')).sort(), builds, 'nothing published, nothing left behind');
    } else {
      assert.equal(run.code, 0, run.stderr);
      const current = path.join(dist, 'current');
      const manifest = JSON.parse(readFileSync(path.join(current, 'manifest.json'), 'utf8'));
      for (const name of ['spaces', 'price_observations']) assert.equal(manifest.rowCounts[`input.${name}`], baselineCounts[`input.${name}`]);
      assert.deepEqual(timeOf(current), baselineTime, 'asOf and the history\'s months are the sample\'s');
      if (outcome.reject) {
        const rejects = parse(readFileSync(path.join(current, 'rejects.csv')), { columns: true }) as Record<string, string>[];
        const { file, row, rule, raw } = outcome.reject;
        const found = rejects.find((r) => r.file === file && Number(r.row) === row);
        assert.equal(found?.rule, rule, JSON.stringify(found));
        assert.match(found!.raw, raw);
        const rejectedHere = FAULTS.filter(({ outcome: o }) => 'publishes' in o && o.reject?.file === file).length;
        assert.equal(manifest.rowCounts[`input.${table(file)}.rejected`], baselineCounts[`input.${table(file)}.rejected`] + rejectedHere);
      }
    }
  });
}

