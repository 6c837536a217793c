import type { Block as EnvBlock, BlockHeader as EnvHeader } from '@ethereumjs/block'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { createTx, type TypedTransaction } from '@ethereumjs/tx'
import { Account, Address, bytesToHex, equalsBytes, KECCAK256_NULL, KECCAK256_RLP_ARRAY, toChecksumAddress, ValueEncoding } from '@ethereumjs/util'
import { createVM, runTx, type RunTxResult, type VM } from '@ethereumjs/vm'
import { type Block, type Header, makeBlock } from '../chain/block.js'
import { EMPTY_EXT_DATA_HASH, type Chain } from '../chain/chain.js'
import { keccak256 } from '../../util/crypto.js'
import { EngineError, SimulateError } from '../base/errors.js'
import { EvmGuard } from './evmGuard.js'
import { executionError, type CallOutcome } from './executor.js'
import { consumeGas, feeStateBeforeBlock, gasPrice, updateTargetExcess, type FeeState } from '../rules/feeState.js'
import { receiptRoot, txRoot } from '../chain/orderedTrieRoot.js'
import { blockBloom, type Log, type Receipt } from '../chain/receipt.js'
import type { CallRequest } from '../base/types.js'
import { OverlayDB } from '../state/overlayDb.js'
import { sanitizeChain, type SanitizedBlock, type SimBlockResult, type SimCallResult, type SimLog, type SimulateLimits, type SimulateOptions } from './simulateOptions.js'
import { TransferTracer } from './transferTracer.js'
import { applySimStateOverrides, type PrecompileMap } from './simStateOverrides.js'

/*
 * eth_simulateV1 as geth runs it (internal/ethapi/simulate.go, logtracer.go, errors.go): blocks
 * of calls on top of a base block, each with block and state overrides, executed on a throwaway
 * state whose trie writes never reach the node's database.
 */

