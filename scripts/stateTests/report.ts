/** One case as one engine ran it: `problem` says how it differs from the fillers (undefined: it matches). */
export interface CaseResult {
  name: string
  file: string
  problem?: string
}

/** One engine's run over the cases, with the known failures it was held to and its time. */
export interface EngineRun {
  engine: string
  results: CaseResult[]
  known: ReadonlyMap<string, string>
  ms: number
}

/** An engine's results sorted out: passed, failed unexpectedly, failed as listed, listed but passed. */
export interface Tally {
  passed: CaseResult[]
  failed: CaseResult[]
  knownFailed: CaseResult[]
  knownPassed: CaseResult[]
}

export function tally(run: EngineRun): Tally {
  const out: Tally = { passed: [], failed: [], knownFailed: [], knownPassed: [] }
  for (const r of run.results) {
    const known = run.known.has(r.name)
    if (r.problem === undefined) (known ? out.knownPassed : out.passed).push(r)
    else (known ? out.knownFailed : out.failed).push(r)
  }
  return out
}

/** Whether a run went as its known failures say: nothing failed unexpectedly, no listed case passed. */
export function asExpected(run: EngineRun): boolean {
  const t = tally(run)
  return t.failed.length === 0 && t.knownPassed.length === 0
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** What the run covered, for the summary's head. */
export interface RunScope {
  title: string
  files: number
  cases: number
  rejections: number
  skippedTests: number
  filter?: string
  /** Known failures naming no case of a full run (a stale list entry). */
  unmatchedKnown: string[]
}

/** The summary in markdown: counts and time per engine, then each engine's failures by name and reason, known failures apart. */
export function summarise(scope: RunScope, runs: EngineRun[]): string {
  const filter = scope.filter === undefined ? '' : `, filter \`${scope.filter}\``
  const out = [
    `# ${scope.title}`,
    '',
    `${scope.files} files, ${scope.cases} cases (post entries), ${scope.rejections} of which expect the transaction to be rejected; ${scope.skippedTests} tests skipped (filled for another fork only)${filter}.`,
    '',
    '| engine | cases | passed | failed | known failures (failed as listed) | known failures that passed | time | per case |',
    '|---|---|---|---|---|---|---|---|',
  ]
  for (const run of runs) {
    const t = tally(run)
    const perCase = run.results.length === 0 ? '' : `${(run.ms / run.results.length).toFixed(2)} ms`
    out.push(`| ${run.engine} | ${run.results.length} | ${t.passed.length} | ${t.failed.length} | ${t.knownFailed.length} | ${t.knownPassed.length} | ${s(run.ms)} | ${perCase} |`)
  }
  for (const run of runs) {
    const t = tally(run)
    out.push('', `## ${run.engine}`, '')
    out.push(`Failures (unexpected): ${t.failed.length}`)
    for (const r of t.failed) out.push(`- \`${r.name}\` (${r.file}): ${r.problem}`)
    out.push('', `Known failures (scripts/stateTests/knownFailures.ts), failed as listed: ${t.knownFailed.length}`)
    for (const r of t.knownFailed) out.push(`- \`${r.name}\` (${r.file}): ${run.known.get(r.name)}; here: ${r.problem}`)
    out.push('', `Known failures that passed (take them off the list): ${t.knownPassed.length}`)
    for (const r of t.knownPassed) out.push(`- \`${r.name}\` (${r.file}): listed as ${run.known.get(r.name)}`)
  }
  if (scope.unmatchedKnown.length > 0) {
    out.push('', `## Known failures that name no case of the subset: ${scope.unmatchedKnown.length}`, '')
    for (const name of scope.unmatchedKnown) out.push(`- \`${name}\``)
  }
  return out.join('\n') + '\n'
}
