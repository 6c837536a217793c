import { z } from 'zod'
import { resolveEthApis } from '../../ethApiNames.js'
import type { Impersonation } from '../../dev/impersonation.js'
import { DevError } from '../../dev/errors.js'
import { methodNotFound } from '../../rpc/errors.js'
import { Address, CallRequest } from '../../rpc/schemas.js'
import { type MethodTable, inServiceOne, method } from '../../rpc/types.js'

const SEND = 'eth_sendTransaction'

/**
 * Impersonation (anvil's semantics): anvil's names answer null; hardhat's answer true, and for
 * stopping whether the address was impersonated (hardhat: edr_provider requests/hardhat/accounts.rs).
 */
export function accountMethods(impersonation: Impersonation): MethodTable {
  const impersonate = (answer: null | true) =>
    method(z.tuple([Address]), ([a]) => {
      impersonation.impersonate(a)
      return answer
    })
  // anvil answers hardhat's name too (anvil: crates/anvil/core/src/eth/mod.rs).
  const autoImpersonate = method(z.tuple([z.boolean()]), ([on]) => {
    impersonation.setAuto(on)
    return null
  })
  return {
    /** Handler for `anvil_impersonateAccount`: eth_sendTransaction from the address needs no key. */
    anvil_impersonateAccount: impersonate(null),
    hardhat_impersonateAccount: impersonate(true),
    /** Handler for `anvil_stopImpersonatingAccount`. */
    anvil_stopImpersonatingAccount: method(z.tuple([Address]), ([a]) => {
      impersonation.stop(a)
      return null
    }),
    hardhat_stopImpersonatingAccount: method(z.tuple([Address]), ([a]) => impersonation.stop(a)),
    /** Handler for `eth_sendUnsignedTransaction` (anvil's): sent as `from` with no signature, impersonated or not. */
    eth_sendUnsignedTransaction: method(z.tuple([CallRequest]), ([req]) => {
      if (req.from === undefined) throw new DevError('No signer available')
      return impersonation.send(req)
    }),
    /** Handler for `anvil_autoImpersonateAccount`: every sender impersonated while true. */
    anvil_autoImpersonateAccount: autoImpersonate,
    hardhat_autoImpersonateAccount: autoImpersonate,
  }
}

/**
 * eth_sendTransaction with impersonation: an impersonated sender's transaction goes to the pool
 * unsigned (src/dev/impersonation.ts); any other is the served method's (a keystore account's), or
 * where that one is off (no `internal-account`), the -32601 it answered before. Applied to the
 * served table when the development methods are in it and `internal-transaction` (eth_sendTransaction's
 * coreth service) is on: impersonation stands in for the keystore, not for the service.
 */
export function withImpersonation(served: MethodTable, impersonation: Impersonation, ethApis: readonly string[]): MethodTable {
  if (!Object.hasOwn(served, 'anvil_impersonateAccount') || !resolveEthApis(ethApis).has('internal-transaction')) return served
  const signer = served[SEND]
  const send = method(z.tuple([CallRequest]), (params, call, origin, cancel, raw) => {
    if (impersonation.covers(params[0].from)) return impersonation.send(params[0])
    if (signer === undefined) throw methodNotFound(SEND)
    return signer.handler(params, call, origin, cancel, raw)
  })
  return { ...served, [SEND]: inServiceOne('dev', send) }
}
