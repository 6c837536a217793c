import { rawIds } from './rawIds.js'

/**
 * The answer to a batch over `batch-request-limit`, as geth writes it (rpc/handler.go
 * respondWithBatchTooLarge): an array holding one -32600 "batch too large" error, with the id of
 * the batch's first call (geth isCall: version 2.0, a method, an id that is not an object or array),
 * or null when it has none. Nothing in the batch runs.
 */
export function batchTooLargeText(items: unknown[], body: string): string {
  let id = 'null'
  for (let i = 0; i < items.length; i++) {
    const item = items[i]
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue
    const req = item as Record<string, unknown>
    if (req.jsonrpc !== '2.0' || typeof req.method !== 'string' || req.method === '' || !('id' in req)) continue
    const v = req.id
    if (v !== null && typeof v === 'object') continue
    // A number is echoed byte for byte, as geth keeps the raw token (docs/SECURITY.md, L5).
    id = typeof v === 'number' ? (rawIds(body)[i] ?? String(v)) : JSON.stringify(v)
    break
  }
  return '[{"jsonrpc":"2.0","id":' + id + ',"error":{"code":-32600,"message":"batch too large"}}]'
}
