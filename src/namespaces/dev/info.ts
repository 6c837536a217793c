import { z } from 'zod'
import type { DevInfo } from '../../dev/devInfo.js'
import { quantity } from '../../rpc/format.js'
import { type MethodTable, method } from '../../rpc/types.js'
import { CLIENT_VERSION } from '../web3.js'

/** The node's own version, as semver ("0.1.0"), whatever web3_clientVersion leads it with. */
const SEMVER = CLIENT_VERSION.split('/')[1]!.replace(/^v/, '')

/**
 * anvil_nodeInfo and anvil_metadata in anvil's shapes (anvil: crates/anvil/src/eth/api.rs), with
 * this node's values: web3_clientVersion's answer (`version`), no fork, the EVM rules it runs (Cancun);
 * hardhat_metadata in hardhat's (hardhat: edr_provider requests/hardhat/rpc_types/metadata.rs).
 */
export function infoMethods(info: DevInfo, version: string): MethodTable {
  return {
    /** Handler for `anvil_nodeInfo`. */
    anvil_nodeInfo: method(z.tuple([]), () => {
      const head = info.head()
      const env = info.environment()
      return {
        currentBlockNumber: quantity(head.number),
        currentBlockTimestamp: Number(head.timestamp),
        currentBlockHash: head.hash,
        hardFork: 'Cancun',
        transactionOrder: 'fees',
        environment: { baseFee: quantity(env.baseFee), chainId: info.chainId, gasLimit: quantity(env.gasLimit), gasPrice: quantity(env.gasPrice) },
        forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
      }
    }),
    /** Handler for `anvil_metadata`. */
    anvil_metadata: method(z.tuple([]), () => {
      const head = info.head()
      return {
        clientVersion: version,
        clientSemver: SEMVER,
        clientCommitSha: null,
        chainId: info.chainId,
        instanceId: info.instanceId,
        latestBlockNumber: Number(head.number),
        latestBlockHash: head.hash,
        forkedNetwork: null,
        snapshots: Object.fromEntries(info.snapshots().map(({ id, head: h }) => [quantity(id), [h.number, h.hash]])),
      }
    }),
    /** Handler for `hardhat_metadata`: no `forkedNetwork` without a fork. */
    hardhat_metadata: method(z.tuple([]), () => {
      const head = info.head()
      return { clientVersion: version, chainId: info.chainId, instanceId: info.instanceId, latestBlockNumber: Number(head.number), latestBlockHash: head.hash }
    }),
  }
}
