import { bytesToHex, toChecksumAddress } from '@ethereumjs/util'
import { z } from 'zod'
import type { Relayer } from '../icm/relayer.js'
import { Hash32 } from '../rpc/schemas.js'
import { type MethodTable, method } from '../rpc/types.js'

/**
 * The node's relayer at every EVM chain's endpoint (docs/ICM.md): what it is, what is waiting, and a
 * delivery on demand (manual mode, or a retry).
 */
export function icmMethods(relayer: Relayer): MethodTable {
  return {
    /** Handler for `icm_getRelayer`: `{mode, address, messenger}`. */
    icm_getRelayer: method(z.tuple([]), () => ({ mode: relayer.opts.mode, address: toChecksumAddress(bytesToHex(relayer.address)), messenger: toChecksumAddress(bytesToHex(relayer.opts.messenger)) })),
    /** Handler for `icm_pendingMessages`: every message sent on the node's chains and not received on its destination. */
    icm_pendingMessages: method(z.tuple([]), () => relayer.pending()),
    /** Handler for `icm_deliverMessage`: delivers one message now; the delivery's transaction hash. */
    icm_deliverMessage: method(z.tuple([Hash32]), ([id]) => relayer.deliver(id)),
  }
}
