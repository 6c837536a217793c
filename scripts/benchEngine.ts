import { engineOptions } from '../src/chains/engineOptions.js'
import { ChainConfigFile } from '../src/config.js'
import type { EngineOptions } from '../src/engine/engineOptions.js'
import { loadGenesis } from '../src/engine/rules/genesis.js'
import { createLogger } from '../src/log.js'

/** The engine the in-process benchmarks run: the local genesis, blocks only when asked (buildBlock), no guard, the EVM named. */
export function benchEngineOptions(chain: Record<string, unknown>, interpreter: 'own' | 'ethereumjs'): EngineOptions {
  return engineOptions(ChainConfigFile.parse(chain), {
    genesis: loadGenesis(),
    log: createLogger('error'),
    blockInterval: 3_600_000,
    pendingNonceGuardMs: 0,
    devChain: false,
    failedSendErrors: false,
    evm: { interpreter, oracle: false },
  })
}
