import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'
import { EWOQ_KEY, EWOQ_PRIVATE_KEY } from './constants.js'

/** The forms a leaked ewoq key would take: raw bytes, hex in either case, PrivateKey-<CB58> and the bare CB58. */
export const EWOQ_KEY_FORMS: readonly Buffer[] = [
  Buffer.from(EWOQ_KEY.slice(2), 'hex'),
  Buffer.from(EWOQ_KEY.slice(2)),
  Buffer.from(EWOQ_KEY.slice(2).toUpperCase()),
  Buffer.from(EWOQ_PRIVATE_KEY),
  Buffer.from(EWOQ_PRIVATE_KEY.slice('PrivateKey-'.length)),
]

/** Every file under `dir`, recursively (links to files included). */
export function filesUnder(dir: string): string[] {
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...filesUnder(p))
    else if (e.isFile() || statSync(p).isFile()) out.push(p)
  }
  return out
}

/** No file under `dataDir` and nothing in the (non-empty) log holds any of `needles` (keys, passwords). */
export function expectNoSecrets(dataDir: string, log: string, needles: readonly Buffer[]): void {
  const files = filesUnder(dataDir)
  expect(files.length).toBeGreaterThan(0)
  for (const file of files) {
    const bytes = readFileSync(file)
    for (const needle of needles) expect(bytes.includes(needle), `${file} contains a secret`).toBe(false)
  }
  expect(log.length).toBeGreaterThan(0)
  for (const needle of needles) expect(log.includes(needle.toString('latin1')), 'the log contains a secret').toBe(false)
}
