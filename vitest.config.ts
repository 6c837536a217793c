import { defineConfig } from 'vitest/config'

/** The foundation and conformance files that run a second time against an extra EVM chain's paths (issue 8). */
const EXTRA_CHAIN_FILES = [
  'test/conformance/**/*.test.ts',
  ...[
    'eth.blocks',
    'evm.rules',
    'evm.errors',
    'eth.call',
    'eth.chain',
    'eth.estimate',
    'eth.fees',
    'eth.logs',
    'eth.proof',
    'eth.simulate',
    'eth.state',
    'eth.transactions',
    'clients',
    'rpc.errors',
    'rpc.transports',
    'debug.trace',
    'p256',
    'persistence',
    'smoke',
    'warp.precompile',
    'warp.api',
    'warp.predicates',
    'warp.aggregator',
  ].map((name) => `test/integration/${name}.test.ts`),
]

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    projects: [
      { extends: true, test: { name: 'c-chain', include: ['test/**/*.test.ts'] } },
      // test/helpers/testNode.ts points url/wsUrl at an extra chain carrying the local genesis.
      { extends: true, test: { name: 'extra-chain', include: EXTRA_CHAIN_FILES, env: { CCHAIN_TEST_CHAIN: 'extra' } } },
    ],
  },
})
