import { z } from 'zod'
import type { RequestLogging } from '../../dev/requestLogging.js'
import { type MethodTable, method } from '../../rpc/types.js'

/** Request logging on or off (anvil's name answers null, hardhat's true). */
export function loggingMethods(logging: RequestLogging): MethodTable {
  const set = (answer: null | true) =>
    method(z.tuple([z.boolean()]), ([on]) => {
      logging.setEnabled(on)
      return answer
    })
  return {
    /** Handler for `anvil_setLoggingEnabled`: each JSON-RPC call logged (debug lines of the `rpc` logger) while on. */
    anvil_setLoggingEnabled: set(null),
    hardhat_setLoggingEnabled: set(true),
  }
}
