import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, Address, KECCAK256_RLP, KECCAK256_RLP_ARRAY, bigIntToBytes, bytesToUnprefixedHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { keccak256 } from '../../util/crypto.js'
import { type Block, type Header, heliconFields, makeBlock } from './block.js'
import { INITIAL_DELAY_EXCESS, desiredDelayExcess } from '../rules/feeState.js'
import type { Genesis } from '../rules/genesis.js'
import type { SubnetEvmRules } from '../rules/subnetEvmRules.js'
import { precompileState } from '../state/precompileState.js'
import { applyPrecompileActivations } from '../../subnetevm/precompiles/activation.js'
import { genesisHeaderValues } from '../../subnetevm/genesisHeader.js'
import { PRECOMPILE_MODULES } from '../../subnetevm/precompiles/modules.js'

const ZERO32 = new Uint8Array(32)
const WARP_ADDRESS = new Address(hexToBytes('0x0200000000000000000000000000000000000005'))

/** coreth's initial base fee (ap3.InitialBaseFee) shown on the genesis header: 225 gwei. */
export const GENESIS_BASE_FEE = 225_000_000_000n

/**
 * keccak hex -> address or slot for the genesis state's keys. The genesis state goes to the trie and
 * reaches the flat state by a rebuild, which records no preimages; these name its accounts for
 * anvil_dumpState (src/store/keys.ts PREFIX.preimage).
 */
export function genesisPreimages(g: Genesis): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>()
  const add = (raw: Uint8Array) => out.set(bytesToUnprefixedHex(keccak256(raw)), raw)
  add(WARP_ADDRESS.bytes)
  for (const m of PRECOMPILE_MODULES) add(m.address)
  for (const [addr, acct] of Object.entries(g.alloc)) {
    add(hexToBytes(addr.startsWith('0x') ? (addr as `0x${string}`) : `0x${addr}`))
    for (const slot of Object.keys(acct.storage ?? {})) add(setLengthLeft(hexToBytes(slot as `0x${string}`), 32))
  }
  return out
}

/**
 * The genesis block of a genesis file; its state goes into `sm` (an empty trie over the node's trie
 * database). Under Helicon its header has Helicon's six fields, all zero (coreth core/genesis.go
 * ToBlock: the initial target and price exponents, and the settlement marker of a synchronous block).
 */
export async function genesisBlock(g: Genesis, sm: MerkleStateManager, helicon: boolean, subnetEvm?: SubnetEvmRules): Promise<Block> {
  if (subnetEvm === undefined) {
    // Warp is active from Durango, which is genesis time locally: coreth gives its precompile
    // account nonce 1 and code 0x01 in the genesis state (core/state_processor_ext.go).
    await sm.putAccount(WARP_ADDRESS, new Account(1n, 0n))
    await sm.putCode(WARP_ADDRESS, Uint8Array.of(1))
  } else {
    // subnet-evm: the precompiles its genesis enables, before the allocation (core/genesis.go toBlock).
    const { feeConfig, allowFeeRecipients } = subnetEvm.config
    await applyPrecompileActivations(subnetEvm.schedule, undefined, g.timestamp, precompileState(sm), { blockNumber: g.number, feeConfig, allowFeeRecipients })
  }
  for (const [addr, acct] of Object.entries(g.alloc)) {
    const address = new Address(hexToBytes(addr.startsWith('0x') ? (addr as `0x${string}`) : `0x${addr}`))
    await sm.putAccount(address, new Account(acct.nonce ?? 0n, acct.balance))
    if (acct.code !== undefined) await sm.putCode(address, hexToBytes(acct.code as `0x${string}`))
    for (const [slot, value] of Object.entries(acct.storage ?? {})) {
      await sm.putStorage(address, setLengthLeft(hexToBytes(slot as `0x${string}`), 32), hexToBytes(value as `0x${string}`))
    }
  }
  const stateRoot = await sm.getStateRoot()
  const header: Header = {
    parentHash: g.parentHash ? hexToBytes(g.parentHash as `0x${string}`) : ZERO32,
    uncleHash: KECCAK256_RLP_ARRAY,
    coinbase: g.coinbase ? hexToBytes(g.coinbase as `0x${string}`) : new Uint8Array(20),
    stateRoot,
    txRoot: KECCAK256_RLP,
    receiptRoot: KECCAK256_RLP,
    bloom: new Uint8Array(256),
    difficulty: g.difficulty ?? 0n,
    number: g.number,
    gasLimit: g.gasLimit,
    gasUsed: g.gasUsed,
    timestamp: g.timestamp,
    extraData: hexToBytes(g.extraData as `0x${string}`),
    mixHash: g.mixHash ? hexToBytes(g.mixHash as `0x${string}`) : ZERO32,
    nonce: setLengthLeft(bigIntToBytes(g.nonce), 8),
    extDataHash: ZERO32, // types.NewBlock, not NewBlockWithExtData
    baseFee: g.baseFeePerGas ?? GENESIS_BASE_FEE,
    extDataGasUsed: 0n,
    blockGasCost: 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconRoot: ZERO32,
    timeMilliseconds: g.timestamp * 1000n,
    minDelayExcess: INITIAL_DELAY_EXCESS,
    ...(helicon ? { helicon: heliconFields(() => 0n) } : {}),
  }
  return makeBlock(subnetEvm === undefined ? header : subnetEvmGenesisHeader(header, g, subnetEvm), [], new Uint8Array())
}

/** subnet-evm's genesis header: the optional fields its config gives at the genesis time (subnet-evm core/genesis.go toBlock). */
function subnetEvmGenesisHeader(header: Header, g: Genesis, rules: SubnetEvmRules): Header {
  const v = genesisHeaderValues(rules.config, { timestamp: g.timestamp, gasLimit: g.gasLimit, difficulty: g.difficulty, baseFeePerGas: g.baseFeePerGas }, desiredDelayExcess)
  return {
    ...header,
    gasLimit: v.gasLimit,
    difficulty: v.difficulty,
    baseFee: v.baseFee ?? 0n,
    blockGasCost: v.blockGasCost ?? 0n,
    timeMilliseconds: v.timeMilliseconds ?? g.timestamp * 1000n,
    minDelayExcess: v.minDelayExcess ?? 0n,
    subnetEvmFields: rules.headerFieldCount(0n, g.timestamp, g.baseFeePerGas),
  }
}
