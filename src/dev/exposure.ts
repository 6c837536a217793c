import { ConfigError, type NodeConfig, isLoopbackHost } from '../config.js'

/** Chain IDs and network IDs of the public networks, where the development controls are off unless enabled by name. */
const PUBLIC_CHAIN_IDS = new Set([43114, 43113])
const PUBLIC_NETWORK_IDS = new Set([1, 5])

/**
 * Whether a chain serves the development controls: off when `--dev-controls-enabled=false`; on a
 * public network (chain ID 43114 or 43113, network ID 1 or 5) only when enabled by name; on a
 * non-loopback host only with `--dev-controls-allow-remote` (asking for them there without it is
 * refused at start by checkDevControlsExposure).
 */
export function devControlsOn(config: NodeConfig, chainId: number): boolean {
  if (config.devControls === false) return false
  if (!isLoopbackHost(config.httpHost) && !config.devControlsAllowRemote) return false
  if (PUBLIC_CHAIN_IDS.has(chainId) || PUBLIC_NETWORK_IDS.has(config.networkId)) return config.devControls === true
  return true
}

/** `--dev-controls-enabled` with a non-loopback host needs `--dev-controls-allow-remote` too (they can rewrite the chain). */
export function checkDevControlsExposure(config: NodeConfig): void {
  if (config.devControls === true && !config.devControlsAllowRemote && !isLoopbackHost(config.httpHost)) {
    throw new ConfigError(`--dev-controls-enabled with the non-loopback --http-host ${config.httpHost} also needs --dev-controls-allow-remote (the development controls rewrite the chain)`)
  }
}
