/** Depth of nested arrays/objects, walked with an explicit stack; stops once past `limit`. */
export function depthExceeds(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false
  const stack: unknown[] = [value]
  const depths: number[] = [1]
  while (stack.length > 0) {
    const v = stack.pop() as object
    const d = depths.pop()!
    if (d > limit) return true
    const children = Array.isArray(v) ? v : Object.values(v)
    for (const c of children) {
      if (c !== null && typeof c === 'object') {
        stack.push(c)
        depths.push(d + 1)
      }
    }
  }
  return false
}

/** A promise or any other thenable (a handler may answer synchronously). */
export function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function'
}
