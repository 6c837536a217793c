/**
 * `npm run suite:<name>` (docs/SUITES.md): a widely used Hardhat project's own test suite, unchanged,
 * pointed with `--network` at this node, at the project's own `hardhat node` and at anvil, one after
 * another in one sitting; then the passes, the failures by cause, the wall time and the time spent
 * on each JSON-RPC method, side by side.
 *   npm run suite:openzeppelin -- [--targets cchain,hardhat,anvil] [--source <git URL or local clone>]
 *                                 [--dir <work dir>] [--grep <mocha pattern>]
 * The project is cloned at its pinned commit into <work dir>/repo (default `.suites/<name>`,
 * git-ignored) and installed with its own lockfile; nothing of it is kept in this repository.
 */
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type MethodTimes, type MochaReport, type TargetRun, summarise } from './suite/report.js'
import { SUITES, type SuiteDef } from './suite/suites.js'
import { TARGETS, type TargetName, startTarget } from './suite/targets.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const TEMPLATES = join(ROOT, 'scripts/suite')
const CONFIG = 'hardhat.suite.config.cjs'
const RUNNER = 'solcjs-runner.cjs'
/** One `hardhat test` run at most (the whole OpenZeppelin suite takes minutes). */
const RUN_TIMEOUT_MS = 60 * 60_000

interface Options {
  suite: SuiteDef
  targets: TargetName[]
  source: string
  dir: string
  grep?: string
}

function parseArgs(argv: string[]): Options {
  const name = argv[0]
  const suite = name === undefined ? undefined : SUITES[name]
  if (suite === undefined) throw new Error(`usage: suite.js <${Object.keys(SUITES).join('|')}> [--targets ${TARGETS.join(',')}] [--source URL] [--dir DIR] [--grep PATTERN]`)
  const opts: Options = { suite, targets: [...TARGETS], source: suite.repository, dir: join(ROOT, '.suites', suite.name) }
  for (let i = 1; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    if (value === undefined) throw new Error(`${flag} needs a value`)
    if (flag === '--targets') opts.targets = value.split(',').map((t) => checkTarget(t))
    else if (flag === '--source') opts.source = value
    else if (flag === '--dir') opts.dir = resolve(value)
    else if (flag === '--grep') opts.grep = value
    else throw new Error(`unknown flag ${flag}`)
  }
  return opts
}

function checkTarget(t: string): TargetName {
  if (!(TARGETS as readonly string[]).includes(t)) throw new Error(`unknown target ${t} (${TARGETS.join(', ')})`)
  return t as TargetName
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  console.error(`$ ${cmd} ${args.join(' ')}   (in ${cwd})`)
  execFileSync(cmd, args, { cwd, env, stdio: 'inherit' })
}

/** The project at its pinned commit: cloned once, checked out again if the clone moved. */
function checkout(opts: Options): string {
  const repo = join(opts.dir, 'repo')
  mkdirSync(opts.dir, { recursive: true })
  if (!existsSync(join(repo, '.git'))) run('git', ['clone', '--quiet', opts.source, repo], opts.dir)
  const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo }).toString().trim()
  if (head() !== opts.suite.commit) {
    try {
      run('git', ['checkout', '--quiet', opts.suite.commit], repo)
    } catch {
      run('git', ['fetch', '--quiet', 'origin', opts.suite.commit], repo)
      run('git', ['checkout', '--quiet', opts.suite.commit], repo)
    }
  }
  if (head() !== opts.suite.commit) throw new Error(`${repo} is not at ${opts.suite.commit}`)
  return repo
}

