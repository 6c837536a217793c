import { bytesToUnprefixedHex as hex, unprefixedHexToBytes } from '@ethereumjs/util'
import { z } from 'zod'
import { formatAddress } from '../avalanche/address.js'
import { cb58Decode, cb58Encode } from '../avalanche/cb58.js'
import type { OutputOwners } from '../avalanche/types.js'
import { APIError } from '../rpc/errors.js'
import { EMPTY_ID, IDArg, parseOrIssue } from '../rpc/avalancheArgs.js'
import { type MethodTable, method } from '../rpc/types.js'

/** Subnets a CreateSubnetTx made on the node's P-Chain (their ID is the tx's): known, validated by nobody. */
export interface CreatedSubnets {
  subnetOwner(subnetID: Uint8Array): OutputOwners | undefined
  createdSubnets(): Promise<{ id: Uint8Array; owner: OutputOwners }[]>
}

/**
 * The P-Chain's view of the node's subnets and validators (docs/WARP.md): the Primary Network (the
 * C-Chain and the X-Chain) and one permissioned subnet per extra EVM chain, each validated by the node
 * alone, with its BLS key; subnets made by CreateSubnetTx have no validator.
 */
export interface ValidatorView {
  /** Subnet ID (32 bytes) -> the blockchains it validates. */
  readonly subnets: ReadonlyMap<string, readonly Uint8Array[]>
  readonly nodeID: string
  /** 48 bytes, compressed. */
  readonly publicKey: Uint8Array
  /** 96 bytes. */
  readonly proofOfPossession: Uint8Array
  readonly weight: bigint
  /** The staking period (unix seconds) every entry shows. */
  readonly startTime: bigint
  readonly endTime: bigint
  /** The Primary Network validator's delegation fee in millionths (reward.PercentDenominator). */
  readonly delegationShares: number
  /** Where the Primary Network validator's rewards go (20-byte address), if anywhere. */
  readonly rewardAddress?: Uint8Array
  /** The bech32 HRP of P-Chain addresses. */
  readonly hrp: string
  readonly created: CreatedSubnets
}

/** platform.getValidatorsAt's height: a number, a decimal string, or "proposed" (platformvm/api.Height). */
const Height = z.union([z.number().int().nonnegative(), z.string()])

/** ids.NodeID's UnmarshalJSON: `NodeID-<CB58 of 20 bytes>`. */
const NodeIDArg = z.string().transform((v, tctx) =>
  parseOrIssue(tctx, 'invalid node ID', () => {
    if (!v.startsWith('NodeID-') || cb58Decode(v.slice(7)).length !== 20) throw new Error('not a node ID')
    return v
  }),
)

/** avalanchego's JSON integers (avajson.Uint32/Uint64) and percentages (avajson.Float32: four decimals), quoted. */
const uint = (n: bigint | number): string => n.toString()
const percent = (f: number): string => f.toFixed(4)
const EMPTY = cb58Encode(EMPTY_ID)

