/**
 * What the search field takes, and where it leads: a block number, a 32-byte hash (a transaction's,
 * else a block's), a 0x address, an X-/P-/C- address, or a CB58 ID (an atomic, X-Chain or P-Chain tx).
 */
import { cb58Decode, parseAddress } from './bytes.js'
import type { Ctx } from './context.js'

export type SearchResult = { route: string } | { error: string }

export async function resolveSearch(ctx: Ctx, raw: string): Promise<SearchResult> {
  const q = raw.trim()
  if (q === '') return { error: 'Type a block number or hash, a transaction hash, an address or an atomic transaction ID.' }
  if (/^\d+$/.test(q)) return { route: ctx.r(`/block/${BigInt(q)}`) }
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
    if ((await ctx.api.call('eth_getTransactionByHash', [q])) !== null) return { route: ctx.r(`/tx/${q.toLowerCase()}`) }
    if ((await ctx.api.call('eth_getBlockByHash', [q, false])) !== null) return { route: ctx.r(`/block/${q.toLowerCase()}`) }
    return { error: `No transaction or block has the hash ${q} on this chain.` }
  }
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) return { route: ctx.r(`/address/${q}`) }
  if (/^[A-Za-z][A-Za-z0-9]*-/.test(q)) {
    const parsed = parseAddress(q)
    if (parsed === undefined || parsed.bytes.length !== 20) return { error: `${q} is not a valid X-, P- or C- address.` }
    return { route: ctx.r(`/address/${q}`) }
  }
  const id = cb58Decode(q)
  if (id !== undefined && id.length === 32) return { route: ctx.r(`/atomic/${q}`) }
  return { error: `Nothing matches ${q}: not a block number or hash, a transaction hash, an address or a transaction ID.` }
}
