import { privateToAddress } from '@ethereumjs/util'
import { fillTransaction } from '../engine/accounts/fillTransaction.js'
import type { CallRequest } from '../engine/base/types.js'
import type { Engine } from '../engine/engine.js'

/**
 * Fills a transaction from `key`'s account as eth_sendTransaction does (the pool's next nonce, coreth's
 * fee defaults, the chain ID; `gas` given, so nothing is estimated), signs it and sends it to the pool;
 * its hash.
 */
export async function sendSigned(engine: Engine, key: Uint8Array, req: Omit<CallRequest, 'from'> & { gas: bigint }): Promise<string> {
  const tx = (await fillTransaction(engine, { ...req, from: privateToAddress(key) })).sign(key)
  return engine.sendRawTransaction(tx.serialize())
}
