/**
 * What the explorer's browser tests share: a file's setup that fails each test rather than being
 * skipped, a watched tab on an explorer route, the main element's text, and a test's end (its
 * screenshots on a desktop and on a phone, no sideways scroll, nothing that went wrong on the way).
 */
import type { Browser, Page } from 'puppeteer-core'
import { beforeAll, beforeEach, expect } from 'vitest'
import { openPage, screenshot, type WatchedPage } from '../helpers/browser.js'

/**
 * Runs `setup` before the file's tests. If it fails (no Chromium, most likely) every test then fails
 * with its error rather than being reported as skipped, as vitest reports the tests of a failed beforeAll.
 */
export function setupOrFailEach(setup: () => Promise<void>, timeout = 90_000): void {
  let setupError: unknown
  beforeAll(async () => {
    await setup().catch((err: unknown) => {
      setupError = err
    })
  }, timeout)
  beforeEach(() => {
    if (setupError !== undefined) throw setupError
  })
}

/** Opens `route` (a hash route) of the explorer at `origin` in a new watched tab and waits for the page's h1. */
export async function openExplorer(browser: Browser, origin: string, route: string, viewport?: { width: number; height: number }): Promise<WatchedPage> {
  const watched = await openPage(browser, origin, viewport)
  await watched.page.goto(`${origin}/explorer/#${route}`, { waitUntil: 'domcontentloaded' })
  await watched.page.waitForSelector('main h1')
  return watched
}

// innerText, not textContent: the text as it shows (cells apart by tabs, lines by newlines).
export const mainText = (page: Page): Promise<string> => page.$eval('main', (el) => (el as HTMLElement).innerText)

/**
 * The end of each test: its screenshot; the same page on a phone, which never scrolls sideways (wide
 * tables scroll in their own box), and its screenshot; then no script error, console error or
 * outside request on the way.
 */
export async function finish({ page, problems }: WatchedPage, shot: string): Promise<void> {
  await screenshot(page, shot)
  await page.setViewport({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${shot} on a phone`).toBeLessThanOrEqual(390)
  await screenshot(page, `${shot}-phone`)
  expect(problems).toEqual([])
  await page.close()
}
