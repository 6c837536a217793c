import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { AbiCoder, keccak256 } from 'ethers'
import type { Logger } from 'pino'
import type { NodeConfig } from '../config.js'
import type { Engine } from '../engine/engine.js'
import { type KeylessDeployment, deployKeyless, parseKeylessDeployment } from '../icm/bootstrap.js'
import { Relayer } from '../icm/relayer.js'
import type { BlsSigner } from '../warp/bls.js'

/** The relayer account's key when none is configured: fixed, so its address is known in advance (docs/ICM.md). */
export const DEFAULT_RELAYER_KEY = keccak256(new TextEncoder().encode('cchain-node/icm-relayer/v1'))

/** The node's relayer (docs/ICM.md), or none when it is off: by default on the local network only. */
export function createRelayer(config: NodeConfig, local: boolean, signer: BlsSigner, log: Logger): Relayer | undefined {
  const mode = config.icmRelayer ?? (local ? 'auto' : 'off')
  if (mode === 'off') return undefined
  const hex = (text: string) => Uint8Array.from(Buffer.from(text.slice(2), 'hex'))
  return new Relayer({
    mode,
    networkID: config.networkId,
    messenger: hex(config.icmMessengerAddress),
    signer,
    key: hex(config.icmRelayerKey ?? DEFAULT_RELAYER_KEY),
    log: log.child({ module: 'icm' }),
  })
}

/** Avalanche's public EVM chain IDs (mainnet, Fuji): no set-up ever runs there. */
const PUBLIC_CHAIN_IDS = new Set([43114n, 43113n])

/** The file avalanche-cli keeps next to Teleporter's deployment transaction: TeleporterRegistry's creation code. */
const REGISTRY_FILE = 'TeleporterRegistry_Bytecode_v1.0.0.txt'

/** What the set-up deploys: the messenger's keyless deployment and, where its creation code is at hand, a registry naming it. */
export interface MessengerSetUp {
  readonly deployment: KeylessDeployment
  /** Its creation code with the constructor's arguments. */
  readonly registry?: Uint8Array
}

/**
 * `--icm-messenger-deployment-tx`'s transaction and `--icm-registry-bytecode`'s registry (by default
 * the file avalanche-cli keeps beside the transaction, if there), read at start: a file that holds no
 * keyless deployment stops the node with the reason.
 */
export function readMessengerDeployment(config: NodeConfig): MessengerSetUp | undefined {
  const file = config.icmMessengerDeploymentTx
  if (file === undefined) return undefined
  let deployment: KeylessDeployment
  try {
    deployment = parseKeylessDeployment(readFileSync(file, 'utf8'))
  } catch (err) {
    throw new Error(`--icm-messenger-deployment-tx ${file}: ${(err as Error).message}`)
  }
  const registryFile = config.icmRegistryBytecode ?? join(dirname(file), REGISTRY_FILE)
  if (config.icmRegistryBytecode === undefined && !existsSync(registryFile)) return { deployment }
  const code = readFileSync(registryFile, 'utf8').trim()
  if (!/^(0x)?([0-9a-fA-F]{2})+$/.test(code)) throw new Error(`--icm-registry-bytecode ${registryFile}: creation code is hex`)
  // constructor(ProtocolRegistryEntry[] initialEntries): version 1 is the messenger.
  const entries = AbiCoder.defaultAbiCoder().encode(['tuple(uint256 version, address protocolAddress)[]'], [[[1n, bytesToHex(deployment.contract)]]])
  return { deployment, registry: hexToBytes(`0x${code.replace(/^0x/i, '')}${entries.slice(2)}`) }
}

/**
 * Sends the messenger's keyless deployment on every chain of a local network that is not a fork and
 * lacks it (docs/ICM.md), funding its deployer and the relayer from ewoq, with the registry.
 */
export async function deployMessenger(setUp: MessengerSetUp | undefined, local: boolean, engines: readonly Engine[], relayer: Relayer | undefined, log: Logger): Promise<void> {
  if (setUp === undefined) return
  if (!local) {
    log.warn('icm: --icm-messenger-deployment-tx applies to the local network only; not deployed')
    return
  }
  for (const engine of engines) {
    if (engine.fork !== undefined || PUBLIC_CHAIN_IDS.has(engine.chainId)) continue
    await deployKeyless(engine, setUp.deployment, relayer?.address, log.child({ module: 'icm' }), setUp.registry)
  }
}
