/**
 * The P-Chain spend rule (avalanchego vms/platformvm/utxo/verifier.go VerifySpendUTXOs): per input, the UTXO's
 * asset must match; a UTXO inside a stakeable.LockOut whose locktime has not passed must be spent through a
 * stakeable.LockIn with the same locktime, while an expired lock may be spent by a plain TransferInput (a LockIn
 * must still match the locktime); secp256k1fx.VerifyTransfer; then unlocked consumption must cover unlocked
 * production plus the fee, and locked production per (asset, locktime, owner) must be covered by locked
 * consumption or, for the excess, by unlocked funds.
 */
import { createHash } from 'node:crypto'
import { cb58Encode } from '../avalanche/cb58.js'
import { marshal } from '../avalanche/codec.js'
import { VerifyError } from '../avalanche/errors.js'
import { writeOutputOwners } from '../avalanche/secp256k1fx.js'
import { verifySpend } from '../avalanche/spend.js'
import type { OutputOwners } from '../avalanche/types.js'
import { PVM_TYPE_ID } from './codec.js'
import { type PVMCredential, type PVMTransferableInput, type PVMTransferableOutput, type PVMUnsignedTx, type PVMUTXO, pvmSpentInputs } from './tx.js'

const UINT64_MAX = 0xffffffffffffffffn

function fail(message: string): never {
  throw new VerifyError(message)
}

function add(a: bigint, b: bigint): bigint {
  const s = a + b
  if (s > UINT64_MAX) fail('overflow')
  return s
}

/** The outputs VerifySpend sees: BaseTx.outs, plus (ExportTx) the exported outputs. */
export function pvmSpendOutputs(utx: PVMUnsignedTx): PVMTransferableOutput[] {
  return utx.typeID === PVM_TYPE_ID.ExportTx ? [...utx.outs, ...utx.exportedOutputs] : utx.outs
}

function ownerID(owners: OutputOwners): string {
  const bytes = marshal((w) => writeOutputOwners(w, owners))
  return cb58Encode(new Uint8Array(createHash('sha256').update(bytes).digest()))
}

/**
 * VerifySpendUTXOs with `unlockedProduced = {feeAssetID: fee}`. `utxos[i]` is the UTXO input i spends
 * (pvmSpentInputs order), `creds[i]` its credential; `now` is the chain time in unix seconds.
 */
export function verifyPVMSpend(args: {
  utx: PVMUnsignedTx
  signingHash: Uint8Array
  utxos: readonly PVMUTXO[]
  creds: readonly PVMCredential[]
  feeAssetID: Uint8Array
  fee: bigint
  now: bigint
}): void {
  const ins: PVMTransferableInput[] = pvmSpentInputs(args.utx)
  const outs = pvmSpendOutputs(args.utx)
  const { utxos, creds, now } = args
  if (ins.length !== creds.length) fail(`wrong number of credentials: ${ins.length} inputs != ${creds.length} credentials`)
  if (ins.length !== utxos.length) fail(`wrong number of UTXOs: ${ins.length} inputs != ${utxos.length} utxos`)
  const key = (b: Uint8Array): string => cb58Encode(b)
  const unlockedConsumed = new Map<string, bigint>()
  const unlockedProduced = new Map<string, bigint>([[key(args.feeAssetID), args.fee]])
  // asset -> locktime -> owner -> amount
  type Locked = Map<string, Map<bigint, Map<string, bigint>>>
  const lockedConsumed: Locked = new Map()
  const lockedProduced: Locked = new Map()
  const addLocked = (m: Locked, asset: string, locktime: bigint, owner: string, amount: bigint): void => {
    const byTime = m.get(asset) ?? new Map<bigint, Map<string, bigint>>()
    m.set(asset, byTime)
    const byOwner = byTime.get(locktime) ?? new Map<string, bigint>()
    byTime.set(locktime, byOwner)
    byOwner.set(owner, add(byOwner.get(owner) ?? 0n, amount))
  }

  ins.forEach((input, i) => {
    const utxo = utxos[i]!
    if (Buffer.compare(utxo.assetID, input.assetID) !== 0) {
      fail(`input asset ID does not match UTXO asset ID: ${key(input.assetID)} != ${key(utxo.assetID)}`)
    }
    const locktime = utxo.locktime ?? 0n
    if (input.locktime === undefined) {
      if (now < locktime) fail('locked funds not marked as locked')
    } else if (input.locktime !== locktime) {
      fail(`input locktime does not match UTXO locktime: ${input.locktime} != ${locktime}`)
    }
    try {
      verifySpend(args.signingHash, input.in, { typeID: 9, sigs: creds[i]!.sigs }, utxo.out, now)
    } catch (err) {
      if (err instanceof VerifyError) fail(`failed to verify transfer: ${err.message}`)
      throw err
    }
    const asset = key(utxo.assetID)
    if (now >= locktime) unlockedConsumed.set(asset, add(unlockedConsumed.get(asset) ?? 0n, input.in.amount))
    else addLocked(lockedConsumed, asset, locktime, ownerID(utxo.out), input.in.amount)
  })

  for (const out of outs) {
    const asset = key(out.assetID)
    const locktime = out.locktime ?? 0n
    if (locktime === 0n) unlockedProduced.set(asset, add(unlockedProduced.get(asset) ?? 0n, out.out.amount))
    else addLocked(lockedProduced, asset, locktime, ownerID(out.out), out.out.amount)
  }

  for (const [asset, byTime] of lockedProduced) {
    for (const [locktime, byOwner] of byTime) {
      for (const [owner, produced] of byOwner) {
        const consumed = lockedConsumed.get(asset)?.get(locktime)?.get(owner) ?? 0n
        if (produced > consumed) {
          const increase = produced - consumed
          const unlocked = unlockedConsumed.get(asset) ?? 0n
          if (increase > unlocked) fail(`insufficient locked funds: ${owner} needs ${increase - unlocked} more ${asset} for locktime ${locktime}`)
          unlockedConsumed.set(asset, unlocked - increase)
        }
      }
    }
  }
  for (const [asset, produced] of unlockedProduced) {
    const consumed = unlockedConsumed.get(asset) ?? 0n
    if (produced > consumed) fail(`insufficient unlocked funds: needs ${produced - consumed} more ${asset}`)
  }
}
