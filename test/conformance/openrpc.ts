import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'

/*
 * The execution-apis OpenRPC document (test/fixtures/execution-apis, dereferenced) as result
 * validators, and the recorded geth request/response vectors beside it.
 */

const here = dirname(fileURLToPath(import.meta.url))
/** The vendored copy of ethereum/execution-apis (its README names the commit). */
export const SPEC_DIR = resolve(here, '../fixtures/execution-apis')
export const TESTS_DIR = join(SPEC_DIR, 'execution-apis-tests')

interface OpenRpcMethod {
  name: string
  params: { name: string; required?: boolean; schema: unknown }[]
  result: { name: string; schema: Record<string, unknown> }
}

/** Reads a fixture file; a missing one throws (the suites fail, they never skip). */
function readFixture(path: string): string {
  if (!existsSync(path)) throw new Error(`fixture ${path} is missing (vendored under test/fixtures/execution-apis)`)
  return readFileSync(path, 'utf8')
}

const doc = JSON.parse(readFixture(join(SPEC_DIR, 'execution-apis-openrpc.json'))) as { methods: OpenRpcMethod[] }
export const SPEC_METHODS: ReadonlyMap<string, OpenRpcMethod> = new Map(doc.methods.map((m) => [m.name, m]))

// strict: false — the spec carries annotation keywords (title, description) and oneOf/required mixes.
const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false })
const compiled = new Map<string, ValidateFunction>()

/** The compiled validator of a method's result schema. */
export function resultValidator(method: string): ValidateFunction {
  let v = compiled.get(method)
  if (v === undefined) {
    const m = SPEC_METHODS.get(method)
    if (m === undefined) throw new Error(`${method} is not in the execution-apis OpenRPC document`)
    v = ajv.compile(m.result.schema)
    compiled.set(method, v)
  }
  return v
}

/** Compiles any schema (e.g. a piece of a method's result schema). */
export function compileSchema(schema: unknown): ValidateFunction {
  return ajv.compile(schema as object)
}

/**
 * The spec's oneOf branches overlap in one place: an empty array matches both "hashes" and "logs"
 * of eth_getLogs / eth_getFilterChanges / eth_getFilterLogs. Errors that only say "more than one
 * branch matched" are therefore not failures.
 */
function realErrors(errors: ErrorObject[] | null | undefined): ErrorObject[] {
  return (errors ?? []).filter((e) => !(e.keyword === 'oneOf' && Array.isArray((e.params as { passingSchemas?: unknown }).passingSchemas)))
}

export interface Verdict {
  ok: boolean
  /** ajv's errors as short lines: instancePath message (schemaPath). */
  errors: string[]
}

/** Validates a value against a compiled schema. */
export function validateWith(v: ValidateFunction, value: unknown): Verdict {
  if (v(value)) return { ok: true, errors: [] }
  const errors = realErrors(v.errors)
  return { ok: errors.length === 0, errors: errors.map((e) => `${e.instancePath || '/'} ${e.message ?? ''} (${e.schemaPath})`) }
}

/** Validates `result` against `methods[name=method].result.schema`. */
export function validateResult(method: string, result: unknown): Verdict {
  return validateWith(resultValidator(method), result)
}

// ---- recorded vectors (.io files) ----

export interface Exchange {
  request: { jsonrpc: string; id: unknown; method: string; params?: unknown[] }
  response: { jsonrpc: string; id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }
}

export interface Vector {
  /** <method>/<case> */
  name: string
  method: string
  comment: string
  /** `// speconly`: only the result's schema is compared. */
  specOnly: boolean
  exchanges: Exchange[]
}

/** Parses one .io file: `//` comments, `>>` requests and `<<` responses in order. */
export function parseVector(method: string, file: string, text: string): Vector {
  const comment: string[] = []
  const exchanges: Exchange[] = []
  let pending: Exchange['request'] | undefined
  for (const line of text.split('\n')) {
    if (line.startsWith('//')) comment.push(line.slice(2).trim())
    else if (line.startsWith('>> ')) pending = JSON.parse(line.slice(3)) as Exchange['request']
    else if (line.startsWith('<< ')) {
      if (pending === undefined) throw new Error(`${method}/${file}: response without request`)
      exchanges.push({ request: pending, response: JSON.parse(line.slice(3)) as Exchange['response'] })
      pending = undefined
    }
  }
  return { name: `${method}/${file.replace(/\.io$/, '')}`, method, comment: comment.join(' '), specOnly: comment.some((c) => c.startsWith('speconly')), exchanges }
}

/** Every recorded vector, sorted by name. */
export function loadVectors(): Vector[] {
  if (!existsSync(TESTS_DIR)) throw new Error(`fixture folder ${TESTS_DIR} is missing (vendored under test/fixtures/execution-apis)`)
  const out: Vector[] = []
  for (const method of readdirSync(TESTS_DIR, { withFileTypes: true })) {
    if (!method.isDirectory()) continue
    for (const file of readdirSync(join(TESTS_DIR, method.name))) {
      if (file.endsWith('.io')) out.push(parseVector(method.name, file, readFixture(join(TESTS_DIR, method.name, file))))
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name))
}
