import type { DevControls } from '../../dev/devControls.js'
import type { DevInfo } from '../../dev/devInfo.js'
import type { Impersonation } from '../../dev/impersonation.js'
import type { MiningControls } from '../../dev/miningControls.js'
import type { PoolControls } from '../../dev/poolControls.js'
import type { StateDump } from '../../dev/stateDump.js'
import type { StateEditor } from '../../dev/stateEditor.js'
import type { TimeControls } from '../../dev/timeControls.js'
import type { RequestLogging } from '../../dev/requestLogging.js'
import { type MethodTable, inService, mergeTables } from '../../rpc/types.js'
import { accountMethods } from './accounts.js'
import { dumpMethods } from './dump.js'
import { infoMethods } from './info.js'
import { loggingMethods } from './logging.js'
import { miningMethods } from './mining.js'
import { poolMethods } from './pool.js'
import { snapshotMethods } from './snapshots.js'
import { stateMethods } from './state.js'
import { timeMethods } from './time.js'

/** The development controls a chain serves (src/dev/), built by chains/evmChain.ts when they are on. */
export interface DevServices {
  readonly controls: DevControls
  readonly state: StateEditor
  readonly mining: MiningControls
  readonly time: TimeControls
  readonly impersonation: Impersonation
  readonly pool: PoolControls
  readonly dump: StateDump
  readonly info: DevInfo
  readonly logging: RequestLogging
}

/** The `evm_`, `anvil_` and `hardhat_` development methods (docs/DEV.md), the `dev` service of `eth-apis`; `version` is web3_clientVersion's answer. */
export function devMethods(dev: DevServices, version: string): MethodTable {
  return inService(
    'dev',
    mergeTables(
      snapshotMethods(dev.controls),
      stateMethods(dev.state),
      miningMethods(dev.mining),
      timeMethods(dev.time, dev.mining),
      accountMethods(dev.impersonation),
      poolMethods(dev.pool),
      dumpMethods(dev.dump),
      infoMethods(dev.info, version),
      loggingMethods(dev.logging),
    ),
  )
}
