import { chainVM } from '../exec/chainVm.js'
import { BlockTxRunner } from '../exec/blockTx.js'
import { type OwnEvm, chainHost } from '../exec/ownEvm.js'
import { type Block, makeBlock } from '../chain/block.js'
import { planNextBlock, type RunOutcome, runCandidates, sealHeader } from './blockAssembly.js'
import type { HeliconVotes } from './heliconBlock.js'
import type { BlockClock } from '../rules/blockClock.js'
import type { BlockOverrides } from '../chain/blockOverrides.js'
import type { Chain } from '../chain/chain.js'
import { desiredDelayExcess } from '../rules/feeState.js'
import { orderedTrieRoot, txRoot } from '../chain/orderedTrieRoot.js'
import { OverlayState } from '../state/overlayState.js'
import { blockBloom } from '../chain/receipt.js'
import { writeChanges } from '../state/stateWriter.js'
import type { TrieNodes } from '../state/trieBatch.js'
import type { TxPool } from '../pool/txPool.js'

const NO_TXS: RunOutcome = { included: [], dropped: [], receipts: [], receiptBytes: [], gasUsed: 0n, limitGas: 0n, failures: new Map(), predicateResults: new Map() }

/**
 * The pending block as geth's miner offers it (miner/pending.go; eth/api_backend.go BlockByNumber
 * with rpc.PendingBlockNumber): the block the builder would make on the head now, its number,
 * parent, time, base fee, gas limit and miner picked as the builder picks them
 * (src/engine/mining/blockAssembly.ts), holding the pool's executable transactions that fit, run on a
 * throwaway overlay of the head's state; its state root is computed into a throwaway node set.
 * Nothing of it is kept, and atomic txs are not in it (the atomic mempool assembles them only into
 * a block it commits).
 */
export class PendingBlocks {
  private readonly desiredDelay: bigint

  constructor(
    private readonly chain: Chain,
    private readonly pool: TxPool,
    /** The block builder: its clock, header overrides and Helicon votes. */
    private readonly next: { clock: BlockClock; overrides: BlockOverrides; votes: HeliconVotes },
    private readonly opts: { gasTarget?: number; minDelayTarget: number },
    /** The node's interpreter, where it runs this chain's blocks. */
    private readonly own: OwnEvm | undefined,
  ) {
    this.desiredDelay = desiredDelayExcess(BigInt(opts.minDelayTarget))
  }

  async block(): Promise<Block> {
    const chain = this.chain
    const plan = planNextBlock(chain, this.next.clock, this.next.overrides, this.next.votes)
    const candidates = this.pool.executable(plan.feeFloor)
    let run = NO_TXS
    let stateRoot = chain.headStateRoot
    if (candidates.length > 0) {
      const env = chain.envBlock({ number: plan.number, timestamp: plan.timeMs / 1000n, gasLimit: plan.gasLimit, baseFee: plan.baseFee, coinbase: plan.coinbase })
      const sm = new OverlayState(chain.headView(), chain.codeSource)
      const vm = await chainVM(chain, sm)
      run = await runCandidates(
        new BlockTxRunner(vm, sm, this.own, chainHost(chain), chain.warp),
        sm,
        env,
        candidates,
        plan,
        async () => {},
        () => {},
      )
      const written = new Map<string, Uint8Array>()
      const nodes: TrieNodes = { get: (hash) => written.get(hash) ?? chain.trieNodes.get(hash), put: (hash, node) => void written.set(hash, node) }
      stateRoot = (await writeChanges(nodes, chain.headStateRoot, (addrHash) => chain.flat.account(addrHash), sm.changes(), undefined, chain.forkState)).root
    }
    const txs = run.included.map((p) => p.tx)
    const extData = new Uint8Array()
    const gasTarget = this.opts.gasTarget === undefined ? undefined : BigInt(this.opts.gasTarget)
    const header = sealHeader(chain, plan, {
      stateRoot,
      txRoot: txRoot(txs),
      receiptRoot: orderedTrieRoot(run.receiptBytes),
      bloom: blockBloom(run.receipts),
      gasUsed: run.gasUsed,
      extData,
      extDataGasUsed: 0n,
      gasTarget,
      desiredDelay: this.desiredDelay,
      predicateResults: run.predicateResults,
      limitGas: run.limitGas,
    })
    return makeBlock(header, txs, extData)
  }
}
