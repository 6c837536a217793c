import { z } from 'zod'
import type { NodeConfig } from '../config.js'
import { keccak256 } from '../util/crypto.js'
import { hex } from '../rpc/format.js'
import { Data } from '../rpc/schemas.js'
import { type MethodTable, inService, method } from '../rpc/types.js'

/** The client version string, geth-style name/version/os-arch/runtime. */
export const CLIENT_VERSION = `cchain-node/v0.1.0/${process.platform}-${process.arch}/node${process.versions.node}`

/**
 * What leads CLIENT_VERSION where the development controls are on, by `--dev-client-version`: the
 * tools that drive them check the start of this answer (hardhat-network-helpers 1.0.9 src/utils.ts
 * checkIfHardhatNetwork: lowercased, starts with `hardhatnetwork`; 1.0.10 and later also `anvil`;
 * @openzeppelin/upgrades-core src/provider.ts isDevelopmentNetwork: the name before the first `/`).
 */
const DEV_PREFIXES: Record<NodeConfig['devClientVersion'], string> = { hardhat: 'HardhatNetwork/', anvil: 'anvil/', plain: '' }

/** web3_clientVersion's answer: CLIENT_VERSION, led by the chosen identity where the development controls are served (`dev` undefined: they are not). */
export function clientVersion(dev: NodeConfig['devClientVersion'] | undefined): string {
  return dev === undefined ? CLIENT_VERSION : DEV_PREFIXES[dev] + CLIENT_VERSION
}

/** The `web3_` namespace; `version` is clientVersion()'s answer. */
export function web3Methods(version: string): MethodTable {
  return inService('web3', {
    /** Handler for `web3_clientVersion`. */
    web3_clientVersion: method(z.tuple([]), () => version),
    /** Handler for `web3_sha3`: keccak-256 of the data. */
    web3_sha3: method(z.tuple([Data]), ([data]) => hex(keccak256(data))),
  })
}
