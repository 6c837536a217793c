/**
 * test/helpers/npmChromium.ts: test processes that find no unpacked browser and unpack the
 * package's at once (two `npm test` runs on one machine) each get a whole one, and both run.
 */
import { readdirSync } from 'node:fs'
import { afterAll, expect, it } from 'vitest'
import { launchBrowser } from '../helpers/browser.js'
import { npmChromium, npmChromiumVersion } from '../helpers/npmChromium.js'
import { tempDirs } from '../helpers/tempDirs.js'

const tempDir = tempDirs('cchain-npm-chromium-')
afterAll(() => tempDir.removeAll())

it('two unpackings at once into one folder: one copy, no partial folder left, both browsers start', async () => {
  const root = tempDir()
  // Both calls find nothing unpacked and each runs its own unpacking process; one rename wins.
  const [a, b] = await Promise.all([npmChromium(root), npmChromium(root)])
  expect(b).toEqual(a)
  expect(readdirSync(root)).toEqual([`cchain-node-chromium-${npmChromiumVersion()}`])
  const browsers = await Promise.all([launchBrowser(a), launchBrowser(b)])
  try {
    for (const browser of browsers) {
      expect(browser.process()?.spawnfile).toBe(a.executablePath)
      const page = await browser.newPage()
      await page.goto('data:text/html,<title>up</title>')
      expect(await page.title()).toBe('up')
    }
  } finally {
    await Promise.all(browsers.map((browser) => browser.close()))
  }
}, 120_000)
