const UINT64_MAX = 0xffffffffffffffffn

/**
 * avax.FlowChecker (avalanchego: vms/components/avax/flow_checker.go): sums what a tx produces and consumes per
 * asset with uint64 arithmetic; the tx is valid when no sum overflowed and every asset is consumed at least as
 * much as it is produced.
 */
export class FlowChecker {
  private readonly produced = new Map<string, bigint>()
  private readonly consumed = new Map<string, bigint>()
  private overflowed = false

  produce(assetID: Uint8Array, amount: bigint): void {
    this.add(this.produced, assetID, amount)
  }

  consume(assetID: Uint8Array, amount: bigint): void {
    this.add(this.consumed, assetID, amount)
  }

  /** avalanchego's error text (`overflow`, `insufficient funds`), or undefined when the flow balances. */
  verify(): 'overflow' | 'insufficient funds' | undefined {
    if (this.overflowed) return 'overflow'
    for (const [asset, amount] of this.produced) if (amount > (this.consumed.get(asset) ?? 0n)) return 'insufficient funds'
    return undefined
  }

  private add(sums: Map<string, bigint>, assetID: Uint8Array, amount: bigint): void {
    const key = Buffer.from(assetID).toString('hex')
    const sum = (sums.get(key) ?? 0n) + amount
    if (sum > UINT64_MAX) this.overflowed = true
    sums.set(key, sum & UINT64_MAX)
  }
}
