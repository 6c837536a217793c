/**
 * PChainService on a real LevelDB: the Etna fee check (gas × price accepted, one nAVAX less refused), the fee
 * state advancing per accepted tx and draining with time, saved across a reopen; the genesis StakeableLockOut
 * spent by a plain TransferInput once its lock has passed (refused before); Durango's empty-memo rule.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, type Database } from '../../../src/store/db.js'
import { SharedMemory } from '../../../src/store/sharedMemory.js'
import { PChainService } from '../../../src/pchain/service.js'
import { PVM_TYPE_ID } from '../../../src/pchain/codec.js'
import { LOCAL_FEE_CONFIG, toGas, txComplexity } from '../../../src/pchain/fees.js'
import { LOCAL_GENESIS_LOCKTIME, localPGenesisUTXOs } from '../../../src/pchain/genesis.js'
import { type PVMBaseTx, type PVMUTXO, signPVMTx } from '../../../src/pchain/tx.js'
import { EWOQ, EWOQ_KEY, LOCAL } from '../../helpers/avalanchejs.js'

const T0 = 1_750_000_000
let dir: string
let db: Database
let p: PChainService

async function open(): Promise<void> {
  db = await openDatabase(dir)
  const sharedMemory = await SharedMemory.open(db, { cChainID: LOCAL.cChainID })
  p = await PChainService.open(
    { networkID: LOCAL.networkID, pChainID: LOCAL.pChainID, peerChains: [LOCAL.xChainID, LOCAL.cChainID], avaxAssetID: LOCAL.avaxAssetID },
    { sharedMemory, db, log: pino({ level: 'silent' }) },
    localPGenesisUTXOs(),
  )
}

const at = (unix: number): void => void vi.spyOn(Date, 'now').mockReturnValue(unix * 1000)

/** A BaseTx spending `u` to ewoq, leaving exactly `fee` (price 1: fee = gas) unless told otherwise. */
function spend(u: PVMUTXO, opts: { underpay?: bigint; memo?: Uint8Array } = {}): { bytes: Uint8Array; gas: bigint } {
  const utx: PVMBaseTx = {
    typeID: PVM_TYPE_ID.BaseTx,
    networkID: LOCAL.networkID,
    blockchainID: LOCAL.pChainID,
    memo: opts.memo ?? new Uint8Array(),
    ins: [{ utxoID: u.utxoID, assetID: u.assetID, in: { amount: u.out.amount, sigIndices: [0] } }],
    outs: [{ assetID: u.assetID, out: { amount: 0n, locktime: 0n, threshold: 1, addrs: [EWOQ] } }],
  }
  const gas = toGas(txComplexity(utx), LOCAL_FEE_CONFIG.weights)
  utx.outs[0]!.out.amount = u.out.amount - gas + (opts.underpay ?? 0n)
  return { bytes: signPVMTx(utx, [[EWOQ_KEY]]).signedBytes, gas }
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pchain-'))
  at(T0)
  await open()
})
afterEach(async () => {
  vi.restoreAllMocks()
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('PChainService', () => {
  it('accepts exactly gas × price, refuses one nAVAX less; the fee state advances and drains', async () => {
    const [unlocked] = localPGenesisUTXOs()
    await expect(p.issueTx(spend(unlocked!, { underpay: 1n }).bytes)).rejects.toThrow('insufficient unlocked funds')
    expect(p.feeState()).toEqual({ capacity: 1_000_000n, excess: 0n, time: BigInt(T0) })
    const { bytes, gas } = spend(unlocked!)
    const id = await p.issueTx(bytes)
    expect(p.status(id)).toBe('Committed')
    expect(p.height).toBe(1n)
    expect(p.feeState()).toEqual({ capacity: 1_000_000n - gas, excess: gas, time: BigInt(T0) })
    at(T0 + 1)
    expect(p.feeState()).toEqual({ capacity: 1_000_000n, excess: gas > 50_000n ? gas - 50_000n : 0n, time: BigInt(T0 + 1) })
    // the fee state is saved with the tx
    at(T0)
    await db.close()
    await open()
    expect(p.height).toBe(1n)
    expect(p.feeState()).toEqual({ capacity: 1_000_000n - gas, excess: gas, time: BigInt(T0) })
  })

  it('spends the genesis StakeableLockOut with a plain TransferInput once its lock has passed, not before', async () => {
    const locked = localPGenesisUTXOs()[1]!
    expect(locked.locktime).toBe(LOCAL_GENESIS_LOCKTIME)
    at(Number(LOCAL_GENESIS_LOCKTIME) - 10)
    await expect(p.issueTx(spend(locked).bytes)).rejects.toThrow('locked funds not marked as locked')
    at(T0)
    const id = await p.issueTx(spend(locked).bytes)
    expect(p.status(id)).toBe('Committed')
    expect(p.utxosOf(EWOQ).map((u) => u.locktime)).toEqual([undefined, undefined])
  })

  it('refuses a non-empty memo (Durango) and a replay', async () => {
    const [unlocked] = localPGenesisUTXOs()
    await expect(p.issueTx(spend(unlocked!, { memo: new Uint8Array([1]) }).bytes)).rejects.toThrow('memo length must be zero')
    const { bytes } = spend(unlocked!)
    await p.issueTx(bytes)
    await expect(p.issueTx(bytes)).rejects.toThrow('duplicate transaction')
  })
})