/** EIP-3860 (geth params.MaxInitCodeSize). */
const MAX_INIT_CODE_SIZE = 49152
const MAX_UINT256 = (1n << 256n) - 1n
const MAX_UINT64 = (1n << 64n) - 1n
const ZERO32 = new Uint8Array(32)
const ZERO_ADDRESS = new Uint8Array(20)

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
  private feeState: FeeState
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
    this.feeState = chain.feeStateOf(base)
    this.budget = limits.gasCap === 0n ? MAX_UINT64 : limits.gasCap
    this.basePrecompiles = new Map(this.evmPrecompiles())
  }

  static async create(chain: Chain, base: Block, opts: SimulateOptions, limits: SimulateLimits, guard: EvmGuard): Promise<Simulator> {
    const trie = new MerklePatriciaTrie({
      db: new OverlayDB(chain.trieDb),
      useKeyHashing: true,
      common: chain.common,
      valueEncoding: ValueEncoding.Bytes,
      root: base.header.stateRoot,
    })
    const sm = new MerkleStateManager({ common: chain.common, trie, caches: new Caches() })
    const ref: { sim?: Simulator } = {}
    const blockchain = {
      getBlock: async (n: number) => ({ hash: () => ref.sim!.hashOf(BigInt(n)) }),
      putBlock: async () => {},
      shallowCopy: () => blockchain,
    }
    // A Common copy per VM, as in Executor.create: the EVM subscribes to its events.
    const vm = await createVM({ common: chain.common.copy(), stateManager: sm, blockchain: blockchain as never, evmOpts: { customOpcodes: guard.opcodes } })
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
    if (baseFee === undefined) {
      if (this.opts.validation) {
        before = feeStateBeforeBlock(this.feeState, parent.header.timeMilliseconds, timeMs)
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
    }
    const block = makeBlock(header, txs, new Uint8Array())
    this.simHashes.set(o.number, block.hash)
    this.parent = block
    if (this.opts.validation) {
      const start = before ?? feeStateBeforeBlock(this.feeState, parent.header.timeMilliseconds, timeMs)
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

  /** One call: geth sanitizeCall, the state-transition pre-checks with their wording, then execution. */
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
    const fromBytes = call.from ?? ZERO_ADDRESS
    const from = new Address(fromBytes)
    const fromHex = toChecksumAddress(from.toString())
    const account = (await this.sm.getAccount(from)) ?? new Account()
    const nonce = call.nonce ?? account.nonce
    const remaining = blk.gasLimit - blk.gasUsed
    const requested = call.gas ?? remaining
    if (remaining < requested) {
      throw new SimulateError('blockGasLimitReached', `block gas limit reached: remaining: ${remaining}, required: ${requested}`)
    }
    const gas = requested > this.budget ? this.budget : requested
    const gasCapped = gas < requested
    if (call.chainId !== undefined && call.chainId !== this.chain.chainId) {
      throw new EngineError(`chainId does not match node's (have=${call.chainId}, want=${this.chain.chainId})`)
    }
    const legacy = call.gasPrice !== undefined
    const feeCap = call.gasPrice ?? call.maxFeePerGas ?? 0n
    const tip = call.gasPrice ?? call.maxPriorityFeePerGas ?? 0n
    let price = feeCap
    if (!legacy) price = feeCap === 0n && tip === 0n ? 0n : min(tip + blk.baseFee, feeCap)
    const value = call.value ?? 0n
    const data = call.input ?? new Uint8Array()
    const fail = (kind: ConstructorParameters<typeof SimulateError>[0], msg: string): never => {
      throw new SimulateError(kind, `err: ${msg} (supplied gas ${gas})`)
    }

    // core/state_transition.go preCheck, in its order.
    if (this.opts.validation) {
      if (account.nonce < nonce) fail('nonceTooHigh', `nonce too high: address ${fromHex}, tx: ${nonce} state: ${account.nonce}`)
      if (account.nonce > nonce) fail('nonceTooLow', `nonce too low: address ${fromHex}, tx: ${nonce} state: ${account.nonce}`)
      if (account.nonce === MAX_UINT64) fail('internal', `nonce has max value: address ${fromHex}, nonce: ${account.nonce}`)
    }
    const noFees = !this.opts.validation && feeCap === 0n && tip === 0n
    if (!noFees) {
      if (feeCap < tip) fail('invalidParams', `max priority fee per gas higher than max fee per gas: address ${fromHex}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`)
      if (feeCap < blk.baseFee) fail('feeCapTooLow', `max fee per gas less than block base fee: address ${fromHex}, maxFeePerGas: ${feeCap}, baseFee: ${blk.baseFee}`)
    }
    if (call.to == null && data.length > MAX_INIT_CODE_SIZE) {
      fail('initCodeTooLarge', `max initcode size exceeded: code size ${data.length}, limit ${MAX_INIT_CODE_SIZE}`)
    }
    const want = gas * feeCap + value
    if (want > MAX_UINT256) fail('insufficientFunds', `insufficient funds for gas * price + value: address ${fromHex} required balance exceeds 256 bits`)
    if (account.balance < want) fail('insufficientFunds', `insufficient funds for gas * price + value: address ${fromHex} have ${account.balance} want ${want}`)

    const common = this.chain.txCommon
    // ethereumjs refuses a nonce of 2^64-1 that geth accepts: it is set after construction.
    const fields = { nonce: 0n, gasLimit: gas, to: call.to ?? undefined, value, data, chainId: this.chain.chainId }
    const accessList = (call.accessList ?? []).map((i): [Uint8Array, Uint8Array[]] => [i.address, i.storageKeys])
    const execTx = createTx({ ...fields, type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList }, { common, freeze: false })
    const intrinsic = execTx.getIntrinsicGas()
    if (gas < intrinsic) fail('intrinsicGas', `intrinsic gas too low: have ${gas}, want ${intrinsic}`)

    // The transaction as geth reports it (ToTransaction: legacy when gasPrice is given), unsigned.
    const tx = legacy
      ? createTx({ ...fields, type: 0, gasPrice: feeCap }, { common, freeze: false })
      : createTx({ ...fields, type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList }, { common, freeze: false })
    ;(tx as { nonce: bigint }).nonce = nonce
    const txHash = keccak256(legacy ? RLP.encode(tx.raw() as never) : tx.serialize())
    ;(tx as { hash: () => Uint8Array }).hash = () => txHash
    ;(tx as { getSenderAddress: () => Address }).getSenderAddress = () => from
    ;(execTx as { getSenderAddress: () => Address }).getSenderAddress = () => from

    // geth skips the EIP-3607 sender check for simulated calls; ethereumjs cannot, so the
    // sender's code is hidden for the call and put back afterwards.
    const hiddenCode = !equalsBytes(account.codeHash, KECCAK256_NULL) ? account.codeHash : undefined
    if (hiddenCode !== undefined) {
      account.codeHash = KECCAK256_NULL
      await this.sm.putAccount(from, account)
    }
    const tracer = this.opts.traceTransfers ? new TransferTracer(this.vm, blk.logCounter) : undefined
    // geth (NoBaseFee) skips the fee checks of a call without fees, yet BASEFEE still reads the header's.
    blk.view.hideBaseFee = noFees
    const onMessage = () => {
      blk.view.hideBaseFee = false
    }
    this.vm.evm.events!.on('beforeMessage', onMessage)
    let run: RunTxResult
    try {
      run = await runTx(this.vm, {
        tx: execTx,
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
      blk.view.hideBaseFee = false
      tracer?.detach()
    }
    this.guard.check()
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
    const exec = run.execResult
    const failed = exec.exceptionError !== undefined
    const evmLogs: Log[] = failed ? [] : (exec.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }))
    let logs: SimLog[]
    if (tracer !== undefined) {
      logs = failed ? [] : tracer.logs().map((l) => ({ log: l.log, txIndex: index, logIndex: l.index }))
    } else {
      logs = evmLogs.map((log) => ({ log, txIndex: index, logIndex: blk.logCounter.next++ }))
    }
    const result: SimCallResult = {
      // geth ExecutionResult.Return(): nothing when the call failed (a revert's data is in the error).
      returnData: failed ? new Uint8Array() : exec.returnValue,
      logs,
      gasUsed: used,
      maxUsedGas: intrinsic + exec.executionGasUsed,
      status: failed ? 0 : 1,
    }
    if (failed) {
      const reverted = exec.exceptionError!.error === 'revert'
      const err = executionError({ reverted, returnData: exec.returnValue, error: exec.exceptionError!.error } as CallOutcome)
      result.error = reverted
        ? { kind: 'reverted', message: err.message, data: exec.returnValue }
        : { kind: 'vm', message: err.message + (gasCapped ? " (gas limit was capped by the RPC server's global gas cap)" : '') }
    }
    const receipt: Receipt = {
      txType: tx.type,
      status: failed ? 0 : 1,
      cumulativeGasUsed: 0n,
      gasUsed: used,
      effectiveGasPrice: price,
      contractAddress: run.createdAddress?.bytes,
      logs: evmLogs,
    }
    return { tx, receipt, result }
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

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}
