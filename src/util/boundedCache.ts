/**
 * A cache of at most about `max` entries that forgets the least recently used half at once: two
 * generations of Maps, new entries and hits go to the young one, and when it is full the old one
 * is dropped. Evicting one entry at a time from a Map (`map.delete(map.keys().next().value)`)
 * costs more with every eviction, because V8 keeps the deleted slots until the table is rebuilt and
 * `keys()` walks over them: with a full 50,000-entry cache of never-repeated keys, each insert cost
 * tens of microseconds (measured here: eth_getBalance of a new address each request).
 * With `weight`, `max` bounds the entries' total weight instead of their number (a block's logs
 * weigh as many as they are).
 */
export class BoundedCache<K, V> {
  private young = new Map<K, V>()
  private old = new Map<K, V>()
  /** The young generation's total weight. */
  private youngWeight = 0

  constructor(
    private readonly max: number,
    private readonly weight?: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const v = this.young.get(key)
    if (v !== undefined) return v
    const o = this.old.get(key)
    if (o !== undefined) this.set(key, o)
    return o
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key)
  }

  set(key: K, value: V): void {
    this.young.set(key, value)
    const full = this.weight === undefined ? this.young.size >= this.max / 2 : (this.youngWeight += this.weight(value)) >= this.max / 2
    if (full) {
      this.old = this.young
      this.young = new Map()
      this.youngWeight = 0
    }
  }

  delete(key: K): void {
    this.young.delete(key)
    this.old.delete(key)
  }

  /** Drops every entry `drop` picks. */
  deleteWhere(drop: (value: V, key: K) => boolean): void {
    for (const generation of [this.young, this.old]) {
      for (const [k, v] of generation) if (drop(v, k)) generation.delete(k)
    }
  }

  clear(): void {
    this.young = new Map()
    this.old = new Map()
    this.youngWeight = 0
  }

  /** Entries held (a key in both generations counts twice). */
  get size(): number {
    return this.young.size + this.old.size
  }
}
