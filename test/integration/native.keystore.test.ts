/**
 * The keystore-backed native/avax methods (issue 6, "How it is judged"), with plain JSON over HTTP as
 * curl would send it, over /ext/bc/C/avax and /ext/bc/C/native: create a user, import the ewoq key,
 * export it back, export C->X and C->P with the keystore, poll to Accepted, balances and nonces, import
 * from X, the deprecated aliases, the errors (CORETH v0.14.0 wording), the keystore-off answers, and a
 * byte-for-byte search of the data directory and the logs for the key and the password.
 */
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BigIntPr, Id, Int, OutputOwners, TransferOutput, Utxo, avaxSerial, evm, evmSerial, utils } from '@avalabs/avalanchejs'
import type { NodeConfigInput } from '../../src/config.js'
import { cb58Encode } from '../../src/avalanche/cb58.js'
import { TYPE_ID } from '../../src/avalanche/codec.js'
import { decodeBytes } from '../../src/avalanche/encoding.js'
import { calculateDynamicFee, gasUsed } from '../../src/atomic/fees.js'
import { NETWORKS } from '../../src/avalanche/networks.js'
import { parseTx } from '../../src/atomic/tx.js'
import { EWOQ as ewoqShort } from '../helpers/avalanchejs.js'
import { capturedLog } from '../helpers/log.js'
import { EWOQ_KEY_FORMS, expectNoSecrets } from '../helpers/secrets.js'
import { startTestNode, type TestNode } from '../helpers/testNode.js'
import { AVAX, EWOQ_ADDRESS, EWOQ_C, EWOQ_KEY, EWOQ_P, EWOQ_PRIVATE_KEY, EWOQ_X, NANO } from '../helpers/constants.js'

const PW = 'Curl-User-Passphrase-4821'
const OTHER_ADDRESS = '0x1111111111111111111111111111111111111111'
const manager = utils.getManagerForVM('EVM')

/** The node, with every log line it wrote read back. */
type Running = TestNode & { logText(): string }

async function boot(config: Partial<NodeConfigInput> = {}): Promise<Running> {
  const logged = capturedLog('trace')
  return { ...(await startTestNode({ config: { logLevel: 'trace', ...config }, log: logged.log })), logText: logged.text }
}

/** A UTXO of `amount` nAVAX for ewoq, as the X-Chain would have exported it (AvalancheJS's codec). */
function fakeUTXO(amount: bigint): Uint8Array {
  const utxo = new Utxo(
    new avaxSerial.UTXOID(Id.fromHex(randomBytes(32).toString('hex')), new Int(0)),
    Id.fromString(AVAX),
    new TransferOutput(new BigIntPr(amount), OutputOwners.fromNative([ewoqShort])),
  )
  return new Uint8Array([0, 0, ...utxo.toBytes(manager.getDefaultCodec())])
}

let n: Running
beforeAll(async () => {
  n = await boot({ keystoreEnabled: true })
})
afterAll(() => n?.close())

const rpc = async (method: string, params: unknown[]) => (await n.api('/ext/bc/C/rpc', method, params)).result
const balance = async (): Promise<bigint> => BigInt(await rpc('eth_getBalance', [EWOQ_ADDRESS, 'latest']))
const nonce = async (): Promise<bigint> => BigInt(await rpc('eth_getTransactionCount', [EWOQ_ADDRESS, 'latest']))

