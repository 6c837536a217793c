import { bytesToHex } from '@ethereumjs/util'
import type { GoJson } from './goJson.js'
import type { PrecompileConfig } from './precompiles/config.js'
import { feeConfigJson } from './rpcShapes.js'

type GoObject = Record<string, GoJson | undefined>

/** common.Address as Go's JSON writes it (MarshalText: lower-case hex). */
const address = (a: Uint8Array) => bytesToHex(a)
/** A `[]common.Address` with omitempty: left out when empty. */
const addresses = (list: readonly Uint8Array[]) => (list.length === 0 ? undefined : list.map(address))

/**
 * A precompile config as subnet-evm's module marshals it (precompile/allowlist/config.go,
 * precompileconfig/upgradeable.go and each contract's config.go): the embedded allow list's
 * addresses, then `blockTimestamp` (null when unset) and `disable` (left out when false), then the
 * module's own fields; addresses in lower case, initialMint's keys sorted as a Go map's and its
 * amounts as HexOrDecimal256's hex. eth_getChainConfig and eth_getActivePrecompilesAt answer these.
 */
export function precompileConfigJson(c: PrecompileConfig): GoObject {
  const upgrade: GoObject = { blockTimestamp: c.blockTimestamp ?? null, disable: c.disable ? true : undefined }
  if (c.key === 'warpConfig') return { ...upgrade, quorumNumerator: c.quorumNumerator, requirePrimaryNetworkSigners: c.requirePrimaryNetworkSigners }
  const out: GoObject = { adminAddresses: addresses(c.adminAddresses), managerAddresses: addresses(c.managerAddresses), enabledAddresses: addresses(c.enabledAddresses), ...upgrade }
  switch (c.key) {
    case 'contractNativeMinterConfig': {
      const mint = new Map(c.initialMint.map((m) => [address(m.address), m.amount === undefined ? null : `0x${m.amount.toString(16)}`] as const))
      if (mint.size > 0) out.initialMint = Object.fromEntries([...mint].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      break
    }
    case 'feeManagerConfig':
      if (c.initialFeeConfig !== undefined) out.initialFeeConfig = feeConfigJson(c.initialFeeConfig)
      break
    case 'rewardManagerConfig':
      if (c.initialRewardConfig !== undefined) out.initialRewardConfig = { allowFeeRecipients: c.initialRewardConfig.allowFeeRecipients, rewardAddress: address(c.initialRewardConfig.rewardAddress) }
      break
  }
  return out
}
