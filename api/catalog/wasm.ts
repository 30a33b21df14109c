/**
 * A WebAssembly module from functions written in a subset of WebAssembly's text format: one
 * instruction a line, flat (no folded expressions), `$name` for parameters, locals and labels,
 * every parameter an i32, a memory imported as `kernel.memory`. Enough for the kernels of
 * kernels.ts without a toolchain or a binary checked in; WebAssembly validates what it makes.
 */

/** Opcodes of the instructions read, by their text name. */
const OPCODES: Record<string, number> = {
  'block': 0x02, 'loop': 0x03, 'if': 0x04, 'else': 0x05, 'end': 0x0b, 'br': 0x0c, 'br_if': 0x0d,
  'local.get': 0x20, 'local.set': 0x21, 'local.tee': 0x22,
  'i32.load': 0x28, 'i64.load': 0x29, 'i32.store': 0x36, 'i64.store': 0x37, 'i32.store8': 0x3a,
  'i32.const': 0x41, 'i64.const': 0x42,
  'i32.eqz': 0x45, 'i32.ne': 0x47, 'i32.lt_u': 0x49, 'i32.ge_u': 0x4f,
  'i32.ctz': 0x68, 'i32.popcnt': 0x69, 'i32.add': 0x6a, 'i32.sub': 0x6b, 'i32.div_u': 0x6e, 'i32.rem_u': 0x70,
  'i32.and': 0x71, 'i32.shl': 0x74, 'i32.shr_u': 0x76,
  'i64.popcnt': 0x7b, 'i64.add': 0x7c, 'i64.and': 0x83, 'i64.xor': 0x85, 'i32.wrap_i64': 0xa7,
};
/** log2 of the natural alignment of each memory access */
const ALIGN: Record<string, number> = { 'i32.load': 2, 'i64.load': 3, 'i32.store': 2, 'i64.store': 3, 'i32.store8': 0 };
/** instructions of the prefixed opcode space, with their immediates (memory.copy: from memory 0 to memory 0) */
const PREFIXED: Record<string, number[]> = { 'memory.copy': [0xfc, 0x0a, 0x00, 0x00] };
const TYPES = { i32: 0x7f, i64: 0x7e } as const;

const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n ? low | 0x80 : low);
  } while (n);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const low = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(low & 0x40)) || (n === -1 && low & 0x40)) return [...out, low];
    out.push(low | 0x80);
  }
};
const text = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'latin1')];
const section = (id: number, content: number[]) => [id, ...uleb(content.length), ...content];

export interface Func {
  /** parameters, all i32 */
  params: string[];
  result?: 'i32';
  locals?: Record<string, keyof typeof TYPES>;
  /** instructions, one per line; `$name` names a parameter, a local or a label */
  body: string;
}

/** The binary of one function's body (locals and code). */
function assemble(name: string, f: Func): number[] {
  const locals = [...f.params, ...Object.keys(f.locals ?? {})];
  const labels: string[] = [];
  const code: number[] = [];
  const fail = (msg: string): never => { throw new Error(`wasm function ${name}: ${msg}`); };
  const local = (ref: string) => {
    const k = locals.indexOf(ref.replace(/^\$/, ''));
    return k >= 0 ? k : fail(`unknown local ${ref}`);
  };
  for (const raw of f.body.split('\n')) {
    const [op, arg] = raw.replace(/;;.*/, '').trim().split(/\s+/);
    if (!op) continue;
    if (op in PREFIXED) {
      code.push(...PREFIXED[op]);
      continue;
    }
    if (!(op in OPCODES)) fail(`unknown instruction ${op}`);
    code.push(OPCODES[op]);
    if (op === 'block' || op === 'loop' || op === 'if') {
      labels.push(arg ?? '');
      code.push(0x40);
    } else if (op === 'end') labels.pop();
    else if (op === 'br' || op === 'br_if') {
      const k = labels.lastIndexOf(arg);
      code.push(...uleb(k >= 0 ? labels.length - 1 - k : fail(`unknown label ${arg}`)));
    }
    else if (op.startsWith('local.')) code.push(...uleb(local(arg)));
    else if (op in ALIGN) code.push(ALIGN[op], 0);
    else if (op.endsWith('.const')) code.push(...sleb(Number(arg)));
  }
  if (labels.length) fail('a block is not ended');
  const declared = Object.values(f.locals ?? {}).map((t) => [1, TYPES[t]]);
  const body = [...uleb(declared.length), ...declared.flat(), ...code, OPCODES.end];
  return [...uleb(body.length), ...body];
}

/** The module of the functions, each exported by its name; it imports its memory as `kernel.memory`. */
export function assembleModule(functions: Record<string, Func>): WebAssembly.Module {
  const names = Object.keys(functions);
  const signatures = names.map((name) => {
    const f = functions[name];
    return [0x60, ...uleb(f.params.length), ...f.params.map(() => TYPES.i32), ...(f.result ? [1, TYPES.i32] : [0])];
  });
  return new WebAssembly.Module(new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [...uleb(names.length), ...signatures.flat()]), // function k has type k
    ...section(2, [1, ...text('kernel'), ...text('memory'), 0x02, 0x00, 1]), // imports a memory of at least a page
    ...section(3, [...uleb(names.length), ...names.flatMap((_, k) => uleb(k))]),
    ...section(7, [...uleb(names.length), ...names.flatMap((name, k) => [...text(name), 0x00, ...uleb(k)])]),
    ...section(10, [...uleb(names.length), ...names.flatMap((name) => assemble(name, functions[name]))]),
  ]));
}
