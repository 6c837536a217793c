import type { DevControls } from '../../dev/devControls.js'
import type { MiningControls } from '../../dev/miningControls.js'
import type { StateEditor } from '../../dev/stateEditor.js'
import type { TimeControls } from '../../dev/timeControls.js'
import { type MethodTable, inService, mergeTables } from '../../rpc/types.js'
import { miningMethods } from './mining.js'
import { snapshotMethods } from './snapshots.js'
import { stateMethods } from './state.js'
import { timeMethods } from './time.js'

/** The development controls a chain serves (src/dev/), built by chains/evmChain.ts when they are on. */
export interface DevServices {
  readonly controls: DevControls
  readonly state: StateEditor
  readonly mining: MiningControls
  readonly time: TimeControls
}

/** The `evm_`, `anvil_` and `hardhat_` development methods (docs/DEV.md), the `dev` service of `eth-apis`. */
export function devMethods(dev: DevServices): MethodTable {
  return inService('dev', mergeTables(snapshotMethods(dev.controls), stateMethods(dev.state), miningMethods(dev.mining), timeMethods(dev.time, dev.mining)))
}
