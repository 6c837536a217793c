import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { engineOptions } from '../../../src/chains/engineOptions.js'
import { ChainConfigFile } from '../../../src/config.js'
import { loadGenesis } from '../../../src/engine/rules/genesis.js'

const setup = {
  genesis: loadGenesis(),
  log: pino({ level: 'silent' }),
  blockInterval: 0,
  pendingNonceGuardMs: 250,
  devChain: true,
  failedSendErrors: true,
  evm: { interpreter: 'own' as const, oracle: true },
}

describe('engineOptions', () => {
  it("maps the chain config defaults onto the engine options, in the engine's units", () => {
    const opts = engineOptions(ChainConfigFile.parse({}), setup)
    expect(opts).toMatchObject({
      blockInterval: 0,
      pendingNonceGuardMs: 250,
      devChain: true,
      failedSendErrors: true,
      rpcGasCap: 50_000_000n,
      evmTimeoutMs: 5000,
      admission: { allowUnprotected: false, txFeeCap: 100, minTip: 1n, maxSize: 128 * 1024 },
      pool: { priceBump: 10n, accountSlots: 16, globalSlots: 5120, accountQueue: 64, globalQueue: 1024 },
      filters: { timeoutMs: 300_000, maxCount: 1000, maxBuffered: 10_000 },
      logs: { maxBlockRange: 10_000n, maxResults: 10_000 },
      feeHistory: { maxBlocks: 1024n, maxPercentiles: 100 },
      gasTarget: undefined,
      minDelayTarget: 0,
      stateHistory: undefined,
      proofWindow: 43_200n,
    })
  })

  it('keeps `state-history` blocks of state only with pruning; Go durations and nanoseconds become ms', () => {
    const chain = ChainConfigFile.parse({
      'pruning-enabled': true,
      'state-history': 64,
      'rpc-evm-timeout': '1m30s',
      'filter-timeout': 2_000_000_000,
      'gas-target': 15_000_000,
    })
    expect(engineOptions(chain, setup)).toMatchObject({ stateHistory: 64n, evmTimeoutMs: 90_000, filters: { timeoutMs: 2000 }, gasTarget: 15_000_000 })
    expect(engineOptions(ChainConfigFile.parse({ 'state-history': 64 }), setup).stateHistory).toBeUndefined()
  })
})
