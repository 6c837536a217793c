import type { Logger } from 'pino'
import type { ChainConfigFile } from '../config.js'
import type { DispatcherOptions } from '../rpc/dispatch.js'
import type { RpcStats } from '../rpc/stats.js'
import { configDurationMs } from '../util/goDuration.js'

/** A chain's JSON-RPC dispatcher limits from its chain config (docs/SECURITY.md, L4, L6, L7, L8, L11). */
export function dispatcherOptions(chainConfig: ChainConfigFile, log: Logger, stats: RpcStats): DispatcherOptions {
  return {
    batchRequestLimit: chainConfig['batch-request-limit'],
    batchResponseMaxSize: chainConfig['batch-response-max-size'],
    requestTimeoutMs: Math.max(0, configDurationMs(chainConfig['api-max-duration'])),
    maxMethodNameLength: chainConfig['rpc-max-method-name-length'],
    maxParamsDepth: chainConfig['rpc-max-params-depth'],
    log,
    stats,
  }
}
