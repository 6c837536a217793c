import type { BatchDBOp, DB } from '@ethereumjs/util'

/** Trie writes kept in memory over the node's trie database: a simulation never writes to disk. */
export class OverlayDB implements DB<string, string | Uint8Array> {
  private readonly local = new Map<string, string | Uint8Array | undefined>()
  constructor(private readonly below: DB<string, string | Uint8Array>) {}
  async get(key: string): Promise<string | Uint8Array | undefined> {
    return this.local.has(key) ? this.local.get(key) : this.below.get(key)
  }
  async put(key: string, value: string | Uint8Array): Promise<void> {
    this.local.set(key, value)
  }
  async del(key: string): Promise<void> {
    this.local.set(key, undefined)
  }
  async batch(ops: BatchDBOp<string, string | Uint8Array>[]): Promise<void> {
    for (const op of ops) this.local.set(op.key, op.type === 'put' ? op.value : undefined)
  }
  shallowCopy(): DB<string, string | Uint8Array> {
    return this
  }
  async open(): Promise<void> {}
}