describe.each(['avax', 'native'] as const)('keystore-backed methods over /ext/bc/C/%s', (service) => {
  const path = `/ext/bc/C/${service}`
  const user = `curl-${service}`
  const call = (m: string, params: unknown) => n.api(path, `${service}.${m}`, params)
  const ok = async (m: string, params: unknown) => {
    const r = await call(m, params)
    expect(r.error, `${service}.${m}`).toBeUndefined()
    return r.result
  }
  const errorOf = async (m: string, params: unknown) => {
    const r = await call(m, params)
    expect(r.result, `${service}.${m} should fail`).toBeUndefined()
    expect(r.error!.code).toBe(-32000)
    return r.error!.message
  }
  const auth = { username: user, password: PW }

  async function waitAccepted(txID: string): Promise<bigint> {
    const deadline = Date.now() + 20_000
    for (;;) {
      const st = await ok('getAtomicTxStatus', { txID })
      if (st.status === 'Accepted') return BigInt(st.blockHeight)
      expect(st.status).toBe('Processing')
      if (Date.now() > deadline) throw new Error(`${txID} still ${st.status}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  /** The accepted tx, decoded. */
  async function fetchTx(txID: string) {
    const got = await ok('getAtomicTx', { txID })
    return parseTx(decodeBytes('hex', got.tx))
  }

  it('createUser, importKey ewoq -> its EIP-55 address, exportKey -> the same key in both forms (idempotent import)', async () => {
    expect((await n.api('/ext/keystore', 'keystore.createUser', auth)).result).toEqual({})
    expect(await ok('importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })).toEqual({ address: EWOQ_ADDRESS })
    expect(await ok('importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })).toEqual({ address: EWOQ_ADDRESS })
    for (const address of [EWOQ_ADDRESS, EWOQ_ADDRESS.toLowerCase(), EWOQ_ADDRESS.slice(2)]) {
      expect(await ok('exportKey', { ...auth, address })).toEqual({ privateKey: EWOQ_PRIVATE_KEY, privateKeyHex: EWOQ_KEY })
    }
  })

  for (const dest of [
    { alias: 'X', to: EWOQ_X, chainID: NETWORKS.local.xChainID },
    { alias: 'P', to: EWOQ_P, chainID: NETWORKS.local.pChainID },
  ]) {
    it(`export C -> ${dest.alias} with the suggested base fee: Accepted; balance falls by (amount + fee) * 1e9, nonce + 1`, async () => {
      const amount = 123_456_789n
      const [bal0, nonce0] = [await balance(), await nonce()]
      const baseFee = BigInt(await rpc('eth_baseFee', []))
      const { txID } = await ok('export', { ...auth, to: dest.to, amount: amount.toString(), assetID: 'AVAX' })
      expect(txID).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40,60}$/)
      expect((await ok('getAtomicTxStatus', { txID })).status).toMatch(/^(Processing|Accepted)$/)
      await waitAccepted(txID)
      const tx = await fetchTx(txID)
      const utx = tx.tx.unsignedTx
      if (utx.typeID !== TYPE_ID.ExportTx) throw new Error('not an export')
      expect(Buffer.from(utx.destinationChain).equals(dest.chainID)).toBe(true)
      expect(utx.exportedOutputs).toHaveLength(1)
      expect(utx.exportedOutputs[0]!.out).toMatchObject({ amount, locktime: 0n, threshold: 1 })
      expect(Buffer.from(utx.exportedOutputs[0]!.out.addrs[0]!).equals(Buffer.from(ewoqShort))).toBe(true)
      expect(utx.ins).toHaveLength(1)
      expect(utx.ins[0]!.nonce).toBe(nonce0)
      const fee = utx.ins[0]!.amount - amount
      // The suggested base fee is eth_baseFee * 11 / 10 at the time of the call (the fee can only have moved up slightly).
      const gas = gasUsed(utx, tx.unsignedBytes.length)
      expect(fee).toBeGreaterThanOrEqual(calculateDynamicFee(gas, (baseFee * 11n) / 10n))
      expect(await balance()).toBe(bal0 - (amount + fee) * NANO)
      expect(await nonce()).toBe(nonce0 + 1n)
    })
  }

  it('export with an explicit baseFee (hex wei, as avalanchego; a JSON number as the API reference): fee = ceil(gas * baseFee / 1e9)', async () => {
    for (const baseFee of ['0x5d21dba00', 30_000_000_000]) {
      const wei = BigInt(baseFee)
      const amount = 1_000_000n
      const [bal0, nonce0] = [await balance(), await nonce()]
      const { txID } = await ok('export', { ...auth, to: EWOQ_X, amount: Number(amount), assetID: AVAX, baseFee })
      await waitAccepted(txID)
      const tx = await fetchTx(txID)
      const utx = tx.tx.unsignedTx
      if (utx.typeID !== TYPE_ID.ExportTx) throw new Error('not an export')
      const fee = calculateDynamicFee(gasUsed(utx, tx.unsignedBytes.length), wei)
      expect(utx.ins[0]!.amount).toBe(amount + fee)
      expect(await balance()).toBe(bal0 - (amount + fee) * NANO)
      expect(await nonce()).toBe(nonce0 + 1n)
    }
  })

  it('import from X spends the UTXOs placed in shared memory and credits (sum - fee) * 1e9; then no UTXOs is an error', async () => {
    const amounts = [400_000_000n, 100_000_000n]
    for (const a of amounts) await n.node.atomic.putInbound(NETWORKS.local.xChainID, fakeUTXO(a))
    const [bal0, nonce0] = [await balance(), await nonce()]
    const { txID } = await ok('import', { ...auth, sourceChain: 'X', to: EWOQ_ADDRESS })
    await waitAccepted(txID)
    const tx = await fetchTx(txID)
    const utx = tx.tx.unsignedTx
    if (utx.typeID !== TYPE_ID.ImportTx) throw new Error('not an import')
    expect(utx.importedInputs).toHaveLength(2)
    expect(utx.outs).toHaveLength(1)
    const credited = utx.outs[0]!.amount
    const fee = 500_000_000n - credited
    expect(fee).toBeGreaterThan(0n)
    expect(await balance()).toBe(bal0 + credited * NANO)
    expect(await nonce()).toBe(nonce0)
    expect((await ok('getUTXOs', { addresses: [EWOQ_C], sourceChain: 'X' })).utxos).toEqual([])
    expect(await errorOf('import', { ...auth, sourceChain: 'X', to: EWOQ_ADDRESS })).toBe('insufficient AVAX funds to pay transaction fee')
    expect(await errorOf('import', { ...auth, sourceChain: 'P', to: EWOQ_ADDRESS })).toBe('insufficient AVAX funds to pay transaction fee')
  })

  const exportAlias = service === 'avax' ? 'exportAVAX' : 'exportNative'
  const importAlias = service === 'avax' ? 'importAVAX' : 'importNative'
  it(`${exportAlias} / ${importAlias} (deprecated) work, ignore \`from\`/\`changeAddr\`, and warn once naming the replacement`, async () => {
    const warnings = () =>
      n
        .logText()
        .split('\n')
        .filter((l) => l.includes('deprecated API called'))
        .map((l) => JSON.parse(l) as { method: string; replacement?: string })
    const before = warnings().length
    for (let i = 0; i < 2; i++) {
      const bal0 = await balance()
      const { txID } = await ok(exportAlias, { ...auth, to: EWOQ_X, amount: '5000000', from: [EWOQ_C], changeAddr: EWOQ_C })
      await waitAccepted(txID)
      expect(await balance()).toBeLessThan(bal0 - 5_000_000n * NANO)
      await n.node.atomic.putInbound(NETWORKS.local.xChainID, fakeUTXO(50_000_000n))
      const imp = await ok(importAlias, { ...auth, sourceChain: cb58Encode(NETWORKS.local.xChainID), to: EWOQ_ADDRESS })
      await waitAccepted(imp.txID)
    }
    const mine = warnings().slice(before)
    expect(mine).toEqual([
      expect.objectContaining({ method: `${service}.${exportAlias}`, replacement: `${service}.export` }),
      expect.objectContaining({ method: `${service}.${importAlias}`, replacement: `${service}.import` }),
    ])
    // The other service's names do not exist here.
    const other = service === 'avax' ? 'exportNative' : 'exportAVAX'
    expect(await errorOf(other, {})).toBe(`rpc: can't find method "${service}.${other[0]!.toUpperCase()}${other.slice(1)}"`)
  })

  it('errors carry coreth v0.14.0 wording and change nothing', async () => {
    const [bal0, nonce0] = [await balance(), await nonce()]
    const exp = { ...auth, to: EWOQ_X, amount: '1000', assetID: 'AVAX' }
    const cases: [string, unknown, string][] = [
      ['exportKey', { ...auth, password: 'Wrong-Passphrase-0000', address: EWOQ_ADDRESS }, `problem retrieving user '${user}': incorrect password: user "${user}"`],
      ['export', { ...exp, username: 'nobody-here' }, `problem retrieving user 'nobody-here': incorrect password: user "nobody-here"`],
      ['exportKey', { ...auth, address: OTHER_ADDRESS }, 'problem retrieving private key: not found'],
      ['exportKey', { ...auth, address: '0x1234' }, "couldn't parse 0x1234 to address: invalid hex address"],
      ['importKey', { ...auth }, "argument 'privateKey' not given"],
      ['importKey', { ...auth, privateKey: 'PrivateKey-nope' }, "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"],
      ['export', { ...exp, amount: 0 }, "argument 'amount' must be > 0"],
      ['export', { ...exp, amount: undefined }, "argument 'amount' must be > 0"],
      ['export', { ...exp, assetID: undefined }, 'assetID is required'],
      ['export', { ...exp, assetID: cb58Encode(new Uint8Array(32).fill(7)) }, "couldn't create tx: couldn't generate tx inputs/signers: insufficient funds"],
      ['export', { ...exp, assetID: 'zzzzzzzz' }, 'invalid input checksum'],
      ['export', { ...exp, assetID: 'notAnID' }, "base58 decoding error: invalid base58 digit ('I')"],
      ['export', { ...exp, to: 'foo' }, 'there is no ID with alias: '],
      ['export', { ...exp, to: EWOQ_C }, "couldn't create tx: tx has wrong chain ID"],
      ['export', { ...exp, amount: '18000000000000000000' }, "couldn't create tx: couldn't generate tx inputs/signers: insufficient funds"],
      ['export', { ...exp, baseFee: '0x01' }, "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"],
      ['import', { ...auth, sourceChain: 'Q', to: EWOQ_ADDRESS }, 'problem parsing chainID "Q": there is no ID with alias: Q'],
      ['import', { ...auth, sourceChain: 'X' }, "argument 'to' not given"],
    ]
    for (const [m, params, message] of cases) expect(await errorOf(m, params), `${m} ${JSON.stringify(params)}`).toBe(message)
    // A short ID with targetChain selects the chain (coreth's fallback for a `to` without a chain prefix).
    expect(await errorOf('export', { ...exp, to: cb58Encode(ewoqShort), targetChain: 'C' })).toBe("couldn't create tx: tx has wrong chain ID")
    expect(await balance()).toBe(bal0)
    expect(await nonce()).toBe(nonce0)
  })

  if (service === 'avax') {
    it('AvalancheJS: keystore steps through its JSON-RPC provider, then EVMApi status and getAtomicTx decode the export', async () => {
      const api = new evm.EVMApi(`http://127.0.0.1:${n.port}`)
      const provider = (api as unknown as { rpcProvider: { callMethod<T>(m: string, p: unknown): Promise<T> } }).rpcProvider
      expect(await provider.callMethod('avax.importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })).toEqual({ address: EWOQ_ADDRESS })
      const { txID } = await provider.callMethod<{ txID: string }>('avax.export', { ...auth, to: EWOQ_P, amount: '2000000', assetID: 'AVAX' })
      const deadline = Date.now() + 20_000
      while ((await api.getAtomicTxStatus(txID)).status !== 'Accepted') {
        if (Date.now() > deadline) throw new Error('not accepted')
        await new Promise((r) => setTimeout(r, 50))
      }
      const got = await api.getAtomicTx({ txID })
      expect(evmSerial.isExportTx(got.tx.unsignedTx)).toBe(true)
      const sha = createHash('sha256').update(got.tx.toBytes()).digest()
      expect(utils.base58check.encode(sha)).toBe(txID)
    })
  }
})

describe('at rest and in the logs', () => {
  it('the data directory and the logs hold neither the ewoq key (raw, hex, PrivateKey-) nor the password', async () => {
    expectNoSecrets(n.dataDir, n.logText(), [...EWOQ_KEY_FORMS, Buffer.from(PW)])
  })
})

describe('keystore off (default): the methods answer as avalanchego over an empty keystore', () => {
  let off: Running
  beforeAll(async () => {
    off = await boot()
  })
  afterAll(() => off?.close())

  it.each(['avax', 'native'] as const)('over /ext/bc/C/%s: every user is unknown, nothing changes', async (service) => {
    const path = `/ext/bc/C/${service}`
    const auth = { username: 'alice', password: PW }
    const err = async (m: string, params: unknown) => (await off.api(path, `${service}.${m}`, params)).error?.message
    const bal0 = await off.api('/ext/bc/C/rpc', 'eth_getBalance', [EWOQ_ADDRESS, 'latest'])
    expect(await err('importKey', { ...auth, privateKey: EWOQ_PRIVATE_KEY })).toBe('problem retrieving data: incorrect password: user "alice"')
    expect(await err('exportKey', { ...auth, address: EWOQ_ADDRESS })).toBe(`problem retrieving user 'alice': incorrect password: user "alice"`)
    expect(await err('export', { ...auth, to: EWOQ_X, amount: 1000, assetID: 'AVAX' })).toBe(`problem retrieving user 'alice': incorrect password: user "alice"`)
    expect(await err('import', { ...auth, sourceChain: 'X', to: EWOQ_ADDRESS })).toBe(`couldn't get user 'alice': incorrect password: user "alice"`)
    // Argument checks that come before the keystore still answer first.
    expect(await err('export', { ...auth, to: EWOQ_X, amount: 0, assetID: 'AVAX' })).toBe("argument 'amount' must be > 0")
    expect((await off.api('/ext/bc/C/rpc', 'eth_getBalance', [EWOQ_ADDRESS, 'latest'])).result).toBe(bal0.result)
  })
})
