/**
 * Headless Chromium for the explorer's tests: the one the @sparticuz/chromium dev dependency ships
 * (test/helpers/npmChromium.ts), driven by puppeteer-core. Every page opened here records what would
 * make it fail: script errors, console errors, failed loads, and any request (HTTP or WebSocket) to an
 * origin other than the node's.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { type ChromiumBinary, npmChromium } from './npmChromium.js'

/** Another browser to run instead of the package's: a Chromium or Chrome executable. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH

/** The screenshots' folder (git-ignored), named in the test output. */
export const SCREENSHOTS = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'test-output', 'screenshots')

/** The browser the tests run: CHROMIUM_PATH, else the npm package's. */
export async function testChromium(): Promise<ChromiumBinary> {
  if (CHROMIUM_PATH === undefined) return npmChromium()
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH names ${CHROMIUM_PATH}, which does not exist: unset it to run the Chromium of @sparticuz/chromium`)
  return { executablePath: CHROMIUM_PATH, env: {} }
}

/** Starts `chromium` (by default the tests' browser); a missing one is an error, never a skip. */
export async function launchBrowser(chromium?: ChromiumBinary): Promise<Browser> {
  const { executablePath, env } = chromium ?? (await testChromium())
  mkdirSync(SCREENSHOTS, { recursive: true })
  return puppeteer.launch({
    executablePath,
    env: { ...process.env, ...env },
    // 'shell': the package ships chrome-headless-shell; a full Chrome (CHROMIUM_PATH) reads --headless as its new headless mode.
    headless: 'shell',
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start. Containers give
    // /dev/shm 64 MB, and there is no GPU. The package's own `args` are for AWS Lambda (--single-process).
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    protocolTimeout: 30_000,
  })
}

export interface WatchedPage {
  readonly page: Page
  /** Script errors, console errors, failed loads and requests outside `origin`, in order. */
  readonly problems: string[]
}

/** A new tab where every request outside `origin` is refused and recorded. */
export async function openPage(browser: Browser, origin: string, viewport = { width: 1280, height: 900 }): Promise<WatchedPage> {
  const page = await browser.newPage()
  page.setDefaultTimeout(15_000)
  await page.setViewport(viewport)
  const problems: string[] = []
  const wsOrigin = origin.replace(/^http/, 'ws')
  page.on('pageerror', (err) => problems.push(`page error: ${(err as Error).message}`))
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`)
  })
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`))
  await page.setRequestInterception(true)
  page.on('request', (req) => {
    const url = req.url()
    if (url.startsWith(origin + '/') || url.startsWith('data:')) {
      void req.continue()
      return
    }
    problems.push(`request outside the node: ${url}`)
    void req.abort()
  })
  // WebSockets are not intercepted requests: watch their creation through the protocol.
  const cdp = await page.createCDPSession()
  await cdp.send('Network.enable')
  cdp.on('Network.webSocketCreated', ({ url }) => {
    if (!url.startsWith(wsOrigin + '/')) problems.push(`WebSocket outside the node: ${url}`)
  })
  return { page, problems }
}

/** Writes `<name>.png` (the whole page) into SCREENSHOTS. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOTS, `${name}.png`)
  // Scrolled through, then two frames: after a resize Chromium paints scrolling boxes below the fold
  // only once they have been on screen, and a full-page capture would show them blank.
  await page.evaluate(async () => {
    const frames = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y)
      await frames()
    }
    window.scrollTo(0, 0)
    await frames()
  })
  await page.screenshot({ path: path as `${string}.png`, fullPage: true })
  return path
}

/** The visible text of `selector` once it matches `expected`. */
export async function waitText(page: Page, selector: string, expected: string | RegExp, timeout = 15_000): Promise<string> {
  const source = typeof expected === 'string' ? { text: expected } : { re: expected.source, flags: expected.flags }
  await page.waitForFunction(
    (sel: string, want: { text?: string; re?: string; flags?: string }) => {
      const el = document.querySelector(sel) as HTMLElement | null
      if (el === null) return false
      const text = el.innerText
      return want.text !== undefined ? text.includes(want.text) : new RegExp(want.re!, want.flags).test(text)
    },
    { timeout },
    selector,
    source,
  )
  return page.$eval(selector, (el) => (el as HTMLElement).innerText)
}
