/**
 * The P-Chain's `platform` service at /ext/bc/P (avalanchego vms/platformvm/service.go) as far as AVAX transfers
 * need it: issueTx, getTx, getTxStatus (`Committed`), getUTXOs (with sourceChain: atomic UTXOs exported to P),
 * getBalance, getHeight, getTimestamp, getFeeConfig and getFeeState (JSON numbers, as avalanchego sends them);
 * issueTx takes BaseTx, ImportTx, ExportTx and CreateSubnetTx.
 * The validator view Warp reads is platformValidators.ts; staking and subnet-management methods are not served: they
 * answer -32601 (issue 7) with gorilla's `rpc: can't find method` text.
 */
import { z } from 'zod'
import { cb58Encode } from '../avalanche/cb58.js'
import type { ChainAliases } from '../avalanche/networks.js'
import { feeConfigJSON, feeStateJSON, goTimeJSON } from '../pchain/fees.js'
import type { PChainService } from '../pchain/service.js'
import { APIError } from '../rpc/errors.js'
import { EMPTY_ID, IDArg } from '../rpc/avalancheArgs.js'
import { type MethodTable, method } from '../rpc/types.js'
import { Addresses, type LedgerWording, ledgerApi } from './ledgerApi.js'
import { parsePVMTx } from '../pchain/tx.js'
import { pvmTxJson } from '../pchain/txJson.js'
import { unixNow } from '../util/unixNow.js'

export interface PlatformContext {
  readonly p: PChainService
  readonly networkID: number
  readonly chains: ChainAliases
  readonly avaxAssetID: Uint8Array
}

/** avalanchego vms/platformvm/service.go's texts (GetUTXOs, GetTx) and its JSON txs. */
const PLATFORM_WORDING: LedgerWording = {
  utxoEncodeError: (inputID, encoding) => `couldn't encode UTXO ${inputID} as ${encoding}: `,
  txNotFound: "couldn't get tx: not found",
  nilTxID: false,
  txJson: (bytes, formatAddr) => pvmTxJson(parsePVMTx(bytes), formatAddr),
}

/** The `platform.*` table. */
export function platformMethods(ctx: PlatformContext): MethodTable {
  const pChainID = ctx.chains.pChainID
  const api = ledgerApi({ networkID: ctx.networkID, chains: ctx.chains, chainID: pChainID, ledger: ctx.p, wording: PLATFORM_WORDING })
  const { parseAddrs } = api
  return {
    /** platform.issueTx {tx, encoding}: verifies and accepts at once; `{txID}`. */
    'platform.issueTx': api.issueTx,
    /** platform.getTx {txID, encoding}: the signed bytes in `encoding`, or (`json`) the tx as avalanchego marshals it. */
    'platform.getTx': api.getTx,

    /** platform.getTxStatus {txID}: `Committed` for an accepted tx, else `Unknown` (unknown params such as includeReason ignored). */
    'platform.getTxStatus': method(z.object({ txID: IDArg }), (args) => {
      if (Buffer.from(args.txID).equals(EMPTY_ID)) throw new APIError('nil transaction ID')
      return { status: ctx.p.status(args.txID) }
    }),

    /** platform.getUTXOs: the P ledger, or (sourceChain) what that chain exported to P. */
    'platform.getUTXOs': api.getUTXOs,

    /**
     * platform.getBalance {addresses}: per avalanchego, a StakeableLockOut whose lock has passed counts as unlocked,
     * one still locked as lockedStakeable, an inner TransferOutput locktime in the future as lockedNotStakeable.
     * Amounts are decimal strings: the AVAX totals (balance, unlocked, ...) and the per-asset maps (balances, ...).
     */
    'platform.getBalance': method(z.object({ addresses: Addresses }), (args) => {
      if (args.addresses.length === 0) throw new APIError('no addresses provided')
      const addrs = parseAddrs(args.addresses)
      const now = unixNow()
      type Sums = Map<string, bigint>
      const bal: Sums = new Map(),
        unlocked: Sums = new Map(),
        stakeable: Sums = new Map(),
        notStakeable: Sums = new Map()
      const bump = (m: Sums, k: string, v: bigint): void => {
        m.set(k, (m.get(k) ?? 0n) + v)
      }
      const utxoIDs: { txID: string; outputIndex: number }[] = []
      const seen = new Set<string>()
      for (const addr of addrs) {
        for (const u of ctx.p.utxosOf(addr)) {
          const key = `${cb58Encode(u.utxoID.txID)}:${u.utxoID.outputIndex}`
          if (seen.has(key)) continue
          seen.add(key)
          const asset = cb58Encode(u.assetID)
          const amount = u.out.amount
          if (u.out.locktime > now) bump(notStakeable, asset, amount)
          else if (u.locktime !== undefined && u.locktime > now) bump(stakeable, asset, amount)
          else bump(unlocked, asset, amount)
          bump(bal, asset, amount)
          utxoIDs.push({ txID: cb58Encode(u.utxoID.txID), outputIndex: u.utxoID.outputIndex })
        }
      }
      const avax = cb58Encode(ctx.avaxAssetID)
      const json = (m: Sums): Record<string, string> => Object.fromEntries([...m].map(([k, v]) => [k, v.toString()]))
      return {
        balance: (bal.get(avax) ?? 0n).toString(),
        unlocked: (unlocked.get(avax) ?? 0n).toString(),
        lockedStakeable: (stakeable.get(avax) ?? 0n).toString(),
        lockedNotStakeable: (notStakeable.get(avax) ?? 0n).toString(),
        balances: json(bal),
        unlockeds: json(unlocked),
        lockedStakeables: json(stakeable),
        lockedNotStakeables: json(notStakeable),
        utxoIDs,
      }
    }),

    /** platform.getHeight: the last accepted height as a decimal string. */
    'platform.getHeight': method(z.object({}), () => ({ height: ctx.p.height.toString() })),

    /** platform.getTimestamp: the chain time (the fee state's). */
    'platform.getTimestamp': method(z.object({}), () => ({ timestamp: goTimeJSON(new Date(Number(ctx.p.feeState().time) * 1000)) })),

    /** platform.getFeeConfig: avalanchego's local Etna fee config, JSON numbers. */
    'platform.getFeeConfig': method(z.object({}), () => feeConfigJSON()),

    /** platform.getFeeState: {capacity, excess, price, timestamp} advanced to now, JSON numbers. */
    'platform.getFeeState': method(z.object({}), () => {
      const s = ctx.p.feeState()
      return feeStateJSON(s, new Date(Number(s.time) * 1000))
    }),
  }
}
