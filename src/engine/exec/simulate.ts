import type { Block as EnvBlock, BlockHeader as EnvHeader } from '@ethereumjs/block'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import type { TypedTransaction } from '@ethereumjs/tx'
import { type Address, bytesToHex, equalsBytes, KECCAK256_NULL, KECCAK256_RLP_ARRAY, ValueEncoding } from '@ethereumjs/util'
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { type Block, type Header, makeBlock } from '../chain/block.js'
import { EMPTY_EXT_DATA_HASH, type Chain } from '../chain/chain.js'
import { EngineError, SimulateError } from '../base/errors.js'
import { EvmGuard } from './evmGuard.js'
import { chainVM } from './chainVm.js'
import { setWarpTx } from './warpPrecompile.js'
import { consumeGas, feeStateBeforeBlock, gasPrice, updateTargetExcess, type FeeState } from '../rules/feeState.js'
import type { GasClock } from '../rules/gasClock.js'
import { gasConfigAfter } from '../rules/helicon.js'
import { priceExponentOf, targetExponentOf } from '../chain/settlement.js'
import { receiptRoot, txRoot } from '../chain/orderedTrieRoot.js'
import { blockBloom, type Receipt } from '../chain/receipt.js'
import type { CallRequest } from '../base/types.js'
import { OverlayDB } from '../state/overlayDb.js'
import { MAX_UINT64, sanitizeChain, type SanitizedBlock, type SimBlockResult, type SimCallResult, type SimulateLimits, type SimulateOptions } from './simulateOptions.js'
import { TransferTracer } from './transferTracer.js'
import { applySimStateOverrides, type PrecompileMap } from './simStateOverrides.js'
import { simCall, simCallResult } from './simCall.js'
import { chargeMinimum, creditBaseFee } from './impersonatedTx.js'

/*
 * eth_simulateV1 as geth runs it (internal/ethapi/simulate.go, logtracer.go, errors.go): blocks
 * of calls on top of a base block, each with block and state overrides, executed on a throwaway
 * state whose trie writes never reach the node's database.
 */

const ZERO32 = new Uint8Array(32)

/** Runs eth_simulateV1 on top of `base`. */
export async function simulate(chain: Chain, base: Block, opts: SimulateOptions, limits: SimulateLimits): Promise<SimBlockResult[]> {
  chain.requireState(base)
  const blocks = sanitizeChain(base, opts.blockStateCalls)
  const guard = new EvmGuard()
  const sim = await Simulator.create(chain, base, opts, limits, guard)
  return guard.run(limits.run ?? { timeoutMs: 0 }, async () => {
    const results: SimBlockResult[] = []
    for (const b of blocks) results.push(await sim.processBlock(b))
    return results
  })
}

class Simulator {
  /** Hashes of the simulated blocks processed so far, by number (BLOCKHASH). */
  private readonly simHashes = new Map<bigint, Uint8Array>()
  private parent: Block
  /** Fields each simulated header inherits from the one before (geth makeHeaders). */
  private inherited: { coinbase: Uint8Array; difficulty: bigint; gasLimit: bigint }
  /** ACP-176 fee state after the parent, for validation-mode base fees. */
  /** Granite: the ACP-176 fee state the simulated blocks price with; Helicon: the gas clock (docs/EVM.md "Helicon"). */
  private feeState: FeeState | undefined
  private gasClock: GasClock | undefined
  private budget: bigint
  private readonly basePrecompiles: PrecompileMap

  private constructor(
    private readonly chain: Chain,
    private readonly base: Block,
    private readonly opts: SimulateOptions,
    private readonly limits: SimulateLimits,
    private readonly sm: MerkleStateManager,
    private readonly vm: VM,
    private readonly guard: EvmGuard,
  ) {
    this.parent = base
    this.inherited = { coinbase: base.header.coinbase, difficulty: base.header.difficulty, gasLimit: base.header.gasLimit }
    if (chain.opts.helicon) this.gasClock = chain.executions.clockAfter(base)
    else this.feeState = chain.feeStateOf(base)
    this.budget = limits.gasCap === 0n ? MAX_UINT64 : limits.gasCap
    this.basePrecompiles = new Map(this.evmPrecompiles())
  }

  static async create(chain: Chain, base: Block, opts: SimulateOptions, limits: SimulateLimits, guard: EvmGuard): Promise<Simulator> {
    const trie = new MerklePatriciaTrie({
      db: new OverlayDB(chain.trieDb),
      useKeyHashing: true,
      common: chain.common,
      valueEncoding: ValueEncoding.Bytes,
      root: chain.stateRootOf(base),
    })
    const sm = new MerkleStateManager({ common: chain.common, trie, caches: new Caches() })
    const ref: { sim?: Simulator } = {}
    const blockchain = {
      getBlock: async (n: number) => ({ hash: () => ref.sim!.hashOf(BigInt(n)) }),
      putBlock: async () => {},
      shallowCopy: () => blockchain,
    }
    // A Common copy per VM, as in Executor.create: the EVM subscribes to its events.
    const vm = await chainVM(chain, sm, { guard, blockHashes: blockchain as never })
    const sim = new Simulator(chain, base, opts, limits, sm, vm, guard)
    ref.sim = sim
    return sim
  }

