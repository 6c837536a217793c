import { z } from 'zod'
import { keccak256 } from '../util/crypto.js'
import { hex } from '../rpc/format.js'
import { Data } from '../rpc/schemas.js'
import { type MethodTable, inService, method } from '../rpc/types.js'

/** The client version string, geth-style name/version/os-arch/runtime. */
export const CLIENT_VERSION = `cchain-node/v0.1.0/${process.platform}-${process.arch}/node${process.versions.node}`

/** The `web3_` namespace. */
export function web3Methods(): MethodTable {
  return inService('web3', {
    /** Handler for `web3_clientVersion`. */
    web3_clientVersion: method(z.tuple([]), () => CLIENT_VERSION),
    /** Handler for `web3_sha3`: keccak-256 of the data. */
    web3_sha3: method(z.tuple([Data]), ([data]) => hex(keccak256(data))),
  })
}
