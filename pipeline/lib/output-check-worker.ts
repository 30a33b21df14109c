/**
 * The worker thread of OutputChecker (output-check.ts): parses every line it is sent and checks it
 * against its contract schema, batch after batch in the order they were sent, and keeps the slugs
 * of the files that asked for them.
 */
import { parentPort } from 'node:worker_threads';
import { NDJSON_BUILD_FILES } from '../../contract/build.ts';
import { BuildError } from './errors.ts';
import type { LineBatch, CheckReply, CheckRequest } from './output-check.ts';
import { lineValidator } from './validate.ts';

const validators = new Map<string, (value: unknown, index: number) => void>();
const slugsByFile = new Map<string, string[]>();

function check(batch: LineBatch): void {
  const files = batch.files.map((f) => {
    let validate = validators.get(f.name);
    if (!validate) validators.set(f.name, (validate = lineValidator(f.name, NDJSON_BUILD_FILES[f.schema])));
    let slugs = f.keepSlugs ? slugsByFile.get(f.name) : undefined;
    if (f.keepSlugs && !slugs) slugsByFile.set(f.name, (slugs = []));
    return { ...f, validate, slugs };
  });
  const rows = files[0].lines.length;
  // row by row across the files, the order the pipeline always checked them in
  for (let row = 0; row < rows; row++) {
    const index = batch.first + row;
    for (const f of files) {
      let value: unknown;
      try {
        value = JSON.parse(f.lines[row]);
      } catch (err) {
        throw new BuildError('invalid_output', `${f.name}: line ${index + 1}: not JSON (${(err as Error).message})`);
      }
      f.validate(value, index);
      f.slugs?.push((value as { slug: string }).slug);
    }
  }
}

parentPort!.on('message', (request: CheckRequest) => {
  let reply: CheckReply;
  try {
    if (request.kind === 'batch') {
      check(request);
      reply = { id: request.id };
    } else {
      reply = { id: request.id, slugs: slugsByFile.get(request.file) ?? [] };
      slugsByFile.delete(request.file);
    }
  } catch (err) {
    reply = err instanceof BuildError
      ? { id: request.id, failure: { rule: err.rule, message: err.message.slice(err.rule.length + 2) } }
      : { id: request.id, failure: { message: (err as Error).stack ?? String(err) } };
  }
  parentPort!.postMessage(reply);
});
