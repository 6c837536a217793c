import type { EventEmitter } from 'node:events'
import type { BlockBuilder } from './blockBuilder.js'
import type { Chain } from '../chain/chain.js'
import { TxRejectedError } from '../base/errors.js'
import type { FeeOracle } from '../prices/feeOracle.js'
import type { StateReader } from '../state/flatView.js'
import { hardhatFailure } from './hardhatFailure.js'
import { precompileReader } from '../state/precompileState.js'
import { isTxAllowed, txNotAllowedError } from '../../subnetevm/precompiles/allowListGates.js'
import { PendingNonceGuard } from '../pool/pendingNonceGuard.js'
import type { PoolTx, TxPool } from '../pool/txPool.js'
import { type AdmissionRules, checkTxState } from '../pool/txValidation.js'

/** The engine's options a submission follows (src/engine/engineOptions.ts says what each means). */
export interface SubmissionOptions {
  admission: Pick<AdmissionRules, 'allowUnprotected' | 'allowUnprotectedHashes' | 'txFeeCap' | 'minTip' | 'maxSize'>
  pendingNonceGuardMs: number
  failedSendErrors: boolean
}

/** What a submission reaches in the engine. */
export interface SubmissionDeps {
  chain: Chain
  pool: TxPool
  builder: BlockBuilder
  fees: FeeOracle
  /** The engine's events ('pendingTx'). */
  events: EventEmitter
  headState(): StateReader
  opts: SubmissionOptions
}

/**
 * A sent transaction from admission to answer (eth_sendRawTransaction, eth_sendTransaction): geth's
 * pool checks and wording; then, with automine, the answer once the block holding it is committed,
 * so a receipt or state read right after it sees the transaction (anvil's and hardhat's answer,
 * docs/DEV.md), or hardhat node's error when it failed there on a chain that answers as hardhat.
 */
export class TxSubmission {
  private arrivals = 0
  private readonly nonceGuard: PendingNonceGuard

  constructor(private readonly deps: SubmissionDeps) {
    this.nonceGuard = new PendingNonceGuard(deps.opts.pendingNonceGuardMs)
  }

  /** A sender's `pending` nonce was just answered (the opt-in guard for ethers v6's cache). */
  pendingNonceRead(sender: string): void {
    this.nonceGuard.answered(sender)
  }

  /** Admits the transaction `admit` checks against the next block's rules; resolves with its hash. */
  async submit(admit: (rules: AdmissionRules, arrival: number) => PoolTx): Promise<string> {
    const { chain, pool, builder, fees, opts } = this.deps
    const rules = {
      ...opts.admission,
      common: chain.txCommon,
      chainId: chain.chainId,
      blockGasLimit: fees.nextGasLimit(),
      nextBaseFee: fees.admissionBaseFee(),
      warp: chain.warp !== undefined,
      gasPerByte: chain.opts.helicon,
    }
    const ptx = admit(rules, this.arrivals++)
    // geth: only a tx still in the pool is "already known"; a mined one fails the nonce check.
    if (pool.has(ptx.hash)) throw new TxRejectedError('already known')
    const account = await this.deps.headState().getAccount(ptx.sender)
    checkTxState(ptx, account, pool.pendingSpend(ptx.senderHex, ptx.nonce))
    // subnet-evm's transaction allow list, the pool's last check, at the head's rules and state (its txpool ValidateTransactionWithState).
    const allowList = chain.subnetEvm?.rules.isEnabled('txAllowListConfig', chain.head.header.timestamp)
    if (allowList && !(await isTxAllowed(precompileReader(this.deps.headState()), ptx.sender.bytes))) throw new TxRejectedError(txNotAllowedError(ptx.sender.bytes))
    // The pool needs the nonce just read (the same head: nothing ran between), not a second read.
    const executable = await pool.add(ptx, account?.nonce ?? 0n)
    if (executable) {
      const built = builder.nextBuild(ptx.hash)
      this.deps.events.emit('pendingTx', ptx)
      builder.onPending()
      const failure = await built
      if (failure !== undefined && opts.failedSendErrors) throw hardhatFailure(ptx.hash, failure)
    }
    await this.nonceGuard.hold(ptx.senderHex)
    return ptx.hash
  }
}
