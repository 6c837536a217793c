/**
 * The explorer (docs/EXPLORER.md) in a real browser: the headless Chromium of @sparticuz/chromium,
 * through puppeteer-core, against the node on port 0 after a dozen transactions, a token transfer, a
 * reverted call, a tx on an extra EVM chain and an AvalancheJS export to the X-Chain. Every page must
 * load with no script error, no console error and no request outside the node; screenshots go to
 * test-output/screenshots/.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { addTxSignatures, evm } from '@avalabs/avalanchejs'
import { Interface, Wallet } from 'ethers'
import type { Browser, Page } from 'puppeteer-core'
import { afterAll, describe, expect, it } from 'vitest'
import { EWOQ, EWOQ_ETH, EWOQ_KEY, context, waitAtomicAccepted } from '../helpers/avalanchejs.js'
import { CHROMIUM_PATH, SCREENSHOTS, launchBrowser, openPage, screenshot, testChromium, waitText } from '../helpers/browser.js'
import { deploy, iface, nonceOf, poll, send, sign, waitReceipt } from '../helpers/chain.js'
import { EWOQ_ADDRESS, EWOQ_X, LOCAL_X, NANO } from '../helpers/constants.js'
import { npmChromiumVersion } from '../helpers/npmChromium.js'
import { tempDirs } from '../helpers/tempDirs.js'
import { contracts, startTestNode, type TestNode } from '../helpers/testNode.js'
import { cb58Decode } from '../../src/avalanche/cb58.js'
import { finish, mainText, openExplorer, setupOrFailEach } from './explorerTabs.js'

const LOCAL_GENESIS = fileURLToPath(new URL('../../config/local-genesis.json', import.meta.url))
const SUBNET_CHAIN_ID = 7007n
const REASON = 'explorer says no'
const tempDir = tempDirs('cchain-explorer-')

let tn: TestNode
let browser: Browser
let origin: string
/** The dozen plain transfers, oldest first. */
const transfers: { hash: string; from: string; to: string }[] = []
let tokenTransfer: { hash: string; to: string }
let reverted: string
let subnetTx: string
let icmSend: string
let icmDelivery: string
const MESSENGER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf'
let exportID: string
let exportBlock: number

/** How the pages write an amount of nAVAX (9 decimals, digits grouped, trailing zeros dropped). */
function avax(nano: bigint): string {
  const frac = (nano % NANO).toString().padStart(9, '0').replace(/0+$/, '')
  return `${(nano / NANO).toLocaleString('en-US')}${frac === '' ? '' : '.' + frac} AVAX`
}

