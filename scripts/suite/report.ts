import type { TargetName } from './targets.js'

/** One test as mocha's JSON reporter writes it. */
interface MochaTest {
  fullTitle: string
  file?: string
  duration?: number
  err?: { message?: string }
}

/** mocha's JSON report. */
export interface MochaReport {
  stats: { tests: number; passes: number; failures: number; pending: number; duration: number }
  passes: MochaTest[]
  failures: MochaTest[]
  pending: MochaTest[]
}

/** The time the tests waited on each JSON-RPC method (hardhat.suite.config.cjs). */
export type MethodTimes = Record<string, { count: number; ms: number }>

/** What one target's run left: mocha's report and the time per method, or why no test ran. */
export type TargetRun = { target: TargetName; wallMs: number } & ({ report: MochaReport; times: MethodTimes } | { refused: string })

type Reported = Extract<TargetRun, { report: MochaReport }>
const reported = (runs: TargetRun[]): Reported[] => runs.filter((r): r is Reported => 'report' in r)

/** A failure's cause: its message's first line with addresses, hashes and numbers generalised. */
export function causeOf(message: string | undefined): string {
  return (message ?? '(no message)')
    .split('\n')[0]!
    .replace(/0x[0-9a-fA-F]{8,}/g, '0x…')
    .replace(/\d{3,}/g, 'N')
    .slice(0, 160)
}

function byCause(tests: MochaTest[]): [string, number][] {
  const counts = new Map<string, number>()
  for (const t of tests) counts.set(causeOf(t.err?.message), (counts.get(causeOf(t.err?.message)) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** The run's summary in markdown: each target's counts, failures by cause, time per method, and cchain-node beside hardhat node test by test. */
export function summarise(title: string, runs: TargetRun[]): string {
  const out: string[] = [`# ${title}`, '', "| target | tests run | passed | failed | pending | wall time | tests' own time |", '|---|---|---|---|---|---|---|']
  for (const r of runs) {
    if (!('report' in r)) {
      out.push(`| ${r.target} | none: ${r.refused} | | | | ${s(r.wallMs)} | |`)
      continue
    }
    const { stats } = r.report
    out.push(`| ${r.target} | ${stats.passes + stats.failures + stats.pending} | ${stats.passes} | ${stats.failures} | ${stats.pending} | ${s(r.wallMs)} | ${s(stats.duration)} |`)
  }
  return [...out, ...details(reported(runs))].join('\n') + '\n'
}

/** Time per method, failures by cause, and cchain-node beside hardhat node. */
function details(runs: Reported[]): string[] {
  const out: string[] = []
  const methods = [...new Set(runs.flatMap((r) => Object.keys(r.times)))].sort((a, b) => Math.max(...runs.map((r) => r.times[b]?.ms ?? 0)) - Math.max(...runs.map((r) => r.times[a]?.ms ?? 0)))
  out.push('', '## Time the tests waited on each method (calls, total, mean)', '', `| method | ${runs.map((r) => r.target).join(' | ')} |`, `|---|${runs.map(() => '---').join('|')}|`)
  for (const m of methods.slice(0, 14)) {
    const cells = runs.map((r) => {
      const t = r.times[m]
      return t === undefined ? '' : `${t.count}, ${s(t.ms)}, ${(t.ms / t.count).toFixed(2)} ms`
    })
    out.push(`| ${m} | ${cells.join(' | ')} |`)
  }
  for (const r of runs) {
    out.push('', `## ${r.target}: failures by cause`, '')
    for (const [cause, n] of byCause(r.report.failures).slice(0, 25)) out.push(`- ${n} × ${cause}`)
  }
  const hardhat = runs.find((r) => r.target === 'hardhat')
  const ours = runs.find((r) => r.target === 'cchain')
  if (hardhat !== undefined && ours !== undefined) out.push('', ...compare(ours.report, hardhat.report))
  return out
}

/**
 * A test's identity across runs: its file and title, with the random addresses some titles carry (hex, base58, big numbers) generalised.
 * Big numbers first: a random decimal whose first 32 digits hold no 0 also reads as base58 (then as two pieces).
 */
const testKey = (t: MochaTest) => `${t.file?.replace(/.*\/test\//, 'test/') ?? ''} ${t.fullTitle.replace(/0x[0-9a-fA-F]{40}|\d{12,}|[1-9A-HJ-NP-Za-km-z]{32,44}/g, '…')}`

/** Tests by identity; tests of the same identity (a loop's cases) in run order. */
function byKey(tests: MochaTest[]): Map<string, MochaTest[]> {
  const out = new Map<string, MochaTest[]>()
  for (const t of tests) {
    const list = out.get(testKey(t))
    if (list === undefined) out.set(testKey(t), [t])
    else list.push(t)
  }
  return out
}

/** cchain-node beside hardhat node, test by test. */
function compare(ours: MochaReport, hardhat: MochaReport): string[] {
  const passedThere = byKey(hardhat.passes)
  const failedThere = byKey(hardhat.failures)
  const seen = new Map<string, number>()
  const nth = (t: MochaTest) => {
    const i = seen.get(testKey(t)) ?? 0
    seen.set(testKey(t), i + 1)
    return i
  }
  const pairs = ours.passes.map((t) => [t, passedThere.get(testKey(t))?.[nth(t)]] as const)
  seen.clear()
  const regressions = ours.failures.filter((t) => passedThere.get(testKey(t))?.[nth(t)] !== undefined)
  const gains = pairs.filter(([, there]) => there === undefined).map(([t]) => t)
  const out = ['## cchain-node beside hardhat node', '']
  out.push(`- failed here, passed on hardhat node: ${regressions.length}`)
  for (const t of regressions) out.push(`  - ${t.fullTitle} (${t.file?.replace(/.*\/test\//, 'test/') ?? ''}): ${causeOf(t.err?.message)}`)
  out.push(`- passed here, failed or did not run on hardhat node: ${gains.length} (failed there: ${gains.filter((t) => failedThere.has(testKey(t))).length})`)
  const ratios: number[] = []
  let here = 0
  let there = 0
  for (const [t, other] of pairs) {
    if (other === undefined || t.duration === undefined || other.duration === undefined) continue
    here += t.duration
    there += other.duration
    if (other.duration > 0) ratios.push(t.duration / other.duration)
  }
  ratios.sort((a, b) => a - b)
  const median = ratios.length === 0 ? Number.NaN : ratios[Math.floor(ratios.length / 2)]!
  out.push(`- tests passed on both: ${ratios.length}; their time here ${s(here)}, on hardhat node ${s(there)}; median ratio per test ${median.toFixed(2)}`)
  return out
}
