/**
 * The inner loops of facet counting as WebAssembly, for what JavaScript lacks: the processor's
 * population count and count of trailing zeros (a 32-bit popcount costs JavaScript a dozen
 * operations), and loops over typed memory without bounds checks and deoptimization. A facet over
 * twenty amenities under a wide context costs a few microseconds instead of a few hundred.
 *
 * The functions are written below in WebAssembly's text format (the subset wasm.ts reads) and
 * assembled when the module loads. Each user makes an instance with a memory of its own, lays
 * its arrays out in it (KernelMemory) and passes byte offsets; every value is an i32.
 */
import { assembleModule, type Func } from './wasm.ts';

/**
 * Sets local `out` to the members of ctx before the listing in local `i` (prefixCounts made
 * `prefix` for its words [lo, hi); `total`: its members). Uses local w.
 */
const membersBefore = (i: string, out: string) => `
      local.get $${i}
      i32.const 5
      i32.shr_u
      local.tee $w
      local.get $lo
      i32.lt_u
      if
        i32.const 0
        local.set $${out}
      else
        local.get $w
        local.get $hi
        i32.ge_u
        if
          local.get $total
          local.set $${out}
        else
          local.get $prefix
          local.get $w
          local.get $lo
          i32.sub
          i32.const 2
          i32.shl
          i32.add
          i32.load
          ${address('ctx', 'w')}
          i32.load
          i32.const 1
          local.get $${i}
          i32.shl
          i32.const 1
          i32.sub
          i32.and
          i32.popcnt
          i32.add
          local.set $${out}
        end
      end`;

/** The address of the i32 at index `index` of the array at `array` (both locals): array + 4 × index. */
const address = (array: string, index: string) => `
      local.get $${array}
      local.get $${index}
      i32.const 2
      i32.shl
      i32.add`;

/** The address `offset` bytes into the array at `array` (both locals). */
const bytesAt = (array: string, offset: string) => `
      local.get $${array}
      local.get $${offset}
      i32.add`;

/**
 * `body` for each value of local `i` from where it is up to local `end` (excluded), by `step`:
 * `br $<i>_done` leaves the loop, `br $<i>_loop` goes on with the same value.
 */
const upTo = (i: string, end: string, body: string, step = 1) => `
      block $${i}_done
      loop $${i}_loop
        local.get $${i}
        local.get $${end}
        i32.ge_u
        br_if $${i}_done
        ${body}
        local.get $${i}
        i32.const ${step}
        i32.add
        local.set $${i}
        br $${i}_loop
      end
      end`;

/**
 * The loop of andInto and andNot: for each 64-bit word at byte p of [lo, hi), out[p] := `combine`
 * of a[p] and b[p] (the two i64 on the stack, a's first).
 */
const eachWord = (out: string, a: string, b: string, combine: string) => `
      ${upTo('lo', 'hi', `
        ${bytesAt(out, 'lo')}
        ${bytesAt(a, 'lo')}
        i64.load
        ${bytesAt(b, 'lo')}
        i64.load
        ${combine}
        i64.store`, 8)}`;

/**
 * Lists the id in local `id` in touched when local `count` is above 0, without a branch (whether a
 * value was counted is as good as random, and a mispredicted branch costs more than the store):
 * touched[found] = id, found += 1 if count is not 0.
 */
const listIfCounted = (id: string, count: string) => `
      ${address('touched', 'found')}
      local.get $${id}
      i32.store
      local.get $found
      local.get $${count}
      i32.const 0
      i32.ne
      i32.add
      local.set $found`;

/** Appends the id in local `id` to touched: touched[found] = id, found += 1. */
const listIn = (id: string) => `
      ${address('touched', 'found')}
      local.get $${id}
      i32.store
      local.get $found
      i32.const 1
      i32.add
      local.set $found`;

/**
 * The loop of tallyMembers and countMembers: for each member i of ctx in its words [lo, hi),
 * v = valueIds[i] and c = counts[v] (its count before), counts[v] = c + 1, then `counted`.
 */
