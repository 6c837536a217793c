/**
 * The generators' bytecode before it is laid out: opcodes, pushes of values, and forward jumps to
 * the start of a later chunk. A chunk is a short sequence with a purpose (push arguments, run one
 * opcode); shrinking drops whole chunks, so a counterexample stays valid code.
 */
export type Item = number | { push: bigint; wide?: boolean } | { jumpAhead: number }
export type Chunk = Item[]

const PUSH0 = 0x5f
const PUSH1 = 0x60
const PUSH2 = 0x61
const JUMPDEST = 0x5b

/** Lays chunks out as code: a JUMPDEST before each chunk some jump targets (or at the end, past the last). */
export function assemble(chunks: readonly Chunk[]): Uint8Array {
  const targets = new Set<number>()
  chunks.forEach((chunk, i) => {
    for (const item of chunk) if (typeof item === 'object' && 'jumpAhead' in item) targets.add(Math.min(i + item.jumpAhead, chunks.length))
  })
  const starts: number[] = []
  let offset = 0
  chunks.forEach((chunk, i) => {
    starts.push(offset)
    if (targets.has(i)) offset++
    for (const item of chunk) offset += itemSize(item)
  })
  starts.push(offset)
  const out: number[] = []
  chunks.forEach((chunk, i) => {
    if (targets.has(i)) out.push(JUMPDEST)
    for (const item of chunk) {
      if (typeof item === 'number') out.push(item)
      else if ('push' in item) out.push(...pushBytes(item.push, item.wide === true))
      else out.push(PUSH2, ...bytesOf(BigInt(starts[Math.min(i + item.jumpAhead, chunks.length)]!), 2))
    }
  })
  if (targets.has(chunks.length)) out.push(JUMPDEST)
  return Uint8Array.from(out)
}

function itemSize(item: Item): number {
  if (typeof item === 'number') return 1
  if ('push' in item) return pushBytes(item.push, item.wide === true).length
  return 3
}

/** PUSH0 for zero, else the narrowest PUSHn (PUSH32 when `wide`). */
export function pushBytes(value: bigint, wide = false): number[] {
  if (value === 0n && !wide) return [PUSH0]
  const width = wide ? 32 : Math.max(1, Math.ceil(value.toString(16).length / 2))
  return [PUSH1 + width - 1, ...bytesOf(value, width)]
}

/** `value` big-endian in `width` bytes. */
export function bytesOf(value: bigint, width: number): number[] {
  const out = new Array<number>(width)
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(value & 0xffn)
    value >>= 8n
  }
  return out
}