/** platform.validatedBy, validates, getValidatorsAt, getCurrentValidators, getSubnet and getSubnets (avalanchego vms/platformvm/service.go) on the view. */
export function platformValidatorMethods(view: ValidatorView): MethodTable {
  const subnetOf = (chain: Uint8Array): Uint8Array | undefined => {
    for (const [subnet, chains] of view.subnets) if (chains.some((c) => hex(c) === hex(chain))) return unprefixedHexToBytes(subnet)
    return undefined
  }
  const address = (a: Uint8Array): string => formatAddress('P', view.hrp, a)
  const owner = (o: OutputOwners) => ({ locktime: uint(o.locktime), threshold: uint(o.threshold), addresses: o.addrs.map(address) })
  /** api.Staker: every entry's head; the node has no staking tx, so its ID is the empty ID. */
  const staker = { txID: EMPTY, startTime: uint(view.startTime), endTime: uint(view.endTime), weight: uint(view.weight), nodeID: view.nodeID }
  /** api.PermissionlessValidator of the Primary Network: no delegators, no rewards paid here, the node itself always connected. */
  const primaryValidator = (withDelegators: boolean) => {
    const rewardOwner = view.rewardAddress !== undefined ? owner({ locktime: 0n, threshold: 1, addrs: [view.rewardAddress] }) : undefined
    return {
      ...staker,
      ...(rewardOwner !== undefined && { validationRewardOwner: rewardOwner, delegationRewardOwner: rewardOwner }),
      potentialReward: '0',
      accruedDelegateeReward: '0',
      delegationFee: percent((100 * view.delegationShares) / 1_000_000),
      uptime: percent(100),
      connected: true,
      signer: { publicKey: `0x${hex(view.publicKey)}`, proofOfPossession: `0x${hex(view.proofOfPossession)}` },
      delegatorCount: '0',
      delegatorWeight: '0',
      ...(withDelegators && { delegators: [] }),
    }
  }
  /** APISubnet of GetSubnets: a subnet's owner, or none for the Primary Network and the extra chains' subnets. */
  const apiSubnet = (id: Uint8Array, o?: OutputOwners) => ({ id: cb58Encode(id), controlKeys: o?.addrs.map(address) ?? [], threshold: uint(o?.threshold ?? 0) })

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
     * MarshalJSON: the map itself); the same set at every height, none for a subnet the node does not validate.
     */
    'platform.getValidatorsAt': method(z.object({ height: Height, subnetID: IDArg }), ({ subnetID }) => {
      if (!view.subnets.has(hex(subnetID))) return {}
      return { [view.nodeID]: { publicKey: `0x${hex(view.publicKey)}`, weight: view.weight.toString() } }
    }),
    /**
     * platform.getCurrentValidators {subnetID?, nodeIDs?}: the node, as the Primary Network's permissionless
     * validator (with its BLS signer; `delegators` when exactly one node ID is asked for) or as an extra chain's
     * subnet's permissioned validator (api.Staker); none for any other subnet or node ID.
     */
    'platform.getCurrentValidators': method(z.object({ subnetID: IDArg, nodeIDs: z.array(NodeIDArg).nullish() }), ({ subnetID, nodeIDs }) => {
      const asked = new Set(nodeIDs ?? [])
      if (!view.subnets.has(hex(subnetID)) || (asked.size > 0 && !asked.has(view.nodeID))) return { validators: [] }
      return { validators: [hex(subnetID) === hex(EMPTY_ID) ? primaryValidator(asked.size === 1) : staker] }
    }),
    /**
     * platform.getSubnet {subnetID}: an extra chain's subnet is permissioned and owned by nobody (no control
     * keys); a CreateSubnetTx's subnet shows its owner; neither is transformed or converted to an L1.
     */
    'platform.getSubnet': method(z.object({ subnetID: IDArg }), ({ subnetID }) => {
      if (hex(subnetID) === hex(EMPTY_ID)) throw new APIError("the primary network isn't a subnet")
      const o = view.created.subnetOwner(subnetID) ?? (view.subnets.has(hex(subnetID)) ? { locktime: 0n, threshold: 0, addrs: [] } : undefined)
      if (o === undefined) throw new APIError('not found')
      return {
        isPermissioned: true,
        controlKeys: o.addrs.map(address),
        threshold: uint(o.threshold),
        locktime: uint(o.locktime),
        subnetTransformationTxID: EMPTY,
        conversionID: EMPTY,
        managerChainID: EMPTY,
        managerAddress: null,
      }
    }),
    /** platform.getSubnets {ids?}: the asked subnets that exist, in the order asked; none asked: all, by ID, then the Primary Network. */
    'platform.getSubnets': method(z.object({ ids: z.array(IDArg).nullish() }), async ({ ids }) => {
      if (ids === undefined || ids === null || ids.length === 0) {
        const all = new Map<string, ReturnType<typeof apiSubnet>>()
        for (const s of view.subnets.keys()) if (s !== hex(EMPTY_ID)) all.set(s, apiSubnet(unprefixedHexToBytes(s)))
        for (const { id, owner: o } of await view.created.createdSubnets()) all.set(hex(id), apiSubnet(id, o))
        const sorted = [...all.keys()].sort().map((k) => all.get(k)!)
        return { subnets: [...sorted, apiSubnet(EMPTY_ID)] }
      }
      const seen = new Set<string>()
      const subnets: ReturnType<typeof apiSubnet>[] = []
      for (const id of ids) {
        if (seen.has(hex(id))) continue
        seen.add(hex(id))
        const o = view.created.subnetOwner(id)
        if (o !== undefined || view.subnets.has(hex(id))) subnets.push(apiSubnet(id, o))
      }
      // Go's nil slice: none found is null.
      return { subnets: subnets.length > 0 ? subnets : null }
    }),
  }
}