  /** BLOCKHASH in a simulated block: canonical below the base, simulated above it (zero when not yet built). */
  private hashOf(n: bigint): Uint8Array {
    if (n === this.base.header.number) return this.base.hash
    if (n < this.base.header.number) return this.chain.blockByNumber(n)?.hash ?? ZERO32
    return this.simHashes.get(n) ?? ZERO32
  }

  private evmPrecompiles(): PrecompileMap {
    return this.vm.evm.precompiles as PrecompileMap
  }

  /**
   * The precompiles a block's calls run (moved or removed by state overrides). Only lookups see
   * them: the warm set stays the fork's precompiles, as geth's StateDB.Prepare takes them.
   */
  private setPrecompiles(map: PrecompileMap): void {
    const evm = this.vm.evm as unknown as { getPrecompile: (a: Address | string) => unknown }
    evm.getPrecompile = (a) => map.get(typeof a === 'string' ? a.slice(2).padStart(40, '0').toLowerCase() : bytesToHex(a.bytes).slice(2))
  }

  /** geth processBlock: header fields, state overrides, the calls, then roots and the block hash. */
  async processBlock(input: SanitizedBlock): Promise<SimBlockResult> {
    const o = input.blockOverrides
    const parent = this.parent
    const timeMs = o.time * 1000n
    const coinbase = o.feeRecipient ?? this.inherited.coinbase
    const gasLimit = o.gasLimit ?? this.inherited.gasLimit
    const difficulty = o.difficulty ?? this.inherited.difficulty
    this.inherited = { coinbase, difficulty, gasLimit }
    let before: FeeState | undefined
    let baseFee = o.baseFeePerGas
    // A subnet-evm chain's blocks: its fee window over the simulated parent (docs/L1.md).
    const subnetEvm = this.chain.subnetEvm?.nextFees(parent, parent.header.minDelayExcess, timeMs).fees
    if (baseFee === undefined) {
      if (this.opts.validation && subnetEvm !== undefined) {
        baseFee = subnetEvm.baseFee ?? 0n
      } else if (this.opts.validation && this.gasClock !== undefined) {
        this.gasClock.beforeBlock(timeMs)
        baseFee = this.gasClock.price()
      } else if (this.opts.validation) {
        before = feeStateBeforeBlock(this.feeState!, parent.header.timeMilliseconds, timeMs)
        baseFee = gasPrice(before)
      } else {
        baseFee = 0n
      }
    }
    const env = this.chain.envBlock({ number: o.number, timestamp: o.time, gasLimit, baseFee, coinbase, mixHash: o.prevRandao })
    const view = envView(env, o.blobBaseFee)

    const precompiles: PrecompileMap = new Map(this.basePrecompiles)
    await applySimStateOverrides(this.sm, input.stateOverrides, precompiles)
    this.setPrecompiles(precompiles)

    const txs: TypedTransaction[] = []
    const receipts: Receipt[] = []
    const calls: SimCallResult[] = []
    const logCounter = { next: 0 }
    let gasUsed = 0n
    for (const [i, call] of input.calls.entries()) {
      const r = await this.runCall(call, i, { env, view, baseFee, gasLimit, gasUsed, logCounter })
      gasUsed += r.result.gasUsed
      txs.push(r.tx)
      receipts.push({ ...r.receipt, cumulativeGasUsed: gasUsed })
      calls.push(r.result)
    }

    const stateRoot = await this.sm.getStateRoot()
    const header: Header = {
      parentHash: parent.hash,
      uncleHash: KECCAK256_RLP_ARRAY,
      coinbase,
      stateRoot,
      txRoot: txRoot(txs),
      receiptRoot: receiptRoot(receipts),
      bloom: blockBloom(receipts),
      difficulty,
      number: o.number,
      gasLimit,
      gasUsed,
      timestamp: o.time,
      extraData: new Uint8Array(),
      mixHash: o.prevRandao ?? ZERO32,
      nonce: new Uint8Array(8),
      extDataHash: EMPTY_EXT_DATA_HASH,
      baseFee,
      extDataGasUsed: 0n,
      blockGasCost: 0n,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconRoot: ZERO32,
      timeMilliseconds: timeMs,
      minDelayExcess: parent.header.minDelayExcess,
      ...(subnetEvm !== undefined && { extraData: subnetEvm.extraData, subnetEvmFields: this.chain.subnetEvm!.rules.headerFieldCount(o.number, o.time) }),
    }
    const block = makeBlock(header, txs, new Uint8Array())
    this.simHashes.set(o.number, block.hash)
    this.parent = block
    if (this.opts.validation && this.gasClock !== undefined) {
      this.gasClock.beforeBlock(timeMs)
      const { target, cfg } = gasConfigAfter(targetExponentOf(this.chain, this.base), priceExponentOf(this.base))
      this.gasClock.afterBlock(gasUsed, target, cfg)
    } else if (this.opts.validation && subnetEvm === undefined) {
      const start = before ?? feeStateBeforeBlock(this.feeState!, parent.header.timeMilliseconds, timeMs)
      let after: FeeState
      try {
        after = consumeGas(start, gasUsed)
      } catch {
        after = { ...start, capacity: 0n, excess: start.excess + gasUsed }
      }
      this.feeState = updateTargetExcess(after, this.limits.gasTarget)
    }
    return { block, calls }
  }

