import type { Logger } from 'pino'

/**
 * anvil_setLoggingEnabled / hardhat_setLoggingEnabled: whether the chain's JSON-RPC dispatcher logs
 * each call (method, id, duration), as anvil prints every request while its logging is on. Here
 * the calls are the `rpc` logger's debug lines, so on lowers that logger to debug and off raises it
 * above debug; the rest of the node logs at its `--log-level` either way.
 */
export class RequestLogging {
  private readonly base: string

  constructor(private readonly rpcLog: Logger) {
    this.base = rpcLog.level
  }

  setEnabled(on: boolean): void {
    const verbose = this.base === 'debug' || this.base === 'trace'
    this.rpcLog.level = on ? (verbose ? this.base : 'debug') : verbose ? 'info' : this.base
  }
}
