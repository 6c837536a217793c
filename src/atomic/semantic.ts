/**
 * Semantic verification of atomic txs and their EVM state transfer (coreth atomic/vm/tx_semantic_verifier.go,
 * atomic/{import_tx,export_tx}.go EVMStateTransfer).
 */
import type { StateManagerInterface } from '@ethereumjs/common'
import { Address } from '@ethereumjs/util'
import { decodeUTXO, utxoInputID } from '../avalanche/avax.js'
import { cb58Encode } from '../avalanche/cb58.js'
import { TYPE_ID } from '../avalanche/codec.js'
import { AvalancheError, VerifyError } from '../avalanche/errors.js'
import { X2C_RATE, calculateDynamicFee, gasUsed } from './fees.js'
import { verifyCredentialCount, verifyEVMInputCredential, verifyFlow } from './spend.js'
import { verifySpend } from '../avalanche/spend.js'
import { type AtomicTx, signingHash } from './tx.js'
import type { UnsignedAtomicTx } from './types.js'
import type { UTXO } from '../avalanche/types.js'
import { type VerifyContext, verifyUnsignedTx } from './verify.js'

/** What semantic verification reads besides the tx. */
export interface SemanticEnv {
  ctx: VerifyContext
  /** wei per gas: the block's base fee, or the estimated next one at admission */
  baseFee: bigint
  nowUnix: bigint
  /** Inbound shared memory: the UTXO bytes a peer chain exported, by InputID (undefined if absent). */
  fetchUTXOs(sourceChain: Uint8Array, inputIDs: Uint8Array[]): (Uint8Array | undefined)[]
}

function fail(message: string): never {
  throw new VerifyError(message)
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err))

/** semanticVerifier: syntactic Verify, the fee flow check, credentials, and for imports the UTXOs and their spends. */
export function semanticVerify(tx: AtomicTx, env: SemanticEnv): void {
  const utx = tx.tx.unsignedTx
  verifyUnsignedTx(env.ctx, utx)
  const fee = calculateDynamicFee(gasUsed(utx, tx.unsignedBytes.length), env.baseFee)
  verifyFlow(utx, env.ctx.avaxAssetID, fee)
  verifyCredentialCount(utx, tx.tx.creds)
  const hash = signingHash(tx.unsignedBytes)
  if (utx.typeID === TYPE_ID.ImportTx) {
    const ids = utx.importedInputs.map((input) => utxoInputID(input.utxoID))
    const found = env.fetchUTXOs(utx.sourceChain, ids)
    if (found.some((b) => b === undefined)) fail(`failed to fetch import UTXOs from ${cb58Encode(utx.sourceChain)} due to: not found`)
    utx.importedInputs.forEach((input, i) => {
      let utxo: UTXO
      try {
        utxo = decodeUTXO(found[i]!)
      } catch (err) {
        fail(`failed to unmarshal UTXO: ${messageOf(err)}`)
      }
      if (Buffer.compare(utxo.assetID, input.assetID) !== 0) fail("asset IDs in the input don't match the utxo")
      try {
        verifySpend(hash, input.in, tx.tx.creds[i]!, utxo.out, env.nowUnix)
      } catch (err) {
        if (err instanceof AvalancheError) fail(`import tx transfer failed verification: ${err.message}`)
        throw err
      }
    })
    return
  }
  for (const [i, input] of utx.ins.entries()) verifyEVMInputCredential(hash, input, tx.tx.creds[i]!)
}

/** The state an admission check reads: balance (wei) and nonce of an address. */
export interface AccountReader {
  getAccount(address: Address): Promise<{ balance: bigint; nonce: bigint } | undefined>
}

/**
 * EVMStateTransfer on a state that is kept (a block being built): imports credit each EVMOutput
 * amount × 1e9 wei; exports debit each EVMInput (`insufficient funds`), require its nonce
 * (`invalid nonce`), then set each input address's nonce to input.nonce + 1.
 */
export async function evmStateTransfer(utx: UnsignedAtomicTx, avaxAssetID: Uint8Array, sm: StateManagerInterface): Promise<void> {
  const isAVAX = (id: Uint8Array): boolean => Buffer.compare(id, avaxAssetID) === 0
  if (utx.typeID === TYPE_ID.ImportTx) {
    for (const out of utx.outs) {
      // Non-AVAX outputs are refused by Verify since Banff (multicoin balances are gone).
      if (!isAVAX(out.assetID)) continue
      const address = new Address(out.address)
      const account = await sm.getAccount(address)
      await sm.modifyAccountFields(address, { balance: (account?.balance ?? 0n) + out.amount * X2C_RATE })
    }
    return
  }
  const nonces = new Map<string, { address: Address; nonce: bigint }>()
  for (const input of utx.ins) {
    const address = new Address(input.address)
    const account = await sm.getAccount(address)
    if (isAVAX(input.assetID)) {
      const amount = input.amount * X2C_RATE
      const balance = account?.balance ?? 0n
      if (balance < amount) fail('insufficient funds')
      await sm.modifyAccountFields(address, { balance: balance - amount })
    }
    if ((account?.nonce ?? 0n) !== input.nonce) fail('invalid nonce')
    nonces.set(address.toString(), { address, nonce: input.nonce })
  }
  for (const { address, nonce } of nonces.values()) await sm.modifyAccountFields(address, { nonce: nonce + 1n })
}

/** The same checks as evmStateTransfer on a read-only state (admission at the tip). */
export async function checkEVMStateTransfer(utx: UnsignedAtomicTx, avaxAssetID: Uint8Array, state: AccountReader): Promise<void> {
  if (utx.typeID === TYPE_ID.ImportTx) return
  const spent = new Map<string, bigint>()
  for (const input of utx.ins) {
    const address = new Address(input.address)
    const key = address.toString()
    const account = await state.getAccount(address)
    if (Buffer.compare(input.assetID, avaxAssetID) === 0) {
      const amount = input.amount * X2C_RATE
      const balance = (account?.balance ?? 0n) - (spent.get(key) ?? 0n)
      if (balance < amount) fail('insufficient funds')
      spent.set(key, (spent.get(key) ?? 0n) + amount)
    }
    if ((account?.nonce ?? 0n) !== input.nonce) fail('invalid nonce')
  }
}
