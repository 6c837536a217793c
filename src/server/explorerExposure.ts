import { type NodeConfig, isLoopbackHost } from '../config.js'

/**
 * Whether the node serves the explorer (docs/EXPLORER.md): `--explorer-enabled` decides when given;
 * unset, only on a loopback `--http-host`. It is read-only and shows what the public APIs already
 * answer, so one flag is enough to turn it on anywhere (the keystore and the development controls,
 * which take secrets or rewrite the chain, need a second one).
 */
export function explorerOn(config: Pick<NodeConfig, 'explorerEnabled' | 'httpHost'>): boolean {
  return config.explorerEnabled ?? isLoopbackHost(config.httpHost)
}
