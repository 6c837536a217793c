/**
 * The explorer's view of a subnet-evm chain's stateful precompiles and their roles (docs/EXPLORER.md), in
 * the headless Chromium of @sparticuz/chromium: the node runs a copy of examples/chains (mintchain: the
 * five precompiles with ewoq as their admin, and Warp; dexchain and gamechain: coreth chains), and ewoq
 * changes a role with ethers while the page is open.
 */
import { cpSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Contract, JsonRpcProvider, Wallet } from 'ethers'
import type { Browser, Page } from 'puppeteer-core'
import { afterAll, describe, expect, it } from 'vitest'
import { launchBrowser, screenshot, waitText } from '../helpers/browser.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { EWOQ_ADDRESS, EWOQ_KEY, startTestNode, type TestNode } from '../helpers/testNode.js'
import { finish, mainText, openExplorer, setupOrFailEach } from './explorerTabs.js'

const EXAMPLES = fileURLToPath(new URL('../../examples/chains', import.meta.url))
const TX_ALLOW_LIST = '0x0200000000000000000000000000000000000002'
const tempDir = tempDirs('cchain-explorer-l1-')

/** The active precompiles' rows as the page shows them: name, address, config key, active since (examples/chains/mintchain/genesis.json). */
const ACTIVE = [
  ['Contract deployer allow list', '0x0200000000000000000000000000000000000000', 'contractDeployerAllowListConfig', 'genesis (timestamp 0)', '1'],
  ['Native minter', '0x0200000000000000000000000000000000000001', 'contractNativeMinterConfig', 'genesis (timestamp 0)', '1'],
  ['Transaction allow list', TX_ALLOW_LIST, 'txAllowListConfig', 'genesis (timestamp 0)', '1'],
  ['Fee manager', '0x0200000000000000000000000000000000000003', 'feeManagerConfig', 'genesis (timestamp 0)', '1'],
  ['Reward manager', '0x0200000000000000000000000000000000000004', 'rewardManagerConfig', 'genesis (timestamp 0)', '1'],
  ['Warp messenger', '0x0200000000000000000000000000000000000005', 'warpConfig', '2024-11-30T20:52:16.000Z (1732999936)', '—'],
]
const ALLOW_LISTS = ACTIVE.filter((row) => row[4] !== '—').map((row) => row[2]!)

let tn: TestNode
let browser: Browser
let origin: string
let provider: JsonRpcProvider

const open = (route: string) => openExplorer(browser, origin, route)

/** The rows of a table below `selector` (its body's), each as its cells' texts. */
const rows = (page: Page, selector: string): Promise<string[][]> => page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((cell) => (cell as HTMLElement).innerText)))

/** An allow list's rows (account, role, last change), the account in lower case (the chain config's spelling or the logs'). */
const roles = async (page: Page, key: string): Promise<string[][]> => (await rows(page, `#roles-${key}`)).map(([account, ...rest]) => [account!.toLowerCase(), ...rest])
const EWOQ = EWOQ_ADDRESS.toLowerCase()

setupOrFailEach(async () => {
  browser = await launchBrowser()
  const dir = tempDir()
  cpSync(EXAMPLES, dir, { recursive: true })
  tn = await startTestNode({ config: { chainConfigDir: dir } })
  origin = `http://127.0.0.1:${tn.port}`
  provider = new JsonRpcProvider(`${origin}/ext/bc/mintchain/rpc`, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 })
})

afterAll(async () => {
  provider?.destroy()
  await browser?.close()
  await tn?.close()
  tempDir.removeAll()
})