  /** One call: geth's checks and transactions (simCall.ts), then its run on the block's state under the request's gas budget. */
  private async runCall(
    call: CallRequest,
    index: number,
    blk: {
      env: EnvBlock
      view: EnvView
      baseFee: bigint
      gasLimit: bigint
      gasUsed: bigint
      logCounter: { next: number }
    },
  ): Promise<{ tx: TypedTransaction; receipt: Receipt; result: SimCallResult }> {
    const c = await simCall(call, this.sm, blk, { chain: this.chain, validation: this.opts.validation, budget: this.budget })
    const { account, from, gas } = c

    // geth skips the EIP-3607 sender check for simulated calls; ethereumjs cannot, so the
    // sender's code is hidden for the call and put back afterwards.
    const hiddenCode = !equalsBytes(account.codeHash, KECCAK256_NULL) ? account.codeHash : undefined
    if (hiddenCode !== undefined) {
      account.codeHash = KECCAK256_NULL
      await this.sm.putAccount(from, account)
    }
    const tracer = this.opts.traceTransfers ? new TransferTracer(this.vm, blk.logCounter) : undefined
    // geth (NoBaseFee) skips the fee checks of a call without fees, yet BASEFEE still reads the header's.
    blk.view.hideBaseFee = c.noFees
    const onMessage = () => {
      blk.view.hideBaseFee = false
    }
    this.vm.evm.events!.on('beforeMessage', onMessage)
    setWarpTx(this.vm, c.warp)
    let run: RunTxResult
    try {
      run = await runTx(this.vm, {
        tx: c.execTx,
        block: blk.view.block,
        skipNonce: true,
        skipBalance: true,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      })
    } catch (err) {
      throw new SimulateError('internal', `err: ${(err as Error).message.replace(/ \(.*$/, '')} (supplied gas ${gas})`)
    } finally {
      this.vm.evm.events!.off('beforeMessage', onMessage)
      setWarpTx(this.vm, undefined)
      blk.view.hideBaseFee = false
      tracer?.detach()
    }
    this.guard.check()
    // A call that pays fees pays the coinbase (the feeRecipient) its base fee too, as coreth's state transition does.
    if (!c.noFees) await creditBaseFee(this.vm, blk.view.block, await chargeMinimum(this.vm, blk.view.block, c.execTx, run))
    const after = await this.sm.getAccount(from)
    if (after !== undefined && (hiddenCode !== undefined || after.nonce > MAX_UINT64)) {
      if (hiddenCode !== undefined && equalsBytes(after.codeHash, KECCAK256_NULL)) after.codeHash = hiddenCode
      // geth's uint64 nonce wraps around (ethereumjs's bigint would not).
      after.nonce &= MAX_UINT64
      await this.sm.putAccount(from, after)
    }

    const used = run.totalGasSpent
    if (used > this.budget) throw new EngineError(`RPC gas cap exhausted: need ${used}, remaining ${this.budget}`)
    this.budget -= used
    return { tx: c.tx, ...simCallResult(c, run, index, blk.logCounter, tracer) }
  }
}

/** The environment block as runTx sees it: the base fee can be hidden from its pre-checks, the blob base fee overridden. */
interface EnvView {
  block: EnvBlock
  hideBaseFee: boolean
}

function envView(env: EnvBlock, blobBaseFee: bigint | undefined): EnvView {
  const view = { hideBaseFee: false } as EnvView
  const header = Object.create(env.header, {
    baseFeePerGas: { get: () => (view.hideBaseFee ? 0n : env.header.baseFeePerGas) },
    ...(blobBaseFee === undefined ? {} : { getBlobGasPrice: { value: () => blobBaseFee } }),
  }) as EnvHeader
  view.block = Object.create(env, { header: { value: header } }) as EnvBlock
  return view
}
