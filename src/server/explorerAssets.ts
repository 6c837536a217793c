import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** One file the explorer serves, read once at start. */
export interface ExplorerAsset {
  readonly contentType: string
  readonly body: Buffer
}

/** The explorer's files by their path under /explorer/ ('' is the page), or why they are missing. */
export interface ExplorerAssets {
  readonly files: ReadonlyMap<string, ExplorerAsset>
  /** Set when the compiled scripts are missing (a checkout not built yet): the page answers 503 with it. */
  readonly missing?: string
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
}

/** The package's root: the first folder above this file holding explorer/index.html (this file runs from src/ under vitest, from dist/src/ once built). */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    if (existsSync(join(dir, 'explorer', 'index.html')) && existsSync(join(dir, 'package.json'))) return dir
    const up = dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

function typeOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.')
  return dot === -1 ? undefined : TYPES[name.slice(dot)]
}

/**
 * Reads the explorer's files: the page, its style sheet and icon from explorer/ (hand-written, shipped
 * as they are) and its scripts from dist/explorer/ (explorer/src/*.ts compiled by `npm run build`).
 * Only these names are ever served: no path from a request reaches the file system.
 */
export function loadExplorerAssets(root = packageRoot()): ExplorerAssets {
  const files = new Map<string, ExplorerAsset>()
  if (root === undefined) return { files, missing: 'explorer files not found next to the package' }
  const add = (dir: string, prefix: string, deep: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (deep) add(join(dir, entry.name), `${prefix}${entry.name}/`, deep)
        continue
      }
      const contentType = typeOf(entry.name)
      if (contentType !== undefined) files.set(prefix + (entry.name === 'index.html' ? '' : entry.name), { contentType, body: readFileSync(join(dir, entry.name)) })
    }
  }
  add(join(root, 'explorer'), '', false)
  const scripts = join(root, 'dist', 'explorer')
  if (!existsSync(join(scripts, 'main.js'))) return { files, missing: 'explorer scripts not built: run `npm run build`' }
  add(scripts, 'js/', true)
  return { files }
}