const eachMember = (counted: string) => `
      local.get $lo
      local.set $w
      ${upTo('w', 'hi', `
        ${address('ctx', 'w')}
        i32.load
        local.set $x
        block $word_done
        loop $members
          local.get $x
          i32.eqz
          br_if $word_done
          local.get $counts
          local.get $valueIds
          local.get $w
          i32.const 5
          i32.shl
          local.get $x
          i32.ctz
          i32.add
          i32.const 2
          i32.shl
          i32.add
          i32.load
          local.tee $v
          i32.const 2
          i32.shl
          i32.add
          local.tee $at
          local.get $at
          i32.load
          local.tee $c
          i32.const 1
          i32.add
          i32.store
          ${counted}
          local.get $x
          local.get $x
          i32.const 1
          i32.sub
          i32.and
          local.set $x
          br $members
        end
        end`)}`;

const KERNELS = {
  /**
   * For each of `count` bitsets, `stride` bytes apart from `sets`: |ctx ∩ set| over the bytes
   * [lo, hi) (multiples of 8, where ctx may have members), stored as an i32 at out, out + 4, …
   */
  countEach: {
    params: ['ctx', 'sets', 'count', 'stride', 'lo', 'hi', 'out'],
    locals: { p: 'i32', sum: 'i64' },
    body: `
      block $done
      loop $each
        local.get $count
        i32.eqz
        br_if $done
        i64.const 0
        local.set $sum
        local.get $lo
        local.set $p
        ${upTo('p', 'hi', `
          local.get $sum
          local.get $ctx
          local.get $p
          i32.add
          i64.load
          local.get $sets
          local.get $p
          i32.add
          i64.load
          i64.and
          i64.popcnt
          i64.add
          local.set $sum`, 8)}
        local.get $out
        local.get $sum
        i32.wrap_i64
        i32.store
        local.get $out
        i32.const 4
        i32.add
        local.set $out
        local.get $sets
        local.get $stride
        i32.add
        local.set $sets
        local.get $count
        i32.const 1
        i32.sub
        local.set $count
        br $each
      end
      end`,
  },
  /** The bitset at `target` := target ∩ the bitset at `other`, over the bytes [lo, hi) (multiples of 8). */
  andInto: {
    params: ['target', 'other', 'lo', 'hi'],
    body: eachWord('target', 'target', 'other', 'i64.and'),
  },
  /** The bitset at `out` := the bitset at `a` less the one at `b`, over the bytes [lo, hi) (multiples of 8). */
  andNot: {
    params: ['out', 'a', 'b', 'lo', 'hi'],
    body: eachWord('out', 'a', 'b', `
        i64.const -1
        i64.xor
        i64.and`),
  },
  /** The members of the bitset at `ctx` in the bytes [lo, hi) (multiples of 8). */
  countBits: {
    params: ['ctx', 'lo', 'hi'],
    result: 'i32',
    locals: { sum: 'i64' },
    body: `
      ${upTo('lo', 'hi', `
        local.get $sum
        local.get $ctx
        local.get $lo
        i32.add
        i64.load
        i64.popcnt
        i64.add
        local.set $sum`, 8)}
      local.get $sum
      i32.wrap_i64`,
  },
  /** prefix[k]: the members of ctx in its words [lo, lo + k), for k in [0, hi - lo] (i32 words) */
  prefixCounts: {
    params: ['ctx', 'lo', 'hi', 'prefix'],
    locals: { w: 'i32', sum: 'i32' },
    body: `
      local.get $prefix
      i32.const 0
      i32.store
      local.get $lo
      local.set $w
      ${upTo('w', 'hi', `
        local.get $prefix
        i32.const 4
        i32.add
        local.tee $prefix
        local.get $sum
        ${address('ctx', 'w')}
        i32.load
        i32.popcnt
        i32.add
        local.tee $sum
        i32.store`)}`,
  },
  /**
   * The members of ctx in each range of listings [start[id], end[id]) (i32 arrays by value id),
   * visiting the ids of byStart from index `first` while their ranges start before word hi:
   * counts[id] for each (0 for a range without members: its counter was 0), and the ids counted
   * above 0 in touched; returns how many. Places mostly
   * follow one another: a range's start is then the last one's end, counted already.
   */
  countRanges: {
    params: ['ctx', 'lo', 'hi', 'prefix', 'total', 'start', 'end', 'byStart', 'first', 'size', 'counts', 'touched'],
    result: 'i32',
    locals: { k: 'i32', id: 'i32', from: 'i32', s: 'i32', lastEnd: 'i32', beforeLastEnd: 'i32', c: 'i32', found: 'i32', w: 'i32' },
    body: `
      i32.const -1
      local.set $lastEnd
      local.get $first
      local.set $k
      ${upTo('k', 'size', `
        ${address('byStart', 'k')}
        i32.load
        local.set $id
        ${address('start', 'id')}
        i32.load
        local.tee $s
        local.get $hi
        i32.const 5
        i32.shl
        i32.ge_u
        br_if $k_done
        local.get $beforeLastEnd
        local.set $from
        local.get $s
        local.get $lastEnd
        i32.ne
        if
          ${membersBefore('s', 'from')}
        end
        ${address('end', 'id')}
        i32.load
        local.set $lastEnd
        ${membersBefore('lastEnd', 'beforeLastEnd')}
        ${address('counts', 'id')}
        local.get $beforeLastEnd
        local.get $from
        i32.sub
        local.tee $c
        i32.store
        ${listIfCounted('id', 'c')}`)}
      local.get $found`,
  },
  /** Adds 1 to counts[valueIds[i]] for each member i of ctx in its words [lo, hi) (valueIds: an i32 per listing, never negative). */
  tallyMembers: {
    params: ['ctx', 'lo', 'hi', 'valueIds', 'counts'],
    locals: { w: 'i32', x: 'i32', v: 'i32', at: 'i32', c: 'i32' },
    body: eachMember(''),
  },
  /**
   * tallyMembers that lists in touched each id counted from 0 but `none` (the id of the listings
   * without a value); returns how many: for a context with few members, whose ids are not worth a
   * look at every value (collectTouched).
   */
  countMembers: {
    params: ['ctx', 'lo', 'hi', 'valueIds', 'counts', 'touched', 'none'],
    result: 'i32',
    locals: { w: 'i32', x: 'i32', v: 'i32', at: 'i32', c: 'i32', found: 'i32' },
    body: `${eachMember(`
      local.get $c
      i32.eqz
      if
        local.get $v
        local.get $none
        i32.ne
        if
          ${listIn('v')}
        end
      end`)}
      local.get $found`,
  },
  /** Lists in touched the ids v < size with counts[v] above 0; returns how many. */
  collectTouched: {
    params: ['counts', 'size', 'touched'],
    result: 'i32',
    locals: { v: 'i32', c: 'i32', found: 'i32' },
    body: `
      ${upTo('v', 'size', `
        ${address('counts', 'v')}
        i32.load
        local.set $c
        ${listIfCounted('v', 'c')}`)}
      local.get $found`,
  },
  /**
   * The members of ctx among the listings of each of `size` values (value v holds the listings
   * members[starts[v] .. starts[v + 1]), i32 arrays): counts[v] for each (0 for none: it was 0),
   * and the ids counted above 0 in touched; returns how many.
   */
  countGroups: {
    params: ['ctx', 'starts', 'members', 'size', 'counts', 'touched'],
    result: 'i32',
    locals: { v: 'i32', j: 'i32', end: 'i32', i: 'i32', c: 'i32', found: 'i32' },
    body: `
      local.get $starts
      i32.load
      local.set $j
      ${upTo('v', 'size', `
        local.get $starts
        local.get $v
        i32.const 1
        i32.add
        i32.const 2
        i32.shl
        i32.add
        i32.load
        local.set $end
        i32.const 0
        local.set $c
        ${upTo('j', 'end', `
          local.get $c
          local.get $ctx
          ${address('members', 'j')}
          i32.load
          local.tee $i
          i32.const 5
          i32.shr_u
          i32.const 2
          i32.shl
          i32.add
          i32.load
          local.get $i
          i32.shr_u
          i32.const 1
          i32.and
          i32.add
          local.set $c`)}
        ${address('counts', 'v')}
        local.get $c
        i32.store
        ${listIfCounted('v', 'c')}`)}
      local.get $found`,
  },
  /**
   * Writes at `out` the values ids[0 .. size) (i32 ids) comma-separated, each as its fragment
   * (value v: the bytes fragments[offsets[v] .. offsets[v + 1]), i32 offsets, `{"value":…,"count":`),
   * its count from counts (an i32 per entry of ids) in decimal and `}`; returns the bytes written.
   */
  writeValues: {
    params: ['fragments', 'offsets', 'ids', 'counts', 'size', 'out'],
    result: 'i32',
    locals: { p: 'i32', k: 'i32', from: 'i32', length: 'i32', c: 'i32', digits: 'i32', q: 'i32' },
    body: `
      local.get $out
      local.set $p
      ${upTo('k', 'size', `
        local.get $k
        if
          local.get $p
          i32.const 44 ;; ,
          i32.store8
          local.get $p
          i32.const 1
          i32.add
          local.set $p
        end
        local.get $offsets
        ${address('ids', 'k')}
        i32.load
        i32.const 2
        i32.shl
        i32.add
        local.tee $from
        i32.const 4
        i32.add
        i32.load
        local.get $from
        i32.load
        local.tee $from
        i32.sub
        local.set $length
        local.get $p
        local.get $fragments
        local.get $from
        i32.add
        local.get $length
        memory.copy
        local.get $p
        local.get $length
        i32.add
        local.set $p
        ${address('counts', 'k')}
        i32.load
        local.tee $c
        local.set $q
        i32.const 1
        local.set $digits
        block $counted
        loop $count_digits
          local.get $q
          i32.const 10
          i32.lt_u
          br_if $counted
          local.get $q
          i32.const 10
          i32.div_u
          local.set $q
          local.get $digits
          i32.const 1
          i32.add
          local.set $digits
          br $count_digits
        end
        end
        local.get $p
        local.get $digits
        i32.add
        local.tee $p
        local.set $q
        loop $write_digits
          local.get $q
          i32.const 1
          i32.sub
          local.tee $q
          local.get $c
          i32.const 10
          i32.rem_u
          i32.const 48 ;; 0
          i32.add
          i32.store8
          local.get $c
          i32.const 10
          i32.div_u
          local.tee $c
          br_if $write_digits
        end
        local.get $p
        i32.const 125 ;; }
        i32.store8
        local.get $p
        i32.const 1
        i32.add
        local.set $p`)}
      local.get $p
      local.get $out
      i32.sub`,
  },
} satisfies Record<string, Func>;

