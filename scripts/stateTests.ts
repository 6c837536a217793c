/**
 * `npm run suite:ethereum-tests` (docs/EVM.md): a subset of ethereum/tests GeneralStateTests (Cancun),
 * every post entry run on ethereumjs's runTx and on the project's interpreter (src/evm/runTransaction.ts);
 * the state root and the logs' hash must be the fillers'. Counts, failures by name and reason (the
 * known ones apart) and the time per engine are printed and written to `<dir>/summary.md`.
 *   npm run suite:ethereum-tests -- [--source <git URL, local clone or git directory>] [--filter <substring>]
 * ethereum/tests is cloned at the commit subset.txt pins into `.suites/ethereum-tests/repo` (git-ignored,
 * only GeneralStateTests/ checked out); nothing of it is kept in this repository. The exit code is 1
 * when a case fails unexpectedly or a known failure passes.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type StateTestCase, type StateTestOutcome, loadCases, mismatch, runOnEthereumjs } from './stateTests/fixture.js'
import { runOnInterpreter } from './stateTests/interpreter.js'
import { ETHEREUMJS_KNOWN_FAILURES, INTERPRETER_KNOWN_FAILURES } from './stateTests/knownFailures.js'
import { type EngineRun, asExpected, summarise } from './stateTests/report.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const SUBSET = join(ROOT, 'scripts/stateTests/subset.txt')
const DIR = join(ROOT, '.suites/ethereum-tests')
/** The folder of the upstream repository the subset's paths are under. */
const TESTS = 'GeneralStateTests'

interface Options {
  source?: string
  filter?: string
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {}
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    if (value === undefined) throw new Error(`${flag} needs a value (usage: stateTests.js [--source <git URL or local repository>] [--filter <substring>])`)
    if (flag === '--source') opts.source = value
    else if (flag === '--filter') opts.filter = value
    else throw new Error(`unknown flag ${flag}`)
  }
  return opts
}

/** subset.txt: its `# source:` and `# commit:` lines, and its files (`folder: name name …`) as upstream paths without `.json`. */
function readSubset(): { source: string; commit: string; paths: string[] } {
  const lines = readFileSync(SUBSET, 'utf8').split('\n')
  const header = (key: string) => {
    const line = lines.find((l) => l.startsWith(`# ${key}: `))
    if (line === undefined) throw new Error(`${SUBSET} has no "# ${key}:" line`)
    return line.slice(`# ${key}: `.length).trim()
  }
  const paths = lines
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .flatMap((l) => {
      const [folder, names] = l.split(': ')
      if (names === undefined) throw new Error(`${SUBSET}: not "folder: names": ${l}`)
      return names
        .trim()
        .split(/\s+/)
        .map((name) => `${folder}/${name}`)
    })
  return { source: header('source'), commit: header('commit'), paths }
}

function run(cmd: string, args: string[], cwd: string): void {
  console.error(`$ ${cmd} ${args.join(' ')}   (in ${cwd})`)
  execFileSync(cmd, args, { cwd, stdio: 'inherit' })
}

/** ethereum/tests at `commit`, only GeneralStateTests/ checked out: cloned once, checked out again if the clone moved. */
function checkout(source: string, commit: string): string {
  const repo = join(DIR, 'repo')
  mkdirSync(DIR, { recursive: true })
  if (!existsSync(join(repo, '.git'))) {
    // From a URL, a partial clone: the blobs of the checked-out folder only (the whole repository is gigabytes).
    const partial = existsSync(source) ? [] : ['--filter=blob:none']
    run('git', ['clone', '--quiet', '--no-checkout', ...partial, source, repo], DIR)
    run('git', ['sparse-checkout', 'set', TESTS], repo)
  }
  const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo }).toString().trim()
  const checkedOut = () => head() === commit && existsSync(join(repo, TESTS))
  if (!checkedOut()) {
    try {
      run('git', ['checkout', '--quiet', commit], repo)
    } catch {
      run('git', ['fetch', '--quiet', 'origin', commit], repo)
      run('git', ['checkout', '--quiet', commit], repo)
    }
  }
  if (!checkedOut()) throw new Error(`${repo} is not at ${commit}`)
  return repo
}

/** Runs every case on one engine: how each differs from the fillers (a throw is a difference too), and the time it took. */
async function runEngine(engine: string, cases: StateTestCase[], runCase: (c: StateTestCase) => Promise<StateTestOutcome>, known: ReadonlyMap<string, string>): Promise<EngineRun> {
  const results: EngineRun['results'] = []
  const started = performance.now()
  for (const c of cases) {
    const problem = await runCase(c).then(
      (outcome) => mismatch(c, outcome),
      (e: Error) => `threw ${e.name}: ${e.message}`,
    )
    results.push({ name: c.name, file: c.file, problem })
  }
  const ms = performance.now() - started
  console.error(`${engine}: ${cases.length} cases in ${(ms / 1000).toFixed(1)} s`)
  return { engine, results, known, ms }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2))
  const subset = readSubset()
  const repo = checkout(opts.source ?? subset.source, subset.commit)
  const root = join(repo, TESTS)
  const missing = subset.paths.filter((p) => !existsSync(join(root, `${p}.json`)))
  if (missing.length > 0) throw new Error(`${missing.length} files of the subset are not at ${subset.commit}: ${missing.slice(0, 10).join(', ')}`)
  const filter = opts.filter
  const matches = (c: StateTestCase) => filter === undefined || c.file.includes(filter) || c.name.includes(filter)
  let skippedTests = 0
  const cases: StateTestCase[] = []
  const files = new Set<string>()
  for (const path of subset.paths) {
    const loaded = loadCases(root, path)
    if (loaded.cases.some(matches)) skippedTests += loaded.skipped
    for (const c of loaded.cases.filter(matches)) {
      cases.push(c)
      files.add(c.file)
    }
  }
  const names = new Set(cases.map((c) => c.name))
  const listed = [...ETHEREUMJS_KNOWN_FAILURES.keys(), ...INTERPRETER_KNOWN_FAILURES.keys()]
  const unmatchedKnown = filter === undefined ? listed.filter((name) => !names.has(name)) : []
  const runs = [
    await runEngine('ethereumjs (runTx)', cases, runOnEthereumjs, ETHEREUMJS_KNOWN_FAILURES),
    await runEngine('interpreter (src/evm/runTransaction.ts)', cases, runOnInterpreter, INTERPRETER_KNOWN_FAILURES),
  ]
  const scope = {
    title: `ethereum/tests GeneralStateTests (Cancun) at ${subset.commit.slice(0, 10)}`,
    files: files.size,
    cases: cases.length,
    rejections: cases.filter((c) => c.entry.expectException !== undefined).length,
    skippedTests,
    filter,
    unmatchedKnown,
  }
  const summary = summarise(scope, runs)
  writeFileSync(join(DIR, 'summary.md'), summary)
  console.log(summary)
  console.error(`summary in ${join(DIR, 'summary.md')}`)
  if (cases.length === 0 || unmatchedKnown.length > 0 || !runs.every(asExpected)) process.exitCode = 1
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