describe('explorer: a subnet-evm chain’s stateful precompiles and roles', () => {
  it('links to them from the overview of mintchain; the C-Chain and a coreth extra chain have no such link, and their precompiles page says why', async () => {
    const tab = await open('/chain/mintchain/')
    await waitText(tab.page, 'main h1', 'Chain mintchain overview')
    expect(await waitText(tab.page, '#precompiles-link', 'active')).toBe('6 active')
    await tab.page.click('#precompiles-link a')
    await waitText(tab.page, 'main h1', 'Stateful precompiles of mintchain')
    expect(await tab.page.evaluate(() => location.hash)).toBe('#/chain/mintchain/precompiles')

    for (const route of ['/', '/chain/dexchain/']) {
      await tab.page.goto(`${origin}/explorer/#${route}`)
      await tab.page.waitForSelector('#head-number')
      expect(await tab.page.$('#precompiles-link'), route).toBeNull()
    }
    await tab.page.goto(`${origin}/explorer/#/chain/dexchain/precompiles`)
    await waitText(tab.page, 'main h1', 'No stateful precompiles')
    expect(await mainText(tab.page)).toContain('Chain dexchain is not a subnet-evm chain (it does not serve eth_getActiveRulesAt)')
    await finish(tab, 'precompiles-coreth')
  })

  it('shows the five precompiles and Warp with the time each took effect, the fee config, the reward address, and ewoq as Admin of each allow list', async () => {
    const tab = await open('/chain/mintchain/precompiles')
    await waitText(tab.page, 'main h1', 'Stateful precompiles of mintchain')
    expect(await rows(tab.page, '[aria-label="Active precompiles"]')).toEqual(ACTIVE)
    const text = await mainText(tab.page)
    for (const line of ['Gas limit\n12,000,000', 'Target block rate\n2 s', 'Minimum base fee\n25 gwei', 'Target gas\n60,000,000', 'Base fee change denominator\n36', 'Last changed\nat genesis']) {
      expect(text).toContain(line)
    }
    expect(text).toContain('Reward address\n0x0100000000000000000000000000000000000000 (the blackhole: fees are burned)')
    expect(text).toContain('Fee recipients allowed\nno')
    for (const key of ALLOW_LISTS) expect(await roles(tab.page, key), key).toEqual([[EWOQ, 'Admin', 'named in the chain config']])
    await finish(tab, 'precompiles')
  })

  it('shows an address ewoq enables on the transaction allow list (ethers) as Enabled, without a reload, and the transaction decoded', async () => {
    const tab = await open('/chain/mintchain/precompiles')
    await tab.page.waitForSelector('#roles-txAllowListConfig')
    await tab.page.evaluate(() => {
      ;(window as unknown as { sameDocument: boolean }).sameDocument = true
    })
    const enabled = Wallet.createRandom().address.toLowerCase()
    const allowList = new Contract(TX_ALLOW_LIST, ['function setEnabled(address)'], new Wallet(EWOQ_KEY, provider))
    const receipt = await (await allowList.setEnabled(enabled)).wait()
    expect(receipt.status).toBe(1)

    await waitText(tab.page, '#precompiles-block', `#${receipt.blockNumber.toLocaleString('en-US')}`)
    await waitText(tab.page, '#roles-txAllowListConfig', enabled)
    expect(await roles(tab.page, 'txAllowListConfig')).toEqual([
      [EWOQ, 'Admin', 'named in the chain config'],
      [enabled, 'Enabled', `None → Enabled in block #${receipt.blockNumber.toLocaleString('en-US')}`],
    ])
    // The other allow lists are unchanged.
    expect(await roles(tab.page, 'contractNativeMinterConfig')).toEqual([[EWOQ, 'Admin', 'named in the chain config']])
    expect(await tab.page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    await screenshot(tab.page, 'precompiles-enabled')

    // The change links to its transaction, whose input and log read as the allow list's call and event.
    await tab.page.click(`#roles-txAllowListConfig a[href="#/chain/mintchain/tx/${receipt.hash}"]`)
    await waitText(tab.page, '#tx-status', 'success')
    const text = await mainText(tab.page)
    expect(text).toContain(`setEnabled(${enabled})`)
    expect(text).toContain(`RoleSet(1, ${enabled}, ${EWOQ}, 0)`)
    await finish(tab, 'precompiles-role-tx')
  })
})