const MODULE = assembleModule(KERNELS);

export type Kernels = { [K in keyof typeof KERNELS]: (...args: number[]) => number };

const PAGE = 64 * 1024;
const ARRAYS = { int32: Int32Array, uint32: Uint32Array, uint8: Uint8Array } as const;
type ArrayType = keyof typeof ARRAYS;
type View = Int32Array | Uint32Array | Uint8Array;

/** An array placed in a KernelMemory: its byte offset, for the kernels, and its view once the memory is open. */
export class Placed<T extends View> {
  view!: T;
  constructor(readonly at: number, readonly length: number, readonly type: ArrayType, readonly init?: ArrayLike<number>) {}
}

/**
 * A memory of the kernels' own, laid out once: arrays are placed (`int32`, `uint32`, `uint8`)
 * while it is planned, and have their views once `open` has made the memory. Every array starts
 * at a multiple of 8 bytes and is followed by 8 zero bytes: the bitset kernels read and write
 * whole pairs of 32-bit words, and the pair of a last word is its pad, which stays zero (what
 * andInto and andNot store there is a zero word ANDed with another).
 */
export class KernelMemory {
  private size = 0;
  private readonly placed: Placed<View>[] = [];
  private opened = false;

  int32(length: number, init?: ArrayLike<number>): Placed<Int32Array> { return this.place<Int32Array>('int32', length, init); }
  uint32(length: number, init?: ArrayLike<number>): Placed<Uint32Array> { return this.place<Uint32Array>('uint32', length, init); }
  uint8(length: number, init?: ArrayLike<number>): Placed<Uint8Array> { return this.place<Uint8Array>('uint8', length, init); }

  private place<T extends View>(type: ArrayType, length: number, init?: ArrayLike<number>): Placed<T> {
    if (this.opened) throw new Error('KernelMemory: arrays are placed before it is opened');
    const p = new Placed<T>(this.size, length, type, init);
    this.placed.push(p as Placed<View>);
    this.size += Math.ceil((ARRAYS[type].BYTES_PER_ELEMENT * length) / 8) * 8 + 8;
    return p;
  }

  /** Makes the memory, the arrays' views and the kernels' instance. */
  open(): Kernels {
    this.opened = true;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(this.size / PAGE)) });
    for (const p of this.placed) {
      p.view = new ARRAYS[p.type](memory.buffer, p.at, p.length) as View;
      if (p.init) p.view.set(p.init);
    }
    return new WebAssembly.Instance(MODULE, { kernel: { memory } }).exports as Kernels;
  }
}
