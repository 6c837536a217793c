// Written into a Hardhat project's checkout by cchain-node's `npm run suite:<name>` (scripts/suite.ts);
// not part of the project. The project's own config, plus:
// - SUITE_RPC_URL: a network `suite` at that URL, with the 20 accounts of Hardhat's and anvil's test
//   mnemonic (what `hardhat node` and `anvil --accounts 20` fund; the script funds them on cchain-node);
// - SUITE_REPORT: mocha's JSON report in that file;
// - SUITE_TIMES: the time the tests spent waiting on each JSON-RPC method, in that file;
// - SUITE_SOLCJS_DIR: where Hardhat cannot download its compiler (no internet), the same solc
//   version from npm (solc-js), run by SUITE_SOLCJS_RUNNER.
const { execFile } = require('node:child_process')
const { writeFileSync } = require('node:fs')
const { extendProvider, subtask } = require('hardhat/config')
const { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, TASK_COMPILE_SOLIDITY_RUN_SOLCJS } = require('hardhat/builtin-tasks/task-names')
const { ProviderWrapper } = require('hardhat/plugins')

const config = require(process.env.SUITE_PROJECT_CONFIG || './hardhat.config.js')
const { SUITE_RPC_URL, SUITE_REPORT, SUITE_TIMES, SUITE_SOLCJS_DIR, SUITE_SOLCJS_RUNNER } = process.env

if (SUITE_RPC_URL) {
  const accounts = { mnemonic: 'test test test test test test test test test test test junk', count: 20 }
  config.networks = { ...config.networks, suite: { url: SUITE_RPC_URL, accounts, timeout: 600_000 } }
}
if (SUITE_REPORT) config.mocha = { ...config.mocha, reporter: 'json', reporterOption: { output: SUITE_REPORT } }

if (SUITE_TIMES) {
  const times = {}
  class Timed extends ProviderWrapper {
    async request(args) {
      const start = performance.now()
      try {
        return await this._wrappedProvider.request(args)
      } finally {
        const t = (times[args.method] ??= { count: 0, ms: 0 })
        t.count++
        t.ms += performance.now() - start
      }
    }
  }
  extendProvider((provider) => new Timed(provider))
  process.on('exit', () => writeFileSync(SUITE_TIMES, JSON.stringify(times)))
}

if (SUITE_SOLCJS_DIR) {
  const solcDir = SUITE_SOLCJS_DIR
  subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD).setAction(async (args, _hre, runSuper) => {
    try {
      return await runSuper(args)
    } catch (err) {
      const solc = require(require.resolve('solc', { paths: [solcDir] }))
      const longVersion = solc.version().replace(/\.Emscripten.*$/, '')
      if (!longVersion.startsWith(`${args.solcVersion}+`)) throw err
      return { compilerPath: require.resolve('solc/soljson.js', { paths: [solcDir] }), isSolcJs: true, version: args.solcVersion, longVersion }
    }
  })
  subtask(TASK_COMPILE_SOLIDITY_RUN_SOLCJS).setAction(async (args, _hre, runSuper) => {
    if (!SUITE_SOLCJS_RUNNER || !args.solcJsPath.startsWith(solcDir)) return runSuper(args)
    const out = await new Promise((resolve, reject) => {
      const child = execFile(process.execPath, [SUITE_SOLCJS_RUNNER, solcDir], { maxBuffer: 2 ** 30 }, (err, stdout) => (err ? reject(err) : resolve(stdout)))
      child.stdin.end(JSON.stringify(args.input))
    })
    return JSON.parse(out)
  })
}

module.exports = config
