import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { bytesToHex, concatBytes, equalsBytes, hexToBytes, toChecksumAddress } from '@ethereumjs/util'
import type { Logger } from 'pino'
import type { NodeConfig } from '../config.js'
import { type KeylessDeployment, parseKeylessDeployment } from '../icm/bootstrap.js'
import { abiEncode } from '../util/abi.js'

/*
 * Where Teleporter's keyless deployment transaction comes from (docs/ICM.md, "Teleporter's
 * deployment"): `--icm-messenger-deployment-tx`'s file, or its URL (the icm-contracts release's
 * file, downloaded once into the data dir), or, without the flag, the copy avalanche-cli keeps.
 */

/** The release file's name (icm-contracts v1.0.0), also avalanche-cli's. */
const DEPLOYMENT_FILE = 'TeleporterMessenger_Deployment_Transaction_v1.0.0.txt'
/** The file avalanche-cli keeps next to Teleporter's deployment transaction: TeleporterRegistry's creation code. */
const REGISTRY_FILE = 'TeleporterRegistry_Bytecode_v1.0.0.txt'
/** How long a download may take. */
const DOWNLOAD_MS = 15_000

/** Where avalanche-cli keeps icm-contracts v1.0.0's deployment (its `bin/icm-contracts/<version>/`), under its directory (`--avalanche-cli-dir`, ~/.avalanche-cli). */
function avalancheCliDeploymentFile(config: NodeConfig): string {
  return join(config.avalancheCliDir, 'bin', 'icm-contracts', 'v1.0.0', DEPLOYMENT_FILE)
}

/** What the set-up deploys: the messenger's keyless deployment and, where its creation code is at hand, a registry naming it. */
export interface MessengerSetUp {
  readonly deployment: KeylessDeployment
  /** Its creation code with the constructor's arguments. */
  readonly registry?: Uint8Array
}

/**
 * The messenger's deployment the node sends on its local chains, or undefined (with one line saying
 * how to get it). A file or download that holds no keyless deployment, or one of another contract
 * than `--icm-messenger-address`, stops the node with the reason.
 */
export async function resolveMessengerDeployment(config: NodeConfig, log: Logger): Promise<MessengerSetUp | undefined> {
  const given = config.icmMessengerDeploymentTx
  const flag = '--icm-messenger-deployment-tx'
  if (given === undefined) {
    // Mainnet and Fuji have Teleporter already; the node deploys it on local networks only.
    if (config.networkId === 1 || config.networkId === 5) return undefined
    const cli = avalancheCliDeploymentFile(config)
    if (!existsSync(cli)) {
      log.info(`icm: Teleporter is not deployed on the local chains: pass ${flag} <file or URL> (icm-contracts v1.0.0's ${DEPLOYMENT_FILE}), or install it with avalanche-cli (${dirname(cli)})`)
      return undefined
    }
    log.info({ file: cli }, "icm: Teleporter's deployment transaction from avalanche-cli's copy")
    return fromFile(cli, config, `${cli} (avalanche-cli's copy)`)
  }
  if (!/^https?:\/\//i.test(given)) return fromFile(given, config, `${flag} ${given}`)
  // A URL: downloaded once into the data dir, read from there on later starts.
  const cached = join(config.dataDir, 'icm', DEPLOYMENT_FILE)
  if (!existsSync(cached)) {
    let text: string
    try {
      const res = await fetch(given, { signal: AbortSignal.timeout(DOWNLOAD_MS) })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      text = await res.text()
    } catch (err) {
      log.warn(`icm: could not download ${given} (${(err as Error).message}); Teleporter is not deployed: download ${DEPLOYMENT_FILE} and pass ${flag} <file>`)
      return undefined
    }
    // Checked before it is kept: a download that is not the deployment it claims to be is never cached.
    checked(text, config, `${flag} ${given}`)
    mkdirSync(dirname(cached), { recursive: true })
    writeFileSync(cached, text)
    log.info({ url: given, file: cached }, "icm: Teleporter's deployment transaction downloaded")
  }
  return { deployment: checked(readFileSync(cached, 'utf8'), config, `${flag} ${given} (${cached})`) }
}

/** The file's deployment, and the registry's creation code beside it (`--icm-registry-bytecode`, else avalanche-cli's file there). */
function fromFile(file: string, config: NodeConfig, what: string): MessengerSetUp {
  const deployment = checked(readFileSync(file, 'utf8'), config, what)
  const registryFile = config.icmRegistryBytecode ?? join(dirname(file), REGISTRY_FILE)
  if (config.icmRegistryBytecode === undefined && !existsSync(registryFile)) return { deployment }
  const code = readFileSync(registryFile, 'utf8').trim()
  if (!/^(0x)?([0-9a-fA-F]{2})+$/.test(code)) throw new Error(`--icm-registry-bytecode ${registryFile}: creation code is hex`)
  // constructor(ProtocolRegistryEntry[] initialEntries): version 1 is the messenger.
  const entries = abiEncode([{ array: { tuple: ['uint256', 'address'] } }], [[[1n, deployment.contract]]])
  return { deployment, registry: concatBytes(hexToBytes(`0x${code.replace(/^0x/i, '')}`), entries) }
}

/** A keyless deployment of the messenger the relayer watches (`--icm-messenger-address`), or an error naming `what`. */
function checked(text: string, config: NodeConfig, what: string): KeylessDeployment {
  let deployment: KeylessDeployment
  try {
    deployment = parseKeylessDeployment(text)
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}`)
  }
  if (!equalsBytes(deployment.contract, hexToBytes(config.icmMessengerAddress as `0x${string}`))) {
    throw new Error(
      `${what}: a keyless deployment of ${toChecksumAddress(bytesToHex(deployment.contract))} by ${toChecksumAddress(bytesToHex(deployment.sender))}, not of the messenger ${toChecksumAddress(config.icmMessengerAddress)} (--icm-messenger-address)`,
    )
  }
  return deployment
}
