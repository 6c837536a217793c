import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONFIG_DOC, renderConfigDoc } from '../../scripts/genConfigDoc.js'
import { ChainConfigFile, FLAGS } from '../../src/config.js'

const ROOT = join(import.meta.dirname, '../..')

describe('docs/CONFIG.md', () => {
  const rendered = renderConfigDoc()

  it('is what scripts/genConfigDoc.ts renders from the config schema', () => {
    const committed = readFileSync(join(ROOT, CONFIG_DOC), 'utf8')
    // One assertion with a short message: the diff of two 150-line files says little.
    expect(committed === rendered, 'docs/CONFIG.md is stale: run npm run docs:config').toBe(true)
  })

  it('lists every flag and every chain config key, each with a meaning', () => {
    for (const name of Object.keys(FLAGS)) expect(rendered, `--${name}`).toMatch(new RegExp(`^\\| \`--${name}\` \\|.*\\| [^|]*\\w[^|]* \\|`, 'm'))
    for (const key of Object.keys(ChainConfigFile.shape)) {
      expect(ChainConfigFile.shape[key as keyof typeof ChainConfigFile.shape].description, `${key} has no .describe()`).toBeTruthy()
      expect(rendered, key).toContain(`| \`${key}\` |`)
    }
  })
})
