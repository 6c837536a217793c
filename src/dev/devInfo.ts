import { randomBytes } from 'node:crypto'
import { bytesToHex } from '@ethereumjs/util'
import type { Engine } from '../engine/engine.js'
import type { DevControls } from './devControls.js'

/** The head as a snapshot saw it. */
interface SnapshotHead {
  number: number
  hash: string
}

/**
 * What anvil_nodeInfo and anvil_metadata (hardhat_metadata) tell about this node: the head, the
 * next block's fees, an instance id that is new at start and at every reset (as anvil's and
 * hardhat's), and the live snapshots with the head each was taken at
 * (anvil: crates/anvil/src/eth/api.rs anvil_node_info, anvil_metadata).
 */
export class DevInfo {
  private instance = randomBytes(32)

  constructor(
    private readonly engine: Engine,
    private readonly controls: DevControls,
  ) {
    controls.addPart('head', {
      save: (): SnapshotHead => ({ number: Number(engine.head.header.number), hash: bytesToHex(engine.head.hash) }),
      restore: (saved) => {
        if (saved === undefined) this.instance = randomBytes(32)
      },
    })
  }

  get instanceId(): string {
    return bytesToHex(this.instance)
  }

  get chainId(): number {
    return Number(this.engine.chainId)
  }

  /** The head block's number, hash and timestamp (seconds). */
  head(): { number: bigint; hash: string; timestamp: bigint } {
    const { header, hash } = this.engine.head
    return { number: header.number, hash: bytesToHex(hash), timestamp: header.timestamp }
  }

  /** The next block's base fee and gas limit, and eth_gasPrice's answer. */
  environment(): { baseFee: bigint; gasLimit: bigint; gasPrice: bigint } {
    const { fees } = this.engine
    return { baseFee: fees.nextBaseFee(), gasLimit: fees.nextGasLimit(), gasPrice: fees.gasPrice() }
  }

  /** Live snapshots: id -> the head when it was taken (unknown heads omitted: taken before this part existed). */
  snapshots(): { id: bigint; head: SnapshotHead }[] {
    const out: { id: bigint; head: SnapshotHead }[] = []
    for (const { id, saved } of this.controls.liveSnapshots()) {
      const head = saved.head as SnapshotHead | undefined
      if (head !== undefined && head !== null) out.push({ id, head })
    }
    return out
  }
}
