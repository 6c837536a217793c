import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Capability, type TypedTransaction, isBlob4844Tx } from '@ethereumjs/tx'
import { Address, bytesToHex, hexToBytes, unprefixedHexToBytes } from '@ethereumjs/util'
import { evmRules } from '../../src/evm/evmRules.js'
import { type EvmTransaction, InvalidTransactionError, runTransaction } from '../../src/evm/runTransaction.js'
import type { EvmBlock, EvmHost, EvmLog, EvmStateChanges } from '../../src/evm/types.js'
import { type StateTestCase, type StateTestOutcome, buildPreState, cancunCommon, decodeTx, envBlock, evmBlock, fillerBlockHash, logsHash } from './fixture.js'

/*
 * The state tests on the project's interpreter (src/evm/): the same pre-state and transaction as
 * runOnEthereumjs, run by runTransaction, its changes written to the MerkleStateManager.
 */

// One Common for every case: evmRules resolves and caches its rules per Common.
const common = cancunCommon()
const host: EvmHost = { blockHash: async (number) => fillerBlockHash(number) }

/** A decoded transaction in runTransaction's terms. */
export function evmTransaction(tx: TypedTransaction, block: EvmBlock): EvmTransaction {
  const dynamic = tx.supports(Capability.EIP1559FeeMarket)
  const fees = tx as { gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }
  return {
    from: tx.getSenderAddress().bytes,
    nonce: tx.nonce,
    to: tx.to?.bytes,
    value: tx.value,
    data: tx.data,
    gasLimit: tx.gasLimit,
    gasPrice: dynamic ? undefined : fees.gasPrice,
    maxFeePerGas: dynamic ? fees.maxFeePerGas : undefined,
    maxPriorityFeePerGas: dynamic ? fees.maxPriorityFeePerGas : undefined,
    accessList: tx.supports(Capability.EIP2930AccessLists) ? (tx as { accessList: [Uint8Array, Uint8Array[]][] }).accessList : undefined,
    blobHashes: isBlob4844Tx(tx) ? tx.blobVersionedHashes.map((h) => hexToBytes(h)) : undefined,
    maxFeePerBlobGas: isBlob4844Tx(tx) ? tx.maxFeePerBlobGas : undefined,
    block,
  }
}

/** Writes a transaction's changes: accounts, then cleared storage, code, then slots (a deleted account takes none). */
export async function applyChanges(state: MerkleStateManager, changes: EvmStateChanges): Promise<void> {
  const address = (hex: string) => new Address(unprefixedHexToBytes(hex))
  for (const [hex, account] of changes.accounts) {
    if (account === null) await state.deleteAccount(address(hex))
    else await state.putAccount(address(hex), account)
  }
  const live = (hex: string) => changes.accounts.get(hex) !== null
  for (const hex of changes.cleared) if (live(hex)) await state.clearStorage(address(hex))
  for (const [hex, account] of changes.accounts) {
    const code = account === null ? undefined : changes.codes.get(bytesToHex(account.codeHash).slice(2))
    if (code !== undefined) await state.putCode(address(hex), code)
  }
  for (const [hex, slots] of changes.storage) {
    if (!live(hex)) continue
    for (const [slot, value] of slots) await state.putStorage(address(hex), unprefixedHexToBytes(slot), value)
  }
}

/** Runs a case on src/evm's runTransaction. */
export async function runOnInterpreter(c: StateTestCase): Promise<StateTestOutcome> {
  const rules = evmRules(common)
  if (rules === undefined) throw new Error('evmRules does not cover plain Mainnet Cancun')
  const state = await buildPreState(c.fixture.pre, common)
  const block = evmBlock(envBlock(c.fixture.env, common))
  const { tx, error } = decodeTx(c.entry, common)
  let logs: EvmLog[] = []
  let rejected = error
  if (tx !== undefined) {
    try {
      const result = await runTransaction(rules, state, host, evmTransaction(tx, block))
      await applyChanges(state, result.changes)
      logs = result.logs
    } catch (e) {
      if (!(e instanceof InvalidTransactionError)) throw e
      rejected = e.message
    }
  }
  return { root: bytesToHex(await state.getStateRoot()), logsHash: logsHash(logs), rejected }
}
