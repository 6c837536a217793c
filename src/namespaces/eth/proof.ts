import { z } from 'zod'
import { hex, quantity } from '../../rpc/format.js'
import { Address, BlockRef } from '../../rpc/schemas.js'
import { type MethodTable, type RpcContext, inService, method } from '../../rpc/types.js'

/**
 * geth's `storageKeys []string`: any strings (decoded by the handler after the proof window
 * check, as coreth does); a JSON null is an empty list, a null element an empty string.
 */
const StorageKeys = z.unknown().transform((v, ctx): string[] => {
  if (v === null) return []
  const bad = (what: string, type: string): never => {
    ctx.addIssue({ code: 'custom', message: `json: cannot unmarshal ${what} into Go value of type ${type}`, input: v })
    return z.NEVER as never
  }
  if (!Array.isArray(v)) return bad(goType(v), '[]string')
  return v.map((k) => (k === null ? '' : typeof k === 'string' ? k : bad(goType(k), 'string')))
})

function goType(v: unknown): string {
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'boolean') return 'bool'
  return typeof v === 'object' ? 'object' : typeof v
}

/** State proofs (EIP-1186). */
export function ethProofMethods(ctx: Pick<RpcContext, 'engine'>): MethodTable {
  const { engine } = ctx
  return inService('internal-blockchain', {
    /**
     * Handler for `eth_getProof`: account and storage proofs against the block's state root,
     * within coreth's historical proof window (coreth: internal/ethapi/api_extra.go, eth/backend.go). Fields and formats are geth's
     * AccountResult: `nonce`, `balance` and each `value` QUANTITY, hashes DATA 32 bytes. The block
     * defaults to `latest`, as in the execution-apis test get-account-proof-default-block.
     */
    eth_getProof: method(z.tuple([Address, StorageKeys, BlockRef.optional()]), async ([address, keys, ref]) => {
      const p = await engine.getProof(address, keys, ref ?? 'latest')
      return {
        address: hex(p.address),
        accountProof: p.accountProof.map(hex),
        balance: quantity(p.balance),
        codeHash: hex(p.codeHash),
        nonce: quantity(p.nonce),
        storageHash: hex(p.storageHash),
        storageProof: p.storageProof.map((s) => ({ key: s.key, value: quantity(s.value), proof: s.proof.map(hex) })),
      }
    }),
  })
}
