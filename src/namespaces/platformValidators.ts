import { bytesToUnprefixedHex as hex, unprefixedHexToBytes } from '@ethereumjs/util'
import { z } from 'zod'
import { cb58Encode } from '../avalanche/cb58.js'
import { APIError } from '../rpc/errors.js'
import { EMPTY_ID, IDArg } from '../rpc/avalancheArgs.js'
import { type MethodTable, method } from '../rpc/types.js'

/**
 * The P-Chain's view of the node's subnets and validators, as far as Warp needs it (docs/WARP.md):
 * the Primary Network (the C-Chain and the X-Chain) and one subnet per extra EVM chain, each
 * validated by the node alone, with its BLS key.
 */
export interface ValidatorView {
  /** Subnet ID (32 bytes) -> the blockchains it validates. */
  readonly subnets: ReadonlyMap<string, readonly Uint8Array[]>
  readonly nodeID: string
  /** 48 bytes, compressed. */
  readonly publicKey: Uint8Array
  readonly weight: bigint
}

/** platform.getValidatorsAt's height: a number, a decimal string, or "proposed" (platformvm/api.Height). */
const Height = z.union([z.number().int().nonnegative(), z.string()])

/** platform.validatedBy, validates and getValidatorsAt (avalanchego vms/platformvm/service.go) on the view. */
export function platformValidatorMethods(view: ValidatorView): MethodTable {
  const subnetOf = (chain: Uint8Array): Uint8Array | undefined => {
    for (const [subnet, chains] of view.subnets) if (chains.some((c) => hex(c) === hex(chain))) return unprefixedHexToBytes(subnet)
    return undefined
  }
  return {
    /** platform.validatedBy {blockchainID}: `{subnetID}`; the P-Chain is the Primary Network's. */
    'platform.validatedBy': method(z.object({ blockchainID: IDArg }), ({ blockchainID }) => {
      const subnet = hex(blockchainID) === hex(EMPTY_ID) ? EMPTY_ID : subnetOf(blockchainID)
      if (subnet === undefined) throw new APIError(`problem retrieving blockchain "${cb58Encode(blockchainID)}": not found`)
      return { subnetID: cb58Encode(subnet) }
    }),
    /** platform.validates {subnetID}: `{blockchainIDs}`. */
    'platform.validates': method(z.object({ subnetID: IDArg }), ({ subnetID }) => {
      const chains = view.subnets.get(hex(subnetID))
      if (chains === undefined) throw new APIError(`problem retrieving subnet "${cb58Encode(subnetID)}": not found`)
      return { blockchainIDs: chains.map(cb58Encode) }
    }),
    /**
     * platform.getValidatorsAt {height, subnetID}: node ID -> {publicKey, weight} (GetValidatorsAtReply's
     * MarshalJSON: the map itself); the same set at every height, none for a subnet the node does not know.
     */
    'platform.getValidatorsAt': method(z.object({ height: Height, subnetID: IDArg }), ({ subnetID }) => {
      if (!view.subnets.has(hex(subnetID))) return {}
      return { [view.nodeID]: { publicKey: `0x${hex(view.publicKey)}`, weight: view.weight.toString() } }
    }),
  }
}
