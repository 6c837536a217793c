import { createTxFromRLP, type LegacyTx } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, bytesToHex, equalsBytes, generateAddress, hexToBytes, privateToAddress } from '@ethereumjs/util'
import type { Logger } from 'pino'
import type { Engine } from '../engine/engine.js'
import { sendSigned } from './sendSigned.js'

/** The local network's funded key (ewoq: avalanchego's local genesis allocation), which pays for the set-up. */
const EWOQ_KEY = hexToBytes('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027')
/** What the set-up gives the relayer's account on each chain: 1,000 AVAX. */
const RELAYER_FUNDS = 1_000n * 10n ** 18n

/** A keyless deployment (Nick's method): its raw bytes, its sender and the contract it creates. */
export interface KeylessDeployment {
  readonly raw: Uint8Array
  readonly sender: Uint8Array
  readonly contract: Uint8Array
  /** gas limit x gas price: what the sender must hold. */
  readonly cost: bigint
}

/**
 * Reads a keyless deployment transaction (hex, as icm-contracts publishes
 * TeleporterMessenger_Deployment_Transaction_v1.0.0.txt): a legacy transaction without a chain ID,
 * nonce 0, no recipient, r == s. Throws with the reason otherwise.
 */
export function parseKeylessDeployment(text: string): KeylessDeployment {
  const hex = text.trim().replace(/^0x/i, '')
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new Error('a keyless deployment transaction is hex')
  const raw = hexToBytes(`0x${hex}`)
  let tx: LegacyTx
  try {
    tx = createTxFromRLP(raw) as LegacyTx
  } catch (err) {
    throw new Error(`not a keyless deployment: ${(err as Error).message}`)
  }
  if (tx.type !== 0 || tx.nonce !== 0n || tx.to !== undefined || tx.r === undefined || tx.r !== tx.s || (tx.v !== 27n && tx.v !== 28n)) {
    throw new Error('not a keyless deployment: a legacy transaction without a chain ID, nonce 0, no recipient and r == s')
  }
  const sender = tx.getSenderAddress().bytes
  return { raw, sender, contract: generateAddress(sender, new Uint8Array()), cost: tx.gasLimit * tx.gasPrice }
}

/**
 * Puts a keyless deployment on a chain as its deployment script does: ewoq sends the sender what the
 * transaction costs, then the raw transaction is sent; ewoq also funds the relayer's account. With
 * `registry`, ewoq deploys it right after funding the deployer (so on a fresh chain from its nonce 1,
 * at the address avalanche-cli's local network has it). Nothing happens where the contract is already there; a chain
 * where ewoq cannot pay is logged and left.
 */
export async function deployKeyless(engine: Engine, deployment: KeylessDeployment, relayer: Uint8Array | undefined, log: Logger, registry?: Uint8Array): Promise<void> {
  if ((await engine.code(deployment.contract, 'latest')).length > 0) return
  if ((await engine.nonce(deployment.sender, 'latest')) !== 0n) {
    log.warn({ sender: bytesToHex(deployment.sender) }, 'icm: the deployer has sent a transaction already; its contract cannot be deployed here')
    return
  }
  const ewoq = privateToAddress(EWOQ_KEY)
  try {
    await sendSigned(engine, EWOQ_KEY, { to: deployment.sender, value: deployment.cost, gas: 21_000n })
    if (registry !== undefined) {
      const address = generateAddress(ewoq, bigIntToUnpaddedBytes(await engine.poolNonce(ewoq)))
      await sendSigned(engine, EWOQ_KEY, { input: registry, gas: 3_000_000n })
      log.info({ registry: bytesToHex(address) }, 'icm: registry deployed')
    }
    if (relayer !== undefined && !equalsBytes(relayer, ewoq) && (await engine.balance(relayer, 'latest')) === 0n)
      await sendSigned(engine, EWOQ_KEY, { to: relayer, value: RELAYER_FUNDS, gas: 21_000n })
    await engine.sendRawTransaction(deployment.raw)
    log.info({ contract: bytesToHex(deployment.contract) }, 'icm: keyless deployment sent')
  } catch (err) {
    log.warn({ err, contract: bytesToHex(deployment.contract) }, 'icm: the keyless deployment could not be sent on this chain')
  }
}