async function subnetCall(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(`${origin}/ext/bc/subnet/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await res.json()) as { result?: unknown; error?: { message: string } }
  if (body.error !== undefined) throw new Error(body.error.message)
  return body.result
}

/** Opens `route` (a hash route) in a new watched tab and waits for the page's h1. */
const open = (route: string, viewport?: { width: number; height: number }) => openExplorer(browser, origin, route, viewport)

/** What each of `n` presses of Tab focuses: the element's id, else its text. */
async function tabOrder(page: Page, n: number): Promise<string[]> {
  const seen: string[] = []
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('Tab')
    seen.push(await page.evaluate(() => document.activeElement?.id || (document.activeElement as HTMLElement | null)?.innerText || ''))
  }
  return seen
}

/** Types into the search field as a keyboard user does: `/` (the page's shortcut, which selects what the field held), the text, Enter. */
async function search(page: Page, text: string): Promise<void> {
  await page.keyboard.press('/')
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('search')
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

setupOrFailEach(setup)

async function setup(): Promise<void> {
  browser = await launchBrowser()
  const dir = tempDir()
  const genesis = JSON.parse(readFileSync(LOCAL_GENESIS, 'utf8'))
  writeFileSync(join(dir, 'subnet.json'), JSON.stringify({ ...genesis, config: { ...genesis.config, chainId: Number(SUBNET_CHAIN_ID) } }))
  tn = await startTestNode({ config: { evmChains: [{ name: 'subnet', genesisFile: join(dir, 'subnet.json') }] } })
  origin = `http://127.0.0.1:${tn.port}`

  // A dozen transfers to fresh addresses, sent at once (the node packs them into blocks as they come).
  const first = await nonceOf(tn, EWOQ_ADDRESS)
  for (let i = 0; i < 12; i++) {
    const to = Wallet.createRandom().address.toLowerCase()
    const hash = await tn.call('eth_sendRawTransaction', [await sign({ to, value: BigInt(i + 1) * 10n ** 16n, nonce: first + i })])
    transfers.push({ hash, from: EWOQ_ADDRESS.toLowerCase(), to })
  }
  await waitReceipt(tn, transfers.at(-1)!.hash)

  const token = await deploy(tn, 'TestToken', [10n ** 24n])
  const holder = Wallet.createRandom().address.toLowerCase()
  tokenTransfer = { hash: (await send(tn, { to: token.address, data: iface('TestToken').encodeFunctionData('transfer', [holder, 1234n]), gasLimit: 100_000n })).hash, to: holder }
  const probe = await deploy(tn, 'Probe')
  const fail = await send(tn, { to: probe.address, data: iface('Probe').encodeFunctionData('fail', [REASON]), gasLimit: 100_000n })
  expect(fail.receipt.status).toBe('0x0')
  reverted = fail.hash

  // One transfer on the extra chain (the same genesis allocation, its own chain ID).
  const raw = await sign({ to: Wallet.createRandom().address, value: 5n * 10n ** 17n, nonce: 0, chainId: SUBNET_CHAIN_ID })
  subnetTx = await subnetCall('eth_sendRawTransaction', [raw])
  await poll(() => subnetCall('eth_getTransactionReceipt', [subnetTx]), 'the extra chain receipt')

  // A Teleporter message from the C-Chain to the extra chain, delivered by the node's relayer (the repository's
  // test messenger at Teleporter's address on both; its destination has no code, so it is received and not run).
  const relayer = await tn.call('icm_getRelayer')
  for (const call of [(m: string, p: unknown[]) => tn.call(m, p), subnetCall]) {
    await call('anvil_setCode', [MESSENGER, contracts.contracts.ICMTestMessenger.deployedBytecode])
    await call('anvil_setBalance', [relayer.address, '0x3635c9adc5dea00000'])
  }
  const subnetID = `0x${Buffer.from(cb58Decode(tn.node.extraChains[0]!.spec.id)).toString('hex')}`
  const input = {
    destinationBlockchainID: subnetID,
    destinationAddress: Wallet.createRandom().address,
    feeInfo: { feeTokenAddress: EWOQ_ADDRESS, amount: 0n },
    requiredGasLimit: 50_000n,
    allowedRelayerAddresses: [],
    message: '0x01',
  }
  const messenger = new Interface(contracts.contracts.ICMTestMessenger.abi as never)
  icmSend = (await send(tn, { to: MESSENGER, data: messenger.encodeFunctionData('sendCrossChainMessage', [input]), gasLimit: 1_000_000n })).hash
  const received = messenger.getEvent('ReceiveCrossChainMessage')!.topicHash
  const logs = await poll(async () => {
    const found = await subnetCall('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: MESSENGER, topics: [received] }])
    return found.length > 0 ? found : undefined
  }, 'the delivery on the extra chain')
  icmDelivery = logs[0].transactionHash

  // An export of 0.25 AVAX from ewoq's C-Chain account to its X-Chain address, built and signed by AvalancheJS.
  const api = new evm.EVMApi(origin)
  const baseFee = ((await api.getBaseFee()) + NANO - 1n) / NANO
  const exportTx = evm.newExportTxFromBaseFee(context, baseFee, 250_000_000n, LOCAL_X, EWOQ_ETH, [EWOQ], BigInt(await nonceOf(tn, EWOQ_ADDRESS, 'latest')))
  await addTxSignatures({ unsignedTx: exportTx, privateKeys: [EWOQ_KEY] })
  exportID = (await api.issueSignedTx(exportTx.getSignedTx())).txID
  await waitAtomicAccepted(api, exportID)
  exportBlock = Number((await api.getAtomicTxStatus(exportID)).blockHeight)
}

afterAll(async () => {
  await browser?.close()
  await tn?.close()
  tempDir.removeAll()
  console.log(`explorer screenshots: ${SCREENSHOTS}`)
})

describe('explorer in Chromium', () => {
  it('runs the Chromium that the @sparticuz/chromium package ships, unless CHROMIUM_PATH names another', async () => {
    const { executablePath } = await testChromium()
    console.log(`explorer browser: ${await browser.version()} at ${executablePath}`)
    expect(browser.process()?.spawnfile).toBe(executablePath)
    if (CHROMIUM_PATH === undefined) {
      expect(executablePath).toMatch(/\/cchain-node-chromium-[\d.]+\/chromium$/)
      // The package's major version is its Chromium's.
      expect(await browser.version()).toMatch(new RegExp(`^HeadlessChrome/${npmChromiumVersion().split('.')[0]}\\.`))
    }
  })

  it('serves / as the explorer: head block and latest transaction shown, labelled landmarks, a plot; no error, nothing from outside the node', async () => {
    const { page, problems } = await openPage(browser, origin)
    await page.goto(`${origin}/`, { waitUntil: 'domcontentloaded' })
    expect(page.url()).toBe(`${origin}/explorer/`)
    const head = Number(await tn.call('eth_blockNumber'))
    expect(await waitText(page, '#head-number', String(head))).toBe(String(head))
    const settled = Number((await tn.call('eth_getBlockByNumber', ['latest', false])).settledHeight)
    expect(await waitText(page, '#settled-height', `#${settled.toLocaleString('en-US')}`)).toBe(`#${settled.toLocaleString('en-US')}`)
    // The latest EVM transaction is the reverted call (the export is an atomic tx, in no EVM list).
    await page.waitForSelector(`main a[href="#/tx/${reverted}"]`)
    // Shown start and end only, the whole hash is still the page's text (copy, find, screen readers).
    expect(await mainText(page)).toContain(reverted)
    await waitText(page, '#live', `live · head #${head}`)
    const bars = await page.$$eval('svg.plot rect.bar', (els) => els.length)
    expect(bars).toBe(Math.min(30, head + 1))
    const a11y = await page.evaluate(() => ({
      landmarks: ['header', 'search', 'main', 'footer'].filter((tag) => document.querySelector(tag) !== null),
      unlabelled: [...document.querySelectorAll('input, select')].filter((el) => (el as HTMLInputElement).labels?.length === 0).map((el) => el.id),
      searchType: document.querySelector('#search')?.getAttribute('type'),
      h1: document.querySelectorAll('h1').length,
      captions: [...document.querySelectorAll('table')].every((t) => t.caption !== null && t.caption.textContent !== ''),
    }))
    expect(a11y).toEqual({ landmarks: ['header', 'search', 'main', 'footer'], unlabelled: [], searchType: 'search', h1: 1, captions: true })
    await finish({ page, problems }, 'home')
  })

  it('finds a transaction by hash from the search field (keyboard only): its page shows from and to, and takes the focus', async () => {
    const { page, problems } = await open('/')
    const tx = transfers[3]!
    // From the top: the skip link, the home link, the chain switch, then the search field.
    expect(await tabOrder(page, 4)).toEqual(['skip', 'home-link', 'chain-select', 'search'])
    await page.keyboard.type(tx.hash)
    await page.keyboard.press('Enter')
    await page.waitForFunction((hash: string) => location.hash === `#/tx/${hash}`, {}, tx.hash)
    await waitText(page, 'main h1', 'Transaction')
    expect(await waitText(page, '#tx-status', 'success')).toBe('success')
    const text = (await mainText(page)).toLowerCase()
    expect(text).toContain(`from\n${tx.from}`)
    expect(text).toContain(`to\n${tx.to}`)
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1')
    await finish({ page, problems }, 'search-tx')
  })

  it('finds an address (0x and X- bech32) and a block number from the search field; says so when nothing matches', async () => {
    const { page, problems } = await open('/')
    await search(page, EWOQ_ADDRESS)
    await waitText(page, 'main h1', `Address ${EWOQ_ADDRESS}`)
    await page.waitForSelector(`main a[href="#/tx/${transfers[0]!.hash}"]`)
    const balance = BigInt(await tn.call('eth_getBalance', [EWOQ_ADDRESS, 'latest']))
    expect(await waitText(page, '#c-balance', 'AVAX')).toBe(`${(balance / 10n ** 18n).toLocaleString('en-US')}.${(balance % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '')} AVAX`)
    await screenshot(page, 'search-address')

    await search(page, EWOQ_X)
    await waitText(page, 'main h1', `Address ${EWOQ_X}`)
    await waitText(page, '#x-balance', 'AVAX')

    await search(page, String(exportBlock))
    await waitText(page, 'main h1', `Block ${exportBlock}`)

    await search(page, 'nothing here')
    expect(await waitText(page, '#search-error', 'Nothing matches')).toBe('Nothing matches nothing here: not a block number or hash, a transaction hash, an address or a transaction ID.')
    expect(await page.$eval('#search', (el) => el.getAttribute('aria-invalid'))).toBe('true')
    await finish({ page, problems }, 'search-nothing')
  })

  it('shows a new block and its transaction without a reload (newHeads over the WebSocket)', async () => {
    const { page, problems } = await open('/')
    const before = Number(await tn.call('eth_blockNumber'))
    await waitText(page, '#head-number', String(before))
    await page.evaluate(() => {
      ;(window as unknown as { sameDocument: boolean }).sameDocument = true
    })
    const { hash, receipt } = await send(tn, { to: Wallet.createRandom().address, value: 7n })
    const n = Number(receipt.blockNumber)
    expect(n).toBeGreaterThan(before)
    await waitText(page, '#head-number', String(n))
    await page.waitForSelector(`main a[href="#/block/${n}"]`)
    await page.waitForSelector(`main a[href="#/tx/${hash}"]`)
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true)
    await finish({ page, problems }, 'new-block')
  })

  it('block page: the header with the Avalanche fields, its transactions, and its atomic transactions from blockExtraData', async () => {
    const { page, problems } = await open(`/block/${exportBlock}`)
    await waitText(page, 'main h1', `Block ${exportBlock}`)
    const block = await tn.call('eth_getBlockByNumber', ['0x' + exportBlock.toString(16), false])
    const text = await mainText(page)
    expect(text).toContain(`Hash\n${block.hash}`)
    expect(text).toContain(`Ext data hash\n${block.extDataHash}`)
    expect(text).toContain(`Ext data gas used\n${Number(block.extDataGasUsed).toLocaleString('en-US')}`)
    expect(text).toContain('Atomic transactions\n1')
    // Helicon: the block it settles, linked.
    expect(text).toContain(`Settled height\n${Number(block.settledHeight).toLocaleString('en-US')}`)
    expect(await page.$(`main a[href="#/block/${Number(block.settledHeight)}"]`)).not.toBeNull()
    const row = await page.$eval(`main a[href="#/atomic/${exportID}"]`, (a) => (a.closest('tr') as HTMLElement).innerText)
    expect(row.split('\t').slice(1)).toEqual(['ExportTx', 'C → X', '0.25 AVAX'])
    await screenshot(page, 'block-atomic')

    const tokenBlock = Number((await tn.call('eth_getTransactionReceipt', [tokenTransfer.hash])).blockNumber)
    await page.goto(`${origin}/explorer/#/block/${tokenBlock}`)
    await waitText(page, 'main h1', `Block ${tokenBlock}`)
    const txRow = await page.$eval(`main a[href="#/tx/${tokenTransfer.hash}"]`, (a) => (a.closest('tr') as HTMLElement).innerText)
    expect(txRow).toContain('success')
    await finish({ page, problems }, 'block')
  })

  it('transaction page: a reverted call shows its revert reason; a token transfer its decoded input and Transfer log', async () => {
    const { page, problems } = await open(`/tx/${reverted}`)
    expect(await waitText(page, '#tx-status', 'reverted')).toBe('reverted')
    expect(await waitText(page, '#revert-reason', REASON)).toBe(REASON)
    await screenshot(page, 'tx-reverted')

    await page.goto(`${origin}/explorer/#/tx/${tokenTransfer.hash}`)
    await waitText(page, '#tx-status', 'success')
    const text = await mainText(page)
    expect(text).toContain(`transfer(${tokenTransfer.to}, 1234)`)
    expect(text).toContain(`Transfer(${EWOQ_ADDRESS.toLowerCase()}, ${tokenTransfer.to}, 1234)`)
    await finish({ page, problems }, 'tx-token')
  })

  it('address page: C balance and nonce, recent transactions, and for the same key its X and P balances and UTXOs, the export waiting on X', async () => {
    const { page, problems } = await open(`/address/${EWOQ_ADDRESS}`)
    const nonce = Number(await tn.call('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']))
    const [x, p] = await Promise.all([
      tn.api('/ext/bc/X', 'avm.getBalance', { address: EWOQ_X, assetID: 'AVAX' }),
      tn.api('/ext/bc/P', 'platform.getBalance', { addresses: [EWOQ_X.replace('X-', 'P-')] }),
    ])
    expect(await waitText(page, '#x-balance', 'AVAX')).toBe(avax(BigInt(x.result.balance)))
    expect(await waitText(page, '#p-balance', 'AVAX')).toBe(avax(BigInt(p.result.balance)))
    const text = await mainText(page)
    expect(text).toContain(`Nonce\n${nonce}`)
    expect(text).toContain(`X-Chain address\n${EWOQ_X}`)
    const waiting = await page.$eval(`main a[href="#/atomic/${exportID}"]`, (a) => (a.closest('tr') as HTMLElement).innerText)
    expect(waiting.split('\t').slice(1)).toEqual(['exported from C, waiting to be imported on X', '0.25 AVAX', EWOQ_X])
    await finish({ page, problems }, 'address')
  })

  it('atomic transaction page (found by its ID from the search field): type, chains, inputs, outputs and the status on each side', async () => {
    const { page, problems } = await open('/')
    await search(page, exportID)
    await waitText(page, 'main h1', 'Atomic transaction')
    expect(await waitText(page, '#atomic-type', 'ExportTx')).toBe('ExportTx')
    expect(await waitText(page, '#atomic-between', 'C → X')).toBe('C → X')
    expect(await waitText(page, '#status-C', 'Accepted')).toBe(`Accepted in block #${exportBlock} (where it was issued)`)
    expect(await waitText(page, '#status-X', 'waiting')).toBe('exported: 1 UTXO waiting to be imported on X')
    const text = await mainText(page)
    expect(text).toContain(`${EWOQ_X}\texported to X\t0.25 AVAX`)
    expect(text.toLowerCase()).toContain(`${EWOQ_ADDRESS.toLowerCase()}\tc-chain account`)
    await finish({ page, problems }, 'atomic')
  })

  it('transaction page: a Teleporter message sent, with its delivery on the other chain linked, and back', async () => {
    const { page, problems } = await open(`/tx/${icmSend}`)
    await waitText(page, '.icm-sent .icm-status', 'delivered by')
    const sent = await mainText(page)
    expect(sent).toContain('Interchain messages')
    expect(sent).toContain('To chain\nsubnet')
    expect(sent).toMatch(/Warp message\n\w+/)
    await page.click(`main a[href="#/chain/subnet/tx/${icmDelivery}"]`)
    await waitText(page, '.icm-received .icm-status', 'sent by')
    expect(await mainText(page)).toContain('From chain\nC')
    expect(await page.$(`main a[href="#/tx/${icmSend}"]`)).not.toBeNull()
    await finish({ page, problems }, 'tx-icm')
  })

  it('switches to an extra EVM chain: its head, its transactions, its pages under #/chain/<name>/', async () => {
    const { page, problems } = await open('/')
    await page.select('#chain-select', 'subnet')
    await waitText(page, 'main h1', 'Chain subnet overview')
    expect(await page.evaluate(() => location.hash)).toBe('#/chain/subnet/')
    const head = Number(await subnetCall('eth_blockNumber', []))
    expect(await waitText(page, '#head-number', String(head))).toBe(String(head))
    await page.click(`main a[href="#/chain/subnet/tx/${subnetTx}"]`)
    await waitText(page, '#tx-status', 'success')
    expect(await mainText(page)).toContain('Value\n0.5 AVAX')
    await finish({ page, problems }, 'chain-switch')
  })
})
