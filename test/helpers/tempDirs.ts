import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Makes temporary directories (`prefix` + random) and removes every one it made with removeAll(). */
export interface TempDirs {
  (prefix?: string): string
  removeAll(): void
}

/** A file's temporary directories: `const tempDir = tempDirs('cchain-x-')`, then `afterAll(() => tempDir.removeAll())`. */
export function tempDirs(defaultPrefix: string): TempDirs {
  const made: string[] = []
  const make = (prefix = defaultPrefix): string => {
    const d = mkdtempSync(join(tmpdir(), prefix))
    made.push(d)
    return d
  }
  return Object.assign(make, {
    removeAll: () => {
      for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true })
    },
  })
}
