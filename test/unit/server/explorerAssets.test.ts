import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadExplorerAssets } from '../../../src/server/explorerAssets.js'
import { tempDirs } from '../../helpers/tempDirs.js'

const tempDir = tempDirs('cchain-explorer-assets-')
afterAll(() => tempDir.removeAll())

/** A package root with the explorer's hand-written files, and its compiled scripts when `built`. */
function packageRoot(built: boolean): string {
  const root = tempDir()
  mkdirSync(join(root, 'explorer', 'src'), { recursive: true })
  writeFileSync(join(root, 'explorer', 'index.html'), '<!doctype html>')
  writeFileSync(join(root, 'explorer', 'explorer.css'), 'body{}')
  writeFileSync(join(root, 'explorer', 'tsconfig.json'), '{}')
  writeFileSync(join(root, 'explorer', 'src', 'main.ts'), 'export {}')
  if (built) {
    mkdirSync(join(root, 'dist', 'explorer', 'pages'), { recursive: true })
    writeFileSync(join(root, 'dist', 'explorer', 'main.js'), 'export {}')
    writeFileSync(join(root, 'dist', 'explorer', 'pages', 'home.js'), 'export {}')
    writeFileSync(join(root, 'dist', 'explorer', 'main.js.map'), '{}')
  }
  return root
}

describe('loadExplorerAssets', () => {
  it('serves the page, its style sheet and the compiled scripts (subfolders too) by name, with their types; nothing else', () => {
    const { files, missing } = loadExplorerAssets(packageRoot(true))
    expect(missing).toBeUndefined()
    expect([...files.keys()].sort()).toEqual(['', 'explorer.css', 'js/main.js', 'js/pages/home.js'])
    expect(files.get('')!.contentType).toBe('text/html; charset=utf-8')
    expect(files.get('js/pages/home.js')).toEqual({ contentType: 'text/javascript; charset=utf-8', body: Buffer.from('export {}') })
  })

  it('says what to run when the scripts are not built', () => {
    expect(loadExplorerAssets(packageRoot(false)).missing).toBe('explorer scripts not built: run `npm run build`')
  })

  it("finds this package's own files from the source tree", () => {
    const { files, missing } = loadExplorerAssets()
    expect(missing).toBeUndefined()
    expect(files.has('js/main.js')).toBe(true)
  })
})
