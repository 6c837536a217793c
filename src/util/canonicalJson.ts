const HEX = /^0x[0-9a-f]*$/i

/**
 * One text for params that mean the same to a JSON-RPC node: object keys sorted, hex strings in lower
 * case (geth decodes hex case-insensitively), undefined as null, and the trailing nulls of the
 * top-level list dropped (geth reads a null in an optional position as the argument left out).
 */
export function canonicalJson(params: unknown): string {
  if (!Array.isArray(params)) return write(params)
  let end = params.length
  while (end > 0 && params[end - 1] == null) end--
  return write(params.slice(0, end))
}

function write(v: unknown): string {
  if (v === undefined || v === null) return 'null'
  if (typeof v === 'string') return JSON.stringify(HEX.test(v) ? v.toLowerCase() : v)
  if (Array.isArray(v)) return '[' + v.map(write).join(',') + ']'
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + write(o[k])).join(',') + '}'
  }
  return JSON.stringify(v) ?? 'null'
}
