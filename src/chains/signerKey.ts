import { formatAddress, parseAddress } from '../avalanche/address.js'
import { shortAddress, toChecksumAddress } from '../avalanche/signature.js'
import type { Engine } from '../engine/engine.js'
import { isImpersonatedTx } from '../engine/exec/impersonatedTx.js'

/** Blocks back from the head searched for a signature, and transactions looked at, at most. */
export const SIGNER_SCAN_BLOCKS = 2048
const SIGNER_SCAN_TXS = 20_000

/** The key behind an address, with its forms on each chain; or why it is not known. */
export type SignerKeyAnswer = { found: true; address: string; publicKey: string; shortAddress: string; X: string; P: string; C: string } | { found: false; error: string }

/** 33-byte compressed form of a 64-byte uncompressed key (x ‖ y, no 0x04). */
function compress(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(33)
  out[0] = (key[63]! & 1) === 1 ? 3 : 2
  out.set(key.subarray(0, 32), 1)
  return out
}

/**
 * The public key that signs for `text` (a 0x address, or an X-/P-/C- bech32 address), recovered from
 * the newest transaction it sent in the chain's last blocks. An EVM address and an Avalanche short
 * address are different hashes of one key (avalanche/signature.ts), so the key is the only bridge
 * between the C-Chain account and its X and P balances; an address that never signed has none.
 */
export function findSignerKey(engine: Engine, text: string, hrp: string): SignerKeyAnswer {
  let eth: string | undefined
  let short: string | undefined
  if (/^0x[0-9a-fA-F]{40}$/.test(text)) eth = text.slice(2).toLowerCase()
  else {
    let parsed: ReturnType<typeof parseAddress>
    try {
      parsed = parseAddress(text)
    } catch (err) {
      return { found: false, error: `not an address: ${(err as Error).message}` }
    }
    if (parsed.bytes.length !== 20) return { found: false, error: 'not an address: expected 20 bytes' }
    short = Buffer.from(parsed.bytes).toString('hex')
  }
  const head = engine.head.header.number
  let seen = 0
  for (let n = head; n >= 0n && n > head - BigInt(SIGNER_SCAN_BLOCKS) && seen < SIGNER_SCAN_TXS; n--) {
    const block = engine.findBlock(n)
    if (block === undefined) break
    for (let i = block.txs.length - 1; i >= 0; i--) {
      seen++
      const tx = block.txs[i]!
      // An impersonated tx (docs/DEV.md) carries no signature to recover.
      if (isImpersonatedTx(tx)) continue
      let publicKey: Uint8Array
      try {
        if (eth !== undefined && Buffer.from(tx.getSenderAddress().bytes).toString('hex') !== eth) continue
        publicKey = compress(tx.getSenderPublicKey())
      } catch {
        continue
      }
      const shortAddr = shortAddress(publicKey)
      if (short !== undefined && Buffer.from(shortAddr).toString('hex') !== short) continue
      const bech = (chain: string) => formatAddress(chain, hrp, shortAddr)
      return {
        found: true,
        address: toChecksumAddress(tx.getSenderAddress().bytes),
        publicKey: '0x' + Buffer.from(publicKey).toString('hex'),
        shortAddress: '0x' + Buffer.from(shortAddr).toString('hex'),
        X: bech('X'),
        P: bech('P'),
        C: bech('C'),
      }
    }
  }
  return { found: false, error: `no transaction signed by ${text} in the last ${SIGNER_SCAN_BLOCKS} blocks` }
}