/** The project's dependencies from its own lockfile (its install scripts are git hooks: skipped), and solc-js of its version from npm. */
function install(opts: Options, repo: string): string {
  const lock = readFileSync(join(repo, 'package-lock.json'), 'utf8')
  const marker = join(repo, 'node_modules', '.suite-lock')
  if (!existsSync(marker) || readFileSync(marker, 'utf8') !== lock) {
    run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], repo)
    writeFileSync(marker, lock)
  }
  const solcDir = join(opts.dir, `solc-${opts.suite.solc}`)
  if (!existsSync(join(solcDir, 'node_modules/solc/soljson.js'))) {
    mkdirSync(solcDir, { recursive: true })
    writeFileSync(join(solcDir, 'package.json'), '{"private":true}\n')
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `solc@${opts.suite.solc}`], solcDir)
  }
  copyFileSync(join(TEMPLATES, CONFIG), join(repo, CONFIG))
  copyFileSync(join(TEMPLATES, RUNNER), join(opts.dir, RUNNER))
  return solcDir
}

/**
 * `hardhat test` against `url`; resolves when it exits, with the last lines it printed (a failing
 * suite exits non-zero: that is a result, not an error).
 */
function hardhatTest(repo: string, env: NodeJS.ProcessEnv, grep: string | undefined): Promise<{ code: number; tail: string }> {
  const args = [join(repo, 'node_modules/hardhat/internal/cli/cli.js'), 'test', '--config', CONFIG, '--network', 'suite', '--no-compile']
  if (grep !== undefined) args.push('--grep', grep)
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: repo, env, stdio: ['ignore', 'inherit', 'pipe'] })
    let tail = ''
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk)
      tail = (tail + chunk.toString()).slice(-4000)
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
    child.once('error', reject)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolvePromise({ code: code ?? -1, tail })
    })
  })
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2))
  if (!existsSync(join(ROOT, 'dist/src/main.js'))) throw new Error('build the node first: npm run build')
  const repo = checkout(opts)
  const solcDir = install(opts, repo)
  const env = { ...process.env, SUITE_SOLCJS_DIR: solcDir, SUITE_SOLCJS_RUNNER: join(opts.dir, RUNNER) }
  run(process.execPath, [join(repo, 'node_modules/hardhat/internal/cli/cli.js'), 'compile', '--config', CONFIG], repo, env)
  const runDir = join(opts.dir, 'runs', new Date().toISOString().replace(/[:.]/g, '-'))
  mkdirSync(runDir, { recursive: true })
  const runs: TargetRun[] = []
  for (const target of opts.targets) {
    console.error(`\n== ${opts.suite.name} against ${target}`)
    const node = await startTarget(target, { root: ROOT, checkout: repo, logFile: join(runDir, `${target}.node.log`), anvilArgs: opts.suite.anvilArgs })
    const reportFile = join(runDir, `${target}.json`)
    const timesFile = join(runDir, `${target}.times.json`)
    const started = performance.now()
    let exit: { code: number; tail: string }
    try {
      exit = await hardhatTest(repo, { ...env, SUITE_RPC_URL: node.url, SUITE_REPORT: reportFile, SUITE_TIMES: timesFile }, opts.grep)
    } finally {
      await node.stop()
    }
    const wallMs = performance.now() - started
    if (!existsSync(reportFile)) {
      // The suite stopped before mocha reported (a helper refusing the node, a crash): say why, go on.
      const reason =
        exit.tail
          .split('\n')
          .find((l) => /Error/.test(l))
          ?.trim() ?? `exit code ${exit.code}`
      console.error(`${target}: no tests ran: ${reason}`)
      runs.push({ target, refused: reason, wallMs })
      continue
    }
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as MochaReport
    const times = existsSync(timesFile) ? (JSON.parse(readFileSync(timesFile, 'utf8')) as MethodTimes) : {}
    runs.push({ target, report, times, wallMs })
    const { stats } = report
    console.error(`${target}: ${stats.passes} passed, ${stats.failures} failed, ${stats.pending} pending, ${(wallMs / 1000).toFixed(1)} s`)
  }
  const summary = summarise(`${opts.suite.title} at ${opts.suite.commit.slice(0, 10)}`, runs)
  writeFileSync(join(runDir, 'summary.md'), summary)
  console.log(summary)
  console.error(`reports, logs and summary.md in ${runDir}`)
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
