import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The paths the README's Layout table names, top-level part only (`examples/chains/` -> `examples`). */
function layoutNames(): Set<string> {
  const section = README.split('\n## Layout\n')[1]?.split('\n## ')[0]
  if (section === undefined) throw new Error('README.md has no "## Layout" section')
  const rows = section.split('\n').filter((line) => line.startsWith('| `'))
  const cells = rows.map((row) => row.split('|')[1]!)
  return new Set(cells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.split('/')[0]!)))
}

describe('README.md, the front door', () => {
  it('opens with the two commands, and stays under 300 lines (reference goes to docs/)', () => {
    expect(README.split('\n').slice(0, 6).join('\n')).toMatch(/npm ci && npm start.*\nnpm ci && npm test/)
    expect(README.split('\n').length).toBeLessThan(300)
  })

  it('names in its Layout every file and folder at the top of the tree, and nothing that is not there', () => {
    // Tracked files only: node_modules, dist and test output are ignored by .gitignore.
    const tracked = new Set(
      execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((path) => path.split('/')[0]!),
    )
    expect([...tracked].sort()).toEqual([...layoutNames()].sort())
  })
})
