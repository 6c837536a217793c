/** A write batch entry. */
export type BatchOp = { type: 'put'; key: Uint8Array; value: Uint8Array } | { type: 'del'; key: Uint8Array }
