import { bytesToHex } from '@ethereumjs/util'
import type { Logger } from 'pino'
import type { NodeConfig } from '../config.js'
import type { Engine } from '../engine/engine.js'
import { deployKeyless } from '../icm/bootstrap.js'
import type { MessengerSetUp } from './messengerDeployment.js'
import { Relayer } from '../icm/relayer.js'
import { keccak256 } from '../util/crypto.js'
import type { BlsSigner } from '../warp/bls.js'

/** The relayer account's key when none is configured: fixed, so its address is known in advance (docs/ICM.md). */
export const DEFAULT_RELAYER_KEY = bytesToHex(keccak256(new TextEncoder().encode('cchain-node/icm-relayer/v1')))

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
